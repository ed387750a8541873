"""A tournament's bracket (web/tournament.py): each drawn table says who plays whom in words
(no lone dash between the pairs), and what became of it: won by a pair, in play (a link to its
live page), or, once its tournament was cancelled, not played."""

from __future__ import annotations

import re
from html import unescape
from typing import Any

from i18n import words
from web.tournament import bracket


def state(stage: str) -> dict[str, Any]:
    return {"stage": stage, "tables_per_round": [2, 1], "rounds": [{"number": 1, "tables": [
        {"position": 0, "table": 7, "pairs": [["ana", "bo"], ["cy", "<b>dee</b>"]],
         "winner": 1, "live": False},
        {"position": 1, "table": 8, "pairs": [["eve", "fay"], ["gus", "hal"]],
         "winner": None, "live": stage == "running"}]}]}


def boxes(html: str) -> list[str]:
    """Each box's lines, as a reader sees them (a span a line)."""
    return [re.sub(r"\|+", "|", unescape(re.sub(r"<[^>]+>", "|", box))).strip("|")
            for box in re.findall(r'<li class="match[^"]*">(.*?)</li>', html)]


def test_each_table_says_who_plays_whom_and_what_became_of_it() -> None:
    running = boxes(bracket(state("running"), "/s/T", words("en")))
    assert running == ["ana & bo|against|cy & <b>dee</b>|won by cy & <b>dee</b>",
                       "eve & fay|against|gus & hal|Watch table #8", "Not drawn yet"]
    cancelled = boxes(bracket(state("cancelled"), "/s/T", words("fr")))
    assert cancelled[1] == "eve et fay|contre|gus et hal|non jouée"
    assert boxes(bracket(state("cancelled"), "/s/T", words("bg")))[1] == \
        "eve и fay|срещу|gus и hal|не се изигра"
    assert not any("–" in box for box in running + cancelled)
    assert "<b>" not in bracket(state("running"), "/s/T", words("en"))  # names are text
