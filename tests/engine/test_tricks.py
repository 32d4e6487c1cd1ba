"""Trick play: led sets (Poke), follow suit and must-beat (Poängpoker), follow suit alone
(Chicago), who wins, and the reasons shown on disabled card buttons."""

import pytest

from engine.cards import parse_card, parse_cards
from engine.tricks.play import (
    CHICAGO,
    POANGPOKER,
    POKE,
    best_play,
    describe_play,
    is_set,
    legal_plays,
    trick_winner,
    why_illegal,
)


def trick(*plays: tuple[int, str]) -> list[tuple[int, tuple]]:
    return [(seat, tuple(parse_cards(text))) for seat, text in plays]


def legal_texts(hand: str, so_far: list, rules) -> list[str]:
    return [
        " ".join(str(c) for c in play) for play in legal_plays(parse_cards(hand), so_far, rules)
    ]


# --- Poke: singles ------------------------------------------------------------------------


def test_poke_single_higher_card_wins_and_suits_are_irrelevant():
    assert trick_winner(trick((0, "9c"), (1, "Th")), POKE) == 1
    assert trick_winner(trick((0, "9c"), (1, "8c")), POKE) == 0


def test_poke_leader_wins_ties():
    assert trick_winner(trick((1, "Kc"), (0, "Kh")), POKE) == 1


def test_poke_follower_may_play_any_single_card():
    hand = "2c 9h Ks Kd 3s"
    assert legal_texts(hand, trick((0, "Qh")), POKE) == ["2c", "3s", "9h", "Kd", "Ks"]
    assert why_illegal(parse_cards(hand), trick((0, "Qh")), POKE, parse_cards("Kd Ks")) == (
        "A single card was led: play one card."
    )


# --- Poke: sets -------------------------------------------------------------------------------


def test_poke_led_pair_falls_only_to_a_higher_pair():
    led = trick((0, "7c 7d"))
    assert trick_winner([*led, (1, tuple(parse_cards("8h 8s")))], POKE) == 1
    assert trick_winner([*led, (1, tuple(parse_cards("Ah Kh")))], POKE) == 0  # not a pair
    assert trick_winner([*led, (1, tuple(parse_cards("5h 5s")))], POKE) == 0  # lower pair
    assert trick_winner([*led, (1, tuple(parse_cards("7h 7s")))], POKE) == 0  # leader wins ties


def test_poke_led_three_of_a_kind_needs_a_higher_three():
    led = trick((1, "4c 4d 4h"))
    assert trick_winner([*led, (0, tuple(parse_cards("Ah Ad Kc")))], POKE) == 1
    assert trick_winner([*led, (0, tuple(parse_cards("5h 5d 5c")))], POKE) == 0


def test_poke_four_of_a_kind_lead():
    led = trick((0, "9c 9d 9h 9s"))
    assert trick_winner([*led, (1, tuple(parse_cards("Tc Td Th Ts")))], POKE) == 1
    assert trick_winner([*led, (1, tuple(parse_cards("Ac Ad Ah Kc")))], POKE) == 0


def test_poke_follower_plays_as_many_cards_as_were_led():
    hand = parse_cards("Ah 2c 9s Qd")
    led = trick((0, "7c 7d"))
    assert why_illegal(hand, led, POKE, parse_cards("Ah")) == "A pair was led: play 2 cards."
    assert why_illegal(hand, led, POKE, parse_cards("Ah 2c 9s")) == "A pair was led: play 2 cards."
    assert why_illegal(hand, led, POKE, parse_cards("Ah 2c")) is None
    three = trick((0, "7c 7d 7h"))
    assert why_illegal(hand, three, POKE, parse_cards("Ah 2c")) == (
        "Three of a kind was led: play 3 cards."
    )


def test_poke_a_set_may_be_broken_from_a_bigger_set():
    hand = parse_cards("Qc Qd Qh 2s 3s")
    # leading a pair out of three queens
    assert why_illegal(hand, [], POKE, parse_cards("Qc Qh")) is None
    # answering a pair of jacks with two of three queens wins both tricks
    led = trick((1, "Jc Jd"))
    assert why_illegal(hand, led, POKE, parse_cards("Qd Qh")) is None
    assert trick_winner([*led, (0, tuple(parse_cards("Qd Qh")))], POKE) == 0


def test_poke_only_one_rank_may_be_led_together():
    hand = parse_cards("Qc Qd 2s 3s 3h")
    assert why_illegal(hand, [], POKE, parse_cards("Qc 2s")) == (
        "Only cards of one rank can be led together: a pair, three or four of a kind."
    )


def test_poke_legal_leads_list_singles_and_every_set():
    plays = legal_texts("Kh Ks Kd 2c 5h", [], POKE)
    assert plays[:5] == ["2c", "5h", "Kd", "Kh", "Ks"]
    assert set(plays[5:]) == {"Kd Kh", "Kd Ks", "Kh Ks", "Kd Kh Ks"}


def test_poke_legal_answers_to_a_pair_are_every_two_cards():
    assert len(legal_plays(parse_cards("Kh Ks Kd 2c 5h"), trick((0, "9c 9d")), POKE)) == 10


# --- Poängpoker: follow suit and beat -------------------------------------------------------


def test_must_follow_suit():
    hand = parse_cards("3h 2s Ac")
    assert why_illegal(hand, trick((0, "Qh")), CHICAGO, parse_cards("Ac")) == (
        "You must follow suit: play a ♥ (3♥)."
    )
    assert why_illegal(hand, trick((0, "Qh")), CHICAGO, parse_cards("3h")) is None


def test_must_beat_when_able_the_seeds_example():
    # "Holding the nine and king of hearts you play the king."
    hand = parse_cards("9h Kh 2s")
    led = trick((0, "Qh"))
    assert why_illegal(hand, led, POANGPOKER, parse_cards("9h")) == (
        "You must beat the Q♥ when you can: play K♥."
    )
    assert why_illegal(hand, led, POANGPOKER, parse_cards("2s")) == (
        "You must beat the Q♥ when you can: play K♥."
    )
    assert legal_texts("9h Kh 2s", led, POANGPOKER) == ["Kh"]


def test_must_beat_the_best_card_so_far_not_the_led_card():
    so_far = trick((0, "Qh"), (1, "Kh"))
    # J and A: only the ace beats the king
    assert legal_texts("Jh Ah 4c", so_far, POANGPOKER) == ["Ah"]
    # cannot beat the king: any heart ("the nine of hearts on the queen")
    assert legal_texts("9h Th 4c", so_far, POANGPOKER) == ["9h", "Th"]


def test_any_higher_card_of_the_suit_beats_not_only_the_highest():
    assert legal_texts("Kh Ah 4c", trick((0, "Qh")), POANGPOKER) == ["Kh", "Ah"]


def test_without_the_suit_any_card_may_be_played():
    assert legal_texts("2s 4c Ad", trick((0, "Qh")), POANGPOKER) == ["2s", "4c", "Ad"]
    assert legal_texts("2s 4c Ad", trick((0, "Qh")), CHICAGO) == ["2s", "4c", "Ad"]


def test_chicago_has_no_obligation_to_beat():
    assert legal_texts("9h Kh 2s", trick((0, "Qh")), CHICAGO) == ["9h", "Kh"]


def test_highest_card_of_the_led_suit_wins():
    plays = trick((0, "Qh"), (1, "Kh"), (2, "9h"), (3, "Th"))
    assert trick_winner(plays, POANGPOKER) == 1
    assert trick_winner(trick((2, "5d"), (3, "As"), (0, "7d")), CHICAGO) == 0


def test_best_play_so_far():
    assert best_play(trick((0, "Qh"), (1, "Kh")), POANGPOKER) == (1, (parse_card("Kh"),))
    with pytest.raises(ValueError):
        best_play([], POKE)


def test_leading_is_free_in_suit_games():
    assert legal_texts("9h Kh 2s", [], POANGPOKER) == ["2s", "9h", "Kh"]
    assert why_illegal(parse_cards("9h Kh"), [], CHICAGO, parse_cards("9h Kh")) == "Play one card."


def test_cards_not_held_and_repeats():
    hand = parse_cards("9h Kh")
    assert why_illegal(hand, [], POANGPOKER, parse_cards("Ah")) == "You don't hold A♥."
    assert why_illegal(hand, [], POKE, parse_cards("9h 9h")) == "Each card can be played only once."
    assert why_illegal(hand, [], POKE, []) == "Choose a card to play."


def test_describe_and_is_set():
    assert describe_play(parse_cards("Kh Ks")) == "the pair of kings (K♥ K♠)"
    assert describe_play(parse_cards("6h 6s 6c")) == "the three of sixes (6♥ 6♠ 6♣)"
    assert describe_play(parse_cards("Ah 2c")) == "A♥ 2♣"
    assert is_set(parse_cards("Ah Ad")) and not is_set(parse_cards("Ah Kh"))
