"""Fixtures: a loopback Discord and the real bot (`python -m bot`) connected to it."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from loopback import LoopbackDiscord
from loopback.process import BotProcess

pytestmark = pytest.mark.e2e


@dataclass
class World:
    discord: LoopbackDiscord
    bot: BotProcess
    database: Path


@pytest.fixture
async def world(tmp_path: Path) -> AsyncIterator[World]:
    async with LoopbackDiscord(
        users=["alice", "bob", "carol", "dave"], channels=["general", "games"]
    ) as discord:
        database = tmp_path / "bot.sqlite3"
        bot = BotProcess(discord, database, extra_env={"AI_DELAY": "0.05"})
        await bot.start()
        try:
            yield World(discord, bot, database)
        except BaseException:
            print(bot.log_tail(120))
            raise
        finally:
            await bot.stop()
