"""Restoring tables at start-up: a snapshot that cannot load is set aside, never fatal."""

from __future__ import annotations

from pathlib import Path

from bot.core.service import TableService
from bot.core.table import Table
from bot.store import Store


async def test_good_snapshots_come_back_and_corrupt_ones_are_set_aside(tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "db.sqlite3")
    good = Table("aa11", 1, 100, "sppoker", 7)
    good.join(7, "Alice")
    good.join(8, "Bob")
    good.seed = 42
    good.start(7)
    await store.save_snapshot(good.table_id, 1, 100, "sppoker", good.to_dict())
    await store.save_snapshot("bb22", 1, 101, "sppoker", {"version": 1, "kind": "sppoker"})
    await store.save_snapshot("cc33", 1, 102, "nosuchgame", good.to_dict() | {"kind": "x"})

    manager = TableService(store)
    await manager.restore()

    assert list(manager.tables) == ["aa11"]
    restored = manager.tables["aa11"]
    assert restored.to_dict() == good.to_dict()
    broken = {row.table_id for row in await store.broken_snapshots()}
    assert broken == {"bb22", "cc33"}
    assert [row.table_id for row in await store.load_snapshots()] == ["aa11"]
    await store.close()
