"""The last hand images of each seat, kept so a picture shown again is not drawn again."""

from __future__ import annotations

from collections.abc import Hashable


class HandImages:
    """The last few hand images of each seat, by what they show (rendering.keys.hand_key).

    During the bidding a hand goes back and forth between two pictures (your turn or not), so
    two per seat are kept (about 25 KB a seat). Once the cards are played a hand's picture
    never comes back (a card is gone each time), so nothing is kept then."""

    PER_SEAT = 2

    def __init__(self) -> None:
        self._seats: dict[tuple[int, int], dict[Hashable, tuple[bytes, str]]] = {}
        self.hits = self.misses = 0

    def get(self, slot: tuple[int, int], key: Hashable) -> tuple[bytes, str] | None:
        data = self._seats.get(slot, {}).get(key)
        if data is None:
            self.misses += 1
        else:
            self.hits += 1
        return data

    def holds(self, slot: tuple[int, int], key: Hashable) -> bool:
        """Whether the seat's kept images have this one (not counted as a hit or a miss)."""
        return key in self._seats.get(slot, {})

    def put(self, slot: tuple[int, int], key: Hashable, data: tuple[bytes, str]) -> None:
        kept = self._seats.setdefault(slot, {})
        kept.pop(key, None)
        kept[key] = data  # newest last
        while len(kept) > self.PER_SEAT:
            del kept[next(iter(kept))]

    def drop(self, slot: tuple[int, int]) -> None:
        self._seats.pop(slot, None)

    def forget(self, table_id: int) -> None:
        for seat in range(4):
            self.drop((table_id, seat))

    def nbytes(self) -> int:
        return sum(len(data) for kept in self._seats.values() for data, _ in kept.values())
