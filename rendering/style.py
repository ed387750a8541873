"""How an image looks: the deck's colours, the language, and the palette every image shares."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from game.cards import SUIT_SYMBOLS
from i18n import DEFAULT_LANGUAGE, Scoped, faces, words

RGB = tuple[int, int, int]

# Suit order C D H S, as in game.cards.
TWO_COLOUR: Final[tuple[RGB, RGB, RGB, RGB]] = (
    (26, 26, 26), (200, 20, 30), (200, 20, 30), (26, 26, 26))
# The poker four-colour deck: clubs green, diamonds blue, hearts red, spades black.
FOUR_COLOUR: Final[tuple[RGB, RGB, RGB, RGB]] = (
    (18, 128, 50), (25, 85, 200), (200, 20, 30), (26, 26, 26))
PIPS: Final = tuple(SUIT_SYMBOLS)  # ♣ ♦ ♥ ♠, the rules core's

FELT: Final[RGB] = (18, 92, 58)
FELT_DARK: Final[RGB] = (11, 64, 40)
FELT_RIM: Final[RGB] = (86, 52, 30)
PANEL: Final[RGB] = (9, 46, 30)
PANEL_LINE: Final[RGB] = (44, 120, 84)
TEXT: Final[RGB] = (244, 244, 238)
TEXT_DIM: Final[RGB] = (170, 200, 182)
INK: Final[RGB] = (28, 28, 28)
INK_DIM: Final[RGB] = (120, 120, 120)
GOLD: Final[RGB] = (255, 204, 51)
ACCENT: Final[RGB] = (190, 30, 30)  # contre / double words on paper
PAPER: Final[RGB] = (250, 249, 244)
PAPER_LINE: Final[RGB] = (214, 210, 196)
TEAM: Final[tuple[RGB, RGB]] = ((90, 190, 255), (255, 160, 70))
TEAM_DARK: Final[tuple[RGB, RGB]] = ((20, 100, 170), (190, 90, 10))
GOOD: Final[RGB] = (30, 140, 60)
BAD: Final[RGB] = (200, 40, 40)
NEUTRAL: Final[RGB] = (180, 130, 20)


def rank_text(language: str = DEFAULT_LANGUAGE) -> tuple[str, ...]:
    """The eight ranks, seven to ace, as ``language`` prints them on a card (i18n's faces)."""
    return faces(language)


@dataclass(frozen=True, slots=True)
class Style:
    """``four_colour`` for colour-blind players; ``language`` one of i18n.languages()."""

    four_colour: bool = False
    language: str = DEFAULT_LANGUAGE

    @property
    def suit_colours(self) -> tuple[RGB, RGB, RGB, RGB]:
        return FOUR_COLOUR if self.four_colour else TWO_COLOUR

    def suit_colour(self, suit: int) -> RGB:
        return self.suit_colours[suit]

    @property
    def labels(self) -> Scoped:
        """The image words (``image.*`` in the catalogue) in this style's language."""
        return words(self.language).scope("image")

    def number(self, value: float) -> str:
        """A number as this style's language writes it: ``1 234`` in French, ``1,234`` in
        English (scores, ratings and counts on every image)."""
        return words(self.language).number(value)

    @property
    def ranks(self) -> tuple[str, ...]:
        """The rank letters drawn on cards and in card runs, in this style's language."""
        return rank_text(self.language)


DEFAULT_STYLE: Final = Style()
