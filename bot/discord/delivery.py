"""Sending to channels and DMs without ever leaving a table stuck.

discord.py already waits out 429s and retries 5xx answers; what still fails here is logged
and reported as "not delivered", never raised into the table manager: the state is saved
before anything is sent, and "Show my hand" can always show it again.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any, Protocol

import discord

from bot.present.render import MAX_CONTENT

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


class DiscordClient(Protocol):
    """What sending needs of discord.py's client: a channel by its id, and a person's DMs.
    The bot is one; so is the tests' in-process fake of Discord
    (tests/support/fake_discord.py), which is why this is all the sender may ask of it."""

    def get_partial_messageable(self, id: int) -> discord.PartialMessageable: ...

    async def create_dm(self, user: discord.abc.Snowflake) -> discord.DMChannel: ...


class Delivery:
    def __init__(self, bot: DiscordClient) -> None:
        self.bot = bot
        self._dm_channels: dict[int, discord.DMChannel] = {}

    @staticmethod
    async def _send(target: discord.abc.Messageable, content: str, nonce: str | None = None,
                    pings: Sequence[int] = (), **extras: Any) -> discord.Message:
        """Send a text in as many messages as it needs; view, files and embeds go with the
        last one, so they stay under the whole text. With a nonce, each part carries its own
        (Discord hands back the message it already made for a nonce instead of a copy).
        `pings`: the users it may ping, in every part (nobody else: the bot's default)."""
        parts = chunks(content) or [""]
        message: discord.Message | None = None
        for number, part in enumerate(parts):
            last = number == len(parts) - 1
            kwargs = {key: value for key, value in extras.items() if last and value}
            if pings:
                kwargs["allowed_mentions"] = discord.AllowedMentions(
                    users=[discord.Object(user) for user in pings])
            if nonce is not None:
                kwargs["nonce"] = nonce if number == 0 else f"{nonce}.{number}"
            text = part or (None if kwargs.get("embeds") or kwargs.get("files") else "\u200b")
            message = await target.send(text, **kwargs)
        assert message is not None
        return message

    async def channel(self, channel_id: int, content: str,
                      view: discord.ui.View | None = None,
                      files: list[discord.File] | None = None,
                      embeds: list[discord.Embed] | None = None,
                      nonce: str | None = None,
                      pings: Sequence[int] = ()) -> discord.Message | None:
        """Post to a channel, allowed to ping `pings` (user ids) and nobody else; None when
        Discord failed (logged)."""
        target = self.bot.get_partial_messageable(channel_id)
        try:
            return await self._send(target, content, nonce, pings, view=view, files=files,
                                    embeds=embeds)
        except discord.HTTPException as error:
            log.warning("could not post in channel %s: %s", channel_id, error)
            return None

    async def _dm_channel(self, user_id: int) -> discord.DMChannel:
        channel = self._dm_channels.get(user_id)
        if channel is None:
            channel = await self.bot.create_dm(discord.Object(user_id))
            self._dm_channels[user_id] = channel
        return channel

    async def dm(self, user_id: int, content: str, view: discord.ui.View | None,
                 files: list[discord.File] | None = None,
                 nonce: str | None = None) -> discord.Message | None:
        """Send a direct message; None when the user's DMs are closed or Discord failed."""
        try:
            channel = await self._dm_channel(user_id)
            return await self._send(channel, content, nonce, view=view, files=files)
        except discord.Forbidden:
            return None
        except discord.HTTPException as error:
            log.warning("could not DM user %s: %s", user_id, error)
            return None

    async def strip_components(self, channel_id: int, message_id: int) -> None:
        """Take the buttons off a message whose choices are out of date."""
        message = self.bot.get_partial_messageable(channel_id).get_partial_message(message_id)
        try:
            await message.edit(view=None)
        except discord.HTTPException as error:
            log.info("could not clear message %s: %s", message_id, error)

    async def edit(self, channel_id: int, message_id: int, content: str,
                   view: discord.ui.View | None,
                   files: list[discord.File] | None = None,
                   embeds: list[discord.Embed] | None = None) -> bool:
        """Replace a message's text and components, and its pictures and boxes when given
        (an empty list takes them off; None keeps the ones it has); False when Discord
        failed (logged)."""
        message = self.bot.get_partial_messageable(channel_id).get_partial_message(message_id)
        changes: dict[str, Any] = {"content": content[:MAX_CONTENT], "view": view}
        if files is not None:
            changes["attachments"] = files
        if embeds is not None:
            changes["embeds"] = embeds
        try:
            await message.edit(**changes)
        except discord.HTTPException as error:
            log.warning("could not edit message %s: %s", message_id, error)
            return False
        return True

    async def delete(self, channel_id: int, message_id: int) -> None:
        message = self.bot.get_partial_messageable(channel_id).get_partial_message(message_id)
        try:
            await message.delete()
        except discord.HTTPException as error:
            log.info("could not delete message %s: %s", message_id, error)
