"""The high-hand evaluator: every category, kickers, the wheel, wild cards, best-of-N,
the words players read, and the errors a caller can make."""

import math
import random
from itertools import combinations, combinations_with_replacement, permutations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import evaluator as evaluator_module
from engine import evaluator_tables as tables_module
from engine.cards import Card, Suit, joker, parse_card, parse_cards, sppoker_wild, standard_deck
from engine.evaluator import (
    Category,
    HandValue,
    category_of,
    evaluate,
    strength,
    strength_of_codes,
)


def ev(text: str, natural_royal: bool = False) -> HandValue:
    return evaluate(parse_cards(text), natural_royal=natural_royal)


def value(text: str, natural_royal: bool = False) -> int:
    return strength(parse_cards(text), natural_royal=natural_royal)


# Lowest to highest: one hand of each category, with the words players see.
LADDER = [
    ("Ac Jd 8h 4s 2c", Category.HIGH_CARD, "high card ace"),
    ("6c 6d Ah 9s 2c", Category.PAIR, "pair of sixes"),
    ("Ac Ad 8h 8s 2c", Category.TWO_PAIR, "two pair, aces and eights"),
    ("7c 7d 7h Ks 2c", Category.THREE_OF_A_KIND, "three of a kind, sevens"),
    ("5c 4d 3h 2s Ac", Category.STRAIGHT, "straight, five high"),
    ("9c 8d 7h 6s 5c", Category.STRAIGHT, "straight, nine high"),
    ("Ah Jh 8h 4h 2h", Category.FLUSH, "flush, ace high"),
    ("Kc Kd Kh 5s 5c", Category.FULL_HOUSE, "full house, kings over fives"),
    ("Qc Qd Qh Qs 2c", Category.FOUR_OF_A_KIND, "four of a kind, queens"),
    ("5d 4d 3d 2d Ad", Category.STRAIGHT_FLUSH, "straight flush, five high"),
    ("9h 8h 7h 6h 5h", Category.STRAIGHT_FLUSH, "straight flush, nine high"),
    ("As Ks Qs Js Ts", Category.STRAIGHT_FLUSH, "royal flush"),
    ("Qs Jk Jk Qd Qh", Category.FIVE_OF_A_KIND, "five of a kind, queens"),
]


@pytest.mark.parametrize(("text", "category", "description"), LADDER)
def test_each_category_and_its_words(text, category, description):
    hand = ev(text)
    assert hand.category == category == category_of(hand.strength)
    assert hand.description == description
    assert hand.strength == value(text)


def test_the_ladder_climbs():
    strengths = [value(text) for text, _, _ in LADDER]
    assert strengths == sorted(strengths)
    assert len(set(strengths)) == len(strengths)


def test_category_labels_and_order():
    assert Category.STRAIGHT_FLUSH.label == "straight flush"
    assert Category.THREE_OF_A_KIND.label == "three of a kind"
    assert Category.HIGH_CARD.label == "high card"
    assert list(Category) == sorted(Category)
    assert Category.FIVE_OF_A_KIND > Category.STRAIGHT_FLUSH > Category.FOUR_OF_A_KIND


@pytest.mark.parametrize(
    ("better", "worse"),
    [
        ("Ac Jd 8h 4s 3c", "Ah Jc 8d 4h 2c"),  # high card: the fifth card decides
        ("Kc Qd 8h 4s 3c", "Kh Jc 9d 7h 5c"),  # high card: the second card decides
        ("Ac Ad Kh 9s 3c", "Ah As Kd 9c 2c"),  # pair: the last kicker
        ("2c 2d 4h 5s 7c", "Ah Kd Qc Js 9c"),  # any pair beats any high card
        ("Ac Ad 8h 8s Kc", "Ah As 8d 8c Qc"),  # two pair: the kicker
        ("Ac Ad 9h 9s 2c", "Ah As 8d 8c Kc"),  # two pair: the lower pair before the kicker
        ("Kc Kd Kh As 3c", "Ks Kd Kh Qs Jc"),  # trips: kickers
        ("4c 4d 4h 2c 2d", "3c 3d 3h Ac Ad"),  # full house: the trips decide
        ("Ac Kd Qh Js Tc", "Kc Qd Jh Ts 9c"),  # straight: the top card
        ("Ah Jh 8h 4h 3h", "As Js 8s 4s 2s"),  # flush: the last card
        ("6d 5d 4d 3d 2d", "5c 4c 3c 2c Ac"),  # straight flush over the steel wheel
        ("5c 4c 3c 2c Ac", "Ac Ad Ah As Kc"),  # the lowest straight flush beats four aces
        ("2c 2d 2h 2s Jk", "As Ks Qs Js Ts"),  # five of a kind beats a royal flush
    ],
)
def test_kickers_and_tie_breaks(better, worse):
    assert value(better) > value(worse)
    assert ev(better) > ev(worse)


def test_quads_kicker_on_a_shared_board():
    board = "9c 9d 9h 9s 2c"
    assert value(f"{board} 3d Ac") > value(f"{board} 3d Kc") == value(f"{board} Qd Kh")


def test_suits_never_break_ties():
    a, b = ev("Ac Kd Qh Js 9c"), ev("Ad Kc Qs Jh 9d")
    assert a.strength == b.strength
    assert a == b and hash(a) == hash(b)
    assert value("As Ks Qs Js Ts") == value("Ah Kh Qh Jh Th")
    assert value("Ah Jh 8h 4h 2h") == value("Ac Jc 8c 4c 2c")


def test_wheel_is_the_lowest_straight():
    wheel = ev("Ac 2d 3h 4s 5c")
    assert wheel.description == "straight, five high"
    assert [card.rank for card in wheel.cards] == [5, 4, 3, 2, 14]  # the ace shown low
    assert value("Ac 2d 3h 4s 5c") < value("2c 3d 4h 5s 6c")
    assert value("Ac 2d 3h 4s 5c") > value("Ac Ad Ah Kc Qd")
    assert ev("Ac 2d 3h 4s 5c 6d Kh").description == "straight, six high"
    assert ev("Kc Ad 2h 3s 4c").category == Category.HIGH_CARD  # no wrap-around


def test_wheel_straight_flush():
    hand = ev("Ad 2d 3d 4d 5d 9c 9s")
    assert hand.description == "straight flush, five high"
    assert [str(card) for card in hand.cards] == ["5d", "4d", "3d", "2d", "Ad"]
    assert value("Ad 2d 3d 4d 5d") < value("2h 3h 4h 5h 6h")


def test_display_order():
    assert [str(c) for c in ev("5s Kc 5c Kd Kh").cards] == ["Kh", "Kd", "Kc", "5s", "5c"]
    assert [str(c) for c in ev("2c 8s Ad 8h Kc").cards] == ["8s", "8h", "Ad", "Kc", "2c"]
    assert [str(c) for c in ev("3c Ac 8d 3s 8c").cards] == ["8d", "8c", "3s", "3c", "Ac"]


# --- wild cards -------------------------------------------------------------------------


def test_five_of_a_kind_needs_wilds():
    hand = ev("Ac Ad Ah As Jk 2c 3d")
    assert hand.description == "five of a kind, aces"
    assert hand.stands_for[:4] == (None,) * 4
    assert hand.stands_for[4] in {parse_card(t) for t in ("As", "Ah", "Ad", "Ac")}


def test_a_wild_may_duplicate_a_card_held():
    # All four kings are held: the fifth king duplicates one.
    hand = ev("Ks Kh Kd Kc Jk")
    assert hand.description == "five of a kind, kings"
    assert hand.stands_for[4] is not None and hand.stands_for[4].rank == 13
    # In a flush, the wild is best as a second ace of hearts: A-A-K-9-7 beats A-K-Q-9-7.
    hand = ev("Ah Kh 9h 7h Jk 2c")
    assert hand.description == "flush, ace high"
    assert hand.stands_for[1] == parse_card("Ah")
    assert hand.strength > value("Ah Kh Qh 9h 7h")


def test_wild_completes_a_straight_flush():
    hand = ev("9h 8h 6h 5h Jk Kc Kd")
    assert hand.description == "straight flush, nine high"
    assert hand.stands_for == (None, None, parse_card("7h"), None, None)
    # The wild goes on top when it can: T-9-8-7-6, not 9-8-7-6-5.
    hand = ev("9h 8h 7h 6h Jk")
    assert hand.description == "straight flush, ten high"
    assert hand.stands_for[0] == parse_card("Th")


def test_wild_as_kicker():
    # Nothing to pair up with in the flush: the wild is the ace of the suit.
    hand = ev("Kh 9h 7h 4h Jk")
    assert hand.description == "flush, ace high"
    assert [str(c) for c in hand.cards][1:] == ["Kh", "9h", "7h", "4h"]
    assert hand.stands_for[0] == parse_card("Ah")
    # Pairing the wild with the king (trips) loses to the flush it makes.
    assert hand.strength > value("Kh Kc Ks 7d 4c")


def test_wild_makes_the_best_of_several_options():
    assert ev("Ac Ad 7h 7s Jk").description == "full house, aces over sevens"
    assert ev("Ac Kd Qh Js Jk").description == "straight, ace high"
    assert ev("Ac Ad 7h 4s Jk").description == "three of a kind, aces"
    assert ev("Ac Jd 8h 4s Jk").description == "pair of aces"
    assert ev("8c 9d Th Jk Jk").description == "straight, queen high"


def test_four_wilds():
    assert ev("Jk Jk Jk Jk 2c").description == "five of a kind, twos"
    assert ev("Jk Jk Jk Jk Kc 2d 3h 4s 6c").description == "five of a kind, kings"
    vowels = [sppoker_wild(v) for v in "AEIO"]
    hand = evaluate([*vowels, parse_card("Kc")])
    assert hand.description == "five of a kind, kings"
    assert all(s is not None and s.rank == 13 for s in hand.stands_for[1:])
    assert [c.letter for c in hand.cards[1:]] == ["A", "E", "I", "O"]


def test_natural_royal_option_off_a_wild_royal_is_a_royal():
    wild = ev("As Ks Qs Js Jk 2c 3d")
    assert wild.is_royal and wild.description == "royal flush"
    assert wild.stands_for[4] == parse_card("Ts")
    assert wild == ev("As Ks Qs Js Ts")


def test_natural_royal_option_on_a_wild_royal_ranks_below_the_natural_one():
    natural = ev("As Ks Qs Js Ts", natural_royal=True)
    wild = ev("As Ks Qs Js Jk", natural_royal=True)
    king_high = ev("Ks Qs Js Ts 9s", natural_royal=True)
    assert natural.is_royal and natural.description == "royal flush"
    assert not wild.is_royal and wild.description == "straight flush, ace high"
    assert wild.category == Category.STRAIGHT_FLUSH
    assert natural > wild > king_high
    assert ev("Ac Kc Jk Jk Tc", natural_royal=True).description == "straight flush, ace high"
    # A natural royal held alongside a wild is still natural.
    held = ev("As Ks Qs Js Ts Jk 2c", natural_royal=True)
    assert held.is_royal and held == natural
    assert held.stands_for == (None,) * 5
    # Five of a kind still beats it.
    assert ev("Ac Ad Ah Jk Jk", natural_royal=True) > natural
    # Nothing else changes.
    assert ev("9h 8h 6h 5h Jk", natural_royal=True) == ev("9h 8h 6h 5h Jk")


# --- best of N --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "description"),
    [
        ("Ac Jd 8h 4s 2c", "high card ace"),
        ("Kc Kd 5h 5s 5c 9d", "full house, fives over kings"),
        ("Kd Kc 5h 5s 5c 9d 2c", "full house, fives over kings"),
        ("Kd Kc Ks 5s 5c 5d 2c 2d", "full house, kings over fives"),
        ("2c 3d 4h 5s 7c 9d Jh Kc Ac", "straight, five high"),
        ("2h 3h 4h 5h 7h 9h Jh Kh 8c", "flush, king high"),
        ("Ac Ad Kc Kd Qc Qd 2s", "two pair, aces and kings"),
        ("Ac Ad Ah Kc Kd Kh 2s", "full house, aces over kings"),
    ],
)
def test_best_of_n(text, description):
    hand = ev(text)
    assert hand.description == description
    assert len(hand.cards) == 5
    assert hand.strength == max(strength(five) for five in combinations(parse_cards(text), 5))


def test_best_of_n_two_pair_takes_the_best_kicker():
    hand = ev("Ac Ad Kc Kd Qc Qd 2s")
    assert [c.rank for c in hand.cards] == [14, 14, 13, 13, 12]


# --- values and errors ------------------------------------------------------------------


def test_hand_values_order_by_strength_only():
    hands = [ev(text) for text, _, _ in LADDER]
    assert sorted(reversed(hands)) == hands
    assert len({ev("Ac Kd Qh Js 9c"), ev("Ad Kc Qs Jh 9d")}) == 1
    assert ev("Ac Kd Qh Js 9c") != "not a hand"
    with pytest.raises(TypeError):
        _ = ev("Ac Kd Qh Js 9c") < 3


def test_strength_of_codes_is_strength():
    cards = parse_cards("As Ks Qs Js Jk 2c")
    codes = [card.code for card in cards]
    assert strength_of_codes(codes) == strength(cards)
    assert strength_of_codes(tuple(codes), True) == strength(cards, natural_royal=True)


@pytest.mark.parametrize("count", [0, 4, 10])
def test_wrong_number_of_cards(count):
    cards = standard_deck()[:count]
    with pytest.raises(ValueError, match=rf"best five of 5 to 9 cards, not {count}"):
        evaluate(cards)
    with pytest.raises(ValueError, match=rf"best five of 5 to 9 cards, not {count}"):
        strength(cards)


def test_fast_path_rejects_short_hands_too():
    with pytest.raises(ValueError, match="not 4"):
        strength_of_codes([card.code for card in parse_cards("Ac Kd Qh Js")])


def test_too_many_wilds():
    with pytest.raises(ValueError, match="at most 4 wild cards, not 5"):
        evaluate([joker()] * 5 + parse_cards("2c"))
    with pytest.raises(ValueError, match="at most 4 wild cards, not 5"):
        strength([joker()] * 5 + parse_cards("2c"))


def test_not_cards():
    with pytest.raises(TypeError):
        evaluate(["Ac", "Kd", "Qh", "Js", "Tc"])  # type: ignore[list-item]


# --- properties -------------------------------------------------------------------------

DECK = standard_deck()
WILDS = [joker(), sppoker_wild("E")]


@st.composite
def hands(draw: st.DrawFn, sizes: tuple[int, int] = (5, 9), max_wilds: int = 4) -> list[Card]:
    size = draw(st.integers(*sizes))
    wilds = draw(st.integers(0, min(max_wilds, size)))
    naturals = draw(st.permutations(DECK))[: size - wilds]
    return naturals + [draw(st.sampled_from(WILDS)) for _ in range(wilds)]


@settings(max_examples=300, deadline=None)
@given(hands(), st.randoms(use_true_random=False), st.booleans())
def test_order_does_not_matter(cards, rng, natural_royal):
    shuffled = list(cards)
    rng.shuffle(shuffled)
    a, b = evaluate(cards, natural_royal), evaluate(shuffled, natural_royal)
    assert a.strength == b.strength == strength(shuffled, natural_royal)
    assert (a.cards, a.stands_for, a.is_royal) == (b.cards, b.stands_for, b.is_royal)


@settings(max_examples=300, deadline=None)
@given(hands(), st.booleans())
def test_evaluate_agrees_with_strength_and_reads_correctly(cards, natural_royal):
    hand = evaluate(cards, natural_royal)
    assert hand.strength == strength(cards, natural_royal)
    assert hand.category == category_of(hand.strength)
    assert hand.strength == max(strength(five, natural_royal) for five in combinations(cards, 5))
    # The five cards come from the hand.
    pool = list(cards)
    for card in hand.cards:
        pool.remove(card)
    # Each wild stands for a natural card; put in its place, the hand is worth the same.
    assert len(hand.stands_for) == 5
    read = []
    for card, stands in zip(hand.cards, hand.stands_for, strict=True):
        assert (stands is None) == (not card.is_wild)
        assert stands is None or not stands.is_wild
        read.append(card if stands is None else stands)
    assert strength(read) == strength(hand.cards)
    if hand.category in (Category.FLUSH, Category.STRAIGHT_FLUSH):
        assert len({card.suit for card in read}) == 1
    assert hand.is_royal == (hand.description == "royal flush")


@settings(max_examples=200, deadline=None)
@given(hands(sizes=(5, 7), max_wilds=0))
def test_natural_hands_ignore_the_natural_royal_option_below_a_royal(cards):
    plain, natural = evaluate(cards), evaluate(cards, natural_royal=True)
    if not plain.is_royal:
        assert plain.strength == natural.strength
    assert plain.is_royal == natural.is_royal


def test_every_permutation_of_a_wild_hand():
    cards = parse_cards("9h Jk 6h 5h Jk Kc")
    expected = evaluate(cards)
    for order in permutations(cards):
        got = evaluate(order)
        assert (got.strength, got.cards, got.stands_for) == (
            expected.strength,
            expected.cards,
            expected.stands_for,
        )


def test_stands_for_prefers_cards_not_held():
    hand = ev("Qs Qd Jk Jk 3c")
    assert hand.description == "four of a kind, queens"
    assert hand.stands_for == (None, None, Card(12, Suit.HEARTS), Card(12, Suit.CLUBS), None)


# --- the tables: complete, loaded from data/, and checked against the code -------------


def test_the_table_file_is_current():
    """The committed data/evaluator_tables.bin was built by the code as it is now.

    If this fails after an edit to engine/evaluator_tables.py, rebuild the file with
    `python -m engine.evaluator_tables` and commit it with the edit.
    """
    tables_module.load()  # raises TableFileError when stale or corrupt


def test_the_table_file_holds_what_the_rules_give():
    built, _payload = tables_module.build()
    loaded = tables_module.load()
    assert loaded == built


def test_the_tables_hold_every_hand_of_five_to_seven_cards():
    def multisets(n: int) -> int:  # of ranks from one deck: at most four of a rank
        return sum(
            1
            for ranks in combinations_with_replacement(range(13), n)
            if all(ranks.count(rank) <= 4 for rank in set(ranks))
        )

    tables = evaluator_module._TABLES
    every_rank_key = sum(
        multisets(size - wilds) for size in tables_module.TABLE_SIZES for wilds in range(5)
    )
    assert every_rank_key == 111_540
    assert len(tables.rank) == every_rank_key  # one slot each, packed without a gap
    assert None not in tables.rank
    # Every suit that reaches five cards counting the wilds, in 5-7 cards with 0-4 wilds.
    every_suit_key = sum(
        math.comb(13, naturals)
        for wilds in range(5)
        for naturals in range(max(1, 5 - wilds), 8 - wilds)
    )
    assert len(tables.flush) == len(tables.natural_royal_flush) == every_suit_key


def test_hands_of_five_to_seven_cards_never_need_the_rules():
    """The first hand is a lookup like the millionth: nothing is worked out on the way."""
    rng = random.Random(16)
    deck = standard_deck()
    tables = evaluator_module._TABLES

    def worked_out() -> tuple[int, ...]:
        return (
            len(evaluator_module._BEYOND_TABLES),
            len(evaluator_module._RANK_MEMO),
            *map(len, evaluator_module._BEYOND_FLUSH_TABLES),
            len(tables.flush),
            len(tables.natural_royal_flush),
        )

    before = worked_out()
    for _ in range(20_000):
        size = rng.randint(5, 7)
        wilds = rng.randint(0, 4)
        cards = rng.sample(deck, size - wilds) + [joker()] * wilds
        strength_of_codes([card.code for card in cards], natural_royal=rng.random() < 0.5)
    assert worked_out() == before


@pytest.mark.parametrize(
    ("text", "description"),
    [
        ("Ah Ah Ah Ah Ah 2c 3d", "five of a kind, aces"),  # two decks
        ("Ah Ah Kh Qh Jh 2c 3d", "flush, ace high"),  # a flush with a repeated card
        ("Ah Kh Qh Jh Th 2c 3d 4s 5s", "royal flush"),  # nine cards
        ("9c 9d 9h Jk Jk Jk Jk 2c", "five of a kind, nines"),  # eight cards, four wilds
    ],
)
def test_hands_beyond_the_tables_are_worked_out_from_the_rules(text, description):
    cards = parse_cards(text)
    assert ev(text).description == description
    assert strength_of_codes([card.code for card in cards]) == ev(text).strength


@pytest.fixture
def table_file(tmp_path):
    path = tmp_path / "evaluator_tables.bin"
    path.write_bytes(tables_module.TABLE_FILE.read_bytes())
    return path


def test_a_table_file_from_other_code_is_refused(table_file):
    raw = bytearray(table_file.read_bytes())
    raw[len(tables_module._MAGIC)] ^= 1  # the stored hash of the code that built it
    table_file.write_bytes(bytes(raw))
    with pytest.raises(tables_module.TableFileError, match=r"built by other code.*rebuild"):
        tables_module.load(table_file)


def test_a_corrupt_table_file_is_refused(table_file):
    raw = bytearray(table_file.read_bytes())
    raw[-10] ^= 0xFF  # inside the compressed tables
    table_file.write_bytes(bytes(raw))
    with pytest.raises(tables_module.TableFileError, match=r"corrupt.*rebuild"):
        tables_module.load(table_file)


def test_a_truncated_or_foreign_file_is_refused(table_file):
    table_file.write_bytes(table_file.read_bytes()[:-100])
    with pytest.raises(tables_module.TableFileError, match="corrupt"):
        tables_module.load(table_file)
    table_file.write_bytes(b"PK\x03\x04 not tables")
    with pytest.raises(tables_module.TableFileError, match="not an evaluator table file"):
        tables_module.load(table_file)


def test_a_missing_table_file_is_refused(tmp_path):
    with pytest.raises(tables_module.TableFileError, match=r"cannot read.*rebuild"):
        tables_module.load(tmp_path / "nowhere.bin")


def test_a_written_table_file_loads_back(tmp_path):
    path = tmp_path / "tables.bin"
    written = tables_module.write(path)
    assert tables_module.load(path) == written


def test_a_bad_table_file_is_rebuilt_in_memory_with_a_warning(monkeypatch):
    def refuse(path=None):
        raise tables_module.TableFileError("stale for the test")

    monkeypatch.setattr(evaluator_module, "_load_tables", refuse)
    with pytest.warns(UserWarning, match=r"stale for the test.*in memory"):
        tables = evaluator_module._tables()
    assert tables == evaluator_module._TABLES
