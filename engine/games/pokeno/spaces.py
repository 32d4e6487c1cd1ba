"""Pyramid Po-Ke-No spaces: is a space's handful of cards exactly its category, and how
strong is it there? (Seed 003 and RULINGS.md.)

A board has ten spaces, each named for one poker category and holding a fixed number of
cards (2 to 5), dealt from two decks with two jokers each, so a space may hold two
copies of one card and even five natural aces. A space is *correct* when its cards can
be read as exactly that category: the category of a concrete set of cards is the highest
one it makes, so four of one rank is four of a kind, not two pair; five of one rank is
five of a kind, not a full house; a straight flush is not a flush, and a flush is not a
straight. A wild card (joker) stands for any rank and suit, may duplicate a card already
there, and a space is correct when ANY choice for its wilds reads as the category; among
those readings the best one gives the strength. Jokers are wild everywhere except the
royal flush space, which must be natural.

Conventions where seed and rulings are silent:

- A royal flush is the ace-high straight flush (RULINGS: Common), so one placed in the
  straight flush space is correct there and is that space's best hand. Jokers may make
  that ace-high straight flush in the straight flush space; only the royal flush *space*
  refuses them. All correct royal flushes tie.
- Strength is compared with the usual order inside the category: pairs, trips and quads
  by rank; two pair by the higher pair, then the lower; a full house by its three, then
  its two; straights and straight flushes by their top card (A-2-3-4-5 is the lowest,
  five-high); flushes and "any two cards" card by card from the highest. Duplicate ranks
  in a flush (two decks) count like any other card: A-A-K-K-Q beats A-K-Q-J-9.
- A space with fewer cards than its size is incomplete (not correct); more cards than its
  size cannot be placed, and asking about them is an error.

>>> from engine.cards import parse_cards
>>> is_correct(Space.TWO_PAIR, parse_cards("9c 9d 9h 9s"))
False
>>> is_correct(Space.STRAIGHT, parse_cards("5h 6h Jk 8h 9h"))
True
>>> read_space(Space.PAIR, parse_cards("Kc Jk")) == read_space(Space.PAIR, parse_cards("Kc Kd"))
True
>>> Space.FULL_HOUSE.size, Space.FULL_HOUSE.points
(5, 20)
"""

from __future__ import annotations

import enum
from collections import Counter
from collections.abc import Sequence
from functools import lru_cache
from itertools import combinations_with_replacement

from engine.cards import RANKS, Card, Suit

__all__ = ["Space", "is_correct", "read_space", "reading"]

# Poker categories, low to high (RULINGS: Common); five of a kind needs wild cards or
# the second deck.
_HIGH_CARD, _PAIR, _TWO_PAIR, _TRIPS, _STRAIGHT, _FLUSH = range(6)
_FULL_HOUSE, _QUADS, _STRAIGHT_FLUSH, _FIVE_OF_A_KIND = range(6, 10)


class Space(enum.Enum):
    """A board space: its category, how many cards it takes, and its points (seed 003)."""

    NO_PAIR = ("any two cards (high card, no pair)", 2, 3, _HIGH_CARD)
    PAIR = ("one pair", 2, 5, _PAIR)
    TWO_PAIR = ("two pair", 4, 7, _TWO_PAIR)
    THREE_OF_A_KIND = ("three of a kind", 3, 8, _TRIPS)
    STRAIGHT = ("straight", 5, 10, _STRAIGHT)
    FLUSH = ("flush", 5, 15, _FLUSH)
    FULL_HOUSE = ("full house", 5, 20, _FULL_HOUSE)
    FOUR_OF_A_KIND = ("four of a kind", 4, 30, _QUADS)
    STRAIGHT_FLUSH = ("straight flush", 5, 40, _STRAIGHT_FLUSH)
    ROYAL_FLUSH = ("royal flush (natural, no jokers)", 5, 60, _STRAIGHT_FLUSH)

    def __init__(self, label: str, size: int, points: int, category: int) -> None:
        self.label = label
        self.size = size
        self.points = points
        self.category = category

    @property
    def wilds_allowed(self) -> bool:
        return self is not Space.ROYAL_FLUSH


def _classify(ranks: tuple[int, ...], flush: bool) -> tuple[int, tuple[int, ...]]:
    """The category of concrete cards (ranks, and whether all share a suit) and the key
    that orders hands within it. `flush` only counts for five cards."""
    counts = Counter(ranks)
    groups = sorted(counts.items(), key=lambda rc: (rc[1], rc[0]), reverse=True)
    shape = [count for _, count in groups]
    by_group = tuple(rank for rank, count in groups for _ in range(count))
    five = len(ranks) == 5
    flush = flush and five
    if shape[0] == 5:
        return _FIVE_OF_A_KIND, by_group
    top = 0
    if five and len(counts) == 5:
        if max(ranks) - min(ranks) == 4:
            top = max(ranks)
        elif set(ranks) == {14, 2, 3, 4, 5}:
            top = 5
    if top and flush:
        return _STRAIGHT_FLUSH, (top,)
    if shape[0] == 4:
        return _QUADS, by_group
    if shape[:2] == [3, 2]:
        return _FULL_HOUSE, by_group
    if flush:
        return _FLUSH, tuple(sorted(ranks, reverse=True))
    if top:
        return _STRAIGHT, (top,)
    if shape[0] == 3:
        return _TRIPS, by_group
    if shape[:2] == [2, 2]:
        return _TWO_PAIR, by_group
    if shape[0] == 2:
        return _PAIR, by_group
    return _HIGH_CARD, tuple(sorted(ranks, reverse=True))


def _strength(key: tuple[int, ...]) -> int:
    value = 0
    for rank in key:
        value = value * 16 + rank
    return value


@lru_cache(maxsize=4096)
def _best(
    space: Space, ranks: tuple[int, ...], suits: int, wilds: int
) -> tuple[int, tuple[int, ...], bool] | None:
    """The best exact reading: (strength, the wilds' ranks, whether it is a flush).

    `suits` is how many suits the natural cards show, capped at 2: suits matter only as
    "could all five share one suit" (wilds follow the naturals' suit) and "could they not"
    (a wild takes another suit), so that is all the search needs. Wilds are
    interchangeable, so their ranks are tried as multisets: at most 1,820 for four.
    """
    if space.size == 5:
        can_flush, can_miss = suits <= 1, wilds > 0 or suits > 1
        flush_options = [flag for flag, ok in ((True, can_flush), (False, can_miss)) if ok]
    else:
        flush_options = [False]
    best: tuple[int, tuple[int, ...], bool] | None = None
    for extra in combinations_with_replacement(RANKS, wilds):
        for flush in flush_options:
            category, key = _classify(ranks + extra, flush)
            if category != space.category:
                continue
            if space is Space.ROYAL_FLUSH and key != (14,):
                continue
            strength = _strength(key)
            if best is None or strength > best[0]:
                best = (strength, extra, flush)
    return best


def _search(space: Space, cards: Sequence[Card]) -> tuple[int, tuple[int, ...], bool] | None:
    if len(cards) > space.size:
        raise ValueError(
            f"the {space.label} space takes {space.size} cards, not {len(cards)}"
        )
    if len(cards) < space.size:
        return None
    naturals = [card for card in cards if not card.is_wild]
    wilds = len(cards) - len(naturals)
    if wilds and not space.wilds_allowed:
        return None
    ranks = tuple(sorted(card.rank for card in naturals if card.rank is not None))
    suits = min(len({card.suit for card in naturals}), 2)
    return _best(space, ranks, suits, wilds)


def read_space(space: Space, cards: Sequence[Card]) -> int | None:
    """The space's strength, comparable with other boards' same space (higher is better,
    equal is a tie), or None when the space is incomplete or not exactly its category."""
    found = _search(space, cards)
    return None if found is None else found[0]


def is_correct(space: Space, cards: Sequence[Card]) -> bool:
    """Whether a complete space reads as exactly its category (what the caller's
    "full board" is judged on)."""
    return _search(space, cards) is not None


def reading(space: Space, cards: Sequence[Card]) -> tuple[Card, ...] | None:
    """The cards as scored, each wild replaced by the card it stands for, so players can
    be shown why a space won ("the joker is the K♥"); None when the space is not correct.

    Natural cards come first in the given order, then the wilds' stand-ins.
    """
    found = _search(space, cards)
    if found is None:
        return None
    _, extra, flush = found
    naturals = [card for card in cards if not card.is_wild]
    natural_suits = {card.suit for card in naturals}
    only_suit = next(iter(natural_suits)) if len(natural_suits) == 1 else None
    if flush:
        suit = Suit.SPADES if only_suit is None else only_suit  # CLUBS is 0: no `or`
        stand_ins = [Card(rank, suit) for rank in extra]
    else:
        # Cycle the suits, starting just past the naturals' one suit: some stand-in then
        # differs from the rest, which keeps a five-card reading off a flush.
        start = 0 if only_suit is None else only_suit + 1
        stand_ins = [Card(rank, Suit((start + i) % 4)) for i, rank in enumerate(extra)]
    return (*naturals, *stand_ins)
