"""One plug-in per game: everything the application needs of a game beside its rules,
declared together in the game's cog module (`PLUGINS = (GamePlugin(...), ...)`) and
registered explicitly at start-up by `install_plugins`, never as a side effect of an import.

A `GamePlugin` names the rules class, how its views look (`Renderer`), the cog module with
its commands and the command group that opens it, its message catalogue (`CatalogueDomain`:
which source files, where its `.po` files live, whether its Swedish is complete), the folder
of its rules pages and the options that keep a game short for the tests (`test_options`).
The bot and its tools read all that from the plug-ins: the catalogue tool (`bot.catalogues`)
and the completeness test, the catalogues read at start-up (`bot.present.i18n.load`), the
`/<game> rules` pages (`cogs.common.rules_path`), `/help` (`cogs.help`), the conformance and
replay tests (`tests/support/play.py`).

Adding a game (README's "Adding a game" has every step):

- a **built-in** game is its package `engine/games/<game>/` (found by `engine.games` itself)
  and a cog module `cogs/<game>.py` with its `/game start` and `/game rules` commands, its
  `Renderer` and `PLUGINS`, listed in `PLUGIN_MODULES` below: that one line;
- a game from **outside the repository** is an installed distribution whose entry point in
  the group `dealers_choice.games` names its plug-in module (a module with `PLUGINS`, whose
  cog is its `extension`), e.g. in its `pyproject.toml`:

      [project.entry-points."dealers_choice.games"]
      toy_high_card = "toy_high_card.plugin"

  Its rules class registers itself with `engine.games.register`, its catalogue and rules
  pages live in its own folders (`CatalogueDomain(root=..., locale=...)`, `rules_dir`).

The conformance suite then covers it.
"""

from __future__ import annotations

import importlib
import importlib.metadata
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bot.present import i18n
from bot.present.render import AnyRenderer, use_renderers
from engine.game import Game

PLUGIN_MODULES = ("cogs.sppoker", "cogs.trick_games", "cogs.chip_games", "cogs.high_low_games",
                  "cogs.pokeno")
"""The built-in games' plug-in modules (adding a built-in game: one line here)."""
ENTRY_POINTS = "dealers_choice.games"
"""The entry-point group of games installed from outside: each names a plug-in module."""
RULES_DIR = i18n.ROOT / "docs" / "rules"
"""Where the built-in games' rules pages are (`<kind>.md`, translations in `<locale>/`)."""


@dataclass(frozen=True)
class CatalogueDomain:
    """A message catalogue (a gettext domain): the source files its sentences are extracted
    from (globs relative to `root`), the folder its templates and translations live in
    (`<locale>/<lang>/LC_MESSAGES/<name>.po`, relative to `root`) and whether its Swedish is
    declared complete, which tests/bot/test_i18n.py then holds it to. A game outside the
    repository keeps its catalogue in its own package: `root` its folder."""

    name: str
    sources: tuple[str, ...]
    root: Path = i18n.ROOT
    locale: str = "data/locale"
    complete: bool = False

    @property
    def locale_dir(self) -> Path:
        return self.root / self.locale

    def files(self) -> list[Path]:
        """The source files its globs match, each once, in a stable order."""
        return sorted({path for pattern in self.sources for path in self.root.glob(pattern)})


@dataclass(frozen=True)
class GamePlugin:
    """What the application needs of one game beside its rules (see the module's text)."""

    game: type[Game]
    renderer: AnyRenderer  # generic over the game's views; checked where it is built
    extension: str  # the cog module that holds the game's commands
    # The command group that opens it (`/<command> start`), under which /help lists it; None
    # for a game another group opens (Po-Ke-No's solitaire: `/pokeno solitaire`).
    command: str | None = None
    catalogue: CatalogueDomain | None = None  # None: its texts are in the bot's catalogue
    rules_dir: Path = RULES_DIR  # its rules pages: <kind>.md, and <locale>/<kind>.md
    # Options that keep a game short enough for the tests to play it to the end many times,
    # by the number of seats (a chip game's stacks, a low target); None: its defaults.
    test_options: Callable[[int], dict[str, Any]] | None = None

    @property
    def kind(self) -> str:
        return self.game.kind


def plugin_modules() -> tuple[str, ...]:
    """The built-in plug-in modules, then those installed distributions name by entry point
    (sorted by name, so every process loads them in one order)."""
    found = sorted(importlib.metadata.entry_points(group=ENTRY_POINTS), key=lambda e: e.name)
    installed = [entry.module for entry in found if entry.module not in PLUGIN_MODULES]
    return (*PLUGIN_MODULES, *dict.fromkeys(installed))


def load_plugins(modules: Iterable[str] | None = None) -> dict[str, GamePlugin]:
    """Every plug-in of `modules` (by default `plugin_modules()`: the built-in ones and the
    installed ones) by its game's kind; two claiming one kind is an error."""
    plugins: dict[str, GamePlugin] = {}
    for name in plugin_modules() if modules is None else modules:
        for plugin in importlib.import_module(name).PLUGINS:
            if plugin.kind in plugins:
                raise ValueError(f"two plug-ins claim the game {plugin.kind!r}")
            plugins[plugin.kind] = plugin
    return plugins


def catalogue_domains(plugins: Mapping[str, GamePlugin]) -> dict[str, CatalogueDomain]:
    """The catalogues the plug-ins declare, by name: games that share one (Poängpoker and
    Chicago) declare the same, and two different ones under one name are an error."""
    domains: dict[str, CatalogueDomain] = {}
    for plugin in plugins.values():
        domain = plugin.catalogue
        if domain is None:
            continue
        if domains.setdefault(domain.name, domain) != domain:
            raise ValueError(f"two plug-ins declare different catalogues {domain.name!r}")
    return domains


_installed: dict[str, GamePlugin] = {}


def install_plugins(modules: Iterable[str] | None = None) -> dict[str, GamePlugin]:
    """Load the plug-ins and put them in use: their renderers are the ones tables are drawn
    with, their rules pages the ones `/<game> rules` shows, and a catalogue of their own
    (outside data/locale) is read with the bot's."""
    plugins = load_plugins(modules)
    use_renderers({kind: plugin.renderer for kind, plugin in plugins.items()})
    before, own = _own_locale_dirs(_installed), _own_locale_dirs(plugins)
    _installed.clear()
    _installed.update(plugins)
    if own or before:  # read again only when a plug-in's own catalogue comes or goes
        i18n.load(more=own)
    return plugins


def _own_locale_dirs(plugins: Mapping[str, GamePlugin]) -> list[Path]:
    """The catalogue folders of these plug-ins that are not the bot's own data/locale."""
    return sorted({domain.locale_dir for domain in catalogue_domains(plugins).values()}
                  - {i18n.LOCALE_DIR})


def rules_folder(kind: str) -> Path:
    """The folder of a game's rules pages: its installed plug-in's, else the built-in one."""
    plugin = _installed.get(kind)
    return plugin.rules_dir if plugin is not None else RULES_DIR
