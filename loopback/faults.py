"""Failures a test asks for: rate limits and server errors on chosen routes.

Discord answers 429 with a JSON `retry_after` and rate-limit headers (discord.py only retries
a 429 that carries a `Via` header, as Cloudflare bans come without one), and answers 5xx when
it has a bad day; the bot must live with both. A hold keeps matching requests unanswered
until the test releases them: a request in flight on a slow link.
"""

from __future__ import annotations

import asyncio
import math
import re
from dataclasses import dataclass

from loopback.errors import DiscordError

STATUS_TEXT = {500: "Internal Server Error", 502: "Bad Gateway", 503: "Service Unavailable",
               504: "Gateway Timeout"}


@dataclass
class Fault:
    method: str
    pattern: re.Pattern[str]
    status: int
    remaining: int
    code: int | None
    message: str | None
    retry_after: float
    is_global: bool

    def matches(self, method: str, path: str) -> bool:
        return self.method in ("*", method) and self.pattern.search(path) is not None

    def error(self) -> DiscordError:
        if self.status == 429:
            return rate_limited(self.retry_after, is_global=self.is_global)
        message = self.message or f"{self.status}: {STATUS_TEXT.get(self.status, 'Error')}"
        return DiscordError(self.status, self.code or 0, message)


def rate_limited(retry_after: float, *, is_global: bool = False) -> DiscordError:
    headers = {
        "Retry-After": str(math.ceil(retry_after)),
        "X-RateLimit-Limit": "5",
        "X-RateLimit-Remaining": "0",
        "X-RateLimit-Reset-After": f"{retry_after:.3f}",
        "X-RateLimit-Bucket": "loopback-bucket",
        "X-RateLimit-Scope": "global" if is_global else "user",
        "Via": "1.1 google",
    }
    if is_global:
        headers["X-RateLimit-Global"] = "true"
    return DiscordError(
        429, 0, "You are being rate limited.", headers=headers,
        extra={"retry_after": retry_after, "global": is_global},
    )


class Hold:
    """Requests kept waiting, unanswered, until `release()`: sent by the bot and not yet done,
    as on a slow link. Unlike a 429 (answered at once; the bot then waits of its own accord,
    for as long as the answer said), the test decides the instant a held request goes on."""

    def __init__(self, method: str, path_regex: str, count: int | None = None) -> None:
        self.method = method.upper()
        self.pattern = re.compile(path_regex)
        self.count = count  # how many matching requests it holds (None: every one)
        self.waiting = 0  # matching requests that reached the hold so far
        self._released = asyncio.Event()

    def matches(self, method: str, path: str) -> bool:
        full = self.count is not None and self.waiting >= self.count
        return not full and self.method in ("*", method) and self.pattern.search(path) is not None

    @property
    def released(self) -> bool:
        return self._released.is_set()

    def release(self) -> None:
        """Every request held, and every later one, goes on."""
        self._released.set()

    async def wait(self) -> None:
        self.waiting += 1
        await self._released.wait()


class Faults:
    """Queued failures, consumed in the order they were asked for, and holds."""

    def __init__(self) -> None:
        self._faults: list[Fault] = []
        self._holds: list[Hold] = []

    def add(
        self,
        method: str,
        path_regex: str,
        status: int,
        count: int = 1,
        *,
        code: int | None = None,
        message: str | None = None,
        retry_after: float = 0.05,
        is_global: bool = False,
    ) -> None:
        self._faults.append(Fault(method.upper(), re.compile(path_regex), status, count, code,
                                  message, retry_after, is_global))

    def take(self, method: str, path: str) -> DiscordError | None:
        for fault in self._faults:
            if fault.remaining > 0 and fault.matches(method, path):
                fault.remaining -= 1
                if fault.remaining == 0:
                    self._faults.remove(fault)
                return fault.error()
        return None

    def pending(self) -> int:
        return sum(f.remaining for f in self._faults)

    def hold(self, method: str, path_regex: str, count: int | None = None) -> Hold:
        """Keep every matching request (or the next `count` of them: later ones go on at
        once) waiting until the hold is released (see `Hold`)."""
        hold = Hold(method, path_regex, count)
        self._holds.append(hold)
        return hold

    async def wait_if_held(self, method: str, path: str) -> None:
        """Called for every request before anything else: it waits out any hold it matches."""
        for hold in list(self._holds):
            if not hold.released and hold.matches(method, path):
                await hold.wait()
        self._holds = [hold for hold in self._holds if not hold.released]

    def clear(self) -> None:
        """No more faults, and every hold released."""
        self._faults.clear()
        for hold in self._holds:
            hold.release()
        self._holds.clear()
