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

When the budget is short, it goes first where a person is waiting (issue 27): a request made
while `URGENT` is set (the sender sets it for a seat's prompts and a person's DMs) is let
through before every waiting request that is not, whenever they came; among themselves each
kind keeps the order it came in. A board's edit can wait: the sender's next pass rewrites it
with the latest state anyway.
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from collections.abc import Awaitable, Callable
from contextvars import ContextVar
from functools import wraps
from typing import Any, Protocol

import discord

WINDOW = 1.0  # Discord's global limit is per second
# How long the budget counts as short after a request last had to wait for it: the boards
# and prompts that save requests under pressure save enough that nothing waits, and a pace
# that flipped back at once would spend it all again at the next step.
PRESSURE_SECONDS = 5.0
# A tenth of the share is left spare: discord.py retries a request that met a route's 429
# inside its own request call, past this pace, and requests reach Discord a little bunched.
HEADROOM = 0.9
# Whether the requests of the task at hand keep a person waiting (a prompt, a DM): set by the
# task that makes them, and inherited by the tasks it starts.
URGENT: ContextVar[bool] = ContextVar("urgent_request", default=False)


class Pressure(Protocol):
    """Whether requests wait for Discord's global budget: what the boards and the prompts in
    place ask of it (`GlobalPace`, or `BoardPace` passing on its own)."""

    @property
    def pressed(self) -> bool: ...


class GlobalPace:
    """At most `per_second` requests in any second: a sliding window, so a request is never
    the one too many in Discord's own window whatever its phase."""

    def __init__(self, per_second: int, clock: Callable[[], float] = time.monotonic,
                 sleep: Callable[[float], Awaitable[None]] = asyncio.sleep) -> None:
        if per_second < 1:
            raise ValueError("per_second must be 1 or more")
        self.per_second = per_second
        self.clock, self.sleep = clock, sleep
        self.waited = 0  # times the requests waited for room, for the logs and benchmarks
        self._sent: deque[float] = deque(maxlen=per_second)
        # Waiting requests, urgent ones first; each let through by `_serve`, one at a time.
        self._urgent: deque[asyncio.Future[None]] = deque()
        self._others: deque[asyncio.Future[None]] = deque()
        self._serving: asyncio.Task[None] | None = None
        self._queued_at: float | None = None  # when a request that waited last went

    async def wait(self, urgent: bool | None = None) -> None:
        """Until this request may go: at once while there is room and nobody waits, else in
        its turn (`urgent`, by default `URGENT`'s value, goes before the rest)."""
        if not self._urgent and not self._others and self._room():
            self._sent.append(self.clock())
            return
        turn: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        urgent = URGENT.get() if urgent is None else urgent
        (self._urgent if urgent else self._others).append(turn)
        if self._serving is None:
            self._serving = asyncio.create_task(self._serve())
        await turn

    @property
    def pressed(self) -> bool:
        """Whether the budget is short: requests wait for room now, or one did moments ago
        (`PRESSURE_SECONDS` since it went)."""
        return bool(self._urgent or self._others) or (
            self._queued_at is not None and self.clock() - self._queued_at < PRESSURE_SECONDS)

    def _room(self) -> bool:
        return len(self._sent) < self.per_second or self._sent[0] + WINDOW <= self.clock()

    async def _serve(self) -> None:
        try:
            while self._urgent or self._others:
                if not self._room():
                    self.waited += 1
                    await self.sleep(self._sent[0] + WINDOW - self.clock())
                    continue
                turn = (self._urgent or self._others).popleft()
                if turn.done():  # its request was cancelled while it waited
                    continue
                self._sent.append(self.clock())
                self._queued_at = self.clock()
                turn.set_result(None)
        finally:
            self._serving = None


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

