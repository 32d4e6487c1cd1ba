"""Point totals: each game's card values, the edges of ace and face choices, and order."""

from itertools import combinations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.cards import Suit, parse_card, parse_cards, standard_deck
from engine.chips.points import (
    OLD_MAN_49ER,
    SPEW,
    ZERO_TO_55,
    ZERO_TO_55_TARGET,
    PointScheme,
    best_high,
    best_low,
    exposed_total_for_betting,
    is_49,
    reaches,
    totals,
)


def t(text: str, scheme: PointScheme) -> list[int]:
    return sorted(totals(parse_cards(text), scheme))


# --- card values --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("card", "spew", "old_man", "zero_55"),
    [
        ("2c", (2,), (2,), (2,)),
        ("9d", (9,), (9,), (9,)),
        ("Th", (10,), (10,), (10,)),
        ("Js", (10,), (0,), (0, 10)),
        ("Qc", (10,), (0,), (0, 10)),
        ("Kd", (10,), (0,), (0, 10)),
        ("Ah", (1, 11), (1, 11), (1, 11)),
        ("Ac", (1, 11), (1, 11), (1, 11)),
        ("Ad", (1, 11), (1, 11), (1, 11)),
        ("As", (1, 11), (1, 11), (1, 12)),
    ],
)
def test_card_values(card, spew, old_man, zero_55):
    c = parse_card(card)
    assert SPEW.values(c) == spew
    assert OLD_MAN_49ER.values(c) == old_man
    assert ZERO_TO_55.values(c) == zero_55


def test_wild_cards_are_refused():
    with pytest.raises(ValueError, match="wild cards have no value in Spew"):
        totals(parse_cards("Ah Jk"), SPEW)


def test_schemes_are_hashable_values():
    assert hash(ZERO_TO_55) == hash(PointScheme.build(
        "Zero to 55",
        {14: (11, 1), 11: (0, 10), 12: (0, 10), 13: (10, 0)},
        {(14, Suit.SPADES): (12, 1)},
    ))


# --- Spew ---------------------------------------------------------------------------


def test_spew_faces_are_ten_and_aces_choose():
    assert t("Kc Qd Js", SPEW) == [30]
    assert t("Ah 5c", SPEW) == [6, 16]
    assert best_high(parse_cards("Ah 5c"), SPEW) == 16
    assert best_low(parse_cards("Ah 5c"), SPEW) == 6


def test_spew_several_aces_each_choose_independently():
    assert t("Ah Ac", SPEW) == [2, 12, 22]
    assert t("Ah Ac Ad As", SPEW) == [4, 14, 24, 34, 44]


def test_spew_the_empty_hand_totals_zero():
    assert totals([], SPEW) == frozenset({0})
    assert best_low([], SPEW) == 0 == best_high([], SPEW)


# --- Old Man 49er ---------------------------------------------------------------------


def test_old_man_faces_are_worth_nothing():
    assert t("Kc Qd Js 2h", OLD_MAN_49ER) == [2]


def test_old_man_exactly_49_with_an_elected_ace():
    assert is_49(parse_cards("Ah 9c 9d Ts Th"))  # 11 + 38
    assert is_49(parse_cards("Ah Ad Tc 9c 8d"))  # one ace 11, the other 1: 11 + 1 + 27
    assert not is_49(parse_cards("Ah 9c 9d Ts 9h"))  # 37 or 47
    assert not is_49(parse_cards("Ah 9c Ts Th"))  # four cards: 49 needs a five-card hand
    assert reaches(parse_cards("Ah 9c Ts Th Kd"), OLD_MAN_49ER, 40)


def test_old_man_high_passes_49_and_low_is_the_lowest():
    cards = parse_cards("Ah Ac Ad As Tc")
    assert best_high(cards, OLD_MAN_49ER) == 54
    assert best_low(cards, OLD_MAN_49ER) == 14
    assert not is_49(cards)  # 14, 24, 34, 44 or 54


def test_old_man_betting_order_counts_aces_as_eleven():
    exposed = parse_cards("Ah Kd 7c")
    assert exposed_total_for_betting(exposed, OLD_MAN_49ER) == 18
    assert exposed_total_for_betting([], OLD_MAN_49ER) == 0


# --- Zero to 55 ---------------------------------------------------------------------


def test_zero_to_55_the_seeds_best_hands():
    four_aces_and_a_face = parse_cards("As Ah Ad Ac Kc")
    assert best_high(four_aces_and_a_face, ZERO_TO_55, ZERO_TO_55_TARGET) == 55
    assert best_low(four_aces_and_a_face, ZERO_TO_55) == 4
    all_faces = parse_cards("Kc Qd Jh Ks Qs")
    assert best_low(all_faces, ZERO_TO_55) == 0
    assert best_high(all_faces, ZERO_TO_55, ZERO_TO_55_TARGET) == 50


def test_zero_to_55_the_seeds_worked_examples():
    # "revealed 4 face cards (for 0 or 40) and the last card is a 10 ... high, 50"
    assert best_high(parse_cards("Kc Qd Jh Js Td"), ZERO_TO_55, ZERO_TO_55_TARGET) == 50
    # "2 face cards and 2 aces (for 2 or 42) and the last card is a 3 ... low, 5"
    assert best_low(parse_cards("Kc Qd Ah Ac 3d"), ZERO_TO_55) == 5


def test_zero_to_55_ace_of_spades_is_twelve_high_and_one_low():
    assert t("As", ZERO_TO_55) == [1, 12]
    assert t("Ah", ZERO_TO_55) == [1, 11]
    assert t("As Ah", ZERO_TO_55) == [2, 12, 13, 23]


def test_zero_to_55_faces_choose_zero_for_low_and_ten_for_high():
    cards = parse_cards("Kc 5d Jh")
    assert t("Kc 5d Jh", ZERO_TO_55) == [5, 15, 25]
    assert best_low(cards, ZERO_TO_55) == 5
    assert best_high(cards, ZERO_TO_55, ZERO_TO_55_TARGET) == 25


def test_zero_to_55_no_hand_passes_55():
    deck = standard_deck()
    top_values = sorted((max(ZERO_TO_55.values(c)) for c in deck), reverse=True)
    assert sum(top_values[:5]) == 55
    # hence closest to 55 is always the highest total
    for cards in combinations(deck[::7], 5):
        assert best_high(cards, ZERO_TO_55, 55) == best_high(cards, ZERO_TO_55)


def test_zero_to_55_betting_total_takes_every_card_high():
    assert exposed_total_for_betting(parse_cards("As Kd"), ZERO_TO_55) == 22


# --- targets ------------------------------------------------------------------------


def test_closest_to_target_prefers_the_near_side_on_equal_distance():
    cards = parse_cards("Ah Ac")  # 2, 12, 22
    assert best_high(cards, SPEW, target=17) == 12
    assert best_high(cards, SPEW, target=20) == 22
    assert best_low(cards, SPEW, target=17) == 22
    assert best_low(cards, SPEW, target=7) == 12
    assert best_low(cards, SPEW, target=6) == 2
    assert best_low(cards, SPEW) == 2


# --- properties ---------------------------------------------------------------------

hands = st.lists(st.sampled_from(standard_deck()), min_size=0, max_size=6, unique=True)
schemes = st.sampled_from([SPEW, OLD_MAN_49ER, ZERO_TO_55])


@given(hands, schemes, st.randoms(use_true_random=False))
def test_totals_do_not_depend_on_order(cards, scheme, rng):
    shuffled = list(cards)
    rng.shuffle(shuffled)
    assert totals(cards, scheme) == totals(shuffled, scheme)
    assert best_high(cards, scheme) == best_high(shuffled, scheme)
    assert best_low(cards, scheme) == best_low(shuffled, scheme)


@given(hands, schemes)
def test_low_never_exceeds_high(cards, scheme):
    assert best_low(cards, scheme) <= best_high(cards, scheme)
    assert best_low(cards, scheme) <= best_high(cards, scheme, ZERO_TO_55_TARGET)
    assert best_high(cards, scheme) == exposed_total_for_betting(cards, scheme)
    reach = totals(cards, scheme)
    assert min(reach) == best_low(cards, scheme) and max(reach) == best_high(cards, scheme)


@given(hands, schemes)
def test_totals_are_sums_of_one_value_per_card(cards, scheme):
    lowest = sum(min(scheme.values(c)) for c in cards)
    highest = sum(max(scheme.values(c)) for c in cards)
    assert min(totals(cards, scheme)) == lowest
    assert max(totals(cards, scheme)) == highest
