"""`/table status`, `/table abort` and `/table settings`: the same for every game."""

from __future__ import annotations

import discord
from babel import Locale, UnknownLocaleError
from discord import app_commands
from discord.ext import commands

from bot.core.validation import (
    DAILY_CHIPS,
    LOBBY_MINUTES,
    LOCALE,
    STARTING_CHIPS,
    WEB,
    WEB_ACCESS,
    InvalidValue,
    checked_settings,
    guild_settings,
)
from bot.discord.app import DealersChoiceBot
from bot.discord.responses import Answer, answer_in_time
from bot.discord.tree import refused_answer
from bot.present import i18n
from bot.present.i18n import t
from cogs.common import Dictionary, Option
from cogs.sppoker import default_dictionary


def language_name(locale: str) -> str:
    """The server's language as the reader names it in a sentence: "svenska" to a Swedish
    reader, "Swedish" to an English one. The endonym the choice shows ("Svenska") read
    "boten talar Svenska" in Swedish and "the bot speaks Svenska" in English."""
    try:
        return Locale.parse(locale).get_language_name(i18n.current()) or locale
    except (ValueError, TypeError, UnknownLocaleError):
        return i18n.LOCALE_NAMES.get(locale, locale)


@app_commands.guild_only()
class Tables(commands.GroupCog, group_name="table",
             group_description="The table in this channel"):
    def __init__(self, bot: DealersChoiceBot) -> None:
        self.bot = bot

    @app_commands.command(name="status", description="Show the table in this channel")
    async def status(self, interaction: discord.Interaction) -> None:
        await self.bot.presenter.status(interaction)

    @app_commands.command(
        name="abort", description="End the table in this channel (host or Manage Server)"
    )
    async def abort(self, interaction: discord.Interaction) -> None:
        await self.bot.presenter.abort(interaction)

    @app_commands.command(name="settings", description="This server's table settings")
    @app_commands.describe(
        lobby_minutes="Minutes before an unstarted lobby closes itself (default 10)",
        locale="The bot's language in this server's channels (default English)",
        dictionary="Default dictionary for word games (default: the bot's)",
        starting_chips="Chips a player starts with in this server (default 1000)",
        daily_chips="Chips `/chips daily` gives once a day (default 100)",
        web="Who sees this server's web page: off, members only or public (default off)",
    )
    async def settings(
        self, interaction: discord.Interaction,
        lobby_minutes: app_commands.Transform[int, Option(LOBBY_MINUTES)] | None = None,
        locale: app_commands.Transform[str, Option(LOCALE)] | None = None,
        dictionary: Dictionary | None = None,
        starting_chips: app_commands.Transform[int, Option(STARTING_CHIPS)] | None = None,
        daily_chips: app_commands.Transform[int, Option(DAILY_CHIPS)] | None = None,
        web: app_commands.Transform[str, Option(WEB)] | None = None,
    ) -> None:
        asked = {"lobby_minutes": lobby_minutes, "locale": locale, "dictionary": dictionary,
                 "starting_chips": starting_chips, "daily_chips": daily_chips, "web": web}
        await answer_in_time(interaction, self._settings(
            interaction, {key: value for key, value in asked.items() if value is not None}))

    async def _settings(self, interaction: discord.Interaction,
                        asked: dict[str, object]) -> Answer:
        """Change what was asked (Manage Server), then show every setting, privately."""
        assert interaction.guild_id is not None
        await i18n.for_interaction(interaction)
        if asked and not interaction.permissions.manage_guild:
            return Answer(t("Changing the server's settings needs the Manage Server "
                            "permission."))
        try:  # checked again where they are stored: nothing is stored unless all pass
            changes = checked_settings(asked)
        except InvalidValue as invalid:
            return refused_answer(invalid)
        store = self.bot.store
        for key, value in changes.items():
            await store.set_guild_setting(interaction.guild_id, key, value)
        if "locale" in changes:
            i18n.remember_guild_locale(interaction.guild_id, str(changes["locale"]))
            await i18n.for_interaction(interaction)  # answered in the new language
        current = await guild_settings(store, interaction.guild_id)
        locale = str(current.get("locale", i18n.DEFAULT_LOCALE))
        language = language_name(locale)
        bank = self.bot.bank
        bot_default = self.bot.settings.dictionary
        chosen = current.get("dictionary")
        # What a word game opened now would judge words by (`cogs.sppoker.default_dictionary`,
        # which both word games' `start` use), not only what the server chose.
        dictionary = default_dictionary(chosen, locale, bot_default)
        option = command_name("dictionary")
        if chosen:
            words = t("• word games use the **{dictionary}** dictionary (`{option}`)",
                      dictionary=dictionary, option=option)
        elif dictionary != bot_default:
            words = t("• word games use the **{dictionary}** dictionary, the one of the "
                      "server's language (`{option}` chooses another)",
                      dictionary=dictionary, option=option)
        else:
            words = t("• word games use the **{dictionary}** dictionary, the bot's default "
                      "(`{option}` chooses another)", dictionary=dictionary, option=option)
        daily_command = f"/{command_name('chips')} {command_name('daily')}"
        return Answer("\n".join([
            t("Settings of this server:"),
            t("• the bot speaks **{language}** in this server's channels (`{option}`); "
              "what only you see follows your Discord language when the bot speaks it",
              language=language, option=command_name("locale")),
            t("• idle lobbies close after **{minutes} minutes** (`{option}`)",
              minutes=current.get("lobby_minutes", 10), option=command_name("lobby_minutes")),
            words,
            t("• new players start with **{chips}** chips (`{starting}`); `{daily_command}` "
              "gives **{daily}** (`{daily_option}`)",
              chips=await bank.starting(interaction.guild_id),
              daily=await bank.daily_amount(interaction.guild_id),
              starting=command_name("starting_chips"),
              daily_command=daily_command,
              daily_option=command_name("daily_chips")),
            web_line(str(current.get("web", "off"))),
        ]))


def web_line(access: str) -> str:
    """The web page's setting as `/table settings` lists it: who sees the server's pages
    (the web process, `python -m web`, reads the same setting from the store)."""
    shown = t(WEB_ACCESS.get(access, WEB_ACCESS["off"]))
    if access == "public":
        return t("• the server's web page is **{access}**: anyone with its link sees it "
                 "(`{option}`)", access=shown, option=command_name("web"))
    if access == "members":
        return t("• the server's web page is **{access}**: members see it once they log in "
                 "with Discord (`{option}`)", access=shown, option=command_name("web"))
    return t("• the server's web page is **{access}** (`{option}` turns it on)", access=shown,
             option=command_name("web"))


def command_name(name: str) -> str:
    """A command's or option's name as the reader's Discord client shows it (the reply is
    in their language: `i18n.for_interaction`), so what it cites can be typed as it reads."""
    return i18n.translate_command(name, i18n.current(), "name") or name


async def setup(bot: DealersChoiceBot) -> None:
    await bot.add_cog(Tables(bot))
