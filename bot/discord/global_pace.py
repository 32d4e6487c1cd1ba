"""Staying under Discord's global rate limit before Discord has to say so.

Discord lets a bot make 50 requests a second in all, across its shards and processes; past
that it answers 429 with `global: true`, discord.py then holds back every request of the
process until the window ends, and each 429 counts towards the 10,000 invalid requests in
10 minutes that get an IP address banned. A busy bot (hundreds of tables each editing its
board) would live at that limit. So each process paces its own requests to its share of
the limit: its shards' part of the bot's requests a second.

Only the bot-token requests go through here (discord.py's `HTTPClient.request`). Answers to
interactions travel through discord.py's webhook adapter, and Discord does not count them
against the global limit: a click is acknowledged at once however long the queue of board
edits behind it.
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from collections.abc import Awaitable, Callable
from functools import wraps
from typing import Any

import discord

WINDOW = 1.0  # Discord's global limit is per second
# A tenth of the share is left spare: discord.py retries a request that met a route's 429
# inside its own request call, past this pace, and requests reach Discord a little bunched.
HEADROOM = 0.9


class GlobalPace:
    """At most `per_second` requests in any second: a sliding window, so a request is never
    the one too many in Discord's own window whatever its phase."""

    def __init__(self, per_second: int, clock: Callable[[], float] = time.monotonic,
                 sleep: Callable[[float], Awaitable[None]] = asyncio.sleep) -> None:
        if per_second < 1:
            raise ValueError("per_second must be 1 or more")
        self.per_second = per_second
        self.clock, self.sleep = clock, sleep
        self.waited = 0  # requests that had to wait for room, for the logs and benchmarks
        self._sent: deque[float] = deque(maxlen=per_second)
        self._turn = asyncio.Lock()  # first come, first served

    async def wait(self) -> None:
        async with self._turn:
            if len(self._sent) == self.per_second:
                room_at = self._sent[0] + WINDOW
                if (delay := room_at - self.clock()) > 0:
                    self.waited += 1
                    await self.sleep(delay)
            self._sent.append(self.clock())


def share_of_limit(limit: int, shards_here: int, shard_count: int) -> int:
    """This process's part of the bot's global limit, by the shards it runs, less the
    headroom.

    >>> share_of_limit(50, 1, 2), share_of_limit(50, 1, 1), share_of_limit(50, 1, 64)
    (22, 45, 1)
    """
    return max(1, int(limit * HEADROOM * shards_here / max(1, shard_count)))


def pace_requests(http: discord.http.HTTPClient, pace: GlobalPace) -> None:
    """Make every bot-token request of `http` wait for its turn under `pace` first."""
    request = http.request

    @wraps(request)
    async def paced(route: discord.http.Route, **kwargs: Any) -> Any:
        await pace.wait()
        return await request(route, **kwargs)

    # discord.py has no hook around its requests, so the client's own method is replaced;
    # its stubs declare `request` a method, which mypy will not let an instance reassign.
    http.request = paced  # type: ignore[method-assign]  # discord.py: no request hook

