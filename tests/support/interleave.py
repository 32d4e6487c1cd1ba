"""Seeded yield injection: a store whose every call lets the other tasks run first.

A race between two commands needs one of them to be suspended at the wrong await while the
other runs. The event loop suspends a task only where it awaits something that is not ready,
and a fast database (a SQLite file in the page cache) is ready so soon that most
interleavings never happen in a test. `Jittered` stands in for the store and, before and
after each of its coroutine methods, yields to the event loop a number of times drawn from a
seeded generator, so that the other tasks overtake the caller there.

For a failure to be shrunk and replayed, the same seed must give the same interleaving. The
pauses alone do not: a query runs on another thread (aiosqlite) or server, and how many
turns of the event loop pass before its answer comes back varies from run to run. With
`serial`, one call at a time holds the turn, and before its query starts it lets the loop go
round until every other task is waiting (for the turn, or for a lock the holder has): the
answer then arrives when nothing else could run anyway, and the order of everything is fixed
by the seed. That costs nothing on SQLite, whose store runs one statement at a time anyway;
on PostgreSQL it gives up transactions running side by side, so a test may draw `serial`
(shrinking prefers it: the failure is then replayable) and otherwise let them overlap.
"""

from __future__ import annotations

import asyncio
import functools
import inspect
import random
from collections.abc import Callable, Coroutine
from typing import Any

#: How many times a call yields before it starts and after it returns, drawn at each call:
#: mostly not at all, sometimes long enough for every other task to reach its next await.
PAUSES = (0, 0, 0, 1, 2, 5)
#: Turns of the loop that bring every other task to a wait: each runs one step per turn, and
#: between two waits a task takes a few (a pause, a lock handed on, a call queued).
SETTLE = 40


class Jittered:
    """`store` with a seeded pause around every public coroutine method (see the module).

    Everything else (properties, plain methods) is the store's own, so the service, the bank
    and the cash desk cannot tell the difference; a test reads the real store (`inner`) to
    check its invariants without consuming the generator or waiting for the turn."""

    def __init__(self, store: Any, seed: int, *, serial: bool = True) -> None:
        self.inner = store
        self._rng = random.Random(seed)
        self._turn = asyncio.Lock() if serial else None
        self.calls = 0

    @property
    def serial(self) -> bool:
        """Whether the same seed gives the same interleaving (see the module)."""
        return self._turn is not None

    async def pause(self) -> None:
        """Let the other tasks run a drawn number of times (0 most often)."""
        for _ in range(self._rng.choice(PAUSES)):
            await asyncio.sleep(0)

    def __getattr__(self, name: str) -> Any:
        value = getattr(self.inner, name)
        if name.startswith("_") or not inspect.iscoroutinefunction(value):
            return value
        return self._wrap(value)

    def _wrap(self, method: Callable[..., Coroutine[Any, Any, Any]]
              ) -> Callable[..., Coroutine[Any, Any, Any]]:
        @functools.wraps(method)
        async def paused(*args: Any, **kwargs: Any) -> Any:
            self.calls += 1
            await self.pause()
            try:
                if self._turn is None:
                    return await method(*args, **kwargs)
                async with self._turn:
                    for _ in range(SETTLE):
                        await asyncio.sleep(0)
                    return await method(*args, **kwargs)
            finally:
                await self.pause()

        return paused
