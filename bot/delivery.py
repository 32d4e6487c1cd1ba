"""Sending to channels and DMs without ever leaving a table stuck.

discord.py already waits out 429s and retries 5xx answers; what still fails here is logged
and reported as "not delivered", never raised into the table manager: the state is saved
before anything is sent, and "Show my hand" can always show it again.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import discord

from bot.render import MAX_CONTENT

if TYPE_CHECKING:
    from discord.ext import commands

log = logging.getLogger(__name__)


def chunks(text: str, limit: int = MAX_CONTENT) -> list[str]:
    """Split at line breaks into messages Discord accepts."""
    parts: list[str] = []
    current = ""
    for line in text.split("\n"):
        while len(line) > limit:
            parts.append(line[:limit])
            line = line[limit:]
        if current and len(current) + 1 + len(line) > limit:
            parts.append(current)
            current = line
        else:
            current = f"{current}\n{line}" if current else line
    if current:
        parts.append(current)
    return parts


class Delivery:
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        self._dm_channels: dict[int, discord.DMChannel] = {}

    async def channel(self, channel_id: int, content: str,
                      view: discord.ui.View | None = None,
                      files: list[discord.File] | None = None,
                      embeds: list[discord.Embed] | None = None) -> discord.Message | None:
        """Post to a channel; view, files and embeds go with the last part of a long text."""
        target = self.bot.get_partial_messageable(channel_id)
        parts = chunks(content) or [""]
        message = None
        try:
            for number, part in enumerate(parts):
                last = number == len(parts) - 1
                kwargs: dict = {}
                if last and view is not None:
                    kwargs["view"] = view
                if last and files:
                    kwargs["files"] = files
                if last and embeds:
                    kwargs["embeds"] = embeds
                text = part or (None if last and (embeds or files) else "\u200b")
                message = await target.send(text, **kwargs)
        except discord.HTTPException as error:
            log.warning("could not post in channel %s: %s", channel_id, error)
            return None
        return message

    async def _dm_channel(self, user_id: int) -> discord.DMChannel:
        channel = self._dm_channels.get(user_id)
        if channel is None:
            channel = await self.bot.create_dm(discord.Object(user_id))
            self._dm_channels[user_id] = channel
        return channel

    async def dm(self, user_id: int, content: str, view: discord.ui.View | None,
                 files: list[discord.File] | None = None) -> discord.Message | None:
        """Send a direct message (the last part carries view and files); None when the
        user's DMs are closed or Discord failed."""
        message = None
        try:
            channel = await self._dm_channel(user_id)
            parts = chunks(content)
            for number, part in enumerate(parts):
                last = number == len(parts) - 1
                kwargs: dict = {}
                if last and view is not None:
                    kwargs["view"] = view
                if last and files:
                    kwargs["files"] = files
                message = await channel.send(part, **kwargs)
        except discord.Forbidden:
            return None
        except discord.HTTPException as error:
            log.warning("could not DM user %s: %s", user_id, error)
            return None
        return message

    async def strip_components(self, channel_id: int, message_id: int) -> None:
        """Take the buttons off a message whose choices are out of date."""
        message = self.bot.get_partial_messageable(channel_id).get_partial_message(message_id)
        try:
            await message.edit(view=None)
        except discord.HTTPException as error:
            log.info("could not clear message %s: %s", message_id, error)

    async def edit(self, channel_id: int, message_id: int, content: str,
                   view: discord.ui.View | None) -> None:
        message = self.bot.get_partial_messageable(channel_id).get_partial_message(message_id)
        try:
            await message.edit(content=content[:MAX_CONTENT], view=view)
        except discord.HTTPException as error:
            log.warning("could not edit message %s: %s", message_id, error)

    async def delete(self, channel_id: int, message_id: int) -> None:
        message = self.bot.get_partial_messageable(channel_id).get_partial_message(message_id)
        try:
            await message.delete()
        except discord.HTTPException as error:
            log.info("could not delete message %s: %s", message_id, error)
