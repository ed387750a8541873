"""What an image shows and where: each renderer returns one with its image.

Tests read it to check that an element is drawn exactly when it should be; the bot could use it
to map a click position to a card, should it ever need to.
"""

from __future__ import annotations

from dataclasses import dataclass, field

Box = tuple[int, int, int, int]


@dataclass(slots=True)
class Layout:
    size: tuple[int, int]
    items: list[tuple[str, Box]] = field(default_factory=list)

    def add(self, name: str, box: Box) -> Box:
        self.items.append((name, box))
        return box

    def names(self) -> set[str]:
        return {name for name, _ in self.items}

    def boxes(self, name: str) -> list[Box]:
        return [box for n, box in self.items if n == name]

    def has(self, name: str) -> bool:
        return any(n == name for n, _ in self.items)

    def box(self, name: str) -> Box:
        """The box of the one element called ``name`` (KeyError if it is not drawn)."""
        found = self.boxes(name)
        if len(found) != 1:
            raise KeyError(f"{name!r} drawn {len(found)} times")
        return found[0]
