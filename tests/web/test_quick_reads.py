"""The web's quick reads (issue 25's player page target): a person's page and a server's state
read on the event loop's own thread on SQLite (`bot.store.drivers.read_only.InlineReads`)
answer as the readers' pool does, see a newly finished game at once, fall back to the pool
when SQLite is busy, and end with the store; on PostgreSQL the web's sessions keep generic
plans and stay read-only."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from bot.store import GameRecord, PlayerResult, Store, StoreError
from bot.store.drivers.read_only import InlineReads, SqliteReaders
from bot.store.rows import GameStatus
from tests.support.web_site import ALICE, BOB, CAROL, CHANNEL, GUILD, OTHER, record


async def test_quick_reads_answer_as_the_pool_and_see_a_new_game_at_once(
        database: Path | str) -> None:
    writer = await Store.open(database)
    reader = await Store.open_read_only(database)
    try:
        for user, name in ((ALICE, "Alice"), (BOB, "Bob"), (CAROL, "Carol")):
            await writer.upsert_player(user, name)
        await writer.set_guild_setting(GUILD, "web", "public")
        await record(writer, GUILD, "poke", [(ALICE, 7), (BOB, 1)])
        await record(writer, OTHER, "poke", [(CAROL, 7), (ALICE, 1)])
        page = await reader.player_page(GUILD, ALICE, 10)
        assert page.name == "Alice" and page.records["poke"].played == 1
        assert [seat.user_id for game in page.recent for seat in game.seats] == [ALICE, BOB]
        assert page.records == await reader.player_records(GUILD, ALICE)  # the pool's read
        settings, latest = await reader.guild_page_state(GUILD)
        assert settings["web"] == "public" and latest == await reader.latest_game(GUILD)

        await record(writer, GUILD, "poke", [(BOB, 9), (ALICE, 2)], minutes=5)
        again = await reader.player_page(GUILD, ALICE, 10)
        assert again.records["poke"].played == 2 and len(again.recent) == 2
        assert again.recent[0].seats[0].user_id == BOB  # the newest first
        assert (await reader.guild_page_state(GUILD))[1] > latest
        history = await reader.rating_history(GUILD, ALICE)
        assert [point.game_id for point in history] == [game.game_id
                                                        for game in reversed(again.recent)]
    finally:
        await reader.close()
        await writer.close()
    with pytest.raises(StoreError):
        await reader.player_page(GUILD, ALICE, 10)


async def test_a_page_of_aborted_games_only_has_the_name_and_the_games(
        database: Path | str) -> None:
    writer = await Store.open(database)
    reader = await Store.open_read_only(database)
    try:
        await writer.upsert_player(ALICE, "Alice")
        await writer.upsert_player(BOB, "Bob")
        at = datetime(2026, 11, 1, 12, 0, tzinfo=UTC)
        await writer.record_game(GameRecord(
            guild_id=GUILD, channel_id=CHANNEL, kind="poke", started_at=at, finished_at=at,
            status=GameStatus.ABORTED,
            players=[PlayerResult(0, ALICE, score=None, place=None, win=False),
                     PlayerResult(1, BOB, score=None, place=None, win=False)]))
        page = await reader.player_page(GUILD, ALICE, 10)
        assert page.name == "Alice" and page.records == {} and page.ratings == {}
        assert [(game.status, [seat.name for seat in game.seats])
                for game in page.recent] == [("aborted", ["Alice", "Bob"])]
        assert (await reader.player_page(GUILD, 424242, 10)).name is None  # nobody
    finally:
        await reader.close()
        await writer.close()


class Busy:
    """A SQLite connection that is always busy (a writer's crash being recovered)."""

    def __init__(self) -> None:
        self.asked = 0

    def execute(self, sql: str, params: Any = ()) -> Any:
        self.asked += 1
        raise sqlite3.OperationalError("database is locked")


@pytest.mark.parametrize("backend", ["sqlite"])
async def test_a_busy_quick_read_is_read_again_on_the_pool(database: Path | str) -> None:
    writer = await Store.open(database)
    reader = await Store.open_read_only(database)
    try:
        await writer.set_guild_setting(GUILD, "web", "public")
        pool = reader._db
        assert isinstance(pool, SqliteReaders)
        busy = Busy()
        inline = InlineReads(busy, pool)  # type: ignore[arg-type]  # a stand-in connection
        rows = await inline.fetch_all(
            "SELECT value FROM guild_settings WHERE guild_id = ?", (GUILD,))
        assert busy.asked == 1 and [row["value"] for row in rows] == ['"public"']
        with pytest.raises(StoreError):
            await inline.execute("DELETE FROM guild_settings")
    finally:
        await reader.close()
        await writer.close()


@pytest.mark.parametrize("backend", ["postgresql"])
async def test_the_webs_postgresql_sessions_keep_generic_plans_and_cannot_write(
        database: Path | str) -> None:
    await (await Store.open(database)).close()
    reader = await Store.open_read_only(database)
    try:
        async with reader._read() as conn:
            rows = await conn.fetch_all(
                "SELECT current_setting('plan_cache_mode') AS plans,"
                " current_setting('default_transaction_read_only') AS read_only")
        assert (rows[0]["plans"], rows[0]["read_only"]) == ("force_generic_plan", "on")
        # the connection that listens for page changes (web.page_states) is read-only too
        assert await reader.watch_page_changes(lambda guild: None)
        listener = reader._db._listener  # type: ignore[attr-defined]
        assert await listener.fetchval("SHOW default_transaction_read_only") == "on"
    finally:
        await reader.close()
