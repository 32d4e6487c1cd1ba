"""A slash command the bot is slow to answer is acknowledged before Discord's 3 s run out, as a
click is (`bot.discord.responses.in_time`), and its answer then goes where Discord expects it
(`bot.discord.responses.deliver`): into the "thinking…" placeholder when that is as private as the
answer, else as a message of its own, the placeholder gone."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from typing import Any

import discord
import pytest

from bot.discord import responses
from bot.discord.responses import Answer, answer_in_time, deliver, in_time


class Callback:
    message_id = 11


class Sent:
    def __init__(self, message_id: int) -> None:
        self.id = message_id


class Response:
    """What `interaction.response` records: the one acknowledgement an interaction gets."""

    def __init__(self, log: list[tuple[str, Any]]) -> None:
        self.log = log
        self.type: discord.InteractionResponseType | None = None
        self.acknowledged = asyncio.Event()

    def is_done(self) -> bool:
        return self.type is not None

    async def defer(self, *, ephemeral: bool = False) -> None:
        self.log.append(("defer", ephemeral))
        self.type = discord.InteractionResponseType.deferred_channel_message
        self.acknowledged.set()

    async def send_message(self, *, ephemeral: bool = False, **sent: Any) -> Callback:
        self.log.append(("send_message", (ephemeral, sent.get("content"))))
        self.type = discord.InteractionResponseType.channel_message
        return Callback()


class Followup:
    def __init__(self, log: list[tuple[str, Any]]) -> None:
        self.log = log

    async def send(self, *, ephemeral: bool = False, wait: bool = False, **sent: Any) -> Sent:
        self.log.append(("followup", (ephemeral, sent.get("content"))))
        return Sent(12)


class Command:
    """A slash command Discord made `age` seconds ago."""

    type = discord.InteractionType.application_command

    def __init__(self, age: float = 0.0) -> None:
        self.log: list[tuple[str, Any]] = []
        self.created_at = discord.utils.utcnow() - timedelta(seconds=age)
        self.response = Response(self.log)
        self.followup = Followup(self.log)
        self.extras: dict[str, Any] = {}

    async def delete_original_response(self) -> None:
        self.log.append(("delete_original", None))


@pytest.fixture(autouse=True)
def quick(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(responses, "DEFER_AFTER", 0.05)


async def slow(command: Command, answer: Answer) -> Answer:
    """Work that is not done before the command is acknowledged (no clock to miss)."""
    await command.response.acknowledged.wait()
    return answer


async def test_a_quick_command_is_answered_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(responses, "DEFER_AFTER", 30.0)  # quick next to 30 s on any machine

    async def quick_work() -> Answer:
        return Answer("hi")

    command = Command()
    made = await answer_in_time(command, quick_work())  # type: ignore[arg-type]
    assert command.log == [("send_message", (True, "hi"))] and made == Callback.message_id


async def test_a_slow_public_command_is_deferred_in_public_then_fills_its_placeholder() -> None:
    command = Command()
    lobby = Answer("lobby", ephemeral=False)
    made = await answer_in_time(command, slow(command, lobby),  # type: ignore[arg-type]
                                ephemeral=False)
    assert command.log == [("defer", False), ("followup", (False, "lobby"))]
    assert made == 12


async def test_a_refusal_of_a_command_deferred_in_public_comes_to_the_person_alone() -> None:
    command = Command()
    refusal = Answer("A table is already open here.")
    await answer_in_time(command, slow(command, refusal),  # type: ignore[arg-type]
                         ephemeral=False)
    assert command.log == [("defer", False), ("delete_original", None),
                           ("followup", (True, "A table is already open here."))]


async def test_only_the_first_answer_after_a_deferral_takes_its_placeholder() -> None:
    """The rules come in several messages: the first fills the placeholder, the others are
    followups of their own, and nothing deletes the first."""
    command = Command()
    await in_time(command, slow(command, Answer()))  # type: ignore[arg-type]
    await deliver(command, Answer("page 1"))  # type: ignore[arg-type]
    await deliver(command, Answer("page 2", ephemeral=False))  # type: ignore[arg-type]
    assert command.log == [("defer", True), ("followup", (True, "page 1")),
                           ("followup", (False, "page 2"))]


async def test_a_command_reached_late_is_acknowledged_before_its_work() -> None:
    """Even work that needs no waiting: past DEFER_AFTER, whatever comes next may be late."""
    command = Command(age=1.0)
    order: list[str] = []

    async def work() -> Answer:
        order.append(f"work after {command.log}")
        return Answer("status")

    await answer_in_time(command, work())  # type: ignore[arg-type]
    assert order == ["work after [('defer', True)]"]
    assert command.log == [("defer", True), ("followup", (True, "status"))]


async def test_a_deferral_under_way_when_the_work_ends_is_waited_for() -> None:
    """The answer never races the acknowledgement: both would be the interaction's first."""
    command = Command()
    started = asyncio.Event()

    async def slow_defer(*, ephemeral: bool = False) -> None:
        started.set()
        await asyncio.sleep(0.2)
        command.log.append(("defer", ephemeral))
        command.response.type = discord.InteractionResponseType.deferred_channel_message

    async def work() -> Answer:
        await started.wait()  # the work ends while the deferral's request is out
        return Answer("done")

    command.response.defer = slow_defer  # type: ignore[method-assign]
    await answer_in_time(command, work())  # type: ignore[arg-type]
    assert command.log == [("defer", True), ("followup", (True, "done"))]


async def test_an_answer_that_comes_after_discord_dropped_the_command_is_logged(
    caplog: pytest.LogCaptureFixture,
) -> None:
    class Expired:
        status, reason = 404, "Not Found"

    command = Command()

    async def expired(**_: Any) -> None:
        raise discord.NotFound(Expired(), {"code": 10062, "message": "Unknown interaction"})

    command.response.send_message = expired  # type: ignore[assignment]
    with caplog.at_level("INFO", logger="bot.discord.responses"):
        assert await deliver(command, Answer("late")) is None  # type: ignore[arg-type]
    assert "could not answer an expired interaction" in caplog.text
