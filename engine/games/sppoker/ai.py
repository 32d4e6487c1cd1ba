"""Sppoker's AI: which kind to declare, and with which word, from a seat's own cards only.

Skill 0 picks by simple thresholds; 1 estimates by Monte Carlo its chance of beating every
opponent on each kind; 2 also models which kind each opponent would declare."""

from __future__ import annotations

import bisect
import random
import weakref
from collections.abc import Sequence
from dataclasses import dataclass

from engine.cards import Card, sppoker_deck
from engine.evaluator import strength_of_codes
from engine.games.sppoker.options import HAND_SIZE
from engine.words import (
    WordFinder,
    hand_letters,
    word_rank,
)

__all__ = ["choose_declaration"]


@dataclass
class _Reference:
    """Distributions over random 7-card hands, to read a hand's strength as a percentile
    (how a skilled opponent would judge their own hand)."""

    poker: list[int]
    words: list[tuple[int, int]]

    def poker_pct(self, strength: int) -> float:
        return bisect.bisect_right(self.poker, strength) / len(self.poker)

    def word_pct(self, key: tuple[int, int] | None) -> float:
        if key is None:
            return 0.0
        return bisect.bisect_right(self.words, key) / len(self.words)


_REFERENCES: weakref.WeakKeyDictionary[WordFinder, _Reference] = weakref.WeakKeyDictionary()


def _reference(finder: WordFinder) -> _Reference:
    ref = _REFERENCES.get(finder)
    if ref is None:
        sample_rng = random.Random(56)  # fixed: the same reference on every run
        deck = sppoker_deck()
        poker, words = [], []
        for _ in range(1500):
            hand = sample_rng.sample(deck, HAND_SIZE)
            poker.append(strength_of_codes([c.code for c in hand]))
            words.append(finder.best_rank(hand_letters(hand)))
        ref = _REFERENCES[finder] = _Reference(sorted(poker), sorted(words))
    return ref


def choose_declaration(
    cards: Sequence[Card],
    opponents: int,
    finder: WordFinder,
    rng: random.Random,
    *,
    skill: int = 2,
    samples: int | None = None,
) -> tuple[str, str | None]:
    """The AI's declaration and word for a hand, knowing only its own cards."""
    letters = hand_letters(cards)
    word = finder.best_word(letters)
    my_key = word_rank(word) if word else None
    my_poker = strength_of_codes([c.code for c in cards])
    if my_key is None:
        return "poker", None
    ref = _reference(finder)
    if skill == 0:
        if ref.poker_pct(my_poker) >= ref.word_pct(my_key):
            return "poker", None
        return "spelling", word

    held = set(cards)
    unseen = [(c.code, c.letter or "") for c in sppoker_deck() if c not in held]
    opponents = max(1, opponents)
    if samples is None:
        samples = max(20, min(60, 180 // opponents))
    best_rank = finder.best_rank
    no_word = (0, 0)
    ev = {"poker": 0.0, "spelling": 0.0, "double": 0.0}
    for n in range(1, samples + 1):
        drawn = rng.sample(unseen, HAND_SIZE * opponents)
        best_poker_all = best_poker_p = -1
        best_word_all = best_word_s = no_word
        for i in range(0, HAND_SIZE * opponents, HAND_SIZE):
            hand = drawn[i : i + HAND_SIZE]
            p = strength_of_codes([code for code, _ in hand])
            k = best_rank("".join([letter for _, letter in hand]))
            if p > best_poker_all:
                best_poker_all = p
            if k > best_word_all:
                best_word_all = k
            # Skill 2 models each opponent declaring the kind its hand is relatively
            # better at; skill 1 assumes every opponent contests both kinds.
            if skill < 2 or ref.poker_pct(p) >= ref.word_pct(k):
                best_poker_p = max(best_poker_p, p)
            if skill < 2 or ref.poker_pct(p) < ref.word_pct(k):
                best_word_s = max(best_word_s, k)
        ev["poker"] += my_poker >= best_poker_p
        ev["spelling"] += my_key >= best_word_s
        # A double down must strictly beat every hand declared, on each kind.
        both = my_poker > best_poker_p and my_key > best_word_s
        ev["double"] += 4 if both else -2
        if n % 20 == 0 and n < samples:
            # Stop early when the choice is already clear: most hands are not close calls.
            first, second = sorted(ev.values(), reverse=True)[:2]
            if (first - second) / n > 0.3:
                break
    kind = max(ev, key=lambda k: (ev[k], k == "poker"))
    return kind, (None if kind == "poker" else word)
