"""The store's connection: opening, migrating, one lock, explicit transactions.

See `bot.store` for why the store is shaped this way."""

from __future__ import annotations

import asyncio
import json
import logging
import sqlite3
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from datetime import UTC, datetime
from pathlib import Path
from types import TracebackType
from typing import Self

import aiosqlite

from bot.store_migrations import MIGRATIONS_DIR, apply_migrations, discover_migrations
from bot.store_types import (
    GameRecord,
    StoreError,
)

log = logging.getLogger(__name__)

Clock = Callable[[], datetime]

DEFAULT_STARTING_CHIPS = 1000
REASON_OPENING = "opening balance"
REASON_DAILY = "daily claim"
BUSY_TIMEOUT_MS = 5000
_MAX_ERROR_CHARS = 20_000

def utc_now() -> datetime:
    """The default clock."""
    return datetime.now(UTC)


def _ts(moment: datetime) -> str:
    """One fixed-width UTC form, so that comparing the text compares the times."""
    if moment.utcoffset() is None:
        raise ValueError("timestamps must be timezone-aware (use datetime.now(UTC))")
    return moment.astimezone(UTC).isoformat(timespec="microseconds")


def _from_ts(text: str) -> datetime:
    return datetime.fromisoformat(text)


def _json(value: object, what: str) -> str:
    try:
        return json.dumps(value, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{what} is not JSON-safe: {exc}") from None


def _check_id(value: object, name: str) -> None:
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError(f"{name} must be an int id, not {type(value).__name__}")


def _check_text(value: object, name: str) -> None:
    if not isinstance(value, str) or not value:
        raise ValueError(f"{name} must be a non-empty string")


def _check_page(limit: int, offset: int) -> None:
    if limit < 1 or offset < 0:
        raise ValueError("limit must be at least 1 and offset at least 0")



class StoreCore:
    """The connection, its lock and its transactions; what is stored is in the subclasses
    (see `bot.store.Store`)."""

    def __init__(
        self,
        conn: aiosqlite.Connection,
        path: Path,
        *,
        clock: Clock,
        starting_chips: int,
        schema_version: int,
    ) -> None:
        """Use `Store.open`: a Store is only valid over a migrated, configured connection."""
        self._conn: aiosqlite.Connection | None = conn
        self._path = path
        self._clock = clock
        self._starting_chips = starting_chips
        self._schema_version = schema_version
        self._lock = asyncio.Lock()

    # --- lifecycle --------------------------------------------------------------------------

    @classmethod
    async def open(
        cls,
        path: Path | str,
        *,
        clock: Clock = utc_now,
        starting_chips: int = DEFAULT_STARTING_CHIPS,
        migrations_dir: Path = MIGRATIONS_DIR,
    ) -> Self:
        """Open (creating if needed) and migrate the database; refuses one newer than the code.

        `starting_chips` is what a chip account opens with when it is first touched
        implicitly (a chip change or a daily claim for someone new).
        """
        if starting_chips < 0:
            raise ValueError("starting_chips cannot be negative")
        path = Path(path)
        migrations = discover_migrations(migrations_dir)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StoreError(
                f"Cannot create the folder {path.parent} for the database ({exc.strerror})."
            ) from None
        try:
            conn = await aiosqlite.connect(path, isolation_level=None)
        except sqlite3.Error as exc:
            raise StoreError(f"Cannot open the database {path} ({exc}).") from None
        try:
            conn.row_factory = sqlite3.Row
            await cls._configure(conn, path)
            version = await apply_migrations(conn, migrations, applied_at=_ts(clock()), path=path)
        except sqlite3.DatabaseError as exc:
            await conn.close()
            raise StoreError(f"Cannot use {path} as the bot's database ({exc}).") from None
        except BaseException:
            await conn.close()
            raise
        return cls(conn, path, clock=clock, starting_chips=starting_chips, schema_version=version)

    @staticmethod
    async def _configure(conn: aiosqlite.Connection, path: Path) -> None:
        async with conn.execute("PRAGMA journal_mode = WAL") as cursor:
            row = await cursor.fetchone()
        if row is None or str(row[0]).lower() != "wal":
            log.warning("%s: WAL journal not available (got %r); continuing", path, row)
        await conn.execute("PRAGMA synchronous = NORMAL")
        await conn.execute("PRAGMA foreign_keys = ON")
        await conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS:d}")

    async def close(self) -> None:
        """Close the connection once any running transaction has finished."""
        async with self._lock:
            conn, self._conn = self._conn, None
            if conn is not None:
                await conn.close()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()

    @property
    def path(self) -> Path:
        return self._path

    @property
    def schema_version(self) -> int:
        return self._schema_version

    @property
    def starting_chips(self) -> int:
        return self._starting_chips

    # --- transactions -----------------------------------------------------------------------

    def _connection(self) -> aiosqlite.Connection:
        if self._conn is None:
            raise StoreError("The store is closed.")
        return self._conn

    @asynccontextmanager
    async def _read(self) -> AsyncIterator[aiosqlite.Connection]:
        async with self._lock:
            yield self._connection()

    @asynccontextmanager
    async def _write(self) -> AsyncIterator[aiosqlite.Connection]:
        async with self._lock:
            conn = self._connection()
            async with self._transaction(conn):
                yield conn

    @asynccontextmanager
    async def _transaction(self, conn: aiosqlite.Connection) -> AsyncIterator[None]:
        """All or nothing; the caller must hold the lock.

        Commit and rollback are shielded: once queued on the worker thread they finish even if
        the awaiting task is cancelled, and anything queued later runs after them.
        """
        try:
            # Inside the try: a task cancelled while BEGIN is queued must still roll back, or
            # the connection would be left in a transaction that every later BEGIN trips on.
            await conn.execute("BEGIN IMMEDIATE")
            yield
            await asyncio.shield(conn.commit())
        except BaseException:
            try:
                await asyncio.shield(conn.rollback())
            except Exception:
                log.exception("rollback failed")
            raise

    def _now(self, moment: datetime | None = None) -> str:
        return _ts(self._clock() if moment is None else moment)


def _check_record(record: object) -> None:
    if not isinstance(record, GameRecord):
        raise TypeError(f"expected a GameRecord, not {type(record).__name__}")

