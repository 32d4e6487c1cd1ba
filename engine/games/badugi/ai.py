"""Badugi's AI: draw and bet by its hand's strength, the draws left and what the rivals'
draws tell, from its own view."""

from __future__ import annotations

import random
from collections.abc import Sequence

from engine.cards import Card, cards_from_json, cards_to_json
from engine.game import Action
from engine.games.badugi.hand import (
    BADUGI_SIZE,
    BadugiHand,
    badugi_hand,
    card_low_rank,
)
from engine.games.badugi.views import DRAWS, BadugiSeatView

__all__ = ["badugi_ai"]


def _strength(value: BadugiHand, draws_left: int) -> float:
    """A rough chance that the hand beats one opponent's: a made badugi by its top card; a
    3-card hand by its top card, worth more while draws remain to complete it; two cards or
    fewer need luck. The figures are heads-up estimates from play between AI seats."""
    top = value.ranks[0] if value.ranks else 13
    if value.size == BADUGI_SIZE:
        return max(0.55, min(0.95, 1.15 - 0.05 * top))
    if value.size == 3:
        return max(0.12, 0.55 - 0.04 * top) + 0.08 * draws_left
    return 0.05 + 0.08 * draws_left


def _rivals_read(view: BadugiSeatView) -> float:
    """How the others' last draws shade our chances: a player still drawing two or more
    cards is far from a badugi; one who stood pat probably has one."""
    shade = 0.0
    for seat, draws in enumerate(view.draws):
        if seat == view.seat or view.folded[seat] or not draws:
            continue
        if draws[-1] == 0:
            shade -= 0.12
        elif draws[-1] >= 2:
            shade += 0.06
    return shade


def _throw(value: BadugiHand, hand: Sequence[Card], draws_left: int) -> list[Card]:
    """Keep the cards that play; also break a rough hand while draws remain (a king-high
    badugi early, or a 3-card hand topped by a ten or more)."""
    keep = list(value.cards)
    if draws_left >= 2 and keep:
        top = card_low_rank(max(keep, key=card_low_rank))
        if (value.size == BADUGI_SIZE and top >= 11) or (value.size == 3 and top >= 10):
            keep.remove(max(keep, key=card_low_rank))
    return [c for c in hand if c not in keep]


def badugi_ai(view: BadugiSeatView, legal: Sequence[Action], rng: random.Random) -> Action:
    """A Badugi player that sees only its own seat's view and the listed legal actions.

    Draws: keep the best Badugi subset and draw to it, breaking rough hands while two draws
    remain. Betting: the hand's rough strength (made badugis by their top card, draws by how
    many cards they need and the draws left), shaded for the number of opponents, against
    the pot odds: raise strong hands, call when the odds pay, fold weak hands to a bet, and
    now and then bet a good draw (so that the AI is not read like a book).
    """
    names = {action.name for action in legal}
    hand = cards_from_json(view.hand)
    value = badugi_hand(hand)
    if view.phase == "draw":
        draws_left = DRAWS - view.draw_no  # draws after this one
        throw = _throw(value, hand, draws_left)
        return Action("draw", tuple(cards_to_json(throw))) if throw else Action("stand")
    draws_left = DRAWS - view.draw_no
    rivals = sum(1 for s, f in enumerate(view.folded) if not f and s != view.seat)
    chance = min(0.97, max(0.02, _strength(value, draws_left) + _rivals_read(view)))
    strength = chance ** max(1, rivals)  # to beat every one of them
    aggressive = "bet" if "bet" in names else "raise" if "raise" in names else None
    if aggressive and strength > 0.6:
        return Action(aggressive)
    if aggressive == "bet" and strength > 0.4 and rng.random() < 0.3:
        return Action(aggressive)
    if "check" in names:
        return Action("check")
    odds = view.to_call / (view.pot + view.to_call)
    if strength >= odds:
        return Action("call")
    return Action("fold")
