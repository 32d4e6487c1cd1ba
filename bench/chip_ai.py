"""Whether the fixed-limit chip games' AI wins chips against two simple players, side by side:
Badugi, Spew, Hold'em Sppoker, Old Man 49er and Zero to 55.

Every game is one deal at a table of the AI and one opponent (or more with --players), each
bringing the same stack; the AI's seat and the button rotate so that position favours nobody.
The opponents:

- call: never folds and never raises (checks or calls), and draws, orders and declares as the
  AI does, so only the betting differs;
- random: picks uniformly among the legal actions at every step (draws, reveal orders,
  declarations and bets), as a player pressing buttons at random would. A Hold'em Sppoker
  spelling declaration gets the longest word its letters make, or none.

A deal is zero-sum, so the AI's net is what the opponents lose: the AI should be ahead on
average against each, by more than the 95% margin printed beside the mean. Hold'em Sppoker's
words are judged by the finder's own list for en_US (the bot's list, built from the installed
dictionary and cached in the data directory). The exit code is 1 when the AI is not ahead.

    .venv/bin/python bench/chip_ai.py                         # 2,000 deals a game and opponent
    .venv/bin/python bench/chip_ai.py --games badugi spew --deals 500 --players 4 --json
"""

from __future__ import annotations

import argparse
import functools
import json
import math
import random
import sys
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.chips.deal import ChipDeal
from engine.game import Action
from engine.games import GAMES
from engine.games.holdem_sppoker.rules import HoldemSppoker
from engine.words import WordFinder, WordListDictionary

KINDS = ("badugi", "spew", "holdem_sppoker", "old_man_49er", "zero_to_55")
Policy = Callable[[ChipDeal, int, random.Random], Action]


@functools.cache
def finder() -> WordFinder:
    from bot.settings import load_settings
    from bot.wordlists import load

    words = load("en_US", load_settings().data_dir)
    return WordFinder(words, WordListDictionary(words))


def deal(kind: str, players: int, stack: int, n: int) -> ChipDeal:
    """Deal `n`: the button at seat (n // players) % players, the deck shuffled by n."""
    names = [f"P{i}" for i in range(players)]
    options = {"stacks": [stack] * players, "button": (n // players) % players}
    if kind == HoldemSppoker.kind:
        words = finder()
        return HoldemSppoker(names, options, random.Random(n), dictionary=words.dictionary,
                             finder=words)
    game = GAMES[kind](names, options, random.Random(n))
    assert isinstance(game, ChipDeal)
    return game


def always_call(game: ChipDeal, seat: int, rng: random.Random) -> Action:
    if game.phase != "bet":
        return game.ai_action(seat, rng)
    names = {action.name for action in game.legal_actions(seat)}
    return Action("call" if "call" in names else "check")


def uniform(game: ChipDeal, seat: int, rng: random.Random) -> Action:
    action = rng.choice(game.legal_actions(seat))
    if isinstance(game, HoldemSppoker) and None in action.args:
        word = game.finder.best_word(game.view(seat).letters) or ""
        action = Action(action.name, (action.args[0], word))
    return action


OPPONENTS: dict[str, Policy] = {"call": always_call, "random": uniform}


@dataclass
class Figures:
    """What one game against one opponent gave, from the AI's side."""

    game: str
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
    decisions: list[float] = field(default_factory=list)

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

    @property
    def decision_ms(self) -> tuple[float, float]:
        """The AI's mean and 99th-percentile time to decide, in milliseconds."""
        times = sorted(self.decisions)
        return 1000 * sum(times) / len(times), 1000 * times[int(len(times) * 0.99)]

    def summary(self) -> dict[str, float | int | str]:
        figures = asdict(self)
        del figures["ai_net_sq"], figures["decisions"]  # only for the margin and the timing
        mean_ms, p99_ms = self.decision_ms
        return {
            **figures,
            "ai_net_per_deal": round(self.mean, 3),
            "margin_95": round(self.margin, 3),
            "ahead_share": round(self.ahead / self.deals, 4),
            "decision_mean_ms": round(mean_ms, 2),
            "decision_p99_ms": round(p99_ms, 2),
            "seconds": round(self.seconds, 2),
        }


def play_one(figures: Figures, players: int, stack: int, n: int) -> None:
    ai_seat = n % players
    game = deal(figures.game, players, stack, n)
    opponent = OPPONENTS[figures.opponent]
    rng = random.Random(n ^ 0x5EED)
    while not game.is_over:
        seat = min(game.to_act)  # one at a time, even while declaring
        if seat == ai_seat:
            began = time.perf_counter()
            action = game.ai_action(seat, rng)
            figures.decisions.append(time.perf_counter() - began)
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


def run(kind: str, opponent: str, deals: int, players: int, stack: int) -> Figures:
    figures = Figures(kind, opponent)
    start = time.perf_counter()
    for n in range(deals):
        play_one(figures, players, stack, n)
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
    ("AI decision mean / p99", lambda f: "{:.1f} / {:.1f} ms".format(*f.decision_ms)),
    ("seconds", lambda f: f"{f.seconds:.1f}"),
]


def table(runs: list[Figures], players: int, stack: int) -> str:
    width = max(16, *(len(fn(f)) + 2 for f in runs for _, fn in ROWS))
    lines = [f"Chip games' AI: {players} players, stacks of {stack}, bets 10/20"]
    for kind in dict.fromkeys(f.game for f in runs):
        mine = [f for f in runs if f.game == kind]
        lines += ["", f"{GAMES[kind].title + ', against':<26}"
                  + "".join(f"{f.opponent:>{width}}" for f in mine)]
        lines += [f"{label:<26}" + "".join(f"{fn(f):>{width}}" for f in mine)
                  for label, fn in ROWS]
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=2000, help="deals a game and opponent")
    parser.add_argument("--players", type=int, default=2, help="seats, the AI's included")
    parser.add_argument("--stack", type=int, default=200, help="chips each seat brings")
    parser.add_argument("--games", nargs="+", choices=KINDS, default=list(KINDS))
    parser.add_argument("--opponents", nargs="+", choices=sorted(OPPONENTS),
                        default=["call", "random"])
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    runs = [run(kind, name, args.deals, args.players, args.stack)
            for kind in args.games for name in args.opponents]
    if args.json:
        setup = {"players": args.players, "stack": args.stack}
        print(json.dumps({"setup": setup, "runs": [f.summary() for f in runs]}, indent=2))
    else:
        print(table(runs, args.players, args.stack))
    return 0 if all(f.mean > 0 for f in runs) else 1


if __name__ == "__main__":
    sys.exit(main())
