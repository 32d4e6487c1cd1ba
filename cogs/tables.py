"""`/table status` and `/table abort`: the same for every game."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands


@app_commands.guild_only()
class Tables(commands.GroupCog, group_name="table", group_description="The table in this channel"):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(name="status", description="Show the table in this channel")
    async def status(self, interaction: discord.Interaction) -> None:
        await self.bot.tables.status(interaction)  # type: ignore[attr-defined]

    @app_commands.command(
        name="abort", description="End the table in this channel (host or Manage Server)"
    )
    async def abort(self, interaction: discord.Interaction) -> None:
        await self.bot.tables.abort(interaction)  # type: ignore[attr-defined]


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Tables(bot))
