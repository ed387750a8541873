"""The per-channel pacer: 5 sends per 5 seconds in a sliding window, one a second, and a 429's
hold."""

from __future__ import annotations

from bot.pacing import Pacer


def test_edits_in_a_channel_go_one_a_second_and_the_rest_waits() -> None:
    """Spread evenly: a busy table's newest state waits at most a second to be shown, never
    five after a burst of five."""
    pacer = Pacer(5, 5.0)
    assert pacer.take("c", 0.0) == 0.0
    assert pacer.take("c", 0.25) == 0.75  # within the second of the last edit: waits
    assert pacer.take("other", 0.25) == 0.0  # each channel has its own window
    assert [pacer.take("c", t) for t in (1.0, 2.0, 3.0, 4.0)] == [0.0] * 4
    assert pacer.take("c", 5.0) == 0.0  # the first has left the five-second window


def test_without_spreading_five_go_then_the_sixth_waits_for_the_first_to_leave() -> None:
    pacer = Pacer(5, 5.0, spread=1)
    assert [pacer.take("c", t) for t in (0.0, 0.5, 1.0, 1.5, 2.0)] == [0.0] * 5
    assert pacer.take("c", 2.5) == 2.5
    assert pacer.take("c", 5.0) == 0.0


def test_a_429_holds_the_bucket_until_its_retry_after() -> None:
    pacer = Pacer(5, 5.0)
    pacer.hold("c", 3.0)
    assert pacer.take("c", 1.0) == 2.0
    assert pacer.take("c", 3.0) == 0.0


def test_an_idle_bucket_is_forgotten() -> None:
    pacer = Pacer(5, 5.0)
    pacer.take("c", 0.0)
    pacer.forget("c", 1.0)
    assert "c" in pacer._sent  # still in its window
    pacer.forget("c", 6.0)
    assert "c" not in pacer._sent
