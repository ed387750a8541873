"""The easy level's rules of thumb, as a player at the table would notice them."""

from __future__ import annotations

from game.actions import CoincheBid, ContractBid, Pass, Play, Take
from game.ai import make_ai
from game.ai.policy import choose_card
from game.ai.position import PlayRules
from game.cards import FULL_DECK, parse_card, to_set
from game.contract import Contract
from game.match import Match
from game.rules import Options, Trump, Variant
from game.view import table_view

# Deck positions of the first bidder's cards (dealer 0, so seat 1) when dealing 3, 2 (and 3).
FIRST_FIVE = (0, 1, 2, 12, 13)
COINCHE_EIGHT = (*FIRST_FIVE, 20, 21, 22)


def _deck(cards: str, at: tuple[int, ...], turned: str | None = None) -> list[int]:
    mine = [parse_card(c) for c in cards.split()]
    fixed = dict(zip(at, mine, strict=True))
    if turned is not None:
        fixed[20] = parse_card(turned)
    rest = iter(c for c in range(32) if c not in fixed.values())
    return [fixed[i] if i in fixed else next(rest) for i in range(32)]


def _first_bid(variant: Variant, deck: list[int]) -> object:
    m = Match(variant)
    m.start_deal(deck)
    return make_ai("easy", 0).choose(table_view(m, 1))


def test_classic_takes_a_strong_trump_hand_and_passes_a_weak_one() -> None:
    strong = _deck("JH 9H AS 7D 8C", FIRST_FIVE, turned="AH")
    assert _first_bid(Variant.CLASSIC, strong) == Take()
    weak = _deck("7S 8S 9D 7C QD", FIRST_FIVE, turned="8H")
    assert _first_bid(Variant.CLASSIC, weak) == Pass()


def test_coinche_bids_higher_with_a_better_hand() -> None:
    good = _first_bid(Variant.COINCHE, _deck("JS 9S AS TS KS AH AD 7C", COINCHE_EIGHT))
    fair = _first_bid(Variant.COINCHE, _deck("JS 9S 8S AH 7D 8D 7C 9C", COINCHE_EIGHT))
    weak = _first_bid(Variant.COINCHE, _deck("7S 8S 9D 7C QD 8C 7H 8H", COINCHE_EIGHT))
    assert isinstance(good, CoincheBid) and good.suit == 3
    assert isinstance(fair, CoincheBid) and fair.suit == 3
    assert good.value > fair.value >= 80
    assert weak == Pass()


def test_bulgarian_bids_all_trumps_with_jacks_and_no_trumps_with_aces() -> None:
    jacks = _first_bid(Variant.BULGARIAN, _deck("JS JH JD 9S 9C", FIRST_FIVE))
    assert jacks == ContractBid(Trump.ALL_TRUMPS)
    aces = _first_bid(Variant.BULGARIAN, _deck("AS AH AD AC TS", FIRST_FIVE))
    assert aces == ContractBid(Trump.NO_TRUMPS)
    assert _first_bid(Variant.BULGARIAN, _deck("7S 8H 9D 7C QD", FIRST_FIVE)) == Pass()


def _rules() -> PlayRules:
    return PlayRules.of(Variant.CLASSIC, Options.for_variant(Variant.CLASSIC),
                        Contract(0, Trump.HEARTS))


def _choose(seat: int, hand: str, trick: str, played: str = "") -> str:
    from game.cards import card_str

    rules = _rules()
    h = to_set(parse_card(c) for c in hand.split())
    t = [parse_card(c) for c in trick.split()]
    win_card, win_index = (t[0] if t else -1), 0
    for i, c in enumerate(t):
        if rules.beats(c, win_card):
            win_card, win_index = c, i
    from game.deal import legal_play

    legal = legal_play(h, t, win_card, win_index, rules.trump_cards, rules.trump_suit_mask,
                       rules.above, rules.undertrump)[0]
    seen = h | to_set(t) | to_set(parse_card(c) for c in played.split())
    return card_str(choose_card(rules, seat, h, legal, t, win_card, win_index,
                                FULL_DECK ^ seen))


def test_last_to_play_gives_its_ten_when_the_partner_wins() -> None:
    # Seat 3 plays last (seat 0 led); its partner, seat 1, wins with the ace of spades.
    assert _choose(3, "TS 7S KD", "8S AS 9S") == "TS"


def test_last_to_play_wins_as_cheaply_as_it_can() -> None:
    assert _choose(0, "AS TS 7S", "KS QS 8S") == "TS"


def test_gives_little_when_it_cannot_win() -> None:
    assert _choose(0, "7S TD AD", "AS KS") == "7S"


def test_takers_side_leads_its_master_trump_and_defence_leads_aces() -> None:
    assert _choose(0, "JH 7H AS 8D", "") == "JH"
    assert _choose(1, "JH 7H AS 8D", "") == "AS"


def test_does_not_ruff_the_partners_winning_trick() -> None:
    # Seat 0 is void in spades; its partner's ace is sure to hold: it discards, not trumps.
    assert _choose(0, "7H JH 8D KC", "AS 7S 8S", played="KS QS TS JS 9S") != "JH"


def test_a_game_plays_through_with_default_announcements() -> None:
    m = Match(Variant.CLASSIC)
    m.start_deal(m.new_deck(1))
    players = [make_ai("easy", i) for i in range(4)]
    deal = m.deal
    assert deal is not None
    while not deal.is_over:
        a = players[deal.to_act or 0].choose(table_view(m, deal.to_act))
        if isinstance(a, Play):
            assert a.declare is None and a.belote  # announce the best, call belote
        m.apply(a)
