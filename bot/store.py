"""The store: one SQLite file holding scores, chips, settings and unfinished tables.

Why it is shaped like this:

* One connection, one `asyncio.Lock`. aiosqlite runs every statement on one worker thread, but
  between two awaits another coroutine could slip its statements into our open transaction
  (or read our uncommitted rows). Every public method therefore holds the lock for its whole
  transaction (reads too, so nobody sees a half-written change), and write transactions are
  explicit `BEGIN IMMEDIATE ... COMMIT` so that a second process waits for the write lock
  up front (busy_timeout) instead of failing half-way.
* A chip change and the snapshot that caused it are written in one transaction
  (`save_snapshot`): after a crash the table resumes from a snapshot that matches the chips.
* WAL with synchronous=NORMAL: a crashed process loses nothing committed and never leaves
  half a transaction; a power cut may lose the last moments of play but never corrupts.
* Time comes from a clock injected at `open` (or passed in), never read behind the caller's
  back, so tests are deterministic. Timestamps are stored as fixed-width UTC ISO-8601 text.
* Aborted games are recorded (for the record and chip audit) but never count in stats.

Everything the callers build or receive is in `bot.store_types` and re-exported here.
"""

from __future__ import annotations

import asyncio
import json
import logging
import sqlite3
from collections.abc import AsyncIterator, Callable, Iterable, Mapping
from contextlib import asynccontextmanager
from datetime import UTC, date, datetime, time, timedelta
from pathlib import Path
from types import TracebackType
from typing import Any, Self, get_args

import aiosqlite

from bot.store_migrations import MIGRATIONS_DIR, apply_migrations, discover_migrations
from bot.store_outbox import LoggedAction, MessageRef, OutboxRows, PendingMessage
from bot.store_types import (
    BrokenSnapshot,
    ChipChange,
    ChipRow,
    DailyClaim,
    GameRecord,
    GameStatus,
    InsufficientChipsError,
    KindStats,
    LeaderboardOrder,
    LeaderboardRow,
    LedgerEntry,
    MigrationError,
    Player,
    PlayerResult,
    SaveResult,
    SchemaTooNewError,
    SnapshotConflictError,
    SnapshotRow,
    StoreError,
)

__all__ = [
    "DEFAULT_STARTING_CHIPS",
    "REASON_DAILY",
    "REASON_OPENING",
    "BrokenSnapshot",
    "ChipChange",
    "ChipRow",
    "Clock",
    "DailyClaim",
    "GameRecord",
    "GameStatus",
    "InsufficientChipsError",
    "KindStats",
    "LeaderboardOrder",
    "LeaderboardRow",
    "LedgerEntry",
    "LoggedAction",
    "MessageRef",
    "MigrationError",
    "PendingMessage",
    "Player",
    "PlayerResult",
    "SaveResult",
    "SchemaTooNewError",
    "SnapshotConflictError",
    "SnapshotRow",
    "Store",
    "StoreError",
    "utc_now",
]

log = logging.getLogger(__name__)

Clock = Callable[[], datetime]

DEFAULT_STARTING_CHIPS = 1000
REASON_OPENING = "opening balance"
REASON_DAILY = "daily claim"
BUSY_TIMEOUT_MS = 5000
_MAX_ERROR_CHARS = 20_000

# Equal wins: the better win rate first (fewer games, when there are wins), then the more
# games (at 0 wins, two games played are not worse than one).
_LEADERBOARD_ORDER: dict[str, str] = {
    "wins": "wins DESC, win_rate DESC, games DESC, points DESC, user_id ASC",
    "games": "games DESC, wins DESC, points DESC, user_id ASC",
    "points": "points DESC, wins DESC, win_rate DESC, games DESC, user_id ASC",
    "win_rate": "win_rate DESC, games DESC, points DESC, user_id ASC",
}
assert set(_LEADERBOARD_ORDER) == set(get_args(LeaderboardOrder))


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


class Store(OutboxRows):
    """The bot's persistent state. Open with `await Store.open(path)`; close when done."""

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

    # --- guild settings ---------------------------------------------------------------------

    async def get_guild_setting(self, guild_id: int, key: str, default: Any = None) -> Any:
        """A server's setting, or `default` if the server never changed it."""
        _check_id(guild_id, "guild_id")
        async with self._read() as conn:
            rows = await conn.execute_fetchall(
                "SELECT value FROM guild_settings WHERE guild_id = ? AND key = ?",
                (guild_id, key),
            )
        return json.loads(rows[0]["value"]) if rows else default

    async def guild_settings(self, guild_id: int) -> dict[str, Any]:
        """Every setting the server changed (defaults are the caller's business)."""
        _check_id(guild_id, "guild_id")
        async with self._read() as conn:
            rows = await conn.execute_fetchall(
                "SELECT key, value FROM guild_settings WHERE guild_id = ? ORDER BY key",
                (guild_id,),
            )
        return {row["key"]: json.loads(row["value"]) for row in rows}

    async def set_guild_setting(
        self, guild_id: int, key: str, value: Any, *, now: datetime | None = None
    ) -> None:
        """Store any JSON-safe value (None is stored as JSON null; use delete to unset)."""
        _check_id(guild_id, "guild_id")
        _check_text(key, "key")
        encoded = _json(value, f"the setting {key!r}")
        async with self._write() as conn:
            await conn.execute(
                "INSERT INTO guild_settings (guild_id, key, value, updated_at) VALUES (?, ?, ?, ?)"
                " ON CONFLICT (guild_id, key)"
                " DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at",
                (guild_id, key, encoded, self._now(now)),
            )

    async def delete_guild_setting(self, guild_id: int, key: str) -> bool:
        """Back to the default; returns whether there was a setting to remove."""
        _check_id(guild_id, "guild_id")
        async with self._write() as conn:
            cursor = await conn.execute(
                "DELETE FROM guild_settings WHERE guild_id = ? AND key = ?", (guild_id, key)
            )
            return cursor.rowcount > 0

    # --- players ----------------------------------------------------------------------------

    async def upsert_player(
        self, user_id: int, display_name: str, *, now: datetime | None = None
    ) -> None:
        """Remember a player and the name to show for them; first_seen never moves."""
        _check_id(user_id, "user_id")
        _check_text(display_name, "display_name")
        stamp = self._now(now)
        async with self._write() as conn:
            await conn.execute(
                "INSERT INTO players (user_id, display_name, first_seen, last_seen)"
                " VALUES (?, ?, ?, ?)"
                " ON CONFLICT (user_id) DO UPDATE SET display_name = excluded.display_name,"
                " last_seen = max(players.last_seen, excluded.last_seen)",
                (user_id, display_name, stamp, stamp),
            )

    async def player(self, user_id: int) -> Player | None:
        async with self._read() as conn:
            rows = await conn.execute_fetchall(
                "SELECT user_id, display_name, first_seen, last_seen FROM players"
                " WHERE user_id = ?",
                (user_id,),
            )
        if not rows:
            return None
        row = rows[0]
        return Player(
            row["user_id"],
            row["display_name"],
            _from_ts(row["first_seen"]),
            _from_ts(row["last_seen"]),
        )

    # --- snapshots --------------------------------------------------------------------------

    async def save_snapshot(
        self,
        table_id: str,
        guild_id: int,
        channel_id: int,
        kind: str,
        snapshot: Mapping[str, Any],
        *,
        chip_changes: Iterable[ChipChange] = (),
        results: GameRecord | None = None,
        messages: Iterable[Mapping[str, Any]] = (),
        actions: Iterable[LoggedAction] = (),
        now: datetime | None = None,
    ) -> SaveResult:
        """Save a table's state and what it did to chips and scores, all or nothing.

        With `results` the game has ended: the game and its results are recorded, the chip
        changes are linked to it, and the snapshot is deleted (`snapshot` is then not stored).
        A chip change that would go negative raises `InsufficientChipsError` and nothing,
        not even the snapshot, is written: the table must not advance past a move that the
        chips could not pay for.
        """
        _check_text(table_id, "table_id")
        _check_id(guild_id, "guild_id")
        _check_id(channel_id, "channel_id")
        _check_text(kind, "kind")
        if not isinstance(snapshot, Mapping):
            raise TypeError("a snapshot must be a dict")
        if results is not None:
            _check_record(results)
            if (results.guild_id, results.channel_id, results.kind) != (guild_id, channel_id, kind):
                raise ValueError(f"the game record does not belong to table {table_id}")
            return await self.finish_table(table_id, results, chip_changes=chip_changes,
                                           messages=messages, actions=actions, now=now)
        changes = list(chip_changes)
        encoded = _json(snapshot, f"table {table_id}'s snapshot")
        stamp = self._now(now)
        async with self._write() as conn:
            version = await self._upsert_snapshot(
                conn, table_id, guild_id, channel_id, kind, encoded, stamp
            )
            balances = await self._apply_changes(
                conn, guild_id, changes, table_id=table_id, game_id=None, stamp=stamp
            )
            await self._insert_step_rows(conn, table_id, messages, actions, stamp)
        return SaveResult(version=version, game_id=None, balances=balances)

    async def finish_table(
        self,
        table_id: str,
        record: GameRecord,
        *,
        chip_changes: Iterable[ChipChange] = (),
        messages: Iterable[Mapping[str, Any]] = (),
        actions: Iterable[LoggedAction] = (),
        now: datetime | None = None,
    ) -> SaveResult:
        """End a table: record the game (finished or aborted), apply the last chip changes
        (linked to the game) and delete the snapshot, in one transaction.

        An aborted table with refunds goes through here too, so that the refunds and the
        disappearance of the table cannot be separated by a crash.
        """
        _check_text(table_id, "table_id")
        _check_record(record)
        changes = list(chip_changes)
        stamp = self._now(now)
        async with self._write() as conn:
            game_id = await self._insert_game(conn, record, table_id, stamp)
            balances = await self._apply_changes(
                conn, record.guild_id, changes, table_id=table_id, game_id=game_id, stamp=stamp
            )
            await conn.execute("DELETE FROM table_snapshots WHERE table_id = ?", (table_id,))
            await self._insert_step_rows(conn, table_id, messages, actions, stamp)
        return SaveResult(version=None, game_id=game_id, balances=balances)

    async def _upsert_snapshot(
        self,
        conn: aiosqlite.Connection,
        table_id: str,
        guild_id: int,
        channel_id: int,
        kind: str,
        encoded: str,
        stamp: str,
    ) -> int:
        rows = await conn.execute_fetchall(
            "INSERT INTO table_snapshots"
            " (table_id, guild_id, channel_id, kind, version, snapshot, created_at, updated_at)"
            " VALUES (?, ?, ?, ?, 1, ?, ?, ?)"
            " ON CONFLICT (table_id) DO UPDATE SET version = table_snapshots.version + 1,"
            " snapshot = excluded.snapshot, updated_at = excluded.updated_at"
            " WHERE table_snapshots.guild_id = excluded.guild_id"
            " AND table_snapshots.channel_id = excluded.channel_id"
            " AND table_snapshots.kind = excluded.kind"
            " RETURNING version",
            (table_id, guild_id, channel_id, kind, encoded, stamp, stamp),
        )
        if not rows:
            raise SnapshotConflictError(
                f"Table {table_id} is already saved for another channel or game; table ids "
                "must be unique."
            )
        return int(rows[0][0])

    async def delete_snapshot(
        self, table_id: str, *, messages: Iterable[Mapping[str, Any]] = ()
    ) -> bool:
        """Forget an unfinished table (e.g. a lobby that closed), queuing what must be told of
        it in the same transaction; returns whether it existed."""
        async with self._write() as conn:
            cursor = await conn.execute(
                "DELETE FROM table_snapshots WHERE table_id = ?", (table_id,)
            )
            await self._insert_step_rows(conn, table_id, messages, (), self._now())
            return cursor.rowcount > 0

    async def load_snapshots(self) -> list[SnapshotRow]:
        """Every unfinished table, for restoring after a restart.

        A row that is not a readable JSON object is set aside (see `set_aside_snapshot`)
        rather than returned or raised, so one bad table can never stop the bot starting.
        Rows that read fine but that the engine rejects are the caller's to set aside.
        """
        good: list[SnapshotRow] = []
        bad: list[tuple[str, str]] = []
        async with self._read() as conn:
            rows = await conn.execute_fetchall(
                "SELECT table_id, guild_id, channel_id, kind, version, snapshot, created_at,"
                " updated_at FROM table_snapshots ORDER BY guild_id, channel_id, table_id"
            )
            for row in rows:
                try:
                    good.append(_snapshot_row(row))
                except Exception as exc:
                    bad.append((row["table_id"], f"unreadable snapshot: {exc!r}"))
            for table_id, error in bad:
                log.warning("setting aside snapshot of table %s: %s", table_id, error)
                try:
                    async with self._transaction(conn):
                        await self._set_aside(conn, table_id, error)
                except Exception:
                    log.exception("could not set aside snapshot of table %s", table_id)
        return good

    async def set_aside_snapshot(
        self, table_id: str, error: str, *, now: datetime | None = None
    ) -> bool:
        """Move a snapshot that cannot be restored to broken_snapshots, with the reason.

        Never raises (it runs while the bot is recovering from something else already);
        returns whether a snapshot was moved.
        """
        try:
            async with self._write() as conn:
                return await self._set_aside(conn, table_id, error, now=now)
        except Exception:
            log.exception("could not set aside snapshot of table %s", table_id)
            return False

    async def _set_aside(
        self,
        conn: aiosqlite.Connection,
        table_id: str,
        error: str,
        *,
        now: datetime | None = None,
    ) -> bool:
        message = str(error)[:_MAX_ERROR_CHARS] or "unknown error"
        cursor = await conn.execute(
            "INSERT INTO broken_snapshots (table_id, guild_id, channel_id, kind, version,"
            " snapshot, original_updated_at, error, set_aside_at)"
            " SELECT table_id, guild_id, channel_id, kind, version, snapshot, updated_at, ?, ?"
            " FROM table_snapshots WHERE table_id = ?",
            (message, self._now(now), str(table_id)),
        )
        if cursor.rowcount == 0:
            return False
        await conn.execute("DELETE FROM table_snapshots WHERE table_id = ?", (str(table_id),))
        return True

    async def broken_snapshots(self) -> list[BrokenSnapshot]:
        """Set-aside snapshots, newest first, for an admin to inspect."""
        async with self._read() as conn:
            rows = await conn.execute_fetchall(
                "SELECT id, table_id, guild_id, channel_id, kind, version, snapshot, error,"
                " set_aside_at FROM broken_snapshots ORDER BY id DESC"
            )
        return [
            BrokenSnapshot(
                id=row["id"],
                table_id=row["table_id"],
                guild_id=row["guild_id"],
                channel_id=row["channel_id"],
                kind=row["kind"],
                version=row["version"],
                snapshot=row["snapshot"],
                error=row["error"],
                set_aside_at=_from_ts(row["set_aside_at"]),
            )
            for row in rows
        ]

    # --- games ------------------------------------------------------------------------------

    async def record_game(
        self,
        record: GameRecord,
        *,
        table_id: str | None = None,
        now: datetime | None = None,
    ) -> int:
        """Record an ended game without touching snapshots or chips; returns the game id.

        A table should prefer `finish_table`, which also applies the last chip changes and
        clears the snapshot in the same transaction.
        """
        _check_record(record)
        stamp = self._now(now)
        async with self._write() as conn:
            return await self._insert_game(conn, record, table_id, stamp)

    async def _insert_game(
        self,
        conn: aiosqlite.Connection,
        record: GameRecord,
        table_id: str | None,
        stamp: str,
    ) -> int:
        started = _ts(record.started_at)
        finished = stamp if record.finished_at is None else _ts(record.finished_at)
        if finished < started:
            raise ValueError("a game cannot finish before it started (check the clock)")
        cursor = await conn.execute(
            "INSERT INTO games (guild_id, channel_id, kind, table_id, started_at, finished_at,"
            " status, options, seed) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                record.guild_id,
                record.channel_id,
                record.kind,
                table_id,
                started,
                finished,
                str(record.status),
                _json(dict(record.options), "the game options"),
                None if record.seed is None else str(record.seed),
            ),
        )
        game_id = cursor.lastrowid
        assert game_id is not None
        # Results point at players; make sure an unseen player has a row (the table manager
        # normally upserts players as they sit down).
        await conn.executemany(
            "INSERT INTO players (user_id, display_name, first_seen, last_seen)"
            " VALUES (?, ?, ?, ?) ON CONFLICT (user_id) DO NOTHING",
            [
                (p.user_id, p.name or f"user {p.user_id}", stamp, stamp)
                for p in record.players
                if p.user_id is not None
            ],
        )
        await conn.executemany(
            "INSERT INTO game_results (game_id, seat, user_id, seat_label, score, place, win)"
            " VALUES (?, ?, ?, ?, ?, ?, ?)",
            [
                (game_id, p.seat, p.user_id, p.name, p.score, p.place, int(p.win))
                for p in record.players
            ],
        )
        return game_id

    # --- chips ------------------------------------------------------------------------------

    async def balance(
        self,
        guild_id: int,
        user_id: int,
        starting: int | None = None,
        *,
        now: datetime | None = None,
    ) -> int:
        """A player's chips in a server, opening the account if this is their first time.

        The opening balance (`starting`, else the store's `starting_chips`) is written to the
        ledger too, so the ledger always adds up to the balance.
        """
        _check_id(guild_id, "guild_id")
        _check_id(user_id, "user_id")
        opening = self._starting_chips if starting is None else starting
        if not isinstance(opening, int) or opening < 0:
            raise ValueError("a starting balance must be a whole number of chips, at least 0")
        async with self._read() as conn:
            current = await _current_balance(conn, guild_id, user_id)
            if current is not None:
                return current
            async with self._transaction(conn):
                return await self._open_account(conn, guild_id, user_id, opening, self._now(now))

    async def _open_account(
        self,
        conn: aiosqlite.Connection,
        guild_id: int,
        user_id: int,
        opening: int,
        stamp: str,
    ) -> int:
        cursor = await conn.execute(
            "INSERT INTO chip_balances (guild_id, user_id, balance, created_at, updated_at)"
            " VALUES (?, ?, ?, ?, ?) ON CONFLICT (guild_id, user_id) DO NOTHING",
            (guild_id, user_id, opening, stamp, stamp),
        )
        if cursor.rowcount == 0:  # another process opened it meanwhile
            current = await _current_balance(conn, guild_id, user_id)
            assert current is not None
            return current
        if opening:
            await conn.execute(
                "INSERT INTO chip_ledger (guild_id, user_id, delta, balance_after, reason,"
                " created_at) VALUES (?, ?, ?, ?, ?, ?)",
                (guild_id, user_id, opening, opening, REASON_OPENING, stamp),
            )
        return opening

    async def _account(
        self, conn: aiosqlite.Connection, guild_id: int, user_id: int, stamp: str
    ) -> int:
        current = await _current_balance(conn, guild_id, user_id)
        if current is None:
            current = await self._open_account(conn, guild_id, user_id, self._starting_chips, stamp)
        return current

    async def apply_chip_changes(
        self,
        guild_id: int,
        changes: Iterable[ChipChange],
        *,
        table_id: str | None = None,
        game_id: int | None = None,
        now: datetime | None = None,
    ) -> dict[int, int]:
        """Apply changes in order, all or none; returns the new balances of those touched.

        Each change is checked against the running balance, so a batch cannot pass through a
        negative balance even if a later credit would cover it: order credits first.
        Zero deltas are skipped (a player who broke even needs no ledger line).
        """
        _check_id(guild_id, "guild_id")
        changes = list(changes)
        stamp = self._now(now)
        async with self._write() as conn:
            return await self._apply_changes(
                conn, guild_id, changes, table_id=table_id, game_id=game_id, stamp=stamp
            )

    async def _apply_changes(
        self,
        conn: aiosqlite.Connection,
        guild_id: int,
        changes: list[ChipChange],
        *,
        table_id: str | None,
        game_id: int | None,
        stamp: str,
    ) -> dict[int, int]:
        balances: dict[int, int] = {}
        for change in changes:
            if not isinstance(change, ChipChange):
                raise TypeError("chip changes must be ChipChange values")
            if change.delta == 0:
                continue
            user = change.user_id
            if user not in balances:
                balances[user] = await self._account(conn, guild_id, user, stamp)
            after = balances[user] + change.delta
            if after < 0:
                raise InsufficientChipsError(guild_id, user, balances[user], change.delta)
            balances[user] = after
            await conn.execute(
                "INSERT INTO chip_ledger (guild_id, user_id, delta, balance_after, reason,"
                " table_id, game_id, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (guild_id, user, change.delta, after, change.reason, table_id, game_id, stamp),
            )
        await conn.executemany(
            "UPDATE chip_balances SET balance = ?, updated_at = ?"
            " WHERE guild_id = ? AND user_id = ?",
            [(bal, stamp, guild_id, user) for user, bal in balances.items()],
        )
        return balances

    async def claim_daily(
        self,
        guild_id: int,
        user_id: int,
        amount: int,
        now: datetime | None = None,
    ) -> DailyClaim:
        """Grant `amount` chips once per UTC day; a second claim the same day grants nothing."""
        _check_id(guild_id, "guild_id")
        _check_id(user_id, "user_id")
        if not isinstance(amount, int) or isinstance(amount, bool) or amount <= 0:
            raise ValueError("the daily amount must be a positive whole number of chips")
        moment = self._clock() if now is None else now
        stamp = _ts(moment)
        today = moment.astimezone(UTC).date()
        next_claim = datetime.combine(today + timedelta(days=1), time(), tzinfo=UTC)
        async with self._write() as conn:
            current = await self._account(conn, guild_id, user_id, stamp)
            rows = await conn.execute_fetchall(
                "SELECT last_daily FROM chip_balances WHERE guild_id = ? AND user_id = ?",
                (guild_id, user_id),
            )
            last = rows[0]["last_daily"]
            if last is not None and date.fromisoformat(last) >= today:
                return DailyClaim(False, 0, current, next_claim)
            after = current + amount
            await conn.execute(
                "INSERT INTO chip_ledger (guild_id, user_id, delta, balance_after, reason,"
                " created_at) VALUES (?, ?, ?, ?, ?, ?)",
                (guild_id, user_id, amount, after, REASON_DAILY, stamp),
            )
            await conn.execute(
                "UPDATE chip_balances SET balance = ?, last_daily = ?, updated_at = ?"
                " WHERE guild_id = ? AND user_id = ?",
                (after, today.isoformat(), stamp, guild_id, user_id),
            )
        return DailyClaim(True, amount, after, next_claim)

    async def ledger(
        self, guild_id: int, user_id: int, *, limit: int = 50, offset: int = 0
    ) -> list[LedgerEntry]:
        """A player's chip history in a server, newest first."""
        _check_page(limit, offset)
        async with self._read() as conn:
            rows = await conn.execute_fetchall(
                "SELECT id, guild_id, user_id, delta, balance_after, reason, table_id, game_id,"
                " created_at FROM chip_ledger WHERE guild_id = ? AND user_id = ?"
                " ORDER BY id DESC LIMIT ? OFFSET ?",
                (guild_id, user_id, limit, offset),
            )
        return [
            LedgerEntry(
                id=row["id"],
                guild_id=row["guild_id"],
                user_id=row["user_id"],
                delta=row["delta"],
                balance_after=row["balance_after"],
                reason=row["reason"],
                table_id=row["table_id"],
                game_id=row["game_id"],
                created_at=_from_ts(row["created_at"]),
            )
            for row in rows
        ]

    async def chip_leaderboard(
        self, guild_id: int, *, limit: int = 10, offset: int = 0
    ) -> list[ChipRow]:
        """The richest players of a server (ties by user id, so pages never overlap)."""
        _check_page(limit, offset)
        async with self._read() as conn:
            rows = await conn.execute_fetchall(
                "SELECT b.user_id, p.display_name, b.balance FROM chip_balances b"
                " LEFT JOIN players p ON p.user_id = b.user_id WHERE b.guild_id = ?"
                " ORDER BY b.balance DESC, b.user_id ASC LIMIT ? OFFSET ?",
                (guild_id, limit, offset),
            )
        return [
            ChipRow(offset + i + 1, row["user_id"], row["display_name"], row["balance"])
            for i, row in enumerate(rows)
        ]

    # --- stats ------------------------------------------------------------------------------

    async def leaderboard(
        self,
        guild_id: int,
        kind: str | None = None,
        order_by: LeaderboardOrder = "wins",
        limit: int = 10,
        offset: int = 0,
        *,
        min_games: int = 1,
    ) -> list[LeaderboardRow]:
        """Ranked players of a server, for one kind of game or (kind=None) all of them.

        Only finished games and human seats count. Ties are broken by further columns and
        finally by user id, so that pages are stable and never overlap. `min_games` keeps
        one lucky game from topping a win-rate board. Across all games there are no points
        (each game counts them its own way), so they cannot order that board either.
        """
        if order_by not in _LEADERBOARD_ORDER:
            raise ValueError(f"order_by must be one of {', '.join(_LEADERBOARD_ORDER)}")
        if kind is None and order_by == "points":
            raise ValueError("points of different games do not add up: order by points "
                             "needs a game")
        _check_page(limit, offset)
        where, params = _stats_filter(guild_id, kind)
        points = "NULL" if kind is None else "coalesce(sum(r.score), 0)"
        async with self._read() as conn:
            rows = await conn.execute_fetchall(
                "SELECT r.user_id AS user_id, p.display_name AS display_name,"
                f" count(*) AS games, sum(r.win) AS wins, {points} AS points,"
                " CAST(sum(r.win) AS REAL) / count(*) AS win_rate"
                " FROM games g JOIN game_results r ON r.game_id = g.id"
                " JOIN players p ON p.user_id = r.user_id"
                f" WHERE {where} GROUP BY r.user_id HAVING count(*) >= ?"
                f" ORDER BY {_LEADERBOARD_ORDER[order_by]} LIMIT ? OFFSET ?",
                (*params, min_games, limit, offset),
            )
        return [
            LeaderboardRow(
                rank=offset + i + 1,
                user_id=row["user_id"],
                display_name=row["display_name"],
                games=row["games"],
                wins=row["wins"],
                points=row["points"],
                win_rate=row["win_rate"],
            )
            for i, row in enumerate(rows)
        ]

    async def leaderboard_size(
        self, guild_id: int, kind: str | None = None, *, min_games: int = 1
    ) -> int:
        """How many players `leaderboard` can list, so a paginator knows its page count."""
        where, params = _stats_filter(guild_id, kind)
        async with self._read() as conn:
            rows = await conn.execute_fetchall(
                "SELECT count(*) FROM (SELECT r.user_id FROM games g"
                " JOIN game_results r ON r.game_id = g.id"
                f" WHERE {where} GROUP BY r.user_id HAVING count(*) >= ?)",
                (*params, min_games),
            )
        return int(rows[0][0])

    async def player_stats(self, guild_id: int, user_id: int) -> dict[str, KindStats]:
        """A player's record in a server per kind of game (finished games only), by kind."""
        async with self._read() as conn:
            rows = await conn.execute_fetchall(
                "SELECT g.kind AS kind, count(*) AS played, sum(r.win) AS won,"
                " max(r.score) AS best_score, max(g.finished_at) AS last_played"
                " FROM game_results r JOIN games g ON g.id = r.game_id"
                " WHERE r.user_id = ? AND g.guild_id = ? AND g.status = 'finished'"
                " GROUP BY g.kind ORDER BY g.kind",
                (user_id, guild_id),
            )
        return {
            row["kind"]: KindStats(
                kind=row["kind"],
                played=row["played"],
                won=row["won"],
                best_score=row["best_score"],
                last_played=_from_ts(row["last_played"]),
            )
            for row in rows
        }


async def _current_balance(conn: aiosqlite.Connection, guild_id: int, user_id: int) -> int | None:
    rows = await conn.execute_fetchall(
        "SELECT balance FROM chip_balances WHERE guild_id = ? AND user_id = ?",
        (guild_id, user_id),
    )
    return int(rows[0]["balance"]) if rows else None


def _stats_filter(guild_id: int, kind: str | None) -> tuple[str, tuple[Any, ...]]:
    # Two fixed variants rather than "(? IS NULL OR kind = ?)", so the index on
    # (guild_id, kind, status) is used in both cases.
    base = "g.guild_id = ? AND g.status = 'finished' AND r.user_id IS NOT NULL"
    if kind is None:
        return base, (guild_id,)
    return base + " AND g.kind = ?", (guild_id, kind)


def _check_record(record: object) -> None:
    if not isinstance(record, GameRecord):
        raise TypeError(f"expected a GameRecord, not {type(record).__name__}")


def _snapshot_row(row: sqlite3.Row) -> SnapshotRow:
    raw = row["snapshot"]
    if isinstance(raw, bytes):
        raw = raw.decode("utf-8")
    snapshot = json.loads(raw)
    if not isinstance(snapshot, dict):
        raise ValueError(f"expected a JSON object, found {type(snapshot).__name__}")
    return SnapshotRow(
        table_id=row["table_id"],
        guild_id=int(row["guild_id"]),
        channel_id=int(row["channel_id"]),
        kind=str(row["kind"]),
        version=int(row["version"]),
        snapshot=snapshot,
        created_at=_from_ts(row["created_at"]),
        updated_at=_from_ts(row["updated_at"]),
    )
