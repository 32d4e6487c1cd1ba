"""The longest-word finder's speed: start-up (the candidate list from the data directory's
cache, built there first if needed; open enchant; build the index) and milliseconds per
7-card hand, averaged over 1,000 random Sppoker hands, first with every word still to be
confirmed by enchant (cold), then again (warm).

Run: .venv/bin/python bench/words.py [hands=1000] [seed=1]
"""

from __future__ import annotations

import random
import sys
import time

from bot.settings import load_settings
from bot.wordlists import load
from engine.cards import sppoker_deck
from engine.words import EnchantDictionary, WordFinder, hand_letters


def main(hands: int = 1000, seed: int = 1) -> None:
    start = time.perf_counter()
    words = load("en_US", load_settings().data_dir)
    loaded = time.perf_counter()
    dictionary = EnchantDictionary("en_US")
    opened = time.perf_counter()
    finder = WordFinder(words, dictionary)
    built = time.perf_counter()
    print(f"start-up {1000 * (built - start):.0f} ms: word list {1000 * (loaded - start):.0f} ms "
          f"({len(words)} words), enchant {1000 * (opened - loaded):.0f} ms, "
          f"index {1000 * (built - opened):.0f} ms")

    rng = random.Random(seed)
    deck = sppoker_deck()
    letters = [hand_letters(rng.sample(deck, 7)) for _ in range(hands)]
    for label in ("cold", "warm"):
        start = time.perf_counter()
        found = [finder.best_words(hand, limit=5) for hand in letters]
        took = time.perf_counter() - start
        print(f"best_words, {label}: {1000 * took / hands:.3f} ms a hand over {hands} hands")
    start = time.perf_counter()
    for hand in letters:
        finder.best_rank(hand)
    took = time.perf_counter() - start
    print(f"best_rank (AI fast path): {1000 * took / hands:.3f} ms a hand")
    lengths = [len(f[0]) if f else 0 for f in found]
    print("longest word length over the hands: "
          + ", ".join(f"{n}: {lengths.count(n)}" for n in range(8) if lengths.count(n)))
    print(f"example: {letters[0]} -> {', '.join(found[0])}")


if __name__ == "__main__":
    main(*(int(arg) for arg in sys.argv[1:]))
