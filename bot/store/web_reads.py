"""What the web pages read (issue 25), and the store opened read-only for them.

The web process shows a server's games, tables and ratings; it never writes. So it opens the
database read-only where the database allows it: a SQLite file by a ``mode=ro`` URI with
``query_only`` on, a PostgreSQL pool whose every transaction is read-only
(``default_transaction_read_only``). It migrates nothing either: the bot owns the schema, and
a database older than this code is refused with a sentence saying to start the bot first.

Each page is one or two indexed queries (data/migrations/0006_web.sql), never a query per
row: a list of games reads its games, then all their seats at once.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import datetime
from pathlib import Path
from typing import Any, Self

from bot.store.base import DEFAULT_STARTING_CHIPS, _check_id, _from_ts, utc_now
from bot.store.drivers import Database, is_postgres_url
from bot.store.drivers.read_only import postgres_read_only, sqlite_read_only
from bot.store.errors import StoreError
from bot.store.migrations import discover_migrations
from bot.store.page_changes import CHANNEL, guild_of
from bot.store.ratings import _CONSERVATIVE
from bot.store.rows import LeaderboardRow
from bot.store.skill import RatingRow, Skill
from bot.store.web_player import (
    PlayerPage,
    PlayerReads,
    RatingPoint,
    WebGame,
    WebSeat,
    seats_of,
)

__all__ = ["PlayerPage", "RatingPoint", "WebGame", "WebReads", "WebSeat", "WebTable"]

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class WebTable:
    """A table playing now (or in its lobby): its saved snapshot's row."""

    table_id: str
    kind: str
    version: int
    updated_at: datetime


class WebReads(PlayerReads):
    """The web pages' reads; `open_read_only` is how the web process opens the store."""

    @classmethod
    async def open_read_only(cls, target: Path | str) -> Self:
        """The store over an existing, migrated database, opened so that it cannot write.
        Raises StoreError (one sentence) when it is missing or older than this code."""
        db: Database
        if is_postgres_url(target):
            db = await postgres_read_only(str(target))
        else:
            target = Path(target)
            db = await sqlite_read_only(target)
        try:
            async with db.reading() as conn:
                row = await conn.fetch_one("SELECT max(version) AS v FROM schema_version")
        except db.errors:
            row = None
        except BaseException:
            await db.close()
            raise
        version = int(row["v"]) if row is not None and row["v"] is not None else 0
        wanted = len(discover_migrations())
        if version < wanted:
            await db.close()
            raise StoreError(f"The database {db.name} is at schema version {version}, older "
                             f"than this web page's {wanted}: start the bot once with this "
                             "version, so that it brings the database up to date.")
        return cls(db, target, clock=utc_now, starting_chips=DEFAULT_STARTING_CHIPS,
                   schema_version=version)

    # --- a server's games -----------------------------------------------------------------

    async def game_counts(self, guild_id: int) -> dict[str, int]:
        """The server's finished games per kind (the games its home page lists)."""
        _check_id(guild_id, "guild_id")
        async with self._read() as conn:
            rows = await conn.fetch_all(
                "SELECT kind, count(*) AS n FROM games WHERE guild_id = ?"
                " AND status = 'finished' GROUP BY kind ORDER BY kind", (guild_id,))
        return {str(row["kind"]): int(row["n"]) for row in rows}

    async def recent_results(self, guild_id: int, limit: int = 10,
                             user_id: int | None = None) -> list[WebGame]:
        """The server's latest ended games (a person's, with `user_id`), newest first, with
        their seats: two queries whatever the number of games."""
        _check_id(guild_id, "guild_id")
        async with self._read() as conn:
            if user_id is None:
                games = await conn.fetch_all(
                    "SELECT id, table_id, kind, status, finished_at FROM games"
                    " WHERE guild_id = ? ORDER BY id DESC LIMIT ?", (guild_id, limit))
            else:
                games = await conn.fetch_all(
                    "SELECT g.id AS id, g.table_id AS table_id, g.kind AS kind,"
                    " g.status AS status, g.finished_at AS finished_at"
                    " FROM game_results r JOIN games g ON g.id = r.game_id"
                    " WHERE r.user_id = ? AND g.guild_id = ? ORDER BY r.game_id DESC LIMIT ?",
                    (user_id, guild_id, limit))
            seats = await seats_of(conn, [int(row["id"]) for row in games])
        return [WebGame(int(row["id"]), row["table_id"], str(row["kind"]), str(row["status"]),
                        _from_ts(row["finished_at"]), tuple(seats.get(int(row["id"]), ())))
                for row in games]

    async def latest_game(self, guild_id: int) -> int:
        """The id of the server's latest ended game (0 before its first): whatever the web
        pages keep of the server's games, boards and ratings is good until it changes."""
        async with self._read() as conn:
            row = await conn.fetch_one("SELECT max(id) AS id FROM games WHERE guild_id = ?",
                                       (guild_id,))
        return int(row["id"]) if row is not None and row["id"] is not None else 0

    async def guild_page_state(self, guild_id: int) -> tuple[dict[str, Any], int]:
        """A server's settings (`Store.guild_settings`) and its latest ended game's id
        (`latest_game`), in one query: what every page reads first, to know whether it may
        be shown and whether what the web keeps of it still holds."""
        _check_id(guild_id, "guild_id")
        async with self._read_quick() as conn:
            rows = await conn.fetch_all(
                "SELECT s.key AS key, s.value AS value,"
                " (SELECT max(g.id) FROM games g WHERE g.guild_id = ?) AS latest"
                " FROM guild_settings s WHERE s.guild_id = ? ORDER BY s.key",
                (guild_id, guild_id))
        latest = rows[0]["latest"] if rows else None
        return ({str(row["key"]): json.loads(row["value"]) for row in rows},
                int(latest) if latest is not None else 0)

    async def watch_page_changes(self, callback: Callable[[int | None], None]) -> bool:
        """`callback(guild_id)` at each change of a server's `guild_page_state` that a
        writer announces (`bot.store.page_changes`; None: some server's, not knowing which),
        from the moment this returns; False, and nothing called, where nothing is announced
        (SQLite). An announcement may be lost while the listening connection is down: see
        `page_changes_since`."""
        if self.dialect != "postgresql":
            return False
        refusals: tuple[type[BaseException], ...] = (*self._db.errors, OSError)
        try:
            await self._db.listen(CHANNEL, lambda payload: callback(guild_of(payload)))
        except refusals as error:  # e.g. the server's connections are all taken
            log.warning("cannot listen for page changes (%s); each page reads its server's "
                        "state", error)
            return False
        return True

    @property
    def page_changes_since(self) -> int | None:
        """`Database.listening_since`: what is kept because `watch_page_changes` tells of
        its changes holds while this stays the same and is not None."""
        return self._db.listening_since

    async def rating_page(self, guild_id: int, kind: str, limit: int,
                          offset: int) -> list[RatingRow]:
        """`Ratings.rating_board`'s page (the same order), its wins counted for the page's
        people only, in a second query: the board's query counts them for every rated
        person before it sorts, which on a large server costs a page half a second."""
        _check_id(guild_id, "guild_id")
        async with self._read() as conn:
            rows = await conn.fetch_all(
                "SELECT r.user_id AS user_id, p.display_name AS display_name, r.mu AS mu,"
                " r.sigma AS sigma, r.games AS games"
                " FROM ratings r JOIN players p ON p.user_id = r.user_id"
                " WHERE r.guild_id = ? AND r.kind = ? AND r.user_id IS NOT NULL"
                f" ORDER BY {_CONSERVATIVE} DESC, r.games DESC, r.user_id ASC"
                " LIMIT ? OFFSET ?", (guild_id, kind, limit, offset))
            users = [int(row["user_id"]) for row in rows]
            wins: dict[int, int] = {}
            if users:
                marks = ", ".join("?" for _ in users)
                counted = await conn.fetch_all(
                    "SELECT w.user_id AS user_id, count(*) AS n FROM game_results w"
                    " JOIN games g ON g.id = w.game_id"
                    f" WHERE w.user_id IN ({marks}) AND w.win = 1 AND g.guild_id = ?"
                    " AND g.kind = ? AND g.status = 'finished' GROUP BY w.user_id",
                    (*users, guild_id, kind))
                wins = {int(row["user_id"]): int(row["n"]) for row in counted}
        return [RatingRow(rank=offset + i + 1, user_id=int(row["user_id"]),
                          display_name=row["display_name"],
                          skill=Skill(float(row["mu"]), float(row["sigma"])),
                          games=int(row["games"]), wins=wins.get(int(row["user_id"]), 0))
                for i, row in enumerate(rows)]

    async def playing_tables(self, guild_id: int) -> list[WebTable]:
        """The server's unfinished tables (their snapshots), oldest first."""
        _check_id(guild_id, "guild_id")
        async with self._read() as conn:
            rows = await conn.fetch_all(
                "SELECT table_id, kind, version, updated_at FROM table_snapshots"
                " WHERE guild_id = ? ORDER BY created_at, table_id", (guild_id,))
        return [WebTable(str(row["table_id"]), str(row["kind"]), int(row["version"]),
                         _from_ts(row["updated_at"])) for row in rows]

    async def table_snapshot(self, guild_id: int, table_id: str
                             ) -> tuple[int, dict[str, Any]] | None:
        """An unfinished table of this server: its version and its saved snapshot (None for
        a table of another server, or one that has ended)."""
        _check_id(guild_id, "guild_id")
        async with self._read() as conn:
            row = await conn.fetch_one(
                "SELECT version, snapshot FROM table_snapshots"
                " WHERE table_id = ? AND guild_id = ?", (table_id, guild_id))
        if row is None:
            return None
        snapshot = row["snapshot"]
        return int(row["version"]), json.loads(snapshot) if isinstance(snapshot, str) \
            else dict(snapshot)

    async def table_version(self, guild_id: int, table_id: str) -> int | None:
        """How far a table has got (its snapshot's version), or None once it has ended: what
        the live page polls, cheaply, before it reads a whole snapshot."""
        async with self._read() as conn:
            row = await conn.fetch_one(
                "SELECT version FROM table_snapshots WHERE table_id = ? AND guild_id = ?",
                (table_id, guild_id))
        return None if row is None else int(row["version"])

    async def board_totals(self, guild_id: int, kind: str | None) -> list[LeaderboardRow]:
        """Every ranked person of a game's board (kind None: all games') with their totals,
        unranked (`rank` 0), in one query: the web sorts them for each order and page
        (`rank_board`) and keeps them until another game ends, where `Store.leaderboard`
        would read and sort the whole board again for each order and page, and count it
        once more for the page count."""
        _check_id(guild_id, "guild_id")
        where = "g.guild_id = ? AND g.status = 'finished' AND r.user_id IS NOT NULL"
        params: tuple[Any, ...] = (guild_id,)
        if kind is not None:
            where, params = where + " AND g.kind = ?", (guild_id, kind)
        per_game = kind is not None
        async with self._read() as conn:
            rows = await conn.fetch_all(
                "SELECT r.user_id AS user_id, p.display_name AS display_name,"
                " count(*) AS games, CAST(sum(r.win) AS BIGINT) AS wins,"
                " CAST(coalesce(sum(r.score), 0) AS BIGINT) AS points,"
                " CAST(max(r.score) AS BIGINT) AS best"
                " FROM games g JOIN game_results r ON r.game_id = g.id"
                " JOIN players p ON p.user_id = r.user_id"
                f" WHERE {where} GROUP BY r.user_id, p.display_name", params)
        return [LeaderboardRow(
            rank=0, user_id=int(row["user_id"]), display_name=row["display_name"],
            games=int(row["games"]), wins=int(row["wins"]),
            points=int(row["points"]) if per_game else None,
            win_rate=float(int(row["wins"])) / int(row["games"]),
            best=(None if row["best"] is None else int(row["best"])) if per_game else None)
            for row in rows]

    async def web_members_guilds(self, guild_ids: list[int]) -> set[int]:
        """Which of these servers show their web page to members only: the servers a log-in
        must remember (its cookie stays small whatever servers a person is in)."""
        found: set[int] = set()
        for start in range(0, len(guild_ids), 500):
            chunk = guild_ids[start:start + 500]
            marks = ", ".join("?" for _ in chunk)
            async with self._read() as conn:
                rows = await conn.fetch_all(
                    "SELECT guild_id, value FROM guild_settings WHERE key = 'web'"
                    f" AND guild_id IN ({marks})", tuple(chunk))
            found |= {int(row["guild_id"]) for row in rows
                      if json.loads(row["value"]) == "members"}
        return found

    async def chip_board_state(self, guild_id: int) -> tuple[int, int]:
        """How many members hold a chip account in this server (the chips board's pages),
        and the id of the latest chip movement of any server: the chips board is good
        while both hold (a balance moves only with a ledger row; an account opened empty
        changes the count), in one indexed query, where reading the board is a sort."""
        _check_id(guild_id, "guild_id")
        async with self._read() as conn:
            row = await conn.fetch_one(
                "SELECT count(*) AS n, (SELECT max(id) FROM chip_ledger) AS latest"
                " FROM chip_balances WHERE guild_id = ?", (guild_id,))
        assert row is not None
        return int(row["n"]), int(row["latest"] or 0)

    async def chip_board_size(self, guild_id: int) -> int:
        """How many members hold a chip account in this server (the chips board's pages)."""
        async with self._read() as conn:
            row = await conn.fetch_one(
                "SELECT count(*) FROM chip_balances WHERE guild_id = ?", (guild_id,))
        assert row is not None
        return int(row[0])


def rank_board(rows: list[LeaderboardRow], order: str) -> list[LeaderboardRow]:
    """`board_totals` in one of `Store.leaderboard`'s orders (its ORDER BY, column for
    column, ties to the lowest user id), ranked from 1. A missing points or best score
    sorts below every number, as SQLite sorts NULL in a descending order."""

    def low(value: float | None) -> tuple[int, float]:  # descending: the larger first
        return (1, 0.0) if value is None else (0, -float(value))

    keys: dict[str, Any] = {
        "wins": lambda r: (-r.wins, -r.win_rate, -r.games, low(r.points), r.user_id),
        "games": lambda r: (-r.games, -r.wins, low(r.points), r.user_id),
        "points": lambda r: (low(r.points), -r.wins, -r.win_rate, -r.games, r.user_id),
        "win_rate": lambda r: (-r.win_rate, -r.games, low(r.points), r.user_id),
        "best": lambda r: (low(r.best), r.games, r.user_id),
    }
    if order not in keys:
        raise ValueError(f"order must be one of {', '.join(keys)}")
    return [replace(row, rank=rank) for rank, row in
            enumerate(sorted(rows, key=keys[order]), start=1)]


