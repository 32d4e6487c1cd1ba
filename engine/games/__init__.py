"""One package per game; importing this package registers every game in `GAMES`.

A game's package (`engine.games.<game>`) holds its rules and whatever only it uses; what
several games share lives beside `engine.games`: `engine.chips` for the chip games,
`engine.tricks` for the trick games. Each package registers its games when imported (its
`__init__` imports its rules, whose classes carry `@register`), and this package imports
every package in its folder, in name order: adding a built-in game is its package alone, with
no list here to edit. A game from outside the repository registers itself the same way when
its plug-in is loaded (bot/plugins.py).
"""

import importlib
import pkgutil

from engine.games.registry import GAMES, register

__all__ = ["GAMES", "register"]


def _import_game_packages() -> None:
    """Import every game package beside this module (sorted, so the registration order, and
    with it `GAMES`'s, is the same on every machine)."""
    for found in sorted(pkgutil.iter_modules(__path__), key=lambda module: module.name):
        if found.ispkg:
            importlib.import_module(f"{__name__}.{found.name}")


_import_game_packages()
