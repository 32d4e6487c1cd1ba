"""Fixtures: a fresh loopback Discord per test, and the tiny real discord.py bot connected to it.
The loopback is a PatientDiscord: its waits give up only after what a busy machine needs
(tests/support/patience.py)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator

import discord
import pytest
import yarl

from loopback import LoopbackDiscord
from tests.loopback.tiny_bot import TinyBot
from tests.support.patience import PatientDiscord, patient


@pytest.fixture
async def loopback() -> AsyncIterator[LoopbackDiscord]:
    async with PatientDiscord(users=["alice", "bob"], channels=["general", "poker"],
                              ack_timeout=3.0) as server:
        yield server


@pytest.fixture
def point_client(loopback: LoopbackDiscord, monkeypatch: pytest.MonkeyPatch) -> None:
    """What the real bot does from DISCORD_API_BASE / DISCORD_GATEWAY_URL, undone afterwards."""
    env = loopback.bot_env()
    monkeypatch.setattr(discord.http.Route, "BASE", env["DISCORD_API_BASE"])
    monkeypatch.setattr(discord.gateway.DiscordWebSocket, "DEFAULT_GATEWAY",
                        yarl.URL(env["DISCORD_GATEWAY_URL"]))


@pytest.fixture
async def bot(loopback: LoopbackDiscord, point_client: None) -> AsyncIterator[TinyBot]:
    client = TinyBot(loopback.state.guild.id)
    task = asyncio.create_task(client.start(loopback.token))
    try:
        await loopback.wait_for_bot_ready(timeout=10)
        yield client
        assert client.is_closed() or not task.done(), f"the bot stopped during the test: {task}"
    finally:
        await client.close()
        # A test may have killed the bot on purpose; its exception is that test's business.
        with contextlib.suppress(Exception, asyncio.CancelledError):
            await asyncio.wait_for(task, patient(5))
        # Let the events discord.py schedules while closing run before the loop goes away.
        await asyncio.sleep(0.01)
