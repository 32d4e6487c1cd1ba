"""The message catalogues written from the code: `python -m bot.catalogues extract`.

It reads every marked sentence with Babel's extractor (and the slash commands' texts from the
command tree the bot builds), writes the templates (`data/locale/<domain>.pot`) and merges new
entries into every language's catalogue, untranslated, so the completeness test fails until
someone translates them. A tool for contributors, apart from `bot.present.i18n` (which only
reads catalogues at run time), because it needs the whole bot: its cogs and their commands.
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Mapping
from typing import Any

import discord
from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_file
from babel.messages.pofile import read_po, write_po
from discord import app_commands
from discord.ext import commands

from bot.discord.app import EXTENSIONS
from bot.plugins import PLUGIN_MODULES
from bot.present.i18n import DEFAULT_LOCALE, LOCALE_DIR, LOCALES, ROOT

# Domains: which source files each catalogue is extracted from, and whether it is declared
# complete in Swedish (the completeness test holds those to every string).
DOMAINS: dict[str, tuple[str, ...]] = {
    "bot": ("bot/**/*.py", "cogs/common.py", "cogs/tables.py", "cogs/trick_games.py",
            "cogs/chips.py", "cogs/replays.py", "cogs/sppoker.py", "cogs/leaderboards.py",
            "cogs/chip_games.py", "cogs/chip_renderers.py", "cogs/high_low_games.py",
            "cogs/help.py"),
    "cards": ("engine/cards.py", "engine/evaluator.py", "engine/tricks/play.py", "engine/i18n.py",
              "engine/game.py"),
    "poangpoker": ("engine/games/poangpoker/*.py", "engine/tricks/deal.py"),
    "sppoker": ("engine/games/sppoker/*.py", "engine/words.py", "engine/declaring.py"),
    "poke": ("engine/games/poke/*.py",),
    "betting": ("engine/chips/betting.py", "engine/chips/bet_prompts.py", "engine/chips/pots.py",
                "engine/chips/deal.py", "engine/chips/draw.py"),
    "badugi": ("engine/games/badugi/*.py",),
    "holdem_sppoker": ("engine/games/holdem_sppoker/*.py",),
    "pokeno": ("engine/games/pokeno/*.py", "cogs/pokeno.py"),
    "red_dog": ("engine/games/red_dog/*.py",),
    "spew": ("engine/games/spew/*.py",),
    "reveal_order": ("engine/chips/reveal_order.py", "engine/chips/reveal_views.py",
                     "engine/chips/reveal_ai.py",
                     "engine/games/old_man_49er/*.py", "engine/games/zero_to_55/*.py",
                     "engine/chips/points.py"),
    "dealers_choice": ("engine/games/dealers_choice/*.py",),
}
"""Each catalogue's source files. `commands` (the slash commands' texts) is read from the
command tree instead (`command_msgids`)."""
COMPLETE = ("bot", "commands", "cards", "poangpoker", "sppoker", "poke", "betting", "badugi",
            "holdem_sppoker", "pokeno", "red_dog", "spew", "reveal_order", "dealers_choice")
"""The catalogues declared complete in Swedish: tests/test_i18n.py holds them to every entry."""


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


def extract(domain: str) -> dict[str, tuple[str, ...]]:
    """The msgids of a domain's source files, by Babel's extractor: msgid -> plural ids."""
    keywords = {"msg": None, "msg_n": (1, 2), "N_": None, "t": None, "t_n": (1, 2),
                "TableError": None, "IllegalAction": None}
    found: dict[str, tuple[str, ...]] = {}
    for pattern in DOMAINS[domain]:
        for path in sorted(ROOT.glob(pattern)):
            for _line, message, _comments, _context in extract_from_file(
                "python", str(path), keywords=keywords,
                comment_tags=(), strip_comment_tags=True,
            ):
                if isinstance(message, tuple | list):
                    if message[0]:
                        found[str(message[0])] = tuple(str(m) for m in message if m)
                elif message:
                    found[str(message)] = (str(message),)
    return found


def _write(domain: str, entries: Mapping[str, tuple[str, ...]]) -> None:
    template = Catalog(project="dealers-choice", domain=domain)
    for msgid, ids in entries.items():
        template.add(ids if len(ids) > 1 else msgid)
    LOCALE_DIR.mkdir(parents=True, exist_ok=True)
    with (LOCALE_DIR / f"{domain}.pot").open("wb") as handle:
        write_po(handle, template, omit_header=True, sort_output=True, width=100)
    for locale in LOCALES:
        if locale == DEFAULT_LOCALE:
            continue
        path = LOCALE_DIR / locale / "LC_MESSAGES" / f"{domain}.po"
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


def command_msgids() -> dict[str, tuple[str, ...]]:
    """The slash commands' texts, read from the command tree the bot builds."""
    async def build() -> list[tuple[str, str]]:
        bot = commands.Bot(command_prefix="!", intents=discord.Intents.none())
        for module in (*PLUGIN_MODULES, *EXTENSIONS):
            await bot.load_extension(module)
        return commands_entries(bot.tree)

    return {msgid: (msgid,) for msgid, _ in asyncio.run(build())}


def main(argv: list[str]) -> int:
    if argv[:1] != ["extract"]:
        print("usage: python -m bot.catalogues extract")
        return 2
    for domain in DOMAINS:
        _write(domain, extract(domain))
    _write("commands", command_msgids())
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
