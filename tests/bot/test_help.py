"""`/help` (issue 23, "The first hour"): one line per game with its players, its commands
and its rules command, in the reader's language, read from the command tree the bot builds."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import pytest
from discord import app_commands
from discord.ext import commands

from bot.catalogues import commands_bot
from bot.discord.app import EXTENSIONS
from cogs.help import GROUP_GAMES, help_text
from engine.games import GAMES


@pytest.fixture(scope="module")
def bot() -> commands.Bot:
    """A bot with every cog the real one loads (its games' and bot.discord.app's own)."""
    return asyncio.run(commands_bot())


def test_help_is_registered_like_the_bots_other_cogs(bot: commands.Bot) -> None:

    assert "cogs.help" in EXTENSIONS
    assert bot.tree.get_command("help") is not None


def test_every_game_has_one_line_with_its_players_commands_and_rules(bot: commands.Bot) -> None:
    text = help_text(bot.tree, "en")
    groups = {command.name for command in bot.tree.get_commands()}
    assert set(GROUP_GAMES) <= groups  # every game group named here is one the bot has
    played = set(GROUP_GAMES.values()) | {"pokeno_solitaire"}  # solitaire: /pokeno solitaire
    shipped = {kind for kind, cls in GAMES.items()  # not the tests' own games
               if not cls.__module__.startswith("tests.")}
    assert played == shipped
    for group, kind in GROUP_GAMES.items():
        [line] = [line for line in text.split("\n") if line.startswith(f"**{GAMES[kind].title}**")]
        cls = GAMES[kind]
        assert f"{cls.min_seats}–{cls.max_seats} players" in line or \
            f"{cls.min_seats} players" in line
        assert f"`/{group} start`" in line and f"Rules: `/{group} rules`" in line
    assert "`/pokeno solitaire`" in text and "`/sppoker start`" in text


def test_help_reads_in_swedish_with_swedish_command_names(bot: commands.Bot) -> None:
    text = help_text(bot.tree, "sv")
    assert "spelare" in text and "players" not in text
    assert "`/pokeno regler`" in text or "regler`" in text
    assert "Rules:" not in text and "Play:" not in text


README = Path(__file__).resolve().parents[2] / "README.md"


def test_the_readmes_games_table_has_a_row_for_every_game_with_real_options(
        bot: commands.Bot) -> None:
    """Every game group has a row; every `[option]` a row names is one its `start` takes;
    Sppoker's row names all of its options."""
    rows = [line for line in README.read_text(encoding="utf-8").split("\n")
            if line.startswith("| **")]
    for group in GROUP_GAMES:
        [row] = [row for row in rows if f"`/{group} start" in row]
        start = bot.tree.get_command(group)
        assert isinstance(start, app_commands.Group)
        command = start.get_command("start")
        assert isinstance(command, app_commands.Command)
        taken = {parameter.name for parameter in command.parameters}
        named = set(re.findall(rf"`/{group} start((?: \[\w+\])*)`", row)[0][2:-1].split("] ["))
        assert named - {""} <= taken, group
        if group == "sppoker":
            assert named == taken


def test_the_readme_lists_every_system_package_dev_installs() -> None:
    dev = (README.parent / "dev").read_text(encoding="utf-8")
    [packages] = re.findall(r"^APT_PACKAGES=\(([^)]*)\)", dev, re.MULTILINE)
    readme = " ".join(README.read_text(encoding="utf-8").split())
    [listed] = re.findall(r"installs the system packages it needs when they are missing "
                          r"\((.*?)for the tests only", readme)
    assert all(f"`{package}`" in listed for package in packages.split())
