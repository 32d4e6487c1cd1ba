"""bot.discord.in_flight: a stop waits for the interactions under way, and only for them, and
refuses those that arrive while it waits."""

from __future__ import annotations

import asyncio
from typing import Any

from bot.discord.in_flight import InFlight


class Gateway:
    """A stand-in for discord.py's INTERACTION_CREATE parser: each interaction starts a task
    that runs until the test lets it finish, as a command awaiting Discord would."""

    def __init__(self) -> None:
        self.parsed: list[dict[str, Any]] = []
        self.finish: dict[str, asyncio.Event] = {}
        self.done: list[str] = []
        self.refused: list[str] = []
        self.parsers: dict[str, Any] = {"INTERACTION_CREATE": self.parse}

    def parse(self, data: dict[str, Any]) -> None:
        self.parsed.append(data)
        event = self.finish.setdefault(data["id"], asyncio.Event())
        asyncio.get_running_loop().create_task(self._command(data["id"], event))

    async def _command(self, name: str, event: asyncio.Event) -> None:
        await event.wait()
        self.done.append(name)

    async def refuse(self, data: dict[str, Any]) -> None:
        await asyncio.sleep(0)
        self.refused.append(data["id"])


def installed() -> tuple[Gateway, InFlight]:
    gateway = Gateway()
    in_flight = InFlight(gateway.parsers, gateway.refuse)
    in_flight.install()
    return gateway, in_flight


async def test_a_stop_waits_for_the_commands_under_way() -> None:
    gateway, in_flight = installed()
    gateway.parsers["INTERACTION_CREATE"]({"id": "a"})
    gateway.parsers["INTERACTION_CREATE"]({"id": "b"})
    assert in_flight.under_way == 2
    stopping = asyncio.create_task(in_flight.drain(60))
    await asyncio.sleep(0.01)
    assert not stopping.done()
    gateway.finish["a"].set()
    await asyncio.sleep(0.01)
    assert not stopping.done()  # b is still running
    gateway.finish["b"].set()
    assert await stopping == 0
    assert gateway.done == ["a", "b"]


async def test_an_interaction_that_arrives_while_stopping_is_refused_and_not_run() -> None:
    gateway, in_flight = installed()
    gateway.parsers["INTERACTION_CREATE"]({"id": "a"})
    stopping = asyncio.create_task(in_flight.drain(60))
    await asyncio.sleep(0)
    gateway.parsers["INTERACTION_CREATE"]({"id": "late"})
    gateway.finish["a"].set()
    assert await stopping == 0
    assert [data["id"] for data in gateway.parsed] == ["a"]
    assert gateway.refused == ["late"]  # the refusal was sent before the stop went on


async def test_a_stop_waits_a_bounded_time_and_says_how_many_were_cut() -> None:
    gateway, in_flight = installed()
    gateway.parsers["INTERACTION_CREATE"]({"id": "stuck"})
    assert await in_flight.drain(0.05) == 1
    gateway.finish["stuck"].set()
    await asyncio.sleep(0.01)
    assert in_flight.under_way == 0


async def test_other_work_is_not_waited_for() -> None:
    """A table's clock, the sender: running before the interaction, they are not its tasks
    (the table service and the sender are stopped by their own close)."""
    gateway, in_flight = installed()
    forever = asyncio.create_task(asyncio.Event().wait())
    try:
        gateway.parsers["INTERACTION_CREATE"]({"id": "a"})
        gateway.finish["a"].set()
        assert await in_flight.drain(60) == 0
        assert not forever.done()
    finally:
        forever.cancel()


async def test_tasks_tracked_by_hand_are_waited_for() -> None:
    """The InteractionRouter's passing on of a click to another process (`track`)."""
    _, in_flight = installed()
    release = asyncio.Event()
    in_flight.track(asyncio.create_task(release.wait()))
    stopping = asyncio.create_task(in_flight.drain(60))
    await asyncio.sleep(0.01)
    assert not stopping.done()
    release.set()
    assert await stopping == 0


async def test_a_task_factory_already_installed_makes_the_tasks_and_stays() -> None:
    loop = asyncio.get_running_loop()
    made: list[asyncio.Future[Any]] = []

    def factory(loop: asyncio.AbstractEventLoop, coro: Any, **options: Any
                ) -> asyncio.Future[Any]:
        task = asyncio.Task(coro, loop=loop, **options)
        made.append(task)
        return task

    loop.set_task_factory(factory)
    try:
        gateway, in_flight = installed()
        gateway.parsers["INTERACTION_CREATE"]({"id": "a"})
        assert loop.get_task_factory() is factory
        assert len(made) == 1 and in_flight.under_way == 1
        gateway.finish["a"].set()
        assert await in_flight.drain(60) == 0
    finally:
        loop.set_task_factory(None)


async def test_a_second_stop_waits_out_the_first_ones_time_only() -> None:
    """The signal's stop and then the bot's close both drain: the close adds no more time."""
    gateway, in_flight = installed()
    gateway.parsers["INTERACTION_CREATE"]({"id": "stuck"})
    assert await in_flight.drain(0.05) == 1
    assert await asyncio.wait_for(in_flight.drain(3600), 5) == 1
    gateway.finish["stuck"].set()
