"""Badugi hands: ace low, four cards, the best subset of distinct suits and distinct ranks.

The seed (001) and RULINGS.md: aces are the lowest card; the hand is the largest subset
whose cards differ in both suit and rank; more cards beat fewer; within one size the
highest card decides, then the next, and lower is better. Suits never break ties.

Why the strength is a single int: for two sets of distinct ranks of the same size,
comparing them highest card first is the same as comparing their rank *bitmasks* as
integers (the highest rank in which they differ decides either way). So a hand's strength
is its size in the high bits and the complement of its rank mask in the low bits: one int
comparison orders any two hands. The showdown and the benchmark need nothing more.

>>> from engine.cards import parse_cards
>>> badugi_strength(parse_cards("4s 3h 2d Ac")) > badugi_strength(parse_cards("5s 3h 2d Ac"))
True
>>> badugi_hand(parse_cards("Kc 2d 2h 5h")).description
'3-card hand, K-5-2'
>>> badugi_hand(parse_cards("7s 4h 3d Ac")).description
'4-card badugi, 7-4-3-A'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import combinations

from engine.cards import Card, Suit, rank_name
from engine.i18n import msg

__all__ = [
    "BADUGI_SIZE",
    "BadugiHand",
    "badugi_hand",
    "badugi_order",
    "badugi_strength",
    "card_low_rank",
]

BADUGI_SIZE = 4
_RANK_MASK_BITS = 14  # ace-low ranks 1..13 use bits 1..13 of the rank mask
_RANK_MASK_ALL = (1 << _RANK_MASK_BITS) - 1


def _low_rank(rank: int) -> int:
    return 1 if rank == 14 else rank


# Per card, keyed by Card.code (unique per rank and suit; every wild shares one code, which
# is deliberately absent so that a wild card fails the lookup on the fast path):
#   _CARD_BIT  one bit of 52, so OR-ing a hand's bits names its set of distinct cards;
#   _CARD_PAIR the ace-low rank bit shifted past 4 suit bits, OR the suit bit. Any set of
#              cards with pairwise distinct ranks and suits has exactly 2 bits per card.
_CARD_BIT: dict[int, int] = {}
_CARD_PAIR: dict[int, int] = {}
for _index, (_suit, _rank) in enumerate((s, r) for s in Suit for r in range(2, 15)):
    _card = Card(_rank, _suit)
    _CARD_BIT[_card.code] = 1 << _index
    _CARD_PAIR[_card.code] = (1 << (_low_rank(_rank) + 4)) | (1 << _suit)
del _index, _suit, _rank, _card

_SUBSETS: dict[int, tuple[tuple[int, ...], ...]] = {
    n: tuple(
        combo for size in range(n, 0, -1) for combo in combinations(range(n), size)
    )
    for n in range(1, BADUGI_SIZE + 1)
}

# Distinct card sets seen so far -> strength. There are 294,203 sets of 1..4 cards, so a
# long-running bot could fill it; it is simply emptied when it passes the limit.
_CACHE: dict[int, int] = {}
_CACHE_LIMIT = 200_000


def _strength_of_pairs(pairs: Sequence[int]) -> int:
    """The best subset's strength, from the cards' rank|suit bit pairs (slow path)."""
    best = 0
    best_size = 0
    for combo in _SUBSETS[len(pairs)]:
        size = len(combo)
        if size < best_size:
            break  # subsets come largest first; a smaller one can never win
        union = 0
        for i in combo:
            union |= pairs[i]
        if union.bit_count() == 2 * size:
            strength = (size << _RANK_MASK_BITS) | (_RANK_MASK_ALL ^ (union >> 4))
            if strength > best:
                best, best_size = strength, size
    return best


def _no_wilds(cards: Sequence[Card]) -> ValueError:
    wild = next((card for card in cards if card.is_wild), None)
    if wild is not None:
        return ValueError(f"wild cards are not used in Badugi, but the hand holds {wild}")
    return ValueError(f"not a Badugi hand: {list(cards)!r}")


def badugi_strength(cards: Sequence[Card]) -> int:
    """The hand's strength: a higher int is a better hand, an equal int a tie.

    Takes 1 to 4 cards (a Badugi hand is 4; fewer is accepted for partial showdowns).
    The hand's value depends only on its set of distinct cards (a second copy of a card
    can never join the chosen subset), so that set, as a 52-bit mask, keys the cache.
    """
    if not 0 < len(cards) <= BADUGI_SIZE:
        raise ValueError(f"a Badugi hand has 1 to 4 cards, not {len(cards)}")
    try:
        key = 0
        for card in cards:
            key |= _CARD_BIT[card.code]
    except KeyError:
        raise _no_wilds(cards) from None
    strength = _CACHE.get(key)
    if strength is None:
        if len(_CACHE) >= _CACHE_LIMIT:
            _CACHE.clear()
        strength = _CACHE[key] = _strength_of_pairs([_CARD_PAIR[card.code] for card in cards])
    return strength


def _rank_text(low_rank: int) -> str:
    return "A" if low_rank == 1 else rank_name(low_rank)


@dataclass(frozen=True, order=True)
class BadugiHand:
    """A Badugi hand as shown at the showdown; ordered (and equal) by strength alone."""

    strength: int
    cards: tuple[Card, ...] = field(compare=False)

    @property
    def size(self) -> int:
        return self.strength >> _RANK_MASK_BITS

    @property
    def ranks(self) -> tuple[int, ...]:
        """The chosen cards' ace-low ranks (ace = 1), highest first, as they are compared."""
        mask = _RANK_MASK_ALL ^ (self.strength & _RANK_MASK_ALL)
        return tuple(r for r in range(13, 0, -1) if mask >> r & 1)

    @property
    def description(self) -> str:
        ranks = "-".join(_rank_text(r) for r in self.ranks)
        if self.size == BADUGI_SIZE:
            return msg("{n}-card badugi, {ranks}", n=self.size, ranks=ranks)
        return msg("{n}-card hand, {ranks}", n=self.size, ranks=ranks)

    def __str__(self) -> str:
        return self.description


def badugi_hand(cards: Sequence[Card]) -> BadugiHand:
    """The hand with the subset it plays, for showing players why it won.

    When several subsets play equally (As 2d 2h plays A-2 either way), the first in the
    given card order is shown; the strength is the same.
    """
    strength = badugi_strength(cards)
    size = strength >> _RANK_MASK_BITS
    for combo in combinations(cards, size):
        pairs = [_CARD_PAIR[card.code] for card in combo]
        if _strength_of_pairs(pairs) == strength:
            chosen = sorted(combo, key=lambda c: (_low_rank(c.rank or 0), c.suit), reverse=True)
            return BadugiHand(strength, tuple(chosen))
    raise AssertionError("the strength always comes from one of the subsets")  # pragma: no cover


def card_low_rank(card: Card) -> int:
    """A card's rank with the ace low (1); a wild card's 0."""
    return _low_rank(card.rank or 0)


def badugi_order(cards: Sequence[Card]) -> list[Card]:
    """Cards as a Badugi player reads them: ace low, lowest first."""
    return sorted(cards, key=lambda c: (card_low_rank(c), c.suit or 0))
