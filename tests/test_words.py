"""The word layer: validation reasons, the dictionary's lower-case rule, the finder's order,
the hunspell expansion behind the bundled candidate list, and one test on real enchant."""

from __future__ import annotations

from collections import Counter

import pytest

from engine.cards import sppoker_deck
from engine.games.sppoker import sppoker_cards
from engine.words import (
    MAX_WORD,
    Dictionary,
    WordFinder,
    WordListDictionary,
    candidate_words,
    expand_hunspell,
    validate_word,
    word_rank,
)

WORDS = WordListDictionary(["zebra", "zebras", "bear", "bare", "era", "be", "wall", "best", "ax"])


def test_word_list_dictionary_rejects_capitalised_entries_and_answers_for_lower_case():
    d = WordListDictionary(["zebra", "Paris", "NASA"])
    assert isinstance(d, Dictionary)
    assert d.check("zebra") and d.check("ZEBRA") and d.check("Zebra")
    assert not d.check("paris") and not d.check("Paris") and not d.check("nasa")


def test_valid_word_normalised_case_and_spaces_ignored():
    check = validate_word("  ZeBrA ", "ZEBRAXQ", WORDS)
    assert check.ok and check.word == "ZEBRA" and check.reason == ""


def test_each_card_letter_at_most_once():
    assert validate_word("bee", "BEXQ", WordListDictionary(["bee"])).reason == (
        "letters not in your hand: 1 more E (you hold 1) (your letters: BEXQ)"
    )
    assert validate_word("bee", "BEEXQ", WordListDictionary(["bee"])).ok


def test_missing_letters_say_which_and_how_many():
    reason = validate_word("zzebrass", "ZEBRA", WORDS).reason
    assert reason.startswith("letters not in your hand:")
    assert "1 more Z (you hold 1)" in reason and "2 × S are missing" in reason
    assert "S is missing" in validate_word("zebras", "ZEBRA", WORDS).reason


@pytest.mark.parametrize(
    ("word", "reason"),
    [
        ("", "no word given"),
        ("   ", "no word given"),
        (None, "no word given"),
        ("z", "too short: a word needs at least 2 letters"),
        ("ze bra", "not a word: a space is not a letter"),
        ("ze-bra", "not a word: '-' is not a letter"),
        ("zeb'ra", "not a word: \"'\" is not a letter"),
        ("zebra1", "not a word: '1' is not a letter"),
        ("rzabe", "not in the dictionary: RZABE"),
    ],
)
def test_invalid_reasons(word, reason):
    check = validate_word(word, "ZEBRAXQ", WORDS)
    assert not check.ok
    assert check.reason.startswith(reason)


def test_validate_accepts_cards_and_counts_vowel_cards_as_their_vowel():
    cards = sppoker_cards("8d 2d 9c 6s *A")  # Z E B R and the A card
    assert validate_word("zebra", cards, WORDS).ok
    assert not validate_word("zebras", cards, WORDS).ok


def test_word_rank_longer_then_later_first_letter():
    assert word_rank("WALL") > word_rank("BEST")
    assert word_rank("ZEBRA") < word_rank("ABACUS")
    assert word_rank("BEAR") == word_rank("BARE")


def test_finder_longest_first_then_latest_first_letter():
    finder = WordFinder(["zebra", "bear", "bare", "era", "be", "ax", "wall"], WORDS)
    assert finder.best_words("ZEBRAXQ", limit=6) == ["ZEBRA", "BARE", "BEAR", "ERA", "BE", "AX"]
    assert finder.best_words("ZEBRAXQ", limit=2) == ["ZEBRA", "BARE"]
    assert finder.best_word("ZEBRAXQ") == "ZEBRA"
    assert finder.best_words(Counter("BEAR")) == ["BARE", "BEAR", "ERA", "BE"]
    assert finder.best_words("QQQ") == [] and finder.best_word("QQQ") is None


def test_finder_confirms_every_candidate_with_the_dictionary():
    finder = WordFinder(["zebra", "rabez", "bear"], WORDS)  # RABEZ is not a word
    assert finder.best_words("ZEBRAS") == ["ZEBRA", "BEAR"]


def test_expand_hunspell_applies_affixes_and_skips_names_and_nosuggest(tmp_path):
    aff = tmp_path / "t.aff"
    aff.write_text(
        "SET UTF-8\n"
        "PFX U Y 1\nPFX U 0 un .\n\n"
        "SFX S Y 2\nSFX S y ies [^aeiou]y\nSFX S 0 s [^sxzhy]\n\n"
        "SFX D N 1\nSFX D 0 ed [^ey]\n"
    )
    dic = tmp_path / "t.dic"
    dic.write_text("5\ntie/US\nspy/S\nlock/DU\nParis\nbad/!S\n")
    words = expand_hunspell(dic, aff)
    assert {"tie", "ties", "untie", "unties", "spy", "spies", "lock", "locked"} <= words
    assert "unlock" in words and "unlocked" not in words  # D does not cross with prefixes
    assert "paris" not in words and "Paris" not in words
    assert not {"bad", "bads"} & words


def test_bundled_candidates_are_playable_words():
    words = candidate_words("en_US")
    assert len(words) > 10_000
    deck = Counter(card.letter for card in sppoker_deck())
    for word in words[::97]:
        assert word == word.lower() and word.isalpha() and 2 <= len(word) <= MAX_WORD
        assert all(deck[k.upper()] >= n for k, n in Counter(word).items())


def test_real_enchant_dictionary_rejects_names_and_abbreviations():
    enchant = pytest.importorskip("enchant")
    if not enchant.dict_exists("en_US"):
        pytest.skip("no en_US dictionary on this host")
    from engine.words import EnchantDictionary, WordFinder, available_languages

    d = EnchantDictionary("en_US")
    assert "en_US" in available_languages()
    assert d.check("zebra") and d.check("Zebra") and d.check("ZEBRA")
    assert not d.check("paris") and not d.check("Paris")  # a proper name
    assert not d.check("nasa") and not d.check("NASA")  # an abbreviation
    assert not d.check("zebra-like") and not d.check("qxz")
    assert validate_word("Zebras", "ZEBRASQ", d).ok
    assert validate_word("paris", "PARISQ", d).reason == "not in the dictionary: PARIS"
    finder = WordFinder(candidate_words("en_US"), d)
    assert finder.best_words("SPPOKER", limit=1) == ["POKERS"]
