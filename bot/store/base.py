"""What every part of the store stands on: the database (`bot.store.drivers`) opened and
migrated, its explicit transactions, the clock, and the checks and encodings they share.

See `bot.store` for why the store is shaped this way."""

from __future__ import annotations

import copy
import json
import logging
from collections.abc import Callable, Sequence
from contextlib import AbstractAsyncContextManager
from datetime import UTC, datetime
from pathlib import Path
from types import TracebackType
from typing import Any, Self

from bot.store.drivers import (
    Connection,
    Database,
    SharedDatabase,
    is_postgres_url,
    open_database,
)
from bot.store.errors import StoreError
from bot.store.migrations import MIGRATIONS_DIR, apply_migrations, discover_migrations
from bot.store.rows import GameRecord

log = logging.getLogger(__name__)

Clock = Callable[[], datetime]

DEFAULT_STARTING_CHIPS = 1000
REASON_OPENING = "opening balance"
REASON_DAILY = "daily claim"
# A table set aside at restore gives back what each member paid into it (`_set_aside`).
REASON_REFUND = "refund"
# The house brings a table's account opened by migration 0005 to what its seats hold.
REASON_RECONCILE = "legacy reconciliation"
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
    """The database, its transactions and the clock; what is stored is in the subclasses
    (see `bot.store.Store`)."""

    def __init__(
        self,
        db: Database,
        target: Path | str,
        *,
        clock: Clock,
        starting_chips: int,
        schema_version: int,
    ) -> None:
        """Use `Store.open`: a Store is only valid over a migrated, configured database."""
        self._db: Database = db
        self._target = target
        self._clock = clock
        self._starting_chips = starting_chips
        self._schema_version = schema_version

    # --- lifecycle --------------------------------------------------------------------------

    @classmethod
    async def open(
        cls,
        target: Path | str,
        *,
        clock: Clock = utc_now,
        starting_chips: int = DEFAULT_STARTING_CHIPS,
        migrations_dir: Path = MIGRATIONS_DIR,
    ) -> Self:
        """Open and migrate the database; refuses one newer than the code.

        `target` is DATABASE: the path of a SQLite file (created, with its folder, if need
        be) or a ``postgresql://`` URL of an existing database. `starting_chips` is what a
        chip account opens with when it is first touched implicitly (a chip change or a
        daily claim for someone new).
        """
        if starting_chips < 0:
            raise ValueError("starting_chips cannot be negative")
        if not is_postgres_url(target):
            target = Path(target)
        migrations = discover_migrations(migrations_dir)
        db = await open_database(target)
        try:
            version = await apply_migrations(db, migrations, applied_at=_ts(clock()),
                                             path=db.name)
        except db.errors as exc:
            await db.close()
            raise StoreError(f"Cannot use {db.name} as the bot's database ({exc}).") from None
        except BaseException:
            await db.close()
            raise
        return cls(db, target, clock=clock, starting_chips=starting_chips,
                   schema_version=version)

    async def close(self) -> None:
        """Close the database once any running transaction has finished."""
        await self._db.close()

    def background(self, limit: int) -> Self:
        """This store for background work that comes in waves: at most `limit` of its reads
        and writes at a time (`SharedDatabase`), so that clicks still find a connection.
        Closing it leaves this store open."""
        view = copy.copy(self)
        view._db = SharedDatabase(self._db, limit)
        return view

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
    def target(self) -> Path | str:
        """DATABASE as opened: a SQLite file's path or a PostgreSQL URL."""
        return self._target

    @property
    def dialect(self) -> str:
        """``sqlite`` or ``postgresql``."""
        return self._db.dialect

    @property
    def schema_version(self) -> int:
        return self._schema_version

    @property
    def starting_chips(self) -> int:
        return self._starting_chips

    # --- transactions -----------------------------------------------------------------------

    def _read(self) -> AbstractAsyncContextManager[Connection]:
        """A connection for reads (see `bot.store.drivers.base`)."""
        return self._db.reading()

    def _write(self) -> AbstractAsyncContextManager[Connection]:
        """A connection in a transaction: all or nothing."""
        return self._db.writing()

    async def _write_one(self, sql: str, params: Sequence[Any] = ()) -> int:
        """A write that is one statement: atomic by itself (see `Database.write_one`)."""
        return await self._db.write_one(sql, params)

    @staticmethod
    def _transaction(conn: Connection) -> AbstractAsyncContextManager[None]:
        """A transaction on a connection held for reading."""
        return conn.transaction()

    def _now(self, moment: datetime | None = None) -> str:
        return _ts(self._clock() if moment is None else moment)


def _check_record(record: object) -> None:
    if not isinstance(record, GameRecord):
        raise TypeError(f"expected a GameRecord, not {type(record).__name__}")

