"""Login, command sync and the gateway's life: READY, guilds, resumes and re-identifies."""

from __future__ import annotations

import asyncio
import time

import aiohttp
import discord
import pytest

from loopback import BotNotConnected, InteractionFailed, LoopbackDiscord
from loopback.gateway import HEARTBEAT_ACK_DELAY
from tests.loopback.tiny_bot import TinyBot
from tests.support.patience import patient


async def test_login_sync_and_guild(loopback: LoopbackDiscord, bot: TinyBot) -> None:
    paths = [(r.method, r.path) for r in loopback.requests]
    assert ("GET", "/users/@me") in paths
    assert ("GET", "/oauth2/applications/@me") in paths
    guild_id, app_id = loopback.state.guild.id, loopback.state.application_id
    assert ("PUT", f"/applications/{app_id}/guilds/{guild_id}/commands") in paths
    assert ("PUT", f"/applications/{app_id}/commands") in paths
    assert {c["name"] for c in loopback.commands(guild=True)} >= {"table", "sppoker", "echo"}
    assert all(c["id"] and c["application_id"] == str(app_id) for c in loopback.commands())

    await loopback.wait_for(lambda: "ready" in bot.events)
    assert bot.user is not None and bot.user.name == "Dealer"
    guild = bot.get_guild(guild_id)
    assert guild is not None and guild.chunked
    assert {c.name for c in guild.text_channels} == {"general", "poker"}
    assert {m.name for m in guild.members} == {"Dealer", "alice", "bob"}
    assert guild.owner_id == loopback.user("alice").id
    assert loopback.gateway.heartbeat_count >= 1
    loopback.assert_no_errors()


async def test_resync_keeps_command_ids(loopback: LoopbackDiscord, bot: TinyBot) -> None:
    before = {c["name"]: c["id"] for c in loopback.commands(guild=True)}
    await bot.tree.sync(guild=discord.Object(loopback.state.guild.id))
    assert {c["name"]: c["id"] for c in loopback.commands(guild=True)} == before
    fetched = await bot.tree.fetch_commands(guild=discord.Object(loopback.state.guild.id))
    assert {c.name: str(c.id) for c in fetched} == before


async def test_close_4000_resumes_and_replays_missed_events(
    loopback: LoopbackDiscord, bot: TinyBot
) -> None:
    await loopback.close_gateway(4000)
    # Sent while the bot is away: delivered by the replay after its RESUME.
    await loopback.user("bob").say("general", "while you were out")
    result = await loopback.user("alice").slash("general", "echo text:back")
    assert result.text == "back"
    await loopback.wait_for(lambda: any(m.content == "while you were out" for m in bot.seen))
    await loopback.wait_for(lambda: "resumed" in bot.events)
    assert (loopback.gateway.resume_count, loopback.gateway.identify_count) == (1, 1)


async def test_reconnect_request_resumes(loopback: LoopbackDiscord, bot: TinyBot) -> None:
    await loopback.request_reconnect()
    await loopback.wait_for(lambda: loopback.gateway.resume_count == 1)
    assert (await loopback.user("alice").slash("general", "echo text:ok")).text == "ok"


async def test_invalid_session_makes_the_bot_identify_again(
    loopback: LoopbackDiscord, bot: TinyBot
) -> None:
    await loopback.invalidate_session(resumable=False)
    await loopback.wait_for_bot_ready(identifies=2, timeout=5)
    assert (await loopback.user("alice").slash("general", "echo text:again")).text == "again"


async def test_resume_of_a_dead_session_is_refused(
    loopback: LoopbackDiscord, bot: TinyBot
) -> None:
    await loopback.close_gateway(4000, invalidate=True)
    await loopback.wait_for_bot_ready(identifies=2, timeout=5)
    assert loopback.gateway.invalid_session_count == 1
    assert loopback.gateway.resume_count == 0
    assert (await loopback.user("bob").slash("general", "echo text:fresh")).text == "fresh"


async def test_members_joining_and_typing_reach_the_bot(
    loopback: LoopbackDiscord, bot: TinyBot
) -> None:
    carol = loopback.add_user("carol")
    await loopback.wait_for(lambda: "join:carol" in bot.events)
    await carol.say("general", "hello dealer")
    await loopback.wait_for(lambda: any(m.content == "hello dealer" for m in bot.seen))
    seen = next(m for m in bot.seen if m.content == "hello dealer")
    assert seen.author.id == carol.id and seen.channel.name == "general"


async def test_a_wrong_token_is_refused(loopback: LoopbackDiscord, point_client: None) -> None:
    client = discord.Client(intents=discord.Intents.default())
    with pytest.raises(discord.LoginFailure):
        await client.login("not-the-token")
    await client.close()
    assert loopback.errors()[-1].status == 401


async def test_interactions_need_a_connected_bot(loopback: LoopbackDiscord) -> None:
    loopback.state.overwrite_commands(None, [{"name": "echo", "description": "Echo"}])
    with pytest.raises(BotNotConnected):
        await loopback.user("alice").slash("general", "echo")


# On a fatal close discord.py dispatches one more event after resetting its loop; the
# coroutine it made is never run. That is the library's teardown, not the loopback's.
@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")
@pytest.mark.filterwarnings("ignore:coroutine .Client._run_event. was never awaited")
async def test_a_bot_that_dies_fails_the_click_clearly(
    loopback: LoopbackDiscord, bot: TinyBot
) -> None:
    await loopback.close_gateway(4004)  # fatal: discord.py gives up, as a crashed bot would
    await loopback.wait_for(lambda: bot.is_closed())
    with pytest.raises(InteractionFailed, match="not connected"):
        await loopback.user("alice").slash("general", "echo text:x", timeout=0.2)


async def test_without_the_content_intent_guild_messages_arrive_empty(
    loopback: LoopbackDiscord, point_client: None
) -> None:
    seen: list[discord.Message] = []

    class Quiet(discord.Client):
        async def on_message(self, message: discord.Message) -> None:
            seen.append(message)

    client = Quiet(intents=discord.Intents.default(), guild_ready_timeout=0.05)
    task = asyncio.create_task(client.start(loopback.token))
    try:
        await loopback.wait_for_bot_ready(commands=False)
        alice = loopback.user("alice")
        await alice.say("general", "secret plan")
        await alice.say("general", f"<@{loopback.bot.id}> hi")
        await alice.say("dm", "hello in private")
        await loopback.wait_for(lambda: len(seen) == 3)
        assert [m.content for m in seen] == ["", f"<@{loopback.bot.id}> hi", "hello in private"]
        assert client.user in seen[1].mentions
    finally:
        await client.close()
        await asyncio.wait_for(task, patient(5))
        await asyncio.sleep(0.01)


async def test_watch_follows_what_the_bot_does(loopback: LoopbackDiscord, bot: TinyBot) -> None:
    changes: list[tuple[str, str]] = []

    async def follow() -> None:
        async for change, message in loopback.watch():
            changes.append((change, message.content))

    watcher = asyncio.create_task(follow())
    await asyncio.sleep(0)
    alice = loopback.user("alice")
    await alice.slash("general", "lobby")
    await alice.click(label="Join")
    await loopback.wait_for(lambda: len(changes) == 2)
    watcher.cancel()
    assert changes == [("created", "Lobby: nobody"), ("edited", "Lobby: alice")]


async def test_a_heartbeat_is_acknowledged_after_a_round_trip(loopback: LoopbackDiscord) -> None:
    """Not in the same instant: discord.py counts a beat as sent only once its thread sees the
    send finish, and measured an instant ACK against the beat before (41 s "behind")."""
    async with aiohttp.ClientSession() as http, http.ws_connect(
        f"{loopback.gateway_url}?v=10&encoding=json"
    ) as ws:
        hello = await ws.receive_json(timeout=patient(5))
        assert hello["op"] == 10
        sent = time.monotonic()
        await ws.send_json({"op": 1, "d": None})
        ack = await ws.receive_json(timeout=patient(5))
        assert ack["op"] == 11
        assert time.monotonic() - sent >= HEARTBEAT_ACK_DELAY * 0.9
