"""Does the Sppoker AI beat the obvious fixed strategies? Four players a table: the AI at
skill 2 and skill 1 against a player who always declares poker and one who always declares
spelling (with the longest word the finder knows: a perfect speller). Full games to the
4-player target (10 points); prints points scored per player over all hands, the kinds of
points, games won, and the AI's decision time.

Words are judged by a WordListDictionary of the finder's candidates (each confirmed by
enchant when the list was made), which avoids enchant's per-call cost; that cost is printed.

Run: .venv/bin/python bench/sppoker_ai.py [games=2000] [seed=1] [--json]
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections.abc import Callable
from typing import Any

from bot.settings import load_settings
from bot.wordlists import load
from engine.game import Action
from engine.games.sppoker.rules import Sppoker
from engine.words import (
    WordFinder,
    WordListDictionary,
    get_dictionary,
    hand_letters,
)

Policy = Callable[[Sppoker, int, random.Random], Action]


def always_poker(game: Sppoker, seat: int, rng: random.Random) -> Action:
    return Action("declare", ("poker",))


def always_spelling(game: Sppoker, seat: int, rng: random.Random) -> Action:
    word = game.finder.best_word(hand_letters(game.hands[seat])) or ""
    return Action("declare", ("spelling", word))


def ai(game: Sppoker, seat: int, rng: random.Random) -> Action:
    return game.ai_action(seat, rng)


PLAYERS: list[tuple[str, Policy, int]] = [
    ("AI skill 2", ai, 2),
    ("AI skill 1", ai, 1),
    ("always poker", always_poker, 0),
    ("always spelling", always_spelling, 0),
]
MAX_HANDS = 60
KINDS = ("poker +1", "spelling +1", "double +4", "double -2")


def play_hand(game: Sppoker, rng: random.Random, timing: list[float]) -> None:
    order = list(game.active)
    rng.shuffle(order)  # the order tells nothing: declarations are sealed
    for seat in order:
        policy = PLAYERS[seat][1]
        start = time.perf_counter()
        action = policy(game, seat, rng)
        if policy is ai:
            timing.append(time.perf_counter() - start)
        game.apply(seat, action)


def tally(reveal: dict, kinds: dict[str, list[int]], points: list[int]) -> None:
    for player in reveal["players"]:
        s, decl = player["seat"], player["declaration"]
        points[s] += player["points"]
        kinds["poker +1"][s] += s in reveal["poker_winners"] and decl == "poker"
        kinds["spelling +1"][s] += s in reveal["spelling_winners"] and decl == "spelling"
        kinds["double +4"][s] += reveal["double_winner"] == s
        kinds["double -2"][s] += player["points"] == -2


def measure(games: int = 2000, seed: int = 1) -> dict[str, Any]:
    """The figures of `games` full games: per player, points by kind and games won; the
    AI's decision time; enchant's cost beside the word list's."""
    words = load("en_US", load_settings().data_dir)
    dictionary = WordListDictionary(words)
    finder = WordFinder(words, dictionary)
    names = [name for name, _, _ in PLAYERS]
    options = {"ai_skill": [skill for _, _, skill in PLAYERS]}
    rng = random.Random(seed)
    timing: list[float] = []
    kinds = {kind: [0] * 4 for kind in KINDS}
    points = [0] * 4
    won = [0] * 4
    hands = unfinished = 0
    start = time.perf_counter()
    for g in range(games):
        game = Sppoker(names, options, random.Random(seed * 1_000_003 + g),
                       dictionary=dictionary, finder=finder)
        if g == 0:
            game.ai_action(0, random.Random(0))  # build the AI's reference tables untimed
        while not game.is_over:
            if game.phase == "reveal":
                if game.hand_no == MAX_HANDS:
                    # Two fixed players who never contest the same kind tie every playoff
                    # hand (each is the lone declarer of its kind): stop such a game.
                    unfinished += 1
                    break
                game.apply(0, Action("next_hand"))
                continue
            play_hand(game, rng, timing)
            hands += 1
            assert game.last_reveal is not None
            tally(game.last_reveal, kinds, points)
        for s in game.result.winners if game.result else ():
            won[s] += 1
    took = time.perf_counter() - start
    timing.sort()
    figures: dict[str, Any] = {
        "games": games, "seed": seed, "hands": hands, "seconds": round(took, 2),
        "unfinished": unfinished, "max_hands": MAX_HANDS,
        "players": [{"name": name, "points": points[s],
                     "per_hand": round(points[s] / max(hands, 1), 3),
                     "kinds": {kind: kinds[kind][s] for kind in KINDS}, "won": won[s]}
                    for s, name in enumerate(names)],
        "ai_decision_ms": {
            "n": len(timing),
            "mean": round(1000 * sum(timing) / len(timing), 2) if timing else None,
            "p99": round(1000 * timing[int(len(timing) * 0.99)], 2) if timing else None,
            "max": round(1000 * timing[-1], 2) if timing else None,
        },
        "enchant_us": None,
    }
    try:
        real = get_dictionary("en_US")
    except Exception as error:  # pragma: no cover - host without libenchant
        figures["enchant_error"] = str(error)
        return figures
    sample = random.Random(seed).sample(list(words), min(2000, len(words)))
    start = time.perf_counter()
    for word in sample:
        real.check(word)
    first = (time.perf_counter() - start) / max(len(sample), 1)
    start = time.perf_counter()
    for word in sample:
        real.check(word)
    cached = (time.perf_counter() - start) / max(len(sample), 1)
    figures["enchant_us"] = {"uncached": round(1e6 * first, 2), "cached": round(1e6 * cached, 3)}
    return figures


def report(figures: dict[str, Any]) -> str:
    games, hands = figures["games"], figures["hands"]
    lines = [f"sample: {games} full 4-player games to 10 points, {hands} hands, "
             f"{figures['seconds']:.0f} s ({figures['unfinished']} stopped unfinished after "
             f"{figures['max_hands']} hands)"]
    header = "".join(f"{kind:>12}" for kind in KINDS)
    lines.append(f"{'player':<16}{'points':>8}{'per hand':>9}{header}{'games won':>11}")
    for player in figures["players"]:
        counts = "".join(f"{player['kinds'][kind]:>12}" for kind in KINDS)
        lines.append(f"{player['name']:<16}{player['points']:>8}{player['per_hand']:>9.3f}"
                     f"{counts}{player['won']:>6} ({100 * player['won'] / games:.0f}%)")
    timing = figures["ai_decision_ms"]
    if timing["n"]:
        lines.append(f"AI decision ({timing['n']}): mean {timing['mean']:.1f} ms, "
                     f"p99 {timing['p99']:.1f} ms, max {timing['max']:.1f} ms")
    enchant = figures["enchant_us"]
    if enchant is None:
        lines.append(f"enchant not available: {figures.get('enchant_error')}")
    else:
        lines.append(f"enchant check: {enchant['uncached']:.1f} µs a word uncached, "
                     f"{enchant['cached']:.2f} µs cached (the word list: a set lookup)")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="?", type=int, default=2000,
                        help="full games (default 2000)")
    parser.add_argument("seed", nargs="?", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    figures = measure(max(1, args.games), args.seed)
    print(json.dumps(figures, indent=2) if args.json else report(figures))


if __name__ == "__main__":
    main()
