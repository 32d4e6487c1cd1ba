"""The word layer: validation reasons, the dictionary's lower-case rule, the finder's order,
the candidate lists made from the installed dictionary (cached per language in the data
directory), and tests on the real enchant dictionary."""

from __future__ import annotations

import copy
import random
import shutil
from collections import Counter

import pytest

from bot import wordlists
from engine.games.sppoker.showdown import sppoker_cards
from engine.words import (
    Dictionary,
    WordFinder,
    WordListDictionary,
    candidate_words,
    get_finder,
    set_word_source,
    usable_words,
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


def test_words_are_compared_after_compatibility_and_case_folding():
    """Issue 23, rule 5: KITE typed with the Kelvin sign (U+212A) for its K is KITE, with the
    hand's K; so are full-width letters; a ligature is its letters."""
    kite = WordListDictionary(["kite", "fit"])
    check = validate_word("\u212aITE", "KITEXQZ", kite)
    assert check.ok and check.word == "KITE" and check.reason == ""
    assert validate_word("ＫＩＴＥ", "KITEXQZ", kite).ok
    assert validate_word("\ufb01t", "FITXQZ", kite).ok  # the fi ligature
    assert validate_word("\u212aITE", "AITEXQZ", kite).reason.startswith(
        "letters not in your hand: K is missing")


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


def test_usable_words_keeps_playable_lower_case_words_the_dictionary_accepts():
    words = ["zebra", "Zebra", "bear", "be", "x", "zebrass", "bearish", "qqq", "ax", "axe"]
    dictionary = WordListDictionary(["zebra", "bear", "be", "x", "bearish", "qqq", "ax"])
    # BEARISH is 7 letters, fine; QQQ needs three Q cards (the deck has one); AXE is refused.
    assert usable_words(words, dictionary) == ["ax", "be", "bear", "bearish", "zebra"]


def test_candidate_words_come_from_the_chosen_source_and_a_new_source_forgets_the_old():
    asked: list[str] = []

    def source(lang: str) -> list[str]:
        asked.append(lang)
        return ["zebra"] if lang == "xx_XX" else ["bear"]

    previous = set_word_source(source)
    try:
        assert candidate_words("xx_XX") == ("zebra",)
        assert candidate_words("xx_XX") == ("zebra",) and asked == ["xx_XX"]  # cached
        set_word_source(lambda lang: ["era"])
        assert candidate_words("xx_XX") == ("era",)
        set_word_source(None)
        with pytest.raises(LookupError, match="no word list for xx_XX"):
            candidate_words("xx_XX")
    finally:
        set_word_source(previous)


def test_word_lists_are_cached_per_language_in_the_data_dir(tmp_path, monkeypatch):
    built: list[str] = []

    def fake_build(lang: str) -> list[str]:
        built.append(lang)
        return [f"{lang[:2].lower()}word"]

    monkeypatch.setattr(wordlists, "build", fake_build)
    assert wordlists.load("en_US", tmp_path) == ["enword"]
    assert wordlists.load("en_US", tmp_path) == ["enword"]
    assert wordlists.load("fr_FR", tmp_path) == ["frword"]
    assert built == ["en_US", "fr_FR"]  # each built once, then read from its file
    assert sorted(p.name for p in (tmp_path / "words").iterdir()) == [
        "words_en_US.txt", "words_fr_FR.txt"]
    # Another dictionary installed (or another way of building): the cache is rebuilt.
    monkeypatch.setattr(wordlists, "FORMAT", "changed")
    assert wordlists.load("en_US", tmp_path) == ["enword"] and built[-1] == "en_US"
    assert len(built) == 3


def test_an_unwritable_data_dir_costs_only_the_cache(tmp_path, monkeypatch):
    monkeypatch.setattr(wordlists, "build", lambda lang: ["zebra"])
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    assert wordlists.load("en_US", blocker) == ["zebra"]


def test_unmunch_expands_affixes_and_leaves_out_nosuggest_stems(tmp_path):
    if shutil.which("unmunch") is None:
        pytest.fail("unmunch is missing: ./dev installs it (Debian package hunspell-tools)")
    aff = tmp_path / "t.aff"
    aff.write_text(
        "SET UTF-8\nNOSUGGEST !\n"
        "PFX U Y 1\nPFX U 0 un .\n\n"
        "SFX S Y 2\nSFX S y ies [^aeiou]y\nSFX S 0 s [^sxzhy]\n"
    )
    dic = tmp_path / "t.dic"
    dic.write_text("4\ntie/US\nspy/S\nParis\nbad/!S\n")
    words = set(wordlists.unmunch(dic, aff))
    assert {"tie", "ties", "untie", "unties", "spy", "spies", "Paris"} <= words
    assert not {"bad", "bads"} & words


def test_the_finder_list_is_the_installed_dictionarys_and_ai_seats_use_it(tmp_path):
    enchant = pytest.importorskip("enchant")
    if not enchant.dict_exists("en_US"):
        pytest.skip("no en_US dictionary on this host")
    from engine.games.sppoker.rules import Sppoker
    from engine.words import EnchantDictionary

    words = wordlists.load("en_US", tmp_path)
    real = EnchantDictionary("en_US")
    assert len(words) > 30_000 and all(real.check(word) for word in words[::37])
    previous = set_word_source(None)
    try:
        wordlists.install(tmp_path)
        finder = get_finder("en_US")
        # Words the old bundled list lacked, which the dictionary accepts.
        assert finder.best_words("SOYPTIO", limit=1) == ["ISOTOPY"]
        assert finder.best_words("LEREZLI", limit=1) == ["RILLE"]
        game = Sppoker(["Ann", "AI 1"], {"ai_seats": [1]}, random.Random(3))
        assert game.finder is finder  # the AI seats choose their words with it
    finally:
        set_word_source(previous)


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
    finder = WordFinder(wordlists.build("en_US"), d)
    assert finder.best_words("SPPOKER", limit=1) == ["POKERS"]


def test_dictionaries_and_finders_are_shared_by_copies_of_a_game() -> None:
    """A command changes a deep copy of its table (`Table.draft`): the read-only word tools
    must come along as they are, or every Sppoker click copies a whole word index."""
    words = WordListDictionary(["kite", "tike"])
    finder = WordFinder(["kite", "tike"], words)
    held = {"finder": finder, "words": words, "hand": ["K", "I"]}
    copied = copy.deepcopy(held)
    assert copied["finder"] is finder and copied["words"] is words
    assert copied["hand"] is not held["hand"]
