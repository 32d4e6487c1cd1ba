"""Ordered delivery per table, outside the table's lock.

A step is decided and saved under the lock in milliseconds; telling people about it can take
seconds when Discord is slow (429s, retried 5xx). Queuing the telling keeps every click
acknowledged within Discord's 3 s, while each table's messages still go out in order.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable

log = logging.getLogger(__name__)

Job = Callable[[], Awaitable[None]]


class Outbox:
    def __init__(self) -> None:
        self._queues: dict[str, asyncio.Queue[Job]] = {}
        self._workers: dict[str, asyncio.Task[None]] = {}

    def post(self, key: str, job: Job) -> None:
        """Run `job` after every job posted before it under the same key."""
        queue = self._queues.setdefault(key, asyncio.Queue())
        queue.put_nowait(job)
        if key not in self._workers:
            self._workers[key] = asyncio.create_task(self._work(key, queue))

    async def _work(self, key: str, queue: asyncio.Queue[Job]) -> None:
        try:
            while not queue.empty():
                job = queue.get_nowait()
                try:
                    await job()
                except Exception:  # one failed delivery must not stop the next ones
                    log.exception("delivery failed for table %s", key)
        finally:
            # An idle table keeps no task and no queue.
            self._workers.pop(key, None)
            if queue.empty() and self._queues.get(key) is queue:
                del self._queues[key]

    async def drain(self) -> None:
        """Wait until everything posted so far has been delivered."""
        while self._workers:
            await asyncio.gather(*self._workers.values(), return_exceptions=True)

    async def close(self) -> None:
        for task in list(self._workers.values()):
            task.cancel()
        for task in list(self._workers.values()):
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
