"""An interaction's answer: built in full as a value, then sent in time, whatever its state.

Every interaction that waits on the database or the service is answered in time: its work
runs under `in_time`, which acknowledges it (a deferral) once Discord's 3 s are close, and
its answer is built in full (`Answer`) before anything is sent, so `deliver` sends the same
answer either way. It stands apart from the presenter because it knows nothing of tables:
the presenter's clicks, every cog's commands and the command tree's error handler
(`bot.discord.tree`) answer through these same helpers.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable
from dataclasses import dataclass
from typing import Any, TypeVar

import discord

from bot.core.table import TableError, error_text
from bot.present import i18n

log = logging.getLogger(__name__)
T = TypeVar("T")

# Discord drops an interaction not answered within 3 s ("This interaction failed", "The
# application did not respond"); one still being worked on by then (a busy bot: its database
# queue is long) is acknowledged first.
DEFER_AFTER = 2.0
# Where a deferred slash command keeps whether its "thinking…" placeholder is ephemeral,
# until an answer fills it (`deliver`).
PLACEHOLDER = "dc:placeholder-ephemeral"


@dataclass(frozen=True)
class Answer:
    """What an interaction is answered with, built in full before anything is sent: a new
    message (ephemeral unless said otherwise) or, for `update_clicked`, the clicked message's
    new content. Being a value, the same answer goes out whether or not the interaction had
    to be deferred meanwhile (`deliver`)."""

    content: str | None = None
    ephemeral: bool = True
    embeds: tuple[discord.Embed, ...] = ()
    view: discord.ui.View | None = None
    file: discord.File | None = None
    allowed_mentions: discord.AllowedMentions | None = None

    def extras(self) -> dict[str, Any]:
        """The keyword arguments every sending endpoint takes alike."""
        given: dict[str, Any] = {}
        if self.content is not None:
            given["content"] = self.content
        if self.embeds:
            given["embeds"] = list(self.embeds)
        if self.view is not None:
            given["view"] = self.view
        if self.file is not None:
            given["file"] = self.file
        if self.allowed_mentions is not None:
            given["allowed_mentions"] = self.allowed_mentions
        return given


def refusal(text: str) -> Answer:
    """A refusal or an error, to the person alone, in their language (`text` rendered)."""
    return Answer(i18n.render(text))


async def refuse(interaction: discord.Interaction, error: TableError) -> None:
    """The table service's refusal, to the person alone, in the language their interaction
    set (`i18n.for_interaction`). The service refuses by raising `TableError`; the presenter
    lets it go, and the one handler of the commands (`bot.discord.tree.Tree.on_error`) or of the
    buttons (`bot.discord.components.refusing`) answers it here."""
    await deliver(interaction, refusal(error_text(error)))


async def deliver(interaction: discord.Interaction, answer: Answer) -> int | None:
    """Send `answer` as this interaction's answer, whatever state it is in; the id of the
    message it made (None if it made none, or could not be sent).

    Not yet answered: the interaction's response. Deferred: a followup, which fills the
    "thinking…" placeholder of a deferred slash command, unless the placeholder's visibility
    is not the answer's (a refusal of a command deferred in public; see `in_time`): then the
    placeholder goes and the answer comes as a message of its own. An interaction whose 3 s
    ran out before the bot got to it (a process far behind) can no longer be answered: that
    is logged, not raised as an error in the handler."""
    try:
        if not interaction.response.is_done():
            callback = await interaction.response.send_message(
                ephemeral=answer.ephemeral, **answer.extras())
            return callback.message_id
        extras = getattr(interaction, "extras", None)
        placeholder = extras.pop(PLACEHOLDER, None) if isinstance(extras, dict) else None
        if placeholder is not None and placeholder != answer.ephemeral:
            await interaction.delete_original_response()
        message = await interaction.followup.send(ephemeral=answer.ephemeral, wait=True,
                                                  **answer.extras())
        return message.id
    except discord.NotFound as error:
        log.info("could not answer an expired interaction: %s", error)
        return None


async def update_clicked(interaction: discord.Interaction, answer: Answer) -> None:
    """Show `answer` in place of the clicked message (its view replaced: None takes the
    buttons away), whether the click was answered at once or deferred by `in_time`."""
    shown = answer.extras() | {"view": answer.view}
    try:
        if interaction.response.is_done():
            await interaction.edit_original_response(**shown)
        else:
            await interaction.response.edit_message(**shown)
    except discord.NotFound as error:
        log.info("could not answer an expired click: %s", error)


async def reply(interaction: discord.Interaction, text: str) -> None:
    """An ephemeral answer, whether or not the interaction was answered before."""
    await deliver(interaction, Answer(text))


async def in_time(interaction: discord.Interaction, work: Awaitable[T], *,
                  ephemeral: bool = True) -> T:
    """`work`'s result; if it is not ready DEFER_AFTER after Discord made the interaction
    (counted from then: a busy process may get to it late), the interaction is acknowledged
    meanwhile: a click as a deferred update (the clicked message shows it is loading, and
    the answer, when it comes, edits it), a slash command as a deferred message, ephemeral
    or not as `ephemeral` says (the answer then fills that "thinking…" placeholder).

    `work` runs in the caller's task (what it sets, such as the reader's locale, holds for
    the answer); the deferral is a timer beside it, and a deferral under way when `work`
    ends is waited for, so the answer always comes after it. An interaction reached after
    DEFER_AFTER already is acknowledged before its work starts."""
    age = (discord.utils.utcnow() - interaction.created_at).total_seconds()
    delay = DEFER_AFTER - age
    if delay <= 0:
        await _defer(interaction, ephemeral)
        return await work
    deferral = _Deferral(interaction, delay, ephemeral)
    try:
        return await work
    finally:
        await deferral.settle()


async def _defer(interaction: discord.Interaction, ephemeral: bool) -> None:
    """Acknowledge an interaction whose answer is not ready (see `in_time`)."""
    if interaction.response.is_done():
        return
    try:
        if getattr(interaction, "type", None) is discord.InteractionType.application_command:
            await interaction.response.defer(ephemeral=ephemeral)
            interaction.extras[PLACEHOLDER] = ephemeral
        else:
            await interaction.response.defer()
    except discord.HTTPException as error:
        log.info("could not defer a slow answer: %s", error)


class _Deferral:
    """`in_time`'s timer: acknowledges the interaction after `delay` unless it was answered."""

    def __init__(self, interaction: discord.Interaction, delay: float, ephemeral: bool) -> None:
        self.started = False
        # The moment is fixed now: the task first runs only once the work yields, which on a
        # busy process may be a while.
        due = asyncio.get_running_loop().time() + delay
        self.task = asyncio.create_task(self._run(interaction, due, ephemeral))

    async def _run(self, interaction: discord.Interaction, due: float, ephemeral: bool) -> None:
        await asyncio.sleep(max(0.0, due - asyncio.get_running_loop().time()))
        self.started = True
        await _defer(interaction, ephemeral)

    async def settle(self) -> None:
        """Called when the work is done: a deferral not begun is called off; one under way
        (its request sent) is waited for, so that the answer does not race it."""
        if self.started:
            await self.task
        else:
            self.task.cancel()


async def answer_in_time(interaction: discord.Interaction, work: Awaitable[Answer], *,
                         ephemeral: bool = True) -> int | None:
    """A slash command's answer, `work` run under `in_time` (deferred as `ephemeral` says if
    slow) and its `Answer` delivered; the id of the message it made."""
    return await deliver(interaction, await in_time(interaction, work, ephemeral=ephemeral))
