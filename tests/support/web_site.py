"""The web page's tests' site (issue 25): a store with servers of each access setting, served
through aiohttp's test client on both databases, with the games' renderers installed, and
the helpers that put finished games in it. Fixtures here (`site`, `game_renderers`) are
imported by the test modules that use them."""

from __future__ import annotations

import asyncio
import itertools
import re
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from aiohttp import ClientResponse
from aiohttp.test_utils import TestClient, TestServer

from bot.core.service import TableService
from bot.plugins import install_plugins
from bot.present import render as present_render
from bot.store import GameRecord, PlayerResult, Store
from bot.store.page_changes import CHANNEL as CHANNEL_OF_CHANGES
from engine.games import GAMES
from tests.support.guessing import Guessing
from tests.support.patience import patient
from tests.support.service_play import Clock, play_to_the_end
from web.app import PAGE_STATES, Config
from web.site import make_app

GUILD, OTHER, OFF, MEMBERS = 1001, 1002, 1003, 1004
CHANNEL = 50
ALICE, BOB, CAROL = 11, 12, 13
EVIL = "<script>alert(1)</script>"
SECRET = "s" * 40
START = datetime(2026, 11, 1, 12, 0, tzinfo=UTC)


class HeardClient(TestClient):
    """The test client whose every request waits until the web has heard of every change
    written before it. On PostgreSQL the web learns of a change (a setting, a game) by an
    announcement that arrives moments after its commit (`web.page_states`), as a browser a
    moment later finds it; a test asks at once. On SQLite the web reads at every page, and
    nothing is waited for."""

    def __init__(self, server: TestServer, writer: Store) -> None:
        super().__init__(server)
        self.writer = writer
        self.markers = itertools.count(MARKER)

    async def _request(self, method: str, path: Any, **kwargs: Any) -> ClientResponse:
        await self.heard()
        return await super()._request(method, path, **kwargs)

    async def heard(self) -> None:
        states = self.server.app[PAGE_STATES]
        if not states.watching:
            return
        marker = next(self.markers)  # no server's id: announced after the test's changes
        await self.writer.notify(CHANNEL_OF_CHANGES, str(marker))
        for _ in range(round(patient(500))):
            if states.last_heard == marker:
                return
            await asyncio.sleep(0.01)
        raise AssertionError("the web never heard of the changes written before this page")


#: Past every snowflake the tests use: the servers named by `HeardClient`'s announcements.
MARKER = 1 << 62


@dataclass
class Site:
    client: TestClient
    writer: Store
    service: TableService


@pytest.fixture(scope="module", autouse=True)
def game_renderers() -> Iterator[None]:
    before = dict(present_render._renderers)
    install_plugins()
    yield
    present_render.use_renderers(before)


def config(**changes: object) -> Config:
    values: dict[str, object] = {
        "url": None, "can_log_in": True, "client_id": "42", "client_secret": "shh",
        "discord_api": "http://127.0.0.1:1/api", "discord_authorize": "http://127.0.0.1:1/auth",
        "secure_cookies": False, "poll_seconds": 0.05, "keepalive_seconds": 1.0}
    values.update(changes)
    return Config(**values)  # type: ignore[arg-type]


@pytest.fixture
async def site(database: Path | str, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[Site]:
    monkeypatch.setitem(GAMES, "guessing", Guessing)
    writer = await Store.open(database)
    for guild, access in ((GUILD, "public"), (OTHER, "public"), (MEMBERS, "members")):
        await writer.set_guild_setting(guild, "web", access)
    await writer.upsert_player(ALICE, "Alice")
    await writer.upsert_player(BOB, EVIL)
    await writer.upsert_player(CAROL, "Carol")
    reader = await Store.open_read_only(database)
    service = TableService(writer, clock=Clock(), ai_pause=0.0)
    client = HeardClient(TestServer(make_app(reader, config(), secret=SECRET, rate=1000,
                                             burst=1000)), writer)
    await client.start_server()
    try:
        yield Site(client, writer, service)
    finally:
        await client.close()
        await service.close()
        await reader.close()
        await writer.close()


async def record(store: Store, guild: int, kind: str, places: list[tuple[int, int]],
                 minutes: int = 0) -> None:
    """A finished game: (user, score) in finishing order."""
    await store.record_game(GameRecord(
        guild_id=guild, channel_id=CHANNEL, kind=kind, started_at=START,
        finished_at=START + timedelta(minutes=minutes + 1),
        players=[PlayerResult(seat, user, score=score, place=seat + 1, win=seat == 0)
                 for seat, (user, score) in enumerate(places)]))


def cards_on(html: str) -> list[str]:
    return re.findall(r'data-card="([^"]+)"', html)


async def finished_guessing(site: Site, guild: int = GUILD) -> str:
    service = site.service
    table_id, _ = await service.open_table(guild, CHANNEL, ALICE, "Alice", "guessing",
                                           {"target": 1})
    await service.lobby_action(table_id, BOB, EVIL, "join")
    await service.lobby_action(table_id, ALICE, "Alice", "start")
    await play_to_the_end(service, service.tables[table_id])
    return table_id


# --- access -----------------------------------------------------------------------------------


async def next_event(stream: object) -> tuple[str, dict[str, object]]:
    """The next named event of a Server-Sent Events answer (comments skipped)."""
    import json

    name, data = "", ""
    content = stream.content  # type: ignore[attr-defined]
    while True:
        line = (await content.readline()).decode()
        if line.startswith("event:"):
            name = line[6:].strip()
        elif line.startswith("data:"):
            data = line[5:].strip()
        elif line == "\n" and name:
            return name, json.loads(data)
