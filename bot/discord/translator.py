"""The slash commands in the bot's languages: discord.py's `app_commands.Translator`, reading
the message catalogues (`bot.present.i18n`), set in `setup_hook` before the commands are synced.

Kept apart from `bot.present.i18n`, which the Discord-free core (narrator, render) imports: this is
the one piece of the languages that needs discord.py.
"""

from __future__ import annotations

from typing import Any

from discord import app_commands

from bot.present import i18n

NAMING = (
    app_commands.TranslationContextLocation.command_name,
    app_commands.TranslationContextLocation.group_name,
    app_commands.TranslationContextLocation.parameter_name,
)


class Translator(app_commands.Translator):
    """A command's, group's or parameter's name, a description or a choice in Discord's
    `locale`, or None (Discord then shows the English)."""

    async def translate(self, string: app_commands.locale_str, locale: Any,
                        context: app_commands.TranslationContext[Any, Any]) -> str | None:
        ours = i18n.normalize(locale)
        if ours is None or ours == i18n.DEFAULT_LOCALE:
            return None
        naming = context.location in NAMING
        return i18n.translate_command(string.message, ours, "name" if naming else "text")
