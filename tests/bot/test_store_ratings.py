"""Ratings in the store: written in the transaction that records the game, so a game is
never counted without its rating nor rated without being recorded, even when the process
dies between the two; only finished games with someone to be rated against are rated.

"Nothing changed" is a dump of every table through a separate plain sqlite3 connection,
which, like a restarted bot, sees only what was committed.
"""

from __future__ import annotations

import asyncio
import sqlite3
import subprocess
import sys
import textwrap
from collections.abc import AsyncIterator
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest

from bot.store import ChipChange, GameRecord, PlayerResult, Store
from bot.store.ratings import Ratings

ROOT = Path(__file__).resolve().parents[2]
G, CH = 111, 222


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "ratings.sqlite3"


@pytest.fixture
async def store(db_path: Path) -> AsyncIterator[Store]:
    opened = await Store.open(db_path)
    yield opened
    await opened.close()


def dump(path: Path) -> dict[str, list[tuple[Any, ...]]]:
    with closing(sqlite3.connect(path)) as db:
        names = [r[0] for r in db.execute(
            "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")]
        return {name: sorted(db.execute(f"SELECT * FROM {name}"), key=repr) for name in names}


def game(*seats: tuple[int | None, int], status: str = "finished",
         kind: str = "poangpoker") -> GameRecord:
    """A game of (user id or None for the AI, place) per seat."""
    return GameRecord(
        guild_id=G, channel_id=CH, kind=kind, started_at=1_000.0, finished_at=2_000.0,
        status=status, players=[
            PlayerResult(seat, user, None if user else f"AI {seat}", 0,
                         place if status == "finished" else None, place == 1)
            for seat, (user, place) in enumerate(seats)
        ])


def ratings_rows(path: Path) -> list[tuple[Any, ...]]:
    with closing(sqlite3.connect(path)) as db:
        return db.execute("SELECT entity, games, last_game_id FROM ratings"
                          " ORDER BY entity").fetchall()


async def test_a_game_and_its_ratings_are_written_together(store: Store,
                                                           db_path: Path) -> None:
    await store.save_snapshot("t1", G, CH, "poangpoker", {"step": 1})
    result = await store.finish_table("t1", game((1, 1), (None, 2), (2, 3)))
    assert ratings_rows(db_path) == [("ai:standard", 1, result.game_id),
                                     ("user:1", 1, result.game_id),
                                     ("user:2", 1, result.game_id)]
    with closing(sqlite3.connect(db_path)) as db:
        changed = db.execute("SELECT game_id, entity FROM rating_changes ORDER BY entity")
        assert [row[1] for row in changed if row[0] == result.game_id] == [
            "ai:standard", "user:1", "user:2"]


async def test_a_failure_while_rating_leaves_no_trace_of_the_game(
        store: Store, db_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    await store.save_snapshot("t1", G, CH, "poangpoker", {"step": 1})
    await store.balance(G, 1)
    before = dump(db_path)
    original = Ratings._rate_game

    async def crash_after_rating(self: Ratings, *args: Any) -> None:
        await original(self, *args)  # the game, its results and its ratings are written...
        raise RuntimeError("power cut")  # ...and then the process "dies"

    monkeypatch.setattr(Ratings, "_rate_game", crash_after_rating)
    with pytest.raises(RuntimeError, match="power cut"):
        await store.finish_table("t1", game((1, 1), (None, 2)),
                                 chip_changes=[ChipChange(1, 7, "cash-out")],
                                 messages=[{"kind": "test"}])
    assert dump(db_path) == before  # no game, no rating, no chips, no message; the table stays
    monkeypatch.undo()
    await store.finish_table("t1", game((1, 1), (None, 2)))
    assert [row[0] for row in ratings_rows(db_path)] == ["ai:standard", "user:1"]


async def test_a_process_killed_between_result_and_rating_keeps_neither(
        store: Store, db_path: Path) -> None:
    """kill -9 after the game's rows and its first rating are written, before the commit."""
    await store.save_snapshot("t1", G, CH, "poangpoker", {"step": 1})
    await store.finish_table("t0", game((1, 1), (2, 2)))
    await store.close()
    before = dump(db_path)
    script = textwrap.dedent(f"""
        import asyncio, os, sys
        sys.path.insert(0, {str(ROOT)!r})
        from bot.store import GameRecord, PlayerResult, Store
        import bot.store.ratings as ratings

        async def main():
            store = await Store.open({str(db_path)!r})
            original = ratings.rate
            def rate_then_die(*args, **kwargs):
                ratings.rate = original
                os._exit(17)  # the game and its results are written, the ratings not yet
            ratings.rate = rate_then_die
            record = GameRecord(guild_id={G}, channel_id={CH}, kind="poangpoker",
                started_at=1000.0, finished_at=2000.0,
                players=[PlayerResult(0, 1, "Ann", 9, 1, True),
                         PlayerResult(1, 2, "Bo", 3, 2, False)])
            await store.finish_table("t1", record)

        asyncio.run(main())
    """)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 17, done.stderr
    assert dump(db_path) == before  # neither the game nor any rating of it
    reopened = await Store.open(db_path)
    assert [r.snapshot for r in await reopened.load_snapshots()] == [{"step": 1}]
    assert (await reopened.player_ratings(G, 1))["poangpoker"].games == 1  # t0's only
    await reopened.close()


async def test_only_finished_games_with_an_opponent_are_rated(store: Store,
                                                              db_path: Path) -> None:
    await store.finish_table("aborted", game((1, 1), (2, 2), status="aborted"))
    await store.finish_table("solo", game((1, 1)))  # a solitaire: nobody to rate against
    await store.finish_table("ai-only", game((None, 1), (None, 2)))  # one AI level only
    assert ratings_rows(db_path) == []
    await store.record_game(game((1, 2), (2, 1)))  # record_game rates too
    assert [row[:2] for row in ratings_rows(db_path)] == [("user:1", 1), ("user:2", 1)]


async def test_games_ending_at_once_rate_one_after_the_other(store: Store,
                                                             db_path: Path) -> None:
    """Two tables against the same AI level finish together: both games move its rating."""
    await asyncio.gather(
        store.finish_table("a", game((1, 1), (None, 2))),
        store.finish_table("b", game((2, 2), (None, 1))),
    )
    rows = {row[0]: row[1] for row in ratings_rows(db_path)}
    assert rows == {"ai:standard": 2, "user:1": 1, "user:2": 1}
    with closing(sqlite3.connect(db_path)) as db:
        chain = db.execute("SELECT mu_before, mu_after FROM rating_changes"
                           " WHERE entity = 'ai:standard' ORDER BY game_id").fetchall()
    assert chain[1][0] == chain[0][1]  # the second game started from the first's result
