"""Build (or refresh) the longest-word finder's cached candidate list for a language in the
bot's data directory, and say how many words it holds. The bot does this by itself on first
use; this is for looking at the list or timing the build.
Run: .venv/bin/python bench/make_words.py [en_US] [--json]"""

from __future__ import annotations

import argparse
import json
import time

from bot.settings import load_settings
from bot.wordlists import build, load


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("lang", nargs="?", default="en_US", help="the language (default en_US)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    data_dir = load_settings().data_dir
    start = time.perf_counter()
    words = build(args.lang)
    took = time.perf_counter() - start
    if not words:
        raise SystemExit(f"no hunspell dictionary for {args.lang} on this host")
    load(args.lang, data_dir)
    path = data_dir / "words" / f"words_{args.lang}.txt"
    if args.json:
        print(json.dumps({"lang": args.lang, "words": len(words), "build_s": round(took, 2),
                          "cached_in": str(path)}))
    else:
        print(f"{len(words)} words for {args.lang}, built in {took:.1f} s; cached in {path}")


if __name__ == "__main__":
    main()
