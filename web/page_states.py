"""Each server's page state (its settings and latest ended game: `WebReads.guild_page_state`),
which every page reads first, kept in memory where the store announces its changes
(PostgreSQL: `bot.store.page_changes`) and read for every page where it does not (SQLite).

On PostgreSQL that read was a round trip of its own at every page. Kept, it is read again
only when:
- a writer announced a change of this server (a game ended, a setting changed);
- the connection that listens was lost: whatever was announced meanwhile is unknown, so
  nothing kept before counts (`WebReads.page_changes_since`), and nothing is kept until it
  listens again;
- `seconds` have passed since it was read: a writer that announces nothing (a bot of an older
  version, during an upgrade; an edit by hand) is seen within that time.

A read is kept from the moment it starts, so an announcement that overtakes it (a change
committed while it was under way) drops it too: the pages waiting for it are answered, and
the next page reads again. `tests/web/test_page_states_model.py` holds this against a model.
"""

from __future__ import annotations

import asyncio
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

__all__ = ["PageState", "PageStates"]

#: A server's settings and its latest ended game's id (0 before its first).
PageState = tuple[dict[str, Any], int]


class StateSource(Protocol):
    """What `PageStates` needs of the store (`WebReads`)."""

    async def guild_page_state(self, guild_id: int) -> PageState: ...

    async def watch_page_changes(self, callback: Callable[[int | None], None]) -> bool: ...

    @property
    def page_changes_since(self) -> int | None: ...


@dataclass
class _Kept:
    state: asyncio.Future[PageState]
    since: int  # the store's `page_changes_since` when it was read
    born: float


class PageStates:
    """The servers' page states, kept while announcements tell of their changes."""

    def __init__(self, store: StateSource, *, seconds: float = 30.0, size: int = 10_000,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self._store = store
        self.seconds, self.size, self.clock = seconds, size, clock
        self._kept: OrderedDict[int, _Kept] = OrderedDict()
        self._watching = False
        #: The server the latest announcement named (None: one that could not be read):
        #: announcements arrive in the order their changes committed, so whoever sent the
        #: latest knows every change committed before it has been heard.
        self.last_heard: int | None = None

    async def start(self) -> None:
        """Listen for the store's announcements, where it makes them."""
        self._watching = await self._store.watch_page_changes(self._changed)

    @property
    def watching(self) -> bool:
        return self._watching

    def _changed(self, guild_id: int | None) -> None:
        self.last_heard = guild_id
        # The read under way too, if any: kept from before its query, it is dropped with it
        # (its pages are answered, later ones read again).
        if guild_id is None:
            self._kept.clear()
        else:
            self._kept.pop(guild_id, None)

    async def get(self, guild_id: int) -> PageState:
        """The server's page state, as fresh as the store's announcements make it."""
        since = self._store.page_changes_since if self._watching else None
        if since is None:
            state: PageState = await self._store.guild_page_state(guild_id)
            return state
        kept = self._kept.get(guild_id)
        now = self.clock()
        if kept is None or kept.since != since or now - kept.born >= self.seconds:
            kept = _Kept(asyncio.ensure_future(self._read(guild_id)), since, now)
            self._kept[guild_id] = kept
            while len(self._kept) > self.size:
                self._kept.popitem(last=False)
        self._kept.move_to_end(guild_id)  # the least recently asked for go first
        return await asyncio.shield(kept.state)

    async def _read(self, guild_id: int) -> PageState:
        reading = asyncio.current_task()
        try:
            state: PageState = await self._store.guild_page_state(guild_id)
        except BaseException:
            kept = self._kept.get(guild_id)
            if kept is not None and kept.state is reading:
                del self._kept[guild_id]  # not kept: the next page reads again
            raise
        return state

