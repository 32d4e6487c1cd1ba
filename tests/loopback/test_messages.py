"""Channel messages through the real client: files, edits, limits, rate limits, server errors."""

from __future__ import annotations

import io
import time

import discord
import pytest
from discord.http import Route

from loopback import LoopbackDiscord
from tests.loopback.tiny_bot import TinyBot

MESSAGES = r"/channels/\d+/messages$"


def general(loopback: LoopbackDiscord, bot: TinyBot) -> discord.TextChannel:
    channel = bot.get_channel(loopback.channel("general").id)
    assert isinstance(channel, discord.TextChannel)
    return channel


async def test_send_edit_delete_with_history(loopback: LoopbackDiscord, bot: TinyBot) -> None:
    channel = general(loopback, bot)
    sent = await channel.send("Hand 1", embed=discord.Embed(title="Pot", description="12 chips"),
                              file=discord.File(io.BytesIO(b"img"), filename="board.png"))
    record = loopback.message(sent.id)
    assert record.text == "Hand 1\nPot\n12 chips"
    assert record.attachment("board.png") is not None
    assert record.attachment("board.png").content_type == "image/png"  # type: ignore[union-attr]
    assert sent.attachments[0].filename == "board.png"

    edited = await sent.edit(content="Hand 1 (over)", attachments=[])
    assert edited.content == "Hand 1 (over)"
    record = loopback.message(sent.id)
    assert record.attachments == [] and record.embeds[0]["title"] == "Pot"
    assert [v.content for v in record.history] == ["Hand 1"] and record.edited_at is not None

    with pytest.raises(discord.HTTPException) as emptied:
        await sent.edit(content="", embed=None)
    assert emptied.value.code == 50006
    fetched = await channel.fetch_message(sent.id)
    assert fetched.content == "Hand 1 (over)"
    assert [m.id async for m in channel.history(limit=5)] == [sent.id]
    await sent.delete()
    assert loopback.channel("general").messages() == []
    assert loopback.message(sent.id).deleted
    with pytest.raises(discord.NotFound):
        await channel.fetch_message(sent.id)


async def test_message_limits_answer_400_50035(loopback: LoopbackDiscord, bot: TinyBot) -> None:
    channel = general(loopback, bot)
    await channel.send("x" * 2000)
    with pytest.raises(discord.HTTPException) as raised:
        await channel.send("x" * 2001)
    assert (raised.value.status, raised.value.code) == (400, 50035)
    assert "content" in raised.value.text and "2000 or fewer" in raised.value.text

    with pytest.raises(discord.HTTPException) as raised:
        await channel.send(embed=discord.Embed(title="t" * 257))
    assert raised.value.code == 50035

    with pytest.raises(discord.HTTPException) as raised:
        await channel.send("")
    assert (raised.value.status, raised.value.code) == (400, 50006)


async def test_five_by_five_components(loopback: LoopbackDiscord, bot: TinyBot) -> None:
    view = discord.ui.View()
    for i in range(25):
        view.add_item(discord.ui.Button(label=f"{i}", custom_id=f"b{i}"))
    full = await general(loopback, bot).send("grid", view=view)
    assert len(loopback.message(full.id).buttons()) == 25

    # discord.py refuses a sixth row itself, so send the raw payload through its HTTP client.
    def row(r: int) -> dict:
        return {"type": 1, "components": [
            {"type": 2, "style": 1, "label": "b", "custom_id": f"r{r}"}]}

    route = Route("POST", "/channels/{channel_id}/messages",
                  channel_id=loopback.channel("general").id)
    with pytest.raises(discord.HTTPException) as raised:
        await bot.http.request(route, json={"content": "six", "components": [
            row(r) for r in range(6)]})
    assert (raised.value.status, raised.value.code) == (400, 50035)
    with pytest.raises(discord.HTTPException) as raised:
        await bot.http.request(route, json={"content": "mixed", "components": [{
            "type": 1, "components": [
                {"type": 3, "custom_id": "s", "options": [{"label": "a", "value": "a"}]},
                {"type": 2, "style": 1, "label": "b", "custom_id": "b"}]}]})
    assert raised.value.code == 50035 and "maximum width" in raised.value.text
    details = loopback.errors()[-1].details
    assert details is not None and "1" in details["components"]["0"]["components"]


async def test_rate_limit_then_success(loopback: LoopbackDiscord, bot: TinyBot) -> None:
    loopback.fail_next("POST", MESSAGES, 429, retry_after=0.1)
    started = time.monotonic()
    sent = await general(loopback, bot).send("after the wait")
    assert time.monotonic() - started >= 0.1
    statuses = [r.status for r in loopback.requests if r.method == "POST" and "messages" in r.path]
    assert statuses == [429, 200]
    assert [m.id for m in loopback.channel("general").messages()] == [sent.id]
    assert loopback.errors() == [] and loopback.errors(injected=True)[0].status == 429
    assert loopback.stats.requests["message_create"] == 2  # the injected 429 counts as sent


async def test_rate_limited_interaction_callback_is_retried(
    loopback: LoopbackDiscord, bot: TinyBot
) -> None:
    loopback.fail_next("POST", r"/interactions/\d+/[^/]+/callback$", 429, retry_after=0.05)
    result = await loopback.user("alice").slash("general", "echo text:patient")
    assert result.text == "patient"


async def test_server_errors_surface(loopback: LoopbackDiscord, bot: TinyBot) -> None:
    loopback.fail_next("POST", MESSAGES, 503)
    with pytest.raises(discord.DiscordServerError) as raised:
        await general(loopback, bot).send("lost")
    assert raised.value.status == 503
    # discord.py retries a 500 after a second; one failure is survivable.
    loopback.fail_next("*", MESSAGES, 500)
    sent = await general(loopback, bot).send("second try")
    assert loopback.message(sent.id).content == "second try"


async def test_editing_someone_elses_message_is_forbidden(
    loopback: LoopbackDiscord, bot: TinyBot
) -> None:
    said = await loopback.user("alice").say("general", "my message")
    message = await general(loopback, bot).fetch_message(said.id)
    with pytest.raises(discord.Forbidden) as raised:
        await message.edit(content="hijacked")
    assert raised.value.code == 50005
    reply = await message.reply("mine is better")
    assert reply.reference is not None and reply.reference.message_id == said.id
    assert loopback.message(reply.id).reply_to == said.id
    with pytest.raises(discord.NotFound) as missing:
        await bot.http.send_message(1234, params=discord.http.handle_message_parameters("x"))
    assert missing.value.code == 10003


async def test_direct_messages_and_closed_dms(loopback: LoopbackDiscord, bot: TinyBot) -> None:
    bob = loopback.user("bob")
    member = bot.get_guild(loopback.state.guild.id).get_member(bob.id)  # type: ignore[union-attr]
    assert member is not None
    await member.send("psst", file=discord.File(io.BytesIO(b"AsKs"), filename="hand.txt"))
    assert [m.content for m in bob.dms()] == ["psst"]
    assert bob.last_dm.attachment("hand.txt").data == b"AsKs"  # type: ignore[union-attr]
    bob.close_dms()
    with pytest.raises(discord.Forbidden) as raised:
        await member.send("psst again")
    assert (raised.value.status, raised.value.code) == (403, 50007)
    assert [m.content for m in bob.dms()] == ["psst"]


async def test_a_channel_names_its_last_message_even_once_deleted(
    loopback: LoopbackDiscord, bot: TinyBot
) -> None:
    """As on Discord, `last_message_id` may name a deleted message; a person's counts too."""
    channel = general(loopback, bot)
    first = await channel.send("one")
    second = await channel.send("two")
    fetched = await bot.fetch_channel(channel.id)
    assert isinstance(fetched, discord.TextChannel) and fetched.last_message_id == second.id
    await second.delete()
    fetched = await bot.fetch_channel(channel.id)
    assert isinstance(fetched, discord.TextChannel) and fetched.last_message_id == second.id
    typed = await loopback.user("alice").say("general", "hello")
    fetched = await bot.fetch_channel(channel.id)
    assert isinstance(fetched, discord.TextChannel) and fetched.last_message_id == typed.id
    assert first.id < second.id < typed.id
