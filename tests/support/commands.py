"""The slash commands as the bot registers them and as its sync sends them to Discord, built
from every cog the bot loads (`bot.catalogues.commands_bot`)."""

from __future__ import annotations

import asyncio
from typing import Any

from discord import app_commands

from bot.catalogues import commands_bot
from bot.discord.translator import Translator


def command_tree() -> app_commands.CommandTree[Any]:
    """The command tree of a bot with every cog the real one loads."""
    return asyncio.run(commands_bot()).tree


def command_payloads() -> list[dict[str, Any]]:
    """Every command of the bot as its sync sends it to Discord: names, options, choices
    and their `name_localizations` (Swedish)."""
    async def build() -> list[dict[str, Any]]:
        tree = (await commands_bot()).tree
        translator = Translator()
        return [await command.get_translated_payload(tree, translator)
                for command in tree.get_commands()]

    return asyncio.run(build())
