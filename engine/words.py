"""Words for Sppoker's spelling hand: the dictionary, "is this word made of these cards",
and the longest-word finder used by AI players and by the showdown's "longest possible".

The dictionary answers for the *lower-case* form only: hunspell accepts "Paris" and "NASA"
but not "paris" or "nasa", which is exactly the ruling "no proper names, no abbreviations".
Tests inject a `WordListDictionary`, so the rules can be tested without libenchant.
The finder's candidate words are handed in too (`set_word_source`, or a list to
`WordFinder`): which list, and where it is cached, is the application's business.

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
import unicodedata
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any, Protocol, runtime_checkable

from engine.i18n import Msg, msg

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
    "fold_word",
    "get_dictionary",
    "get_finder",
    "hand_letters",
    "set_word_source",
    "usable_words",
    "validate_word",
    "word_rank",
]

MIN_WORD = 2
MAX_WORD = 7
"""A Sppoker hand holds 7 cards, so no playable word is longer."""


@runtime_checkable
class Dictionary(Protocol):
    """Whatever decides that a word is a word. `check` gets a word in any case and answers
    for its lower-case form, so that proper names and abbreviations fail. Hashable: finders
    are cached per dictionary."""

    def check(self, word: str) -> bool: ...

    def __hash__(self) -> int: ...


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

    def __deepcopy__(self, memo: dict[int, Any]) -> WordListDictionary:
        """Shared, never copied: a word list is read-only, and a game copied for a
        command (`Table.draft`) must not copy it with every click."""
        return self


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

    def __deepcopy__(self, memo: dict[int, Any]) -> EnchantDictionary:
        """Shared, never copied: one open dictionary per language (`get_dictionary`), whose
        cache only learns; a game copied for a command must not reopen it."""
        return self


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


def fold_word(text: str) -> str:
    """A typed word as Sppoker compares it: Unicode compatibility folding (NFKC), then case
    folding. A letter typed in another form of itself is that letter: the Kelvin sign is a
    K, a full-width Ａ an A, a decomposed Å the Å of the deck, a ligature its letters.

    >>> fold_word("\u212aITE"), fold_word("ＫＩＴＥ"), fold_word("A\u030aR") == "år"
    ('kite', 'kite', True)
    """
    return unicodedata.normalize("NFKC", text).casefold()


def validate_word(
    word: str | None, cards: Iterable[Any] | str, dictionary: Dictionary,
    language: str | None = None,
) -> WordCheck:
    """Judge a declared word against a hand, per RULINGS: letters only, at least 2 of them,
    each card's letter used at most once, and accepted by the dictionary in lower case. The
    word is compared after `fold_word` (compatibility, then case folding).

    The reasons are shown to the player as they are, so they say what to fix; a word the
    dictionary refuses names the dictionary that judged it when `language` (its tag) is
    given, since a table may play with another language's words than its players expect.

    >>> d = WordListDictionary(["bee", "be"])
    >>> validate_word("b", "BEEXQ", d).reason
    'too short: a word needs at least 2 letters'
    >>> validate_word("b-e", "BEEXQ", d).reason
    "not a word: '-' is not a letter (letters only: no spaces, hyphens or apostrophes)"
    >>> validate_word("beee", "BEEXQ", d).reason
    'letters not in your hand: 1 more E (you hold 2) (your letters: BEEXQ)'
    >>> validate_word("xq", "BEEXQ", d).reason
    'not in the dictionary: XQ'
    >>> validate_word("xq", "BEEXQ", d, "sv_SE").reason
    'not in the sv_SE dictionary: XQ'
    """
    text = fold_word(word or "").strip()
    upper = text.upper()
    if not text:
        return WordCheck(False, "", msg("no word given"))
    bad = next((ch for ch in text if not ch.isalpha()), None)
    if bad is not None:
        shown = msg("a space") if bad.isspace() else repr(bad)
        return WordCheck(
            False,
            upper,
            msg("not a word: {char} is not a letter (letters only: no spaces, hyphens or "
                "apostrophes)", char=shown),
        )
    if len(text) < MIN_WORD:
        return WordCheck(False, upper, msg("too short: a word needs at least {n} letters",
                                           n=MIN_WORD))
    letters = hand_letters(cards)
    have = Counter(letters)
    need = Counter(upper)
    missing = []
    for letter in sorted(need, key=upper.index):
        lack = need[letter] - have[letter]
        if lack <= 0:
            continue
        if have[letter]:
            missing.append(msg("{n} more {letter} (you hold {held})", n=lack, letter=letter,
                               held=have[letter]))
        elif lack == 1:
            missing.append(msg("{letter} is missing", letter=letter))
        else:
            missing.append(msg("{n} × {letter} are missing", n=lack, letter=letter))
    if missing:
        return WordCheck(
            False,
            upper,
            msg("letters not in your hand: {missing} (your letters: {letters})",
                missing=Msg.joined(", ", missing), letters=letters),
        )
    if not dictionary.check(text.lower()):
        if language:
            return WordCheck(False, upper, msg("not in the {language} dictionary: {word}",
                                               language=language, word=upper))
        return WordCheck(False, upper, msg("not in the dictionary: {word}", word=upper))
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

    def __deepcopy__(self, memo: dict[int, Any]) -> WordFinder:
        """Shared, never copied: the index is read-only and its caches only learn; copying
        it took a second, which a game copied for every click (`Table.draft`) cannot spend."""
        return self

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

WordSource = Callable[[str], Sequence[str]]
"""Where the finder's candidates for a language come from: the application decides (the bot
builds them from the table's dictionary and caches them, tests pass a small list)."""

_word_source: WordSource | None = None


def set_word_source(source: WordSource | None) -> WordSource | None:
    """Choose where `candidate_words` gets its lists, and return the previous source (to put
    back); forgets the lists and finders made from the previous source, so no finder keeps
    claiming words of another list."""
    global _word_source
    previous, _word_source = _word_source, source
    candidate_words.cache_clear()
    get_finder.cache_clear()
    return previous


def _deck_letters() -> Counter[str]:
    from engine.cards import sppoker_deck

    return Counter(card.letter for card in sppoker_deck() if card.letter)


def usable_words(words: Iterable[str], dictionary: Dictionary) -> list[str]:
    """The finder's candidates among `words`: lower-case words of 2..7 letters that the
    Sppoker deck can spell at all and that `dictionary` accepts (so the finder never claims a
    word the table would refuse, and capitalised names drop out). Sorted, without repeats.

    >>> usable_words(["zebra", "Paris", "zz", "x", "zebras", "qua"], WordListDictionary(
    ...     ["zebra", "zz", "x", "qua"]))
    ['qua', 'zebra']
    """
    deck = _deck_letters()
    found = set()
    for word in words:
        word = word.strip()
        if not (MIN_WORD <= len(word) <= MAX_WORD and word.isalpha() and word == word.lower()):
            continue
        need = Counter(word.upper())
        if all(deck[k] >= n for k, n in need.items()) and dictionary.check(word):
            found.add(word)
    return sorted(found)


@functools.cache
def candidate_words(lang: str = "en_US") -> tuple[str, ...]:
    """The candidate words for `lang`, from the source `set_word_source` chose."""
    if _word_source is None:
        raise LookupError(
            f"no word list for {lang}: the application must choose a source with "
            "engine.words.set_word_source (the bot does, see bot/wordlists.py)"
        )
    return tuple(_word_source(lang))


@functools.cache
def get_finder(lang: str = "en_US") -> WordFinder:
    """One shared finder per language, confirming with the shared dictionary."""
    return WordFinder(candidate_words(lang), get_dictionary(lang))
