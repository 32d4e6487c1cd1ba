"""Red Dog's rule as functions a player, the AI and the views use alike: which card beats a
hand, the odds of a bet, the bets allowed; and the cards' texts in snapshots."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from engine.cards import Card, parse_card, standard_deck
from engine.game import Action

DECK: tuple[Card, ...] = tuple(standard_deck())
"""One 52-card deck, in order."""

__all__ = ["DECK", "PASS", "beats", "bet_sizes", "odds", "winning_card"]


PASS = Action("pass")


def beats(hand: Iterable[Card], card: Card) -> bool:
    """Whether `hand` wins against `card`: a card of its suit and a higher rank (aces high).

    >>> from engine.cards import parse_cards
    >>> hand = parse_cards("Kc Qd Qs 8h 3d")
    >>> [beats(hand, parse_card(c)) for c in ("Qc", "Ac", "Jd", "Kd", "7h", "9h")]
    [True, False, True, False, True, False]
    """
    return winning_card(hand, card) is not None


def winning_card(hand: Iterable[Card], card: Card) -> Card | None:
    """The card that wins against `card` (the lowest one that does, as a player would show
    it), or None."""
    higher = [c for c in hand if c.suit == card.suit and (c.rank or 0) > (card.rank or 0)]
    return min(higher, key=Card.sort_key) if higher else None


def odds(hand: Sequence[Card], seen: Iterable[Card] = ()) -> tuple[int, int]:
    """(cards `hand` beats, cards unseen): the next card is any card neither in the hand nor
    already seen, so this is the chance of winning a bet as the player can know it.

    The seed's example hand wins against 11 clubs, 9 diamonds (the 3d is its own), 10 spades
    and 6 hearts of the 47 cards it does not hold:

    >>> from engine.cards import parse_cards
    >>> odds(parse_cards("Kc Qd Qs 8h 3d"))
    (36, 47)
    """
    known = set(hand) | set(seen)
    unseen = [card for card in DECK if card not in known]
    return sum(beats(hand, card) for card in unseen), len(unseen)


def bet_sizes(pot: int, most: int) -> list[int]:
    """The bets offered as buttons: 1, a quarter and half of the pot, and the most allowed
    (the pot, or the stack when it is smaller); each once, in order.

    >>> bet_sizes(12, 12), bet_sizes(12, 5), bet_sizes(1, 1)
    ([1, 3, 6, 12], [1, 3, 5], [1])
    """
    sizes = {1, pot // 4, pot // 2, most}
    return sorted(size for size in sizes if 1 <= size <= most)


def _cards(texts: Iterable[str]) -> list[Card]:
    return [parse_card(text) for text in texts]


def _texts(cards: Iterable[Card]) -> list[str]:
    return [str(card) for card in cards]


def _sorted(cards: Iterable[Card]) -> list[Card]:
    return sorted(cards, key=Card.sort_key)


def _chips(n: int) -> str:
    return f"{n} chip" if n == 1 else f"{n} chips"


def _names(seats: Sequence[str], which: Iterable[int]) -> str:
    return ", ".join(seats[s] for s in which)
