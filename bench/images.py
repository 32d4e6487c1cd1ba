"""Time the card pictures: a picture is made on the bot's event loop for every hand shown,
so a slow one delays every table. Budget: a 7-card hand under 50 ms, under 100 KB.

Prints, per case, mean and p95 milliseconds over 200 renders after a warm-up (card faces
cached, as in a running bot), the first (cold) render, and the PNG size.
Run: .venv/bin/python bench/images.py [renders] [--json]
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections.abc import Callable

from bot.present import card_art
from bot.present.images import Row, render_cards, render_rows
from engine.cards import Suit, parse_cards, sppoker_card, sppoker_wild
from engine.games.pokeno.spaces import Space


def _cases() -> dict[str, Callable[[], bytes]]:
    hand = parse_cards("Ah Kd Qs Jc Th 9d 2c")
    letters = [
        sppoker_card(rank, suit)
        for rank, suit in [(14, Suit.SPADES), (2, Suit.HEARTS), (5, Suit.DIAMONDS),
                           (13, Suit.CLUBS), (7, Suit.HEARTS), (10, Suit.CLUBS)]
    ] + [sppoker_wild("E")]
    showdown = [
        Row("Ann", parse_cards("Ah Kh Qh Jh 9h 2c 3d"), note="Flush, ace high",
            highlight=range(5), winner=True),
        Row("Bob", parse_cards("Kc Ks 5d 5s Ad 2c 3d"), note="Two pair, kings and fives",
            highlight=range(5)),
        Row("Cleo", parse_cards("7c 7d 9s Ts 2h 4d Jk"), note="Three sevens",
            highlight=[0, 1, 6, 3, 4]),
        Row("Dan", (), note="folded", face_down=2),
    ]
    full = parse_cards("Ah Kh Qh Jh Th 9c 9d 9s 2c 2d 3c 3d 4s 4h 5c 5d 6s Jk")
    board = [
        Row(space.label, full[i : i + (i % space.size) + 1], note=f"{space.points} pts",
            slots=space.size)
        for i, space in enumerate(Space)
    ]
    return {
        "7-card hand (best five lifted)": lambda: render_cards(
            hand, caption="Ann: straight, ace high", highlight=range(5)
        ),
        "7-letter Sppoker hand": lambda: render_cards(letters, caption="Your letters"),
        "4-player showdown": lambda: render_rows(showdown, title="Showdown, hand #12"),
        "10-row Po-Ke-No board": lambda: render_rows(board, title="Board"),
        "10-row board, fanned": lambda: render_rows(board, title="Board", fan=True),
    }


def measure(renders: int = 200) -> dict[str, dict[str, float]]:
    """Per case: mean and p95 ms over `renders` renders after a warm-up, the cold first
    render, and the PNG's size."""
    figures = {}
    for name, case in _cases().items():
        card_art._face.cache_clear()
        start = time.perf_counter()
        data = case()
        cold = (time.perf_counter() - start) * 1000
        for _ in range(5):
            case()
        times = []
        for _ in range(renders):
            start = time.perf_counter()
            case()
            times.append((time.perf_counter() - start) * 1000)
        p95 = statistics.quantiles(times, n=20)[-1] if len(times) > 1 else times[0]
        figures[name] = {"mean_ms": round(statistics.fmean(times), 2), "p95_ms": round(p95, 2),
                         "cold_ms": round(cold, 2), "kb": round(len(data) / 1024, 1)}
    return figures


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("renders", nargs="?", type=int, default=200,
                        help="timed renders per case (default 200)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    figures = measure(max(1, args.renders))
    if args.json:
        print(json.dumps({"renders": max(1, args.renders), "cases": figures}, indent=2))
        return
    for name, case in figures.items():
        print(f"{name:32} mean {case['mean_ms']:6.1f} ms  p95 {case['p95_ms']:6.1f} ms  "
              f"cold {case['cold_ms']:6.1f} ms  {case['kb']:6.1f} KB")


if __name__ == "__main__":
    main()
