"""How much better than chance the trick games' AI plays.

Each AI plays whole games (a Poke rubber, a Poängpoker or Chicago game) against players
that pick uniformly among the legal actions; the AI's seat alternates so that dealing first
favours nobody. Heads-up, the AI should win more than 75% of games; with four players (one
AI, three random) chance would be 25%.

    .venv/bin/python bench/tricks_ai.py            # 2,000 heads-up games per game
    .venv/bin/python bench/tricks_ai.py --games 300 --budget 60 --json

A game type stops early when it has used its share of the time budget; the sample size
actually played is printed with every figure.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.game import Game
from engine.games.poangpoker.rules import Chicago, Poangpoker
from engine.games.poke.rules import Poke


def play_one(cls: type[Game], players: int, ai_seat: int, seed: int) -> tuple[bool, bool, int]:
    """One game: (the AI won, nobody won, actions taken)."""
    game = cls([f"P{i}" for i in range(players)], {}, random.Random(seed))
    rng = random.Random(seed ^ 0x5EED)
    actions = 0
    while not game.is_over:
        seat = min(game.to_act)
        if seat == ai_seat:
            action = game.ai_action(seat, rng)
        else:
            action = rng.choice(game.legal_actions(seat))
        game.apply(seat, action)
        actions += 1
    result = game.result
    assert result is not None
    return ai_seat in result.winners, not result.winners, actions


def run(cls: type[Game], players: int, games: int, budget: float) -> dict[str, Any]:
    """Up to `games` games, stopping once `budget` seconds are used: the figures."""
    start = time.perf_counter()
    wins = draws = actions = played = 0
    for n in range(games):
        won, drawn, count = play_one(cls, players, n % players, 1000 + n)
        wins += won
        draws += drawn
        actions += count
        played += 1
        if time.perf_counter() - start > budget:
            break
    return {"game": cls.title, "players": players, "games": games, "played": played,
            "ai_won": wins, "ai_won_share": round(wins / played, 4), "chance": 1 / players,
            "drawn": draws, "actions_per_game": round(actions / played, 1),
            "seconds": round(time.perf_counter() - start, 2)}


def line(figures: dict[str, Any]) -> str:
    played, games = figures["played"], figures["games"]
    text = (
        f"{figures['game']:<11} {figures['players']} players: AI won {figures['ai_won']}/"
        f"{played} = {figures['ai_won_share']:6.1%} (chance {figures['chance']:.0%})"
    )
    if figures["drawn"]:
        text += f", {figures['drawn']} drawn"
    text += f"; {figures['actions_per_game']:.0f} actions/game, {figures['seconds']:.1f} s"
    if played < games:
        text += f"  [stopped at the time budget: {played} of {games} games]"
    return text


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=2000, help="heads-up games per game")
    parser.add_argument("--budget", type=float, default=270.0, help="total seconds")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    games = max(1, args.games)
    plan = [
        (Poke, 2, games, 0.15),
        (Poangpoker, 2, games, 0.2),
        (Chicago, 2, games, 0.35),
        (Poangpoker, 4, max(1, games // 4), 0.1),
        (Chicago, 4, max(1, games // 4), 0.2),
    ]
    start = time.perf_counter()
    runs = []
    for cls, players, count, share in plan:
        runs.append(run(cls, players, count, args.budget * share))
        if not args.json:
            print(line(runs[-1]), flush=True)
    total = round(time.perf_counter() - start, 1)
    if args.json:
        print(json.dumps({"budget_s": args.budget, "runs": runs, "seconds": total}, indent=2))
    else:
        print(f"total {total:.1f} s")


if __name__ == "__main__":
    main()
