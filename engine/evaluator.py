"""The high-hand evaluator: the best five of 5 to 9 cards, with up to four wild cards.

Games compare poker hands constantly (every showdown, and many thousands of times in bot
decisions and simulations), so the comparison key, `strength`, is built to be cheap in pure
Python. The layout of `Card.code` (see engine.cards) makes the *sum* of a hand's codes carry
its rank histogram, its wild count and its suit counts. The best hand that is not a flush
depends only on the rank histogram and the wild count, and whether a flush is possible shows
in the suit counts, so one masked sum keys one dict lookup that answers both. Only when
some suit (wilds included) reaches five cards does the evaluator look at the cards again,
to gather that suit's ranks for a second, small lookup.

The tables fill lazily: each entry is worked out from the rules the first time a hand needs
it, then kept. They hold only keys that hands produced (about 100,000 entries after every
kind of 7-card hand, with and without jokers). A hand with wilds is worth the best of the
hands with one wild replaced by each rank, so wild entries are built from those of hands
with one wild fewer.

`evaluate` gives the rich answer players see: the five cards, what each wild stands for,
and a description. It is slower, which does not matter at one call per showdown.

>>> from engine.cards import parse_cards
>>> evaluate(parse_cards("Ah Kh Qh Jh Th 2c 3d")).description
'royal flush'
>>> evaluate(parse_cards("9s 8s 7s 6s Jk Ad Ac")).description
'straight flush, ten high'
>>> hand = evaluate(parse_cards("Qs Qd Jk Jk 3c"))
>>> hand.description, hand.stands_for
('four of a kind, queens', (None, None, Card('Qh'), Card('Qc'), None))
>>> strength(parse_cards("5c 4d 3h 2s Ac")) < strength(parse_cards("6c 5d 4h 3s 2c"))
True
"""

from __future__ import annotations

import enum
import functools
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations

from engine.cards import (
    FLUSH_BIAS,
    FLUSH_BITS,
    RANK_AND_WILD_MASK,
    RANK_BITS,
    SUIT_BITS,
    SUIT_SHIFT,
    WILD_SHIFT,
    Card,
    Suit,
    joker,
    rank_word,
    standard_deck,
)

__all__ = [
    "Category",
    "HandValue",
    "category_of",
    "evaluate",
    "strength",
    "strength_of_codes",
]

MIN_CARDS = 5
MAX_CARDS = 9
MAX_WILDS = 4


class Category(enum.IntEnum):
    """Poker hand categories, low to high (five of a kind needs wild cards)."""

    HIGH_CARD = 0
    PAIR = 1
    TWO_PAIR = 2
    THREE_OF_A_KIND = 3
    STRAIGHT = 4
    FLUSH = 5
    FULL_HOUSE = 6
    FOUR_OF_A_KIND = 7
    STRAIGHT_FLUSH = 8
    FIVE_OF_A_KIND = 9

    @property
    def label(self) -> str:
        """The name players use: "straight flush", "three of a kind"."""
        return self.name.lower().replace("_", " ")


# --- strength values ------------------------------------------------------------------
# category << 20, then up to five tie-break ranks of 4 bits each, most significant first.
# Under natural_royal a natural royal flush adds 1 (the lowest bits of a straight flush are
# otherwise zero), which puts it above the wild ace-high straight flush and below nothing.
_CATEGORY_SHIFT = 20
_TIE_SHIFTS = (16, 12, 8, 4, 0)
_ROYAL = (Category.STRAIGHT_FLUSH << _CATEGORY_SHIFT) | (14 << 16)
_NATURAL_ROYAL_BONUS = 1

_WILD_UNIT = 1 << WILD_SHIFT
_RANK_UNITS = tuple(1 << (RANK_BITS * (rank - 2)) for rank in range(2, 15))
_RANK_COUNT_MASK = (1 << RANK_BITS) - 1
_ROYAL_RANKS = (10, 11, 12, 13, 14)


def _pack(category: Category, *ranks: int) -> int:
    value = category << _CATEGORY_SHIFT
    for shift, rank in zip(_TIE_SHIFTS, ranks, strict=False):
        value |= rank << shift
    return value


def _counts(key: int) -> list[int]:
    """The rank histogram of a key, indexed by rank (indexes 0 and 1 unused)."""
    return [0, 0] + [(key >> (RANK_BITS * i)) & _RANK_COUNT_MASK for i in range(13)]


_WHEEL = (14, 2, 3, 4, 5)


def _straight_top(counts: Sequence[int], wilds: int = 0) -> int:
    """The top rank of the highest straight the ranks held make, with `wilds` filling gaps.

    5 for the wheel (A-2-3-4-5, the ace low), 0 when there is none.
    """
    for top in range(14, 4, -1):
        window = _WHEEL if top == 5 else range(top - 4, top + 1)
        if sum(1 for rank in window if not counts[rank]) <= wilds:
            return top
    return 0


def _plain_value(counts: Sequence[int]) -> int:
    """The best non-flush five of natural cards given as a rank histogram.

    Five or more of a rank (possible from two decks, or once wilds are substituted) is five
    of a kind: five cards of one rank read as nothing else.
    """
    ranks = [rank for rank in range(14, 1, -1) if counts[rank]]
    for rank in ranks:
        if counts[rank] >= 5:
            return _pack(Category.FIVE_OF_A_KIND, rank)
    quads = [rank for rank in ranks if counts[rank] == 4]
    if quads:
        kicker = next(rank for rank in ranks if rank != quads[0])
        return _pack(Category.FOUR_OF_A_KIND, quads[0], kicker)
    trips = [rank for rank in ranks if counts[rank] == 3]
    pairs = [rank for rank in ranks if counts[rank] >= 2]
    if trips:
        others = [rank for rank in pairs if rank != trips[0]]
        if others:
            return _pack(Category.FULL_HOUSE, trips[0], others[0])
    top = _straight_top(counts)
    if top:
        return _pack(Category.STRAIGHT, top)
    if trips:
        kickers = [rank for rank in ranks if rank != trips[0]][:2]
        return _pack(Category.THREE_OF_A_KIND, trips[0], *kickers)
    if len(pairs) >= 2:
        high, low = pairs[:2]
        kicker = next(rank for rank in ranks if rank not in (high, low))
        return _pack(Category.TWO_PAIR, high, low, kicker)
    if pairs:
        kickers = [rank for rank in ranks if rank != pairs[0]][:3]
        return _pack(Category.PAIR, pairs[0], *kickers)
    return _pack(Category.HIGH_CARD, *ranks[:5])


def _suited_value(counts: Sequence[int], wilds: int) -> int:
    """The best flush or straight flush from one suit's natural cards and the wilds.

    The wilds complete the highest straight flush they can. Failing that, each wild is an
    ace of the suit, which may duplicate one held: the flush is ranked on its five highest
    cards, repeats included, so A-A-9-7-4 beats A-K-9-7-4 (repeats also come from two decks).
    """
    top = _straight_top(counts, wilds)
    if top:
        return _pack(Category.STRAIGHT_FLUSH, top)
    cards = [14] * wilds + [rank for rank in range(14, 1, -1) for _ in range(counts[rank])]
    return _pack(Category.FLUSH, *cards[:5])


def _count_error(count: int) -> ValueError:
    return ValueError(
        f"a poker hand is the best five of {MIN_CARDS} to {MAX_CARDS} cards, not {count}"
    )


def _wild_error(count: int) -> ValueError:
    return ValueError(f"a poker hand may hold at most {MAX_WILDS} wild cards, not {count}")


# Every rank key (histogram + wild count) worked out so far, including the ones that only
# served the wild recursion. The tables the hot path reads hold only keys hands produced,
# so they stay small and cache-friendly.
_RANK_MEMO: dict[int, int] = {}


def _rank_value(key: int) -> int:
    """The best non-flush strength for a rank histogram + wild count key.

    A hand with wilds is worth the best of the hands with one wild replaced by each rank.
    A rank already held five times gains nothing from a wild (and its 3-bit count must not
    overflow): any other rank does at least as well.
    """
    value = _RANK_MEMO.get(key)
    if value is None:
        counts = _counts(key)
        if key >> WILD_SHIFT:
            base = key - _WILD_UNIT
            value = max(
                _rank_value(base + _RANK_UNITS[rank - 2])
                for rank in range(2, 15)
                if counts[rank] < 5
            )
        else:
            value = _plain_value(counts)
        _RANK_MEMO[key] = value
    return value


def _flush_bound(key: int) -> int:
    """More than any flush or straight flush some suit of this hand could make.

    A straight flush needs a straight of distinct ranks held (with the wilds); without one,
    any flush is below a full house. When the best non-flush hand reaches the bound (four
    of a kind with no straight in reach, five of a kind), the flush path is skipped.
    """
    top = _straight_top(_counts(key), key >> WILD_SHIFT)
    if top:
        return _pack(Category.STRAIGHT_FLUSH, top) + 2 * _NATURAL_ROYAL_BONUS
    return _pack(Category.FULL_HOUSE)


class _RankTable(dict[int, int]):
    """Hand key -> best non-flush strength, filled on demand.

    The key is the rank histogram and wild count, plus the flush flags of (sum +
    FLUSH_BIAS): folding the flush test into the lookup saves the hot path an operation on
    every hand. A key with a flag set stores ~value (negative), which tells the caller
    that some suit holds five cards with the wilds and the flush tables must be asked too.
    """

    def __missing__(self, key: int) -> int:
        rank_key = key & RANK_AND_WILD_MASK
        wilds = rank_key >> WILD_SHIFT
        cards = sum(_counts(rank_key)) + wilds
        if not MIN_CARDS <= cards <= MAX_CARDS:
            raise _count_error(cards)
        if wilds > MAX_WILDS:
            raise _wild_error(wilds)
        value = _rank_value(rank_key)
        if key & FLUSH_BITS and value < _flush_bound(rank_key):
            value = ~value
        self[key] = value
        return value


class _FlushTable(dict[int, int]):
    """Key (one suit's natural ranks + wild count) -> best flush-category strength.

    With natural_royal, a royal flush of natural cards outranks one made with a wild: if
    the suit's natural cards hold a royal, that is the best flush-category hand; otherwise
    any royal needs a wild and stays an ace-high straight flush.
    """

    def __init__(self, natural_royal: bool) -> None:
        super().__init__()
        self._natural_royal = natural_royal

    def __missing__(self, key: int) -> int:
        counts = _counts(key)
        value = _suited_value(counts, key >> WILD_SHIFT)
        if self._natural_royal and value == _ROYAL and all(counts[rank] for rank in _ROYAL_RANKS):
            value += _NATURAL_ROYAL_BONUS
        self[key] = value
        return value


_RANK_TABLE = _RankTable()
_FLUSH_TABLE = _FlushTable(natural_royal=False)
_NATURAL_ROYAL_FLUSH_TABLE = _FlushTable(natural_royal=True)


_FLAG_SHIFT = SUIT_SHIFT + 3  # the lowest flush flag: key >> _FLAG_SHIFT is a small index

_Gather = Callable[[int], int]


def _suit_gatherers() -> tuple[list[_Gather | None], list[tuple[_Gather, ...]]]:
    """Per flush-flag index (key >> _FLAG_SHIFT): a code -> share function for each suit.

    A code's share is its rank and wild bits if the card is of that suit or wild, else 0,
    so summing the shares over a hand gives that suit's flush-table key. Mapping a dict's
    __getitem__ over the codes runs the loop in C, the cheapest way to look at each card.
    Lists indexed by the small flag number avoid hashing a big key; the first list holds
    the one gatherer when a single suit is flagged (nearly always), else None.
    """
    codes = [card.code for card in standard_deck()] + [joker().code]
    gatherers = []
    for suit in Suit:
        field = ((1 << SUIT_BITS) - 1) << (SUIT_SHIFT + SUIT_BITS * suit)
        shares = {code: (code & RANK_AND_WILD_MASK if code & field else 0) for code in codes}
        gatherers.append(shares.__getitem__)
    flags = [8 << (SUIT_SHIFT + SUIT_BITS * suit) for suit in Suit]
    size = (FLUSH_BITS >> _FLAG_SHIFT) + 1
    single: list[_Gather | None] = [None] * size
    every: list[tuple[_Gather, ...]] = [()] * size
    for chosen in range(16):
        suits = [suit for suit in range(4) if chosen >> suit & 1]
        index = sum(flags[suit] for suit in suits) >> _FLAG_SHIFT
        every[index] = tuple(gatherers[suit] for suit in suits)
        if len(suits) == 1:
            single[index] = gatherers[suits[0]]
    return single, every


def _make_strength_of_codes() -> Callable[..., int]:
    # Closure cells are read faster than globals, and the signature stays the public one.
    rank_table = _RANK_TABLE
    flush_table = _FLUSH_TABLE
    natural_royal_table = _NATURAL_ROYAL_FLUSH_TABLE
    single_suit, every_suit = _suit_gatherers()
    key_mask = RANK_AND_WILD_MASK | FLUSH_BITS
    bias = FLUSH_BIAS
    flag_shift = _FLAG_SHIFT

    def strength_of_codes(codes: Sequence[int], natural_royal: bool = False) -> int:
        """The hand's strength from its cards' `code`s: higher wins, equal ties.

        The fast path for simulations and bots; it does not check its input beyond what
        the tables notice (fewer than 5 or more than 9 cards, more than 4 wilds).

        >>> from engine.cards import parse_cards
        >>> codes = [card.code for card in parse_cards("Ah Kh Qh Jh Jk")]
        >>> strength_of_codes(codes) == strength_of_codes(codes[:4] + [parse_cards("Th")[0].code])
        True
        >>> category_of(strength_of_codes(codes, natural_royal=True)).label
        'straight flush'
        """
        key = sum(codes, bias) & key_mask  # the start value adds the bias for free
        value = rank_table[key]
        if value >= 0:
            return value
        # Some suit reaches five cards with the wilds: a flush or straight flush may beat
        # the best non-flush hand, whose value is stored complemented.
        value = ~value
        table = natural_royal_table if natural_royal else flush_table
        gather = single_suit[key >> flag_shift]
        if gather is not None:
            suited = table[sum(map(gather, codes))]
            return suited if suited > value else value
        for gather in every_suit[key >> flag_shift]:
            suited = table[sum(map(gather, codes))]
            if suited > value:
                value = suited
        return value

    return strength_of_codes


strength_of_codes = _make_strength_of_codes()


def strength(cards: Iterable[Card], natural_royal: bool = False) -> int:
    """The comparison key of the best five of `cards`: higher wins, equal ties.

    With natural_royal, only a royal flush of natural cards is a royal flush; one made with
    a wild ranks between it and the king-high straight flush.

    >>> from engine.cards import parse_cards
    >>> natural, wild = parse_cards("As Ks Qs Js Ts"), parse_cards("As Ks Qs Js Jk")
    >>> strength(natural) == strength(wild)
    True
    >>> strength(natural, natural_royal=True) > strength(wild, natural_royal=True)
    True
    """
    codes = [card.code for card in cards]
    if not MIN_CARDS <= len(codes) <= MAX_CARDS:
        raise _count_error(len(codes))
    return strength_of_codes(codes, natural_royal)


def category_of(strength: int) -> Category:
    """The category of a strength value.

    >>> from engine.cards import parse_cards
    >>> category_of(strength(parse_cards("7c 7d 7h 2s 2c")))
    <Category.FULL_HOUSE: 6>
    """
    return Category(strength >> _CATEGORY_SHIFT)


def _tiebreaks(strength: int) -> list[int]:
    return [(strength >> shift) & 15 for shift in _TIE_SHIFTS]


def _slot_ranks(strength: int) -> list[int]:
    """The ranks of the five cards a strength describes, in the order they are shown."""
    category = category_of(strength)
    r = _tiebreaks(strength)
    if category in (Category.STRAIGHT, Category.STRAIGHT_FLUSH):
        top = r[0]
        return [5, 4, 3, 2, 14] if top == 5 else list(range(top, top - 5, -1))
    if category == Category.FIVE_OF_A_KIND:
        return [r[0]] * 5
    if category == Category.FOUR_OF_A_KIND:
        return [r[0]] * 4 + [r[1]]
    if category == Category.FULL_HOUSE:
        return [r[0]] * 3 + [r[1]] * 2
    if category == Category.THREE_OF_A_KIND:
        return [r[0]] * 3 + r[1:3]
    if category == Category.TWO_PAIR:
        return [r[0], r[0], r[1], r[1], r[2]]
    if category == Category.PAIR:
        return [r[0], r[0], *r[1:4]]
    return r  # high card, flush


def _describe(strength: int, is_royal: bool) -> str:
    category = category_of(strength)
    r = _tiebreaks(strength)
    if is_royal:
        return "royal flush"
    if category == Category.FIVE_OF_A_KIND:
        return f"five of a kind, {rank_word(r[0], plural=True)}"
    if category in (Category.STRAIGHT_FLUSH, Category.STRAIGHT, Category.FLUSH):
        return f"{category.label}, {rank_word(r[0])} high"
    if category == Category.FOUR_OF_A_KIND:
        return f"four of a kind, {rank_word(r[0], plural=True)}"
    if category == Category.FULL_HOUSE:
        return f"full house, {rank_word(r[0], plural=True)} over {rank_word(r[1], plural=True)}"
    if category == Category.THREE_OF_A_KIND:
        return f"three of a kind, {rank_word(r[0], plural=True)}"
    if category == Category.TWO_PAIR:
        return f"two pair, {rank_word(r[0], plural=True)} and {rank_word(r[1], plural=True)}"
    if category == Category.PAIR:
        return f"pair of {rank_word(r[0], plural=True)}"
    return f"high card {rank_word(r[0])}"


@functools.total_ordering
@dataclass(frozen=True, eq=False)
class HandValue:
    """The best five cards of a hand, as shown to players.

    Ordered, equal and hashed by `strength` alone, so hands compare the way the rules do:
    two different sets of cards with the same ranks tie.
    """

    strength: int
    category: Category
    cards: tuple[Card, ...]
    stands_for: tuple[Card | None, ...]
    is_royal: bool

    @property
    def description(self) -> str:
        """What the hand is, in words: "full house, kings over fives"."""
        return _describe(self.strength, self.is_royal)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, HandValue):
            return NotImplemented
        return self.strength == other.strength

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, HandValue):
            return NotImplemented
        return self.strength < other.strength

    def __hash__(self) -> int:
        return hash(self.strength)


def _sort_key(card: Card) -> tuple[int, int, str]:
    # High cards first, wilds last, and a total order so that the chosen five and the
    # wilds' substitutes do not depend on the order the cards came in.
    if card.rank is None:
        return (1, 0, card.letter or "")
    assert card.suit is not None
    return (0, -card.rank * 4 - int(card.suit), card.letter or "")


# Suits a wild prefers to stand for outside flushes: any, as suits never rank; a fixed
# order keeps the answer reproducible.
_SUIT_PREFERENCE = (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)


def evaluate(cards: Iterable[Card], natural_royal: bool = False) -> HandValue:
    """The best five of 5 to 9 cards, with up to four wild cards, and how they are read.

    Wilds take whatever value makes the hand best and may duplicate a card held. Among
    equally strong choices of five, the one using the fewest wilds is shown.

    >>> from engine.cards import parse_cards
    >>> evaluate(parse_cards("Kd Kc 5h 5s 5c 9d 2c")).description
    'full house, fives over kings'
    >>> hand = evaluate(parse_cards("As Ks Qs Js Jk"), natural_royal=True)
    >>> hand.description, hand.is_royal, hand.stands_for[-1]
    ('straight flush, ace high', False, Card('Ts'))
    >>> evaluate(parse_cards("Ah Kh"))
    Traceback (most recent call last):
    ...
    ValueError: a poker hand is the best five of 5 to 9 cards, not 2
    """
    hand = list(cards)
    for card in hand:
        if not isinstance(card, Card):
            raise TypeError(f"{card!r} is not a Card")
    if not MIN_CARDS <= len(hand) <= MAX_CARDS:
        raise _count_error(len(hand))
    hand.sort(key=_sort_key)
    wild_count = sum(1 for card in hand if card.rank is None)
    if wild_count > MAX_WILDS:
        raise _wild_error(wild_count)
    codes = [card.code for card in hand]
    target = strength_of_codes(codes, natural_royal)

    fewest = max(0, wild_count - (len(hand) - 5))
    chosen: tuple[int, ...] | None = None
    chosen_wilds = MAX_WILDS + 1
    for picked in combinations(range(len(hand)), 5):
        wilds = sum(1 for i in picked if hand[i].rank is None)
        if wilds >= chosen_wilds:
            continue
        if strength_of_codes([codes[i] for i in picked], natural_royal) == target:
            chosen, chosen_wilds = picked, wilds
            if wilds == fewest:
                break
    assert chosen is not None, "the best of N cards is the best of some five of them"
    five = [hand[i] for i in chosen]
    return _read(target, five, hand, natural_royal)


def _read(target: int, five: list[Card], hand: list[Card], natural_royal: bool) -> HandValue:
    """Lay the five cards out in display order and say what each wild stands for."""
    category = category_of(target)
    slots = _slot_ranks(target)
    naturals = [card for card in five if card.rank is not None]
    wilds = [card for card in five if card.rank is None]
    placed: list[Card | None] = [None] * 5
    for card in naturals:
        slot = next(i for i, rank in enumerate(slots) if rank == card.rank and placed[i] is None)
        placed[slot] = card

    flush_suit = naturals[0].suit if naturals else Suit.SPADES
    held = {(card.rank, card.suit) for card in hand if card.rank is not None}
    out: list[Card] = []
    stands_for: list[Card | None] = []
    spare = iter(wilds)
    for slot, rank in enumerate(slots):
        natural = placed[slot]
        if natural is not None:
            out.append(natural)
            stands_for.append(None)
            continue
        if category in (Category.FLUSH, Category.STRAIGHT_FLUSH):
            suit = flush_suit
        else:
            suit = next((s for s in _SUIT_PREFERENCE if (rank, s) not in held), _SUIT_PREFERENCE[0])
        assert suit is not None
        held.add((rank, suit))
        out.append(next(spare))
        stands_for.append(Card(rank, suit))
    return HandValue(
        strength=target,
        category=category,
        cards=tuple(out),
        stands_for=tuple(stands_for),
        is_royal=target == _ROYAL + (_NATURAL_ROYAL_BONUS if natural_royal else 0),
    )
