"""The match page's replay drawn from the match as it stood before the deal shown (web/site.py:
each deal played from ``Match.at_deal``, not from the first deal) is the very page, byte for
byte, drawn from the steps replayed from the first deal: every deal of a few matches of each
variant, with moves marked as not clicked, in each language."""

from __future__ import annotations

from typing import Any

import pytest

from db.results import MatchPlayer, MatchRow
from game.record import parse_record, replay, to_record
from game.rules import Variant
from game.steps import computer_seats, step_counts, steps
from i18n import words
from service.records import Replay
from tests.game.test_properties import play_random
from web import replay as drawn
from web.site import Known, Site

PLAYERS = ["Ana", "Boris", "Chloé", "Dimitar"]
ROOT = "/s/TOKEN"


class NoSource:
    """What a page of a match with no analysis reads besides the match: nothing."""


def _match(variant: Variant, seed: int) -> dict[str, Any]:
    options: dict[str, Any] = {"target": 100_000, "deal_cap": 6, "announcements": True}
    record = to_record(play_random(variant, options, seed & 3, seed, max_deals=40,
                                   check=False))
    for n, d in enumerate(record["deals"]):  # a computer's seat, and moves not clicked
        for k, raw in enumerate(d["actions"]):
            if raw["seat"] == 3:
                raw["by"] = "computer"
            elif (n + k) % 11 == 0:
                raw["by"] = ("timeout", "forced", "ahead")[k % 3]
    return record


def _known(record: dict[str, Any]) -> Known:
    match = replay(record)
    row = MatchRow(1, 7, 1, match.variant.value, "{}", "played", match.winner,
                   (match.totals[0], match.totals[1]), len(match.deals), 1, False,
                   "2026-12-02T17:00:00", None,
                   tuple(MatchPlayer(s, s + 1, None) for s in range(4)), ())
    rec = parse_record(record)
    return Known(Replay(row, record, match, PLAYERS), rec, step_counts(rec),
                 computer_seats(rec))


@pytest.mark.parametrize("variant", list(Variant))
async def test_each_deals_page_is_the_page_replayed_from_the_first_deal(
        variant: Variant) -> None:
    site = Site(NoSource())  # type: ignore[arg-type]
    for seed in (1, 2):
        known = _known(_match(variant, seed))
        row = known.replay.row
        assert len(known.counts) > 1
        for language in ("en", "fr", "bg"):
            w = words(language)
            for deal in range(len(known.counts)):
                page = await site.match_page(known, deal, False, ROOT, "TOKEN", w)
                scratch = drawn.section(steps(known.record, deal), known.counts, -1, PLAYERS,
                                        row, f"{ROOT}/match/{row.table_id}", w,
                                        known.computers)
                assert scratch in page, (variant, seed, language, deal)
                head, tail = page.split(scratch)
                # Nothing else of the page depends on the deal shown but its replay.
                other = await site.match_page(known, 1 - min(deal, 1), False, ROOT, "TOKEN",
                                              w)
                assert other.startswith(head) and other.endswith(tail)
