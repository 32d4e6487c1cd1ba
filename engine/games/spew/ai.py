"""Spew's AI: its chances estimated by sampling the unseen cards, from its own view."""

from __future__ import annotations

import random
from collections.abc import Sequence

from engine.cards import (
    Card,
    cards_from_json,
    cards_to_json,
    standard_deck,
)
from engine.game import Action
from engine.games.spew.hands import high_total, low_total
from engine.games.spew.views import SpewSeatView

__all__ = ["SAMPLES", "estimate", "parse_rank", "spew_ai"]


SAMPLES = 48


def _unseen(view: SpewSeatView) -> list[Card]:
    """Cards this seat has not seen: not its own, not a spew card, not spewed."""
    seen = set(view.hand) | set(view.spew_cards)
    for cards in view.spewed:
        seen |= set(cards)
    return [c for c in standard_deck() if str(c) not in seen]


def estimate(view: SpewSeatView, rng: random.Random, samples: int = SAMPLES
             ) -> tuple[float, float]:
    """The chances (high, low) that this hand ends strictly best on that side against every
    rival still in: rivals' hands sampled from the unseen cards (none of a rank already
    spewed, or they would have spewed it), the spew cards still to come turned on all."""
    mine = cards_from_json(view.hand)
    rivals = [s for s in range(len(view.names)) if s != view.seat and not view.folded[s]
              and not view.out[s]]
    if not rivals:
        return 1.0, 1.0
    gone = {parse_rank(c) for c in view.spew_cards}
    pool = [c for c in _unseen(view) if c.rank not in gone]
    to_come = view.spew_total - len(view.spew_cards)
    wins_high = wins_low = 0
    for _ in range(samples):
        sizes = [view.hand_sizes[s] for s in rivals]
        if sum(sizes) + to_come > len(pool):
            continue
        drawn = rng.sample(pool, sum(sizes) + to_come)
        spews = {c.rank for c in drawn[:to_come]}
        hand = [c for c in mine if c.rank not in spews]
        my_high, my_low = high_total(hand), low_total(hand)
        high_ok = low_ok = bool(hand)
        at = to_come
        for size in sizes:
            theirs = [c for c in drawn[at:at + size] if c.rank not in spews]
            at += size
            if not theirs:
                continue
            if high_total(theirs) >= my_high:
                high_ok = False
            if low_total(theirs) <= my_low:
                low_ok = False
        wins_high += high_ok
        wins_low += low_ok
    return wins_high / samples, wins_low / samples


def parse_rank(text: str) -> int:
    return cards_from_json([text])[0].rank or 0


def _leaning(hand: Sequence[Card]) -> str:
    """The side a hand leans to: low cards (ace to six) against high ones (ten to ace)."""
    low = sum(1 for c in hand if (c.rank or 0) <= 6 or c.rank == 14)
    high = sum(1 for c in hand if (c.rank or 0) >= 10)
    if low != high:
        return "low" if low > high else "high"
    return "low" if low_total(hand) < 25 else "high"


def _throw(hand: Sequence[Card], most: int) -> list[Card]:
    """The cards that do not fit the side the hand leans to, worst first, up to `most`."""
    side = _leaning(hand)
    if side == "low":
        bad = sorted((c for c in hand if 7 <= (c.rank or 0) <= 13), key=lambda c: -(c.rank or 0))
    else:
        bad = sorted((c for c in hand if (c.rank or 0) <= 8), key=lambda c: c.rank or 0)
    return bad[:most]


def spew_ai(view: SpewSeatView, legal: Sequence[Action], rng: random.Random) -> Action:
    """A Spew player that sees only its own seat's view and the listed legal actions.

    Draw: lean to the side most of the cards suit (aces suit both) and throw the rest.
    Declare: estimate by sampling the rivals' hands and the spew cards to come how often
    the hand is strictly best each way; both when both are likely, else the likelier side.
    Bet: the better chance (a half of the pot is won against the rivals who go the other
    way, so the chance is shaded up) against the pot odds.
    """
    names = {action.name for action in legal}
    hand = cards_from_json(view.hand)
    if view.phase == "draw":
        throw = _throw(hand, view.max_draw)
        return Action("draw", tuple(cards_to_json(throw))) if throw else Action("stand")
    high, low = estimate(view, rng)
    if view.phase == "declare":
        if high > 0.8 and low > 0.8:
            return Action("declare", ("both",))
        return Action("declare", ("high" if high >= low else "low",))
    chance = max(high, low)
    aggressive = "bet" if "bet" in names else "raise" if "raise" in names else None
    if aggressive and chance > 0.75:
        return Action(aggressive)
    if "check" in names:
        return Action("check")
    odds = view.to_call / (view.pot + view.to_call)
    return Action("call" if chance / 2 >= odds or chance > 0.5 else "fold")
