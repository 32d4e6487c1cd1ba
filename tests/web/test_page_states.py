"""Each server's page state kept in the web's memory (`web.page_states`): read again only
when a writer announced a change of that server, when the listening connection was lost, or
after its time; a read overtaken by an announcement answered and not kept; on SQLite, read at
every page. Against a stand-in store (every case, step by step) and both real backends
(the announcements of a game and a setting, a dropped listening connection)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from bot.store import Store
from tests.support.patience import patient
from tests.support.postgres import drop_listening_connections
from tests.support.web_site import ALICE, BOB, GUILD, OTHER, record
from web.page_states import PageState, PageStates


class Source:
    """A store's page states, each read counted; announcements and the listening connection
    driven by the test."""

    def __init__(self, *, announces: bool = True) -> None:
        self.announces = announces
        self.states: dict[int, PageState] = {}
        self.reads: list[int] = []
        self.since: int | None = 1
        self.hold: asyncio.Event | None = None  # set: reads wait for it
        self.fail = False
        self.tell: Callable[[int | None], None] = lambda guild: None

    async def guild_page_state(self, guild_id: int) -> PageState:
        self.reads.append(guild_id)
        state = self.states.get(guild_id, ({}, 0))
        if self.hold is not None:
            await self.hold.wait()
        if self.fail:
            raise OSError("the database went away")
        return state

    async def watch_page_changes(self, callback: Callable[[int | None], None]) -> bool:
        self.tell = callback
        return self.announces

    @property
    def page_changes_since(self) -> int | None:
        return self.since


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


async def started(source: Source, **options: Any) -> PageStates:
    states = PageStates(source, **options)
    await states.start()
    return states


async def test_a_state_is_kept_until_its_server_announces_a_change() -> None:
    source = Source()
    source.states[GUILD] = ({"web": "public"}, 7)
    states = await started(source)
    assert states.watching
    assert await states.get(GUILD) == ({"web": "public"}, 7)
    assert await states.get(GUILD) == ({"web": "public"}, 7)
    assert source.reads == [GUILD]  # the second page asked nobody

    source.states[GUILD] = ({"web": "public"}, 8)
    source.tell(OTHER)  # another server's change leaves this one kept
    assert (await states.get(GUILD))[1] == 7 and source.reads == [GUILD]
    source.tell(GUILD)
    assert (await states.get(GUILD))[1] == 8 and source.reads == [GUILD, GUILD]

    source.states[GUILD] = ({"web": "off"}, 8)
    source.tell(None)  # a notification this code cannot read: everyone's state forgotten
    assert (await states.get(GUILD))[0] == {"web": "off"}


async def test_a_state_is_read_at_every_page_where_nothing_is_announced() -> None:
    source = Source(announces=False)  # SQLite
    states = await started(source)
    assert not states.watching
    for latest in (1, 2):
        source.states[GUILD] = ({}, latest)
        assert (await states.get(GUILD))[1] == latest
    assert source.reads == [GUILD, GUILD]


async def test_nothing_kept_counts_once_the_listening_connection_is_lost() -> None:
    source = Source()
    states = await started(source)
    source.states[GUILD] = ({}, 1)
    await states.get(GUILD)
    source.since = None  # lost: what is announced meanwhile goes nowhere
    source.states[GUILD] = ({}, 2)
    assert (await states.get(GUILD))[1] == 2
    source.states[GUILD] = ({}, 3)
    assert (await states.get(GUILD))[1] == 3  # nor is anything kept meanwhile
    source.since = 2  # listening again, on a new connection
    source.states[GUILD] = ({}, 4)
    assert (await states.get(GUILD))[1] == 4
    assert (await states.get(GUILD))[1] == 4
    assert source.reads == [GUILD] * 4


async def test_a_read_overtaken_by_an_announcement_is_answered_but_not_kept() -> None:
    source = Source()
    states = await started(source)
    source.states[GUILD] = ({}, 1)
    source.hold = asyncio.Event()
    first = asyncio.create_task(states.get(GUILD))
    second = asyncio.create_task(states.get(GUILD))  # waits for the same read
    while not source.reads:
        await asyncio.sleep(0)
    source.states[GUILD] = ({}, 2)
    source.tell(GUILD)  # a change committed while the read was under way
    source.hold.set()
    assert [(await first)[1], (await second)[1]] == [1, 1]
    assert source.reads == [GUILD]
    source.hold = None
    assert (await states.get(GUILD))[1] == 2  # not kept: read again


async def test_a_state_ages_out_and_a_failed_read_is_not_kept() -> None:
    source, clock = Source(), Clock()
    states = await started(source, seconds=30.0, clock=clock)
    source.states[GUILD] = ({}, 1)
    await states.get(GUILD)
    source.states[GUILD] = ({}, 2)  # written by a writer that announces nothing
    clock.now = 29.0
    assert (await states.get(GUILD))[1] == 1
    clock.now = 30.0
    assert (await states.get(GUILD))[1] == 2
    source.tell(GUILD)
    source.fail = True
    with pytest.raises(OSError):
        await states.get(GUILD)
    source.fail = False
    assert (await states.get(GUILD))[1] == 2
    assert len(source.reads) == 4


async def test_the_oldest_states_go_past_the_size() -> None:
    source = Source()
    states = await started(source, size=2)
    for guild in (1, 2, 3, 2):
        await states.get(guild)
    await states.get(1)  # gone: read again
    await states.get(2)
    assert source.reads == [1, 2, 3, 1]


async def until(condition: Callable[[], Any], what: str) -> None:
    for _ in range(round(patient(200))):
        if await condition():
            return
        await asyncio.sleep(0.02)
    raise AssertionError(f"never: {what}")


async def test_the_store_announces_games_and_settings_to_the_web(
        database: Path | str, backend: str) -> None:
    writer = await Store.open(database)
    reader = await Store.open_read_only(database)
    try:
        states = PageStates(reader)
        await states.start()
        assert states.watching == (backend == "postgresql")
        await writer.upsert_player(ALICE, "Alice")
        await writer.upsert_player(BOB, "Bob")
        assert await states.get(GUILD) == ({}, 0)

        async def shows(settings: dict[str, Any], latest: int | None = None) -> bool:
            found = await states.get(GUILD)
            return found[0] == settings and (latest is None or found[1] == latest)

        await writer.set_guild_setting(GUILD, "web", "public")
        await until(lambda: shows({"web": "public"}), "the setting shown")
        await record(writer, GUILD, "poke", [(ALICE, 7), (BOB, 1)])
        latest = await reader.latest_game(GUILD)
        await until(lambda: shows({"web": "public"}, latest), "the game shown")
        await writer.delete_guild_setting(GUILD, "web")
        await until(lambda: shows({}), "the setting gone")
        if backend != "postgresql":
            return
        assert await drop_listening_connections(writer) == 1  # as in a server's restart
        was = reader.page_changes_since
        await writer.set_guild_setting(GUILD, "web", "members")  # perhaps unheard
        await until(lambda: shows({"web": "members"}), "the change made while not listening")

        async def listening_again() -> bool:
            return reader.page_changes_since not in (None, was)

        await until(listening_again, "listening again")
        await record(writer, GUILD, "poke", [(BOB, 9), (ALICE, 2)], minutes=5)
        latest = await reader.latest_game(GUILD)
        await until(lambda: shows({"web": "members"}, latest), "the game after")
    finally:
        await reader.close()
        await writer.close()


@pytest.mark.parametrize("backend", ["postgresql"])
async def test_a_web_that_cannot_listen_reads_every_page_state(
        database: Path | str, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    """The server's connections full when the web starts: it serves, reading as on SQLite."""
    writer = await Store.open(database)
    reader = await Store.open_read_only(database)
    try:
        async def full(channel: str, callback: Callable[[str], None]) -> None:
            raise OSError("sorry, too many clients already")

        monkeypatch.setattr(reader._db, "listen", full)
        states = PageStates(reader)
        await states.start()
        assert not states.watching and "cannot listen for page changes" in caplog.text
        await writer.set_guild_setting(GUILD, "web", "public")
        assert (await states.get(GUILD))[0] == {"web": "public"}
        await writer.set_guild_setting(GUILD, "web", "off")
        assert (await states.get(GUILD))[0] == {"web": "off"}  # at once: read again
    finally:
        await reader.close()
        await writer.close()
