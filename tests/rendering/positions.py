"""Positions to draw: random legal play from a seed until a condition holds."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from game.deal import Deal
from game.match import Match
from game.players import RandomPlayer
from game.view import table_view

PLAYERS = ("Ana", "Bo", "Cy", "Dee")


def deal_of(m: Match) -> Deal:
    assert m.deal is not None
    return m.deal


def play_until(variant: str, seed: int, stop: Callable[[Match], bool],
               options: Mapping[str, Any] | None = None, max_deals: int = 60) -> Match:
    """Deal and play random legal actions until ``stop(match)`` (checked before every action
    and after every deal); fails if the condition is not met within ``max_deals`` deals."""
    m = Match(variant, options, players=PLAYERS)
    players = [RandomPlayer(seed * 4 + i) for i in range(4)]
    for _ in range(max_deals):
        if m.is_over:
            break
        m.start_deal(m.new_deck(seed))
        deal = deal_of(m)
        while not deal.is_over:
            if stop(m):
                return m
            seat = deal.to_act
            assert seat is not None
            m.apply(players[seat].choose(table_view(m, seat)))
        if stop(m):
            return m
    raise AssertionError(f"no position found for {variant} seed {seed}")


def find(variant: str, seed: int, stop: Callable[[Match], bool],
         options: Mapping[str, Any] | None = None) -> Match:
    """``play_until`` from ``seed``, or the next seeds if that match ends first."""
    for s in range(seed, seed + 100):
        try:
            return play_until(variant, s, stop, options)
        except AssertionError:
            continue
    raise AssertionError(f"no position found for {variant} seeds {seed}..{seed + 99}")


def play_steps(variant: str, seed: int, steps: int,
               options: Mapping[str, Any] | None = None) -> Match:
    """``steps`` random actions from the start (dealing as needed), or the end of the match."""
    count = [0]

    def stop(m: Match) -> bool:
        count[0] += 1
        return count[0] > steps or m.is_over

    return play_until(variant, seed, stop, options, max_deals=10**6)


def in_trick(cards: int, tricks_done: int = 1) -> Callable[[Match], bool]:
    def stop(m: Match) -> bool:
        d = m.deal
        return d is not None and len(d.tricks) == tricks_done and len(d.trick) == cards
    return stop


def bids_made(n: int) -> Callable[[Match], bool]:
    def stop(m: Match) -> bool:
        d = m.deal
        return d is not None and not d.is_over and d.contract is None and len(d.bids()) == n
    return stop
