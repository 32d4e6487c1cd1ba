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

What is kept, how long, how many and a read shared by the pages waiting for it are
`web.caches.PageCache`'s; each server's state is kept there under a number that an
announcement naming the server replaces. A read is kept from the moment it starts, so an
announcement that overtakes it (a change committed while it was under way) leaves it behind
too: the pages waiting for it are answered, and the next page reads again.
`tests/web/test_page_states_model.py` holds this against a model.
"""

from __future__ import annotations

import itertools
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Any, Protocol

from web.caches import PageCache

__all__ = ["PageState", "PageStates"]

#: A server's settings and its latest ended game's id (0 before its first).
PageState = tuple[dict[str, Any], int]


class StateSource(Protocol):
    """What `PageStates` needs of the store (`WebReads`)."""

    async def guild_page_state(self, guild_id: int) -> PageState: ...

    async def watch_page_changes(self, callback: Callable[[int | None], None]) -> bool: ...

    @property
    def page_changes_since(self) -> int | None: ...


class PageStates:
    """The servers' page states, kept while announcements tell of their changes."""

    def __init__(self, store: StateSource, *, seconds: float = 30.0, size: int = 10_000,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self._store = store
        self._kept = PageCache(size=size, seconds=seconds, clock=clock)
        #: per server, the number its state is kept under: a new one at each announcement
        #: naming it, so what was kept before (read or being read) is never asked for again
        self._stamps: OrderedDict[int, int] = OrderedDict()
        self._numbers = itertools.count(1)
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
        if guild_id is None:
            self._stamps.clear()
        else:
            self._stamps.pop(guild_id, None)

    async def get(self, guild_id: int) -> PageState:
        """The server's page state, as fresh as the store's announcements make it."""
        since = self._store.page_changes_since if self._watching else None
        if since is None:
            state: PageState = await self._store.guild_page_state(guild_id)
            return state
        return await self._kept.get((guild_id, since), self._stamp(guild_id),
                                    lambda: self._store.guild_page_state(guild_id))

    def _stamp(self, guild_id: int) -> int:
        stamp = self._stamps.get(guild_id)
        if stamp is None:  # announced, or never asked for, or forgotten past `size`
            stamp = self._stamps[guild_id] = next(self._numbers)
            while len(self._stamps) > self._kept.size:
                self._stamps.popitem(last=False)
        self._stamps.move_to_end(guild_id)
        return stamp
