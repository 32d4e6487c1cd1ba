"""What a hand is worth in Poängpoker and Chicago: its points when it is the best (a royal
straight flush is worth 52 in Chicago), the cards its winner shows, and what two hands must
share to be equal but for their kickers."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from engine.cards import Card
from engine.evaluator import Category, HandValue

__all__ = ["HAND_POINTS", "ROYAL_POINTS", "hand_points", "shown_cards"]


HAND_POINTS: dict[Category, int] = {
    Category.STRAIGHT_FLUSH: 8,
    Category.FOUR_OF_A_KIND: 7,
    Category.FULL_HOUSE: 6,
    Category.FLUSH: 5,
    Category.STRAIGHT: 4,
    Category.THREE_OF_A_KIND: 3,
    Category.TWO_PAIR: 2,
    Category.PAIR: 1,
    Category.HIGH_CARD: 0,
}


ROYAL_POINTS = 52


def hand_points(value: HandValue, royal_wins: bool = False) -> int:
    """What the best hand scores; in Chicago a royal straight flush is worth 52.

    >>> from engine.cards import parse_cards
    >>> from engine.evaluator import evaluate
    >>> hand_points(evaluate(parse_cards("Qh Qs Qd Qc 7c")))
    7
    >>> hand_points(evaluate(parse_cards("Ah Kh Qh Jh Th")), royal_wins=True)
    52
    """
    if royal_wins and value.is_royal:
        return ROYAL_POINTS
    return HAND_POINTS[value.category]


def shown_cards(hand: Sequence[Card], value: HandValue, full: bool) -> list[Card]:
    """The cards a winner of interim scoring shows: the combination itself (the pair, the
    two pairs, the set), or all five when the category needs them all or (`full`) when
    another hand has the same combination and the kickers decided.

    >>> from engine.cards import format_cards, parse_cards
    >>> from engine.evaluator import evaluate
    >>> hand = parse_cards("Kh Ks 7d 7c 2s")
    >>> format_cards(shown_cards(hand, evaluate(hand), full=False))
    'Kh Ks 7d 7c'
    """
    if full or value.category not in (
        Category.PAIR,
        Category.TWO_PAIR,
        Category.THREE_OF_A_KIND,
        Category.FOUR_OF_A_KIND,
    ):
        return list(hand)
    counts = Counter(card.rank for card in hand)
    return [card for card in hand if counts[card.rank] >= 2]


def _combination(hand: Sequence[Card], value: HandValue) -> tuple[Any, ...]:
    """The category and the ranks of its sets: two hands equal here differ only in kickers."""
    counts = Counter(card.rank for card in hand)
    return (
        value.category,
        sorted(((n, r or 0) for r, n in counts.items() if n >= 2), reverse=True),
    )
