"""`web.page_states` against a model (hypothesis' stateful testing): servers' states change,
their announcements arrive late or are lost with the listening connection, reads are held
and finish in any order, and pages ask at any moment. What must hold: a page asked for after
an announcement arrived (or while nothing listens, or once listening starts again) is
answered with that change or a newer one, never with a state kept from before."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

from web.page_states import PageState, PageStates

GUILDS = (1, 2)


class HeldSource:
    """Servers' states by version; each read takes the version when it starts (the oldest a
    database's snapshot could be) and is held until the test lets it finish."""

    def __init__(self) -> None:
        self.versions = dict.fromkeys(GUILDS, 0)
        self.held: list[asyncio.Event] = []
        self.since: int | None = 1
        self.tell: Callable[[int | None], None] = lambda guild: None

    async def guild_page_state(self, guild_id: int) -> PageState:
        version = self.versions[guild_id]
        release = asyncio.Event()
        self.held.append(release)
        await release.wait()
        return {}, version

    async def watch_page_changes(self, callback: Callable[[int | None], None]) -> bool:
        self.tell = callback
        return True

    @property
    def page_changes_since(self) -> int | None:
        return self.since


class PageStatesModel(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.runner = asyncio.Runner()
        self.source = HeldSource()
        self.states = PageStates(self.source)
        self.run(self.states.start())
        #: per server: the oldest version a page asked for now may be answered with
        self.floor = dict.fromkeys(GUILDS, 0)
        self.unheard: list[tuple[int, int]] = []  # (server, version) committed, not yet told
        self.asked: list[tuple[asyncio.Task[PageState], int, int]] = []  # (page, server, floor)
        self.listens = 1

    def run(self, coroutine: Awaitable[Any]) -> Any:
        return self.runner.run(coroutine)  # type: ignore[arg-type]

    def settle(self) -> None:
        """Let every task run as far as it can."""
        for _ in range(5):
            self.run(asyncio.sleep(0))

    @rule(guild=st.sampled_from(GUILDS))
    def a_page_is_asked_for(self, guild: int) -> None:
        loop = self.runner.get_loop()
        self.asked.append((loop.create_task(self.states.get(guild)), guild, self.floor[guild]))
        self.settle()

    @rule(guild=st.sampled_from(GUILDS))
    def a_change_commits(self, guild: int) -> None:
        self.source.versions[guild] += 1
        if self.source.since is None:  # nothing kept: a page asked from now on sees it
            self.floor[guild] = self.source.versions[guild]
        else:
            self.unheard.append((guild, self.source.versions[guild]))

    @precondition(lambda self: self.unheard)
    @rule(data=st.data())
    def an_announcement_arrives(self, data: st.DataObject) -> None:
        guild, version = self.unheard.pop(data.draw(st.integers(0, len(self.unheard) - 1)))
        self.source.tell(guild)
        self.floor[guild] = max(self.floor[guild], version)

    @precondition(lambda self: self.source.held)
    @rule(data=st.data())
    def a_read_finishes(self, data: st.DataObject) -> None:
        self.source.held.pop(data.draw(st.integers(0, len(self.source.held) - 1))).set()
        self.settle()

    @precondition(lambda self: self.source.since is not None)
    @rule()
    def the_listening_connection_is_lost(self) -> None:
        self.source.since = None
        self.unheard.clear()  # told to nobody
        self.floor = dict(self.source.versions)

    @precondition(lambda self: self.source.since is None)
    @rule()
    def listening_starts_again(self) -> None:
        self.listens += 1
        self.source.since = self.listens  # a number not seen before: nothing kept counts
        self.floor = dict(self.source.versions)

    @invariant()
    def every_page_answered_is_as_fresh_as_when_asked(self) -> None:
        for page, guild, floor in self.asked:
            if page.done():
                _, version = page.result()
                assert version >= floor, f"server {guild}: version {version}, asked at {floor}"
        self.asked = [entry for entry in self.asked if not entry[0].done()]

    def teardown(self) -> None:
        for release in self.source.held:
            release.set()
        self.settle()
        for page, _, _ in self.asked:
            page.cancel()
        self.runner.close()


PageStatesModel.TestCase.settings = settings(max_examples=150, stateful_step_count=40,
                                             deadline=None)
test_page_states_against_the_model = PageStatesModel.TestCase
