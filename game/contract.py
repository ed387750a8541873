"""The contract a deal is played in."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from .actions import CAPOT
from .cards import FULL_DECK, SUIT_MASKS, CardSet
from .rules import TRUMP_CODES, Trump

# Enum members as module constants: reading one off its class goes through the enum
# metaclass's __getattr__ hook (about a microsecond), and these are read on every deal.
_ALL_TRUMPS: Final = Trump.ALL_TRUMPS
_NO_TRUMPS: Final = Trump.NO_TRUMPS


@dataclass(frozen=True, slots=True)
class Contract:
    seat: int
    trump: Trump
    value: int | None = None  # coinche bid value (CAPOT for capot); None elsewhere
    multiplier: int = 1  # 1, 2 (contre / double), 4 (surcontre / redouble)

    @property
    def team(self) -> int:
        return self.seat & 1

    @property
    def is_capot_bid(self) -> bool:
        return self.value == CAPOT

    @property
    def trump_cards(self) -> CardSet:
        """The cards that follow the trump order (and trump points) in this contract."""
        if self.trump is _ALL_TRUMPS:
            return FULL_DECK
        if self.trump is _NO_TRUMPS:
            return 0
        return SUIT_MASKS[self.trump]

    def describe(self) -> str:
        """The contract in the records' and logs' notation (``80 hearts doubled``): stored in
        match records (game.tally), so it never changes. Players read
        ``i18n.contract_text``."""
        parts = []
        if self.value is not None:
            parts.append("capot" if self.value == CAPOT else str(self.value))
        parts.append(self.trump.notation)
        if self.multiplier == 2:
            parts.append("doubled")
        elif self.multiplier == 4:
            parts.append("redoubled")
        return " ".join(parts)

    def to_json(self) -> dict[str, object]:
        value: object = self.value
        if self.value == CAPOT:
            value = "capot"
        return {
            "seat": self.seat,
            "team": self.team,
            "suit": TRUMP_CODES[self.trump],
            "value": value,
            "multiplier": self.multiplier,
        }


_CONTRACTS: dict[tuple[int, int, int | None, int], Contract] = {}


def contract_of(seat: int, trump: Trump, value: int | None = None,
                multiplier: int = 1) -> Contract:
    """``Contract(seat, trump, value, multiplier)``, shared: contracts are immutable and an
    auction makes several (a few hundred exist), and a frozen dataclass is slow to build."""
    if type(seat) is not int or type(trump) is not Trump or type(multiplier) is not int or \
            not (value is None or type(value) is int):
        # Shared only when built from exact types: a key of other types can equal one (3 and
        # Trump.SPADES) and must not return a contract holding different objects.
        return Contract(seat, trump, value, multiplier)
    key = (seat, trump, value, multiplier)
    contract = _CONTRACTS.get(key)
    if contract is None:
        contract = _CONTRACTS[key] = Contract(seat, trump, value, multiplier)
    return contract
