"""Telling the web processes that a server's pages changed (issue 25), so that they need not
ask the database at every page whether they did.

Every page starts from its server's state: its settings (whether the page is on, for whom, in
which language) and the id of its latest ended game, under which the web keeps what it read
and rendered (`WebReads.guild_page_state`). On PostgreSQL that read was a round trip of its own
for every page (one of a person's page's two), for a state that changes once a game: without
it, bench/web.py's pages answer 6-12% more a second. So there the web keeps each server's
state in memory (`web.page_states`), and whatever changes it announces the change on
`CHANNEL` inside its own transaction, which PostgreSQL sends at commit: with the change, or
not at all.

On SQLite nothing is announced: the web reads the state at each page, on its own thread,
which costs no round trip.
"""

from __future__ import annotations

from bot.store.drivers.base import Connection

__all__ = ["CHANNEL", "announce_change", "guild_of"]

#: The notification channel; the payload is the server's id, in decimal.
CHANNEL = "dc_web_pages"


async def announce_change(conn: Connection, guild_id: int) -> None:
    """Tell the web, when this transaction commits, that the server's state changed."""
    if conn.dialect == "postgresql":
        await conn.fetch_one("SELECT pg_notify(?, ?)", (CHANNEL, str(guild_id)))


def guild_of(payload: str) -> int | None:
    """The server a notification names, or None for one this code does not understand
    (another version's; the reader then forgets every server's state).

    >>> guild_of("123"), guild_of("x")
    (123, None)
    """
    return int(payload) if payload.isascii() and payload.isdigit() else None
