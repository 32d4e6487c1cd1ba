"""`/chips balance|daily|grant|audit`: play money in this server. Thin: the bank decides."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.core.chips import Bank, BankError
from bot.core.table import error_text
from bot.core.validation import GRANT
from bot.discord.app import bot_of
from bot.discord.responses import Answer, answer_in_time
from bot.present import i18n
from bot.present.i18n import t
from bot.present.inert import inert
from cogs.common import Option


def bank_of(interaction: discord.Interaction) -> Bank:
    return bot_of(interaction).bank


@app_commands.guild_only()
class Chips(commands.GroupCog, group_name="chips",
            group_description="Play-money chips for the chip games (no real money, ever)"):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(name="balance", description="Your chips (or someone's) and the last "
                          "moves")
    @app_commands.describe(user="Whose chips (yours if left out)")
    async def balance(self, interaction: discord.Interaction,
                      user: discord.User | None = None) -> None:
        assert interaction.guild_id is not None
        guild_id = interaction.guild_id
        target = user or interaction.user

        async def work() -> Answer:
            await i18n.for_interaction(interaction)
            return Answer(await bank_of(interaction).statement(guild_id, target.id,
                                                               target.display_name))

        await answer_in_time(interaction, work())

    @app_commands.command(name="daily", description="Claim today's free chips")
    async def daily(self, interaction: discord.Interaction) -> None:
        assert interaction.guild_id is not None
        guild_id = interaction.guild_id

        async def work() -> Answer:
            await i18n.for_interaction(interaction)
            return Answer(await bank_of(interaction).daily(guild_id, interaction.user.id,
                                                           interaction.user.display_name))

        await answer_in_time(interaction, work())

    @app_commands.command(name="grant", description="Give chips to a player (Manage Server)")
    @app_commands.describe(user="Who gets them", amount="How many (negative to take back)")
    @app_commands.default_permissions(manage_guild=True)
    async def grant(self, interaction: discord.Interaction, user: discord.User,
                    amount: app_commands.Transform[int, Option(GRANT)]) -> None:
        assert interaction.guild_id is not None
        guild_id = interaction.guild_id

        async def work() -> Answer:
            await i18n.for_interaction(interaction)
            if not interaction.permissions.manage_guild:
                return Answer(t("Granting chips needs the Manage Server permission."))
            try:
                balance = await bank_of(interaction).grant(guild_id, user.id,
                                                           user.display_name, amount)
            except BankError as error:
                return Answer(i18n.render(error_text(error)))
            with i18n.using(i18n.guild_locale(guild_id)):  # said in the channel
                said = t("{name} gave {user} {amount} chips; they now have {n}.",
                         name=inert(interaction.user.display_name), user=user.mention,
                         amount=f"{amount:+d}", n=balance)
            return Answer(said, ephemeral=False,
                          allowed_mentions=discord.AllowedMentions.none())

        await answer_in_time(interaction, work(), ephemeral=False)

    @app_commands.command(name="audit", description="Check that every chip in this server "
                          "adds up (Manage Server)")
    @app_commands.default_permissions(manage_guild=True)
    async def audit(self, interaction: discord.Interaction) -> None:
        assert interaction.guild_id is not None
        guild_id = interaction.guild_id

        async def work() -> Answer:
            await i18n.for_interaction(interaction)
            if not interaction.permissions.manage_guild:
                return Answer(t("Auditing the chips needs the Manage Server permission."))
            return Answer(await bank_of(interaction).audit(guild_id))

        await answer_in_time(interaction, work())


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Chips(bot))
