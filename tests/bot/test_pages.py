"""Sections laid out as messages within Discord's limit (bot/messages.pages)."""

from __future__ import annotations

from bot.messages import MESSAGE_LIMIT, pages


def test_whole_sections_go_together_while_they_fit() -> None:
    assert pages(["a" * 10, "b" * 10, "c" * 10], limit=25) == ["a" * 10 + "\n\n" + "b" * 10,
                                                               "c" * 10]
    assert pages(["short"]) == ["short"]


def test_a_section_longer_than_a_message_is_cut_between_its_lines() -> None:
    lines = [f"line {i:03}" for i in range(400)]  # 3,600 characters with its newlines
    out = pages(["intro", "\n".join(lines)])
    assert all(len(page) <= MESSAGE_LIMIT for page in out) and len(out) == 3
    assert "\n".join(out).replace("\n\n", "\n").splitlines() == ["intro", *lines]


def test_a_line_longer_than_a_message_is_cut_too() -> None:
    out = pages(["x" * 4500])
    assert [len(p) for p in out] == [2000, 2000, 500] and "".join(out) == "x" * 4500
