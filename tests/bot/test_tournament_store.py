"""The tournaments' rows, on SQLite and PostgreSQL: a table's result is written with its
game (and only a tournament's table's), a save over a version it did not read changes
nothing, messages wait until marked sent, and the board counts events won and best places."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.store import (
    GameRecord,
    GameStatus,
    PlayerResult,
    Store,
    TournamentConflictError,
    TournamentPlace,
    TournamentTable,
)

T0 = datetime(2026, 12, 1, 20, 0, tzinfo=UTC)
G, CH, THREAD = 111, 222, 333


class Clock:
    def __init__(self) -> None:
        self.now = T0

    def __call__(self) -> datetime:
        self.now += timedelta(seconds=1)
        return self.now


@pytest.fixture
async def store(database: Path | str) -> AsyncIterator[Store]:
    opened = await Store.open(database, clock=Clock())
    yield opened
    await opened.close()


def game(places: list[int | None], status: GameStatus = GameStatus.FINISHED) -> GameRecord:
    return GameRecord(
        guild_id=G, channel_id=THREAD, kind="sppoker", started_at=T0, status=status,
        players=[PlayerResult(seat=seat, user_id=None if seat else 1, name=f"P{seat}",
                              place=place, win=place == 1)
                 for seat, place in enumerate(places)])


async def new_tournament(store: Store) -> int:
    return await store.create_tournament(G, CH, "sppoker", 1, {"status": "signup"},
                                         {"start": None}, messages=[{"kind": "signup"}])


async def test_a_tournament_tables_result_is_written_with_its_game(store: Store) -> None:
    tid = await new_tournament(store)
    heard: list[int] = []
    store.on_tournament_result(heard.append)
    version = await store.save_tournament(
        tid, 1, {"status": "running"}, {},
        new_tables=[TournamentTable("t1", tid, 1, 1, THREAD),
                    TournamentTable("t2", tid, 1, 2, THREAD + 1)])
    assert version == 2
    result = await store.finish_table("t1", game([2, 1]))
    aborted = await store.finish_table("t2", game([None, None], GameStatus.ABORTED))
    await store.finish_table("plain", game([1, 2]))  # an ordinary table: nothing of it here
    tables = {t.table_id: t for t in await store.tournament_tables(tid)}
    assert tables["t1"].result == "finished" and tables["t1"].places == (2, 1)
    assert tables["t1"].game_id == result.game_id and not tables["t1"].applied
    assert tables["t2"].result == "aborted" and tables["t2"].places is None
    assert tables["t2"].game_id == aborted.game_id
    assert set(tables) == {"t1", "t2"}
    assert heard == [tid, tid]  # only after the tournament's tables' writes


async def test_a_save_over_a_version_not_read_changes_nothing(store: Store) -> None:
    tid = await new_tournament(store)
    await store.save_tournament(tid, 1, {"status": "running"}, {"n": 1})
    with pytest.raises(TournamentConflictError):
        await store.save_tournament(tid, 1, {"status": "over"}, {"n": 2},
                                    messages=[{"kind": "late"}],
                                    new_tables=[TournamentTable("t9", tid, 1, 1, THREAD)])
    row = await store.tournament(tid)
    assert row is not None
    assert (row.version, row.status, row.extra) == (2, "running", {"n": 1})
    assert await store.tournament_tables(tid) == []
    assert [m.body for m in await store.unsent_tournament_messages(tid)] == [{"kind": "signup"}]


async def test_applied_results_and_messages_are_marked(store: Store) -> None:
    tid = await new_tournament(store)
    await store.save_tournament(tid, 1, {"status": "running"}, {},
                                new_tables=[TournamentTable("t1", tid, 1, 1, THREAD)])
    await store.finish_table("t1", game([1, 2]))
    await store.save_tournament(tid, 2, {"status": "running"}, {}, applied=["t1"],
                                messages=[{"kind": "result"}])
    [table] = await store.tournament_tables(tid)
    assert table.applied
    first, second = await store.unsent_tournament_messages(tid)
    assert second.body == {"kind": "result"}
    await store.mark_tournament_message_sent(first.id)
    assert [m.id for m in await store.unsent_tournament_messages(tid)] == [second.id]


async def test_live_tournaments_include_the_over_with_messages_to_post(store: Store) -> None:
    done = await new_tournament(store)
    live = await new_tournament(store)
    await store.save_tournament(done, 1, {"status": "over"}, {})
    assert [t.id for t in await store.live_tournaments()] == [done, live]
    for message in await store.unsent_tournament_messages(done):
        await store.mark_tournament_message_sent(message.id)
    assert [t.id for t in await store.live_tournaments()] == [live]
    assert [t.id for t in await store.tournaments_in(G, CH)] == [live]
    assert [t.id for t in await store.tournaments_in(G, CH, live=False)] == [live, done]


async def test_the_board_counts_events_won_and_best_places(store: Store) -> None:
    await store.upsert_player(1, "Ann")
    await store.upsert_player(2, "Bo")
    for places in ([(1, 1), (2, 2)], [(2, 1), (1, 3)], [(1, 1), (2, 3)]):
        tid = await new_tournament(store)
        await store.save_tournament(tid, 1, {"status": "over"}, {}, places=[
            TournamentPlace(str(user), user, f"u{user}", place, 3.0 - place)
            for user, place in places] + [TournamentPlace("ai", None, "AI 1", 2, 1.0)])
    board = await store.tournament_board(G)
    assert [(r.name, r.events, r.won, r.best) for r in board] == [("Ann", 3, 2, 1),
                                                                   ("Bo", 3, 1, 1)]
    assert await store.tournament_board(G, "poke") == []
    assert await store.tournament_board(G + 1) == []
    final = await store.tournament_places(tid)
    assert [(p.player, p.place) for p in final] == [("1", 1), ("ai", 2), ("2", 3)]
