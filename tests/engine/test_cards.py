"""Cards: parsing and printing round-trip, the decks, and shuffles that conserve them."""

import random
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.cards import (
    Card,
    CardError,
    Suit,
    deck_with_jokers,
    label_cards,
    parse_card,
    parse_cards,
    pokeno_deck,
    shuffled,
    sppoker_deck,
    sppoker_letters,
    standard_deck,
)


def test_parse_the_common_forms():
    cards = parse_cards("Ah Td 10c 2s Jk")
    assert cards == [
        Card(14, Suit.HEARTS),
        Card(10, Suit.DIAMONDS),
        Card(10, Suit.CLUBS),
        Card(2, Suit.SPADES),
        Card(None, None),
    ]
    assert cards[-1].is_wild and cards[-1].is_joker


def test_parse_symbols_and_case():
    assert parse_card("q♠") == parse_card("QS") == Card(12, Suit.SPADES)
    assert parse_cards("a♥, 10♦") == parse_cards(["Ah", "Td"])


@pytest.mark.parametrize(
    ("text", "reason"),
    [("Ax", "suit"), ("1h", "rank"), ("Zc", "rank"), ("A", "rank and a suit"), ("Jk:A", "joker")],
)
def test_parse_errors_say_what_is_wrong(text, reason):
    with pytest.raises(CardError, match=reason):
        parse_card(text)


def test_labels_use_suit_symbols():
    assert label_cards(parse_cards("Ah Td 2c Jk *E 7h:K")) == "A♥ 10♦ 2♣ 🃏 ★E 7♥K"


def test_every_card_round_trips_through_text():
    for card in standard_deck() + sppoker_deck() + [Card(None, None)]:
        assert parse_card(str(card)) == card


def test_deck_sizes():
    assert len(set(standard_deck())) == 52
    assert len(deck_with_jokers(2)) == 54
    deck = pokeno_deck()
    assert len(deck) == 108
    assert sum(card.is_joker for card in deck) == 4
    assert Counter(deck)[parse_card("Ah")] == 2


def test_sppoker_deck_follows_the_letter_table():
    deck = sppoker_deck()
    assert len(deck) == len(set(deck)) == 56
    letters = sppoker_letters()
    assert letters[(2, Suit.CLUBS)] == "A"
    assert letters[(8, Suit.DIAMONDS)] == "Z"
    assert letters[(14, Suit.SPADES)] == "C"
    wilds = [card for card in deck if card.is_wild]
    assert sorted(card.letter for card in wilds) == ["A", "E", "I", "O"]
    assert all(card.letter for card in deck)


def test_codes_sum_to_histogram():
    hand = parse_cards("Ah Ad 2c")
    total = sum(card.code for card in hand)
    assert (total >> (3 * 12)) & 7 == 2  # two aces
    assert total & 7 == 1  # one deuce


@given(st.integers(min_value=0, max_value=2**32))
def test_shuffle_conserves_the_deck(seed):
    deck = sppoker_deck()
    mixed = shuffled(deck, random.Random(seed))
    assert Counter(mixed) == Counter(deck)
    assert shuffled(deck, random.Random(seed)) == mixed  # same seed, same order
