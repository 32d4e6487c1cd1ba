"""Random play of any registered game, for the conformance and replay tests: one way to
build a game, to copy it through its snapshot, and to pick a random action a real table
could send (any listed legal action, a free-text one filled in, the AI's move, a timeout).

Sppoker takes its dictionary as a constructor argument; tests give it a small word list so
no system dictionary or word source is needed (`extras` finds such arguments by name)."""

from __future__ import annotations

import inspect
import random
from collections.abc import Callable, Mapping
from typing import Any

from engine.game import TIMEOUT, Action, Game
from engine.games import GAMES
from engine.replay import build
from engine.words import WordFinder, WordListDictionary

WORDS = ["at", "to", "tea", "eat", "rate", "tear", "stare", "no", "on", "one", "nose", "sip"]
DICTIONARY = WordListDictionary(WORDS)
FINDER = WordFinder(WORDS, DICTIONARY)
FILLERS = ("at", "tea", "stare", "qzx", "")

# Options that keep a game short enough to play to the end many times (Chicago from 40
# points: random calls fail, and a game from 0 can take thousands of steps).
SHORT: dict[str, Callable[[int], dict[str, Any]]] = {
    "sppoker": lambda seats: {"target": 3, "ai_skill": 0},
    "chicago": lambda seats: {"start_scores": [40] * seats},
    "red_dog": lambda seats: {"stacks": [20] * seats},  # a chip game: its table gives stacks
    # Short stacks beside deep ones, so that all-ins and side pots happen in random play.
    "badugi": lambda seats: {"stacks": [200, 23, 120, 9, 64, 41][:seats], "button": seats - 1},
    "old_man_49er": lambda seats: {"stacks": [150, 31, 90, 12, 64, 47, 200][:seats]},
    "spew": lambda seats: {"stacks": [200, 23, 120, 9, 64, 41, 150, 17][:seats],
                           "button": seats - 1},
    # Short stacks beside deep ones (all-ins, side pots), the button on the last seat.
    "holdem_sppoker": lambda seats: {"stacks": [150, 27, 90, 12, 64, 200, 45, 33][:seats],
                                     "button": seats - 1},
    "zero_to_55": lambda seats: {"stacks": [120, 40, 200, 14, 75, 33, 9][:seats],
                                 "button": seats - 1, "draw_fee": 2 * (seats % 2)},
    "dealers_choice": lambda seats: {"stacks": [30 + 7 * seat for seat in range(seats)]},
    "pokeno": lambda seats: {"target": 60},
}


def engine_kinds() -> list[str]:
    """The games the engine registers (a test may register a test double; it is no game
    the bot hosts)."""
    return sorted(kind for kind, cls in GAMES.items() if cls.__module__.startswith("engine."))


def extras(method: Callable[..., Any]) -> dict[str, Any]:
    """The word list for a constructor or `from_dict` that accepts one."""
    params = inspect.signature(method).parameters
    out: dict[str, Any] = {}
    if "dictionary" in params:
        out["dictionary"] = DICTIONARY
    if "finder" in params:
        out["finder"] = FINDER
    return out


def options_for(kind: str, seats: int) -> dict[str, Any]:
    short = SHORT.get(kind)
    return short(seats) if short else {}


def names(count: int) -> list[str]:
    return [f"P{n}" for n in range(count)]


def new_game(kind: str, seats: int, seed: int, options: Mapping[str, Any] | None = None) -> Game:
    cls = GAMES[kind]
    opts = options_for(kind, seats) if options is None else dict(options)
    return build(cls, names(seats), opts, seed, **extras(cls))


def copy_of(game: Game) -> Game:
    """The game rebuilt from its snapshot."""
    cls = type(game)
    return cls.from_dict(game.to_dict(), **extras(cls.from_dict))


def awaited(game: Game) -> list[int]:
    """The seats a table would take input from now: those to act, or (between hands, when
    nobody must act) any seat offered something or any seat a clock runs for."""
    if game.to_act:
        return sorted(game.to_act)
    offered = [s for s in range(len(game.seats)) if game.prompt(s) is not None]
    clocked = sorted({s for spec in game.timers() for s in spec.seats})
    return offered or clocked


def fill(action: Action, rng: random.Random) -> Action:
    """A free-text action (listed with a None placeholder) with some text typed in."""
    if None not in action.args:
        return action
    return Action(action.name, tuple(rng.choice(FILLERS) if a is None else a for a in action.args))


def random_action(
    game: Game, seat: int, rng: random.Random, ai_rng: random.Random, ai_share: float = 0.7
) -> Action:
    """What a table might apply for `seat`: the AI's move (`ai_share` of the time, so games
    progress as real ones do: purely random Chicago calls and fails for ever), else a listed
    legal action, sometimes a timeout (only for a seat a clock could run out for)."""
    roll = rng.random()
    clocked = seat in game.to_act or any(seat in spec.seats for spec in game.timers())
    if clocked and roll < 0.1:
        return TIMEOUT
    legal = game.legal_actions(seat)
    if legal and roll > ai_share:
        return fill(rng.choice(legal), rng)
    return game.ai_action(seat, ai_rng)
