"""Discord's message limits as the fake checks them (400 50035 with Discord's error paths)."""

from __future__ import annotations

from typing import Any

from tests.fakediscord.limits import check_message


def button(custom_id: str, label: str = "Go") -> dict[str, Any]:
    return {"type": 2, "style": 1, "label": label, "custom_id": custom_id}


def row(*items: dict[str, Any]) -> dict[str, Any]:
    return {"type": 1, "components": list(items)}


def select(custom_id: str, n: int) -> dict[str, Any]:
    options = [{"label": f"o{i}", "value": f"v{i}"} for i in range(n)]
    return {"type": 3, "custom_id": custom_id, "options": options}


def test_a_message_within_every_limit_passes() -> None:
    rows = [row(*(button(f"b{r}{i}") for i in range(5))) for r in range(4)] + [row(select("s", 25))]
    assert not check_message({"content": "x" * 2000, "components": rows})


def test_each_limit_is_reported_at_its_path() -> None:
    cases: list[tuple[dict[str, Any], str]] = [
        ({"content": "x" * 2001}, "content"),
        ({"components": [row(button(f"b{i}")) for i in range(6)]}, "components"),
        ({"components": [row(*(button(f"b{i}") for i in range(6)))]}, "components.0.components"),
        ({"components": [row(button("a"), select("s", 2))]}, "components.0.components"),
        ({"components": [row(button("x" * 101))]}, "components.0.components.0.custom_id"),
        ({"components": [row(button("a", label="x" * 81))]}, "components.0.components.0.label"),
        ({"components": [row(select("s", 26))]}, "components.0.components.0.options"),
        ({"components": [row(button("a"), button("a"))]}, "components"),
        ({"components": [button("bare")]}, "components.0.type"),
        ({"embeds": [{"title": "t" * 257}]}, "embeds.0.title"),
        ({"embeds": [{"description": "d"}] * 11}, "embeds"),
        (
            {"components": [row({"type": 2, "style": 1, "custom_id": "nolabel"})]},
            "components.0.components.0",
        ),
    ]
    for body, path in cases:
        errors = check_message(body)
        assert errors, body
        assert any(m.startswith(path + ":") for m in errors.messages), (path, errors.messages)
        assert errors.body()["code"] == 50035


def test_components_v2_count_every_component() -> None:
    texts = [{"type": 10, "content": "line"} for _ in range(40)]
    assert not check_message({"flags": 1 << 15, "components": texts})
    errors = check_message({"flags": 1 << 15, "components": [*texts, {"type": 10, "content": "x"}]})
    assert any("40" in m for m in errors.messages)
    assert check_message({"flags": 1 << 15, "content": "legacy", "components": texts[:1]})
