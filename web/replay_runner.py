"""Where the replay viewer's long work is done: a game's replay from a deal's start and the
step pictures, in threads of the web process or (as `python -m web` runs) in one process of
its own at a lower priority, so that the cheap pages and the next step of every visit never
wait behind them. Kept apart from `web.replay` (the pages) and `web.replayed_games` (what is
kept), since neither needs to know which of the two it runs in.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import logging
import multiprocessing
import os
import threading
import time
from collections.abc import Callable
from typing import Any, TypeVar

log = logging.getLogger(__name__)
T = TypeVar("T")


class Runner:
    """Where the long replays and the step pictures are made: threads of this process, or
    (`processes`, as `python -m web` runs) one process of its own, started on first use,
    at a lower priority (`NICE`). In a process of its own, an open game's replay (tens of
    milliseconds of CPU, up to 150) never holds this process's interpreter, so the event
    loop serves every other page and the next step of every visit meanwhile; and when the
    machine is busy the steps and pages, which cost a few milliseconds, go first."""

    def __init__(self, processes: bool = False) -> None:
        self.processes = processes
        self._pool: concurrent.futures.ProcessPoolExecutor | None = None

    def start(self) -> None:
        """Start the process now, not at the first replay asked (its start, a second or
        two of imports, is not a visitor's to wait for)."""
        if self.processes and self._pool is None:
            self._pool = concurrent.futures.ProcessPoolExecutor(
                max_workers=1, mp_context=multiprocessing.get_context("spawn"),
                initializer=_replay_process)
            self._pool.submit(int)  # a first task: the process starts now

    async def run(self, function: Callable[..., T], *args: Any) -> T:
        if not self.processes:
            return await asyncio.to_thread(function, *args)
        self.start()
        pool = self._pool
        assert pool is not None
        try:
            return await asyncio.get_running_loop().run_in_executor(pool, function, *args)
        except concurrent.futures.process.BrokenProcessPool:
            log.warning("the replay process stopped; a new one is started")
            if self._pool is pool:
                self._pool = None
            return await asyncio.to_thread(function, *args)

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None


NICE = 10  # the replay process's niceness above the web process's
ORPHAN_CHECK_SECONDS = 2.0  # how often a replay process looks whether its web process lives


def _replay_process() -> None:
    """A replay process's start: lower priority, and what replaying needs, as `python -m
    web` sets it up (the games' plugins, the bot's word lists for a word game's moves)."""
    from bot.collector import settle_garbage_collector
    from bot.plugins import install_plugins
    from bot.wordlists import data_dir_words
    from engine.words import set_word_source

    # First: what follows may take long (word lists are built on a first start), and a web
    # process killed meanwhile must not leave this one behind.
    threading.Thread(target=_exit_when_orphaned, args=(os.getppid(), ORPHAN_CHECK_SECONDS),
                     name="replay-orphan-check", daemon=True).start()
    with contextlib.suppress(OSError):
        os.nice(NICE)
    install_plugins()
    set_word_source(data_dir_words())
    # As the web workers do: what start-up loaded is moved out of the collector's sight, and
    # full collections made rare. Without it bench/web.py's replay visits met a full one
    # every few dozen replays, 44-58 ms each, on the way of whichever visit was replaying.
    settle_garbage_collector()


def _exit_when_orphaned(parent: int, every: float) -> None:
    """A web process killed outright (kill -9, the OOM killer) cannot stop its replay
    process, which would then live on, idle, for ever: the replay process ends itself once
    its parent is gone (it is then adopted by another process)."""
    while os.getppid() == parent:
        time.sleep(every)
    log.warning("the web process %d is gone: its replay process ends", parent)
    os._exit(0)
