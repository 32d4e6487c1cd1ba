"""The longest-word finder's speed: start-up (the candidate list from the data directory's
cache, built there first if needed; open enchant; build the index) and milliseconds per
7-card hand, averaged over 1,000 random Sppoker hands, first with every word still to be
confirmed by enchant (cold), then again (warm).

Run: .venv/bin/python bench/words.py [hands=1000] [seed=1] [--json]
"""

from __future__ import annotations

import argparse
import json
import random
import time
from typing import Any

from bot.settings import load_settings
from bot.wordlists import load
from engine.cards import sppoker_deck
from engine.words import EnchantDictionary, WordFinder, hand_letters


def measure(hands: int = 1000, seed: int = 1) -> dict[str, Any]:
    start = time.perf_counter()
    words = load("en_US", load_settings().data_dir)
    loaded = time.perf_counter()
    dictionary = EnchantDictionary("en_US")
    opened = time.perf_counter()
    finder = WordFinder(words, dictionary)
    built = time.perf_counter()
    figures: dict[str, Any] = {
        "hands": hands, "seed": seed, "words": len(words),
        "start_up_ms": round(1000 * (built - start)),
        "word_list_ms": round(1000 * (loaded - start)),
        "enchant_ms": round(1000 * (opened - loaded)),
        "index_ms": round(1000 * (built - opened)),
    }
    rng = random.Random(seed)
    deck = sppoker_deck()
    letters = [hand_letters(rng.sample(deck, 7)) for _ in range(hands)]
    found: list[list[str]] = []
    for label in ("cold", "warm"):
        start = time.perf_counter()
        found = [finder.best_words(hand, limit=5) for hand in letters]
        took = time.perf_counter() - start
        figures[f"best_words_{label}_ms"] = round(1000 * took / hands, 3)
    start = time.perf_counter()
    for hand in letters:
        finder.best_rank(hand)
    figures["best_rank_ms"] = round(1000 * (time.perf_counter() - start) / hands, 3)
    lengths = [len(f[0]) if f else 0 for f in found]
    figures["longest_lengths"] = {str(n): lengths.count(n) for n in range(8) if lengths.count(n)}
    figures["example"] = {"letters": letters[0], "words": found[0]}
    return figures


def report(figures: dict[str, Any]) -> str:
    example = figures["example"]
    return "\n".join([
        f"start-up {figures['start_up_ms']} ms: word list {figures['word_list_ms']} ms "
        f"({figures['words']} words), enchant {figures['enchant_ms']} ms, "
        f"index {figures['index_ms']} ms",
        *(f"best_words, {label}: {figures[f'best_words_{label}_ms']:.3f} ms a hand over "
          f"{figures['hands']} hands" for label in ("cold", "warm")),
        f"best_rank (AI fast path): {figures['best_rank_ms']:.3f} ms a hand",
        "longest word length over the hands: "
        + ", ".join(f"{n}: {count}" for n, count in figures["longest_lengths"].items()),
        f"example: {example['letters']} -> {', '.join(example['words'])}",
    ])


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("hands", nargs="?", type=int, default=1000,
                        help="random 7-card hands (default 1000)")
    parser.add_argument("seed", nargs="?", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    figures = measure(max(1, args.hands), args.seed)
    print(json.dumps(figures, indent=2) if args.json else report(figures))


if __name__ == "__main__":
    main()
