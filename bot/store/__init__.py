"""The store: scores, chips, settings and unfinished tables, in a SQLite file (the default)
or a PostgreSQL database (DATABASE a ``postgresql://`` URL), behind one interface.

Why it is shaped like this:

* The SQL is written once, portable, against a small adapter (`bot.store.db`): SQLite with
  one connection and one lock (every method holds it for its whole transaction, writes
  `BEGIN IMMEDIATE`), PostgreSQL with a pool (transactions side by side, rows that are read
  and written back locked `FOR UPDATE` in a fixed order). The same migrations and the same
  tests run on both.
* A chip change and the snapshot that caused it are written in one transaction
  (`save_snapshot`): after a crash the table resumes from a snapshot that matches the chips.
  Chips are double-entry bookkeeping (`bot.store.chips`): every move a transfer between a
  member, a table's account and the house, the database refusing a negative member or table
  balance, and `chip_audit` showing that every account equals its ledger.
* WAL with synchronous=NORMAL: a crashed process loses nothing committed and never leaves
  half a transaction; a power cut may lose the last moments of play but never corrupts.
* Time comes from a clock injected at `open` (or passed in), never read behind the caller's
  back, so tests are deterministic. Timestamps are stored as fixed-width UTC ISO-8601 text.
* Aborted games are recorded (for the record and chip audit) but never count in stats.

Everything the callers build or receive is in `bot.store.rows` and re-exported here.
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from bot.store.base import (
    DEFAULT_STARTING_CHIPS,
    REASON_DAILY,
    REASON_OPENING,
    REASON_RECONCILE,
    REASON_REFUND,
    Clock,
    _check_id,
    _check_text,
    _from_ts,
    _json,
    utc_now,
)
from bot.store.leases import Lease, ShardLeaseRows
from bot.store.outbox import LoggedAction, MessageRef, PendingMessage
from bot.store.rows import (
    HOUSE,
    AccountMismatch,
    BrokenSnapshot,
    ChipAudit,
    ChipAuditError,
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
    TableChips,
    member_account,
    table_account,
)
from bot.store.tables import TableRows

__all__ = [
    "DEFAULT_STARTING_CHIPS",
    "HOUSE",
    "REASON_DAILY",
    "REASON_OPENING",
    "REASON_RECONCILE",
    "REASON_REFUND",
    "AccountMismatch",
    "BrokenSnapshot",
    "ChipAudit",
    "ChipAuditError",
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
    "Lease",
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
    "TableChips",
    "member_account",
    "table_account",
    "utc_now",
]


class Store(TableRows, ShardLeaseRows):
    """The bot's persistent state. Open with `await Store.open(path_or_url)`; close when done."""

    # --- guild settings ---------------------------------------------------------------------

    async def get_guild_setting(self, guild_id: int, key: str, default: Any = None) -> Any:
        """A server's setting, or `default` if the server never changed it."""
        _check_id(guild_id, "guild_id")
        async with self._read() as conn:
            row = await conn.fetch_one(
                "SELECT value FROM guild_settings WHERE guild_id = ? AND key = ?",
                (guild_id, key),
            )
        return json.loads(row["value"]) if row is not None else default

    async def guild_settings(self, guild_id: int) -> dict[str, Any]:
        """Every setting the server changed (defaults are the caller's business)."""
        _check_id(guild_id, "guild_id")
        async with self._read() as conn:
            rows = await conn.fetch_all(
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
        await self._write_one(
            "INSERT INTO guild_settings (guild_id, key, value, updated_at) VALUES (?, ?, ?, ?)"
            " ON CONFLICT (guild_id, key)"
            " DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at",
            (guild_id, key, encoded, self._now(now)),
        )

    async def delete_guild_setting(self, guild_id: int, key: str) -> bool:
        """Back to the default; returns whether there was a setting to remove."""
        _check_id(guild_id, "guild_id")
        deleted = await self._write_one(
            "DELETE FROM guild_settings WHERE guild_id = ? AND key = ?", (guild_id, key)
        )
        return deleted > 0

    # --- players ----------------------------------------------------------------------------

    async def upsert_player(
        self, user_id: int, display_name: str, *, now: datetime | None = None
    ) -> None:
        """Remember a player and the name to show for them; first_seen never moves."""
        _check_id(user_id, "user_id")
        _check_text(display_name, "display_name")
        stamp = self._now(now)
        await self._write_one(
            "INSERT INTO players (user_id, display_name, first_seen, last_seen)"
            " VALUES (?, ?, ?, ?)"
            " ON CONFLICT (user_id) DO UPDATE SET display_name = excluded.display_name,"
            " last_seen = CASE WHEN excluded.last_seen > players.last_seen"
            " THEN excluded.last_seen ELSE players.last_seen END",
            (user_id, display_name, stamp, stamp),
        )

    async def player(self, user_id: int) -> Player | None:
        async with self._read() as conn:
            row = await conn.fetch_one(
                "SELECT user_id, display_name, first_seen, last_seen FROM players"
                " WHERE user_id = ?",
                (user_id,),
            )
        if row is None:
            return None
        return Player(
            row["user_id"],
            row["display_name"],
            _from_ts(row["first_seen"]),
            _from_ts(row["last_seen"]),
        )

