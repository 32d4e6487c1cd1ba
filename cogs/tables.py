"""`/table status`, `/table abort` and `/table settings`: the same for every game."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from engine.words import available_languages


def language_choices() -> list[app_commands.Choice[str]]:
    return [app_commands.Choice(name=lang, value=lang) for lang in available_languages()][:25]


@app_commands.guild_only()
class Tables(commands.GroupCog, group_name="table", group_description="The table in this channel"):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(name="status", description="Show the table in this channel")
    async def status(self, interaction: discord.Interaction) -> None:
        await self.bot.presenter.status(interaction)  # type: ignore[attr-defined]

    @app_commands.command(
        name="abort", description="End the table in this channel (host or Manage Server)"
    )
    async def abort(self, interaction: discord.Interaction) -> None:
        await self.bot.presenter.abort(interaction)  # type: ignore[attr-defined]

    @app_commands.command(name="settings", description="This server's table settings")
    @app_commands.describe(
        lobby_minutes="Minutes before an unstarted lobby closes itself (default 10)",
        dictionary="Default dictionary for word games (default: the bot's)",
        starting_chips="Chips a player starts with in this server (default 1000)",
        daily_chips="Chips `/chips daily` gives once a day (default 100)",
    )
    @app_commands.choices(dictionary=language_choices())
    async def settings(self, interaction: discord.Interaction,
                       lobby_minutes: app_commands.Range[int, 1, 240] | None = None,
                       dictionary: str | None = None,
                       starting_chips: app_commands.Range[int, 0, 1_000_000] | None = None,
                       daily_chips: app_commands.Range[int, 1, 100_000] | None = None) -> None:
        assert interaction.guild_id is not None
        changes = {"lobby_minutes": lobby_minutes, "dictionary": dictionary,
                   "starting_chips": starting_chips, "daily_chips": daily_chips}
        changes = {key: value for key, value in changes.items() if value is not None}
        if changes and not interaction.permissions.manage_guild:
            await interaction.response.send_message(
                "Changing the server's settings needs the Manage Server permission.",
                ephemeral=True,
            )
            return
        store = self.bot.store  # type: ignore[attr-defined]
        for key, value in changes.items():
            await store.set_guild_setting(interaction.guild_id, key, value)
        current = await store.guild_settings(interaction.guild_id)
        bank = self.bot.bank  # type: ignore[attr-defined]
        default_language = self.bot.settings.dictionary  # type: ignore[attr-defined]
        await interaction.response.send_message(
            "Settings of this server:\n"
            f"• idle lobbies close after **{current.get('lobby_minutes', 10)} minutes**\n"
            f"• word games use the **{current.get('dictionary', default_language)}** "
            "dictionary\n"
            f"• new players start with **{await bank.starting(interaction.guild_id)}** chips; "
            f"`/chips daily` gives **{await bank.daily_amount(interaction.guild_id)}**",
            ephemeral=True,
        )

async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Tables(bot))
