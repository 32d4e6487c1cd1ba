"""The high-hand evaluator: the best five of 5 to 9 cards, with up to four wild cards.

Games compare poker hands constantly (every showdown, and many thousands of times in bot
decisions and simulations), so the comparison key, `strength`, is built to be cheap in pure
Python. The layout of `Card.code` (see engine.cards) makes the *sum* of a hand's codes carry
its rank histogram, its wild count and its suit counts. The best hand that is not a flush
depends only on the rank histogram and the wild count, so two masks of the sum index the
rank table (two small maps, then one list: see engine.evaluator_tables for why not one
dict); whether a flush is possible shows in the suit counts, with one AND. Only when some
suit (wilds included) reaches five cards does the evaluator look at the cards again, to
gather that suit's ranks for a second, small lookup.

The tables are complete from the start (engine.evaluator_tables, loaded from data/): every
5-, 6- and 7-card hand of one deck with up to four wilds is a lookup, the first one
included, so the speed does not depend on which hands came before. Hands beyond them (8 or
9 cards, repeated cards from two decks) are worked out from the same rules and remembered.
The rank table keeps no flush flags in its key: that would make it four times larger, and
a larger table costs more cache misses than the AND saves.

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

import functools
import warnings
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import cast

from engine.cards import (
    FLUSH_BIAS,
    FLUSH_BITS,
    RANK_AND_WILD_MASK,
    SUIT_BITS,
    SUIT_SHIFT,
    Card,
    Suit,
    joker,
    rank_word,
    standard_deck,
)
from engine.evaluator_tables import (
    CATEGORY_SHIFT,
    HIGH_MASK,
    LOW_MASK,
    MAX_CARDS,
    MAX_WILDS,
    MIN_CARDS,
    NATURAL_ROYAL_BONUS,
    ROYAL,
    TIE_SHIFTS,
    Category,
    TableFileError,
    Tables,
    checked_rank_value,
    count_error,
    suited_value,
    wild_error,
)
from engine.evaluator_tables import build as _build_tables
from engine.evaluator_tables import load as _load_tables
from engine.i18n import msg

__all__ = [
    "Category",
    "HandValue",
    "category_of",
    "evaluate",
    "strength",
    "strength_of_codes",
]


def _tables() -> Tables:
    """The complete tables from data/, or, if that file is stale or damaged, built here.

    Building takes over a second where loading takes milliseconds, so a bad file is said
    out loud rather than silently paid for at every start (the tests insist on a good one).
    """
    try:
        return _load_tables()
    except TableFileError as error:
        warnings.warn(f"{error}. Building the tables in memory instead.", stacklevel=2)
        return _build_tables()[0]


_TABLES = _tables()
# Rank keys beyond the tables (8 or 9 cards, repeated cards), worked out from the rules
# when first met; the memo also keeps the keys that only served the wild recursion.
_BEYOND_TABLES: dict[int, int] = {}
_BEYOND_FLUSH_TABLES: tuple[dict[int, int], dict[int, int]] = ({}, {})  # by natural_royal
_RANK_MEMO: dict[int, int] = {}

_FLAG_SHIFT = SUIT_SHIFT + 3  # the lowest flush flag: flags >> _FLAG_SHIFT is a small index

_Gather = Callable[[int], int]


def _suit_gatherers() -> tuple[list[_Gather | None], list[tuple[_Gather, ...]]]:
    """Per flush-flag index (flags >> _FLAG_SHIFT): a code -> share function for each suit.

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
    # high[n] serves n-card hands; other sizes get an empty dict, whose KeyError sends the
    # hand to the rules (8 or 9 cards) or to the error it deserves (too few or too many).
    high: list[dict[int, int]] = [_TABLES.high.get(size, {}) for size in range(16)]
    # Typed without the None they hold: a None column fails the addition (TypeError,
    # caught), and genuine card codes never reach a None value (see Tables).
    low = cast(list[int], _TABLES.low)
    rank_table = cast(list[int], _TABLES.rank)
    flush_table = _TABLES.flush
    natural_royal_table = _TABLES.natural_royal_flush
    single_suit, every_suit = _suit_gatherers()
    low_mask, high_mask = LOW_MASK, HIGH_MASK
    rank_mask = RANK_AND_WILD_MASK
    flush_bits = FLUSH_BITS
    bias = FLUSH_BIAS
    flag_shift = _FLAG_SHIFT
    memo = _RANK_MEMO
    beyond = _BEYOND_TABLES

    def rank_value(total: int) -> int:
        # Beyond the tables (8 or 9 cards, repeated cards): check the hand, work it out
        # from the rules, and remember it.
        key = total & rank_mask
        value = beyond.get(key)
        if value is None:
            value = beyond[key] = checked_rank_value(key, memo)
        return value

    def suited_value_of(key: int, natural_royal: bool) -> int:
        # Beyond the tables (repeated cards, or 8 or 9 cards): work it out, remember it.
        beyond_suited = _BEYOND_FLUSH_TABLES[bool(natural_royal)]
        value = beyond_suited.get(key)
        if value is None:
            value = beyond_suited[key] = suited_value(key, natural_royal)
        return value

    def with_flush(codes: Sequence[int], flags: int, value: int, natural_royal: bool) -> int:
        # Some suit reaches five cards with the wilds: a flush or straight flush may win.
        # Kept out of strength_of_codes, which the other 97% of 7-card hands then run
        # with fewer closure cells to copy in.
        table = natural_royal_table if natural_royal else flush_table
        gather = single_suit[flags >> flag_shift]
        if gather is not None:
            key = sum(map(gather, codes))
            try:
                suited = table[key]
            except KeyError:
                suited = suited_value_of(key, natural_royal)
            return suited if suited > value else value
        for gather in every_suit[flags >> flag_shift]:
            key = sum(map(gather, codes))
            try:
                suited = table[key]
            except KeyError:
                suited = suited_value_of(key, natural_royal)
            if suited > value:
                value = suited
        return value

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
        # The start value adds the bias for free: a suit field's top bit is then set
        # exactly when that suit, with the wilds, holds five cards.
        total = sum(codes, bias)
        try:  # the best hand that is not a flush (see engine.evaluator_tables)
            value = rank_table[
                high[len(codes)][total & high_mask] + low[total & low_mask]
            ]
        except (KeyError, TypeError, IndexError):
            value = rank_value(total)
        if total & flush_bits:
            return with_flush(codes, total & flush_bits, value, natural_royal)
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
        raise count_error(len(codes))
    return strength_of_codes(codes, natural_royal)


def category_of(strength: int) -> Category:
    """The category of a strength value.

    >>> from engine.cards import parse_cards
    >>> category_of(strength(parse_cards("7c 7d 7h 2s 2c")))
    <Category.FULL_HOUSE: 6>
    """
    return Category(strength >> CATEGORY_SHIFT)


def _tiebreaks(strength: int) -> list[int]:
    return [(strength >> shift) & 15 for shift in TIE_SHIFTS]


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


CATEGORY_LABELS = {
    Category.HIGH_CARD: msg("high card"), Category.PAIR: msg("pair"),
    Category.TWO_PAIR: msg("two pair"), Category.THREE_OF_A_KIND: msg("three of a kind"),
    Category.STRAIGHT: msg("straight"), Category.FLUSH: msg("flush"),
    Category.FULL_HOUSE: msg("full house"), Category.FOUR_OF_A_KIND: msg("four of a kind"),
    Category.STRAIGHT_FLUSH: msg("straight flush"),
    Category.FIVE_OF_A_KIND: msg("five of a kind"),
}
"""`Category.label` as catalogue entries, for the sentences players read."""


def _describe(strength: int, is_royal: bool) -> str:
    category = category_of(strength)
    r = _tiebreaks(strength)
    if is_royal:
        return msg("royal flush")
    if category == Category.FIVE_OF_A_KIND:
        return msg("five of a kind, {ranks}", ranks=rank_word(r[0], plural=True))
    if category in (Category.STRAIGHT_FLUSH, Category.STRAIGHT, Category.FLUSH):
        return msg("{category}, {rank} high", category=CATEGORY_LABELS[category],
                   rank=rank_word(r[0]))
    if category == Category.FOUR_OF_A_KIND:
        return msg("four of a kind, {ranks}", ranks=rank_word(r[0], plural=True))
    if category == Category.FULL_HOUSE:
        return msg("full house, {high} over {low}", high=rank_word(r[0], plural=True),
                   low=rank_word(r[1], plural=True))
    if category == Category.THREE_OF_A_KIND:
        return msg("three of a kind, {ranks}", ranks=rank_word(r[0], plural=True))
    if category == Category.TWO_PAIR:
        return msg("two pair, {high} and {low}", high=rank_word(r[0], plural=True),
                   low=rank_word(r[1], plural=True))
    if category == Category.PAIR:
        return msg("pair of {ranks}", ranks=rank_word(r[0], plural=True))
    return msg("high card {rank}", rank=rank_word(r[0]))


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
        raise count_error(len(hand))
    hand.sort(key=_sort_key)
    wild_count = sum(1 for card in hand if card.rank is None)
    if wild_count > MAX_WILDS:
        raise wild_error(wild_count)
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
        is_royal=target == ROYAL + (NATURAL_ROYAL_BONUS if natural_royal else 0),
    )
