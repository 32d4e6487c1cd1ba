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
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from aiohttp import web

from bot.present import i18n
from web.session import SESSION_COOKIE

T = TypeVar("T")


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
        self.max_bytes, self.seconds, self.clock = max_bytes, seconds, clock
        self._items: OrderedDict[tuple[Any, ...], tuple[float, asyncio.Future[Rendered]]] = \
            OrderedDict()
        self._bytes = 0

    async def page(self, request: web.Request, key: tuple[Any, ...], stamp: int,
                   make: Callable[[], Awaitable[web.Response]]) -> web.Response:
        """The page of `key` as `make` renders it, from the cache while `stamp` holds and
        the page is younger than `seconds`; 304 when the browser has these very bytes."""
        full = (*key, request.path_qs, i18n.current(), request.cookies.get(SESSION_COOKIE, ""),
                stamp)
        now = self.clock()
        born, found = self._items.get(full, (now, None))
        if found is not None and now - born >= self.seconds:
            self._forget(full)
            found = None
        if found is None:
            found = asyncio.ensure_future(self._render(make))
            self._items[full] = (now, found)
            found.add_done_callback(lambda done: self._weigh(full, done))
        else:
            self._items.move_to_end(full)
        try:
            rendered = await asyncio.shield(found)
        except Exception:
            if self._items.get(full, (0.0, None))[1] is found:
                del self._items[full]  # a refusal or a failed read is not kept
            raise
        if rendered.etag in request.headers.get("If-None-Match", ""):
            return web.Response(status=304, headers={"ETag": rendered.etag})
        return web.Response(body=rendered.body, status=rendered.status,
                            content_type=rendered.content_type, charset=rendered.charset,
                            headers={"ETag": rendered.etag})

    @staticmethod
    async def _render(make: Callable[[], Awaitable[web.Response]]) -> Rendered:
        response = await make()
        body = response.body
        assert isinstance(body, bytes), "a cached page is rendered whole, as bytes"
        etag = '"' + hashlib.blake2b(body, digest_size=12).hexdigest() + '"'
        return Rendered(body, response.status, response.content_type, response.charset, etag)

    def _weigh(self, full: tuple[Any, ...], done: asyncio.Future[Rendered]) -> None:
        """Count a rendered page's bytes, and drop the oldest pages past the bound."""
        if done.cancelled() or done.exception() is not None or \
                self._items.get(full, (0.0, None))[1] is not done:
            return
        self._bytes += len(done.result().body)
        while self._bytes > self.max_bytes and self._items:
            self._forget(next(iter(self._items)))

    def _forget(self, full: tuple[Any, ...]) -> None:
        _, page = self._items.pop(full)
        if page.done() and not page.cancelled() and page.exception() is None:
            self._bytes -= len(page.result().body)

    @property
    def size(self) -> int:
        """The bytes of the pages kept."""
        return self._bytes


@dataclass(frozen=True)
class Rendered:
    """A page's bytes as `RenderCache` keeps them."""

    body: bytes
    status: int
    content_type: str
    charset: str | None
    etag: str
