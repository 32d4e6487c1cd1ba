"""A held request (`Faults.hold`): sent by the real client and left unanswered until the test
releases it, so a test can decide what happens while the request is in flight."""

from __future__ import annotations

import asyncio

import discord

from loopback import LoopbackDiscord
from loopback.faults import Faults
from tests.loopback.tiny_bot import TinyBot

MESSAGES = r"/channels/\d+/messages$"


async def test_a_held_post_waits_until_released(loopback: LoopbackDiscord, bot: TinyBot) -> None:
    channel = bot.get_channel(loopback.channel("general").id)
    assert isinstance(channel, discord.TextChannel)
    hold = loopback.server.faults.hold("POST", MESSAGES)
    sending = asyncio.create_task(channel.send("held back"))
    await loopback.wait_for(lambda: hold.waiting == 1)
    assert not sending.done() and loopback.channel("general").messages() == []
    recorded = len(loopback.requests)  # a request is recorded once it is answered
    hold.release()
    sent = await sending
    assert [m.text for m in loopback.channel("general").messages()] == ["held back"]
    assert loopback.message(sent.id).text == "held back"
    assert len(loopback.requests) == recorded + 1


async def test_clear_releases_every_hold(loopback: LoopbackDiscord, bot: TinyBot) -> None:
    channel = bot.get_channel(loopback.channel("general").id)
    assert isinstance(channel, discord.TextChannel)
    first = await channel.send("first")
    hold = loopback.server.faults.hold("PATCH", rf"/messages/{first.id}$")
    editing = asyncio.create_task(first.edit(content="edited"))
    await loopback.wait_for(lambda: hold.waiting == 1)
    second = await channel.send("not held")  # another route goes on meanwhile
    assert loopback.message(first.id).text == "first"
    loopback.server.faults.clear()
    await editing
    assert loopback.message(first.id).text == "edited"
    assert loopback.message(second.id).text == "not held"


async def test_a_hold_of_one_request_lets_the_next_go_on() -> None:
    """discord.py sends one request of a route at a time, so the next one is asked of the
    hold directly."""
    faults = Faults()
    hold = faults.hold("POST", MESSAGES, count=1)
    held = asyncio.create_task(faults.wait_if_held("POST", "/channels/1/messages"))
    await asyncio.sleep(0)
    assert hold.waiting == 1 and not held.done()
    await asyncio.wait_for(faults.wait_if_held("POST", "/channels/1/messages"), 5)
    assert not held.done()
    hold.release()
    await asyncio.wait_for(held, 5)
