"""`/help`: the games at a glance, for someone who has just met the bot.

One line per game: its name, how many play it, what it is (its command group's own
description), its commands and the command that shows its rules page, in the reader's
language (the command names as the reader's Discord client shows them). It is read from the
command tree the bot registers, so a command added to a game shows here without an edit; which
group plays which game is each game's plug-in's to say (`GROUP_GAMES`).
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord.responses import Answer, answer_in_time
from bot.plugins import load_plugins
from bot.present import i18n
from bot.present.i18n import t
from engine.games import GAMES

# Each game's command group, and the game whose players it counts, as the installed plug-ins
# declare them (`GamePlugin.command`; read when the bot loads this cog, after its plug-ins). A
# group whose commands open another game too, such as Po-Ke-No's solitaire, says so in its own
# description.
GROUP_GAMES = {plugin.command: kind for kind, plugin in load_plugins().items() if plugin.command}
EMBED_LIMIT = 4096


def command_name(text: str, locale: str) -> str:
    """A command's or group's name as the reader's Discord client shows it."""
    return i18n.translate_command(text, locale, "name") or text


def players(kind: str) -> str:
    cls = GAMES[kind]
    if cls.min_seats == cls.max_seats:
        return t("{n} players", n=cls.min_seats)
    return t("{low}–{high} players", low=cls.min_seats, high=cls.max_seats)


def game_line(group: app_commands.Group, locale: str) -> str:
    """One game: name, players, chips or not, what it is, its commands, its rules page."""
    kind = GROUP_GAMES[group.name]
    cls = GAMES[kind]
    name = command_name(group.name, locale)
    description = i18n.translate_command(group.description, locale, "description") \
        or group.description
    children = [child.name for child in group.commands if child.name != "rules"]
    shown = ", ".join(f"`/{name} {command_name(child, locale)}`" for child in children)
    rules = f"`/{name} {command_name('rules', locale)}`"
    chips = t(", chips") if cls.chip_game else ""
    return t("**{title}** ({players}{chips}) — {description}. Play: {commands}. Rules: {rules}",
             title=t(cls.title), players=players(kind), chips=chips,
             description=description.rstrip("."), commands=shown, rules=rules)


def help_text(tree: app_commands.CommandTree[Any], locale: str) -> str:
    """The whole overview in `locale`: every game group the tree holds, by title, then where
    to go next (a table, chips, replays)."""
    with i18n.using(locale):
        groups = [command for command in tree.get_commands()
                  if isinstance(command, app_commands.Group) and command.name in GROUP_GAMES]
        groups.sort(key=lambda group: t(GAMES[GROUP_GAMES[group.name]].title))
        lines = [t("Each game is played in a channel: `start` opens a table there, players "
                   "press **Join**, and your cards come by DM."), ""]
        lines += [game_line(group, locale) for group in groups]
        lines += ["", t("The table in a channel: `/{table}`. Play-money chips for the chip "
                        "games: `/{chips}`. A finished game, move by move: `/{replay}`.",
                        table=command_name("table", locale),
                        chips=command_name("chips", locale),
                        replay=command_name("replay", locale))]
        text = "\n".join(lines)
    return text if len(text) <= EMBED_LIMIT else text[: EMBED_LIMIT - 1] + "…"


class Help(commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(name="help", description="The games, their commands and rules")
    async def help(self, interaction: discord.Interaction) -> None:
        async def work() -> Answer:
            locale = await i18n.for_interaction(interaction)
            with i18n.using(locale):
                title = t("Games")
            embed = discord.Embed(title=title, description=help_text(self.bot.tree, locale),
                                  color=0x1F8B4C)
            return Answer(embeds=(embed,))

        await answer_in_time(interaction, work())


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Help(bot))
