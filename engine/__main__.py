"""`python -m engine replay FILE`: a game's notation replayed in the terminal, move by move,
every hand face up, so a bug report with a notation file reproduces exactly.

    python -m engine replay game.txt            the moves, what each told, the hands per deal
    python -m engine replay game.txt --hands    every hand after every move too
    python -m engine replay - < game.txt        the notation from standard input
    python -m engine replay game.txt --words data/words     the word lists of a bot's DATA_DIR

A word game (Sppoker, Hold'em Sppoker) names the longest words a hand makes, from the
candidate lists named by `--words`: a folder of `words_<language>.txt` files (a bot's
DATA_DIR/words) or one list file, a word a line, for every language. `python -m bot replay
FILE` is the same command with the bot's own lists (bot/wordlists.py: made from the installed
dictionaries and cached in its data directory), so the longest words a replay names are the
ones its table named; the engine itself knows nothing of the bot.

Exit status 0; 2 when the file is not a notation (or hides moves: a running game's), or no
word list can be had; 1 when a move does not replay (the rules changed, or the file was
edited), naming the move.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

from engine.notation import Frame, Replayer, parse
from engine.replay import ReplayError, format_action, game_class
from engine.words import WordSource, set_word_source

# A language as a word list's file is named after it (en_US, sv_SE): never a path, since it
# comes from the notation file.
_LANGUAGE = re.compile(r"[A-Za-z]{2,3}(?:[_-][A-Za-z0-9]+)*")


def hands(frame: Frame) -> list[str]:
    width = max(len(name) for name in frame.names)
    return [f"    {view.name:<{width}}  {' '.join(view.hand) or '—'}"
            for view in frame.views]


def describe(frame: Frame) -> list[str]:
    """A move and what it told: public lines as they are, a seat's own news after its name."""
    lines = []
    if frame.move is not None:
        mover = frame.names[frame.move.seat]
        lines.append(f"  {frame.step}. {mover}: {format_action(frame.move.action)}")
    for event in frame.events:
        for text in event.text.split("\n"):
            if text.strip():
                who = "" if event.seat is None else f"[{frame.names[event.seat]}] "
                lines.append(f"       {who}{text}")
    return lines


def replay_text(text: str, out: TextIO, *, every_hand: bool = False) -> None:
    notation = parse(text)
    title = game_class(notation.game).title
    replayer = Replayer(notation)
    seed = f" · seed {notation.seed}" if notation.seed is not None else ""
    date = f" · {notation.date}" if notation.date else ""
    print(f"{title} — {', '.join(notation.names)}{seed}{date}", file=out)
    for name, value in notation.tags.items():
        print(f"{name}: {value}", file=out)
    for number, start in enumerate(replayer.starts, 1):
        deal = notation.deals[number - 1]
        if notation.sectioned:
            stacks = deal.options.get("stacks")
            extra = f" · stacks {stacks}" if stacks is not None else ""
            print(f"\nDeal {number} · seed {deal.seed}{extra}", file=out)
        frame = replayer.frame(start)
        print("  As dealt:", file=out)
        for line in describe(frame) + hands(frame):
            print(line, file=out)
        for step in range(1, len(deal.moves) + 1):
            frame = replayer.frame(start + step)
            for line in describe(frame) + (hands(frame) if every_hand else []):
                print(line, file=out)
        if not every_hand:
            print("  Hands at the end:", file=out)
            for line in hands(frame):
                print(line, file=out)
        if frame.result is not None:
            scores = ", ".join(f"{name} {score}" for name, score
                               in zip(frame.names, frame.result.scores, strict=True))
            print(f"  Result: {scores}" + (f" · {frame.result.summary}"
                                          if frame.result.summary else ""), file=out)
        elif not frame.over:
            print("  (the deal stops here, unfinished)", file=out)


def read_words(path: Path) -> list[str]:
    """A word list file: a word a line; blank lines and `#` lines (the bot's cache header)
    skipped."""
    with path.open(encoding="utf-8") as source:
        return [word for line in source if (word := line.strip()) and not word.startswith("#")]


def words_from(path: Path) -> WordSource:
    """`--words`: one list for every language, or a folder's `words_<language>.txt`."""
    if not path.is_dir():
        listed = read_words(path)  # read now: a missing file is said before the replay
        return lambda _language: listed

    def source(language: str) -> list[str]:
        if not _LANGUAGE.fullmatch(language):
            raise OSError(f"{language!r} is not a language's tag, such as en_US")
        return read_words(path / f"words_{language}.txt")

    return source


def main(argv: Sequence[str] | None = None, *,
         default_words: WordSource | None = None) -> int:
    """The command line; `default_words` is where a word game's candidate words come from
    without `--words` (`python -m bot replay` passes the bot's own lists; the engine has
    none of its own, since they are made from the dictionaries the application installs)."""
    parser = argparse.ArgumentParser(prog="python -m engine",
                                     description="Tools of the rules engine.")
    commands = parser.add_subparsers(dest="command", required=True)
    replay = commands.add_parser("replay", help="replay a game's notation file")
    replay.add_argument("file", help="the notation file (- for standard input)")
    replay.add_argument("--hands", action="store_true", help="every hand after every move")
    replay.add_argument("--words", metavar="PATH", type=Path,
                        help="word games' candidate words: a folder of words_<language>.txt "
                             "files (a bot's DATA_DIR/words) or one list, a word a line "
                             "(`python -m bot replay` uses the bot's own lists instead)")
    args = parser.parse_args(argv)
    try:
        if args.file == "-":
            text = sys.stdin.read()
        else:
            with open(args.file, encoding="utf-8") as source:
                text = source.read()
    except OSError as error:
        print(f"cannot read {args.file}: {error.strerror}", file=sys.stderr)
        return 2
    try:
        previous = set_word_source(words_from(args.words) if args.words else default_words)
    except OSError as error:
        print(f"cannot read the word list {args.words}: {error.strerror or error}",
              file=sys.stderr)
        return 2
    try:
        replay_text(text, sys.stdout, every_hand=args.hands)
    except OSError as error:  # a word list that cannot be read or made (no unmunch)
        print(f"no word list for this game's language: {error}; --words names one",
              file=sys.stderr)
        return 2
    except ReplayError as error:
        if isinstance(error.__cause__, LookupError):  # the words asked for by a move
            return _no_word_list()
        print(f"the replay stops: {error}", file=sys.stderr)
        return 1
    except LookupError:  # a word game, and no word list named: asked for at the deal
        return _no_word_list()
    except ValueError as error:  # NotationError, an unknown game, options it refuses
        print(f"{args.file}: {error}", file=sys.stderr)
        return 2
    finally:
        set_word_source(previous)
    return 0


def _no_word_list() -> int:
    print("a word game: name its candidate words with --words PATH (a bot's DATA_DIR/words, "
          "or one list), or replay it with `python -m bot replay FILE`, which uses the bot's "
          "own lists", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
