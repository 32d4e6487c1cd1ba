"""Words for Sppoker's spelling hand: the dictionary, "is this word made of these cards",
and the longest-word finder used by AI players and by the showdown's "longest possible".

The dictionary answers for the *lower-case* form only: hunspell accepts "Paris" and "NASA"
but not "paris" or "nasa", which is exactly the ruling "no proper names, no abbreviations".
Tests inject a `WordListDictionary`, so the rules can be tested without libenchant.

>>> words = WordListDictionary(["zebra", "bear", "bar", "era", "be"])
>>> validate_word(" Zebra ", "ZEBRAXQ", words)
WordCheck(ok=True, word='ZEBRA', reason='')
>>> validate_word("zebras", "ZEBRAXQ", words).reason
'letters not in your hand: S is missing (your letters: ZEBRAXQ)'
>>> WordFinder(["zebra", "bear", "bar", "era", "be", "ax"], words).best_words("ZEBRAXQ")
['ZEBRA', 'BEAR', 'ERA', 'BAR', 'BE']

Ties between equally long words go to the word whose first letter is later in the alphabet
(WALL beats BEST), which is why ERA comes before BAR above.
"""

from __future__ import annotations

import functools
import re
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from itertools import combinations
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

__all__ = [
    "MAX_WORD",
    "MIN_WORD",
    "Dictionary",
    "EnchantDictionary",
    "WordCheck",
    "WordFinder",
    "WordListDictionary",
    "available_languages",
    "candidate_words",
    "expand_hunspell",
    "get_dictionary",
    "get_finder",
    "hand_letters",
    "validate_word",
    "word_rank",
]

DATA_DIR = Path(__file__).resolve().parent.parent / "data"
HUNSPELL_DIRS = (Path("/usr/share/hunspell"), Path("/usr/share/myspell/dicts"))
MIN_WORD = 2
MAX_WORD = 7
"""A Sppoker hand holds 7 cards, so no playable word is longer."""


@runtime_checkable
class Dictionary(Protocol):
    """Whatever decides that a word is a word. `check` gets a word in any case and answers
    for its lower-case form, so that proper names and abbreviations fail."""

    def check(self, word: str) -> bool: ...


class WordListDictionary:
    """A fixed list of words: tests and simulations need a dictionary that is small, exact
    and fast, and that does not depend on which hunspell files the machine has.

    >>> d = WordListDictionary(["zebra", "Paris"])
    >>> d.check("ZEBRA"), d.check("zebra"), d.check("paris")
    (True, True, False)
    """

    def __init__(self, words: Iterable[str]) -> None:
        # A capitalised entry is a proper name: it never makes its lower-case form valid.
        self._words = frozenset(w.strip() for w in words if w.strip() == w.strip().lower())

    def check(self, word: str) -> bool:
        return word.lower() in self._words

    def __len__(self) -> int:
        return len(self._words)


class EnchantDictionary:
    """The table's real dictionary (pyenchant over hunspell). Answers are cached because
    the finder and the AI ask about the same words again and again."""

    def __init__(self, lang: str = "en_US") -> None:
        import enchant  # late: the rest of the engine must work on a host without libenchant

        self.lang = lang
        self._dict = enchant.Dict(lang)
        self._cache: dict[str, bool] = {}

    def check(self, word: str) -> bool:
        lower = word.lower()
        known = self._cache.get(lower)
        if known is None:
            known = bool(lower) and lower.isalpha() and self._dict.check(lower)
            if len(self._cache) > 200_000:
                self._cache.clear()
            self._cache[lower] = known
        return known


def available_languages() -> list[str]:
    """The dictionary languages this host can offer a table (empty without libenchant)."""
    try:
        import enchant
    except ImportError:  # pragma: no cover - depends on the host
        return []
    return sorted(enchant.list_languages())


@functools.cache
def get_dictionary(lang: str = "en_US") -> Dictionary:
    """One shared dictionary per language: opening an enchant dictionary is not free."""
    return EnchantDictionary(lang)


# --- checking a declared word ---------------------------------------------------------


@dataclass(frozen=True)
class WordCheck:
    """The verdict on a typed word. `word` is the normalised (upper-case) text even when
    invalid, so the showdown can quote it; `reason` is empty when the word is valid."""

    ok: bool
    word: str
    reason: str


def hand_letters(cards: Iterable[Any]) -> str:
    """The letters of a Sppoker hand, in hand order (each card has one).

    Accepts cards (anything with `.letter`) or a string of letters.
    """
    if isinstance(cards, str):
        return cards.upper()
    return "".join((card.letter or "") for card in cards).upper()


def validate_word(
    word: str | None, cards: Iterable[Any] | str, dictionary: Dictionary
) -> WordCheck:
    """Judge a declared word against a hand, per RULINGS: letters only, at least 2 of them,
    each card's letter used at most once, and accepted by the dictionary in lower case.

    The reasons are shown to the player as they are, so they say what to fix.

    >>> d = WordListDictionary(["bee", "be"])
    >>> validate_word("b", "BEEXQ", d).reason
    'too short: a word needs at least 2 letters'
    >>> validate_word("b-e", "BEEXQ", d).reason
    "not a word: '-' is not a letter (letters only: no spaces, hyphens or apostrophes)"
    >>> validate_word("beee", "BEEXQ", d).reason
    'letters not in your hand: 1 more E (you hold 2) (your letters: BEEXQ)'
    >>> validate_word("xq", "BEEXQ", d).reason
    'not in the dictionary: XQ'
    """
    text = (word or "").strip()
    upper = text.upper()
    if not text:
        return WordCheck(False, "", "no word given")
    bad = next((ch for ch in text if not ch.isalpha()), None)
    if bad is not None:
        shown = "a space" if bad.isspace() else repr(bad)
        return WordCheck(
            False,
            upper,
            f"not a word: {shown} is not a letter "
            "(letters only: no spaces, hyphens or apostrophes)",
        )
    if len(text) < MIN_WORD:
        return WordCheck(False, upper, f"too short: a word needs at least {MIN_WORD} letters")
    letters = hand_letters(cards)
    have = Counter(letters)
    need = Counter(upper)
    missing = []
    for letter in sorted(need, key=upper.index):
        lack = need[letter] - have[letter]
        if lack <= 0:
            continue
        if have[letter]:
            missing.append(f"{lack} more {letter} (you hold {have[letter]})")
        elif lack == 1:
            missing.append(f"{letter} is missing")
        else:
            missing.append(f"{lack} × {letter} are missing")
    if missing:
        return WordCheck(
            False,
            upper,
            f"letters not in your hand: {', '.join(missing)} (your letters: {letters})",
        )
    if not dictionary.check(text.lower()):
        return WordCheck(False, upper, f"not in the dictionary: {upper}")
    return WordCheck(True, upper, "")


def word_rank(word: str) -> tuple[int, int]:
    """How a valid word compares in Sppoker: longer wins; then the first letter later in
    the alphabet wins; equal keys tie.

    >>> word_rank("WALL") > word_rank("BEST")
    True
    >>> word_rank("WALL") == word_rank("WEST")
    True
    """
    return (len(word), ord(word[0].upper()))


# --- the longest-word finder ----------------------------------------------------------


def _signature(word: str) -> tuple[str, ...]:
    # A tuple, because itertools.combinations of a sorted pool yields exactly these.
    return tuple(sorted(word))


class WordFinder:
    """The longest words a set of letters can make, from a candidate list.

    Candidates are indexed by their sorted letters, so a query only looks up every
    sub-multiset of the hand (at most 120 for 7 letters) instead of scanning the list.
    Each hit is confirmed with the table's dictionary (cached), so the finder never
    suggests a word the table would refuse.
    """

    def __init__(self, candidates: Iterable[str], dictionary: Dictionary) -> None:
        self.dictionary = dictionary
        index: dict[tuple[str, ...], list[str]] = {}
        for raw in candidates:
            word = raw.strip().upper()
            if len(word) >= MIN_WORD and word.isalpha():
                index.setdefault(_signature(word), []).append(word)
        for words in index.values():
            words.sort(key=lambda w: (-ord(w[0]), w))
            # Dedup while keeping the order.
            words[:] = list(dict.fromkeys(words))
        self._index = index
        self._confirmed: dict[str, bool] = {}
        self._best_cache: dict[str, str | None] = {}
        # Per signature, the first letter (as ord) of its best valid word; -1: not yet
        # confirmed, 0: no valid word. Lets `best_rank` skip building word lists.
        self._rank: dict[tuple[str, ...], int] = dict.fromkeys(index, -1)
        self.max_length = max((len(sig) for sig in index), default=0)

    def __len__(self) -> int:
        return sum(len(words) for words in self._index.values())

    def _ok(self, word: str) -> bool:
        known = self._confirmed.get(word)
        if known is None:
            known = self._confirmed[word] = self.dictionary.check(word.lower())
        return known

    def _by_length(self, letters: str | Mapping[str, int]) -> Iterator[list[str]]:
        """Valid words per length, longest first; each list in tie-break order."""
        if not isinstance(letters, str):
            letters = "".join(k * n for k, n in letters.items())
        pool = sorted(letters.upper())
        get = self._index.get
        ok = self._ok
        for size in range(min(len(pool), self.max_length), MIN_WORD - 1, -1):
            found: list[str] = []
            # A repeated letter repeats some combinations; dict.fromkeys drops the copies.
            for combo in combinations(pool, size):
                words = get(combo)
                if words:
                    found.extend(w for w in words if ok(w))
            if found:
                found = list(dict.fromkeys(found))
                found.sort(key=lambda w: (-ord(w[0]), w))
                yield found

    def best_rank(self, letters: str) -> tuple[int, int]:
        """The spelling key (length, first letter) of the best word `letters` make, or
        (0, 0) for none: the fast path for simulations that only compare words.

        >>> from engine.words import WordListDictionary
        >>> WordFinder(["zebra", "bear"], WordListDictionary(["zebra", "bear"])).best_rank(
        ...     "ZEBRAQ")
        (5, 90)
        """
        pool = sorted(letters.upper())
        rank = self._rank
        get = rank.get
        for size in range(min(len(pool), self.max_length), MIN_WORD - 1, -1):
            top = 0
            for combo in combinations(pool, size):
                value = get(combo)
                if value is None:
                    continue
                if value < 0:
                    valid = [w for w in self._index[combo] if self._ok(w)]
                    value = rank[combo] = max((ord(w[0]) for w in valid), default=0)
                if value > top:
                    top = value
            if top:
                return (size, top)
        return (0, 0)

    def best_words(self, letters: str | Mapping[str, int], limit: int = 5) -> list[str]:
        """Up to `limit` words, best first (longest, then first letter latest)."""
        result: list[str] = []
        for group in self._by_length(letters):
            result.extend(group[: limit - len(result)])
            if len(result) >= limit:
                break
        return result

    def best_word(self, letters: str | Mapping[str, int]) -> str | None:
        """The single best word, or None when the letters make no word. Cached by the
        letters, because simulations ask about the same hands' letters again and again."""
        if not isinstance(letters, str):
            letters = "".join(k * n for k, n in letters.items())
        key = "".join(sorted(letters.upper()))
        try:
            return self._best_cache[key]
        except KeyError:
            pass
        best = next((group[0] for group in self._by_length(key)), None)
        if len(self._best_cache) >= 200_000:
            self._best_cache.clear()
        self._best_cache[key] = best
        return best


# --- candidate lists ------------------------------------------------------------------


def _affix_rules(aff_path: Path) -> dict[str, tuple[str, bool, list[tuple[str, str, Any]]]]:
    """PFX/SFX rules of a hunspell .aff file: flag -> (kind, cross product, rules)."""
    rules: dict[str, tuple[str, bool, list[tuple[str, str, Any]]]] = {}
    for line in aff_path.read_text(encoding="utf-8", errors="replace").splitlines():
        parts = line.split()
        if len(parts) < 4 or parts[0] not in ("PFX", "SFX"):
            continue
        kind, flag = parts[0], parts[1]
        if flag not in rules:
            rules[flag] = (kind, parts[2] == "Y", [])
            continue
        strip = "" if parts[2] == "0" else parts[2]
        add = parts[3].split("/")[0]
        add = "" if add == "0" else add
        cond = parts[4] if len(parts) > 4 else "."
        pattern = re.compile(f"{cond}$" if kind == "SFX" else f"^{cond}")
        rules[flag][2].append((strip, add, pattern))
    return rules


def expand_hunspell(
    dic_path: Path | str,
    aff_path: Path | str | None = None,
    *,
    min_len: int = MIN_WORD,
    max_len: int = MAX_WORD,
    skip_flags: str = "!",
) -> set[str]:
    """The lower-case, purely alphabetic words of a hunspell dictionary, affixes applied
    (one suffix and one prefix, as hunspell's own single-level rules allow).

    Stems flagged `skip_flags` (hunspell's NOSUGGEST "!": slurs and profanity) are left
    out: a player may still declare them, but the bot never suggests them.
    """
    dic_path = Path(dic_path)
    aff = Path(aff_path) if aff_path else dic_path.with_suffix(".aff")
    rules = _affix_rules(aff) if aff.exists() else {}
    words: set[str] = set()
    lines = dic_path.read_text(encoding="utf-8", errors="replace").splitlines()
    for line in lines[1:]:
        stem, _, flags = line.strip().partition("/")
        flags = flags.split()[0] if flags.split() else ""
        if not stem or any(f in flags for f in skip_flags):
            continue
        suffixed: list[tuple[str, bool]] = [(stem, True)]
        prefixes: list[tuple[str, str, bool]] = []
        for flag in flags:
            rule = rules.get(flag)
            if rule is None:
                continue
            kind, cross, entries = rule
            for strip, add, pattern in entries:
                if not pattern.search(stem):
                    continue
                if kind == "SFX" and stem.endswith(strip):
                    suffixed.append((stem[: len(stem) - len(strip)] + add, cross))
                elif kind == "PFX" and stem.startswith(strip):
                    prefixes.append((add, strip, cross))
        forms = [form for form, _ in suffixed]
        for add, strip, cross in prefixes:
            # A prefix combines with a suffix only when both allow the cross product.
            bases = [form for form, ok in suffixed if cross and ok] or [stem]
            forms.extend(add + base[len(strip) :] for base in bases)
        for form in forms:
            if (
                min_len <= len(form) <= max_len
                and form.isascii()
                and form.isalpha()
                and form == form.lower()
            ):
                words.add(form)
    return words


def _deck_letters() -> Counter[str]:
    from engine.cards import sppoker_deck

    return Counter(card.letter for card in sppoker_deck() if card.letter)


def build_word_list(lang: str = "en_US", dictionary: Dictionary | None = None) -> list[str]:
    """The finder's candidates for `lang`, made from the host's hunspell files: words of
    2..7 letters that the Sppoker deck can spell at all, confirmed by the dictionary."""
    dic = next((d / f"{lang}.dic" for d in HUNSPELL_DIRS if (d / f"{lang}.dic").exists()), None)
    if dic is None:
        return []
    deck = _deck_letters()
    check = dictionary or get_dictionary(lang)
    words = []
    for word in expand_hunspell(dic):
        need = Counter(word.upper())
        if all(deck[k] >= n for k, n in need.items()) and check.check(word):
            words.append(word)
    return sorted(words)


@functools.cache
def candidate_words(lang: str = "en_US") -> tuple[str, ...]:
    """The candidate words for `lang`: the bundled data/words_<lang>.txt when present
    (made by bench/make_words.py, so every machine suggests the same words), otherwise
    built from the host's hunspell files."""
    path = DATA_DIR / f"words_{lang}.txt"
    if path.exists():
        with path.open(encoding="utf-8") as handle:
            return tuple(
                line.strip() for line in handle if line.strip() and not line.startswith("#")
            )
    return tuple(build_word_list(lang))


@functools.cache
def get_finder(lang: str = "en_US") -> WordFinder:
    """One shared finder per language, confirming with the shared dictionary."""
    return WordFinder(candidate_words(lang), get_dictionary(lang))
