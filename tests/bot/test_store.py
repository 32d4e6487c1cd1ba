"""The store: migrations, snapshots, all-or-nothing writes, chips that always add up, stats.

Every test runs on both backends (`database`: a SQLite file under tmp_path, a new database on
the session's PostgreSQL server) with a fake clock, so nothing depends on the time of day or
on another test. "Nothing changed" is checked by comparing a dump of every table before and
after, read through a separate connection (which, like a restarted bot, only sees what was
committed).
"""

from __future__ import annotations

import asyncio
import doctest
import itertools
import subprocess
import sys
import textwrap
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.store import (
    REASON_DAILY,
    REASON_OPENING,
    ChipChange,
    GameRecord,
    GameStatus,
    InsufficientChipsError,
    LoggedAction,
    MigrationError,
    PlayerResult,
    SchemaTooNewError,
    SnapshotConflictError,
    Store,
    StoreError,
)
from bot.store.drivers.postgres import numbered, postgres_ddl
from bot.store.migrations import MIGRATIONS_DIR, discover_migrations, split_statements
from tests.support.rawdb import dump, execute, fetch, fetch_one, is_postgres, table_names

ROOT = Path(__file__).resolve().parents[2]
T0 = datetime(2024, 5, 1, 12, 0, tzinfo=UTC)
G, CH = 111, 222  # a guild and a channel


class FakeClock:
    def __init__(self, start: datetime = T0) -> None:
        self.now = start

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **delta: float) -> datetime:
        self.now += timedelta(**delta)
        return self.now


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def db(database: Path | str) -> Path | str:
    return database


@pytest.fixture
async def store(db: Path | str, clock: FakeClock):
    store = await Store.open(db, clock=clock)
    yield store
    await store.close()


# --- helpers ----------------------------------------------------------------------------------


async def assert_books_balance(db: Path | str) -> None:
    """The chip invariant: each balance equals its ledger sum and its last running balance."""
    rows = await fetch(
        db,
        "SELECT b.balance, coalesce(sum(l.delta), 0), count(l.id),"
        " (SELECT balance_after FROM chip_ledger x WHERE x.guild_id = b.guild_id"
        "  AND x.user_id = b.user_id ORDER BY x.id DESC LIMIT 1)"
        " FROM chip_balances b LEFT JOIN chip_ledger l"
        " ON l.guild_id = b.guild_id AND l.user_id = b.user_id"
        " GROUP BY b.guild_id, b.user_id, b.balance",
    )
    for balance, total, lines, last in rows:
        assert balance >= 0
        assert balance == total
        assert last == (balance if lines else None)


def record(
    *players: PlayerResult,
    kind: str = "spew",
    status: GameStatus = GameStatus.FINISHED,
    guild: int = G,
    started: datetime = T0 - timedelta(minutes=30),
    finished: datetime | None = None,
) -> GameRecord:
    return GameRecord(
        guild_id=guild,
        channel_id=CH,
        kind=kind,
        started_at=started,
        finished_at=finished,
        players=players,
        status=status,
        options={"ante": 5},
        seed=42,
    )


def human(seat: int, user: int, score: int | None = None, win: bool = False) -> PlayerResult:
    return PlayerResult(seat=seat, user_id=user, name=f"P{user}", score=score, win=win)


def ai(seat: int, score: int | None = None, win: bool = False) -> PlayerResult:
    return PlayerResult(seat=seat, user_id=None, name=f"Robot {seat}", score=score, win=win)


# --- opening and migrations -------------------------------------------------------------------


async def test_open_creates_the_folder_and_configures_the_connection(db, store):
    assert store.schema_version == len(discover_migrations()) >= 1
    assert store.dialect == ("postgresql" if is_postgres(db) else "sqlite")
    assert set(await table_names(db)) >= {"chip_balances", "games", "outbox", "schema_version"}
    if is_postgres(db):
        return  # the server's own configuration
    assert db.exists()
    async with store._read() as conn:
        for pragma, expected in [("journal_mode", "wal"), ("foreign_keys", 1)]:
            assert (await conn.fetch_all(f"PRAGMA {pragma}"))[0][0] == expected
        assert (await conn.fetch_all("PRAGMA busy_timeout"))[0][0] > 0


async def test_migrations_are_applied_once_and_reopening_is_idempotent(db, clock):
    store = await Store.open(db, clock=clock)
    await store.upsert_player(1, "Ann")
    await store.close()
    first = await dump(db)
    assert [row[:2] for row in first["schema_version"]] == [
        (m.version, m.name) for m in discover_migrations()
    ]
    clock.advance(days=1)
    for _ in range(2):
        store = await Store.open(db, clock=clock)
        assert store.schema_version == len(first["schema_version"])
        await store.close()
    assert await dump(db) == first  # same versions, same applied_at, data kept


async def test_a_database_from_newer_code_is_refused(db, clock):
    await (await Store.open(db, clock=clock)).close()
    await execute(db, "INSERT INTO schema_version VALUES (99, 'future', '2099-01-01')")
    with pytest.raises(SchemaTooNewError) as caught:
        await Store.open(db, clock=clock)
    message = str(caught.value)
    assert "99" in message and str(db) in message and "upgrade" in message
    assert caught.value.found == 99 and caught.value.known == len(discover_migrations())
    # The refusal touched nothing: the database is still usable by the newer code.
    assert await fetch_one(db, "SELECT max(version) FROM schema_version") == (99,)


async def test_a_failing_migration_leaves_the_previous_version(tmp_path, db, clock):
    migrations = tmp_path / "migrations"
    migrations.mkdir()
    for source in MIGRATIONS_DIR.glob("*.sql"):
        (migrations / source.name).write_text(source.read_text())
    latest = len(discover_migrations())
    bad = migrations / f"{latest + 1:04d}_extra.sql"
    bad.write_text("CREATE TABLE extra (x INTEGER);\nINSERT INTO no_such_table VALUES (1);\n")
    with pytest.raises(MigrationError, match=f"left at schema version {latest}"):
        await Store.open(db, clock=clock, migrations_dir=migrations)
    assert await fetch_one(db, "SELECT max(version) FROM schema_version") == (latest,)
    assert "extra" not in await table_names(db)
    bad.write_text("CREATE TABLE extra (x INTEGER); -- fixed; now it works\n")
    store = await Store.open(db, clock=clock, migrations_dir=migrations)
    assert store.schema_version == latest + 1
    await store.close()


def test_migration_files_must_be_numbered_in_order(tmp_path):
    (tmp_path / "0001_a.sql").write_text("CREATE TABLE a (x);")
    (tmp_path / "0003_c.sql").write_text("CREATE TABLE c (x);")
    with pytest.raises(MigrationError, match="without gaps"):
        discover_migrations(tmp_path)
    (tmp_path / "0003_c.sql").rename(tmp_path / "002_b.sql")
    with pytest.raises(MigrationError, match=r"002_b\.sql is not named"):
        discover_migrations(tmp_path)


def test_statements_are_split_where_sqlite_says_they_end():
    sql = """
        -- a comment; with a semicolon
        CREATE TABLE t (x TEXT DEFAULT 'a;b');
        CREATE TRIGGER tr AFTER INSERT ON t BEGIN
            UPDATE t SET x = 'c;d';
        END;
        /* trailing comment */
    """
    parts = split_statements(sql)
    assert len(parts) == 2
    assert parts[1].startswith("CREATE TRIGGER") and parts[1].endswith("END;")
    with pytest.raises(MigrationError, match="incomplete"):
        split_statements("CREATE TABLE t (x);\nCREATE TABLE u (y)")


async def test_an_unreachable_postgresql_is_refused_clearly(tmp_path):
    url = f"postgresql://bot:s3cret@/dealers?host={tmp_path}&port=1"
    with pytest.raises(StoreError, match=r"Cannot connect to the PostgreSQL database "
                                         r"postgresql://bot:\*\*\*@/dealers") as caught:
        await Store.open(url)
    assert "s3cret" not in str(caught.value)


def test_postgresql_gets_the_migrations_in_its_dialect():
    assert numbered("SELECT ? WHERE 'a?' = ? /* ? */") == "SELECT $1 WHERE 'a?' = $2 /* ? */"
    assert numbered("SELECT 'it''s ?', ?") == "SELECT 'it''s ?', $1"
    assert postgres_ddl(
        "CREATE TABLE o (id INTEGER PRIMARY KEY AUTOINCREMENT, r REAL, g integer NOT NULL)"
    ) == ("CREATE TABLE o (id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,"
          " r DOUBLE PRECISION, g BIGINT NOT NULL)")
    assert postgres_ddl("CREATE TABLE k (a TEXT, PRIMARY KEY (a)\n) WITHOUT ROWID") == (
        "CREATE TABLE k (a TEXT, PRIMARY KEY (a)\n)"
    )


async def test_a_file_that_is_not_a_database_is_refused_clearly(tmp_path):
    path = tmp_path / "notes.sqlite3"
    path.write_bytes(b"these are my notes, not a database" * 100)
    with pytest.raises(StoreError, match=r"Cannot use .*notes\.sqlite3 as the bot's database"):
        await Store.open(path)


# --- guild settings and players ---------------------------------------------------------------


async def test_guild_settings_are_json_values_per_guild(store):
    assert await store.get_guild_setting(G, "daily", default=100) == 100
    await store.set_guild_setting(G, "daily", 250)
    await store.set_guild_setting(G, "games", {"spew": {"ante": 10}, "off": ["poke"]})
    await store.set_guild_setting(G + 1, "daily", 5)
    await store.set_guild_setting(G, "daily", 300)
    assert await store.get_guild_setting(G, "daily") == 300
    assert await store.guild_settings(G) == {
        "daily": 300,
        "games": {"spew": {"ante": 10}, "off": ["poke"]},
    }
    assert await store.delete_guild_setting(G, "daily") is True
    assert await store.delete_guild_setting(G, "daily") is False
    assert await store.get_guild_setting(G, "daily") is None
    assert await store.get_guild_setting(G + 1, "daily") == 5
    with pytest.raises(ValueError, match="not JSON-safe"):
        await store.set_guild_setting(G, "bad", {1, 2})


async def test_upsert_player_keeps_first_seen_and_follows_renames(store, clock):
    await store.upsert_player(7, "Ann")
    clock.advance(hours=5)
    await store.upsert_player(7, "Annie")
    player = await store.player(7)
    assert player is not None
    assert (player.display_name, player.first_seen, player.last_seen) == ("Annie", T0, clock.now)
    assert await store.player(8) is None


# --- snapshots --------------------------------------------------------------------------------


async def test_snapshot_round_trip_survives_a_restart(db, store, clock):
    snapshot = {"deck": ["Ah", "Td"], "rng": [3, [1, 2, 3], None], "seats": {"0": "Ann"}}
    first = await store.save_snapshot("t1", G, CH, "spew", snapshot)
    clock.advance(seconds=10)
    second = await store.save_snapshot("t1", G, CH, "spew", {**snapshot, "turn": 1})
    assert (first.version, second.version) == (1, 2)
    await store.save_snapshot("t2", G, CH + 1, "poke", {"n": 2})
    await store.close()

    reopened = await Store.open(db, clock=clock)
    rows = await reopened.load_snapshots()
    await reopened.close()
    assert [r.table_id for r in rows] == ["t1", "t2"]
    t1 = rows[0]
    assert (t1.guild_id, t1.channel_id, t1.kind, t1.version) == (G, CH, "spew", 2)
    assert t1.snapshot == {**snapshot, "turn": 1}
    assert (t1.created_at, t1.updated_at) == (T0, T0 + timedelta(seconds=10))


async def test_a_table_id_cannot_be_taken_over_by_another_channel(db, store):
    await store.save_snapshot("t1", G, CH, "spew", {"a": 1})
    before = await dump(db)
    with pytest.raises(SnapshotConflictError):
        await store.save_snapshot("t1", G, CH + 1, "spew", {"a": 2})
    assert await dump(db) == before


async def test_unsafe_snapshots_are_refused_before_writing(db, store):
    before = await dump(db)
    with pytest.raises(ValueError, match="not JSON-safe"):
        await store.save_snapshot("t1", G, CH, "spew", {"x": float("nan")})
    with pytest.raises(ValueError, match="not JSON-safe"):
        await store.save_snapshot("t1", G, CH, "spew", {"x": object()})
    assert await dump(db) == before


async def test_delete_snapshot(store):
    await store.save_snapshot("t1", G, CH, "spew", {})
    assert await store.delete_snapshot("t1") is True
    assert await store.delete_snapshot("t1") is False
    assert await store.load_snapshots() == []


async def test_corrupt_snapshot_rows_are_set_aside_on_load(db, store, clock):
    await store.save_snapshot("good", G, CH, "spew", {"ok": True})
    # What a disk fault or an old bug might leave behind, past the json_valid() check.
    unchecked = ("ALTER TABLE table_snapshots DROP CONSTRAINT table_snapshots_snapshot_check"
                 if is_postgres(db) else "PRAGMA ignore_check_constraints = ON")
    insert = "INSERT INTO table_snapshots VALUES (?, ?, ?, 'spew', 3, ?, ?, ?)"
    await execute(
        db,
        unchecked,
        (insert, ("garbled", G, CH + 1, '{"deck": [1, 2', T0.isoformat(), T0.isoformat())),
        (insert, ("a-list", G, CH + 2, "[1, 2]", T0.isoformat(), T0.isoformat())),
    )
    clock.advance(minutes=1)

    rows = await store.load_snapshots()
    assert [r.table_id for r in rows] == ["good"]
    broken = {b.table_id: b for b in await store.broken_snapshots()}
    assert set(broken) == {"garbled", "a-list"}
    garbled = broken["garbled"]
    assert garbled.snapshot == '{"deck": [1, 2'  # kept exactly as found
    assert (garbled.channel_id, garbled.version) == (CH + 1, 3)
    assert "unreadable snapshot" in garbled.error and garbled.set_aside_at == clock.now
    assert "JSON object" in broken["a-list"].error
    assert [r.table_id for r in await store.load_snapshots()] == ["good"]  # and stays fixed


async def test_set_aside_snapshot_never_raises(store):
    await store.save_snapshot("t1", G, CH, "spew", {"version": 99})
    assert await store.set_aside_snapshot("t1", "unknown snapshot version 99") is True
    assert await store.load_snapshots() == []
    [broken] = await store.broken_snapshots()
    assert (broken.table_id, broken.error) == ("t1", "unknown snapshot version 99")
    assert await store.set_aside_snapshot("t1", "again") is False  # already moved
    assert await store.set_aside_snapshot("nope", "missing") is False
    await store.close()
    assert await store.set_aside_snapshot("t1", "closed store") is False


# --- all-or-nothing writes --------------------------------------------------------------------


async def test_snapshot_chips_and_results_are_written_together(db, store, clock):
    await store.save_snapshot(
        "t1",
        G,
        CH,
        "spew",
        {"pot": 10},
        chip_changes=[ChipChange(1, -5, "ante"), ChipChange(2, -5, "ante")],
    )
    assert (await store.load_snapshots())[0].version == 1
    assert [await store.balance(G, u) for u in (1, 2)] == [995, 995]

    clock.advance(minutes=5)
    game = record(human(0, 1, score=10, win=True), human(1, 2, score=-5), ai(2))
    saved = await store.save_snapshot(
        "t1",
        G,
        CH,
        "spew",
        {"ignored": True},
        chip_changes=[ChipChange(1, 10, "pot")],
        results=game,
    )
    assert saved.version is None and saved.game_id is not None
    assert saved.balances == {1: 1005}
    assert await store.load_snapshots() == []
    (status, table_id, finished, seed) = await fetch_one(
        db, "SELECT status, table_id, finished_at, seed FROM games WHERE id = ?",
        (saved.game_id,),
    )
    ledger = await fetch(
        db,
        "SELECT user_id, delta, reason, table_id, game_id FROM chip_ledger"
        " WHERE reason != ? ORDER BY id",
        (REASON_OPENING,),
    )
    finished_at = clock.now.isoformat(timespec="microseconds")
    assert (status, table_id, finished, seed) == ("finished", "t1", finished_at, "42")
    assert ledger == [
        (1, -5, "ante", "t1", None),
        (2, -5, "ante", "t1", None),
        (1, 10, "pot", "t1", saved.game_id),
    ]
    assert (await store.player_stats(G, 1))["spew"].won == 1
    await assert_books_balance(db)


async def test_a_refused_chip_change_leaves_everything_as_it_was(db, store):
    await store.save_snapshot("t1", G, CH, "spew", {"step": 1})
    await store.apply_chip_changes(G, [ChipChange(1, -990, "buy-in")])
    before = await dump(db)
    with pytest.raises(InsufficientChipsError) as caught:
        await store.save_snapshot(
            "t1",
            G,
            CH,
            "spew",
            {"step": 2},
            chip_changes=[ChipChange(3, 50, "pot"), ChipChange(1, -20, "bet")],
        )
    error = caught.value
    assert (error.user_id, error.balance, error.delta) == (1, 10, -20)
    assert str(error) == "Not enough chips: user 1 has 10 and this needs 20."
    # Not the snapshot, not user 3's credit, not even user 3's new account.
    assert await dump(db) == before
    with pytest.raises(InsufficientChipsError):
        await store.finish_table(
            "t1", record(human(0, 1, win=True)), chip_changes=[ChipChange(1, -11, "rake")]
        )
    assert await dump(db) == before


async def test_a_crash_inside_the_transaction_changes_nothing(db, store, monkeypatch):
    await store.save_snapshot("t1", G, CH, "spew", {"step": 1})
    await store.balance(G, 1)
    before = await dump(db)
    original = Store._apply_changes

    async def crash_after_writing(self, *args, **kwargs):
        await original(self, *args, **kwargs)  # snapshot/game and ledger rows are written...
        raise RuntimeError("power cut")  # ...and then the process "dies"

    monkeypatch.setattr(Store, "_apply_changes", crash_after_writing)
    with pytest.raises(RuntimeError, match="power cut"):
        await store.save_snapshot(
            "t1", G, CH, "spew", {"step": 2}, chip_changes=[ChipChange(1, -7, "buy-in")]
        )
    with pytest.raises(RuntimeError, match="power cut"):
        await store.finish_table(
            "t1", record(human(0, 1, win=True)), chip_changes=[ChipChange(1, -7, "buy-in")]
        )
    with pytest.raises(RuntimeError, match="power cut"):
        await store.apply_chip_changes(G, [ChipChange(2, 7, "gift")])
    assert await dump(db) == before
    monkeypatch.undo()
    # The connection is healthy afterwards: the next transaction goes through.
    assert (await store.save_snapshot("t1", G, CH, "spew", {"step": 2})).version == 2


async def test_a_cancelled_write_is_rolled_back_and_the_store_goes_on(db, store, monkeypatch):
    await store.save_snapshot("t1", G, CH, "spew", {"step": 1})
    before = await dump(db)
    original = Store._apply_changes
    written = asyncio.Event()

    async def hang_after_writing(self, *args, **kwargs):
        result = await original(self, *args, **kwargs)
        written.set()
        await asyncio.Event().wait()  # e.g. the table task is cancelled at shutdown
        return result

    monkeypatch.setattr(Store, "_apply_changes", hang_after_writing)
    task = asyncio.create_task(
        store.save_snapshot(
            "t1", G, CH, "spew", {"step": 2}, chip_changes=[ChipChange(1, -5, "buy-in")]
        )
    )
    await written.wait()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    monkeypatch.undo()
    assert await dump(db) == before
    assert (await store.save_snapshot("t1", G, CH, "spew", {"step": 2})).version == 2
    for attempt in range(20):  # cancelled at every point of its first few awaits
        task = asyncio.create_task(store.apply_chip_changes(G, [ChipChange(1, 1, "tip")]))
        for _ in range(attempt):
            await asyncio.sleep(0)
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
    assert await store.apply_chip_changes(G, [ChipChange(1, 1, "tip")])
    await assert_books_balance(db)


async def test_a_killed_process_leaves_no_half_change(db, clock):
    store = await Store.open(db, clock=clock)
    await store.save_snapshot("t1", G, CH, "spew", {"step": 1})
    await store.balance(G, 1)
    await store.close()
    before = await dump(db)
    script = textwrap.dedent(
        f"""
        import asyncio, os, sys
        from datetime import UTC, datetime
        sys.path.insert(0, {str(ROOT)!r})
        from bot.store import ChipChange, GameRecord, PlayerResult, Store

        async def main():
            store = await Store.open({str(db)!r})
            original = Store._apply_changes
            async def die(self, *args, **kwargs):
                await original(self, *args, **kwargs)
                os._exit(17)
            Store._apply_changes = die
            game = GameRecord(guild_id={G}, channel_id={CH}, kind="spew",
                started_at=datetime(2024, 1, 1, tzinfo=UTC),
                players=[PlayerResult(0, 1, "Ann", win=True)])
            await store.finish_table("t1", game, chip_changes=[ChipChange(1, -50, "buy-in")])

        asyncio.run(main())
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 17, done.stderr
    if not is_postgres(db):
        assert await fetch(db, "PRAGMA integrity_check") == [("ok",)]
    assert await dump(db) == before
    reopened = await Store.open(db, clock=clock)
    assert [r.snapshot for r in await reopened.load_snapshots()] == [{"step": 1}]
    await reopened.close()


async def test_concurrent_coroutines_never_interleave_transactions(db, store, monkeypatch):
    """SQLite: one transaction at a time. PostgreSQL: side by side (a connection each), and
    still no lost update: every one of them moves account 99."""
    active: list[int] = []
    overlaps: list[tuple[int, ...]] = []
    original = Store._apply_changes

    async def watched(self, conn, guild_id, changes, **kwargs):
        active.append(id(changes))
        if len(active) > 1:
            overlaps.append(tuple(active))
        await asyncio.sleep(0)  # give every other coroutine the chance to barge in
        try:
            return await original(self, conn, guild_id, changes, **kwargs)
        finally:
            active.remove(id(changes))

    monkeypatch.setattr(Store, "_apply_changes", watched)

    async def player(user: int) -> None:
        for step in range(10):
            await store.save_snapshot(
                f"t{user}",
                G,
                CH + user,
                "spew",
                {"step": step},
                chip_changes=[ChipChange(user, -1, "ante"), ChipChange(99, 1, "ante")],
            )
            await store.apply_chip_changes(G, [ChipChange(user, 1, "refund")])

    await asyncio.gather(*(player(user) for user in range(1, 9)), store.balance(G, 50))
    if not is_postgres(db):
        assert overlaps == []
    assert await store.balance(G, 99) == 1000 + 80
    assert [await store.balance(G, u) for u in range(1, 9)] == [1000] * 8
    assert {r.version for r in await store.load_snapshots()} == {10}
    await assert_books_balance(db)


# --- chips ------------------------------------------------------------------------------------


async def test_balance_opens_an_account_once_with_a_ledger_line(db, store):
    assert await store.balance(G, 1) == 1000
    assert await store.balance(G, 1, starting=5) == 1000  # already open
    assert await store.balance(G, 2, starting=250) == 250
    assert await store.balance(G, 3, starting=0) == 0
    assert await store.balance(G + 1, 1) == 1000  # chips are per server
    [entry] = await store.ledger(G, 1)
    assert (entry.delta, entry.balance_after, entry.reason) == (1000, 1000, REASON_OPENING)
    assert await store.ledger(G, 3) == []
    await assert_books_balance(db)


async def test_chips_never_go_negative(db, store):
    balances = await store.apply_chip_changes(
        G, [ChipChange(1, -600, "buy-in"), ChipChange(2, 300, "win"), ChipChange(1, 0, "even")]
    )
    assert balances == {1: 400, 2: 1300}
    before = await dump(db)
    # A later credit does not excuse passing through a negative balance.
    with pytest.raises(InsufficientChipsError):
        await store.apply_chip_changes(G, [ChipChange(1, -500, "bet"), ChipChange(1, 500, "win")])
    with pytest.raises(InsufficientChipsError):
        await store.apply_chip_changes(G, [ChipChange(5, -1001, "bet")])  # a new account
    assert await dump(db) == before
    assert await store.apply_chip_changes(G, [ChipChange(1, -400, "all in")]) == {1: 0}
    await assert_books_balance(db)


async def test_the_ledger_records_every_change_with_its_context(store, clock):
    await store.apply_chip_changes(G, [ChipChange(1, -5, "ante")], table_id="t9")
    await store.apply_chip_changes(G, [ChipChange(None, -20, "buy-in")], table_id="t9")  # an AI
    clock.advance(seconds=1)
    await store.apply_chip_changes(G, [ChipChange(1, 25, "pot")], table_id="t9")
    entries = await store.ledger(G, 1)
    assert [(e.delta, e.balance_after, e.reason, e.table_id) for e in entries] == [
        (25, 1020, "pot", "t9"),
        (-5, 995, "ante", "t9"),
        (1000, 1000, REASON_OPENING, None),
    ]
    assert entries[0].created_at == clock.now
    assert [e.delta for e in await store.ledger(G, 1, limit=1, offset=1)] == [-5]


def test_chip_changes_validate_themselves():
    with pytest.raises(ValueError, match="reason"):
        ChipChange(1, 5, "  ")
    with pytest.raises(TypeError, match="delta must be an int"):
        ChipChange(1, 2.5, "pot")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="user_id must be an int"):
        ChipChange(True, 5, "pot")


async def test_daily_claim_once_per_utc_day(db, store):
    late = datetime(2024, 5, 1, 23, 59, tzinfo=UTC)
    first = await store.claim_daily(G, 1, 100, late)
    assert (first.claimed, first.amount, first.balance) == (True, 100, 1100)
    assert first.next_claim_at == datetime(2024, 5, 2, tzinfo=UTC)
    # 01:30 in UTC+2 is still 23:30 on 1 May in UTC: the same day.
    east = timezone(timedelta(hours=2))
    again = await store.claim_daily(G, 1, 100, datetime(2024, 5, 2, 1, 30, tzinfo=east))
    assert (again.claimed, again.amount, again.balance) == (False, 0, 1100)
    assert again.next_claim_at == first.next_claim_at
    assert (await store.claim_daily(G + 1, 1, 100, late)).claimed  # another server
    nxt = await store.claim_daily(G, 1, 100, datetime(2024, 5, 2, 0, 0, tzinfo=UTC))
    assert (nxt.claimed, nxt.balance) == (True, 1200)
    assert [e.reason for e in await store.ledger(G, 1)].count(REASON_DAILY) == 2
    await assert_books_balance(db)


async def test_daily_claim_uses_the_injected_clock(store, clock):
    assert (await store.claim_daily(G, 1, 50)).claimed
    clock.advance(hours=11, minutes=59)
    assert not (await store.claim_daily(G, 1, 50)).claimed
    clock.advance(minutes=1)
    assert (await store.claim_daily(G, 1, 50)).balance == 1100


async def test_chip_leaderboard(store):
    await store.upsert_player(2, "Bo")
    await store.apply_chip_changes(
        G, [ChipChange(1, 5, "pot"), ChipChange(2, 50, "pot"), ChipChange(3, 5, "pot")]
    )
    rows = await store.chip_leaderboard(G)
    assert [(r.rank, r.user_id, r.display_name, r.balance) for r in rows] == [
        (1, 2, "Bo", 1050),
        (2, 1, None, 1005),
        (3, 3, None, 1005),
    ]
    assert [r.user_id for r in await store.chip_leaderboard(G, limit=1, offset=2)] == [3]


_guilds = itertools.count(10_000)


@settings(
    max_examples=40,
    deadline=None,
    # One database for all examples; each example gets a fresh guild, so nothing leaks.
    # (Listing checks replaces the suite's profile's list: too_slow stays off, as there.)
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    batches=st.lists(
        st.lists(
            st.tuples(st.sampled_from([1, 2, 3]), st.integers(min_value=-1600, max_value=1600)),
            min_size=1,
            max_size=4,
        ),
        min_size=1,
        max_size=12,
    )
)
async def test_any_sequence_of_chip_changes_keeps_the_books(store, batches):
    guild = next(_guilds)
    model: dict[int, int] = {}  # the accounts that should exist, with their balances
    for batch in batches:
        trial = dict(model)
        for user, delta in batch:
            if delta:
                trial[user] = trial.get(user, store.starting_chips) + delta
                if trial[user] < 0:
                    break
        changes = [ChipChange(user, delta, "bet") for user, delta in batch]
        if all(balance >= 0 for balance in trial.values()):
            await store.apply_chip_changes(guild, changes)
            model = trial
        else:
            with pytest.raises(InsufficientChipsError):
                await store.apply_chip_changes(guild, changes)
    async with store._read() as conn:
        rows = await conn.fetch_all(
            "SELECT b.user_id, b.balance, (SELECT coalesce(sum(delta), 0) FROM chip_ledger l"
            " WHERE l.guild_id = b.guild_id AND l.user_id = b.user_id)"
            " FROM chip_balances b WHERE b.guild_id = ?",
            (guild,),
        )
    assert {user: balance for user, balance, _ in rows} == model
    for _, balance, ledger_sum in rows:
        assert balance == ledger_sum >= 0


# --- games and stats --------------------------------------------------------------------------


def test_game_records_validate_themselves():
    with pytest.raises(ValueError, match="place"):
        PlayerResult(seat=0, user_id=1, place=0)
    with pytest.raises(ValueError, match="needs a name"):
        PlayerResult(seat=0, user_id=None)
    with pytest.raises(ValueError, match="only once"):
        record(human(0, 1), human(0, 2))
    with pytest.raises(ValueError, match="one seat"):
        record(human(0, 1), human(1, 1))
    with pytest.raises(ValueError, match="before it started"):
        record(human(0, 1), started=T0, finished=T0 - timedelta(seconds=1))
    with pytest.raises(ValueError, match="timezone-aware"):
        record(human(0, 1), started=datetime(2024, 1, 1))
    # POSIX seconds (a table manager's time.time()) are accepted and made UTC datetimes.
    game = GameRecord(G, CH, "spew", started_at=T0.timestamp(), players=[human(0, 1)])
    assert game.started_at == T0
    assert GameRecord(G, CH, "spew", T0, [], status="aborted").status is GameStatus.ABORTED


async def test_record_game_keeps_ai_seats_and_big_seeds(db, store):
    game = GameRecord(
        guild_id=G,
        channel_id=CH,
        kind="poke",
        started_at=T0 - timedelta(hours=1),
        players=[human(0, 1, score=3, win=True), ai(1, score=2)],
        seed=2**64 + 5,
    )
    game_id = await store.record_game(game, table_id="t1")
    assert await fetch_one(db, "SELECT seed, finished_at FROM games") == (
        str(2**64 + 5),
        T0.isoformat(timespec="microseconds"),
    )
    assert await fetch(
        db,
        "SELECT seat, user_id, seat_label, score, win FROM game_results WHERE game_id = ?"
        " ORDER BY seat",
        (game_id,),
    ) == [(0, 1, "P1", 3, 1), (1, None, "Robot 1", 2, 0)]


async def test_aborted_games_never_count(db, store):
    await store.record_game(record(human(0, 1, score=5, win=True), human(1, 2)))
    await store.record_game(
        record(human(0, 1, score=99, win=True), human(1, 2), status=GameStatus.ABORTED)
    )
    await store.record_game(record(human(0, 3, score=50, win=True), status=GameStatus.ABORTED))
    assert await fetch(
        db, "SELECT status, count(*) FROM games GROUP BY status ORDER BY status"
    ) == [("aborted", 2), ("finished", 1)]
    board = await store.leaderboard(G, "spew")
    assert [(r.user_id, r.games, r.wins, r.points) for r in board] == [(1, 1, 1, 5), (2, 1, 0, 0)]
    assert (await store.player_stats(G, 1))["spew"].best_score == 5
    assert await store.player_stats(G, 3) == {}
    assert await store.leaderboard_size(G) == 2


async def _season(store: Store, clock: FakeClock) -> None:
    """Four players with distinct records, plus noise that must not count."""
    games = [
        # (kind, [(user, score, win)])
        ("spew", [(1, 10, True), (2, 5, False), (3, 1, False)]),
        ("spew", [(1, 8, True), (2, 9, False)]),
        ("spew", [(2, 30, True), (3, 2, False)]),
        ("spew", [(3, 3, True), (4, 100, False)]),
        ("spew", [(3, 1, False), (1, 1, False)]),
        ("poke", [(4, 7, True), (1, 2, False)]),
    ]
    for kind, seats in games:
        clock.advance(minutes=10)
        players = [human(i, u, score=s, win=w) for i, (u, s, w) in enumerate(seats)]
        players.append(ai(len(players), score=500, win=True))  # AI seats never rank
        await store.record_game(record(*players, kind=kind))
    await store.record_game(record(human(0, 4, score=1000, win=True), guild=G + 1))
    for user in (1, 2, 3, 4):
        await store.upsert_player(user, f"Player {user}")


async def test_leaderboard_orderings(store, clock):
    await _season(store, clock)

    async def board(order_by: str, kind: str | None = "spew") -> list[tuple]:
        rows = await store.leaderboard(G, kind, order_by)
        return [(r.user_id, r.games, r.wins, r.points) for r in rows]

    # spew: user 1: 3 games 2 wins 19 pts; 2: 3/1/44; 3: 4/1/7; 4: 1/0/100
    assert await board("wins") == [(1, 3, 2, 19), (2, 3, 1, 44), (3, 4, 1, 7), (4, 1, 0, 100)]
    assert await board("games") == [(3, 4, 1, 7), (1, 3, 2, 19), (2, 3, 1, 44), (4, 1, 0, 100)]
    assert await board("points") == [(4, 1, 0, 100), (2, 3, 1, 44), (1, 3, 2, 19), (3, 4, 1, 7)]
    assert await board("win_rate") == [
        (1, 3, 2, 19),
        (2, 3, 1, 44),
        (3, 4, 1, 7),
        (4, 1, 0, 100),
    ]
    # All kinds together: user 4 adds a poke win, user 1 a poke game. Points of different
    # games do not add up, so the all-games board has none, nor a points order.
    assert (await board("wins", None))[:2] == [(1, 4, 2, None), (4, 2, 1, None)]
    with pytest.raises(ValueError, match="points of different games do not compare"):
        await store.leaderboard(G, None, "points")
    rows = await store.leaderboard(G, "spew", "win_rate")
    assert rows[0].win_rate == pytest.approx(2 / 3)
    assert rows[0].display_name == "Player 1"
    with pytest.raises(ValueError, match="order_by"):
        await store.leaderboard(G, "spew", "luck")  # type: ignore[arg-type]


async def test_leaderboard_pages_are_stable_and_ranked(store, clock):
    await _season(store, clock)
    full = await store.leaderboard(G, "spew", "points", limit=10)
    pages = [await store.leaderboard(G, "spew", "points", limit=3, offset=o) for o in (0, 3, 6)]
    assert [r.user_id for page in pages for r in page] == [r.user_id for r in full]
    assert [r.rank for page in pages for r in page] == [1, 2, 3, 4]
    assert pages[2] == []
    assert await store.leaderboard_size(G, "spew") == 4
    assert await store.leaderboard_size(G, "spew", min_games=3) == 3
    assert [r.user_id for r in await store.leaderboard(G, "spew", "win_rate", min_games=3)] == [
        1,
        2,
        3,
    ]
    assert await store.leaderboard(G + 2) == []


async def test_player_stats_per_kind(store, clock):
    await _season(store, clock)
    stats = await store.player_stats(G, 1)
    assert list(stats) == ["poke", "spew"]
    spew = stats["spew"]
    assert (spew.played, spew.won, spew.best_score) == (3, 2, 10)
    assert spew.last_played == T0 + timedelta(minutes=50)
    assert stats["poke"].last_played == T0 + timedelta(minutes=60)
    other_guild = await store.player_stats(G + 1, 4)
    assert (other_guild["spew"].played, other_guild["spew"].best_score) == (1, 1000)


def test_docstring_examples_hold():
    # bot/ is outside pytest's doctest paths; the examples are documentation, so keep them true.
    import bot.store.drivers
    import bot.store.drivers.postgres
    import bot.store.migrations
    import bot.store.rows

    for module in (bot.store.rows, bot.store.migrations, bot.store.drivers,
                   bot.store.drivers.postgres):
        assert doctest.testmod(module).failed == 0


# --- shards -----------------------------------------------------------------------------------


async def test_a_shard_lease_has_one_holder_until_it_expires(store, clock):
    assert (await store.take_lease(0, 2, "a", ttl=10)).owner == "a"
    assert (await store.take_lease(0, 2, "b", ttl=10)).owner == "a"  # held
    assert (await store.take_lease(1, 2, "b", ttl=10)).owner == "b"  # the other shard
    clock.advance(seconds=5)
    renewed = await store.take_lease(0, 2, "a", ttl=10)
    assert (renewed.acquired_at, renewed.expires_at) == (T0, clock.now + timedelta(seconds=10))
    clock.advance(seconds=11)  # a's process died: its lease ran out
    taken = await store.take_lease(0, 2, "b", ttl=10)
    assert (taken.owner, taken.acquired_at) == ("b", clock.now)
    assert (await store.take_lease(0, 2, "c", ttl=10, dead_owner="x")).owner == "b"
    assert (await store.take_lease(0, 2, "c", ttl=10, dead_owner="b")).owner == "c"
    assert await store.release_leases("c") == 1
    assert [(lease.shard_id, lease.owner) for lease in await store.leases()] == [(1, "b")]
    with pytest.raises(ValueError, match="not one of 2 shards"):
        await store.take_lease(2, 2, "a", ttl=10)


async def test_pending_messages_are_found_by_their_tables_guild(store):
    await store.save_snapshot("t1", G, CH, "spew", {}, messages=[{"a": 1}])
    await store.save_snapshot("t2", G + 1, CH + 1, "spew", {})
    await store.enqueue("t2", [{"b": 2}])  # the guild of its snapshot
    await store.save_snapshot("t3", G + 2, CH + 2, "spew", {})
    await store.delete_snapshot("t3", messages=[{"c": 3}])  # of the snapshot it deletes
    assert await store.tables_with_pending_messages() == ["t1", "t2", "t3"]
    assert await store.tables_with_pending_messages(lambda guild: guild != G + 1) == ["t1", "t3"]


async def test_a_step_saves_its_snapshot_messages_and_actions_together(db, store, clock):
    """PostgreSQL writes a step without chips in one statement; SQLite in a transaction."""
    first = [{"n": 1}, {"n": 2}, {"n": 3}]
    actions = [LoggedAction(1, 0, ["pick", 3], "2026-01-01T00:00:00Z"),
               LoggedAction(2, 1, ["pass"], "2026-01-01T00:00:01Z")]
    saved = await store.save_snapshot("t1", G, CH, "spew", {"step": 2}, messages=first,
                                      actions=actions)
    assert saved.version == 1
    again = await store.save_snapshot("t1", G, CH, "spew", {"step": 3}, messages=[{"n": 4}],
                                      actions=[actions[1], LoggedAction(3, 0, ["x"], "t")])
    assert again.version == 2
    assert [m.body for m in await store.pending_messages("t1")] == [*first, {"n": 4}]
    logged = await store.table_actions("t1")
    assert [(a.step, a.seat, a.action) for a in logged] == [
        (1, 0, ["pick", 3]), (2, 1, ["pass"]), (3, 0, ["x"])]  # a step logged once
    before = await dump(db)
    with pytest.raises(SnapshotConflictError):  # another channel's id: nothing at all written
        await store.save_snapshot("t1", G, CH + 1, "spew", {"step": 4}, messages=[{"n": 5}],
                                  actions=[LoggedAction(4, 0, ["y"], "t")])
    assert await dump(db) == before
    rows = await store.load_snapshots()
    assert [(r.table_id, r.version, r.snapshot) for r in rows] == [("t1", 2, {"step": 3})]


async def test_a_background_view_caps_its_own_work_and_leaves_the_store_open(db, store):
    """The sender's share of the database (`Store.background`): at most `limit` of its blocks
    at a time, whatever the database allows, so clicks still find a connection."""
    background = store.background(2)
    running, most = 0, 0

    async def read() -> None:
        nonlocal running, most
        async with background._read() as conn:
            running += 1
            most = max(most, running)
            await conn.fetch_one("SELECT 1")
            await asyncio.sleep(0.02)
            running -= 1

    await asyncio.gather(*(read() for _ in range(6)))
    assert most == (1 if not is_postgres(db) else 2)  # SQLite: one connection, one at a time
    await store.save_snapshot("t1", G, CH, "spew", {"step": 1})
    await background.enqueue("t1", [{"n": 1}])  # its writes are the store's
    await background.close()
    assert [m.body for m in await store.pending_messages("t1")] == [{"n": 1}]
