"""How much better than chance the trick games' AI plays.

Each AI plays whole games (a Poke rubber, a Poängpoker or Chicago game) against players
that pick uniformly among the legal actions; the AI's seat alternates so that dealing first
favours nobody. Heads-up, the AI should win more than 75% of games; with four players (one
AI, three random) chance would be 25%.

    .venv/bin/python bench/tricks_ai.py            # 2,000 heads-up games per game
    .venv/bin/python bench/tricks_ai.py --games 300 --budget 60

A game type stops early when it has used its share of the time budget; the sample size
actually played is printed with every figure.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.game import Game
from engine.games.poangpoker import Chicago, Poangpoker
from engine.games.poke import Poke


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


def run(cls: type[Game], players: int, games: int, budget: float) -> str:
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
    seconds = time.perf_counter() - start
    rate = wins / played
    chance = 1 / players
    line = (
        f"{cls.title:<11} {players} players: AI won {wins}/{played} = {rate:6.1%} "
        f"(chance {chance:.0%})"
    )
    if draws:
        line += f", {draws} drawn"
    line += f"; {actions / played:.0f} actions/game, {seconds:.1f} s"
    if played < games:
        line += f"  [stopped at the time budget: {played} of {games} games]"
    return line


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=2000, help="heads-up games per game")
    parser.add_argument("--budget", type=float, default=270.0, help="total seconds")
    args = parser.parse_args()
    plan = [
        (Poke, 2, args.games, 0.15),
        (Poangpoker, 2, args.games, 0.2),
        (Chicago, 2, args.games, 0.35),
        (Poangpoker, 4, max(1, args.games // 4), 0.1),
        (Chicago, 4, max(1, args.games // 4), 0.2),
    ]
    start = time.perf_counter()
    for cls, players, games, share in plan:
        print(run(cls, players, games, args.budget * share), flush=True)
    print(f"total {time.perf_counter() - start:.1f} s")


if __name__ == "__main__":
    main()
