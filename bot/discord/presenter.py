"""The Discord side of the table service: interactions in, service calls, replies out.

It decides nothing: a click or a command becomes a service call; the outcome becomes the
interaction's answer (an ephemeral error, the seat's updated view where it clicked, a modal).
Everything else a step tells goes through the outbox (`bot.discord.sender`). The service's refusal
(`TableError`) is not caught here: it goes on to the one handler of the commands
(`bot.discord.tree.Tree.on_error`) or of the buttons (`bot.discord.components.refusing`),
which answer it with `refuse`.

Every interaction that waits on the database or the service is answered in time: its work
runs under `in_time`, which acknowledges it (a deferral) once Discord's 3 s are close, and
its answer is built in full (`Answer`) before anything is sent, so `deliver` sends the same
answer either way. The cogs' commands use the same two helpers.
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

import discord

from bot.core.between_deals import CashDesk
from bot.core.outbox import prompt_from_json
from bot.core.outcomes import NeedText, Private
from bot.core.service import TableService
from bot.core.table import TableError, error_text
from bot.discord import components
from bot.present import i18n
from bot.present.render import localized_prompt
from engine.game import Prompt, TextAsk
from engine.i18n import Msg, msg

if TYPE_CHECKING:
    from bot.discord.sender import Sender

log = logging.getLogger(__name__)
T = TypeVar("T")

# Discord drops an interaction not answered within 3 s ("This interaction failed", "The
# application did not respond"); one still being worked on by then (a busy bot: its database
# queue is long) is acknowledged first.
DEFER_AFTER = 2.0
# Where a deferred slash command keeps whether its "thinking…" placeholder is ephemeral,
# until an answer fills it (`deliver`).
PLACEHOLDER = "dc:placeholder-ephemeral"

OTHER_SERVER = msg("This button belongs to a table in another server.")
OTHER_CHANNEL = msg("This button belongs to a table in another channel.")

MODAL_ID = re.compile(
    r"dc:m:(?P<table>[0-9a-f]+):(?P<seat>\d+):(?P<stamp>[0-9a-f-]+):(?P<index>\d+)"
)


def build_view(spec: dict[str, Any] | None) -> discord.ui.View | None:
    """The view an outbox body names; built fresh, so it needs nothing from before a restart."""
    if not spec:
        return None
    with i18n.using(spec.get("locale")):
        return _build_view(spec)


def _build_view(spec: dict[str, Any]) -> discord.ui.View | None:
    if spec["type"] == "board":
        return components.board_view(spec["table"])
    if spec["type"] == "cash":
        return components.cash_view(spec["table"])
    if spec["type"] == "lobby":
        return components.lobby_view(spec["table"])
    if spec["type"] == "replay":
        return components.replay_view(spec["table"])
    prompt = prompt_from_json(spec["prompt"]) if spec.get("prompt") else None
    return components.prompt_view(spec["table"], spec["seat"], spec["stamp"], prompt)


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


def is_admin(interaction: discord.Interaction) -> bool:
    permissions = getattr(interaction, "permissions", None)
    return bool(permissions is not None and permissions.manage_guild)


def submitted_text(data: Any) -> str | None:
    """The value of a modal's text input, in the Label layout or the older action-row one."""
    if isinstance(data, dict):
        if data.get("type") == 4 and "value" in data:
            return str(data["value"])
        for key in ("components", "component"):
            found = submitted_text(data.get(key))
            if found is not None:
                return found
    if isinstance(data, list):
        for item in data:
            found = submitted_text(item)
            if found is not None:
                return found
    return None


class Presenter:
    def __init__(self, service: TableService, sender: Sender) -> None:
        self.service = service
        self.sender = sender
        self.cash = CashDesk(service)
        self._pictures: set[asyncio.Task[None]] = set()
        self._replying: dict[str, asyncio.Lock] = {}

    async def open_table(
        self, interaction: discord.Interaction, kind: str, options: Mapping[str, Any], *,
        defaults: Callable[[], Awaitable[Mapping[str, Any]]] | None = None,
    ) -> None:
        """`/<game> start`: a lobby in the channel (or a one-person game, started at once).
        `options` are the command's, already checked (cogs/common.py `Option`); `defaults`,
        read inside the command's time like everything else, fills those left out (a
        server's dictionary)."""
        table_id: str | None = None

        async def work() -> Answer:
            nonlocal table_id
            await i18n.for_interaction(interaction)
            channel_id = interaction.channel_id
            if interaction.guild_id is None or channel_id is None:
                return Answer(i18n.t("Games are played in a server channel, not in DMs."))
            given = {key: value for key, value in options.items() if value is not None}
            if defaults is not None:
                given = {**(await defaults()), **given}
            user = interaction.user
            opened, outcome = await self.service.open_table(
                interaction.guild_id, channel_id, user.id, user.display_name, kind, given)
            if not outcome.open:  # a one-person game starts at once
                return Answer(outcome.content, ephemeral=False)
            table_id = opened
            with i18n.using(i18n.guild_locale(interaction.guild_id)):  # the channel's language
                return Answer(outcome.content, ephemeral=False,
                              view=components.lobby_view(opened))

        message_id = await answer_in_time(interaction, work(), ephemeral=False)
        if table_id is not None and message_id is not None and interaction.channel_id:
            await self.service.remember_message(table_id, "lobby", interaction.channel_id,
                                                message_id)

    def belongs_elsewhere(self, interaction: discord.Interaction, table_id: str, *,
                          channel_only: bool) -> Msg | None:
        """Why a click may not touch this table, if it may not: it came from another server
        (a forged click: a table's buttons are only ever in its own server), or, for a
        button that lives on a channel message (`channel_only`: the lobby, the cash desk),
        from another channel. A click in a DM has no server, and is answered by its seat
        and stamp, which the service checks. A table this process does not hold is the
        service's to refuse."""
        table = self.service.tables.get(table_id)
        if table is None:
            return None
        if interaction.guild_id is None and not channel_only:
            return None
        if interaction.guild_id is not None and interaction.guild_id != table.guild_id:
            return OTHER_SERVER
        if interaction.channel_id != table.channel_id:
            return OTHER_CHANNEL
        return None

    async def lobby_action(self, interaction: discord.Interaction, table_id: str,
                           op: str) -> None:
        await i18n.for_interaction(interaction)
        user = interaction.user
        elsewhere = self.belongs_elsewhere(interaction, table_id, channel_only=True)
        if elsewhere is not None:
            await reply(interaction, i18n.render(elsewhere))
            return
        async with self.replying(table_id):
            outcome = await in_time(interaction, self.service.lobby_action(
                table_id, user.id, user.display_name, op, is_admin=is_admin(interaction),
                guild_id=interaction.guild_id))
            with i18n.using(i18n.guild_locale(interaction.guild_id)):  # the channel's language
                view = components.lobby_view(table_id) if outcome.open else None
            await update_clicked(interaction, Answer(outcome.content, view=view))

    def replying(self, table_id: str) -> asyncio.Lock:
        """Held from a lobby command's service call until its answer is sent, so answers
        reach the lobby message in the order their steps were committed: a Join committed
        just before a Cancel must not have its open lobby edited in after the closed one."""
        return self._replying.setdefault(table_id, asyncio.Lock())

    async def cash_action(self, interaction: discord.Interaction, table_id: str,
                          op: str) -> None:
        await i18n.for_interaction(interaction)
        user = interaction.user
        elsewhere = self.belongs_elsewhere(interaction, table_id, channel_only=True)
        if elsewhere is not None:
            await reply(interaction, i18n.render(elsewhere))
            return
        text = await in_time(interaction, self.cash.act(
            table_id, user.id, user.display_name, op, is_admin=is_admin(interaction),
            guild_id=interaction.guild_id))
        await reply(interaction, text)

    async def status(self, interaction: discord.Interaction) -> None:
        async def work() -> Answer:
            await i18n.for_interaction(interaction)
            return Answer(self.service.status(interaction.channel_id or 0, interaction.user.id))

        await answer_in_time(interaction, work())

    async def abort(self, interaction: discord.Interaction) -> None:
        async def work() -> Answer:
            await i18n.for_interaction(interaction)
            user = interaction.user
            text = await self.service.abort(interaction.channel_id or 0, user.id,
                                            user.display_name, is_admin=is_admin(interaction))
            return Answer(text, ephemeral=False)

        table = self.service.table_in(interaction.channel_id or 0, interaction.user.id)
        if table is None:
            await answer_in_time(interaction, work(), ephemeral=False)
            return
        async with self.replying(table.table_id):  # after a lobby answer in flight
            await answer_in_time(interaction, work(), ephemeral=False)

    async def show_hand(self, interaction: discord.Interaction, table_id: str) -> None:
        await i18n.for_interaction(interaction)
        elsewhere = self.belongs_elsewhere(interaction, table_id, channel_only=False)
        if elsewhere is not None:
            await reply(interaction, i18n.render(elsewhere))
            return
        private = await in_time(interaction,
                                self.service.show_hand(table_id, interaction.user.id))
        view = components.prompt_view(table_id, private.seat, private.stamp,
                                      localized_prompt(private.prompt))
        await deliver(interaction, Answer(private.content, view=view))

    async def answer(self, interaction: discord.Interaction, table_id: str, seat: int,
                     stamp: str, index: int, *, values: list[str] | None = None,
                     text: str | None = None) -> None:
        await i18n.for_interaction(interaction)
        elsewhere = self.belongs_elsewhere(interaction, table_id, channel_only=False)
        if elsewhere is not None:
            await reply(interaction, i18n.render(elsewhere))
            return
        # `answering`: from the save on, no older prompt of the seat goes out over this
        # answer (and one being edited in at this instant lands before it).
        outcome = await in_time(interaction, self.sender.answering(self.service.act(
            table_id, interaction.user.id, seat, stamp, index, values=values, text=text)))
        if isinstance(outcome, NeedText) and interaction.response.is_done():
            # Deferred while the bot was busy: a modal can only be the first answer.
            await reply(interaction, i18n.t("The bot was busy; press the button again to type "
                                            "your answer."))
            return
        if isinstance(outcome, NeedText):
            ask = outcome.ask
            shown = localized_prompt(Prompt("", (ask,)))
            assert shown is not None and isinstance(shown.choices[0], TextAsk)
            modal = components.TextModal(table_id, seat, stamp, index, shown.choices[0])
            await interaction.response.send_modal(modal)
            # Answered by `on_modal_submit` from its custom_id, never from memory, so a modal
            # opened before a restart is still answered after it.
            modal.stop()
            return
        await self._acknowledge(interaction, outcome)

    async def on_modal_submit(self, interaction: discord.Interaction) -> bool:
        """Every word modal's answer; False when the interaction is not one of ours."""
        data: dict[str, Any] = dict(interaction.data or {})
        match = MODAL_ID.fullmatch(str(data.get("custom_id", "")))
        if match is None:
            return False
        text = submitted_text(data.get("components")) or ""
        await self.answer(interaction, match["table"], int(match["seat"]), match["stamp"],
                          int(match["index"]), text=text)
        return True

    async def _acknowledge(self, interaction: discord.Interaction, private: Private) -> None:
        """Show the seat its updated view where it clicked; the picture of a new hand follows
        once drawn (drawing never delays the answer)."""
        view = components.prompt_view(private.table_id, private.seat, private.stamp,
                                      localized_prompt(private.prompt))
        clicked = interaction.type in (
            discord.InteractionType.component, discord.InteractionType.modal_submit
        )
        # A new hand: the old hand's picture goes now, the new one right after.
        shown: dict[str, Any] = {"content": private.content, "view": view,
                                 **({"attachments": []} if private.pictures else {})}
        if interaction.message is not None and clicked and interaction.response.is_done():
            # Deferred by `in_time`: the clicked message is the original response now.
            try:
                await interaction.edit_original_response(**shown)
            except discord.HTTPException as error:
                log.info("could not answer a deferred click: %s", error)
                return
            self.sender.answered_here(private.table_id, private.seat, interaction)
        elif interaction.message is not None and clicked:
            try:
                await interaction.response.edit_message(**shown)
            except discord.NotFound as error:
                # It expired before the bot got to it (a process far behind): the move is
                # made and saved, and "Show my hand" shows the seat where it stands.
                log.info("could not answer an expired click: %s", error)
                return
            # In a DM, the seat's next prompt may take this message's place
            # (`bot.discord.in_place`).
            self.sender.answered_here(private.table_id, private.seat, interaction)
        else:
            await interaction.response.send_message(private.content, view=view, ephemeral=True)
        if private.pictures:
            task = asyncio.create_task(self._attach_pictures(interaction, private.pictures))
            self._pictures.add(task)
            task.add_done_callback(self._pictures.discard)

    async def _attach_pictures(self, interaction: discord.Interaction,
                               picture: dict[str, Any]) -> None:
        files = await self.sender.files(picture)
        if not files:
            return
        try:
            await interaction.edit_original_response(attachments=files)
        except discord.HTTPException as error:
            log.info("could not attach pictures: %s", error)

