"""The claim proof (game/claim.py) is sound: in endings small enough to search whole, every
position it claims is won by the claimant's side against every distribution of the cards the
claimant cannot see and every legal play of the others, the claimant playing its plan."""

from __future__ import annotations

import random
from collections.abc import Iterator
from itertools import combinations

import pytest

from game.cards import Card, CardSet, cards_of, parse_card, to_set
from game.claim import claim_card, claim_plan, claim_plan_of
from game.contract import Contract
from game.deal import beats, legal_play, play_tables, undertrump_rule
from game.match import Match
from game.players import RandomPlayer
from game.rules import Options, Trump, Variant
from game.view import table_view

GAMES = 300  # random deals per case
# How many claimed endings each case searches whole (a claim with three cards each takes about
# a second: 1680 distributions, every legal play of each).
SEARCHED = {2: 60, 3: 2}


def cards(*names: str) -> CardSet:
    return to_set(parse_card(n) for n in names)


def endings(variant: Variant, seed: int, left: int) -> Iterator[tuple[Match, int]]:
    """Random matches' positions where a seat leads with ``left`` cards in hand: (match,
    seat)."""
    rng = random.Random(seed)
    players = [RandomPlayer(rng.randrange(1 << 30)) for _ in range(4)]
    for _ in range(GAMES):
        match = Match(variant, Options.for_variant(variant, {"target": 100000}),
                      first_dealer=rng.randrange(4))
        match.start_deal(match.new_deck(rng.randrange(1 << 30)))
        deal = match.deal
        assert deal is not None
        while not deal.is_over:
            seat = deal.to_act
            assert seat is not None
            if deal.contract is not None and not deal.trick and \
                    deal.hands[seat].bit_count() == left:
                yield match, seat
                break
            match.apply(players[seat].choose(table_view(match, seat)), seat)


def side_takes_all(hands: list[CardSet], leader: int, plan: tuple[Card, ...], trump: Trump,
                   undertrump: bool) -> bool:
    """Whether the leader's side takes every trick, the leader playing ``plan`` in order and
    the others any legal card, every way."""
    trump_cards = Contract(0, trump).trump_cards
    suit_mask = trump_cards if trump.is_suit else 0
    strength, _points, above = play_tables(trump)

    def trick(hands: list[CardSet], step: int) -> bool:
        if step == len(plan):
            return True
        lead = plan[step]
        hands = list(hands)
        hands[leader] &= ~(1 << lead)

        def rest(hands: list[CardSet], cards: list[Card], win: Card, win_index: int) -> bool:
            if len(cards) == 4:
                winner = (leader + win_index) & 3
                # The plan's author: its leader wins them all, so it leads the next.
                return (winner & 1) == (leader & 1) and winner == leader and \
                    trick(hands, step + 1)
            seat = (leader + len(cards)) & 3
            legal, _why = legal_play(hands[seat], cards, win, win_index, trump_cards,
                                     suit_mask, above, undertrump)
            for c in cards_of(legal):
                after = list(hands)
                after[seat] &= ~(1 << c)
                better = beats(c, win, suit_mask, strength)
                if not rest(after, [*cards, c], c if better else win,
                            len(cards) if better else win_index):
                    return False
            return True

        return rest(hands, [lead], lead, 0)

    return trick(hands, 0)


def distributions(unseen: CardSet, seats: list[int], size: int) -> list[dict[int, CardSet]]:
    """Every way to deal ``unseen`` to the three ``seats``, ``size`` cards each."""
    cards = list(cards_of(unseen))
    out = []
    for a in combinations(cards, size):
        rest = [c for c in cards if c not in a]
        for b in combinations(rest, size):
            c = [x for x in rest if x not in b]
            out.append({seats[0]: to_set(a), seats[1]: to_set(b), seats[2]: to_set(c)})
    ways = {2: 90, 3: 1680}[size]  # 6! / (2! 2! 2!), 9! / (3! 3! 3!)
    assert len(out) == ways
    return out


def test_the_checker_finds_a_lost_trick() -> None:
    """The search is no rubber stamp: a plain ace trumped by the trump left out is lost."""
    hands = [cards("JH", "AS"), cards("8H", "10H"), cards("7C", "8C"), cards("7D", "JD")]
    assert not side_takes_all(hands, 0, (parse_card("JH"), parse_card("AS")), Trump.HEARTS,
                              False)
    hands[1], hands[2] = cards("8H", "7C"), cards("10H", "8C")
    assert side_takes_all(hands, 0, (parse_card("JH"), parse_card("AS")), Trump.HEARTS, False)


@pytest.mark.parametrize(("variant", "left", "seed"), [
    (Variant.CLASSIC, 2, 1), (Variant.CLASSIC, 3, 2), (Variant.COINCHE, 2, 3),
    (Variant.BULGARIAN, 2, 5),
])
def test_every_claimed_ending_is_won_against_every_distribution(
        variant: Variant, left: int, seed: int) -> None:
    claimed = refused = 0
    for match, seat in endings(variant, seed, left):
        if claimed >= SEARCHED[left]:
            break
        deal = match.deal
        assert deal is not None and deal.contract is not None
        plan = claim_plan(table_view(match, seat))
        if plan is None:
            refused += 1
            continue
        claimed += 1
        assert sorted(plan) == sorted(cards_of(deal.hands[seat]))
        others = [(seat + i) & 3 for i in (1, 2, 3)]
        unseen = deal.hands[others[0]] | deal.hands[others[1]] | deal.hands[others[2]]
        undertrump = undertrump_rule(variant, match.options)
        for dist in distributions(unseen, others, left):
            hands = [deal.hands[s] if s == seat else dist[s] for s in range(4)]
            assert side_takes_all(hands, seat, plan, deal.contract.trump, undertrump), \
                (cards_of(deal.hands[seat]), dist)
    assert claimed >= min(3, SEARCHED[left]) and refused >= 3  # the test sees both kinds


@pytest.mark.parametrize(("trump", "left"), [*((t, 2) for t in Trump), (Trump.SPADES, 3),
                                             (Trump.ALL_TRUMPS, 3)])
def test_every_claimed_made_up_ending_is_won(trump: Trump, left: int) -> None:
    """Endings dealt at random (any cards, any contract): more kinds of them than play makes."""
    rng = random.Random(1000 * left + trump)
    strength = play_tables(trump)[0]
    # The leader's cards from the three strongest of each suit, so that many endings are
    # claimed or nearly; the others' from the rest.
    strong = [c for c in range(32)
              if sum(1 for d in range(32) if d >> 3 == c >> 3 and strength[d] > strength[c]) < 3]
    claimed = 0
    while claimed < SEARCHED[left]:
        leader = rng.randrange(4)
        mine = rng.sample(strong, left)
        dealt = rng.sample([c for c in range(32) if c not in mine], 3 * left)
        hands = [to_set(dealt[i * left:(i + 1) * left]) for i in range(3)]
        hands.insert(leader, to_set(mine))
        unseen = sum(hands) - hands[leader]
        plan = claim_plan_of(hands[leader], unseen, trump)
        if plan is None:
            continue
        claimed += 1
        others = [(leader + i) & 3 for i in (1, 2, 3)]
        undertrump = rng.random() < 0.5  # classic and coinche's rule, or bulgarian's
        for dist in distributions(unseen, others, left):
            deal = [hands[leader] if s == leader else dist[s] for s in range(4)]
            assert side_takes_all(deal, leader, plan, trump, undertrump), \
                (cards_of(hands[leader]), dist)


def test_what_the_proof_claims_and_refuses() -> None:
    # Hearts trumps, the ace of trumps out: the jack and nine draw it, the ace of spades then
    # takes the last trick. The plan: the trumps strongest first, then the rest.
    plan = claim_plan_of(cards("JH", "9H", "AS"), cards("AH", "7S", "KC"), Trump.HEARTS)
    assert plan == tuple(parse_card(c) for c in ("JH", "9H", "AS"))
    # Two trumps out, one master trump: the second trump out may take the ace of spades.
    assert claim_plan_of(cards("JH", "8H", "AS"), cards("AH", "9H", "7S"), Trump.HEARTS) is None
    # A plain card with a trump out and no trump to draw it: refused.
    assert claim_plan_of(cards("AS", "AD"), cards("7H", "7C"), Trump.HEARTS) is None
    # No trumps: the ace and ten of spades with the king out are both masters.
    assert claim_plan_of(cards("AS", "10S"), cards("KS", "7D"), Trump.NO_TRUMPS) is not None
    # A king with the ten out is not, unless the ten must fall under the ace (its holder has
    # no other spade).
    assert claim_plan_of(cards("AS", "KS"), cards("10S", "QS"), Trump.NO_TRUMPS) is None
    assert claim_plan_of(cards("AS", "KS"), cards("10S", "7D"), Trump.NO_TRUMPS) == \
        (parse_card("AS"), parse_card("KS"))
    # All trumps: nothing is trumped, each suit ranks as trumps (the jack on top).
    assert claim_plan_of(cards("JS", "JD"), cards("9S", "AD", "7C"), Trump.ALL_TRUMPS) is not None
    assert claim_plan_of(cards("AS", "JD"), cards("9S", "AD"), Trump.ALL_TRUMPS) is None


def test_the_others_play_their_weakest_legal_card() -> None:
    legal = to_set(parse_card(c) for c in ("AS", "7S", "JS"))
    assert claim_card(legal, Contract(0, Trump.HEARTS)) == parse_card("7S")
    assert claim_card(legal, Contract(0, Trump.SPADES)) == parse_card("7S")
    legal = to_set(parse_card(c) for c in ("AS", "JS"))
    assert claim_card(legal, Contract(0, Trump.SPADES)) == parse_card("AS")  # J > A in trumps
