"""The reveal-order games' AI. It reads only what its seat may see (its own view), plus the
game's rules (scheme and hooks), which every player knows: draw toward the side the hand
leans to, order the reveal to hide that side, declare by its chances."""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

from engine.cards import Card, cards_from_json, cards_to_json, standard_deck
from engine.chips.reveal_order import HAND_SIZE, RevealGame
from engine.chips.reveal_views import RevealSeatView
from engine.game import Action

__all__ = ["SAMPLES", "reveal_ai"]


CLEAR_MARGIN = 10  # how much nearer its goal one side must be to count as a clear lean
SAMPLES = 16


def _side_lean(game: RevealGame, cards: Sequence[Card]) -> str:
    """The side a hand is built toward: the cards that count low (worth 3 or less at their
    lowest) against those that count high (9 or more at their highest)."""
    low = sum(1 for c in cards if min(game.scheme.values(c)) <= 3)
    high = sum(1 for c in cards if max(game.scheme.values(c)) >= 9)
    if high == low:
        return game.single_side(cards)
    return "high" if high > low else "low"


def _keeps(game: RevealGame, card: Card, side: str) -> bool:
    values = game.scheme.values(card)
    return min(values) <= 3 if side == "low" else max(values) >= 9


def _ai_draw(game: RevealGame, view: RevealSeatView) -> Action:
    hand = cards_from_json(view.hand)
    if game.jackpot(hand):
        return Action("stand")
    side = _side_lean(game, hand)
    throw = [c for c in hand if not _keeps(game, c, side)]
    if side == "low":
        throw.sort(key=lambda c: -min(game.scheme.values(c)))
    else:
        throw.sort(key=lambda c: max(game.scheme.values(c)))
    most = min(view.draw_limit, len(hand))
    if view.draw_fee:
        most = min(most, view.stacks[view.seat] // view.draw_fee, 2)
    throw = throw[:most]
    return Action("draw", tuple(cards_to_json(throw))) if throw else Action("stand")


def _ai_order(game: RevealGame, view: RevealSeatView, rng: random.Random) -> Action:
    """Hide the side: cards that could count either way (an ace) first, then the others from
    the least to the most telling, so the card that gives the side away comes last."""
    hand = cards_from_json(view.hand)
    side = _side_lean(game, hand)

    def telling(card: Card) -> float:
        values = game.scheme.values(card)
        if max(values) - min(values) >= 9:
            return rng.random()
        return (max(values) if side == "high" else 10 - min(values)) + rng.random()

    return Action("order", tuple(cards_to_json(sorted(hand, key=telling))))


def _clear_side(high: int, low: int) -> str:
    """The side a hand clearly plays, or "both" while it could go either way (its high
    total about as near 55 as its low total is to 0): such a hand is counted against us
    on both sides."""
    to_high, to_low = max(0, 55 - high), low
    if to_high - to_low > CLEAR_MARGIN:
        return "low"
    if to_low - to_high > CLEAR_MARGIN:
        return "high"
    return "both"


def _chances(
    game: RevealGame, view: RevealSeatView, rng: random.Random
) -> tuple[float, float, float]:
    """Estimated chances of winning high, low, and both outright: opponents' face-down cards
    sampled from the cards this seat has not seen. For one side an opponent counts on the
    side its sampled hand clearly plays (or the side it declared, once shown); for both, against
    every opponent on both sides, since a tie or loss on either side loses everything."""
    mine = cards_from_json(view.cards)
    if game.jackpot(mine):
        return 1.0, 1.0, 1.0
    my_high, my_low = game.high_total(mine), game.low_total(mine)
    seen = set(mine)
    for exposed in view.exposed:
        seen.update(cards_from_json(exposed))
    unseen = [c for c in standard_deck() if c not in seen]
    win_high = win_low = win_both = 1.0
    for seat in range(len(view.names)):
        if seat == view.seat or view.folded[seat]:
            continue
        shown = cards_from_json(view.exposed[seat])
        missing = HAND_SIZE - len(shown)
        beat_high = beat_low = beat_both = 0
        declared = view.declarations[seat] if view.declarations else None
        for _ in range(SAMPLES):
            theirs = shown + rng.sample(unseen, missing)
            high, low = game.high_total(theirs), game.low_total(theirs)
            side = "both" if game.jackpot(theirs) else declared or _clear_side(high, low)
            beat_high += side == "low" or high < my_high
            beat_low += side == "high" or low > my_low
            beat_both += high < my_high and low > my_low and not game.jackpot(theirs)
        win_high *= beat_high / SAMPLES
        win_low *= beat_low / SAMPLES
        win_both *= beat_both / SAMPLES
    return win_high, win_low, win_both


def reveal_ai(game: RevealGame, seat: int, rng: random.Random) -> Action:
    """An AI player that reads only its own seat's view (and the rules).

    Draw toward the side the hand leans to; order the reveal to hide that side; declare the
    side with the better estimated chance (both when both look nearly sure); bet the chance
    against the pot odds: raise a likely winner, call when the odds pay, else check or fold.
    """
    view = game.view(seat)
    if view.phase == "draw":
        return _ai_draw(game, view)
    if view.phase == "order":
        return _ai_order(game, view, rng)
    high, low, both = _chances(game, view, rng)
    if view.phase == "declare":
        if both >= 0.8:
            return Action("declare", ("both",))
        return Action("declare", ("high" if high >= low else "low",))
    names = {a.name for a in game.legal_actions(seat)}
    mine = view.declaration
    strength = {"high": high, "low": low, "both": both}.get(mine or "", max(high, low))
    aggressive = "bet" if "bet" in names else "raise" if "raise" in names else None
    if aggressive and strength > 0.7:
        return Action(aggressive)
    if aggressive == "bet" and strength > 0.45 and rng.random() < 0.25:
        return Action(aggressive)
    if "check" in names:
        return Action("check")
    # Winning one side wins half the pot: the call pays when half the pot covers the odds.
    share = 1.0 if mine == "both" or strength >= 0.95 else 0.5
    odds = view.to_call / (share * (view.pot + view.to_call))
    if strength >= min(1.0, odds) or math.isclose(strength, 1.0):
        return Action("call")
    return Action("fold")
