"""A slash command the bot is slow to answer is acknowledged before Discord's 3 s run out, as a
click is (`bot.discord.responses.in_time`), and its answer then goes where Discord expects it
(`bot.discord.responses.deliver`): into the "thinking…" placeholder when that is as private as the
answer, else as a message of its own, the placeholder gone."""

from __future__ import annotations

import asyncio

import pytest

from bot.discord import responses
from bot.discord.responses import Answer, answer_in_time, deliver, in_time
from tests.support.fake_discord import FakeClient, FakeInteraction, FakeUser, waited


def command(age: float = 0.0) -> FakeInteraction:
    """A slash command Discord made `age` seconds ago, in a server's channel."""
    client = FakeClient()
    return client.command(client.text_channel(100, 1), FakeUser(7), age=age)


def answered(command: FakeInteraction) -> list[tuple[str, bool, str | None]]:
    """What the command was answered with, request by request: each one's kind, whether it
    is ephemeral, and its text."""
    return [(request.kind, request.ephemeral, request.content) for request in command.requests]


@pytest.fixture(autouse=True)
def quick(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(responses, "DEFER_AFTER", 0.05)


async def slow(command: FakeInteraction, answer: Answer) -> Answer:
    """Work that is not done before the command is acknowledged (no clock to miss)."""
    await waited(command.response.acknowledged, "the deferral")
    return answer


async def test_a_quick_command_is_answered_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(responses, "DEFER_AFTER", 30.0)  # quick next to 30 s on any machine

    async def quick_work() -> Answer:
        return Answer("hi")

    asked = command()
    made = await answer_in_time(asked.as_interaction(), quick_work())
    assert answered(asked) == [("respond", True, "hi")]
    assert asked.original is not None and made == asked.original.id
    assert asked.original.flags.ephemeral and asked.original.content == "hi"


async def test_a_slow_public_command_is_deferred_in_public_then_fills_its_placeholder() -> None:
    asked = command()
    lobby = Answer("lobby", ephemeral=False)
    made = await answer_in_time(asked.as_interaction(), slow(asked, lobby), ephemeral=False)
    assert answered(asked) == [("defer", False, None), ("followup", False, "lobby")]
    placeholder = asked.original
    assert placeholder is not None and made == placeholder.id
    assert placeholder.content == "lobby" and not placeholder.flags.ephemeral
    assert not placeholder.flags.loading and asked.channel.shown == [placeholder]


async def test_a_refusal_of_a_command_deferred_in_public_comes_to_the_person_alone() -> None:
    asked = command()
    refusal = Answer("A table is already open here.")
    await answer_in_time(asked.as_interaction(), slow(asked, refusal), ephemeral=False)
    assert answered(asked) == [("defer", False, None), ("delete_original", False, None),
                               ("followup", True, "A table is already open here.")]
    placeholder, told = asked.channel.messages
    assert placeholder.deleted and asked.channel.shown == []  # nothing left in public
    assert told.flags.ephemeral and told.content == "A table is already open here."


async def test_only_the_first_answer_after_a_deferral_takes_its_placeholder() -> None:
    """The rules come in several messages: the first fills the placeholder, the others are
    followups of their own, and nothing deletes the first."""
    asked = command()
    interaction = asked.as_interaction()
    await in_time(interaction, slow(asked, Answer()))
    await deliver(interaction, Answer("page 1"))
    await deliver(interaction, Answer("page 2", ephemeral=False))
    assert answered(asked) == [("defer", True, None), ("followup", True, "page 1"),
                               ("followup", False, "page 2")]
    first, second = asked.channel.messages
    assert first is asked.original and first.content == "page 1" and first.flags.ephemeral
    assert second.content == "page 2" and not second.flags.ephemeral
    assert not first.deleted


async def test_a_command_reached_late_is_acknowledged_before_its_work() -> None:
    """Even work that needs no waiting: past DEFER_AFTER, whatever comes next may be late."""
    asked = command(age=1.0)
    order: list[list[str]] = []

    async def work() -> Answer:
        order.append([request.kind for request in asked.requests])
        return Answer("status")

    await answer_in_time(asked.as_interaction(), work())
    assert order == [["defer"]]
    assert answered(asked) == [("defer", True, None), ("followup", True, "status")]


async def test_a_deferral_under_way_when_the_work_ends_is_waited_for() -> None:
    """The answer never races the acknowledgement: both would be the interaction's first.
    The deferral has reached Discord but its answer is not back when the work ends; an
    answer sent then would find the interaction not yet acknowledged (discord.py's record)
    and be refused by Discord as a second acknowledgement."""
    asked = command()
    held = asked.client.hold_next("defer", bucket=asked.bucket)

    async def work() -> Answer:
        await held.arrived()  # the work ends while the deferral's answer is out
        asyncio.get_running_loop().call_soon(held.release)
        return Answer("done")

    await answer_in_time(asked.as_interaction(), work())
    assert answered(asked) == [("defer", True, None), ("followup", True, "done")]


async def test_an_answer_that_comes_after_discord_dropped_the_command_is_logged(
    caplog: pytest.LogCaptureFixture,
) -> None:
    asked = command()
    asked.drop()
    with caplog.at_level("INFO", logger="bot.discord.responses"):
        assert await deliver(asked.as_interaction(), Answer("late")) is None
    assert "could not answer an expired interaction" in caplog.text
    assert answered(asked) == [("respond", True, "late")] and asked.channel.messages == []
