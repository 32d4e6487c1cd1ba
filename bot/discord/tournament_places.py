"""The tournament's places in Discord: the threads its tables play in, the posts in its
channel (with the standings pictures), its sign-up message and its scheduled event.

`bot.core.tournament_state.TournamentPlaces` is what the core asks of Discord; this is the
one implementation. A scheduled event is Discord's own reminder and "interested" list: an
external event (the location is the tournament's channel) from the start time, marked
active at the start and completed at the end. It is a courtesy: when Discord refuses it (no
Create Events permission), the tournament goes on without one.
"""

from __future__ import annotations

import io
import logging
from datetime import UTC, datetime, timedelta

import discord

log = logging.getLogger(__name__)

EVENT_HOURS = 3  # an external event needs an end: the evening's length, as a guess


class DiscordPlaces:
    """Threads, posts, edits and the scheduled event, through discord.py's client."""

    def __init__(self, client: discord.Client) -> None:
        self.client = client

    async def _channel(self, channel_id: int) -> discord.abc.GuildChannel | discord.Thread:
        found = self.client.get_channel(channel_id)
        if found is None:
            fetched = await self.client.fetch_channel(channel_id)
            if isinstance(fetched, discord.abc.PrivateChannel):
                raise LookupError(f"channel {channel_id} is not a server's channel")
            return fetched
        if isinstance(found, discord.abc.PrivateChannel):
            raise LookupError(f"channel {channel_id} is not a server's channel")
        return found

    async def create_thread(self, channel_id: int, name: str) -> int:
        """A public thread of the tournament's channel for one table."""
        channel = await self._channel(channel_id)
        if not isinstance(channel, discord.TextChannel):
            raise LookupError(f"channel {channel_id} cannot hold threads")
        thread = await channel.create_thread(name=name[:100],
                                             type=discord.ChannelType.public_thread,
                                             auto_archive_duration=1440)
        return thread.id

    async def post(self, channel_id: int, text: str, files: list[tuple[str, bytes]]) -> None:
        target = self.client.get_partial_messageable(channel_id)
        await target.send(text[:2000], files=[discord.File(io.BytesIO(data), filename=name)
                                              for name, data in files])

    async def edit_message(self, channel_id: int, message_id: int, text: str) -> None:
        """The sign-up message brought up to date, its buttons gone (it has started)."""
        message = self.client.get_partial_messageable(channel_id).get_partial_message(
            message_id)
        await message.edit(content=text[:2000], view=None)

    async def create_event(self, guild_id: int, channel_id: int, name: str,
                           description: str, start: float) -> int | None:
        guild = self.client.get_guild(guild_id)
        if guild is None:
            return None
        begins = datetime.fromtimestamp(start, UTC)
        channel = guild.get_channel(channel_id)
        location = f"#{channel.name}" if channel is not None else f"<#{channel_id}>"
        try:
            event = await guild.create_scheduled_event(
                name=name[:100], start_time=begins, end_time=begins + timedelta(hours=EVENT_HOURS),
                entity_type=discord.EntityType.external, location=location[:100],
                privacy_level=discord.PrivacyLevel.guild_only, description=description[:1000])
        except discord.HTTPException as error:
            log.warning("no scheduled event for the tournament in %s: %s", channel_id, error)
            return None
        return event.id

    async def set_event(self, guild_id: int, event_id: int, status: str) -> None:
        guild = self.client.get_guild(guild_id)
        if guild is None:
            return
        event = await guild.fetch_scheduled_event(event_id)
        if event.status is discord.EventStatus.scheduled:
            if status == "active":
                await event.start()
            else:  # over before it began
                await event.cancel()
        elif event.status is discord.EventStatus.active and status != "active":
            await event.end()
