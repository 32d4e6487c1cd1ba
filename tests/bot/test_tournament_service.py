"""The tournament service in process, over a real store and table service, with a stand-in
for Discord's places (threads, posts, the scheduled event).

The tables are real (opened in their threads, seated, started); their games are not played
here: a table ends as a played one does, through the store's `finish_table` with its game's
record, whose places the test chooses. So the worked nine-player Swiss of docs/tournaments.md
runs with its results, and its pairings, byes, tiebreaks and final standings are checked
against the hand computation there; round 2's last result is recorded while the service is
"down" (a new service over the same store takes it in, as after a kill -9)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.core.service import TableService
from bot.core.table import TableError
from bot.core.tournament_time import parse_start
from bot.core.tournaments import TournamentService
from bot.present.tournament_pictures import BracketMatch, StandingRow, bracket_png, standings_png
from bot.store import GameRecord, PlayerResult, Store
from engine.tournaments import Format
from tests.support.tournament_world import (
    CH,
    KIND,
    NAMES,
    ORGANISER,
    USERS,
    G,
    Places,
    World,
    byes_of,
    down,
    finish,
    settle,
    signed_up,
    tables_of,
    up,
)

pytestmark = pytest.mark.usefixtures("game_renderers")

@pytest.fixture
async def world(tmp_path: Path) -> AsyncIterator[World]:
    made = await up(tmp_path / "db.sqlite3", Places())
    yield made
    await down(made)


async def test_the_worked_nine_player_swiss_with_a_restart_in_round_2(tmp_path: Path) -> None:
    places = Places()
    world = await up(tmp_path / "db.sqlite3", places)
    tid = await signed_up(world, NAMES, rounds=3)
    await world.service.signup(tid, ORGANISER, "Org", "start")
    await settle(world.service)
    # Round 1 by rating, slide: 1 v 5, 2 v 6, 3 v 7, 4 v 8; Ida's bye. Each table open in
    # its own thread, the channel shown the pairings.
    assert tables_of(world, tid) == [("Ann", "Eva"), ("Bo", "Finn"), ("Cy", "Gus"),
                                     ("Dan", "Hal")]
    assert byes_of(world, tid) == ["Ida"]
    assert len(places.threads) == 4 and all(ch == CH for ch, _ in places.threads)
    assert "**Round 1**" in places.posts[-1][1] and "<#5001>" in places.posts[-1][1]
    await finish(world, tid, "Ann", "Ann", "Eva")
    await finish(world, tid, "Finn", "Bo", "Finn")
    await finish(world, tid, None, "Cy", "Gus")
    await finish(world, tid, "Dan", "Dan", "Hal")
    assert places.posts[-1][1].startswith("Round 2 starts")
    assert places.posts[-2][2] == ["standings.png"]
    assert world.service.live[tid].extra.next_at is not None
    await world.service.organise(G, CH, ORGANISER, "next")
    await settle(world.service)
    assert tables_of(world, tid) == [("Ann", "Dan"), ("Finn", "Ida"), ("Cy", "Bo"),
                                     ("Gus", "Eva")]
    assert byes_of(world, tid) == ["Hal"]
    await finish(world, tid, "Ann", "Ann", "Dan")
    await finish(world, tid, "Finn", "Finn", "Ida")
    await finish(world, tid, "Cy", "Cy", "Bo")
    # The service goes down; the last table of round 2 ends while it is down (its game and
    # its result written together), and a new one takes it in.
    await down(world)
    store = await Store.open(tmp_path / "db.sqlite3")
    [row] = [r for r in await store.tournament_tables(tid) if r.round == 2 and r.result is None]
    snapshot = next(s for s in await store.load_snapshots() if s.table_id == row.table_id)
    assert snapshot.channel_id == row.thread_id  # the table was saved in its thread
    gus, eva = str(USERS["Gus"]), str(USERS["Eva"])
    await store.finish_table(row.table_id, GameRecord(
        guild_id=G, channel_id=row.thread_id, kind=KIND,
        started_at=datetime.now(UTC) - timedelta(minutes=1),
        players=[PlayerResult(0, int(gus), "Gus", place=1), PlayerResult(1, int(eva), "Eva",
                                                                         place=1)]))
    await store.close()
    world = await up(tmp_path / "db.sqlite3", places)
    await world.service.resume()
    await settle(world.service)
    assert world.service.live[tid].t.current_round.finished  # type: ignore[union-attr]
    await world.service.organise(G, CH, ORGANISER, "next")
    await settle(world.service)
    assert tables_of(world, tid) == [("Ann", "Finn"), ("Cy", "Dan"), ("Gus", "Hal"),
                                     ("Ida", "Eva")]
    assert byes_of(world, tid) == ["Bo"]
    await finish(world, tid, "Finn", "Ann", "Finn")
    await finish(world, tid, "Dan", "Cy", "Dan")
    await finish(world, tid, None, "Gus", "Hal")
    await finish(world, tid, "Eva", "Ida", "Eva")
    live = world.service.live[tid]
    assert live.t.status == "over"
    names = {str(uid): name for name, uid in USERS.items()}
    final = [(s.place, names[s.player], s.score, s.buchholz) for s in live.t.standings()]
    assert final == [(1, "Finn", 3, 4), (2, "Ann", 2, 6.5), (3, "Dan", 2, 5),
                     (4, "Gus", 1.5, 4.5), (5, "Cy", 1.5, 4.5), (6, "Eva", 1.5, 4.5),
                     (7, "Hal", 1.5, 3.5), (8, "Bo", 1, 4.5), (9, "Ida", 1, 4.5)]
    # The closing note: the podium, then the final standings' picture; the places stored.
    podium, standings = places.posts[-2], places.posts[-1]
    assert "🥇 Finn (3)" in podium[1] and "🥈 Ann (2)" in podium[1] and "🥉 Dan (2)" in podium[1]
    assert standings[2] == ["standings.png"] and standings[1].startswith("Final standings")
    board = await world.store.tournament_board(G)
    assert (board[0].user_id, board[0].won, board[0].best) == (USERS["Finn"], 1, 1)
    # Each round's tables were opened once: 4 + 4 + 4 threads, no table twice.
    assert len(places.threads) == 12
    assert len({r.table_id for r in await world.store.tournament_tables(tid)}) == 12
    await down(world)


async def test_the_organisers_steps_are_refused_to_others_changing_nothing(
        world: World) -> None:
    tid = await signed_up(world, ["Ann", "Bo", "Cy"])
    before = world.service.live[tid].version
    for op in ("start", "ai"):
        with pytest.raises(TableError, match="Only the organiser"):
            await world.service.signup(tid, USERS["Ann"], "Ann", op)
    for step in ("start", "pause", "next", "end", "drop", "forfeit", "replace"):
        with pytest.raises(TableError, match="Only the organiser"):
            await world.service.organise(G, CH, USERS["Bo"], step, player=USERS["Ann"])
    assert world.service.live[tid].version == before
    row = await world.store.tournament(tid)
    assert row is not None and row.version == before and row.status == "signup"
    # A member with Manage Server may.
    await world.service.organise(G, CH, USERS["Bo"], "start", is_admin=True)
    await settle(world.service)
    assert world.service.live[tid].t.status == "running"


async def test_double_clicks_and_concurrent_joins_and_starts_are_one(world: World) -> None:
    tid, _ = await world.service.create(G, CH, ORGANISER, KIND)
    joined = await asyncio.gather(
        *(world.service.signup(tid, USERS["Ann"], "Ann", "join") for _ in range(3)),
        return_exceptions=True)
    assert sum(isinstance(j, str) for j in joined) == 1
    assert all("already joined" in str(e) for e in joined if isinstance(e, TableError))
    await world.service.signup(tid, USERS["Bo"], "Bo", "join")
    started = await asyncio.gather(
        *(world.service.signup(tid, ORGANISER, "Org", "start") for _ in range(2)),
        return_exceptions=True)
    assert sum(isinstance(s, str) for s in started) == 1
    await settle(world.service)
    assert len(world.places.threads) == 1  # one round, one table: opened once
    with pytest.raises(TableError, match="sign-up is closed"):
        await world.service.signup(tid, USERS["Cy"], "Cy", "join")


async def test_a_round_robin_of_four(world: World) -> None:
    tid = await signed_up(world, ["Ann", "Bo", "Cy", "Dan"], fmt="round_robin")
    await world.service.signup(tid, ORGANISER, "Org", "start")
    await settle(world.service)
    met: set[frozenset[str]] = set()
    for _ in range(3):
        for pair in tables_of(world, tid):
            met.add(frozenset(pair))
            await finish(world, tid, min(pair), *pair)  # alphabetical first wins
        if world.service.live[tid].t.status == "running":
            await world.service.organise(G, CH, ORGANISER, "next")
            await settle(world.service)
    assert len(met) == 6  # everyone met everyone once
    live = world.service.live[tid]
    assert live.t.status == "over"
    assert [(s.place, s.score) for s in live.t.standings()] == [(1, 3), (2, 2), (3, 1), (4, 0)]


async def test_an_elimination_of_eight_with_the_bracket(world: World) -> None:
    tid = await signed_up(world, NAMES[:8], fmt="elimination")
    await world.service.signup(tid, ORGANISER, "Org", "start")
    await settle(world.service)
    assert tables_of(world, tid) == [("Ann", "Hal"), ("Dan", "Eva"), ("Bo", "Gus"),
                                     ("Cy", "Finn")]
    rounds = 0
    while world.service.live[tid].t.status == "running":
        rounds += 1
        for pair in tables_of(world, tid):
            await finish(world, tid, pair[-1], *pair)  # the lower seed wins every table
        if world.service.live[tid].t.status == "running":
            await world.service.organise(G, CH, ORGANISER, "next")
            await settle(world.service)
    assert rounds == 3
    standings = world.service.live[tid].t.standings()
    names = {str(uid): name for name, uid in USERS.items()}
    # Round 2: Hal v Eva, Gus v Finn (the bracket's slots); the final: Eva v Finn.
    assert [names[s.player] for s in standings[:2]] == ["Finn", "Eva"]
    assert [s.place for s in standings] == [1, 2, 3, 3, 5, 5, 5, 5]
    final = world.places.posts[-1]
    assert final[2] == ["standings.png", "bracket.png"]
    # The rounds are named as players say them, their numbers kept.
    headings = [text.split("\n")[0] for _, text, _ in world.places.posts
                if text.startswith("**Round")]
    assert headings == ["**Round 1** — **Quarter-finals**", "**Round 2** — **Semi-finals**",
                        "**Round 3** — **Final**"]


async def test_a_finished_tournaments_standings_outlive_a_restart(tmp_path: Path) -> None:
    """Finished tournaments are not loaded at start-up; `/tournament standings` reads the
    channel's last one from the store (asked in the channel, or in one of its tables'
    threads)."""
    world = await up(tmp_path / "db.sqlite3", Places())
    tid = await signed_up(world, ["Ann", "Bo"], rounds=1)
    await world.service.organise(G, CH, ORGANISER, "start")
    await settle(world.service)
    await finish(world, tid, "Bo", "Ann", "Bo")
    assert world.service.live[tid].t.status == "over"
    [row] = await world.store.tournament_tables(tid)
    await down(world)
    again = await up(tmp_path / "db.sqlite3", Places())  # a restart, as after a kill -9
    try:
        assert tid not in again.service.live  # nothing left to do: not loaded
        for where in (CH, row.thread_id):
            said, pictures = await again.service.standings(G, where)
            assert said == ("Final standings\n1. Bo — 1 (Buchholz 0)\n"
                            "2. Ann — 0 (Buchholz 1)"), said
            assert [name for name, _ in pictures] == ["standings.png"]
        for guild, channel in ((G, CH + 1), (G + 1, CH)):  # another channel, another server
            with pytest.raises(TableError, match="no tournament running"):
                await again.service.standings(guild, channel)
        # A new tournament in the channel is the one shown, from its sign-up on.
        await signed_up(again, ["Cy"])
        said, pictures = await again.service.standings(G, CH)
        assert "Players (1): Cy" in said and not pictures
    finally:
        await down(again)


async def test_pause_forfeit_drop_replace_and_end(world: World) -> None:
    tid = await signed_up(world, ["Ann", "Bo", "Cy", "Dan"], rounds=3)
    await world.service.organise(G, CH, ORGANISER, "start")
    await settle(world.service)
    await world.service.organise(G, CH, ORGANISER, "pause")
    with pytest.raises(TableError, match="paused"):
        await world.service.organise(G, CH, ORGANISER, "next")
    await world.service.organise(G, CH, ORGANISER, "resume")
    [first, second] = tables_of(world, tid)
    await world.service.organise(G, CH, ORGANISER, "forfeit", player=USERS[first[0]])
    await settle(world.service)
    t = world.service.live[tid].t
    assert t.current_round is not None and t.current_round.tables[0].finished
    rows = await world.store.tournament_tables(tid)
    assert rows[0].result == "aborted" and rows[0].applied  # its table stopped
    await world.service.organise(G, CH, ORGANISER, "replace", player=USERS[second[0]])
    await world.service.organise(G, CH, ORGANISER, "drop", player=USERS[second[1]])
    assert world.service.live[tid].t.entrants[str(USERS[second[0]])].ai
    with pytest.raises(TableError, match="not in the tournament"):
        await world.service.organise(G, CH, ORGANISER, "drop", player=999)
    await world.service.organise(G, CH, ORGANISER, "end")
    await settle(world.service)
    live = world.service.live[tid]
    assert live.t.status == "over" and live.t.ended
    assert all(r.result is not None for r in await world.store.tournament_tables(tid))
    assert not world.tables.tables  # the tables still playing stopped
    assert "ended by the organiser" in world.places.posts[-2][1]


async def test_the_start_clock_and_its_pause_while_down(tmp_path: Path) -> None:
    now = [1_000_000.0]
    store = await Store.open(tmp_path / "db.sqlite3")
    tables = TableService(store, ai_pause=0.0, clock=lambda: now[0])
    service = TournamentService(store, tables, Places())
    tid, text = await service.create(G, CH, ORGANISER, KIND, start="in 15 minutes")
    assert "<t:1000900:f>" in text
    now[0] += 600
    await service.signup(tid, USERS["Ann"], "Ann", "join")  # saved with five minutes left
    await settle(service)
    await service.close()
    again = TournamentService(store, tables, Places())
    await again.restore()
    now[0] += 3600  # down for an hour: five minutes are left
    await again.resume()
    assert again.live[tid].extra.start_at == now[0] + 300
    await settle(again)
    await again.close()
    await tables.close()
    await store.close()


def test_start_times_read_as_typed() -> None:
    now = datetime(2026, 12, 2, 19, 0, tzinfo=UTC).timestamp()
    assert parse_start(None, now) is None
    assert parse_start("now", now) == now
    assert parse_start("in 15 minutes", now) == now + 900
    assert parse_start("in 2 hours", now) == now + 7200
    assert parse_start("20:30", now) == now + 5400
    assert parse_start("8:30pm", now) == now + 5400
    assert parse_start("18:00", now) == now + 23 * 3600  # past today: tomorrow's
    assert parse_start("2026-12-24 19:00", now) == now + 22 * 86400
    for wrong in ("soon", "25:00", "2026-02-30 10:00", "in 999999 hours", "1999-01-01 10:00"):
        with pytest.raises(TableError, match="could not read the start time"):
            parse_start(wrong, now)
    with pytest.raises(TableError) as long:  # the option is free text: quoted back short
        parse_start("x" * 5000, now)
    assert "x" * 39 + "…" in str(long.value) and "x" * 41 not in str(long.value)


def test_the_pictures_are_pngs_and_deterministic() -> None:
    rows = [StandingRow(1, "Finn", "3", "4"), StandingRow(2, "Ann\u202e", "2", "6½")]
    first = standings_png("Final standings", ["Place", "Player", "Score", "Buchholz"], rows)
    assert first.startswith(b"\x89PNG")
    assert first == standings_png("Final standings", ["Place", "Player", "Score", "Buchholz"],
                                  rows)
    bracket = bracket_png("Bracket", [("Round 1", [BracketMatch(("A", "B"), "A"),
                                                   BracketMatch(("C", None), "C")]),
                                      ("Round 2", [BracketMatch(("A", "C"), None)])])
    assert bracket.startswith(b"\x89PNG")


def test_formats_are_the_engines() -> None:
    assert {f.value for f in Format} == {"swiss", "elimination", "round_robin"}
