"""Chips as double-entry bookkeeping: every move is a transfer between two accounts, written
as two legs in one transaction, so each account's balance is the sum of its rows.

The accounts of a server (data/migrations/0005_chip_accounts.sql): each member's balance
(`chip_balances`, its legs in `chip_ledger`), the house (`HOUSE`: it issues every chip, so its
balance is minus the chips issued) and each table's own account (`table_account(id)`: the chips
its seats hold), both in `chip_accounts` with their legs in `chip_account_ledger`. The database
refuses a negative member or table balance (CHECK constraints, on SQLite and PostgreSQL alike);
the store refuses it first with an error that says who was short.

Chips move only inside the database's transactions, and every transaction locks what it
writes in one order, so processes sharing one PostgreSQL never lose an update nor deadlock:
the members' accounts (`Connection.for_update`) in user-id order, then the table's account,
then the house's (one upsert, as late as possible: every grant and daily of a server writes
that row). On SQLite the write transaction holds the whole file."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time, timedelta

from bot.store.base import (
    REASON_DAILY,
    REASON_OPENING,
    REASON_RECONCILE,
    StoreCore,
    _check_id,
    _check_text,
    _ts,
)
from bot.store.drivers import Connection
from bot.store.errors import ChipAuditError, InsufficientChipsError
from bot.store.rows import (
    HOUSE,
    ChipChange,
    DailyClaim,
    member_account,
    table_account,
)

_INSERT_MEMBER_ROW = (
    "INSERT INTO chip_ledger (guild_id, user_id, delta, balance_after, reason, table_id,"
    " game_id, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
)
_INSERT_ACCOUNT_ROW = (
    "INSERT INTO chip_account_ledger (guild_id, account, counterparty, delta, reason,"
    " table_id, game_id, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
)


@dataclass
class _Legs:
    """The house's and tables' legs of one transaction's transfers (the members' legs are
    written as they go, under their locks). Posted by `ChipAccounts._post` at the end: the
    table accounts checked and written, then the house, then the rows."""

    guild_id: int
    stamp: str
    rows: list[tuple[str, str, int, str, str | None, int | None]] = field(default_factory=list)

    def add(self, account: str, counterparty: str, delta: int, reason: str,
            table_id: str | None, game_id: int | None) -> None:
        self.rows.append((account, counterparty, delta, reason, table_id, game_id))

    def net(self, account: str) -> int:
        return sum(row[2] for row in self.rows if row[0] == account)

    def accounts(self) -> list[str]:
        return sorted({row[0] for row in self.rows})


class ChipAccounts(StoreCore):
    """Play-money chips: one account per player per server, one per table, and the house's;
    every change a transfer written as two legs."""

    async def balance(
        self,
        guild_id: int,
        user_id: int,
        starting: int | None = None,
        *,
        now: datetime | None = None,
    ) -> int:
        """A player's chips in a server, opening the account if this is their first time.

        The opening balance (`starting`, else the store's `starting_chips`) is a transfer
        from the house, written to both ledgers, so the ledger always adds up to the balance.
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
                legs = _Legs(guild_id, self._now(now))
                balance = await self._open_account(conn, guild_id, user_id, opening, legs)
                await self._post(conn, legs)
                return balance

    async def _open_account(
        self,
        conn: Connection,
        guild_id: int,
        user_id: int,
        opening: int,
        legs: _Legs,
    ) -> int:
        stamp = legs.stamp
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
                _INSERT_MEMBER_ROW,
                (guild_id, user_id, opening, opening, REASON_OPENING, None, None, stamp),
            )
            legs.add(HOUSE, member_account(user_id), -opening, REASON_OPENING, None, None)
        return opening

    async def _account(self, conn: Connection, guild_id: int, user_id: int, legs: _Legs) -> int:
        """The balance, the account opened if need be and locked until the transaction ends."""
        current = await _current_balance(conn, guild_id, user_id, lock=True)
        if current is None:
            current = await self._open_account(conn, guild_id, user_id, self._starting_chips,
                                               legs)
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
        """Apply transfers in order, all or none; returns the new balances of the members
        touched.

        Without `table_id` each change is between a member and the house (a grant); with
        it, between the party (a member, or the house for `user_id=None`) and that table's
        account (see `ChipChange`). Each member's change is checked against their running
        balance, so a batch cannot pass through a negative balance even if a later credit
        would cover it: order credits first. The table's account is checked once the batch
        is applied (`ChipAuditError` if it would go below 0). Zero deltas are skipped (a
        player who broke even needs no ledger line).
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
            if change.user_id is None and table_id is None:
                raise ValueError("only a table deals with the house's own chips (an AI seat's):"
                                 " a change without a table must name a member")
        moving = [change for change in changes if change.delta != 0]
        if not moving:
            return {}
        legs = _Legs(guild_id, stamp)
        counter = HOUSE if table_id is None else table_account(table_id)
        balances: dict[int, int] = {}
        members = sorted({change.user_id for change in moving if change.user_id is not None})
        for member in members:  # one lock order
            balances[member] = await self._account(conn, guild_id, member, legs)
        for change in moving:
            user = change.user_id
            if user is None:  # the house and the table: both legs in chip_account_ledger
                legs.add(counter, HOUSE, -change.delta, change.reason, table_id, game_id)
                legs.add(HOUSE, counter, change.delta, change.reason, table_id, game_id)
                continue
            after = balances[user] + change.delta
            if after < 0:
                raise InsufficientChipsError(guild_id, user, balances[user], change.delta)
            balances[user] = after
            await conn.execute(
                _INSERT_MEMBER_ROW,
                (guild_id, user, change.delta, after, change.reason, table_id, game_id, stamp),
            )
            legs.add(counter, member_account(user), -change.delta, change.reason, table_id,
                     game_id)
        await conn.executemany(
            "UPDATE chip_balances SET balance = ?, updated_at = ?"
            " WHERE guild_id = ? AND user_id = ?",
            [(bal, stamp, guild_id, user) for user, bal in balances.items()],
        )
        await self._post(conn, legs)
        return balances

    async def _post(self, conn: Connection, legs: _Legs) -> None:
        """Write the house's and the tables' legs and their new balances.

        A table's account is locked and checked (its CHECK would refuse a negative balance
        too, with a message no one could act on); the house's is one upsert, the last lock
        the transaction takes."""
        if not legs.rows:
            return
        guild_id, stamp = legs.guild_id, legs.stamp
        for account in legs.accounts():
            if account == HOUSE:
                continue
            held = await self._lock_account(conn, guild_id, account, stamp)
            after = held + legs.net(account)
            if after < 0:
                raise ChipAuditError(
                    f"The account of {account} in guild {guild_id} holds {held} chips and "
                    f"this step would take {held - after} from it; nothing was written."
                )
            await conn.execute(
                "UPDATE chip_accounts SET balance = ?, updated_at = ?"
                " WHERE guild_id = ? AND account = ?",
                (after, stamp, guild_id, account),
            )
        if HOUSE in legs.accounts():
            await conn.execute(
                "INSERT INTO chip_accounts (guild_id, account, balance, created_at, updated_at)"
                " VALUES (?, ?, ?, ?, ?) ON CONFLICT (guild_id, account) DO UPDATE"
                " SET balance = chip_accounts.balance + excluded.balance,"
                " updated_at = excluded.updated_at",
                (guild_id, HOUSE, legs.net(HOUSE), stamp, stamp),
            )
        await conn.executemany(
            _INSERT_ACCOUNT_ROW,
            [(guild_id, account, counterparty, delta, reason, table_id, game_id, stamp)
             for account, counterparty, delta, reason, table_id, game_id in legs.rows],
        )

    async def _lock_account(self, conn: Connection, guild_id: int, account: str,
                            stamp: str) -> int:
        """A house or table account's balance, opened at 0 if need be and locked until the
        transaction ends (an upsert locks the row it finds, on PostgreSQL as on SQLite)."""
        row = await conn.fetch_one(
            "INSERT INTO chip_accounts (guild_id, account, balance, created_at, updated_at)"
            " VALUES (?, ?, 0, ?, ?) ON CONFLICT (guild_id, account) DO UPDATE"
            " SET updated_at = excluded.updated_at RETURNING balance",
            (guild_id, account, stamp, stamp),
        )
        assert row is not None
        return int(row["balance"])

    async def _require_empty_table(self, conn: Connection, guild_id: int,
                                   table_id: str) -> None:
        """A table that ends must have paid out every chip of its account, to a member or to
        the house; else the step is refused (`ChipAuditError`) and rolled back."""
        row = await conn.fetch_one(
            "SELECT balance FROM chip_accounts WHERE guild_id = ? AND account = ?"
            + conn.for_update,
            (guild_id, table_account(table_id)),
        )
        left = 0 if row is None else int(row["balance"])
        if left != 0:
            raise ChipAuditError(
                f"Table {table_id} would end with {left} chips still in its account: every "
                "chip must go back to a player (or to the house, for an AI seat) in the same "
                "step; nothing was written."
            )

    async def table_balance(self, guild_id: int, table_id: str) -> int:
        """What a table's account holds: the chips its seats brought and have not taken away
        (0 for a table that never moved chips)."""
        _check_id(guild_id, "guild_id")
        _check_text(table_id, "table_id")
        async with self._read() as conn:
            row = await conn.fetch_one(
                "SELECT balance FROM chip_accounts WHERE guild_id = ? AND account = ?",
                (guild_id, table_account(table_id)),
            )
        return 0 if row is None else int(row["balance"])

    async def reconcile_table_account(self, table_id: str, guild_id: int, held: int) -> int:
        """Bring a table's account opened by the migration (a "legacy" account, from a
        ledger that never recorded AI seats' chips) to what its seats hold, `held` (the sum
        of its snapshot's stacks), by a transfer with the house, and clear the mark; returns
        the chips the house moved to the table (negative: taken back). Once per table: a
        no-op (0) for an account that is not legacy, or for a table without one.
        """
        _check_text(table_id, "table_id")
        _check_id(guild_id, "guild_id")
        if not isinstance(held, int) or isinstance(held, bool) or held < 0:
            raise ValueError("the chips a table holds are a whole number, at least 0")
        account = table_account(table_id)
        async with self._write() as conn:
            row = await conn.fetch_one(
                "SELECT balance, legacy FROM chip_accounts WHERE guild_id = ? AND account = ?"
                + conn.for_update,
                (guild_id, account),
            )
            if row is None or not row["legacy"]:
                return 0
            moved = held - int(row["balance"])
            stamp = self._now()
            await self._apply_changes(conn, guild_id, [ChipChange(None, -moved, REASON_RECONCILE)],
                                      table_id=table_id, game_id=None, stamp=stamp)
            await conn.execute(
                "UPDATE chip_accounts SET legacy = 0, updated_at = ?"
                " WHERE guild_id = ? AND account = ?",
                (stamp, guild_id, account),
            )
            return moved

    async def claim_daily(
        self,
        guild_id: int,
        user_id: int,
        amount: int,
        now: datetime | None = None,
    ) -> DailyClaim:
        """Grant `amount` chips (from the house) once per UTC day; a second claim the same
        day grants nothing."""
        _check_id(guild_id, "guild_id")
        _check_id(user_id, "user_id")
        if not isinstance(amount, int) or isinstance(amount, bool) or amount <= 0:
            raise ValueError("the daily amount must be a positive whole number of chips")
        moment = self._clock() if now is None else now
        stamp = _ts(moment)
        today = moment.astimezone(UTC).date()
        next_claim = datetime.combine(today + timedelta(days=1), time(), tzinfo=UTC)
        async with self._write() as conn:
            legs = _Legs(guild_id, stamp)
            current = await self._account(conn, guild_id, user_id, legs)
            row = await conn.fetch_one(
                "SELECT last_daily FROM chip_balances WHERE guild_id = ? AND user_id = ?",
                (guild_id, user_id),
            )
            assert row is not None
            last = row["last_daily"]
            if last is not None and date.fromisoformat(last) >= today:
                await self._post(conn, legs)  # the opening balance, if this opened the account
                return DailyClaim(False, 0, current, next_claim)
            after = current + amount
            await conn.execute(
                _INSERT_MEMBER_ROW,
                (guild_id, user_id, amount, after, REASON_DAILY, None, None, stamp),
            )
            await conn.execute(
                "UPDATE chip_balances SET balance = ?, last_daily = ?, updated_at = ?"
                " WHERE guild_id = ? AND user_id = ?",
                (after, today.isoformat(), stamp, guild_id, user_id),
            )
            legs.add(HOUSE, member_account(user_id), -amount, REASON_DAILY, None, None)
            await self._post(conn, legs)
        return DailyClaim(True, amount, after, next_claim)


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
