"""When tables last saw a player's action (for the moderators' list of open tables)."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, datetime
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .queries import Queries


def _parse(stamp: str) -> datetime:
    return datetime.fromisoformat(stamp.replace("Z", "+00:00")).astimezone(UTC)


async def last_activity(db: Queries, table_ids: Iterable[int]) -> dict[int, datetime]:
    """Per table, its last action by a player or a computer, or when it opened if none yet."""
    ids = sorted(set(table_ids))
    if not ids:
        return {}
    marks = ", ".join("?" * len(ids))
    rows = await db.fetchall(
        "SELECT t.id, COALESCE(MAX(a.created_at), t.created_at) FROM tables t"
        " LEFT JOIN actions a ON a.table_id = t.id AND a.kind = 'action'"
        f" WHERE t.id IN ({marks}) GROUP BY t.id", ids)
    return {row[0]: _parse(row[1]) for row in rows}
