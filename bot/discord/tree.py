"""The command tree, and its one error handler for every slash command (issue 24).

A command never answers its own errors: what goes wrong in one reaches `Tree.on_error`, which
answers the two refusals privately and logs anything else, as discord.py logs an error no
handler took. The two refusals:

- an option's value its declaration refuses (`Refused`, raised by `cogs.common.Option` before
  the command runs): the person is told what the option accepts;
- the table service's refusal (`TableError`: a table already open here, not the host): the
  person is told why, in their language.

The buttons, menus and word modals have their own one handler (`bot.discord.components.refusing`).
"""

from __future__ import annotations

import logging

import discord
from discord import app_commands

from bot.core.table import TableError
from bot.core.validation import InvalidValue
from bot.discord.responses import Answer, answer_in_time, refuse
from bot.present import i18n

log = logging.getLogger(__name__)


class Refused(app_commands.AppCommandError):
    """An option's value that its declaration refuses (raised by `Option.transform`)."""

    def __init__(self, invalid: InvalidValue) -> None:
        super().__init__(str(invalid))
        self.invalid = invalid


def refused_answer(invalid: InvalidValue) -> Answer:
    """The refusal in the reader's language, the options named as their client names them."""
    def named(option: str) -> str:
        return i18n.translate_command(option, i18n.current(), "name") or option

    other = named(invalid.other) if invalid.other is not None else None
    return Answer(i18n.render(invalid.shown(named(invalid.option), other)))


class Tree(app_commands.CommandTree[discord.Client]):
    """The bot's command tree (bot.discord.app passes it as `tree_cls`)."""

    async def on_error(self, interaction: discord.Interaction[discord.Client],
                       error: app_commands.AppCommandError, /) -> None:
        """A refused value is answered privately with what the option accepts, a refusal
        of the table service with why, and nothing else happens; any other error is logged
        as discord.py logs an error no handler took."""
        if isinstance(error, Refused):
            await self._refuse_value(interaction, error.invalid)
            return
        if isinstance(error, app_commands.CommandInvokeError) and \
                isinstance(error.original, TableError):
            # The command set the reader's locale before the service refused (its first
            # step, `i18n.for_interaction`, in this same task): the refusal is in it.
            await refuse(interaction, error.original)
            return
        command = interaction.command
        if command is None:
            log.error("Ignoring exception in command tree", exc_info=error)
            return
        log.error("Ignoring exception in command %r", command.name, exc_info=error)

    @staticmethod
    async def _refuse_value(interaction: discord.Interaction[discord.Client],
                            invalid: InvalidValue) -> None:
        async def work() -> Answer:
            await i18n.for_interaction(interaction)
            return refused_answer(invalid)

        log.info("refused /%s from %s: %s", getattr(interaction.command, "qualified_name", "?"),
                 interaction.user.id, invalid)
        await answer_in_time(interaction, work())
