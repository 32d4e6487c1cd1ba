"""How much better than chance the Pyramid Po-Ke-No AI plays.

Heads-up: whole games (to 500 points) of the AI against a player that picks uniformly among
the legal actions of each step (place one card on any space with room, discard one card,
undo, call full board when the board is complete, end the turn); the AI's seat alternates.
The issue asks that the AI outscore the random player in more than 90% of 1,000 games.
Solitaire: the mean score of the AI beside the random player's, over the same seeds.

    .venv/bin/python bench/pokeno_ai.py                   # 1,000 games of each
    .venv/bin/python bench/pokeno_ai.py --games 200 --json
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.game import Game
from engine.games.pokeno.rules import Pokeno
from engine.games.pokeno.solitaire import PokenoSolitaire


def play(game: Game, ai_seats: set[int], seed: int) -> int:
    """Play to the end; the number of actions taken."""
    rng = random.Random(seed ^ 0x5EED)
    actions = 0
    while not game.is_over:
        seat = min(game.to_act)
        if seat in ai_seats:
            action = game.ai_action(seat, rng)
        else:
            action = rng.choice(game.legal_actions(seat))
        game.apply(seat, action)
        actions += 1
    return actions


def heads_up(games: int, target: int) -> dict[str, float]:
    start = time.perf_counter()
    wins = outscored = actions = rounds = 0
    margins = []
    for n in range(games):
        ai = n % 2
        game = Pokeno(["P0", "P1"], {"target": target}, random.Random(1000 + n))
        actions += play(game, {ai}, 1000 + n)
        result = game.result
        assert result is not None
        wins += ai in result.winners
        outscored += result.scores[ai] > result.scores[1 - ai]
        margins.append(result.scores[ai] - result.scores[1 - ai])
        rounds += game.deal_no
    return {
        "games": games,
        "target": target,
        "ai_outscored_random": outscored,
        "ai_outscored_share": outscored / games,
        "ai_won": wins,
        "mean_margin": statistics.fmean(margins),
        "rounds_per_game": rounds / games,
        "actions_per_game": actions / games,
        "seconds": time.perf_counter() - start,
    }


def solitaire(games: int) -> dict[str, float]:
    start = time.perf_counter()
    scores: dict[str, list[int]] = {"ai": [], "random": []}
    for n in range(games):
        for policy in scores:
            game = PokenoSolitaire(["Sol"], {}, random.Random(5000 + n))
            play(game, {0} if policy == "ai" else set(), 5000 + n)
            assert game.result is not None
            scores[policy].append(game.result.scores[0])
    return {
        "games": games,
        "ai_mean": statistics.fmean(scores["ai"]),
        "random_mean": statistics.fmean(scores["random"]),
        "ai_best": max(scores["ai"]),
        "ai_beats_random_share": sum(a > r for a, r in zip(scores["ai"], scores["random"],
                                                            strict=True)) / games,
        "seconds": time.perf_counter() - start,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=1000, help="heads-up games")
    parser.add_argument("--solitaire", type=int, default=1000, help="solitaire games")
    parser.add_argument("--target", type=int, default=500, help="points to win a game")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    report = {"heads_up": heads_up(args.games, args.target),
              "solitaire": solitaire(args.solitaire)}
    if args.json:
        print(json.dumps(report, indent=2))
        return
    h, s = report["heads_up"], report["solitaire"]
    print(f"Po-Ke-No heads-up, AI vs random, to {h['target']}: the AI outscored random in "
          f"{h['ai_outscored_random']}/{h['games']} games = {h['ai_outscored_share']:.1%} "
          f"(mean margin {h['mean_margin']:+.0f}, {h['rounds_per_game']:.1f} rounds, "
          f"{h['actions_per_game']:.0f} actions a game, {h['seconds']:.1f} s)")
    print(f"Po-Ke-No solitaire over {s['games']} deals: AI mean {s['ai_mean']:.1f}, random "
          f"mean {s['random_mean']:.1f}, AI best {s['ai_best']}, AI ahead on "
          f"{s['ai_beats_random_share']:.1%} of deals ({s['seconds']:.1f} s)")


if __name__ == "__main__":
    main()
