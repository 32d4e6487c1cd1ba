"""Badugi: the seed's rulings one by one, order independence, and agreement with pokerkit."""

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.cards import parse_cards, standard_deck
from engine.games.badugi.hand import BadugiHand, badugi_hand, badugi_strength


def strength(text: str) -> int:
    return badugi_strength(parse_cards(text))


def hand(text: str) -> BadugiHand:
    return badugi_hand(parse_cards(text))


def test_the_best_hand_is_a_rainbow_4_3_2_a():
    best = strength("4s 3h 2d Ac")
    deck = standard_deck()
    rng = random.Random(7)
    assert all(badugi_strength(rng.sample(deck, 4)) <= best for _ in range(2000))
    assert hand("Ac 2d 3h 4s").description == "4-card badugi, 4-3-2-A"


def test_aces_are_low():
    assert strength("As 2h 3d 5c") > strength("2s 3h 4d 5c")
    assert strength("Ks Ah") > strength("Ks 2h")


def test_any_badugi_beats_any_three_card_hand():
    assert strength("Kc Qd Jh Ts") > strength("Ac 2d 3h 3s")
    assert hand("Kc Qd Jh Ts").size == 4
    assert hand("Ac 2d 3h 3s").size == 3


def test_any_three_card_hand_beats_any_two_card_hand():
    assert strength("Kc Qd Jh Jc") > strength("Ac 2c 3d 3c")
    assert hand("Ac 2c 3d 3c").size == 2


def test_a_pair_disqualifies_one_card():
    h = hand("5c 5d 2h 3s")
    assert h.size == 3
    assert h.description == "3-card hand, 5-3-2"


def test_a_shared_suit_disqualifies_the_higher_card():
    h = hand("Kc 2d 2h 5h")
    assert h.description == "3-card hand, K-5-2"
    assert hand("Kh 4c 3d 2c").description == "3-card hand, K-3-2"


def test_three_of_one_suit_or_rank_leave_two_cards():
    assert hand("2c 5c 9c Kd").description == "2-card hand, K-2"
    assert hand("7c 7d 7h Ks").description == "2-card hand, K-7"
    assert hand("Ac 2c 3c 4c").description == "1-card hand, A"
    assert hand("Kc Kd Kh Ks").size == 1


def test_the_best_subset_is_chosen_not_the_first():
    # 3c pairs with 3d's rank and 4d shares 3d's suit: 2s 3c 4d plays, not 2s 3d.
    h = hand("2s 3d 3c 4d")
    assert h.description == "3-card hand, 4-3-2"
    assert {str(c) for c in h.cards} == {"2s", "3c", "4d"}


def test_highest_card_decides_then_the_next():
    assert strength("7s 4h 3d Ac") > strength("8s 2h 3d Ac")
    assert strength("7s 4h 3d Ac") > strength("7s 5h 2d Ac")
    assert strength("7s 5h 2d Ac") > strength("7s 5h 3d Ac")
    assert strength("7s 5h 3d Ac") > strength("7s 5h 3d 2c")


def test_suits_never_break_ties():
    assert strength("7s 4h 3d Ac") == strength("7h 4s 3c Ad")
    assert hand("7s 4h 3d Ac") == hand("7h 4s 3c Ad")
    assert hash(hand("7s 4h 3d Ac")) == hash(hand("7h 4s 3c Ad"))


def test_hands_are_totally_ordered():
    hands = [hand(t) for t in ("Kc Kd Kh Ks", "2c 5c 9c Kd", "Kc 2d 2h 5h", "4s 3h 2d Ac")]
    assert hands == sorted(hands)
    assert max(hands).description == "4-card badugi, 4-3-2-A"


def test_cards_are_the_chosen_subset_highest_first():
    h = hand("Ac 9d 2c 5h")
    assert [str(c) for c in h.cards] == ["9d", "5h", "Ac"]
    assert str(h) == "3-card hand, 9-5-A"


def test_a_second_copy_of_a_card_changes_nothing():
    assert strength("Ah Ah 2d 3s") == strength("Ah 2d 3s")


def test_wild_cards_are_refused_with_a_clear_message():
    with pytest.raises(ValueError, match="wild cards are not used in Badugi"):
        badugi_strength(parse_cards("Ah 2d 3s Jk"))
    with pytest.raises(ValueError, match="wild"):
        badugi_hand(parse_cards("Jk 2d"))


def test_the_hand_size_is_checked():
    with pytest.raises(ValueError, match="1 to 4 cards"):
        badugi_strength(parse_cards("Ah 2d 3s 4c 5h"))
    with pytest.raises(ValueError, match="1 to 4 cards"):
        badugi_strength([])


cards_4 = st.lists(st.sampled_from(standard_deck()), min_size=4, max_size=4, unique=True)


@given(cards_4, st.randoms(use_true_random=False))
def test_card_order_does_not_matter(cards, rng):
    shuffled = list(cards)
    rng.shuffle(shuffled)
    assert badugi_strength(cards) == badugi_strength(shuffled)
    assert badugi_hand(cards).description == badugi_hand(shuffled).description


@given(cards_4)
def test_the_shown_cards_are_a_valid_subset_of_the_hand(cards):
    h = badugi_hand(cards)
    assert set(h.cards) <= set(cards)
    assert len({c.rank for c in h.cards}) == len({c.suit for c in h.cards}) == h.size
    assert badugi_strength(list(h.cards)) == h.strength


def _agree_with_pokerkit(deck, pairs: int, seed: int) -> dict[int, int]:
    """Deal `pairs` pairs of 4-card hands from `deck`; compare both ways; count outcomes."""
    from pokerkit import BadugiHand as PokerkitBadugi

    def theirs(cards):
        return PokerkitBadugi.from_game("".join(str(c) for c in cards))

    rng = random.Random(seed)
    outcomes = {-1: 0, 0: 0, 1: 0}
    for _ in range(pairs):
        dealt = rng.sample(deck, 8)
        a, b = dealt[:4], dealt[4:]
        sa, sb = badugi_strength(a), badugi_strength(b)
        ours = (sa > sb) - (sa < sb)
        pa, pb = theirs(a), theirs(b)
        # pokerkit orders its (low) hands by strength too: pa < pb means pb is better.
        expected = (pa > pb) - (pa < pb)
        assert ours == expected, (a, b, str(pa), str(pb))
        assert len(pa.cards) == badugi_hand(a).size
        outcomes[ours] += 1
    return outcomes


def test_agrees_with_pokerkit_on_20000_random_pairs():
    outcomes = _agree_with_pokerkit(standard_deck(), 20_000, seed=20240601)
    assert min(outcomes.values()) >= 20  # wins, losses and ties all exercised


def test_agrees_with_pokerkit_where_ties_and_small_hands_are_common():
    # Ace to five in two suits: every hand is 1 or 2 cards and ties are frequent.
    narrow = [c for c in standard_deck() if c.rank in (14, 2, 3, 4, 5) and c.suit < 2]
    outcomes = _agree_with_pokerkit(narrow, 2_000, seed=49)
    assert min(outcomes.values()) >= 200
