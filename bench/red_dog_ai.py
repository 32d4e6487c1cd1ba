"""Whether Red Dog's AI wins chips, against two simple players, side by side.

Every game is one pot's life (ante, rounds until the pot is empty) at a table of the AI and
one opponent (or more with --players), each bringing the same stack; the AI's seat and the
button alternate so that betting first favours nobody. The opponents:

- min: always bets the minimum, 1 chip, and never passes;
- random: picks uniformly among the legal actions (pass, or any bet from 1 to the most
  allowed), as a player pressing buttons at random would.

Red Dog is zero-sum between the players (the pot is only their chips), so the AI's net is
what the opponents lose. The AI should be ahead on average against both, by more than the
95% margin printed beside the mean.

    .venv/bin/python bench/red_dog_ai.py                 # 2,000 games per opponent
    .venv/bin/python bench/red_dog_ai.py --games 500 --stack 50 --ante 2 --json
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.game import Action
from engine.games.red_dog.rules import RedDog

Policy = Callable[[RedDog, int, random.Random], Action]


def always_min(game: RedDog, seat: int, rng: random.Random) -> Action:
    del rng
    return Action("bet", (1,)) if game.max_bet(seat) >= 1 else Action("pass")


def uniform(game: RedDog, seat: int, rng: random.Random) -> Action:
    return rng.choice(game.legal_actions(seat))


OPPONENTS: dict[str, Policy] = {"min": always_min, "random": uniform}


@dataclass
class Figures:
    """What one opponent's run gave, from the AI's side."""

    opponent: str
    games: int = 0
    ai_net: int = 0
    ai_net_sq: int = 0
    ahead: int = 0
    even: int = 0
    behind: int = 0
    rounds: int = 0
    ai_bets: int = 0
    ai_bets_won: int = 0
    ai_passes: int = 0
    ai_chips_bet: int = 0
    seconds: float = 0.0

    @property
    def mean(self) -> float:
        return self.ai_net / self.games

    @property
    def margin(self) -> float:
        """Half the 95% confidence interval of the mean net per game."""
        if self.games < 2:
            return math.inf
        variance = (self.ai_net_sq - self.games * self.mean**2) / (self.games - 1)
        return 1.96 * math.sqrt(max(variance, 0.0) / self.games)

    def summary(self) -> dict[str, float | int | str]:
        figures = asdict(self)
        del figures["ai_net_sq"]  # only for the margin
        return {
            **figures,
            "ai_net_per_game": round(self.mean, 3),
            "margin_95": round(self.margin, 3),
            "ahead_share": round(self.ahead / self.games, 4),
            "ai_bet_win_rate": round(self.ai_bets_won / max(1, self.ai_bets), 4),
            "ai_mean_bet": round(self.ai_chips_bet / max(1, self.ai_bets), 3),
            "rounds_per_game": round(self.rounds / self.games, 3),
            "seconds": round(self.seconds, 2),
        }


def play_one(
    opponent: Policy, players: int, stack: int, ante: int, n: int, figures: Figures
) -> None:
    """One game: the AI in seat n % players, the button at seat (n // players) % players."""
    ai_seat = n % players
    options = {"stacks": [stack] * players, "ante": ante, "button": (n // players) % players}
    game = RedDog([f"P{i}" for i in range(players)], options, random.Random(n))
    rng = random.Random(n ^ 0x5EED)
    while not game.is_over:
        [seat] = game.to_act
        if seat == ai_seat:
            action = game.ai_action(seat, rng)
            if action.name == "bet":
                figures.ai_bets += 1
                figures.ai_chips_bet += action.args[0]
            else:
                figures.ai_passes += 1
            events = game.apply(seat, action)
            figures.ai_bets_won += any(e.kind == "reveal" and e.data["won"] for e in events)
        else:
            game.apply(seat, opponent(game, seat, rng))
    assert game.result is not None
    net = game.result.chips[ai_seat]
    figures.games += 1
    figures.ai_net += net
    figures.ai_net_sq += net * net
    figures.ahead += net > 0
    figures.even += net == 0
    figures.behind += net < 0
    figures.rounds += game.round_no


def run(name: str, games: int, players: int, stack: int, ante: int) -> Figures:
    figures = Figures(name)
    start = time.perf_counter()
    for n in range(games):
        play_one(OPPONENTS[name], players, stack, ante, n, figures)
    figures.seconds = time.perf_counter() - start
    return figures


ROWS: list[tuple[str, Callable[[Figures], str]]] = [
    ("games", lambda f: f"{f.games}"),
    ("AI net chips, total", lambda f: f"{f.ai_net:+d}"),
    ("AI net per game", lambda f: f"{f.mean:+.2f} ± {f.margin:.2f}"),
    ("AI ahead / even / behind", lambda f: f"{f.ahead}/{f.even}/{f.behind}"),
    ("AI ahead, share of games", lambda f: f"{100 * f.ahead / f.games:.1f}%"),
    ("AI bets (passes)", lambda f: f"{f.ai_bets} ({f.ai_passes})"),
    ("AI bets won", lambda f: f"{100 * f.ai_bets_won / max(1, f.ai_bets):.1f}%"),
    ("AI mean bet", lambda f: f"{f.ai_chips_bet / max(1, f.ai_bets):.2f}"),
    ("rounds per game", lambda f: f"{f.rounds / f.games:.2f}"),
    ("seconds", lambda f: f"{f.seconds:.1f}"),
]


def table(runs: list[Figures], players: int, stack: int, ante: int) -> str:
    width = max(16, *(len(fn(f)) + 2 for f in runs for _, fn in ROWS))
    lines = [
        f"Red Dog AI: {players} players, stacks of {stack}, ante {ante}",
        f"{'against':<26}" + "".join(f"{f.opponent:>{width}}" for f in runs),
    ]
    lines += [f"{label:<26}" + "".join(f"{fn(f):>{width}}" for f in runs) for label, fn in ROWS]
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--games", type=int, default=2000, help="games per opponent")
    parser.add_argument("--players", type=int, default=2, help="seats, the AI's included")
    parser.add_argument("--stack", type=int, default=100, help="chips each seat brings")
    parser.add_argument("--ante", type=int, default=1)
    parser.add_argument("--opponents", nargs="+", choices=sorted(OPPONENTS),
                        default=["min", "random"])
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    runs = [run(name, args.games, args.players, args.stack, args.ante) for name in args.opponents]
    if args.json:
        setup = {"players": args.players, "stack": args.stack, "ante": args.ante}
        print(json.dumps({"setup": setup, "runs": [f.summary() for f in runs]}, indent=2))
    else:
        print(table(runs, args.players, args.stack, args.ante))
    return 0 if all(f.mean > 0 for f in runs) else 1


if __name__ == "__main__":
    sys.exit(main())
