"""The message catalogues written from the code: `python -m bot.catalogues extract`.

It reads every marked sentence with Babel's extractor (and the slash commands' texts from the
command tree the bot builds), writes the templates (`data/locale/<domain>.pot`; a game from
outside the repository's in its own package, as its plug-in declares) and merges new entries
into every language's catalogue, untranslated, so the completeness test fails until someone
translates them. Which catalogues there are is the bot's own few (`BOT_DOMAINS`) and what the
installed plug-ins declare (`GamePlugin.catalogue`). A tool for contributors, apart from
`bot.present.i18n` (which only reads catalogues at run time), because it needs the whole bot:
its cogs and their commands.
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import discord
from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_file
from babel.messages.pofile import read_po, write_po
from discord import app_commands
from discord.ext import commands

from bot.discord.app import EXTENSIONS
from bot.plugins import PLUGIN_MODULES, CatalogueDomain, GamePlugin, catalogue_domains, load_plugins
from bot.present.i18n import DEFAULT_LOCALE, LOCALE_DIR, LOCALES

BOT_DOMAINS = (
    CatalogueDomain("bot", ("bot/**/*.py", "cogs/*.py"), complete=True),
    CatalogueDomain("cards", ("engine/cards.py", "engine/evaluator.py", "engine/tricks/play.py",
                              "engine/i18n.py", "engine/game.py"), complete=True),
    CatalogueDomain("betting", ("engine/chips/betting.py", "engine/chips/bet_prompts.py",
                                "engine/chips/pots.py", "engine/chips/deal.py",
                                "engine/chips/draw.py"), complete=True),
    # The web pages (issue 25): their Python and their templates (Babel's Jinja2 extractor).
    CatalogueDomain("web", ("web/*.py", "web/templates/*.html"), complete=True),
    # Tournaments' refusals (issue 26): the engine's pairing and organiser steps.
    CatalogueDomain("tournaments", ("engine/tournaments/*.py",), complete=True),
)
"""The bot's own catalogues: the bot and its cogs (a cog file a game's own catalogue claims
is left to it), and what every game shares: cards, hands and tricks, the chip games' betting.
Each game's catalogue is its plug-in's (`GamePlugin.catalogue`)."""


def domains(plugins: Mapping[str, GamePlugin] | None = None) -> dict[str, CatalogueDomain]:
    """Every catalogue by name: the bot's own, then those the plug-ins declare (by default
    the installed ones, built-in and from entry points). `commands` (the slash commands'
    texts) is read from the command tree instead (`command_msgids`)."""
    found = {domain.name: domain for domain in BOT_DOMAINS}
    for name, domain in catalogue_domains(load_plugins() if plugins is None else plugins).items():
        if name in found:
            raise ValueError(f"a plug-in's catalogue takes the bot's own name {name!r}")
        found[name] = domain
    return found


DOMAINS = domains()
"""Each catalogue's source files, where it lives, and whether it is complete in Swedish."""
COMPLETE = ("bot", "commands", *(name for name, domain in DOMAINS.items()
                                 if domain.complete and name != "bot"))
"""The catalogues declared complete in Swedish: tests/bot/test_i18n.py holds them to every entry."""


def source_files(domain: CatalogueDomain, every: Mapping[str, CatalogueDomain]) -> list[Path]:
    """A catalogue's source files; for the bot's own, without those a game's catalogue
    claims (a game's cog module whose sentences its own catalogue holds, cogs/pokeno.py)."""
    own = {bot_domain.name for bot_domain in BOT_DOMAINS}
    if domain.name not in own:
        return domain.files()
    claimed = {path for other in every.values() if other.name not in own
               for path in other.files()}
    return [path for path in domain.files() if path not in claimed]


def commands_entries(tree: Any) -> list[tuple[str, str]]:
    """Every text of the command tree Discord shows, as (msgid, what it is): names (prefixed,
    see `translate_command`), descriptions, parameter names and descriptions, choices."""
    entries: list[tuple[str, str]] = []

    def add(msgid: str, where: str) -> None:
        if msgid and (msgid, where) not in entries:
            entries.append((msgid, where))

    def walk(command: Any, path: str) -> None:
        add(f"name: {command.name}", f"{path} name")
        if getattr(command, "description", ""):
            add(str(command.description), f"{path} description")
        if isinstance(command, app_commands.Group):
            for child in command.commands:
                walk(child, f"{path} {child.name}")
            return
        for parameter in command.parameters:
            add(f"name: {parameter.name}", f"{path} {parameter.name}")
            add(str(parameter.description), f"{path} {parameter.name} description")
            if parameter.name == "dictionary":  # language tags, the same in any language
                continue
            for choice in parameter.choices:
                add(str(choice.name), f"{path} {parameter.name} choice")

    for command in tree.get_commands():
        walk(command, f"/{command.name}")
    return [(msgid, where) for msgid, where in entries if msgid != "…"]


def extract(domain: str | CatalogueDomain,
            every: Mapping[str, CatalogueDomain] | None = None) -> dict[str, tuple[str, ...]]:
    """The msgids of a catalogue's source files, by Babel's extractor: msgid -> plural ids.
    `domain` by name is one of `every` (by default the installed plug-ins' and the bot's)."""
    every = domains() if every is None else every
    if isinstance(domain, str):
        domain = every[domain]
    keywords = {"msg": None, "msg_n": (1, 2), "N_": None, "t": None, "t_n": (1, 2),
                "TableError": None, "IllegalAction": None}
    found: dict[str, tuple[str, ...]] = {}
    for path in source_files(domain, every):
        method = "jinja2.ext:babel_extract" if path.suffix == ".html" else "python"
        for _line, message, _comments, _context in extract_from_file(
            method, str(path), keywords=keywords,
            comment_tags=(), strip_comment_tags=True,
        ):
            if isinstance(message, tuple | list):
                if message[0]:
                    found[str(message[0])] = tuple(str(m) for m in message if m)
            elif message:
                found[str(message)] = (str(message),)
    return found


def write(domain: str, entries: Mapping[str, tuple[str, ...]],
          locale_dir: Path = LOCALE_DIR) -> None:
    """A catalogue's template (`<locale_dir>/<domain>.pot`) from `entries`, and each
    language's catalogue brought in line with it: new entries added untranslated, entries
    gone from the code removed, translations kept."""
    template = Catalog(project="dealers-choice", domain=domain)
    for msgid, ids in entries.items():
        template.add(ids if len(ids) > 1 else msgid)
    locale_dir.mkdir(parents=True, exist_ok=True)
    with (locale_dir / f"{domain}.pot").open("wb") as handle:
        write_po(handle, template, omit_header=True, sort_output=True, width=100)
    for locale in LOCALES:
        if locale == DEFAULT_LOCALE:
            continue
        path = locale_dir / locale / "LC_MESSAGES" / f"{domain}.po"
        path.parent.mkdir(parents=True, exist_ok=True)
        if path.exists():
            with path.open("rb") as handle:
                existing = read_po(handle, locale=locale)
        else:
            existing = Catalog(locale=locale, domain=domain)
        for message in template:
            if message.id and message.id not in existing:
                existing.add(message.id, ("", "") if isinstance(message.id, tuple) else "")
        for message in list(existing):
            if message.id and message.id not in template:  # gone from the code
                existing.delete(message.id)
        with path.open("wb") as handle:
            write_po(handle, existing, omit_header=True, sort_output=True, width=100,
                     ignore_obsolete=False)


async def commands_bot() -> commands.Bot:
    """A bot, never connected, with every cog the real one loads (its own and the built-in
    games'): its command tree is the one the bot syncs, read here for the catalogue and by
    the tests of the commands."""
    bot = commands.Bot(command_prefix="!", intents=discord.Intents.none())
    for module in (*PLUGIN_MODULES, *EXTENSIONS):
        await bot.load_extension(module)
    return bot


def command_msgids() -> dict[str, tuple[str, ...]]:
    """The slash commands' texts, read from the command tree the bot builds: its own cogs'
    and the built-in games'. A game from outside the repository is none of the bot's: its
    title, among the choices of commands that name every game (`/leaderboard game:`) once it
    is loaded, is its own catalogue's."""
    async def build() -> list[tuple[str, str]]:
        return commands_entries((await commands_bot()).tree)

    outside = {plugin.game.title for plugin in load_plugins().values()
               if plugin.extension not in PLUGIN_MODULES}
    return {msgid: (msgid,) for msgid, _ in asyncio.run(build()) if msgid not in outside}


def extract_all(every: Mapping[str, CatalogueDomain] | None = None) -> None:
    """Every catalogue written from the code: each in its own folder (a game's from outside
    the repository in its package)."""
    every = domains() if every is None else every
    for domain in every.values():
        write(domain.name, extract(domain, every), domain.locale_dir)


def main(argv: list[str]) -> int:
    if argv[:1] != ["extract"]:
        print("usage: python -m bot.catalogues extract")
        return 2
    extract_all()
    write("commands", command_msgids())
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
