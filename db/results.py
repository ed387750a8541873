"""Finished matches in detail, and the ratings they move per server and variant (OpenSkill, as
game.rating computes them; the rules and the maths stay out of here, only their storage).

Reading: the leaderboard (all time, or gains this month or week; players or pairs), one
player's stats, history and rating chart, one match (for its replay). Rebuild: the ratings
computed again from every stored match, in order (db/rebuild.py)."""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from enum import StrEnum
from typing import TYPE_CHECKING, Any

from game.rating import Seat, Skill, changes, pair_changes, pairs, rated
from game.tally import Tally

from .credits import Move, move
from .log import LogEntry, append_in
from .tables import TableStatus, owe_thread_in

if TYPE_CHECKING:
    from .queries import Queries, Transaction

PLAYER, PAIR = 0, 1
# The pairs board lists pairs with this many rated matches together (the index
# skills_pairs_page holds only those: its condition is written out in the queries).
PAIR_MIN = 5
_BOARD = {PLAYER: "kind = 0", PAIR: f"kind = 1 AND matches >= {PAIR_MIN}"}
# The board's own index, named: left to itself the planner may scan the primary key instead.
_INDEX = {PLAYER: "skills INDEXED BY skills_board", PAIR: "skills INDEXED BY skills_pairs_page"}
# One person's lines: a player's by the primary key, a pair's by the indexes of its members
# (skills_pair_user, skills_pair_partner), named in the query.
_OWN = {PLAYER: "kind = 0", PAIR: f"kind = 1 AND matches >= {PAIR_MIN}"}
Clock = Callable[[], datetime]


class Ending(StrEnum):
    PLAYED = "played"  # played out to its winner
    ENDED = "ended"  # ended by a moderator (or its host)
    ABANDONED = "abandoned"  # everyone left, or it timed out


class Period(StrEnum):
    ALL = "all"
    MONTH = "month"
    WEEK = "week"


def period_keys(when: datetime) -> tuple[str, str]:
    """The month ('2026-11') and ISO week ('2026-W47') a moment belongs to."""
    year, week, _ = when.isocalendar()
    return when.strftime("%Y-%m"), f"{year}-W{week:02d}"


def quarter_key(when: datetime) -> str:
    """The quarter ('2026-Q4') a moment belongs to: the key of a quarter's season."""
    return f"{when.year}-Q{(when.month + 2) // 3}"


def period_key(period: Period, when: datetime) -> str | None:
    if period is Period.ALL:
        return None
    month, week = period_keys(when)
    return month if period is Period.MONTH else week


def iso(when: datetime) -> str:
    return when.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"


def parse_iso(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


@dataclass(frozen=True, slots=True)
class MatchPlayer:
    seat: int
    user_id: int | None  # None: a computer seat
    computer: str | None


@dataclass(frozen=True, slots=True)
class RatingRow:
    """A leaderboard line: ``rating`` is the shown rating (all time) or the rating gained in
    the period; ``partner_id`` is set on the pairs board."""

    user_id: int
    rating: float
    matches: int
    wins: int
    partner_id: int = 0
    rank: int = 0


@dataclass(frozen=True, slots=True)
class PlayerStats:
    matches: int
    wins: int
    taken: int
    made: int
    sweeps: int
    belotes: int
    left: int
    rating: float | None  # None: never rated in this variant (or no variant asked)
    best_partner: int | None
    partner_wins: int
    partner_matches: int

    @property
    def win_rate(self) -> float:
        return self.wins / self.matches if self.matches else 0.0


@dataclass(frozen=True, slots=True)
class MatchRow:
    seq: int
    table_id: int
    guild_id: int
    variant: str
    options: str
    ending: str
    winner: int | None
    totals: tuple[int, int]
    deals: int
    computers: int
    rated: bool
    finished_at: str
    duration: float | None
    players: tuple[MatchPlayer, ...]
    left: tuple[int, ...]  # seats whose player left

    def won(self, seat: int) -> bool:
        return self.winner == (seat & 1) and seat not in self.left


# ---- the rating step, shared by a new result and a rebuild ---------------------------------
@dataclass(frozen=True, slots=True)
class Moves:
    """What one match changes: {key: (before, after)} for players (key: (user, 0)) and pairs
    (key: (low user, high user))."""

    players: dict[tuple[int, int], tuple[Skill, Skill]]
    pairs: dict[tuple[int, int], tuple[Skill, Skill]]


def moves(players: Sequence[MatchPlayer], winner: int | None, left_users: Collection[int],
          player_skill: dict[int, Skill], pair_skill: dict[tuple[int, int], Skill]) -> Moves:
    seats = [Seat(p.seat, p.user_id) for p in players]
    ch = changes(seats, player_skill, winner, left_users)
    pc = pair_changes(seats, pair_skill, winner, left_users)
    return Moves({(u, 0): v for u, v in ch.items()}, dict(pc))


# The rating rules a match is recorded under (matches.rating_rules, migration 0025). 1: an
# abandoned match moved nobody; 2: its leavers (its idle players among them: the sweeper marks
# them) each lose it alone, as the leavers of a match played out do. Each match keeps the
# rules it was rated under, so a rebuild gives the matches recorded before their numbers.
RATING_RULES = 2


def is_rated(players: Sequence[MatchPlayer], winner: int | None,
             left_users: Collection[int], ending: str = "played",
             rules: int = RATING_RULES) -> bool:
    """Whether the match moves ratings: four people played it out, or someone left it (a
    loss for them alone), an abandoned match too under ``rules`` 2 (its idle players left
    it); under ``rules`` 1 an abandoned match moves nobody."""
    if ending == Ending.ABANDONED and rules < 2:
        return False
    return rated([Seat(p.seat, p.user_id) for p in players], winner, left_users)


class ResultRepo:
    def __init__(self, db: Queries) -> None:
        self.db = db
        self.clock: Clock = lambda: datetime.now(UTC)  # tests inject theirs

    # ---- recording -----------------------------------------------------------------------
    async def record_match(self, *, table_id: int, guild_id: int, variant: str,
                           winner: int | None, totals: tuple[int, int], deals: int,
                           players: list[MatchPlayer], tally: Tally | None = None,
                           ending: Ending | str = Ending.PLAYED, left: Collection[int] = (),
                           entries: list[LogEntry] | None = None,
                           rate: object = None,
                           credits: Sequence[Move] = ()) -> dict[int, tuple[float, float]]:
        """Append the match's last steps (``entries``: the winning action), store the match
        with its details (``tally``: game.tally of the match), move the ratings and close the
        table, in one transaction: a crash leaves either none of it (the last card is not
        played) or all of it, never a won match without a result.

        ``left``: the user ids of players who left (their match is a loss for them alone);
        ``ending``: how it ended. ``rate`` is ignored (the Elo era's rater). ``credits``: the
        pot paid, or the stakes returned (db/credits.py), in the same transaction.

        Returns {user_id: (shown rating before, after)} for the players it moved."""
        del rate
        when = self.clock()
        async with self.db.transaction() as tx:
            await append_in(tx, table_id, entries or [])
            for m in credits:
                await move(tx, guild_id, m)
            row = await tx.fetchone(
                "SELECT t.options, (SELECT MIN(created_at) FROM actions a"
                " WHERE a.table_id = t.id) FROM tables t WHERE t.id = ?", (table_id,))
            options = row[0] if row is not None else "{}"
            started = row[1] if row is not None else None
            out = await record_in(tx, table_id=table_id, guild_id=guild_id, variant=variant,
                                  winner=winner, totals=totals, deals=deals, players=players,
                                  tally=tally, ending=Ending(ending), left=left,
                                  options=options, started_at=started, finished_at=when)
            status = TableStatus.FINISHED if Ending(ending) is Ending.PLAYED \
                else TableStatus.ENDED
            await tx.execute(
                "UPDATE tables SET status = ?,"
                " ended_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE id = ?",
                (status.value, table_id))
            await owe_thread_in(tx, table_id)
        return out

    # ---- reading ---------------------------------------------------------------------------
    async def leaderboard(self, guild_id: int, variant: str, limit: int = 10, offset: int = 0,
                          period: Period | str = Period.ALL, pairs: bool = False,
                          ) -> list[RatingRow]:
        """A page of the board, best first (ties: the lower user id first)."""
        key = period_key(Period(period), self.clock())
        kind = PAIR if pairs else PLAYER
        if key is None:
            rows = await self.db.fetchall(
                f"SELECT user_id, score, matches, wins, partner_id FROM {_INDEX[kind]}"
                f" WHERE guild_id = ? AND variant = ? AND {_BOARD[kind]}"
                f" ORDER BY score DESC, user_id{', partner_id' if pairs else ''}"
                " LIMIT ? OFFSET ?",
                (guild_id, variant, limit, offset))
        else:
            rows = await self.db.fetchall(
                "SELECT user_id, gain, matches, wins, partner_id FROM period_skills"
                " WHERE guild_id = ? AND variant = ? AND kind = ? AND period = ?"
                " ORDER BY gain DESC, user_id, partner_id LIMIT ? OFFSET ?",
                (guild_id, variant, kind, key, limit, offset))
        return [RatingRow(r[0], r[1], r[2], r[3], r[4], offset + i + 1)
                for i, r in enumerate(rows)]

    async def board_size(self, guild_id: int, variant: str,
                         period: Period | str = Period.ALL, pairs: bool = False) -> int:
        key = period_key(Period(period), self.clock())
        kind = PAIR if pairs else PLAYER
        if key is None:
            row = await self.db.fetchone(
                f"SELECT COUNT(*) FROM {_INDEX[kind]}"
                f" WHERE guild_id = ? AND variant = ? AND {_BOARD[kind]}", (guild_id, variant))
        else:
            row = await self.db.fetchone(
                "SELECT COUNT(*) FROM period_skills WHERE guild_id = ? AND variant = ?"
                " AND kind = ? AND period = ?", (guild_id, variant, kind, key))
        return int(row[0]) if row is not None else 0

    async def rank_of(self, guild_id: int, variant: str, user_id: int,
                      period: Period | str = Period.ALL, pairs: bool = False
                      ) -> RatingRow | None:
        """The user's own line (on the pairs board: their best pair), with its rank."""
        key = period_key(Period(period), self.clock())
        kind = PAIR if pairs else PLAYER
        if key is None:
            table, own_table, value = _INDEX[kind], "skills", "score"
            where = f"guild_id = ? AND variant = ? AND {_BOARD[kind]}"
            own = f"guild_id = ? AND variant = ? AND {_OWN[kind]}"
            args: list[Any] = [guild_id, variant]
        else:
            table, own_table, value = "period_skills", "period_skills", "gain"
            where = own = "guild_id = ? AND variant = ? AND kind = ? AND period = ?"
            args = [guild_id, variant, kind, key]
        # The user's best line: by the primary key (their rows as user_id), and for pairs also
        # by the partner index (their rows as partner_id).
        found = []
        for column in ("user_id", "partner_id") if kind == PAIR else ("user_id",):
            source = own_table
            if key is None and kind == PAIR:
                source = f"skills INDEXED BY skills_pair_{column.split('_')[0]}"
            row = await self.db.fetchone(
                f"SELECT user_id, {value}, matches, wins, partner_id FROM {source}"
                f" WHERE {own} AND {column} = ?"
                + ("" if kind == PAIR else " AND partner_id = 0")
                + f" ORDER BY {value} DESC LIMIT 1", (*args, user_id))
            if row is not None:
                found.append(row)
        if not found:
            return None
        mine = min(found, key=lambda r: (-r[1], r[0], r[4]))
        # Two counts, each a range of the board's index (an OR would scan the whole board).
        above = await self.db.fetchone(
            f"SELECT (SELECT COUNT(*) FROM {table} WHERE {where} AND {value} > ?)"
            f" + (SELECT COUNT(*) FROM {table} WHERE {where} AND {value} = ?"
            f" AND (user_id < ? OR (user_id = ? AND partner_id < ?)))",
            (*args, mine[1], *args, mine[1], mine[0], mine[0], mine[4]))
        assert above is not None
        return RatingRow(mine[0], mine[1], mine[2], mine[3], mine[4], int(above[0]) + 1)

    async def skill(self, guild_id: int, variant: str, user_id: int) -> Skill | None:
        row = await self.db.fetchone(
            "SELECT mu, sigma FROM skills WHERE guild_id = ? AND variant = ? AND kind = 0"
            " AND user_id = ? AND partner_id = 0", (guild_id, variant, user_id))
        return Skill(row[0], row[1]) if row is not None else None

    async def stats(self, guild_id: int, user_id: int, variant: str | None = None
                    ) -> PlayerStats:
        only = "" if variant is None else " AND m.variant = ?"
        args: tuple[Any, ...] = (user_id, guild_id) + (() if variant is None else (variant,))
        row = await self.db.fetchone(
            "SELECT COUNT(*), COALESCE(SUM(p.won), 0), COALESCE(SUM(p.taken), 0),"
            " COALESCE(SUM(p.made), 0), COALESCE(SUM(p.sweeps), 0),"
            " COALESCE(SUM(p.belotes), 0), COALESCE(SUM(p.left_match), 0) FROM match_players p"
            " JOIN matches m ON m.seq = p.seq WHERE p.user_id = ? AND m.guild_id = ?" + only,
            args)
        assert row is not None
        rating = None
        if variant is not None:
            s = await self.db.fetchone(
                "SELECT score FROM skills WHERE guild_id = ? AND variant = ? AND kind = 0"
                " AND user_id = ? AND partner_id = 0", (guild_id, variant, user_id))
            rating = s[0] if s is not None else None
        vonly = "" if variant is None else " AND variant = ?"
        vargs: tuple[Any, ...] = () if variant is None else (variant,)
        best = await self.db.fetchone(
            "SELECT partner, SUM(wins) AS w, SUM(matches) AS n FROM ("
            " SELECT partner_id AS partner, wins, matches FROM skills"
            "  WHERE guild_id = ? AND kind = 1 AND user_id = ?" + vonly +
            " UNION ALL SELECT user_id, wins, matches FROM skills"
            "  WHERE guild_id = ? AND kind = 1 AND partner_id = ?" + vonly +
            ") AS mine GROUP BY partner ORDER BY w DESC, n, partner LIMIT 1",
            (guild_id, user_id, *vargs, guild_id, user_id, *vargs))
        return PlayerStats(int(row[0]), int(row[1]), int(row[2]), int(row[3]), int(row[4]),
                           int(row[5]), int(row[6]), rating,
                           best[0] if best is not None else None,
                           int(best[1]) if best is not None else 0,
                           int(best[2]) if best is not None else 0)

    async def rating_history(self, guild_id: int, variant: str, user_id: int,
                             limit: int = 100) -> list[float]:
        """The shown rating after each of the last ``limit`` rated matches, oldest first,
        starting with the rating before the first of them."""
        rows = await self.db.fetchall(
            "SELECT score, before FROM skill_history WHERE guild_id = ? AND variant = ?"
            " AND kind = 0 AND user_id = ? AND partner_id = 0 ORDER BY seq DESC LIMIT ?",
            (guild_id, variant, user_id, limit))
        if not rows:
            return []
        return [rows[-1][1]] + [r[0] for r in reversed(rows)]

    async def history(self, guild_id: int, user_id: int, limit: int = 10) -> list[MatchRow]:
        """The user's last matches in this server, newest first."""
        rows = await self.db.fetchall(
            "SELECT m.* FROM match_players p JOIN matches m ON m.seq = p.seq"
            " WHERE p.user_id = ? AND m.guild_id = ? ORDER BY p.seq DESC LIMIT ?",
            (user_id, guild_id, limit))
        return await self._with_players(rows)

    async def match(self, guild_id: int, table_id: int) -> MatchRow | None:
        rows = await self.db.fetchall(
            "SELECT * FROM matches WHERE table_id = ? AND guild_id = ?", (table_id, guild_id))
        found = await self._with_players(rows)
        return found[0] if found else None

    async def sheet(self, seq: int) -> list[dict[str, Any]]:
        import json
        row = await self.db.fetchone("SELECT sheet FROM match_deals WHERE seq = ?", (seq,))
        return list(json.loads(row[0])) if row is not None else []

    async def _with_players(self, rows: Sequence[Any]) -> list[MatchRow]:
        if not rows:
            return []
        seqs = [r["seq"] for r in rows]
        marks = ",".join("?" * len(seqs))
        players: dict[int, list[Any]] = {s: [] for s in seqs}
        for p in await self.db.fetchall(
                f"SELECT seq, seat, user_id, computer, left_match FROM match_players"
                f" WHERE seq IN ({marks}) ORDER BY seq, seat", seqs):
            players[p[0]].append(p)
        return [MatchRow(r["seq"], r["table_id"], r["guild_id"], r["variant"], r["options"],
                         r["ending"], r["winner_team"], (r["score0"], r["score1"]), r["deals"],
                         r["computers"], bool(r["rated"]), r["finished_at"], r["duration"],
                         tuple(MatchPlayer(p[1], p[2], p[3]) for p in players[r["seq"]]),
                         tuple(p[1] for p in players[r["seq"]] if p[4]))
                for r in rows]

    async def winner_of(self, table_id: int) -> int | None:
        row = await self.db.fetchone("SELECT winner_team FROM matches WHERE table_id = ?",
                                     (table_id,))
        return row[0] if row is not None else None


# ---- inside a transaction: one match stored and rated --------------------------------------
async def record_in(tx: Transaction, *, table_id: int, guild_id: int, variant: str,
                    winner: int | None, totals: tuple[int, int], deals: int,
                    players: Sequence[MatchPlayer], tally: Tally | None, ending: Ending,
                    left: Collection[int], options: str, started_at: str | None,
                    finished_at: datetime) -> dict[int, tuple[float, float]]:
    import json
    left_users = {p.user_id for p in players if p.user_id is not None and p.user_id in left}
    rated_now = is_rated(players, winner, left_users, ending, RATING_RULES)
    duration = None
    if started_at is not None:
        duration = max(0.0, (finished_at - parse_iso(started_at)).total_seconds())
    seq = await tx.execute(
        "INSERT INTO matches (table_id, guild_id, variant, options, ending, winner_team,"
        " score0, score1, deals, computers, rated, started_at, finished_at, duration,"
        " rating_rules) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (table_id, guild_id, variant, options, ending.value, winner, totals[0], totals[1],
         deals, sum(p.user_id is None for p in players), int(rated_now), started_at,
         iso(finished_at), duration, RATING_RULES))
    assert seq is not None
    t = tally or Tally()
    await tx.executemany(
        "INSERT INTO match_players (seq, seat, user_id, computer, team, won, left_match, taken,"
        " made, sweeps, belotes) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [(seq, p.seat, p.user_id, p.computer, p.seat & 1,
          int(winner == (p.seat & 1) and p.user_id not in left_users),
          int(p.user_id in left_users), t.taken[p.seat], t.made[p.seat],
          t.sweeps[p.seat & 1], t.belotes[p.seat]) for p in players])
    if t.sheet:
        await tx.execute("INSERT INTO match_deals (seq, sheet) VALUES (?, ?)",
                         (seq, json.dumps(t.sheet, separators=(",", ":"))))
    if not rated_now:
        return {}
    users = [p.user_id for p in players if p.user_id is not None]
    player_skill = await _skills(tx, guild_id, variant, PLAYER, [(u, 0) for u in users])
    both = pairs([Seat(p.seat, p.user_id) for p in players])
    pair_skill = await _skills(tx, guild_id, variant, PAIR, both or [])
    mv = moves(players, winner, left_users, {u: s for (u, _), s in player_skill.items()},
               pair_skill)
    won_users = {p.user_id for p in players
                 if p.user_id is not None and winner == (p.seat & 1)
                 and p.user_id not in left_users}
    rows = skill_rows(guild_id, variant, seq, finished_at, mv, won_users,
                      winner if winner is not None else -1, players)
    await write_skill_rows(tx, rows)
    return {u: (b.shown, a.shown) for (u, _), (b, a) in mv.players.items()}


async def _skills(tx: Transaction, guild_id: int, variant: str, kind: int,
                  keys: Sequence[tuple[int, int]]) -> dict[tuple[int, int], Skill]:
    """The stored skills of these (user, partner) keys, in one query."""
    if not keys:
        return {}
    users = sorted({k[0] for k in keys})
    partners = sorted({k[1] for k in keys})
    # Two IN lists: primary-key lookups of every combination (at most 4), the unwanted ones
    # dropped here.
    rows = await tx.fetchall(
        "SELECT user_id, partner_id, mu, sigma FROM skills WHERE guild_id = ? AND variant = ?"
        f" AND kind = ? AND user_id IN ({','.join('?' * len(users))})"
        f" AND partner_id IN ({','.join('?' * len(partners))})",
        (guild_id, variant, kind, *users, *partners))
    wanted = set(keys)
    return {(r[0], r[1]): Skill(r[2], r[3]) for r in rows if (r[0], r[1]) in wanted}


@dataclass(frozen=True, slots=True)
class SkillRows:
    """The rows one rated match writes (skills upserted, history and period gains added)."""

    skills: list[tuple[Any, ...]]
    history: list[tuple[Any, ...]]
    periods: list[tuple[Any, ...]]


def skill_rows(guild_id: int, variant: str, seq: int, when: datetime, mv: Moves,
               won_users: Collection[int], winner_team: int,
               players: Sequence[MatchPlayer]) -> SkillRows:
    team_of = {p.user_id: p.seat & 1 for p in players if p.user_id is not None}
    month, week = period_keys(when)
    quarter = quarter_key(when)
    skills: list[tuple[Any, ...]] = []
    history: list[tuple[Any, ...]] = []
    periods: list[tuple[Any, ...]] = []
    for kind, items in ((PLAYER, mv.players), (PAIR, mv.pairs)):
        for (a, b), (before, after) in items.items():
            won = int(a in won_users) if kind == PLAYER else int(team_of[a] == winner_team)
            skills.append((guild_id, variant, kind, a, b, after.mu, after.sigma, after.shown,
                           won))
            if kind == PLAYER:  # the charts are players'
                history.append((guild_id, variant, kind, a, b, seq, after.mu, after.sigma,
                                after.shown, before.shown))
            gain = after.shown - before.shown
            for key in (month, week, quarter):
                periods.append((guild_id, variant, kind, key, a, b, gain, won))
    return SkillRows(skills, history, periods)


async def write_skill_rows(tx: Transaction, rows: SkillRows) -> None:
    await tx.executemany(
        "INSERT INTO skills (guild_id, variant, kind, user_id, partner_id, mu, sigma, score,"
        " matches, wins) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 1, ?)"
        " ON CONFLICT (guild_id, variant, kind, user_id, partner_id) DO UPDATE SET"
        " mu = excluded.mu, sigma = excluded.sigma, score = excluded.score,"
        " matches = skills.matches + 1, wins = skills.wins + excluded.wins", rows.skills)
    await tx.executemany(
        "INSERT INTO skill_history (guild_id, variant, kind, user_id, partner_id, seq, mu,"
        " sigma, score, before) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", rows.history)
    await tx.executemany(
        "INSERT INTO period_skills (guild_id, variant, kind, period, user_id, partner_id,"
        " gain, matches, wins) VALUES (?, ?, ?, ?, ?, ?, ?, 1, ?)"
        " ON CONFLICT (guild_id, variant, kind, period, user_id, partner_id) DO UPDATE SET"
        " gain = period_skills.gain + excluded.gain, matches = period_skills.matches + 1,"
        " wins = period_skills.wins + excluded.wins",
        rows.periods)
