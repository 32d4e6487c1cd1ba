"""The Discord side of the table service: interactions in, service calls, replies out.

It decides nothing: a click or a command becomes a service call; the outcome becomes the
interaction's answer (an ephemeral error, the seat's updated view where it clicked, a modal).
Everything else a step tells goes through the outbox (`bot.discord.sender`), and so does the
seat's updated view: it is the step's `Reply` row, which the click's response carries and
marks delivered (`bot.discord.replies`), or the sender delivers if no response did. The service's
refusal (`TableError`) is not caught here: it goes on to the one handler of the commands
(`bot.discord.tree.Tree.on_error`) or of the buttons (`bot.discord.components.refusing`),
which answer it with `bot.discord.responses.refuse`. Every answer is built and sent in time
by `bot.discord.responses`.
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

import discord

from bot.core.between_deals import CashDesk
from bot.core.outbox import Picture, Reply
from bot.core.outcomes import NeedText
from bot.core.service import TableService
from bot.discord import components
from bot.discord.replies import Click
from bot.discord.responses import (
    Answer,
    answer_in_time,
    deliver,
    in_time,
    reply,
    update_clicked,
)
from bot.discord.sender import Sender
from bot.discord.views import build_view
from bot.present import i18n
from bot.present.render import localized_prompt
from bot.store import MessageRef
from engine.game import Prompt, TextAsk
from engine.i18n import Msg, msg

log = logging.getLogger(__name__)

OTHER_SERVER = msg("This button belongs to a table in another server.")
OTHER_CHANNEL = msg("This button belongs to a table in another channel.")

MODAL_ID = re.compile(
    r"dc:m:(?P<table>[0-9a-f]+):(?P<seat>\d+):(?P<stamp>[0-9a-f-]+):(?P<index>\d+)"
)


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

    async def admitted(self, interaction: discord.Interaction, table_id: str, *,
                       channel_only: bool) -> bool:
        """Whether a click may go on to the service: the reader's language is set for its
        answer, and a click that `belongs_elsewhere` is told so (to its clicker alone)."""
        await i18n.for_interaction(interaction)
        elsewhere = self.belongs_elsewhere(interaction, table_id, channel_only=channel_only)
        if elsewhere is not None:
            await reply(interaction, i18n.render(elsewhere))
        return elsewhere is None

    async def lobby_action(self, interaction: discord.Interaction, table_id: str,
                           op: str) -> None:
        if not await self.admitted(interaction, table_id, channel_only=True):
            return
        user = interaction.user
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
        if not await self.admitted(interaction, table_id, channel_only=True):
            return
        user = interaction.user
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
        if not await self.admitted(interaction, table_id, channel_only=False):
            return
        private = await in_time(interaction,
                                self.service.show_hand(table_id, interaction.user.id))
        view = components.prompt_view(table_id, private.seat, private.stamp,
                                      localized_prompt(private.prompt))
        await deliver(interaction, Answer(private.content, view=view))

    async def answer(self, interaction: discord.Interaction, table_id: str, seat: int,
                     stamp: str, index: int, *, values: list[str] | None = None,
                     text: str | None = None) -> None:
        """A seat's click on its private view (a button, a menu, a modal's text): played by
        the service, and answered with the step's `Reply`, which this interaction carries
        and marks delivered (or, if it cannot, leaves to the sender: `bot.discord.replies`)."""
        if not await self.admitted(interaction, table_id, channel_only=False):
            return
        # Registered before the service call, so the sender, reaching the answer's row,
        # leaves it to this interaction (`bot.discord.replies`); released however this ends.
        replies = self.sender.replies
        click = replies.click(table_id, seat,
                              interaction.message.id if interaction.message else None)
        try:
            await self._answer(interaction, click, stamp, index, values, text)
        finally:
            replies.release(click)

    async def _answer(self, interaction: discord.Interaction, click: Click, stamp: str,
                      index: int, values: list[str] | None, text: str | None) -> None:
        """`answer`'s work once its click is registered: the service call, then a modal, or
        the answer shown where the person clicked and marked delivered."""
        table_id, seat = click.table_id, click.seat
        # `answering`: from the save on, no older prompt of the seat goes out over this
        # answer (and one being edited in at this instant lands before it).
        outcome = await in_time(interaction, self.sender.replies.answering(
            click, self.service.act(table_id, interaction.user.id, seat, stamp, index,
                                    values=values, text=text)))
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
        where = await self._acknowledge(interaction, table_id, outcome)
        if where is not None:  # carried: marked delivered, so the sender sends it no more
            await self.sender.replies.delivered(click, outcome, where)

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

    async def _acknowledge(self, interaction: discord.Interaction, table_id: str,
                           outcome: Reply) -> MessageRef | None:
        """Show the seat its updated view (the step's `Reply`) where it clicked; the picture
        of a new hand follows once drawn (drawing never delays the answer). The message the
        answer went to, None if Discord refused it (the sender delivers it then)."""
        view = build_view(outcome.view) or discord.ui.View(timeout=None)
        clicked = interaction.type in (
            discord.InteractionType.component, discord.InteractionType.modal_submit
        )
        # A new hand: the old hand's picture goes now, the new one right after.
        shown: dict[str, Any] = {"content": outcome.content, "view": view,
                                 **({"attachments": []} if outcome.picture else {})}
        message = interaction.message
        if message is not None and clicked and interaction.response.is_done():
            # Deferred by `in_time`: the clicked message is the original response now.
            try:
                await interaction.edit_original_response(**shown)
            except discord.HTTPException as error:
                log.info("could not answer a deferred click: %s", error)
                return None
            self.sender.answered_here(table_id, outcome.seat, interaction)
        elif message is not None and clicked:
            try:
                await interaction.response.edit_message(**shown)
            except discord.NotFound as error:
                # It expired before the bot got to it (a process far behind): the move is
                # made and saved, and the sender delivers the answer from its row.
                log.info("could not answer an expired click: %s", error)
                return None
            # In a DM, the seat's next prompt may take this message's place
            # (`bot.discord.in_place`).
            self.sender.answered_here(table_id, outcome.seat, interaction)
        else:
            await interaction.response.send_message(outcome.content, view=view, ephemeral=True)
        if outcome.picture:
            task = asyncio.create_task(self._attach_pictures(interaction, outcome.picture))
            self._pictures.add(task)
            task.add_done_callback(self._pictures.discard)
        channel = interaction.channel_id or 0
        return MessageRef(message.channel.id, message.id) if message is not None \
            else MessageRef(channel, 0)

    async def _attach_pictures(self, interaction: discord.Interaction,
                               picture: Picture) -> None:
        files = await self.sender.painter.files(picture)
        if not files:
            return
        try:
            await interaction.edit_original_response(attachments=files)
        except discord.HTTPException as error:
            log.info("could not attach pictures: %s", error)

