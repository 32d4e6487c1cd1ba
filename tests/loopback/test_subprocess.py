"""The bot in its own process, configured only through the environment, as the real bot runs."""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path

from loopback import LoopbackDiscord
from tests.support.patience import patient

ROOT = Path(__file__).resolve().parents[2]


async def test_a_bot_process_plays_through_the_loopback(loopback: LoopbackDiscord) -> None:
    env = os.environ | loopback.bot_env() | {"LOOPBACK_GUILD_ID": str(loopback.state.guild.id)}
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "tests.loopback.tiny_bot", cwd=ROOT, env=env,
        stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.PIPE,
    )
    try:
        await loopback.wait_for_bot_ready(timeout=20)
        alice = loopback.user("alice")
        assert (await alice.slash("general", "echo text:remote")).text == "remote"
        await alice.slash("general", "dmme")
        assert (await alice.click_dm(label="Poker")).text == "You chose poker"
        await loopback.close_gateway(4000)
        assert (await alice.slash("poker", "sppoker start target:3")).text == "Sppoker to 3"
        assert loopback.gateway.resume_count == 1
        loopback.assert_no_errors()
    finally:
        if process.returncode is None:
            process.terminate()
        _, stderr = await asyncio.wait_for(process.communicate(), patient(10))
    assert b"Traceback" not in stderr, stderr.decode()[-2000:]
