"""Chip balances and their ledger: the ledger always adds up to the balance.

Chips move only inside the database's transactions: an account is read and written back
under its row lock (`Connection.for_update`; on SQLite the write transaction holds the whole
file), accounts locked in user-id order, so processes sharing one PostgreSQL never lose an
update nor deadlock over the same players."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, date, datetime, time, timedelta

from bot.store_core import (
    REASON_DAILY,
    REASON_OPENING,
    StoreCore,
    _check_id,
    _check_page,
    _from_ts,
    _ts,
)
from bot.store_db import Connection
from bot.store_types import (
    ChipChange,
    ChipRow,
    DailyClaim,
    InsufficientChipsError,
    LedgerEntry,
)


class ChipAccounts(StoreCore):
    """Play-money chips: one account per player per server; every change a ledger row."""

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
        conn: Connection,
        guild_id: int,
        user_id: int,
        opening: int,
        stamp: str,
    ) -> int:
        inserted = await conn.execute(
            "INSERT INTO chip_balances (guild_id, user_id, balance, created_at, updated_at)"
            " VALUES (?, ?, ?, ?, ?) ON CONFLICT (guild_id, user_id) DO NOTHING",
            (guild_id, user_id, opening, stamp, stamp),
        )
        if inserted == 0:  # another process opened it meanwhile
            current = await _current_balance(conn, guild_id, user_id, lock=True)
            assert current is not None
            return current
        if opening:
            await conn.execute(
                "INSERT INTO chip_ledger (guild_id, user_id, delta, balance_after, reason,"
                " created_at) VALUES (?, ?, ?, ?, ?, ?)",
                (guild_id, user_id, opening, opening, REASON_OPENING, stamp),
            )
        return opening

    async def _account(self, conn: Connection, guild_id: int, user_id: int, stamp: str) -> int:
        """The balance, the account opened if need be and locked until the transaction ends."""
        current = await _current_balance(conn, guild_id, user_id, lock=True)
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
        conn: Connection,
        guild_id: int,
        changes: list[ChipChange],
        *,
        table_id: str | None,
        game_id: int | None,
        stamp: str,
    ) -> dict[int, int]:
        for change in changes:
            if not isinstance(change, ChipChange):
                raise TypeError("chip changes must be ChipChange values")
        moving = [change for change in changes if change.delta != 0]
        balances: dict[int, int] = {}
        for user in sorted({change.user_id for change in moving}):  # one lock order
            balances[user] = await self._account(conn, guild_id, user, stamp)
        for change in moving:
            user = change.user_id
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
            row = await conn.fetch_one(
                "SELECT last_daily FROM chip_balances WHERE guild_id = ? AND user_id = ?",
                (guild_id, user_id),
            )
            assert row is not None
            last = row["last_daily"]
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
            rows = await conn.fetch_all(
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
            rows = await conn.fetch_all(
                "SELECT b.user_id, p.display_name, b.balance FROM chip_balances b"
                " LEFT JOIN players p ON p.user_id = b.user_id WHERE b.guild_id = ?"
                " ORDER BY b.balance DESC, b.user_id ASC LIMIT ? OFFSET ?",
                (guild_id, limit, offset),
            )
        return [
            ChipRow(offset + i + 1, row["user_id"], row["display_name"], row["balance"])
            for i, row in enumerate(rows)
        ]


async def _current_balance(
    conn: Connection, guild_id: int, user_id: int, *, lock: bool = False
) -> int | None:
    """An account's balance (None if it has none); `lock`: held until the transaction ends,
    for a balance that will be written back."""
    row = await conn.fetch_one(
        "SELECT balance FROM chip_balances WHERE guild_id = ? AND user_id = ?"
        + (conn.for_update if lock else ""),
        (guild_id, user_id),
    )
    return int(row["balance"]) if row is not None else None
