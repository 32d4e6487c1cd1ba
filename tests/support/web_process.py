"""`python -m web` as a server owner runs it, on a database the bot writes: started on a free
port of 127.0.0.1 with WEB_URL set to that address, ready once its front page answers, and
stopped at the end. The browser tests (tests/web/test_browser.py) and bench/web.py run it so.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import socket
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Mapping
from dataclasses import dataclass
from pathlib import Path

import aiohttp

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass
class WebProcess:
    """A running `python -m web`: its address, and whether it still runs."""

    url: str
    process: subprocess.Popen[bytes]
    log: Path

    def check(self) -> None:
        """Raise, with the end of its output, if the process has stopped."""
        if self.process.poll() is not None:
            raise RuntimeError(f"python -m web stopped (exit {self.process.returncode}): "
                               f"{self.log.read_text(errors='replace')[-2000:]}")


@contextlib.asynccontextmanager
async def web_process(database: Path | str, log: Path, *, env: Mapping[str, str] = {},
                      timeout: float = 120.0) -> AsyncIterator[WebProcess]:
    """The web process on `database` (its output in `log`) until the block ends.
    `env` adds settings (DISCORD_CLIENT_ID, WEB_RATE ...); the caller's WEB_* and DISCORD_*
    are not inherited, so only what is given here is set."""
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    environ = {k: v for k, v in os.environ.items() if not k.startswith(("WEB_", "DISCORD_"))}
    environ |= {"DATABASE": str(database), "WEB_HOST": "127.0.0.1", "WEB_PORT": str(port),
                "WEB_URL": base, "PYTHONPATH": str(ROOT), **env}
    with log.open("wb") as out:
        process = subprocess.Popen([sys.executable, "-m", "web"], cwd=ROOT, env=environ,
                                   stdout=out, stderr=subprocess.STDOUT,
                                   stdin=subprocess.DEVNULL)
    running = WebProcess(base, process, log)
    try:
        deadline = time.monotonic() + timeout
        async with aiohttp.ClientSession() as session:
            while True:
                running.check()
                with contextlib.suppress(aiohttp.ClientError):
                    async with session.get(f"{base}/") as response:
                        if response.status == 200:
                            break
                if time.monotonic() > deadline:
                    raise RuntimeError(f"python -m web did not answer within {timeout:.0f} s")
                await asyncio.sleep(0.2)
        yield running
    finally:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
