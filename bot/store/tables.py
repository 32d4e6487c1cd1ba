"""Snapshots of unfinished tables, and those set aside."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from datetime import datetime
from typing import Any

from bot.store.base import (
    _MAX_ERROR_CHARS,
    REASON_REFUND,
    _check_id,
    _check_record,
    _check_text,
    _from_ts,
    _json,
    log,
)
from bot.store.drivers import Connection, Row
from bot.store.errors import SnapshotConflictError
from bot.store.games import GameRecords
from bot.store.outbox import LoggedAction, OutboxRows, _compact
from bot.store.rows import (
    BrokenSnapshot,
    ChipChange,
    GameRecord,
    SaveResult,
    SnapshotRow,
    table_account,
)
from bot.store.tournaments import TournamentRows

# A table's snapshot, new or a later version of the same table (never another channel's or
# game's: then it returns no row). Parameters: table id, guild, channel, kind, snapshot, time.
_UPSERT_SNAPSHOT = (
    "INSERT INTO table_snapshots"
    " (table_id, guild_id, channel_id, kind, version, snapshot, created_at, updated_at)"
    " VALUES (?, ?, ?, ?, 1, ?, ?, ?)"
    " ON CONFLICT (table_id) DO UPDATE SET version = table_snapshots.version + 1,"
    " snapshot = excluded.snapshot, updated_at = excluded.updated_at"
    " WHERE table_snapshots.guild_id = excluded.guild_id"
    " AND table_snapshots.channel_id = excluded.channel_id"
    " AND table_snapshots.kind = excluded.kind"
    " RETURNING version"
)

# `TableRows._save_step_in_one_statement`, in PostgreSQL's dialect only (SQLite has neither
# arrays nor writes in WITH, and needs no round trips saved: it runs in this process).
# Parameters: the upsert's, then table id, guild, time and the bodies; table id and the
# actions' steps, seats, actions and times.
_STEP_IN_ONE_STATEMENT = f"""
WITH snapshot AS ({_UPSERT_SNAPSHOT}
), messages AS (
    INSERT INTO outbox (table_id, guild_id, body, created_at)
    SELECT ?, ?, body, ? FROM unnest(?::text[]) WITH ORDINALITY AS m (body, n)
    WHERE EXISTS (SELECT 1 FROM snapshot) ORDER BY n
), actions AS (
    INSERT INTO table_actions (table_id, step, seat, action, at)
    SELECT ?, step, seat, action, at
    FROM unnest(?::bigint[], ?::bigint[], ?::text[], ?::text[]) AS a (step, seat, action, at)
    WHERE EXISTS (SELECT 1 FROM snapshot)
    ON CONFLICT (table_id, step) DO NOTHING
)
SELECT version FROM snapshot
"""


class TableRows(GameRecords, OutboxRows, TournamentRows):
    """Unfinished tables: a snapshot per table, written with what its step did to chips,
    scores and the outbox; snapshots that cannot load are set aside, never fatal."""

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

        Each chip change is a transfer between its party (a member, or the house for an AI
        seat) and this table's account (see `ChipChange`). With `results` the game has ended:
        see `finish_table` (`snapshot` is then not stored). A member's change that would go
        negative raises `InsufficientChipsError`, a table paying out more than its account
        holds `ChipAuditError`, and nothing, not even the snapshot, is written: the table
        must not advance past a move that the chips could not pay for. A step that moves no
        chips writes no ledger row (on PostgreSQL: one statement).
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
        upsert = (table_id, guild_id, channel_id, kind, encoded, stamp, stamp)
        if not changes and self.dialect == "postgresql":
            version = await self._save_step_in_one_statement(upsert, messages, actions)
            return SaveResult(version=version, game_id=None, balances={})
        async with self._write() as conn:
            version = await self._upsert_snapshot(conn, upsert)
            balances = await self._apply_changes(
                conn, guild_id, changes, table_id=table_id, game_id=None, stamp=stamp
            )
            await self._insert_step_rows(conn, table_id, messages, actions, stamp, guild_id)
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
        disappearance of the table cannot be separated by a crash. The changes must empty
        the table's account: a table that would end holding chips raises `ChipAuditError`
        and nothing is written.
        """
        _check_text(table_id, "table_id")
        _check_record(record)
        changes = list(chip_changes)
        stamp = self._now(now)
        async with self._write() as conn:
            # The snapshot's row first: every write of a table's step locks it first.
            await conn.execute("DELETE FROM table_snapshots WHERE table_id = ?", (table_id,))
            game_id = await self._insert_game(conn, record, table_id, stamp)
            balances = await self._apply_changes(
                conn, record.guild_id, changes, table_id=table_id, game_id=game_id, stamp=stamp
            )
            await self._require_empty_table(conn, record.guild_id, table_id)
            await self._insert_step_rows(conn, table_id, messages, actions, stamp,
                                         record.guild_id)
            # A tournament's table: its result goes to the tournament with the game.
            tournament = await self._tournament_table_finished(conn, table_id, game_id, record)
        self._tournament_result_committed(tournament)
        return SaveResult(version=None, game_id=game_id, balances=balances)

    async def _save_step_in_one_statement(
        self,
        upsert: tuple[Any, ...],
        messages: Iterable[Mapping[str, Any]],
        actions: Iterable[LoggedAction],
    ) -> int:
        """A step that moves no chips (nearly every click), on PostgreSQL: one round trip.

        A click's answer waits for its step to be saved. In a transaction that is BEGIN, three
        statements and COMMIT: five round trips, each waiting for the server and then for this
        process's busy event loop, which made PostgreSQL's p99 twice SQLite's under load
        (bench/scale.py). One statement is atomic by itself; its outbox and action rows are
        written only if the snapshot was (not when the id is another channel's table).
        """
        table_id, guild_id, stamp = upsert[0], upsert[1], upsert[-1]
        logged = list(actions)
        rows = await self._db.write_one_returning(_STEP_IN_ONE_STATEMENT, (
            *upsert, table_id, guild_id, stamp, [_compact(body) for body in messages],
            table_id, [a.step for a in logged], [a.seat for a in logged],
            [_compact(a.action) for a in logged], [a.at for a in logged],
        ))
        if not rows:
            raise _conflict(table_id)
        return int(rows[0][0])

    async def _upsert_snapshot(self, conn: Connection, upsert: tuple[Any, ...]) -> int:
        row = await conn.fetch_one(_UPSERT_SNAPSHOT, upsert)
        if row is None:
            raise _conflict(upsert[0])
        return int(row[0])

    async def delete_snapshot(
        self, table_id: str, *, messages: Iterable[Mapping[str, Any]] = (),
        guild_id: int | None = None, chip_changes: Iterable[ChipChange] = (),
    ) -> bool:
        """Forget an unfinished table (e.g. a lobby that closed), queuing what must be told of
        it and giving back the chips it held (buy-ins), all in one transaction, so a crash
        can neither keep the table nor pay it out twice; returns whether it existed.

        The changes must empty the table's account (`ChipAuditError` otherwise, and nothing
        is written)."""
        changes = list(chip_changes)
        if changes and guild_id is None:
            raise ValueError("chips given back need the table's guild")
        stamp = self._now()
        async with self._write() as conn:
            deleted = await conn.fetch_all(
                "DELETE FROM table_snapshots WHERE table_id = ? RETURNING guild_id", (table_id,)
            )
            if changes and guild_id is not None:
                await self._apply_changes(conn, guild_id, changes, table_id=table_id,
                                          game_id=None, stamp=stamp)
            guild = guild_id if guild_id is not None or not deleted else deleted[0][0]
            if guild is not None:
                await self._require_empty_table(conn, guild, table_id)
            await self._insert_step_rows(conn, table_id, messages, (), stamp, guild)
            return bool(deleted)

    async def load_snapshots(self) -> list[SnapshotRow]:
        """Every unfinished table, for restoring after a restart.

        A row that is not a readable JSON object is set aside (see `set_aside_snapshot`: its
        chips refunded from the ledger) rather than returned or raised, so one bad table can
        never stop the bot starting.
        Rows that read fine but that the engine rejects are the caller's to set aside.
        """
        good: list[SnapshotRow] = []
        bad: list[tuple[str, str]] = []
        async with self._read() as conn:
            rows = await conn.fetch_all(
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
        """Move a snapshot that cannot be restored to broken_snapshots, with the reason, and
        refund its table's account from the ledger, in one transaction.

        Each member gets back what they paid into the table net (buy-ins less cash-outs, if
        positive), the largest first, as far as the account covers; the rest goes to the
        house (its AI seats' chips); the account ends at 0. Nothing is taken from memory, so
        a table whose state is lost or wrong still pays back only what was paid, and only
        once (a second call finds no snapshot). Never raises (it runs while the bot is
        recovering from something else already); returns whether a snapshot was moved.
        """
        try:
            async with self._write() as conn:
                return await self._set_aside(conn, table_id, error, now=now)
        except Exception:
            log.exception("could not set aside snapshot of table %s", table_id)
            return False

    async def _set_aside(
        self,
        conn: Connection,
        table_id: str,
        error: str,
        *,
        now: datetime | None = None,
    ) -> bool:
        message = str(error)[:_MAX_ERROR_CHARS] or "unknown error"
        stamp = self._now(now)
        # Locked first (PostgreSQL), so two processes cannot both copy it nor refund it.
        found = await conn.fetch_one(
            "SELECT guild_id FROM table_snapshots WHERE table_id = ?" + conn.for_update,
            (str(table_id),),
        )
        if found is None:
            return False
        guild_id = int(found["guild_id"])
        refunds = await self._refunds(conn, guild_id, str(table_id))
        await self._apply_changes(conn, guild_id, refunds, table_id=str(table_id), game_id=None,
                                  stamp=stamp)
        await self._require_empty_table(conn, guild_id, str(table_id))
        await conn.execute(
            "INSERT INTO broken_snapshots (table_id, guild_id, channel_id, kind, version,"
            " snapshot, original_updated_at, error, set_aside_at)"
            " SELECT table_id, guild_id, channel_id, kind, version, snapshot, updated_at, ?, ?"
            " FROM table_snapshots WHERE table_id = ?",
            (message, stamp, str(table_id)),
        )
        await conn.execute("DELETE FROM table_snapshots WHERE table_id = ?", (str(table_id),))
        return True

    async def _refunds(self, conn: Connection, guild_id: int, table_id: str) -> list[ChipChange]:
        """What a table set aside gives back, read from the books alone: each member what
        they paid in net, the largest first, while the account lasts; the rest to the house."""
        row = await conn.fetch_one(
            "SELECT balance FROM chip_accounts WHERE guild_id = ? AND account = ?",
            (guild_id, table_account(table_id)),
        )  # locked by _apply_changes, after the members (the one lock order)
        left = 0 if row is None else int(row["balance"])
        paid = await conn.fetch_all(
            "SELECT user_id, CAST(-sum(delta) AS BIGINT) AS paid FROM chip_ledger"
            " WHERE table_id = ? AND guild_id = ? GROUP BY user_id",
            (table_id, guild_id),
        )
        changes: list[ChipChange] = []
        for user, amount in sorted(((int(r["user_id"]), int(r["paid"])) for r in paid),
                                   key=lambda pair: (-pair[1], pair[0])):
            back = min(amount, left)
            if back > 0:
                changes.append(ChipChange(user, back, REASON_REFUND))
                left -= back
        if left > 0:
            changes.append(ChipChange(None, left, REASON_REFUND))
        return changes

    async def broken_snapshots(self) -> list[BrokenSnapshot]:
        """Set-aside snapshots, newest first, for an admin to inspect."""
        async with self._read() as conn:
            rows = await conn.fetch_all(
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


def _conflict(table_id: str) -> SnapshotConflictError:
    return SnapshotConflictError(
        f"Table {table_id} is already saved for another channel or game; table ids must be "
        "unique."
    )


def _snapshot_row(row: Row) -> SnapshotRow:
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
