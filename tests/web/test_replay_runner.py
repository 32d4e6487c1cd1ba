"""The replay process of a web process (`web.replay_runner`): it does not outlive a web
process killed outright (kill -9 leaves it no way to stop it), and its collector is settled
as the web workers' are."""

from __future__ import annotations

import gc
import subprocess
import sys
import time
from pathlib import Path

from bot.collector import settle_garbage_collector
from web.replay_runner import Runner

ROOT = Path(__file__).resolve().parents[2]

KILLED_WEB_PROCESS = """
import asyncio, os
from web.replay_runner import Runner

async def main() -> None:
    runner = Runner(processes=True)
    runner.start()
    print(await runner.run(os.getpid), flush=True)
    os.kill(os.getpid(), 9)

asyncio.run(main())
"""


def gone(pid: int) -> bool:
    """No such process, or one that has ended and waits only to be reaped."""
    try:
        status = Path(f"/proc/{pid}/status").read_text(encoding="utf-8")
    except FileNotFoundError:
        return True
    return "\nState:\tZ" in status


def test_a_replay_process_ends_when_its_web_process_is_killed() -> None:
    web = subprocess.run([sys.executable, "-c", KILLED_WEB_PROCESS], cwd=ROOT,
                         capture_output=True, text=True, timeout=300)
    assert web.returncode == -9, web.stderr
    replay_process = int(web.stdout.split()[0])
    # Generous: the check runs every 2 s; a busy machine may take its time.
    for _ in range(600):
        if gone(replay_process):
            break
        time.sleep(0.2)
    assert gone(replay_process)


def settled() -> tuple[tuple[int, int, int], int]:
    return gc.get_threshold(), gc.get_freeze_count()


async def test_a_replay_process_keeps_its_word_lists_out_of_the_collectors_sight() -> None:
    """What the process loaded at its start (the plugins, the word lists: most of its
    objects) is frozen, and full collections are as rare as in the web workers."""
    runner = Runner(processes=True)
    try:
        threshold, frozen = await runner.run(settled)
    finally:
        runner.close()
    before = gc.get_threshold()
    try:
        settle_garbage_collector()
        assert threshold == gc.get_threshold() != (700, 10, 10)
    finally:
        gc.set_threshold(*before)
        gc.unfreeze()
    assert frozen > 10_000
