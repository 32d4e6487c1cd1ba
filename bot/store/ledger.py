"""Reading the chip books: a member's ledger, the richest players, and the audit that checks
every account against its ledger rows (see `bot.store.chips` for how chips are written)."""

from __future__ import annotations

import json
from typing import Any

from bot.store.base import StoreCore, _check_id, _check_page, _from_ts
from bot.store.rows import (
    AccountMismatch,
    ChipAudit,
    ChipRow,
    LedgerEntry,
    TableChips,
    member_account,
)


class ChipLedger(StoreCore):
    """The chip books, read only: what each account holds and how it came to hold it."""

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

    async def chip_audit(self, guild_id: int | None = None) -> ChipAudit:
        """Check the books of a server (or of every server): each account's stored balance
        against the sum of its ledger rows, the house's issue against what members and
        tables hold, each open table's account against its snapshot's stacks, and that no
        closed table kept chips. Reads only; see `ChipAudit.ok`."""
        if guild_id is not None:
            _check_id(guild_id, "guild_id")
        params: tuple[Any, ...] = () if guild_id is None else (guild_id,)
        mismatches: list[AccountMismatch] = []
        async with self._read() as conn:
            for row in await conn.fetch_all(
                "SELECT b.guild_id, b.user_id, b.balance,"
                " CAST(coalesce(l.total, 0) AS BIGINT) AS total FROM chip_balances b"
                " LEFT JOIN (SELECT guild_id, user_id, sum(delta) AS total FROM chip_ledger"
                " GROUP BY guild_id, user_id) l"
                " ON l.guild_id = b.guild_id AND l.user_id = b.user_id"
                " WHERE b.balance <> coalesce(l.total, 0)" + _in_guild("b", guild_id)
                + " ORDER BY b.guild_id, b.user_id",
                params,
            ):
                mismatches.append(AccountMismatch(int(row["guild_id"]),
                                                  member_account(int(row["user_id"])),
                                                  int(row["balance"]), int(row["total"])))
            for row in await conn.fetch_all(
                "SELECT a.guild_id, a.account, a.balance,"
                " CAST(coalesce(l.total, 0) AS BIGINT) AS total FROM chip_accounts a"
                " LEFT JOIN (SELECT guild_id, account, sum(delta) AS total"
                " FROM chip_account_ledger GROUP BY guild_id, account) l"
                " ON l.guild_id = a.guild_id AND l.account = a.account"
                " WHERE a.balance <> coalesce(l.total, 0)" + _in_guild("a", guild_id)
                + " ORDER BY a.guild_id, a.account",
                params,
            ):
                mismatches.append(AccountMismatch(int(row["guild_id"]), str(row["account"]),
                                                  int(row["balance"]), int(row["total"])))
            members = {int(row[0]): int(row[1]) for row in await conn.fetch_all(
                "SELECT guild_id, CAST(sum(balance) AS BIGINT) FROM chip_balances b"
                " WHERE 1 = 1" + _in_guild("b", guild_id) + " GROUP BY guild_id", params)}
            houses: dict[int, int] = {}
            tables: dict[int, int] = {}
            for row in await conn.fetch_all(
                "SELECT guild_id, account = 'house' AS is_house, CAST(sum(balance) AS BIGINT)"
                " FROM chip_accounts a WHERE 1 = 1" + _in_guild("a", guild_id)
                + " GROUP BY guild_id, account = 'house'", params):
                (houses if row[1] else tables)[int(row[0])] = int(row[2])
            open_rows = await conn.fetch_all(
                "SELECT s.guild_id, s.table_id, s.snapshot, coalesce(a.balance, 0) AS balance,"
                " coalesce(a.legacy, 0) AS legacy FROM table_snapshots s"
                " LEFT JOIN chip_accounts a"
                " ON a.guild_id = s.guild_id AND a.account = 'table:' || s.table_id"
                " WHERE 1 = 1" + _in_guild("s", guild_id)
                + " ORDER BY s.guild_id, s.table_id", params)
            closed_rows = await conn.fetch_all(
                "SELECT a.guild_id, a.account, a.balance FROM chip_accounts a"
                " WHERE a.account LIKE 'table:%' AND a.balance <> 0 AND NOT EXISTS"
                " (SELECT 1 FROM table_snapshots s WHERE s.table_id = substr(a.account, 7))"
                + _in_guild("a", guild_id) + " ORDER BY a.guild_id, a.account", params)
        open_tables = tuple(
            TableChips(int(row["guild_id"]), str(row["table_id"]), int(row["balance"]),
                       _stacks(row["snapshot"]), bool(row["legacy"]))
            for row in open_rows
        )
        closed = tuple(
            TableChips(int(row["guild_id"]), str(row["account"]).removeprefix("table:"),
                       int(row["balance"]), None)
            for row in closed_rows
        )
        guilds = sorted(set(members) | set(houses) | set(tables))
        unbalanced = tuple(g for g in guilds
                           if -houses.get(g, 0) != members.get(g, 0) + tables.get(g, 0))
        return ChipAudit(
            guild_id=guild_id,
            members_total=sum(members.values()),
            tables_total=sum(tables.values()),
            house_issued=-sum(houses.values()),
            mismatches=tuple(mismatches),
            tables=open_tables,
            closed_with_chips=closed,
            unbalanced_guilds=unbalanced,
        )


def _in_guild(alias: str, guild_id: int | None) -> str:
    """The audit's condition on the server, if it audits one (its parameter is the guild)."""
    return "" if guild_id is None else f" AND {alias}.guild_id = ?"


def _stacks(raw: object) -> int | None:
    """The chips a snapshot's seats hold (`snapshot["stacks"]`), None if it has no such list
    (not a chip game's snapshot, or one that cannot be read)."""
    try:
        snapshot = json.loads(raw.decode("utf-8") if isinstance(raw, bytes) else str(raw))
    except ValueError:
        return None
    stacks = snapshot.get("stacks") if isinstance(snapshot, dict) else None
    if not isinstance(stacks, list) or not all(
        isinstance(x, int) and not isinstance(x, bool) for x in stacks
    ):
        return None
    return sum(stacks)
