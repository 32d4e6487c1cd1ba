"""The store: scores, chips, settings and unfinished tables, in a SQLite file (the default)
or a PostgreSQL database (DATABASE a ``postgresql://`` URL), behind one interface.

Why it is shaped like this:

* The SQL is written once, portable, against a small interface with one driver per
  database (`bot.store.drivers`, laid out like Red-DiscordBot's): SQLite with one
  connection and one lock (every method holds it for its whole transaction, writes
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

Callers import from here only: the `Store` and everything they build or receive
(`bot.store.rows`) or catch (`bot.store.errors`). The package:

* `base`: opening and migrating the database, its transactions, the clock; `migrations`
  applies data/migrations/NNNN_name.sql;
* `drivers`: the database interface, `sqlite` and `postgres`;
* one module per concern: `chips` (moving chips) and `ledger` (reading the books), `games`
  (finished games, leaderboards, stats) and `ratings`, `tables` (snapshots, set-aside
  tables), `outbox` (messages to send, the action log), `leases` (shards),
  `guild_settings` and `players`; `tournaments` (their state, tables, messages and places;
  a tournament table's result is written by `finish_table` with its game).
"""

from __future__ import annotations

from bot.store.base import (
    DEFAULT_STARTING_CHIPS,
    REASON_DAILY,
    REASON_OPENING,
    REASON_RECONCILE,
    REASON_REFUND,
    Clock,
    utc_now,
)
from bot.store.errors import (
    ChipAuditError,
    InsufficientChipsError,
    MigrationError,
    SchemaTooNewError,
    SnapshotConflictError,
    StoreError,
)
from bot.store.guild_settings import GuildSettingRows
from bot.store.leases import Lease, ShardLeaseRows
from bot.store.ledger import ChipLedger
from bot.store.outbox import LoggedAction, MessageRef, PendingMessage
from bot.store.players import PlayerRows
from bot.store.rows import (
    HOUSE,
    AccountMismatch,
    BrokenSnapshot,
    ChipAudit,
    ChipChange,
    ChipRow,
    DailyClaim,
    GameRecord,
    GameStatus,
    KindStats,
    LeaderboardOrder,
    LeaderboardRow,
    LedgerEntry,
    Player,
    PlayerResult,
    SaveResult,
    SnapshotRow,
    TableChips,
    member_account,
    table_account,
)
from bot.store.tables import TableRows
from bot.store.tournaments import (
    TournamentBoardRow,
    TournamentConflictError,
    TournamentMessage,
    TournamentPlace,
    TournamentRow,
    TournamentTable,
)
from bot.store.web_reads import WebReads

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
    "TournamentBoardRow",
    "TournamentConflictError",
    "TournamentMessage",
    "TournamentPlace",
    "TournamentRow",
    "TournamentTable",
    "member_account",
    "table_account",
    "utc_now",
]


class Store(TableRows, ChipLedger, ShardLeaseRows, GuildSettingRows, PlayerRows, WebReads):
    """The bot's persistent state. Open with `await Store.open(path_or_url)`; close when done.

    Each base is one concern, over the one database and clock of `StoreCore`: tables and
    their snapshots (`TableRows`, which builds on game records, ratings, chips and the
    outbox), the chip books (`ChipLedger`), shard leases, server settings and players."""
