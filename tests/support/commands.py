"""The slash commands as the bot's sync sends them to Discord, built from every cog the bot
loads."""

from __future__ import annotations

import asyncio
from typing import Any


def command_payloads() -> list[dict[str, Any]]:
    """Every command of the bot as its sync sends it to Discord: names, options, choices
    and their `name_localizations` (Swedish)."""
    import discord
    from discord.ext import commands

    from bot.discord.app import EXTENSIONS
    from bot.discord.translator import Translator
    from bot.plugins import PLUGIN_MODULES

    async def build() -> list[dict[str, Any]]:
        bot = commands.Bot(command_prefix="!", intents=discord.Intents.none())
        for module in (*PLUGIN_MODULES, *EXTENSIONS):
            await bot.load_extension(module)
        translator = Translator()
        return [await command.get_translated_payload(bot.tree, translator)
                for command in bot.tree.get_commands()]

    return asyncio.run(build())
