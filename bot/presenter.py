"""The Discord side of the table service: interactions in, service calls, replies out.

It decides nothing: a click becomes a service call; the outcome becomes the interaction's
answer (an ephemeral error, the seat's updated view where it clicked, a modal). Everything
else a step tells goes through the outbox (`bot.sender`).
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Awaitable
from typing import TYPE_CHECKING, Any, TypeVar

import discord

from bot import components, i18n
from bot.cash_desk import CashDesk
from bot.messages import prompt_from_json
from bot.outcomes import NeedText, Private
from bot.render import localized_prompt
from bot.service import TableService
from bot.table import TableError, error_text
from engine.game import Prompt, TextAsk

if TYPE_CHECKING:
    from bot.sender import Sender

log = logging.getLogger(__name__)
T = TypeVar("T")

# Discord drops a click not answered within 3 s ("This interaction failed"); one still being
# worked on by then (a busy bot: its database queue is long) is acknowledged first.
DEFER_AFTER = 2.0

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


async def reply(interaction: discord.Interaction, text: str) -> None:
    """An ephemeral answer, whether or not the interaction was answered before. One whose
    3 s ran out before the bot got to it (a process far behind) can no longer be answered:
    that is logged, not raised as an error in the click's handler."""
    try:
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)
    except discord.NotFound as error:
        log.info("could not answer an expired interaction: %s", error)


async def in_time(interaction: discord.Interaction, work: Awaitable[T]) -> T:
    """`work`'s result; if it is not ready DEFER_AFTER after Discord made the interaction
    (counted from then: a busy process may get to it late), the click is acknowledged
    meanwhile as a deferred update (the clicked message shows it is loading), so the answer,
    when it comes, edits that message instead of finding the interaction expired."""
    task = asyncio.ensure_future(work)
    age = (discord.utils.utcnow() - interaction.created_at).total_seconds()
    done, _ = await asyncio.wait({task}, timeout=max(0.0, DEFER_AFTER - age))
    if not done and not interaction.response.is_done():
        try:
            await interaction.response.defer()
        except discord.HTTPException as error:
            log.info("could not defer a slow answer: %s", error)
    return await task


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

    async def open_table(self, interaction: discord.Interaction, kind: str,
                         options: dict[str, Any]) -> None:
        await i18n.for_interaction(interaction)
        channel_id = interaction.channel_id
        if interaction.guild_id is None or channel_id is None:
            await reply(interaction, i18n.t("Games are played in a server channel, not in DMs."))
            return
        user = interaction.user
        try:
            table_id, outcome = await self.service.open_table(
                interaction.guild_id, channel_id, user.id, user.display_name, kind, options)
        except TableError as error:
            await reply(interaction, i18n.render(error_text(error)))
            return
        if not outcome.open:  # a one-person game starts at once
            await interaction.response.send_message(outcome.content)
            return
        with i18n.using(i18n.guild_locale(interaction.guild_id)):  # the channel's language
            lobby = components.lobby_view(table_id)
        await interaction.response.send_message(outcome.content, view=lobby)
        if outcome.open:
            message = await interaction.original_response()
            await self.service.remember_message(table_id, "lobby", channel_id, message.id)

    async def lobby_action(self, interaction: discord.Interaction, table_id: str,
                           op: str) -> None:
        await i18n.for_interaction(interaction)
        user = interaction.user
        try:
            outcome = await self.service.lobby_action(table_id, user.id, user.display_name, op,
                                                      is_admin=is_admin(interaction))
        except TableError as error:
            await reply(interaction, i18n.render(error_text(error)))
            return
        with i18n.using(i18n.guild_locale(interaction.guild_id)):  # the channel's language
            view = components.lobby_view(table_id) if outcome.open else None
        await interaction.response.edit_message(content=outcome.content, view=view)

    async def cash_action(self, interaction: discord.Interaction, table_id: str,
                          op: str) -> None:
        await i18n.for_interaction(interaction)
        user = interaction.user
        try:
            text = await self.cash.act(table_id, user.id, user.display_name, op,
                                       is_admin=is_admin(interaction))
        except TableError as error:
            await reply(interaction, i18n.render(error_text(error)))
            return
        await reply(interaction, text)

    async def status(self, interaction: discord.Interaction) -> None:
        await i18n.for_interaction(interaction)
        text = self.service.status(interaction.channel_id or 0, interaction.user.id)
        await interaction.response.send_message(text, ephemeral=True)

    async def abort(self, interaction: discord.Interaction) -> None:
        await i18n.for_interaction(interaction)
        user = interaction.user
        try:
            text = await self.service.abort(interaction.channel_id or 0, user.id,
                                            user.display_name, is_admin=is_admin(interaction))
        except TableError as error:
            await reply(interaction, i18n.render(error_text(error)))
            return
        await interaction.response.send_message(text)

    async def show_hand(self, interaction: discord.Interaction, table_id: str) -> None:
        await i18n.for_interaction(interaction)
        try:
            private = await self.service.show_hand(table_id, interaction.user.id)
        except TableError as error:
            await reply(interaction, i18n.render(error_text(error)))
            return
        await interaction.response.send_message(
            private.content, view=components.prompt_view(table_id, private.seat, private.stamp,
                                                          localized_prompt(private.prompt)),
            ephemeral=True,
        )

    async def answer(self, interaction: discord.Interaction, table_id: str, seat: int,
                     stamp: str, index: int, *, values: list[str] | None = None,
                     text: str | None = None) -> None:
        await i18n.for_interaction(interaction)
        try:
            outcome = await in_time(interaction, self.service.act(
                table_id, interaction.user.id, seat, stamp, index, values=values, text=text))
        except TableError as error:
            await reply(interaction, i18n.render(error_text(error)))
            return
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
            self.sender.answered_here(private.table_id, private.seat, interaction, private.step)
        elif interaction.message is not None and clicked:
            try:
                await interaction.response.edit_message(**shown)
            except discord.NotFound as error:
                # It expired before the bot got to it (a process far behind): the move is
                # made and saved, and "Show my hand" shows the seat where it stands.
                log.info("could not answer an expired click: %s", error)
                return
            # In a DM, the seat's next prompt may take this message's place (`bot.in_place`).
            self.sender.answered_here(private.table_id, private.seat, interaction, private.step)
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

