"""Build (or refresh) the longest-word finder's cached candidate list for a language in the
bot's data directory, and say how many words it holds. The bot does this by itself on first
use; this is for looking at the list or timing the build.
Run: .venv/bin/python bench/make_words.py [en_US]"""

from __future__ import annotations

import sys
import time

from bot.settings import load_settings
from bot.wordlists import build, load


def main(lang: str = "en_US") -> None:
    data_dir = load_settings().data_dir
    start = time.perf_counter()
    words = build(lang)
    took = time.perf_counter() - start
    if not words:
        raise SystemExit(f"no hunspell dictionary for {lang} on this host")
    load(lang, data_dir)
    path = data_dir / "words" / f"words_{lang}.txt"
    print(f"{len(words)} words for {lang}, built in {took:.1f} s; cached in {path}")


if __name__ == "__main__":
    main(*sys.argv[1:])
