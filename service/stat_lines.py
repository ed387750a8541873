"""A member's stat lines, as /belote stats shows them and their web page repeats them: written
once here, so that the command (cogs/stats.py) and the page (web/site.py) never tell two things.

Only how a person is named differs (a mention in Discord, the plain name on the web, which
escapes it): the caller says it with ``who``.
"""

from __future__ import annotations

from collections.abc import Callable

from db.analyses import AnalysedStats
from db.results import PlayerStats
from i18n import Number, Words


def percent(part: int, whole: int) -> int:
    return round(100 * part / whole) if whole else 0


def stat_lines(stats: PlayerStats, analysed: AnalysedStats, podiums: tuple[int, int],
               who: Callable[[int], str], w: Words) -> list[str]:
    """The lines under the title: matches, contracts, sweeps, rating, the best partner (named
    by ``who``), the matches left, the analysed accuracy, the tournament podiums (the last four
    only when there is something to say)."""
    lines = [w("stats.stats.matches", matches=Number(stats.matches), wins=Number(stats.wins),
               rate=percent(stats.wins, stats.matches)),
             w("stats.stats.contracts", taken=stats.taken, made=stats.made),
             w("stats.stats.sweeps", sweeps=stats.sweeps, belotes=stats.belotes),
             w("stats.stats.unrated") if stats.rating is None
             else w("stats.stats.rating", rating=Number(stats.rating))]
    if stats.best_partner is not None:
        lines.append(w.plural("stats.stats.partner", stats.partner_wins,
                              who=who(stats.best_partner), games=stats.partner_matches))
    if stats.left:
        lines.append(w("stats.stats.left", left=stats.left))
    if analysed.cards:
        lines.append(w.plural(
            "stats.stats.analysed", analysed.matches,
            accuracy=percent(analysed.exact, analysed.cards), cards=Number(analysed.cards),
            cost=w.number(round(analysed.cost / analysed.cards, 1)),
            points=w.number(round(analysed.cost_points / analysed.cards, 1))))
    won, second = podiums
    if won or second:
        lines.append(w("stats.stats.tournaments", won=Number(won), second=Number(second)))
    return lines
