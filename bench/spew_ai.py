"""Whether Spew's AI wins chips, against two simple players, side by side.

Every game is one deal (ante, a draw, five spew cards, seven betting rounds, the sealed
declaration) at a table of the AI and one opponent (or more with --players), each bringing the
same stack; the AI's seat and the button rotate so that position favours nobody. The
opponents:

- call: never folds and never raises (checks or calls), and draws and declares as the AI
  does, so only the betting differs;
- random: picks uniformly among the legal actions, draws and declarations included, as a
  player pressing buttons at random would.

A deal is zero-sum between the players, so the AI's net is what the opponents lose. The AI
should be ahead on average against both, by more than the 95% margin printed beside the
mean.

    .venv/bin/python bench/spew_ai.py                 # 2,000 deals per opponent
    .venv/bin/python bench/spew_ai.py --deals 500 --players 4 --json
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
from engine.games.spew import Spew

Policy = Callable[[Spew, int, random.Random], Action]


def always_call(game: Spew, seat: int, rng: random.Random) -> Action:
    if game.phase in ("draw", "declare"):
        return game.ai_action(seat, rng)
    names = {action.name for action in game.legal_actions(seat)}
    return Action("call" if "call" in names else "check")


def uniform(game: Spew, seat: int, rng: random.Random) -> Action:
    return rng.choice(game.legal_actions(seat))


OPPONENTS: dict[str, Policy] = {"call": always_call, "random": uniform}


@dataclass
class Figures:
    """What one opponent's run gave, from the AI's side."""

    opponent: str
    deals: int = 0
    ai_net: int = 0
    ai_net_sq: int = 0
    ahead: int = 0
    even: int = 0
    behind: int = 0
    showdowns: int = 0
    ai_folds: int = 0
    ai_raises: int = 0
    ai_calls: int = 0
    seconds: float = 0.0

    @property
    def mean(self) -> float:
        return self.ai_net / self.deals

    @property
    def margin(self) -> float:
        """Half the 95% confidence interval of the mean net per deal."""
        if self.deals < 2:
            return math.inf
        variance = (self.ai_net_sq - self.deals * self.mean**2) / (self.deals - 1)
        return 1.96 * math.sqrt(max(variance, 0.0) / self.deals)

    def summary(self) -> dict[str, float | int | str]:
        figures = asdict(self)
        del figures["ai_net_sq"]  # only for the margin
        return {
            **figures,
            "ai_net_per_deal": round(self.mean, 3),
            "margin_95": round(self.margin, 3),
            "ahead_share": round(self.ahead / self.deals, 4),
            "seconds": round(self.seconds, 2),
        }


def play_one(opponent: Policy, players: int, stack: int, n: int, figures: Figures) -> None:
    """One deal: the AI in seat n % players, the button at seat (n // players) % players."""
    ai_seat = n % players
    options = {"stacks": [stack] * players, "button": (n // players) % players}
    game = Spew([f"P{i}" for i in range(players)], options, random.Random(n))
    rng = random.Random(n ^ 0x5EED)
    while not game.is_over:
        seat = min(game.to_act)  # one at a time, even while declaring
        if seat == ai_seat:
            action = game.ai_action(seat, rng)
            figures.ai_folds += action.name == "fold"
            figures.ai_raises += action.name in ("bet", "raise")
            figures.ai_calls += action.name == "call"
        else:
            action = opponent(game, seat, rng)
        game.apply(seat, action)
    assert game.result is not None and game.showdown is not None
    net = game.result.chips[ai_seat]
    figures.deals += 1
    figures.ai_net += net
    figures.ai_net_sq += net * net
    figures.ahead += net > 0
    figures.even += net == 0
    figures.behind += net < 0
    figures.showdowns += game.showdown["lone"] is None


def run(name: str, deals: int, players: int, stack: int) -> Figures:
    figures = Figures(name)
    start = time.perf_counter()
    for n in range(deals):
        play_one(OPPONENTS[name], players, stack, n, figures)
    figures.seconds = time.perf_counter() - start
    return figures


ROWS: list[tuple[str, Callable[[Figures], str]]] = [
    ("deals", lambda f: f"{f.deals}"),
    ("AI net chips, total", lambda f: f"{f.ai_net:+d}"),
    ("AI net per deal", lambda f: f"{f.mean:+.2f} ± {f.margin:.2f}"),
    ("AI ahead / even / behind", lambda f: f"{f.ahead}/{f.even}/{f.behind}"),
    ("AI bets+raises / calls", lambda f: f"{f.ai_raises} / {f.ai_calls}"),
    ("AI folds", lambda f: f"{f.ai_folds}"),
    ("showdowns", lambda f: f"{100 * f.showdowns / f.deals:.1f}%"),
    ("seconds", lambda f: f"{f.seconds:.1f}"),
]


def table(runs: list[Figures], players: int, stack: int) -> str:
    width = max(16, *(len(fn(f)) + 2 for f in runs for _, fn in ROWS))
    lines = [
        f"Spew AI: {players} players, stacks of {stack}, ante 5, bets 10/20",
        f"{'against':<26}" + "".join(f"{f.opponent:>{width}}" for f in runs),
    ]
    lines += [f"{label:<26}" + "".join(f"{fn(f):>{width}}" for f in runs) for label, fn in ROWS]
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=2000, help="deals per opponent")
    parser.add_argument("--players", type=int, default=2, help="seats, the AI's included")
    parser.add_argument("--stack", type=int, default=200, help="chips each seat brings")
    parser.add_argument("--opponents", nargs="+", choices=sorted(OPPONENTS),
                        default=["call", "random"])
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    runs = [run(name, args.deals, args.players, args.stack) for name in args.opponents]
    if args.json:
        setup = {"players": args.players, "stack": args.stack}
        print(json.dumps({"setup": setup, "runs": [f.summary() for f in runs]}, indent=2))
    else:
        print(table(runs, args.players, args.stack))
    return 0 if all(f.mean > 0 for f in runs) else 1


if __name__ == "__main__":
    sys.exit(main())
