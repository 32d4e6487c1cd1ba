"""A game from outside the repository is one installed distribution with an entry point
(bot/plugins.py): the bot's tools and the tests find it from its plug-in alone. With Toy High
Card (docs/examples/toy-high-card) installed in a temporary folder, the plug-in loader, the
catalogue tool, the catalogues read at start-up, the rules pages and the conformance helpers
all pick it up; and the built-in games are found with no list to edit.

The end-to-end run of the same game through the real bot is tests/e2e/test_toy_game.py."""

from __future__ import annotations

import importlib
import random
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

import engine.games
from bot import catalogues
from bot.plugins import (
    PLUGIN_MODULES,
    CatalogueDomain,
    GamePlugin,
    catalogue_domains,
    install_plugins,
    load_plugins,
    plugin_modules,
)
from bot.present import i18n
from bot.present.render import Renderer, renderer_for
from cogs.common import RULES_DIR, rules_embeds, rules_path
from engine.games import GAMES
from engine.i18n import msg
from engine.replay import LoggedAction, replay
from tests.support.play import (
    awaited,
    copy_of,
    engine_kinds,
    extras,
    names,
    new_game,
    options_for,
    random_action,
)
from tests.support.toy import KIND, PACKAGE, write_distribution


@pytest.fixture
def toy(tmp_path: Path) -> Iterator[Path]:
    """Toy High Card installed for this test (its folder on `sys.path`), and gone after it:
    no module, registered game, plug-in or catalogue of it stays for the next test."""
    folder = str(write_distribution(tmp_path / "site"))
    games = dict(GAMES)
    sys.path.insert(0, folder)
    importlib.invalidate_caches()
    try:
        yield tmp_path / "site" / PACKAGE
    finally:
        sys.path.remove(folder)
        for name in [name for name in sys.modules if name.split(".")[0] == PACKAGE]:
            del sys.modules[name]
        GAMES.clear()
        GAMES.update(games)
        importlib.invalidate_caches()
        install_plugins()  # the built-in plug-ins alone again, the bot's catalogues alone


def test_every_game_package_registers_itself() -> None:
    """engine.games imports its game packages itself: each built-in game is registered, and
    each package under engine/games holds at least one of them."""
    folder = Path(engine.games.__file__ or "").parent
    packages = {path.name for path in folder.iterdir() if (path / "__init__.py").exists()}
    homes = {cls.__module__.split(".")[2] for cls in GAMES.values()
             if cls.__module__.startswith("engine.games.")}
    assert packages == homes
    assert set(engine_kinds()) <= set(GAMES)


def test_an_entry_point_brings_a_game_from_outside(toy: Path) -> None:
    assert plugin_modules() == (*PLUGIN_MODULES, f"{PACKAGE}.plugin")
    plugins = load_plugins()
    plugin = plugins[KIND]
    assert plugin.game is GAMES[KIND] and plugin.extension == f"{PACKAGE}.plugin"
    assert plugin.rules_dir == toy / "rules"
    assert set(plugins) - {KIND} == set(load_plugins(PLUGIN_MODULES))


def test_the_catalogue_tool_extracts_a_plugins_catalogue_into_its_own_folder(
        toy: Path) -> None:
    every = catalogues.domains()
    domain = every[KIND]
    assert domain.locale_dir == toy / "locale" and domain.complete
    assert KIND in catalogues.domains(load_plugins())
    found = catalogues.extract(KIND, every)
    assert {"{name} keeps their card.", "Keep", "Swap", "Toy High Card",
            "Your card is {card}. Keep it, or swap it for the top card of the stock?"} <= set(found)
    assert "Show my hand" not in found  # the bot's sentences are the bot's catalogue's
    shipped = (domain.locale_dir / f"{KIND}.pot").read_text(encoding="utf-8")
    (domain.locale_dir / f"{KIND}.pot").unlink()
    catalogues.write(KIND, found, domain.locale_dir)
    assert (domain.locale_dir / f"{KIND}.pot").read_text(encoding="utf-8") == shipped
    # Its Swedish catalogue is complete, as it declares: read as the bot reads it.
    swedish = i18n.Catalogue("sv")
    swedish.load(domain.locale_dir / "sv" / "LC_MESSAGES")
    assert set(found) <= set(swedish.singular)
    # The bot's own catalogues are still extracted from the repository alone.
    assert not [path for path in catalogues.source_files(every["bot"], every)
                if toy in path.parents]


def test_a_plugins_catalogue_name_is_its_own() -> None:
    game = GAMES["poke"]
    taken = CatalogueDomain("bot", ("cogs/trick_games.py",))
    with pytest.raises(ValueError, match="'bot'"):
        catalogues.domains({"poke": GamePlugin(game, Renderer(), "cogs.trick_games",
                                               catalogue=taken)})
    one, other = CatalogueDomain("x", ("a.py",)), CatalogueDomain("x", ("b.py",))
    with pytest.raises(ValueError, match="'x'"):
        catalogue_domains({"poke": GamePlugin(game, Renderer(), "m", catalogue=one),
                           "chicago": GamePlugin(GAMES["chicago"], Renderer(), "m",
                                                 catalogue=other)})


def test_installed_its_renderer_catalogue_and_rules_pages_are_in_use(toy: Path) -> None:
    plugins = install_plugins()
    assert renderer_for(KIND) is plugins[KIND].renderer
    assert i18n.render(msg("{name} keeps their card.", name="Bo"), "sv") == \
        "Bo behåller sitt kort."
    assert i18n.render(msg("Deal {n} is dealt.", n=2), "sv") == "Giv 2 är utdelad."  # the bot's
    i18n.load()  # read again (as tests do after changing a catalogue): its folder stays
    assert i18n.render("Toy High Card", "sv") == "Högsta kortet (leksak)"
    assert rules_path(KIND, "sv") == toy / "rules" / "sv" / f"{KIND}.md"
    assert rules_path(KIND, "en") == toy / "rules" / f"{KIND}.md"
    assert rules_path("poke", "sv") == RULES_DIR / "sv" / "poke.md"
    for path, title in ((rules_path(KIND, "en"), "Toy High Card"),
                        (rules_path(KIND, "sv"), "Högsta kortet (leksak)")):
        [batch] = rules_embeds(path.read_text(encoding="utf-8"), title)
        assert batch[0].title == title and len(batch) == 4  # the title, three sections


def test_the_conformance_helpers_play_a_plugins_game(toy: Path) -> None:
    """Found among the games the tests play (`engine_kinds`), with its plug-in's options (none:
    its defaults), and played to the end at every seat count: every step survives its
    snapshot, and the moves replay to the same game."""
    assert KIND in engine_kinds()
    cls = GAMES[KIND]
    for seats in range(cls.min_seats, cls.max_seats + 1):
        assert options_for(KIND, seats) == {}
        for seed in (1, 2, 3):
            game = new_game(KIND, seats, seed)
            rng, ai_rng = random.Random(seed), random.Random(-seed)
            log: list[LoggedAction] = []
            while not game.is_over:
                assert copy_of(game).to_dict() == game.to_dict()
                seat = rng.choice(awaited(game))
                action = random_action(game, seat, rng, ai_rng)
                game.apply(seat, action)
                log.append(LoggedAction(seat, action))
                assert len(log) <= seats
            assert game.result is not None and len(game.result.places) == seats
            again = replay(KIND, names(seats), {}, seed, log, **extras(cls))
            assert again.to_dict() == game.to_dict()
