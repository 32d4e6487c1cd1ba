"""Spew's hands: how many cards a table of this size deals and spews, the order a hand is
shown in, and its high and low totals."""

from __future__ import annotations

from collections.abc import Sequence

from engine.cards import Card
from engine.chips.points import SPEW, best_high, best_low

__all__ = ["high_total", "low_total", "spew_layout", "spew_order"]


def spew_layout(players: int) -> tuple[int, int, int]:
    """(hole cards, most cards drawn, spew cards) for a table of `players` (seed 001).

    >>> spew_layout(5), spew_layout(6), spew_layout(8)
    ((5, 3, 5), (5, 2, 5), (4, 2, 4))
    """
    if players >= 7:
        return 4, 2, 4
    return 5, (2 if players == 6 else 3), 5


def spew_order(cards: Sequence[Card]) -> list[Card]:
    """A hand as a Spew player reads it: by rank, aces last."""
    return sorted(cards, key=lambda c: c.sort_key())


def high_total(cards: Sequence[Card]) -> int:
    """The highest total: each ace 11 unless... never: more is always better for high."""
    return best_high(cards, SPEW)


def low_total(cards: Sequence[Card]) -> int:
    return best_low(cards, SPEW)
