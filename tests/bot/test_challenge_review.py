"""The review after a daily-deal try, from its deals' analyses: each deal's par for the right
side, and the player's costliest cards, only the ones they chose (not a forced card, a timer's,
a claim's or a computer's), costliest first, with their deal and trick."""

from __future__ import annotations

from typing import Any

from cogs.challenge import review_text
from service.challenge_review import review_of

ANA = 7


def card(action: int, seat: int, played: str, cost: int, other: str | None = "7C"
         ) -> dict[str, Any]:
    options = [{"card": played, "points": 0, "score": -cost, "cost": cost, "cost_points": 0}]
    if other is not None:
        options.append({"card": other, "points": 0, "score": 0, "cost": 0, "cost_points": 0})
    return {"action": action, "seat": seat, "played": played, "options": options}


def bid(action: int, seat: int) -> dict[str, Any]:
    return {"action": action, "seat": seat, "played": {"action": "pass"},
            "options": [{"bid": {"action": "pass"}, "score": 0, "cost": 0},
                        {"bid": {"action": "pass"}, "score": 0, "cost": 0}]}


def deal(index: int, contract: dict[str, Any] | None, score: int,
         decisions: list[dict[str, Any]]) -> dict[str, Any]:
    return {"deal": index, "par": {"contract": contract, "score": score, "points": 100},
            "decisions": decisions}


def hearts_by(seat: int) -> dict[str, Any]:
    return {"seat": seat, "team": seat & 1, "suit": "H", "value": None, "multiplier": 1}


def test_the_par_of_each_deal_and_the_costliest_cards_chosen() -> None:
    # Deal 0: a bid, then eight cards (two tricks); deal 1: par is to pass.
    first = [bid(0, 0)] + [card(1 + i, i % 4, f"{'89TJQKA7'[i]}S", cost)
                           for i, cost in enumerate((5, 0, 0, 0, 30, 9, 0, 0))]
    # Four tricks led by seat 0; the others' cards cost nothing.
    mine = [card(0, 0, "AD", 12), card(4, 0, "KD", 40, other=None),  # forced: no choice
            card(8, 0, "QD", 50), card(12, 0, "JD", 20)]
    second = [c for m in mine for c in
              (m, *(card(m["action"] + k, k, "8H", 0) for k in (1, 2, 3)))]
    deals = {0: deal(0, hearts_by(1), 62, first), 1: deal(1, None, 0, second)}
    clicked: tuple[int | None, str | None] = (ANA, None)
    timed_out: tuple[int | None, str | None] = (ANA, "timeout")
    ahead: tuple[int | None, str | None] = (ANA, "ahead")
    by_action = [[clicked] * 9, [clicked] * 8 + [timed_out] * 4 + [ahead]]
    review = review_of(deals, seat=0, user_id=ANA, choosers=by_action)
    assert [(p.deal, p.contract is not None, p.score) for p in review.pars] == [
        (0, True, -62), (1, False, 0)]
    # Seat 0's cards: 5 (deal 0, trick 1), 30 (deal 0, trick 2), 12, the forced 40 (not
    # counted), the timer's 50 (not counted), 20 chosen ahead.
    assert [(c.deal, c.trick, c.card, c.cost) for c in review.costly] == [
        (0, 2, "QS", 30), (1, 4, "JD", 20), (1, 1, "AD", 12)]
    assert review.costly[0].best == "7C"
    text = review_text(review, 0, "en")
    assert text.splitlines() == [
        "**Your try, every hand seen** (both sides playing their best):",
        "Deal 1: par is hearts for the opponents, -62 for your side.",
        "Deal 2: par is to pass (no contract is made).",
        "Your costliest cards:",
        "• deal 1, trick 2: Q♠ cost 30 points (7♣ was best)",
        "• deal 2, trick 4: J♦ cost 20 points (7♣ was best)",
        "• deal 2, trick 1: A♦ cost 12 points (7♣ was best)"]


def test_a_try_without_a_costly_card_says_so_in_each_language() -> None:
    deals = {0: deal(0, hearts_by(0), 40, [card(0, 0, "AS", 0)])}
    review = review_of(deals, seat=0, user_id=ANA, choosers=[[(ANA, None)]])
    assert review.costly == ()
    assert review_text(review, 0, "en").splitlines()[1:] == [
        "Deal 1: par is hearts for your side, +40.",
        "None of your cards cost a point: each was the best there was."]
    for language in ("fr", "bg"):
        assert review_text(review, 0, language).count("\n") == 2
