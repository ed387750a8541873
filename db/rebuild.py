"""Every rating computed again from the stored matches, in the order they were recorded
(`belote-bot rebuild-ratings`): a change of rating model never loses the history."""

from __future__ import annotations

from collections import defaultdict
from typing import TYPE_CHECKING, Any

from game.rating import Skill

from .results import (
    MatchPlayer,
    SkillRows,
    is_rated,
    moves,
    parse_iso,
    skill_rows,
    write_skill_rows,
)
from .seasons import rebuild_podiums

if TYPE_CHECKING:
    from .connection import Database


async def rebuild_ratings(db: Database) -> int:
    """Recompute skills, their history, the period gains (the seasons' boards) and the ended
    seasons' podiums from ``matches``, in one transaction. Returns how many matches moved
    ratings."""
    async with db.transaction() as tx:
        matches = await tx.fetchall(
            "SELECT seq, guild_id, variant, winner_team, finished_at, ending, rating_rules"
            " FROM matches ORDER BY seq")
        seats: dict[int, list[Any]] = defaultdict(list)
        for p in await tx.fetchall(
                "SELECT seq, seat, user_id, computer, left_match FROM match_players"
                " ORDER BY seq, seat"):
            seats[p[0]].append(p)
        await tx.execute("DELETE FROM skills")
        await tx.execute("DELETE FROM skill_history")
        await tx.execute("DELETE FROM period_skills")
        player_skill: dict[tuple[int, str], dict[int, Skill]] = defaultdict(dict)
        pair_skill: dict[tuple[int, str], dict[tuple[int, int], Skill]] = defaultdict(dict)
        counted = 0
        rated_flags: list[tuple[int, int]] = []
        # Gathered, then written in three statements: a million matches rebuild in minutes.
        out = SkillRows([], [], [])
        for m in matches:
            seq, guild_id, variant, winner, finished = m[0], m[1], m[2], m[3], m[4]
            players = [MatchPlayer(p[1], p[2], p[3]) for p in seats[seq]]
            left = {p[2] for p in seats[seq] if p[4] and p[2] is not None}
            now_rated = is_rated(players, winner, left, m[5], m[6])  # its own rules
            rated_flags.append((int(now_rated), seq))
            if not now_rated:
                continue
            counted += 1
            key = (guild_id, variant)
            mv = moves(players, winner, left, player_skill[key], pair_skill[key])
            for (u, _), (_, after) in mv.players.items():
                player_skill[key][u] = after
            for pair, (_, after) in mv.pairs.items():
                pair_skill[key][pair] = after
            won_users = {p.user_id for p in players if p.user_id is not None
                         and winner == (p.seat & 1) and p.user_id not in left}
            rows = skill_rows(guild_id, variant, seq, parse_iso(finished), mv, won_users,
                              winner if winner is not None else -1, players)
            out.skills.extend(rows.skills)
            out.history.extend(rows.history)
            out.periods.extend(rows.periods)
        await write_skill_rows(tx, out)
        await tx.executemany("UPDATE matches SET rated = ? WHERE seq = ?", rated_flags)
        # The ended seasons' podiums, from the season gains just computed again.
        await rebuild_podiums(tx)
    return counted
