"""A tournament service in process, over a real store and table service, with a stand-in
for Discord's places (threads, posts, the scheduled event): the world the tournament tests
of tests/bot share (sign-ups, a table ended with chosen places, the round's tables by name).

The ratings are the worked example's of docs/tournaments.md (the store's come from games
played: see the e2e test)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path

from bot.core.service import TableService
from bot.core.tournaments import TournamentService
from bot.store import GameRecord, PlayerResult, Store

G, CH, ORGANISER = 10, 20, 1
KIND = "poangpoker"
NAMES = ["Ann", "Bo", "Cy", "Dan", "Eva", "Finn", "Gus", "Hal", "Ida"]
USERS = {name: 100 + i for i, name in enumerate(NAMES)}
RATINGS = {str(USERS[name]): 1900.0 - 100 * i for i, name in enumerate(NAMES)}


@dataclass
class Places:
    """Discord's side, remembered: threads made, posts, the event's moves."""

    threads: list[tuple[int, str]] = field(default_factory=list)
    posts: list[tuple[int, str, list[str]]] = field(default_factory=list)
    events: list[tuple[int, str]] = field(default_factory=list)
    edits: list[str] = field(default_factory=list)

    async def create_thread(self, channel_id: int, name: str) -> int:
        self.threads.append((channel_id, name))
        return 5000 + len(self.threads)

    async def post(self, channel_id: int, text: str, files: list[tuple[str, bytes]]) -> None:
        assert all(data.startswith(b"\x89PNG") for _, data in files)
        self.posts.append((channel_id, text, [name for name, _ in files]))

    async def create_event(self, guild_id: int, channel_id: int, name: str,
                           description: str, start: float) -> int | None:
        return 77

    async def set_event(self, guild_id: int, event_id: int, status: str) -> None:
        self.events.append((event_id, status))

    async def edit_message(self, channel_id: int, message_id: int, text: str) -> None:
        self.edits.append(text)


@dataclass
class World:
    store: Store
    tables: TableService
    service: TournamentService
    places: Places


async def up(path: Path, places: Places) -> World:
    store = await Store.open(path)
    tables = TableService(store, ai_pause=0.0)
    await tables.restore()
    service = TournamentService(store, tables, places)

    async def ratings(draft: object) -> dict[str, float]:
        # The worked example's ratings (the store's come from games played: see the e2e test).
        return {p: RATINGS.get(p, 1000.0) for p in service.live[draft.id].t.entrants}  # type: ignore[attr-defined]

    service._ratings = ratings  # type: ignore[method-assign]
    await service.restore()
    return World(store, tables, service, places)


async def down(world: World) -> None:
    await settle(world.service)
    await world.service.close()
    await world.tables.close()
    await world.store.close()


async def settle(service: TournamentService) -> None:
    """Every task the service spawned (results taken in, posts) has run."""
    while service._tasks:
        await asyncio.gather(*list(service._tasks), return_exceptions=True)


async def signed_up(world: World, names: list[str], fmt: str = "swiss",
                    rounds: int | None = None) -> int:
    tid, _ = await world.service.create(G, CH, ORGANISER, KIND, format_=fmt, rounds=rounds)
    for name in names:
        await world.service.signup(tid, USERS[name], name, "join")
    return tid


async def finish(world: World, tid: int, winner: str | None, *players: str) -> None:
    """The table of this round where `players` sit ends: `winner` first, or a draw."""
    t = world.service.live[tid].t
    ids = {str(USERS[p]) for p in players}
    current = t.current_round
    assert current is not None
    table = next(tb for tb in current.tables if set(tb.players) == ids)
    row = next(r for r in await world.store.tournament_tables(tid)
               if (r.round, r.number) == (current.number, table.number))
    open_table = world.tables.tables.pop(row.table_id)  # as a finished table leaves memory
    assert [s.user_id for s in open_table.seats] == [int(p) for p in table.players]
    assert open_table.channel_id == row.thread_id and open_table.status == "playing"
    places = [1 if winner is None or int(p) == USERS[winner] else 2 for p in table.players]
    now = datetime.now(UTC)
    await world.store.finish_table(row.table_id, GameRecord(
        guild_id=G, channel_id=row.thread_id, kind=KIND, started_at=now - timedelta(minutes=1),
        players=[PlayerResult(seat, int(p), "x", place=place, win=place == 1)
                 for seat, (p, place) in enumerate(zip(table.players, places, strict=True))]))
    await settle(world.service)


def tables_of(world: World, tid: int) -> list[tuple[str, ...]]:
    current = world.service.live[tid].t.current_round
    assert current is not None
    names = {str(uid): name for name, uid in USERS.items()}
    return [tuple(names[p] for p in table.players) for table in current.tables]


def byes_of(world: World, tid: int) -> list[str]:
    current = world.service.live[tid].t.current_round
    assert current is not None
    names = {str(uid): name for name, uid in USERS.items()}
    return [names[bye.player] for bye in current.byes]


@contextlib.asynccontextmanager
async def opened(path: Path, *, break_seconds: float,
                 restarted: bool = False) -> AsyncIterator[World]:
    """A tournament service over the store at `path` (its rounds `break_seconds` apart),
    closed at the end; `restarted`: the bot started again over it after a crash, its tables
    and tournaments restored and resumed."""
    store = await Store.open(path)
    tables = TableService(store, ai_pause=0.0)
    if restarted:
        await tables.restore()
    places = Places()
    world = World(store, tables,
                  TournamentService(store, tables, places, break_seconds=break_seconds), places)
    try:
        if restarted:
            await world.service.restore()
            await tables.resume()
            await world.service.resume()
        yield world
    finally:
        await down(world)
