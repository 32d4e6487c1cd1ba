"""Stopping the bot (`docker stop`'s SIGINT, systemd's SIGTERM) while a command is under way:
the command finishes before the store closes, a command sent meanwhile is told the bot is
restarting, and the bot exits with 0 and no traceback.

The CI's image check once stopped the bot just after `/sppoker start` had posted its lobby
and before the command had remembered the lobby's message: the store closed under it ("pool
is closing"), the table was left without its lobby, and a traceback reached the log. Here the
command's answer is held in flight by the loopback (`Faults.hold`), the signal is sent while
it waits, and only once the bot says it is waiting for it is the answer let go. Discord's
clock stands still meanwhile (`Clock.stop`): the 3 s to answer are not the test's to spend.
"""

from __future__ import annotations

import asyncio
import signal
from pathlib import Path

import pytest

from loopback import LoopbackDiscord
from loopback.process import BotProcess
from tests.support import rawdb
from tests.support.patience import patient

CALLBACK = r"/interactions/\d+/[^/]+/callback"


@pytest.mark.parametrize("stop_signal", [signal.SIGINT, signal.SIGTERM], ids=["sigint", "sigterm"])
async def test_a_command_under_way_finishes_before_the_bot_stops(
        tmp_path: Path, database: Path | str, stop_signal: signal.Signals) -> None:
    async with LoopbackDiscord(users=["alice", "bob"], channels=["general"]) as discord:
        bot = BotProcess(discord, database, log_path=tmp_path / "bot.log")
        await bot.start()
        try:
            general = discord.channel("general")
            alice, bob = discord.user("alice"), discord.user("bob")
            hold = discord.server.faults.hold("POST", CALLBACK, count=1)
            command = asyncio.create_task(bob.slash(general, "sppoker start",
                                                    timeout=patient(60), check=False))
            try:
                await discord.wait_for(lambda: hold.waiting >= 1, timeout=patient(20),
                                       message="/sppoker start never answered")
                discord.clock.stop()
                assert bot.process is not None
                bot.process.send_signal(stop_signal)
                await discord.wait_for(
                    lambda: "waiting for 1 interaction task(s) under way" in bot.log_text(),
                    timeout=patient(20), message=lambda: bot.log_tail())
                # Meanwhile the gateway still reads: a command is answered, not failed.
                late = await alice.slash(general, "table status", timeout=patient(20))
                assert late.ephemeral and "restarting" in late.text, late
            finally:
                hold.release()
                discord.clock.go()
            started = await command
            code = await asyncio.wait_for(bot.process.wait(), timeout=patient(30))
        finally:
            await bot.kill()
        log = bot.log_text()
        assert code == 0, log
        assert "Traceback" not in log and "unfinished" not in log, log
        assert started.acked, started
        lobby = general.last_message
        assert lobby is not None and "Bob" in lobby.text
        # The command's work after its answer was done too: the lobby's message is remembered
        # with its table, which a restart then shows (and edits) where it was.
        refs = await rawdb.fetch(database, "SELECT message_id FROM message_refs")
        assert (lobby.id,) in [tuple(row) for row in refs]

        await bot.start()
        try:
            status = await alice.slash(general, "table status")
            await status.wait_for_message(lambda message: "Bob" in message.text)
        finally:
            await bot.stop()
        discord.assert_no_rejected()
