"""Random play of any registered game, for the conformance and replay tests: one way to
build a game, to copy it through its snapshot, and to pick a random action a real table
could send (any listed legal action, a free-text one filled in, the AI's move, a timeout).
The games are the installed plug-ins' (bot/plugins.py), each with the options its plug-in
gives to keep it short (`GamePlugin.test_options`).

Sppoker takes its dictionary as a constructor argument; tests give it a small word list so
no system dictionary or word source is needed (`extras` finds such arguments by name)."""

from __future__ import annotations

import functools
import inspect
import random
import sys
from collections.abc import Callable, Mapping
from typing import Any

from bot.plugins import GamePlugin, load_plugins
from engine.game import TIMEOUT, Action, Game
from engine.games import GAMES
from engine.replay import build
from engine.words import WordFinder, WordListDictionary

WORDS = ["at", "to", "tea", "eat", "rate", "tear", "stare", "no", "on", "one", "nose", "sip"]
DICTIONARY = WordListDictionary(WORDS)
FINDER = WordFinder(WORDS, DICTIONARY)
FILLERS = ("at", "tea", "stare", "qzx", "")


def plugins() -> dict[str, GamePlugin]:
    """The installed plug-ins (bot.plugins: the built-in games and those of entry points)."""
    return dict(_plugins_on(tuple(sys.path)))


@functools.lru_cache(maxsize=8)
def _plugins_on(path: tuple[str, ...]) -> Mapping[str, GamePlugin]:
    """The plug-ins found with this `sys.path`: an entry point comes with a folder on it (a
    test's temporary distribution), so the path is what the answer depends on."""
    return load_plugins()


def engine_kinds() -> list[str]:
    """The games the bot hosts: every installed plug-in's (a test may register a test double
    in `GAMES`; it is no game the bot hosts)."""
    return sorted(plugins())


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
    """Options that keep a game short enough to play to the end many times: its plug-in's
    `test_options` (a chip game's stacks, a low target), else its defaults."""
    plugin = plugins().get(kind)
    short = plugin.test_options if plugin is not None else None
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
