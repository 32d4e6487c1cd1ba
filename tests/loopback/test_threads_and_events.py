"""Threads and guild scheduled events through the real client: what a tournament needs (a
thread per table, a scheduled event for the evening), and what Discord refuses of them."""

from __future__ import annotations

import datetime as dt

import discord
import pytest

from loopback import LoopbackDiscord
from tests.loopback.tiny_bot import TinyBot


def general(loopback: LoopbackDiscord, bot: TinyBot) -> discord.TextChannel:
    channel = bot.get_channel(loopback.channel("general").id)
    assert isinstance(channel, discord.TextChannel)
    return channel


def soon(loopback: LoopbackDiscord, hours: float) -> dt.datetime:
    return dt.datetime.fromtimestamp(loopback.clock.time(), dt.UTC) + \
        dt.timedelta(hours=hours)


async def test_a_thread_holds_its_own_messages(loopback: LoopbackDiscord, bot: TinyBot) -> None:
    channel = general(loopback, bot)
    thread = await channel.create_thread(name="Round 1 · Table 1",
                                         type=discord.ChannelType.public_thread)
    assert thread.parent_id == channel.id and thread.name == "Round 1 · Table 1"
    sent = await thread.send("Alice and Bob, your table.")
    [handle] = loopback.threads("general")
    assert handle.id == thread.id
    assert [m.text for m in handle.messages()] == ["Alice and Bob, your table."]
    assert loopback.channel("general").messages() == []  # the channel itself shows none of it
    assert loopback.message(sent.id).channel_id == thread.id

    archived = await thread.edit(archived=True, locked=True)
    assert archived.archived and archived.locked
    assert loopback.thread(thread.id).archived
    await thread.send("Results are in.")  # the bot may: it manages threads
    assert not loopback.thread(thread.id).archived
    loopback.assert_no_rejected()  # every body was one Discord's schemas accept


async def test_a_thread_from_a_message_takes_its_id_once(loopback: LoopbackDiscord,
                                                         bot: TinyBot) -> None:
    channel = general(loopback, bot)
    pairing = await channel.send("Round 2 pairings")
    thread = await pairing.create_thread(name="Table 2")
    assert thread.id == pairing.id
    with pytest.raises(discord.HTTPException) as again:
        await pairing.create_thread(name="Table 2 again")
    assert again.value.code == 160004
    with pytest.raises(discord.HTTPException) as nameless:
        await channel.create_thread(name="x" * 101, type=discord.ChannelType.public_thread)
    assert (nameless.value.status, nameless.value.code) == (400, 50035)


async def test_a_channel_that_is_not_a_thread_is_not_the_bots_to_edit(
        loopback: LoopbackDiscord, bot: TinyBot) -> None:
    with pytest.raises(discord.Forbidden) as refused:
        await general(loopback, bot).edit(name="renamed")
    assert refused.value.code == 50013
    assert loopback.channel("general").name == "general"


async def test_a_scheduled_event_and_who_is_interested(loopback: LoopbackDiscord,
                                                       bot: TinyBot) -> None:
    guild = general(loopback, bot).guild
    start, end = soon(loopback, 2), soon(loopback, 5)
    event = await guild.create_scheduled_event(
        name="Sppoker night", start_time=start, end_time=end,
        entity_type=discord.EntityType.external, location="#general",
        privacy_level=discord.PrivacyLevel.guild_only, description="Swiss, 3 rounds")
    assert event.name == "Sppoker night" and event.location == "#general"
    assert event.start_time == start.replace(microsecond=0) or event.start_time == start
    [saved] = loopback.scheduled_events()
    assert saved.id == event.id and saved.status == 1

    loopback.mark_interested(event.id, "alice")
    interested = [user.name async for user in event.users()]
    assert interested == ["alice"]

    started = await event.start()
    assert started.status == discord.EventStatus.active
    with pytest.raises(discord.HTTPException) as backwards:
        await started.edit(status=discord.EventStatus.scheduled)
    assert backwards.value.code == 50035
    ended = await started.end()
    assert ended.status == discord.EventStatus.completed
    await ended.delete()
    assert loopback.scheduled_events() == []
    with pytest.raises(discord.NotFound) as gone:
        await guild.fetch_scheduled_event(event.id)
    assert gone.value.code == 10070


async def test_an_event_in_the_past_or_without_a_place_is_refused(loopback: LoopbackDiscord,
                                                                  bot: TinyBot) -> None:
    guild = general(loopback, bot).guild
    with pytest.raises(discord.HTTPException) as past:
        await guild.create_scheduled_event(
            name="Yesterday", start_time=soon(loopback, -24), end_time=soon(loopback, -20),
            entity_type=discord.EntityType.external, location="#general",
            privacy_level=discord.PrivacyLevel.guild_only)
    assert past.value.code == 50035 and "in the past" in past.value.text
    with pytest.raises(discord.HTTPException) as backwards:
        await guild.create_scheduled_event(
            name="Backwards", start_time=soon(loopback, 3), end_time=soon(loopback, 2),
            entity_type=discord.EntityType.external, location="#general",
            privacy_level=discord.PrivacyLevel.guild_only)
    assert "must be after the start" in backwards.value.text
    assert loopback.scheduled_events() == []
    assert len(loopback.rejected()) == 2  # those two, no malformed body besides
