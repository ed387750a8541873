"""Every element of the images appears when it should, and only then.

Mostly read from the layout each renderer returns; where a layout entry could lie, the pixels
are compared too (the same view drawn with and without the element).
"""

from __future__ import annotations

import dataclasses

from PIL import Image, ImageChops

from game.actions import CoincheBid, ContractBid, Contre, Double, Pass, Redouble, Surcontre
from game.cards import Suit
from game.contract import Contract
from game.match import Match
from game.rules import Trump
from game.scoring import DealResult, Outcome
from game.view import Stage, table_view
from rendering import draw_deal_sheet, draw_hand, draw_table
from rendering.layout import Box
from rendering.table import TRICK_AT

from .positions import PLAYERS, bids_made, find, in_trick


def differs(a: Image.Image, b: Image.Image, box: Box) -> bool:
    return ImageChops.difference(a.crop(box), b.crop(box)).getbbox() is not None


def test_classic_bidding_shows_turned_card_bids_dealer_and_turn() -> None:
    m = find("classic", 1, bids_made(2))
    view = table_view(m, None)
    _, lay = draw_table(view)
    assert view.turned_card is not None
    assert lay.has(f"turned_card:{view.turned_card}")
    assert {f"bid:{s}" for s, _ in view.bids} == {n for n in lay.names() if n.startswith("bid:")}
    assert lay.names() & {f"dealer:{s}" for s in range(4)} == {f"dealer:{view.dealer}"}
    assert lay.names() & {f"turn:{s}" for s in range(4)} == {f"turn:{view.to_act}"}
    assert not lay.has("contract") and not lay.has("last_trick") and not lay.has("trick")
    for seat in range(4):
        assert lay.has(f"backs:{seat}:{view.hand_counts[seat]}")


def test_turn_and_dealer_change_the_pixels_of_their_seat() -> None:
    view = table_view(find("classic", 1, bids_made(1)), None)
    img, lay = draw_table(view)
    assert view.to_act is not None and view.dealer is not None
    other = (view.to_act + 2) & 3
    moved, _ = draw_table(dataclasses.replace(view, to_act=other))
    assert differs(img, moved, lay.box(f"seat:{view.to_act}"))
    assert differs(img, moved, lay.box(f"seat:{other}"))
    no_dealer, _ = draw_table(dataclasses.replace(view, dealer=None))
    assert differs(img, no_dealer, lay.box(f"dealer:{view.dealer}"))


def coinche_bidding(*bids: object) -> Match:
    m = Match("coinche", players=PLAYERS)
    m.start_deal(m.new_deck(1))
    for b in bids:
        m.apply(b)  # type: ignore[arg-type]
    return m


def test_coinche_high_bid_contre_and_surcontre() -> None:
    m = coinche_bidding(CoincheBid(80, Suit.HEARTS), CoincheBid(100, Suit.SPADES))
    _, lay = draw_table(table_view(m, None))
    assert lay.has("high_bid") and lay.has("holder:2") and not lay.has("turned_card")
    assert not any(n.startswith("multiplier") for n in lay.names())
    m.apply(Contre())
    _, lay = draw_table(table_view(m, None))
    assert lay.has("multiplier:2") and lay.has("bid:3")
    m.apply(Surcontre())
    _, lay = draw_table(table_view(m, None))
    assert lay.has("contract") and lay.has("multiplier:4") and lay.has("holder:2")
    assert not any(n.startswith("bid:") for n in lay.names())  # bubbles only while bidding


def test_bulgarian_double_redouble_and_all_trumps() -> None:
    m = Match("bulgarian", players=PLAYERS)
    m.start_deal(m.new_deck(3))
    m.apply(ContractBid(Trump.ALL_TRUMPS))
    m.apply(Double())
    _, lay = draw_table(table_view(m, None))
    assert lay.has("high_bid") and lay.has("multiplier:2") and lay.has("holder:1")
    m.apply(Redouble())
    for _ in range(3):
        m.apply(Pass())
    view = table_view(m, None)
    img, lay = draw_table(view)
    assert view.contract is not None and view.contract.trump is Trump.ALL_TRUMPS
    assert lay.has("contract") and lay.has("multiplier:4")
    nt = dataclasses.replace(view, contract=dataclasses.replace(view.contract,
                                                                trump=Trump.NO_TRUMPS))
    assert differs(img, draw_table(nt)[0], lay.box("contract"))


def test_trick_cards_sit_by_the_seat_that_played_them() -> None:
    m = find("classic", 2, in_trick(3))
    for viewer in (None, 0, 1, 2, 3):
        view = table_view(m, viewer)
        _, lay = draw_table(view)
        assert view.trick is not None
        bottom = viewer if viewer is not None else 0
        for i, c in enumerate(view.trick.cards):
            seat = view.trick.seat_of(i)
            x, y = TRICK_AT[(seat - bottom) & 3]
            assert lay.box(f"trick:{seat}:{c}")[:2] == (x, y)
        assert view.last_trick is not None
        assert lay.has("last_trick") and lay.has(f"last_trick_winner:{view.last_trick.winner}")


def test_public_view_shows_no_face_up_hand_and_seat_view_shows_the_hand() -> None:
    m = find("classic", 2, in_trick(1))
    public = table_view(m, None)
    _, lay = draw_table(public)
    assert not any(n.startswith("hand:") for n in lay.names())
    seat = m.deal.to_act if m.deal else None
    assert seat is not None
    mine = table_view(m, seat)
    _, lay = draw_table(mine)
    for c in mine.hand:
        assert lay.has(f"hand:{c}")
    assert not lay.has(f"backs:{seat}")
    assert lay.has(f"turn:{seat}")


def has_shown(kind: str) -> object:
    def stop(m: Match) -> bool:
        view = table_view(m, None)
        if kind == "belote":
            return any(b.word == "rebelote" for b in view.belote_calls)
        return any(a.scored is False for a in view.announcements) and \
            any(a.scored for a in view.announcements)
    return stop


def test_announcements_shown_scored_and_not() -> None:
    m = find("classic", 10, has_shown("announcements"))  # type: ignore[arg-type]
    view = table_view(m, None)
    img, lay = draw_table(view)
    for i, a in enumerate(view.announcements):
        assert lay.has(f"announcement:{a.seat}:{i}")
    hidden = dataclasses.replace(view, announcements=())
    bare, lay2 = draw_table(hidden)
    assert not any(n.startswith("announcement") for n in lay2.names())
    a0 = view.announcements[0]
    assert differs(img, bare, lay.box(f"announcement:{a0.seat}:0"))


def test_belote_and_rebelote_shown() -> None:
    m = find("coinche", 20, has_shown("belote"))  # type: ignore[arg-type]
    view = table_view(m, None)
    _, lay = draw_table(view)
    seat = next(b.seat for b in view.belote_calls if b.word == "rebelote")
    assert lay.has(f"belote:{seat}") and lay.has(f"rebelote:{seat}")


def test_scores_target_deal_number_and_held_points() -> None:
    view = table_view(find("classic", 2, in_trick(1)), None)
    img, lay = draw_table(view)
    assert {"score:0", "score:1", "target", "deal_number"} <= lay.names()
    assert not lay.has("hanging") and view.hanging == 0
    held, lay2 = draw_table(dataclasses.replace(view, hanging=16))
    assert lay2.has("hanging") and differs(img, held, lay2.box("hanging"))
    scored, _ = draw_table(dataclasses.replace(view, totals=(121, 43)))
    assert differs(img, scored, lay.box("score:0")) and differs(img, scored, lay.box("score:1"))


def test_banners_between_deals_and_at_the_end() -> None:
    m = find("bulgarian", 2, lambda m: bool(m.results) and m.needs_deal)
    _, lay = draw_table(table_view(m, None))
    assert lay.has("banner:deal_over")
    m = find("bulgarian", 2, lambda m: m.is_over)
    view = table_view(m, None)
    _, lay = draw_table(view)
    assert view.stage is Stage.OVER and lay.has("banner:over")


# ---- the hand ----------------------------------------------------------------------------------
def test_hand_sorted_trump_first_colours_alternate_legal_marked() -> None:
    m = find("coinche", 4, in_trick(1, 2))
    deal = m.deal
    assert deal is not None and deal.to_act is not None and deal.contract is not None
    view = table_view(m, deal.to_act)
    _, lay = draw_hand(view)
    cards = [int(n.split(":")[1]) for n, _ in lay.items if n.startswith("card:")]
    assert sorted(cards) == sorted(view.hand)
    suits = [c >> 3 for c in cards]
    groups = [s for i, s in enumerate(suits) if i == 0 or suits[i - 1] != s]
    assert len(groups) == len(set(groups))  # each suit in one group
    if deal.contract.trump.is_suit and int(deal.contract.trump) in suits:
        assert groups[0] == int(deal.contract.trump)
    # Suits follow the cycle spades, hearts, clubs, diamonds (colours alternate), turned so
    # that the trump suit leads.
    cycle = [3, 2, 0, 1] * 2
    start = cycle.index(groups[0])
    assert groups == [s for s in cycle[start:start + 4] if s in groups]
    assert {n for n in lay.names() if n.startswith("legal:")} == \
        {f"legal:{c}" for c in view.legal_cards}
    assert lay.has("turn_prompt")
    other = table_view(m, (deal.to_act + 1) & 3)
    _, lay = draw_hand(other)
    assert not lay.has("turn_prompt") and not any(n.startswith("legal:") for n in lay.names())


# ---- the deal sheet ----------------------------------------------------------------------------
def result(**kw: object) -> DealResult:
    base = dict(contract=Contract(0, Trump.HEARTS), card_points=(81, 81), last_trick=0,
                announcements=(), scored=(), belote=(0, 0), sweep=None,
                outcome=Outcome.MADE, raw=None, score=(81, 81), held_created=0,
                collected=(0, 0), hanging=0, totals=(81, 81))
    base.update(kw)
    return DealResult(**base)  # type: ignore[arg-type]


def sheet_names(r: DealResult, variant: str = "classic") -> set[str]:
    from game.rules import Variant

    return draw_deal_sheet(r, Variant(variant), PLAYERS, 4)[1].names()


def test_sheet_litige_holds_points() -> None:
    names = sheet_names(result(outcome=Outcome.LITIGE, score=(0, 81), held_created=81,
                               hanging=81, totals=(0, 81)))
    assert {"outcome:litige", "held_created", "hanging", "card_points", "last_trick",
            "deal_score", "totals", "contract"} <= names
    assert "raw" not in names and "sweep" not in names and "belote" not in names


def test_sheet_bulgarian_rounding_hanging_and_valat() -> None:
    names = sheet_names(result(contract=Contract(1, Trump.ALL_TRUMPS), card_points=(258, 0),
                               sweep=0, raw=(348, 0), score=(35, 0), outcome=Outcome.FAILED,
                               belote=(20, 0), collected=(0, 0), totals=(35, 0)), "bulgarian")
    assert {"outcome:failed", "raw", "rounded", "sweep", "belote"} <= names
    names = sheet_names(result(raw=(106, 106), score=(0, 10), held_created=11, hanging=11,
                               outcome=Outcome.HANGING), "bulgarian")
    assert {"outcome:hanging", "raw", "rounded", "held_created", "hanging"} <= names


def test_sheet_capot_announcements_collected_and_passed() -> None:
    from game.announcements import Announcement
    from game.cards import Rank

    tierce = Announcement(1, (8, 9, 10), 20, None, 3, Rank.NINE, 1)
    quarte = Announcement(0, (16, 17, 18, 19), 50, None, 4, Rank.TEN, 2)
    names = sheet_names(result(sweep=0, card_points=(162, 0), announcements=(tierce, quarte),
                               scored=(False, True), collected=(16, 0)))
    assert {"sweep", "announcement:0:not_scored", "announcement:1:scored",
            "collected"} <= names
    passed = sheet_names(result(contract=None, outcome=Outcome.PASSED, card_points=(0, 0),
                                last_trick=None, score=(0, 0)))
    assert passed == {"title", "outcome:passed", "totals"}
