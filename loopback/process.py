"""The real bot as a child process, pointed at a loopback Discord by its environment only.

Tests, the sandbox and the load benchmark all run `python -m bot` exactly as a server owner
would; this starts it, stops it politely or with kill -9, and keeps its log for failures.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import os
import signal
import sys
from collections.abc import Mapping
from pathlib import Path

from loopback.driver import LoopbackDiscord

PROJECT_ROOT = Path(__file__).resolve().parents[1]


def die_with_parent() -> None:
    """A child process's start (`preexec_fn`) on Linux: it gets SIGTERM if whoever started it
    dies, even by kill -9, so a test, sandbox or check that crashes never leaves a bot (or
    its PostgreSQL server) running. And SIGINT stops it, as it does a bot started from a
    terminal or by `docker stop`, even when this process was started with SIGINT ignored (a
    background job of a script: `./dev test &`), which a child inherits and Python then
    honours by never raising KeyboardInterrupt: `stop` would kill it instead."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    with contextlib.suppress(Exception):
        libc = ctypes.CDLL("libc.so.6", use_errno=True)
        libc.prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG


class BotProcess:
    def __init__(self, discord: LoopbackDiscord, database: Path | str, *,
                 log_path: Path | None = None, extra_env: Mapping[str, str] | None = None,
                 args: tuple[str, ...] = ()) -> None:
        self.discord = discord
        self.database = database
        if log_path is None and not isinstance(database, Path):
            raise ValueError("a bot on a database URL needs a log_path")
        self.log_path = log_path or Path(database).with_suffix(".log")
        self.extra_env = dict(extra_env or {})
        self.args = args
        self.process: asyncio.subprocess.Process | None = None
        self.starts = 0

    def env(self) -> dict[str, str]:
        env = {key: value for key, value in os.environ.items() if not key.startswith("DISCORD_")}
        env |= self.discord.bot_env()
        env |= {
            "DATABASE": str(self.database),
            "LOG_LEVEL": env.get("DC_TEST_LOG_LEVEL", "INFO"),
            "PYTHONUNBUFFERED": "1",
        }
        env |= self.extra_env
        return env

    async def start(self, *, ready_timeout: float = 30.0) -> None:
        """Start the bot and wait until it is connected, synced and ready to play."""
        self.starts += 1
        log = self.log_path.open("ab")
        log.write(f"--- start {self.starts} ---\n".encode())
        log.flush()
        self.process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot", *self.args,
            cwd=PROJECT_ROOT, env=self.env(), stdout=log, stderr=log,
            stdin=asyncio.subprocess.DEVNULL, preexec_fn=die_with_parent,
        )
        log.close()
        ready = asyncio.create_task(
            self.discord.wait_for_bot_ready(timeout=ready_timeout, identifies=self.starts)
        )
        exited = asyncio.create_task(self.process.wait())
        done, _ = await asyncio.wait({ready, exited}, return_when=asyncio.FIRST_COMPLETED)
        if exited in done:
            ready.cancel()
            raise RuntimeError(f"the bot exited with {exited.result()}:\n{self.log_tail()}")
        exited.cancel()
        try:
            ready.result()
        except Exception as error:
            raise RuntimeError(f"the bot did not get ready: {error}\n{self.log_tail()}") from error
        await self.discord.wait_for(
            lambda: self.log_text().count(" ready as ") >= self.starts, timeout=ready_timeout
        )

    def log_text(self) -> str:
        try:
            return self.log_path.read_text(errors="replace")
        except FileNotFoundError:
            return ""

    def log_tail(self, lines: int = 60) -> str:
        return "\n".join(self.log_text().splitlines()[-lines:])

    async def kill(self) -> None:
        """kill -9: no goodbye, no cleanup; what was saved is all that survives."""
        if self.process is not None and self.process.returncode is None:
            self.process.send_signal(signal.SIGKILL)
            await self.process.wait()

    async def stop(self) -> None:
        if self.process is None or self.process.returncode is not None:
            return
        self.process.send_signal(signal.SIGINT)
        try:
            await asyncio.wait_for(self.process.wait(), timeout=10)
        except TimeoutError:
            await self.kill()

    async def restart(self) -> None:
        await self.kill()
        with contextlib.suppress(Exception):
            await self.discord.wait_for(lambda: not self.discord.bot_connected, timeout=5)
        await self.start()
