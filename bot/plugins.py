"""One plug-in per game: its rules class, how it looks, its commands and its rules page,
declared together in the game's cog module (`PLUGINS = (GamePlugin(...), ...)`) and
registered explicitly at start-up by `install_plugins`, never as a side effect of an import.

Adding a game: write its package `engine/games/<game>/` (its rules class in `rules.py`), then
a cog module with its `/game start` and `/game rules` commands, its `Renderer` and `PLUGINS`;
list the module in `PLUGIN_MODULES` (README's "Adding a game" has every step). The conformance
suite then covers it.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable
from dataclasses import dataclass

from bot.present.render import Renderer, use_renderers
from engine.game import Game

PLUGIN_MODULES = ("cogs.sppoker", "cogs.trick_games", "cogs.chip_games", "cogs.high_low_games",
                  "cogs.pokeno")


@dataclass(frozen=True)
class GamePlugin:
    game: type[Game]
    renderer: Renderer
    extension: str  # the cog module that holds the game's commands

    @property
    def kind(self) -> str:
        return self.game.kind


def load_plugins(modules: Iterable[str] = PLUGIN_MODULES) -> dict[str, GamePlugin]:
    plugins: dict[str, GamePlugin] = {}
    for name in modules:
        for plugin in importlib.import_module(name).PLUGINS:
            if plugin.kind in plugins:
                raise ValueError(f"two plug-ins claim the game {plugin.kind!r}")
            plugins[plugin.kind] = plugin
    return plugins


def install_plugins(modules: Iterable[str] = PLUGIN_MODULES) -> dict[str, GamePlugin]:
    """Load the plug-ins and make their renderers the ones tables are drawn with."""
    plugins = load_plugins(modules)
    use_renderers({kind: plugin.renderer for kind, plugin in plugins.items()})
    return plugins
