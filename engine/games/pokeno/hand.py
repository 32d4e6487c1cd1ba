"""A Po-Ke-No hand's cards: sorted, taken out one copy at a time (two decks: a hand may hold a
card twice), offered in a menu whose choices must differ, and read back from an action."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

from engine.cards import Card, CardError, parse_card
from engine.game import IllegalAction
from engine.i18n import msg

__all__ = ["menu_texts", "parse_picked", "remove_cards", "sort_cards"]


def sort_cards(cards: Iterable[Card]) -> list[Card]:
    return sorted(cards, key=Card.sort_key)


def remove_cards(cards: Sequence[Card], taken: Sequence[Card]) -> list[Card]:
    """`cards` less `taken`, one copy each (two decks: a hand may hold a card twice)."""
    left = list(cards)
    for card in taken:
        left.remove(card)
    return left


def menu_texts(cards: Sequence[Card]) -> list[str]:
    """The texts of a menu's cards, a card held more than once (two decks: two K♦, up to four
    jokers) spelt another way for each further copy ("Kd", then "K♦"): a menu's choices must
    differ, and each copy is then a choice of its own, so both can be picked at once, where
    one choice "K♦ ×2" let a player take only one. Every spelling reads back as its card.

    >>> from engine.cards import parse_cards
    >>> menu_texts(parse_cards("Kd Kd Jk Jk 2c"))
    ['Kd', 'K♦', 'Jk', '🃏', '2c']
    """
    seen: Counter[Card] = Counter()
    texts = []
    for card in cards:
        spellings = (str(card), card.label, str(card).lower(), str(card).upper())
        texts.append(spellings[seen[card]])
        seen[card] += 1
    return texts


def parse_picked(args: Sequence[Any], hand: Sequence[Card]) -> list[Card]:
    """Cards named in an action, each held (as many copies as named); errors for players."""
    cards: list[Card] = []
    for arg in args:
        if not isinstance(arg, str):
            raise IllegalAction(msg("{text} is not a card.", text=repr(arg)))
        try:
            cards.append(parse_card(arg))
        except CardError as error:
            raise IllegalAction(error.args[0]) from error
    wanted, held = Counter(cards), Counter(hand)
    for card, count in wanted.items():
        if held[card] < count:
            if held[card]:
                raise IllegalAction(msg("You don't hold only {held} of {card} ×{n}.",
                                        held=held[card], card=card.label, n=count))
            if count > 1:
                raise IllegalAction(msg("You don't hold {card} ×{n}.", card=card.label,
                                        n=count))
            raise IllegalAction(msg("You don't hold {card}.", card=card.label))
    return cards
