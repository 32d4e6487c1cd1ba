"""Whether Hold'em Sppoker's AI wins chips, against two simple players, side by side.

Every game is one deal (blinds 5/10, four fixed-limit rounds, the sealed declaration) at a
table of the AI and one opponent (or more with --players), each bringing the same stack; the
AI's seat and the button rotate so that position favours nobody. The opponents:

- call: never folds and never raises (checks or calls), and declares as the AI does, so only
  the betting differs;
- random: picks uniformly among the legal actions, declarations included (a word, when its
  declaration needs one, is the longest its letters make, or none), as a player pressing
  buttons at random would.

Words are judged by a WordListDictionary of the finder's candidates (the bot's list for
en_US, built from the installed dictionary and cached in the data directory). A deal is
zero-sum, so the AI's net is what the opponents lose; it should be ahead on average against
both, by more than the 95% margin printed beside the mean.

    .venv/bin/python bench/holdem_sppoker_ai.py                 # 2,000 deals per opponent
    .venv/bin/python bench/holdem_sppoker_ai.py --deals 500 --players 4
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.settings import load_settings
from bot.wordlists import load
from engine.game import Action
from engine.games.holdem_sppoker import HoldemSppoker
from engine.words import WordFinder, WordListDictionary

Policy = Callable[[HoldemSppoker, int, random.Random], Action]


def always_call(game: HoldemSppoker, seat: int, rng: random.Random) -> Action:
    if game.phase == "declare":
        return game.ai_action(seat, rng)
    names = {action.name for action in game.legal_actions(seat)}
    return Action("call" if "call" in names else "check")


def uniform(game: HoldemSppoker, seat: int, rng: random.Random) -> Action:
    action = rng.choice(game.legal_actions(seat))
    if None in action.args:
        word = game.finder.best_word(game.view(seat).letters) or ""
        action = Action(action.name, (action.args[0], word))
    return action


OPPONENTS: dict[str, Policy] = {"call": always_call, "random": uniform}


def run(name: str, deals: int, players: int, stack: int, finder: WordFinder) -> str:
    opponent = OPPONENTS[name]
    net = net_sq = ahead = showdowns = 0
    timing: list[float] = []
    start = time.perf_counter()
    for n in range(deals):
        ai_seat = n % players
        options = {"stacks": [stack] * players, "button": (n // players) % players}
        game = HoldemSppoker([f"P{i}" for i in range(players)], options, random.Random(n),
                             dictionary=finder.dictionary, finder=finder)
        rng = random.Random(n ^ 0x5EED)
        while not game.is_over:
            seat = min(game.to_act)
            if seat == ai_seat:
                began = time.perf_counter()
                action = game.ai_action(seat, rng)
                timing.append(time.perf_counter() - began)
            else:
                action = opponent(game, seat, rng)
            game.apply(seat, action)
        assert game.result is not None and game.showdown is not None
        won = game.result.chips[ai_seat]
        net += won
        net_sq += won * won
        ahead += won > 0
        showdowns += game.showdown["lone"] is None
    seconds = time.perf_counter() - start
    mean = net / deals
    variance = (net_sq - deals * mean**2) / max(1, deals - 1)
    margin = 1.96 * math.sqrt(max(variance, 0.0) / deals)
    timing.sort()
    return (f"against {name:<7} {deals} deals: AI net {net:+d}, {mean:+.2f} ± {margin:.2f} a "
            f"deal, ahead in {100 * ahead / deals:.0f}%, showdowns {100 * showdowns / deals:.0f}%"
            f"; AI decision mean {1000 * sum(timing) / len(timing):.1f} ms, p99 "
            f"{1000 * timing[int(len(timing) * 0.99)]:.1f} ms; {seconds:.0f} s")


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=2000, help="deals per opponent")
    parser.add_argument("--players", type=int, default=2, help="seats, the AI's included")
    parser.add_argument("--stack", type=int, default=200, help="chips each seat brings")
    parser.add_argument("--opponents", nargs="+", choices=sorted(OPPONENTS),
                        default=["call", "random"])
    args = parser.parse_args()
    words = load("en_US", load_settings().data_dir)
    dictionary = WordListDictionary(words)
    finder = WordFinder(words, dictionary)
    print(f"Hold'em Sppoker AI: {args.players} players, stacks of {args.stack}, "
          "blinds 5/10, bets 10/20")
    for name in args.opponents:
        print(run(name, args.deals, args.players, args.stack, finder))
    return 0


if __name__ == "__main__":
    sys.exit(main())
