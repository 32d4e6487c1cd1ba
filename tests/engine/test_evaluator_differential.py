"""The evaluator against independent judges, on many random hands with fixed seeds.

Natural hands are checked against treys (a different algorithm: Cactus Kev's prime
products, lower is better). Wild hands are checked against brute force: a wild may stand
for any of the 52 cards, duplicates allowed, so the hand's value must be the best over
every substitution. That brute force uses the engine's natural evaluation, so natural
hands *with* duplicate cards (which substitution creates, and two decks can deal) are
also checked against a naive reference written from the rules, and a small sample of
wild hands is checked against the naive reference end to end.

The default run checks the full sizes (100,000 pairs of 5-card hands, 100,000 pairs of
7-card hands, 10,000 wild hands). `-m slow` adds every 5-card hand and larger samples.
"""

import random
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from itertools import combinations, combinations_with_replacement, pairwise

import pytest
from treys import Card as TreysCard
from treys import Evaluator as TreysEvaluator

from engine.cards import Card, joker, parse_cards, standard_deck
from engine.evaluator import Category, category_of, strength, strength_of_codes

DECK = standard_deck()
CODES = [card.code for card in DECK]
WILD = joker().code
TREYS_OF_CODE = {card.code: TreysCard.new(str(card)) for card in DECK}
ROYAL = strength(parse_cards("As Ks Qs Js Ts"))
NATURAL_ROYAL_NR = strength(parse_cards("As Ks Qs Js Ts"), natural_royal=True)
WILD_ROYAL_NR = strength(parse_cards("As Ks Qs Js Jk"), natural_royal=True)
KING_HIGH_SF_NR = strength(parse_cards("Ks Qs Js Ts 9s"), natural_royal=True)


def _sign(x: int) -> int:
    return (x > 0) - (x < 0)


def _assert_same_order(ours: Sequence[int], theirs: Sequence, what: str) -> None:
    """`ours` (higher wins) and `theirs` (any key, higher wins) rank the hands alike.

    Stronger than comparing pairs: equal values must be equal on both sides and the
    sorted orders must agree, which covers every pair of hands at once.
    """
    seen: dict[int, object] = {}
    for a, b in zip(ours, theirs, strict=True):
        if seen.setdefault(a, b) != b:
            raise AssertionError(f"{what}: engine value {a} is both {seen[a]} and {b}")
    ordered = [seen[a] for a in sorted(seen)]
    for low, high in pairwise(ordered):
        assert low < high, f"{what}: engine and judge disagree on {low} vs {high}"


def _random_hands(rng: random.Random, size: int, count: int) -> list[tuple[int, ...]]:
    return [tuple(rng.sample(CODES, size)) for _ in range(count)]


def _against_treys(size: int, pairs: int, seed: int) -> None:
    rng = random.Random(seed)
    hands = _random_hands(rng, size, 2 * pairs)
    evaluator = TreysEvaluator()
    ours = [strength_of_codes(codes) for codes in hands]
    theirs = [
        evaluator.evaluate(
            [TREYS_OF_CODE[c] for c in codes[:2]], [TREYS_OF_CODE[c] for c in codes[2:]]
        )
        for codes in hands
    ]
    disagreements = [
        i
        for i in range(0, 2 * pairs, 2)
        if _sign(ours[i] - ours[i + 1]) != _sign(theirs[i + 1] - theirs[i])
    ]
    assert not disagreements, f"{len(disagreements)} of {pairs} pairs disagree"
    _assert_same_order(ours, [-t for t in theirs], f"{size}-card hands vs treys")


def test_five_card_pairs_against_treys():
    _against_treys(5, 100_000, seed=5)


def test_seven_card_pairs_against_treys():
    _against_treys(7, 100_000, seed=7)


def test_six_card_hands_against_treys():
    _against_treys(6, 20_000, seed=6)


@pytest.mark.slow
def test_every_five_card_hand_against_treys():
    evaluator = TreysEvaluator()
    five = evaluator._five  # the 5-card core: evaluate() only adds list concatenation
    treys = [TREYS_OF_CODE[c] for c in CODES]
    ours, theirs = [], []
    for idx in combinations(range(52), 5):
        ours.append(strength_of_codes([CODES[i] for i in idx]))
        theirs.append(-five([treys[i] for i in idx]))
    assert len(set(ours)) == 7462  # the distinct 5-card hand values
    _assert_same_order(ours, theirs, "every 5-card hand vs treys")


@pytest.mark.slow
def test_more_seven_card_pairs_against_treys():
    _against_treys(7, 500_000, seed=77)


# --- a naive reference, written from the rules -------------------------------------------


def _naive_five(cards: Sequence[tuple[int, int]]) -> tuple:
    """(category, tie-break ranks) of five natural (rank, suit) cards; repeats allowed."""
    ranks = sorted((rank for rank, _ in cards), reverse=True)
    counts = Counter(ranks)
    # Ranks ordered by how many, then how high: the tie-break order for every category.
    grouped = sorted(counts, key=lambda r: (counts[r], r), reverse=True)
    shape = sorted(counts.values(), reverse=True)
    flush = len({suit for _, suit in cards}) == 1
    distinct = sorted(counts)
    straight_top = 0
    if len(distinct) == 5 and distinct[4] - distinct[0] == 4:
        straight_top = distinct[4]
    elif distinct == [2, 3, 4, 5, 14]:
        straight_top = 5
    if shape[0] == 5:
        return (9, grouped)
    if straight_top and flush:
        return (8, [straight_top])
    if shape[0] == 4:
        return (7, grouped)
    if shape[:2] == [3, 2]:
        return (6, grouped)
    if flush:
        return (5, ranks)
    if straight_top:
        return (4, [straight_top])
    if shape[0] == 3:
        return (3, grouped)
    if shape[:2] == [2, 2]:
        return (2, grouped)
    if shape[0] == 2:
        return (1, grouped)
    return (0, ranks)


def _naive(cards: Iterable[tuple[int, int]]) -> tuple:
    return max(_naive_five(five) for five in combinations(list(cards), 5))


NATURAL = {card.code: (card.rank, int(card.suit)) for card in DECK}


def test_naive_reference_reads_the_categories():
    for text, category in [
        ("Ac Jd 8h 4s 2c", 0),
        ("5c 4d 3h 2s Ac", 4),
        ("Ah Jh 8h 4h 2h", 5),
        ("5d 4d 3d 2d Ad", 8),
        ("Qc Qd Qh Qs 2c", 7),
        ("Kc Kd Kh 5s 5c", 6),
    ]:
        assert _naive((c.rank, int(c.suit)) for c in parse_cards(text))[0] == category


def test_natural_hands_with_repeated_cards_against_the_naive_reference():
    # Drawn with replacement: the hands two decks deal and wild substitution produces.
    rng = random.Random(11)
    hands = [tuple(rng.choice(CODES) for _ in range(rng.randint(5, 7))) for _ in range(6_000)]
    # Plus hands rich in one suit, where repeats matter most (flushes with a pair).
    for _ in range(3_000):
        suit = rng.randrange(4)
        size = rng.randint(5, 7)
        hands.append(
            tuple(
                rng.choice(CODES[13 * suit : 13 * suit + 13])
                if rng.random() < 0.8
                else rng.choice(CODES)
                for _ in range(size)
            )
        )
    ours = [strength_of_codes(codes) for codes in hands]
    theirs = [_naive(NATURAL[c] for c in codes) for codes in hands]
    for value, judged in zip(ours, theirs, strict=True):
        assert category_of(value) == judged[0]
    _assert_same_order(ours, theirs, "repeated-card hands vs naive")


# --- wild cards against brute force -----------------------------------------------------


def _wild_hands(seed: int, count: int, wild_counts: Sequence[int], sizes=(5, 7)):
    rng = random.Random(seed)
    hands = []
    for _ in range(count):
        wilds = rng.choice(wild_counts)
        size = rng.randint(max(sizes[0], wilds + 1), sizes[1])
        hands.append((tuple(rng.sample(CODES, size - wilds)), wilds))
    return hands


def _brute(
    naturals: tuple[int, ...], wilds: int, judge: Callable[[Sequence[int]], object]
) -> object:
    return max(judge(naturals + subs) for subs in combinations_with_replacement(CODES, wilds))


def test_one_or_two_wilds_against_every_substitution():
    hands = _wild_hands(seed=12, count=10_000, wild_counts=(1, 2))
    for naturals, wilds in hands:
        codes = naturals + (WILD,) * wilds
        expected = _brute(naturals, wilds, strength_of_codes)
        assert strength_of_codes(codes) == expected, (naturals, wilds)


def test_wild_hands_against_the_naive_reference():
    hands = _wild_hands(seed=13, count=150, wild_counts=(1,), sizes=(5, 6))
    hands += _wild_hands(seed=14, count=6, wild_counts=(2,), sizes=(5, 5))
    ours, theirs = [], []
    for naturals, wilds in hands:
        ours.append(strength_of_codes(naturals + (WILD,) * wilds))
        theirs.append(_brute(naturals, wilds, lambda codes: _naive(NATURAL[c] for c in codes)))
    _assert_same_order(ours, theirs, "wild hands vs naive brute force")


def test_three_and_four_wilds_one_wild_at_a_time():
    # A hand with w wilds is worth the best of its 52 one-wild substitutions (w-1 wilds),
    # so by induction from the 1-2 wild check this covers 3 and 4 wilds up to 9 cards.
    for naturals, wilds in _wild_hands(seed=15, count=600, wild_counts=(3, 4), sizes=(5, 9)):
        codes = naturals + (WILD,) * wilds
        rest = (WILD,) * (wilds - 1)
        expected = max(strength_of_codes((*naturals, c, *rest)) for c in CODES)
        assert strength_of_codes(codes) == expected, (naturals, wilds)


def test_three_wilds_against_every_substitution():
    for naturals, wilds in _wild_hands(seed=16, count=30, wild_counts=(3,), sizes=(5, 6)):
        expected = _brute(naturals, wilds, strength_of_codes)
        assert strength_of_codes(naturals + (WILD,) * wilds) == expected


@pytest.mark.slow
def test_more_wild_hands_against_every_substitution():
    for naturals, wilds in _wild_hands(seed=17, count=50_000, wild_counts=(1, 2), sizes=(5, 9)):
        expected = _brute(naturals, wilds, strength_of_codes)
        assert strength_of_codes(naturals + (WILD,) * wilds) == expected


def _royal_rich_hands(seed: int, count: int) -> list[tuple[tuple[int, ...], int]]:
    """Hands built around most of a royal flush, so royals (natural or wild) are common."""
    rng = random.Random(seed)
    hands = []
    for _ in range(count):
        suit = rng.randrange(4)
        royal = [CODES[13 * suit + rank - 2] for rank in range(10, 15)]
        wilds = rng.choice((0, 1, 2))
        kept = rng.sample(royal, rng.randint(3, 5))
        size = rng.randint(max(5, len(kept) + wilds), 7)
        others = [c for c in CODES if c not in kept]
        naturals = kept + rng.sample(others, size - len(kept) - wilds)
        hands.append((tuple(naturals), wilds))
    return hands


def test_natural_royal_option_against_brute_force():
    # Without the option, a wild royal is a royal; with it, it falls strictly between the
    # natural royal and the king-high straight flush, and nothing else changes.
    checked_wild = checked_natural = 0
    for naturals, wilds in _royal_rich_hands(seed=18, count=3_000):
        codes = naturals + (WILD,) * wilds
        plain = _brute(naturals, wilds, strength_of_codes) if wilds else strength_of_codes(codes)
        assert strength_of_codes(codes) == plain
        natural_royal_held = any(
            all(CODES[13 * suit + rank - 2] in naturals for rank in range(10, 15))
            for suit in range(4)
        )
        if plain == ROYAL and natural_royal_held:
            expected = NATURAL_ROYAL_NR
            checked_natural += 1
        elif plain == ROYAL:
            expected = WILD_ROYAL_NR
            checked_wild += 1
        else:
            expected = plain
        assert strength_of_codes(codes, natural_royal=True) == expected, (naturals, wilds)
    assert checked_wild > 100 and checked_natural > 100
    assert KING_HIGH_SF_NR < WILD_ROYAL_NR < NATURAL_ROYAL_NR
    assert category_of(WILD_ROYAL_NR) == Category.STRAIGHT_FLUSH


def test_card_objects_and_codes_agree():
    rng = random.Random(19)
    for _ in range(2_000):
        cards: list[Card] = rng.sample(DECK, rng.randint(5, 9))
        assert strength(cards) == strength_of_codes([card.code for card in cards])
