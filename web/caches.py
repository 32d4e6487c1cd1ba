"""What the web process keeps between requests, so a page asked again costs next to nothing
(issue 25: pages answered within 100 ms at 20 clients): the reads of a server's pages
(`PageCache`) and whole pages as sent (`RenderCache`), both kept under the id of the server's
latest ended game, since a finished game is the only thing that changes them.
"""

from __future__ import annotations

import asyncio
import hashlib
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Hashable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from aiohttp import web

from bot.present import i18n
from web.session import SESSION_COOKIE

T = TypeVar("T")
V = TypeVar("V")


class PageCache:
    """The reads of a server's game-derived pages (boards, players, results), kept under the
    id of the server's latest ended game: nothing they show changes until another game ends
    (a finished game is the only thing that moves a board, a rating or a record), so a page
    read again costs one indexed lookup of that id. Each entry also ages out `seconds`
    after it was read (a renamed player shows their new name by then), each on its own
    clock, so that a busy server's entries are not all read again in the same second; the
    oldest go past `size`. Readers arriving while a read is under way wait for it rather
    than repeating it."""

    def __init__(self, size: int = 4096, seconds: float = 60.0,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.size, self.seconds, self.clock = size, seconds, clock
        self._items: OrderedDict[tuple[Any, ...], tuple[float, asyncio.Future[Any]]] = \
            OrderedDict()

    async def get(self, key: tuple[Any, ...], stamp: int,
                  make: Callable[[], Awaitable[T]]) -> T:
        full = (*key, stamp)
        now = self.clock()
        born, found = self._items.get(full, (now, None))
        if found is None or now - born >= self.seconds:
            born, found = now, asyncio.ensure_future(make())
            self._items[full] = (born, found)
            while len(self._items) > self.size:
                self._items.popitem(last=False)
        self._items.move_to_end(full)
        try:
            value: T = await asyncio.shield(found)
        except Exception:
            if self._items.get(full, (0.0, None))[1] is found:
                del self._items[full]  # a failed read is not kept
            raise
        return value


class KeptInBytes(Generic[V]):
    """Values made once for all who ask meanwhile (the first asker's `make` runs; the others
    wait for it) and kept by key within `max_bytes` (each value's `weigh`), the least
    recently used out first; with `seconds`, a value also ages out that long after it was
    made. A value that failed is not kept. `keep_last`: the newest value stays even past the
    bound (a game being stepped through, which must not be read again at every step).

    One mechanism for the web's byte-bounded caches: whole pages (`RenderCache`), step
    pictures (`web.replay.Pictures`) and games being replayed (`web.replayed_games.Replays`,
    whose values grow: `resize`)."""

    def __init__(self, max_bytes: int, weigh: Callable[[V], int], *,
                 seconds: float | None = None, keep_last: bool = False,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.max_bytes, self.weigh, self.seconds = max_bytes, weigh, seconds
        self.keep_last, self.clock = keep_last, clock
        self._items: OrderedDict[Hashable, tuple[float, asyncio.Future[V]]] = OrderedDict()
        self._bytes = 0

    async def get(self, key: Hashable, make: Callable[[], Awaitable[V]]) -> V:
        """The value of `key`: kept, being made, or made now by `make`."""
        now = self.clock()
        born, found = self._items.get(key, (now, None))
        if found is not None and self.seconds is not None and now - born >= self.seconds:
            self._forget(key)
            found = None
        if found is None:
            made: asyncio.Future[V] = asyncio.ensure_future(make())
            self._items[key] = (now, made)
            made.add_done_callback(lambda done: self._weigh(key, made))
            found = made
        else:
            self._items.move_to_end(key)
        try:
            return await asyncio.shield(found)
        except Exception:
            if self._kept(key) is found:
                del self._items[key]  # a refusal or a failure is not kept: made again
            raise

    def resize(self, key: Hashable, value: V, change: int) -> None:
        """A kept value grew (or shrank) by `change` bytes; a value no longer kept under
        `key` is counted no more."""
        found = self._kept(key)
        if found is not None and _made(found) and found.result() is value:
            self._bytes += change
            self._drop_oldest()

    @property
    def size(self) -> int:
        """The bytes of the values kept."""
        return self._bytes

    def _kept(self, key: Hashable) -> asyncio.Future[V] | None:
        return self._items.get(key, (0.0, None))[1]

    def _weigh(self, key: Hashable, done: asyncio.Future[V]) -> None:
        if not _made(done) or self._kept(key) is not done:
            return
        self._bytes += self.weigh(done.result())
        self._drop_oldest()

    def _drop_oldest(self) -> None:
        while self._bytes > self.max_bytes and len(self._items) > int(self.keep_last):
            self._forget(next(iter(self._items)))

    def _forget(self, key: Hashable) -> None:
        _, value = self._items.pop(key)
        if _made(value):
            self._bytes -= self.weigh(value.result())


def _made(future: asyncio.Future[Any]) -> bool:
    return future.done() and not future.cancelled() and future.exception() is None


def etag_of(body: bytes) -> str:
    """A strong ETag of these bytes (a hash: the same bytes, the same tag)."""
    return '"' + hashlib.blake2b(body, digest_size=12).hexdigest() + '"'


def not_modified(request: web.Request, etag: str) -> bool:
    """Whether the browser already holds the bytes of `etag` (then 304, no body)."""
    return etag in request.headers.get("If-None-Match", "")


class RenderCache:
    """Whole pages as sent (their bytes), kept under the server's latest ended game as
    `PageCache` keeps reads, so a page asked again costs no template either; bounded in
    bytes (oldest out first), each aged out `seconds` after it was rendered.

    The key is everything the bytes depend on: the caller's key (naming the server), the
    path and query, the language, the visitor's session cookie and the latest game. Each
    page carries an ETag, a hash of its bytes, so a browser holding the page is answered
    304 while the page is unchanged, and a page that changed (a player renamed, read again
    after its age) never answers to an old ETag."""

    def __init__(self, max_bytes: int = 32 * 2**20, seconds: float = 60.0,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self._kept: KeptInBytes[Rendered] = KeptInBytes(
            max_bytes, lambda page: len(page.body), seconds=seconds, clock=clock)

    async def page(self, request: web.Request, key: tuple[Any, ...], stamp: int,
                   make: Callable[[], Awaitable[web.Response]]) -> web.Response:
        """The page of `key` as `make` renders it, from the cache while `stamp` holds and
        the page is younger than `seconds`; 304 when the browser has these very bytes."""
        full = (*key, request.path_qs, i18n.current(), request.cookies.get(SESSION_COOKIE, ""),
                stamp)
        rendered = await self._kept.get(full, lambda: self._render(make))
        if not_modified(request, rendered.etag):
            return web.Response(status=304, headers={"ETag": rendered.etag})
        return web.Response(body=rendered.body, status=rendered.status,
                            content_type=rendered.content_type, charset=rendered.charset,
                            headers={"ETag": rendered.etag})

    @staticmethod
    async def _render(make: Callable[[], Awaitable[web.Response]]) -> Rendered:
        response = await make()
        body = response.body
        assert isinstance(body, bytes), "a cached page is rendered whole, as bytes"
        return Rendered(body, response.status, response.content_type, response.charset,
                        etag_of(body))

    @property
    def size(self) -> int:
        """The bytes of the pages kept."""
        return self._kept.size


@dataclass(frozen=True)
class Rendered:
    """A page's bytes as `RenderCache` keeps them."""

    body: bytes
    status: int
    content_type: str
    charset: str | None
    etag: str
