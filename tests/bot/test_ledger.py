"""Chips as double-entry bookkeeping (issue 22): every chip move is a transfer between two
accounts (a member, a table, the house), the database refuses a negative member or table
balance, a table cannot end holding chips, a table set aside is refunded from its ledger
once, and the audit shows that everything adds up, also on a database migrated from before
table accounts existed.

Every test runs on SQLite and on PostgreSQL (`database`, tests/conftest.py), with a fake
clock. "Nothing was written" is a dump of every table before and after, read through a
connection of its own (tests/support/rawdb.py).
"""

from __future__ import annotations

import asyncio
import shutil
import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import asyncpg
import pytest

from bot.core.chips import Bank
from bot.present import i18n
from bot.store import (
    HOUSE,
    REASON_OPENING,
    REASON_REFUND,
    AccountMismatch,
    ChipAuditError,
    ChipChange,
    GameRecord,
    InsufficientChipsError,
    PlayerResult,
    Store,
    TableChips,
    table_account,
)
from bot.store.migrations import MIGRATIONS_DIR
from tests.support.rawdb import dump, execute, fetch

T0 = datetime(2024, 5, 1, 12, 0, tzinfo=UTC)
G, CH = 111, 222
ALICE, BOB, CAROL = 1, 2, 3
# What the database raises for a write its constraints refuse.
REFUSED = (sqlite3.IntegrityError, asyncpg.IntegrityConstraintViolationError)


class FakeClock:
    def __init__(self) -> None:
        self.now = T0

    def __call__(self) -> datetime:
        return self.now


@pytest.fixture
async def store(database: Path | str):
    store = await Store.open(database, clock=FakeClock())
    yield store
    await store.close()


def ended(*players: PlayerResult) -> GameRecord:
    return GameRecord(guild_id=G, channel_id=CH, kind="badugi",
                      started_at=T0 - timedelta(hours=1), players=players)


def seat(number: int, user: int | None) -> PlayerResult:
    return PlayerResult(seat=number, user_id=user, name=None if user else f"AI {number}")


async def save(store: Store, table_id: str, stacks: list[int], *changes: ChipChange,
               channel: int = CH) -> None:
    """A step of a cash table: its snapshot (with the seats' stacks) and its chip moves."""
    await store.save_snapshot(table_id, G, channel, "badugi", {"stacks": stacks},
                              chip_changes=changes)


async def legs(database: Path | str, account: str) -> list[tuple[Any, ...]]:
    """A house or table account's ledger rows: (counterparty, delta, reason)."""
    return await fetch(database, "SELECT counterparty, delta, reason FROM chip_account_ledger"
                       " WHERE guild_id = ? AND account = ? ORDER BY id", (G, account))


async def assert_audit_ok(store: Store, guild_id: int | None = G) -> None:
    audit = await store.chip_audit(guild_id)
    assert audit.ok, audit
    assert audit.house_issued == audit.members_total + audit.tables_total


# --- every move a transfer ----------------------------------------------------------------------


async def test_buy_ins_cash_outs_and_the_houses_ai_chips_keep_the_books(database, store):
    await save(store, "t1", [100], ChipChange(ALICE, -100, "buy-in"))
    await save(store, "t1", [100, 100], ChipChange(None, -100, "buy-in"))  # an AI seat sits
    audit = await store.chip_audit(G)
    assert audit.ok
    assert (audit.members_total, audit.tables_total, audit.house_issued) == (900, 200, 1100)
    assert audit.tables == (TableChips(G, "t1", 200, 200),)

    await save(store, "t1", [160, 40])  # a deal: chips move between stacks, not accounts
    await save(store, "t1", [40], ChipChange(ALICE, 160, "cash-out"))  # Alice leaves
    await assert_audit_ok(store)
    result = await store.finish_table("t1", ended(seat(0, None)),
                                      chip_changes=[ChipChange(None, 40, "cash-out")])
    assert result.balances == {}  # only the house was paid
    audit = await store.chip_audit(G)
    assert audit.ok and audit.tables == ()
    # Alice won 60 from the AI seat: the house issued them.
    assert (audit.members_total, audit.tables_total, audit.house_issued) == (1060, 0, 1060)
    assert await store.table_balance(G, "t1") == 0
    assert await legs(database, table_account("t1")) == [
        (f"user:{ALICE}", 100, "buy-in"), ("house", 100, "buy-in"),
        (f"user:{ALICE}", -160, "cash-out"), ("house", -40, "cash-out"),
    ]
    assert await legs(database, HOUSE) == [
        (f"user:{ALICE}", -1000, REASON_OPENING), ("table:t1", -100, "buy-in"),
        ("table:t1", 40, "cash-out"),
    ]
    assert [(e.delta, e.balance_after, e.table_id) for e in await store.ledger(G, ALICE)] == [
        (160, 1060, "t1"), (-100, 900, "t1"), (1000, 1000, None),
    ]


async def test_grants_and_dailies_come_from_the_house(database, store):
    await store.apply_chip_changes(G, [ChipChange(ALICE, 50, "admin grant")])
    await store.claim_daily(G, BOB, 100)
    await store.claim_daily(G, BOB, 100)  # the second claim of the day grants nothing
    await store.apply_chip_changes(G, [ChipChange(ALICE, -30, "admin grant")])
    audit = await store.chip_audit(G)
    assert audit.ok
    assert (audit.members_total, audit.house_issued) == (1020 + 1100, 1020 + 1100)
    assert [row[1] for row in await legs(database, HOUSE)] == [-1000, -50, -1000, -100, 30]
    with pytest.raises(ValueError, match="only a table deals with the house"):
        await store.apply_chip_changes(G, [ChipChange(None, 10, "admin grant")])


async def test_parallel_moves_of_one_server_neither_lose_an_update_nor_deadlock(store):
    """Every grant, daily and buy-in of a server writes its house's account: on PostgreSQL
    they run side by side and take their locks in one order (members, tables, the house)."""
    await save(store, "a", [], channel=CH + 1)
    await save(store, "b", [], channel=CH)
    work = []
    for i in range(12):
        user = 10 + i % 4
        work += [store.apply_chip_changes(G, [ChipChange(user, 5, "admin grant")]),
                 store.claim_daily(G, user + 4, 100),
                 store.save_snapshot("a" if i % 2 else "b", G, CH + i % 2, "badugi", {},
                                     chip_changes=[ChipChange(user, -10, "buy-in"),
                                                   ChipChange(None, -10, "buy-in")])]
    await asyncio.gather(*work)
    audit = await store.chip_audit(G)
    assert not audit.mismatches and not audit.unbalanced_guilds
    assert audit.tables_total == 12 * 20
    assert audit.house_issued == 8 * 1000 + 12 * 5 + 4 * 100 + 12 * 10


# --- what the books refuse ----------------------------------------------------------------------


async def test_a_cash_out_beyond_the_tables_account_is_refused_and_nothing_is_written(
        database, store):
    await save(store, "t1", [100, 100], ChipChange(ALICE, -100, "buy-in"),
               ChipChange(BOB, -100, "buy-in"))
    before = await dump(database)
    with pytest.raises(ChipAuditError, match="holds 200 chips and this step would take 250"):
        await save(store, "t1", [0], ChipChange(ALICE, 250, "cash-out"))
    with pytest.raises(ChipAuditError):  # the house cannot be paid what the table lacks
        await save(store, "t1", [0], ChipChange(None, 201, "cash-out"))
    with pytest.raises(ChipAuditError):
        await store.apply_chip_changes(G, [ChipChange(CAROL, 201, "cash-out")], table_id="t1")
    assert await dump(database) == before
    # A member short of chips is still told so first, by the member's own error.
    with pytest.raises(InsufficientChipsError):
        await save(store, "t1", [0], ChipChange(ALICE, -5000, "buy-in"))
    assert await dump(database) == before
    await assert_audit_ok(store)


async def test_a_table_cannot_end_with_chips_in_its_account(database, store):
    await save(store, "t1", [100, 100], ChipChange(ALICE, -100, "buy-in"),
               ChipChange(None, -100, "buy-in"))
    before = await dump(database)
    with pytest.raises(ChipAuditError, match="Table t1 would end with 100 chips"):
        await store.finish_table("t1", ended(seat(0, ALICE), seat(1, None)),
                                 chip_changes=[ChipChange(ALICE, 100, "cash-out")])
    with pytest.raises(ChipAuditError, match="would end with 200 chips"):
        await store.delete_snapshot("t1")  # a lobby closed without giving the buy-ins back
    with pytest.raises(ChipAuditError, match="would end with 100 chips"):
        await store.delete_snapshot("t1", guild_id=G,
                                    chip_changes=[ChipChange(None, 100, "cash-out")])
    assert await dump(database) == before
    assert await store.delete_snapshot("t1", guild_id=G, chip_changes=[
        ChipChange(ALICE, 100, "cash-out"), ChipChange(None, 100, "cash-out")]) is True
    assert await store.balance(G, ALICE) == 1000
    await assert_audit_ok(store)
    # A table that moved no chips ends as before.
    await save(store, "t2", [])
    assert (await store.finish_table("t2", ended(seat(0, ALICE), seat(1, BOB)))).game_id


async def test_the_database_itself_refuses_a_negative_member_or_table_balance(database, store):
    await save(store, "t1", [50], ChipChange(ALICE, -50, "buy-in"))
    stamp = T0.isoformat()
    for statement in [
        ("UPDATE chip_balances SET balance = -1 WHERE user_id = ?", (ALICE,)),
        ("INSERT INTO chip_balances (guild_id, user_id, balance, created_at, updated_at)"
         " VALUES (?, ?, -5, ?, ?)", (G, BOB, stamp, stamp)),
        ("UPDATE chip_accounts SET balance = balance - 51 WHERE account = ?",
         (table_account("t1"),)),
        ("INSERT INTO chip_accounts (guild_id, account, balance, created_at, updated_at)"
         " VALUES (?, ?, -1, ?, ?)", (G, table_account("t2"), stamp, stamp)),
        ("INSERT INTO chip_accounts (guild_id, account, balance, created_at, updated_at)"
         " VALUES (?, 'bank', 0, ?, ?)", (G, stamp, stamp)),  # no such kind of account
    ]:
        with pytest.raises(REFUSED):
            await execute(database, statement)
    # The house may be negative: its negative is the chips it issued.
    await execute(database, ("UPDATE chip_accounts SET balance = -5 WHERE account = ?",
                             (HOUSE,)))


# --- the audit ----------------------------------------------------------------------------------


async def test_the_audit_finds_what_does_not_add_up(database, store):
    await save(store, "t1", [100], ChipChange(ALICE, -100, "buy-in"))
    await save(store, "t2", [30], ChipChange(BOB, -30, "buy-in"), channel=CH + 1)
    await store.balance(G + 1, CAROL)  # another server, whose books stay right
    await assert_audit_ok(store, None)
    await execute(
        database,
        ("UPDATE chip_balances SET balance = balance + 7 WHERE user_id = ?", (ALICE,)),
        ("UPDATE chip_accounts SET balance = balance - 10 WHERE account = ?",
         (table_account("t1"),)),
        "DELETE FROM table_snapshots WHERE table_id = 't2'",  # t2 vanished with 30 chips
    )
    audit = await store.chip_audit(G)
    assert not audit.ok
    assert audit.mismatches == (AccountMismatch(G, "user:1", 907, 900),
                                AccountMismatch(G, "table:t1", 90, 100))
    assert audit.unbalanced_guilds == (G,)  # issued 2000; members 1877, tables 120
    assert audit.tables == (TableChips(G, "t1", 90, 100),)
    assert not audit.tables[0].balanced
    assert audit.closed_with_chips == (TableChips(G, "t2", 30, None),)
    assert (await store.chip_audit(G + 1)).ok
    assert not (await store.chip_audit()).ok

    text = await Bank(store).audit(G)
    assert "something does not add up" in text
    assert "<@1>: 907 chips stored, but its ledger adds up to 900." in text
    assert "Table `t1` holds 90 chips in its account, but its seats hold 100." in text
    assert "Table `t2` has ended, but its account still holds 30 chips." in text
    with i18n.using("sv"):
        swedish = await Bank(store).audit(G)
    assert swedish != text and "907" in swedish


async def test_the_audit_in_words_when_the_books_balance(store):
    await save(store, "t1", [100, 100], ChipChange(ALICE, -100, "buy-in"),
               ChipChange(None, -100, "buy-in"))
    text = await Bank(store).audit(G)
    assert text.splitlines() == [
        "**Chip audit**: every account adds up to its ledger, and the house has issued "
        "exactly what members and tables hold.",
        "Members hold **900** chips and open tables **200**; the house has issued **1100**.",
        "1 open table holds exactly what its seats hold.",
    ]


# --- tables set aside at restore ----------------------------------------------------------------


async def test_a_table_set_aside_is_refunded_from_its_ledger_once(database, store):
    await save(store, "t1", [100, 300, 200], ChipChange(ALICE, -100, "buy-in"),
               ChipChange(BOB, -300, "buy-in"), ChipChange(None, -200, "buy-in"))
    await save(store, "t1", [100, 300, 200, 100], ChipChange(CAROL, -100, "buy-in"))
    await save(store, "t1", [0, 300, 200, 0], ChipChange(CAROL, 200, "cash-out"))  # Carol won
    # Whatever the snapshot says (it may be what could not be loaded), the ledger decides.
    assert await store.set_aside_snapshot("t1", "unknown snapshot version 99") is True
    assert [await store.balance(G, u) for u in (ALICE, BOB, CAROL)] == [1000, 1000, 1100]
    assert await store.table_balance(G, "t1") == 0
    assert (await legs(database, table_account("t1")))[-3:] == [
        (f"user:{BOB}", -300, REASON_REFUND), (f"user:{ALICE}", -100, REASON_REFUND),
        ("house", -100, REASON_REFUND),  # what is left: the house's AI seat's
    ]
    await assert_audit_ok(store)
    before = await dump(database)
    assert await store.set_aside_snapshot("t1", "again") is False  # nothing is paid twice
    assert await dump(database) == before
    assert [b.table_id for b in await store.broken_snapshots()] == ["t1"]


async def test_a_set_aside_refunds_the_largest_payments_first_as_far_as_the_account_goes(
        store):
    await save(store, "t1", [100, 50, 100], ChipChange(ALICE, -100, "buy-in"),
               ChipChange(BOB, -50, "buy-in"), ChipChange(None, -100, "buy-in"))
    # The AI seat won 140 and took its 240 back to the house: 10 chips are left.
    await save(store, "t1", [10, 0], ChipChange(None, 240, "cash-out"))
    assert await store.table_balance(G, "t1") == 10
    assert await store.set_aside_snapshot("t1", "a second table in its channel") is True
    assert [await store.balance(G, u) for u in (ALICE, BOB)] == [910, 950]
    await assert_audit_ok(store)


async def test_unreadable_snapshots_are_set_aside_with_their_refunds(database, store):
    await save(store, "bad", [100], ChipChange(ALICE, -100, "buy-in"))
    await save(store, "good", [40], ChipChange(BOB, -40, "buy-in"), channel=CH + 1)
    await execute(database, "UPDATE table_snapshots SET snapshot = '[1, 2]'"
                            " WHERE table_id = 'bad'")
    assert [row.table_id for row in await store.load_snapshots()] == ["good"]
    assert await store.balance(G, ALICE) == 1000
    assert await store.table_balance(G, "good") == 40
    await assert_audit_ok(store)


# --- a database from before table accounts ------------------------------------------------------


async def test_a_database_migrated_from_the_old_ledger_passes_the_audit(database, tmp_path):
    """Up to migration 0004 a table's moves were the members' rows only, and AI seats'
    chips were nobody's: the migration gives the house and every table an account from the
    ledger, settles closed tables with the house, and marks open ones for reconciliation."""
    old = tmp_path / "migrations"
    old.mkdir()
    for path in sorted(MIGRATIONS_DIR.glob("000[1-4]_*.sql")):
        shutil.copy(path, old)
    early = await Store.open(database, migrations_dir=old)
    assert early.schema_version == 4
    await early.close()
    stamp = T0.isoformat()
    rows = [  # (user, delta, balance_after, reason, table)
        (ALICE, 1000, 1000, "opening balance", None),
        (BOB, 1000, 1000, "opening balance", None),
        (BOB, 100, 1100, "daily claim", None),
        (ALICE, 25, 1025, "admin grant", None),
        # "old": finished; Alice lost 40 to an AI seat, whose chips then vanished.
        (ALICE, -100, 925, "buy-in", "old"),
        (ALICE, 60, 985, "cash-out", "old"),
        # "won": finished; Bob won 70 from an AI seat: chips out of nowhere.
        (BOB, -100, 1000, "buy-in", "won"),
        (BOB, 170, 1170, "cash-out", "won"),
        # "open": still playing, Alice with 100 and an AI seat with 100 (unrecorded).
        (ALICE, -100, 885, "buy-in", "open"),
        # "ahead": still playing; Bob bought 50, won 30 from an AI and left with 80.
        (BOB, -50, 1120, "buy-in", "ahead"),
        (BOB, 80, 1200, "cash-out", "ahead"),
    ]
    statements: list[str | tuple[str, tuple[Any, ...]]] = [
        ("INSERT INTO chip_balances (guild_id, user_id, balance, created_at, updated_at)"
         " VALUES (?, ?, ?, ?, ?)", (G, user, balance, stamp, stamp))
        for user, balance in ((ALICE, 885), (BOB, 1200))
    ]
    statements += [
        ("INSERT INTO chip_ledger (guild_id, user_id, delta, balance_after, reason, table_id,"
         " created_at) VALUES (?, ?, ?, ?, ?, ?, ?)", (G, *row, stamp)) for row in rows
    ]
    statements += [
        ("INSERT INTO table_snapshots (table_id, guild_id, channel_id, kind, version, snapshot,"
         " created_at, updated_at) VALUES (?, ?, ?, 'badugi', 1, ?, ?, ?)",
         (table, G, channel, snapshot, stamp, stamp))
        for table, channel, snapshot in (("open", CH, '{"stacks":[100,100]}'),
                                         ("ahead", CH + 1, '{"stacks":[70]}'),
                                         ("words", CH + 2, '{"seats":[]}'))
    ]
    await execute(database, *statements)

    store = await Store.open(database, clock=FakeClock())
    try:
        assert store.schema_version >= 5
        audit = await store.chip_audit(G)
        assert audit.ok, audit
        assert audit.tables == (TableChips(G, "ahead", 0, 70, legacy=True),
                                TableChips(G, "open", 100, 200, legacy=True),
                                TableChips(G, "words", 0, None, legacy=True))
        # Issued: 2125 to members by the house, 70 won from AI seats, 30 "ahead" won, less
        # the 40 the AI seat won at "old": what members (2085) and tables (100) hold.
        assert (audit.members_total, audit.tables_total, audit.house_issued) == (2085, 100, 2185)
        assert await legs(database, table_account("old")) == [
            ("user:1", 100, "buy-in"), ("user:1", -60, "cash-out"),
            ("house", -40, "legacy settlement")]
        assert "settled with the house when they are restored" in await Bank(store).audit(G)

        # At restore the service reconciles each table with what its seats hold, once.
        assert await store.reconcile_table_account("open", G, 200) == 100
        assert await store.reconcile_table_account("ahead", G, 70) == 70
        assert await store.reconcile_table_account("words", G, 0) == 0
        assert await store.reconcile_table_account("open", G, 999) == 0  # no longer legacy
        audit = await store.chip_audit(G)
        assert audit.ok and not any(table.legacy for table in audit.tables)
        assert [(t.account, t.stacks) for t in audit.tables] == [(70, 70), (200, 200),
                                                                  (0, None)]
        # The reconciled table now ends like any other.
        await store.finish_table("open", ended(seat(0, ALICE), seat(1, None)), chip_changes=[
            ChipChange(ALICE, 100, "cash-out"), ChipChange(None, 100, "cash-out")])
        await assert_audit_ok(store)
        assert await store.balance(G, ALICE) == 985
    finally:
        await store.close()


async def test_reconciling_is_only_for_accounts_the_migration_opened(store):
    await save(store, "t1", [100, 100], ChipChange(ALICE, -100, "buy-in"))
    assert await store.reconcile_table_account("t1", G, 200) == 0  # a bug is not papered over
    assert await store.reconcile_table_account("nowhere", G, 50) == 0
    assert not (await store.chip_audit(G)).ok
    with pytest.raises(ValueError):
        await store.reconcile_table_account("t1", G, -1)
