"""A click the bot is slow to answer is acknowledged before Discord's 3 s run out
(`bot.discord.responses.in_time`), and the answer then edits the clicked message."""

from __future__ import annotations

import asyncio

import discord
import pytest

from bot.core.outbox import PromptButtons, Reply
from bot.discord import presenter, responses
from tests.support.fake_discord import FakeClient, FakeInteraction, FakeUser, waited


def interaction(age: float = 0.0) -> FakeInteraction:
    """A click Discord made `age` seconds ago, on the bot's message in a DM."""
    client = FakeClient()
    dm = client.dm_channel(7)
    message = dm.add({"content": "Your hand"}, [])
    return FakeInteraction(client, discord.InteractionType.component, dm, FakeUser(7),
                           message=message, age=age)


def deferrals(clicked: FakeInteraction) -> int:
    return sum(1 for request in clicked.requests if request.kind == "defer")


async def answer_when_acknowledged(clicked: FakeInteraction) -> str:
    """A slow answer: not ready before the click is acknowledged (no clock to miss)."""
    await waited(clicked.response.acknowledged, "the deferral")
    return "answer"


async def answer_at_once() -> str:
    await asyncio.sleep(0)  # it yields, as any work does, and is done at once
    return "answer"


@pytest.fixture(autouse=True)
def quick(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(responses, "DEFER_AFTER", 0.05)


async def test_a_quick_answer_is_not_deferred(monkeypatch: pytest.MonkeyPatch) -> None:
    # Quick next to a deferral after 30 s: a busy machine may hold the test up for longer
    # than the 0.05 s the slow answers here are measured against.
    monkeypatch.setattr(responses, "DEFER_AFTER", 30.0)
    clicked = interaction()
    assert await responses.in_time(clicked.as_interaction(), answer_at_once()) == "answer"
    assert clicked.requests == []


async def test_a_slow_answer_is_deferred_once_then_given() -> None:
    clicked = interaction()
    work = answer_when_acknowledged(clicked)
    assert await responses.in_time(clicked.as_interaction(), work) == "answer"
    assert deferrals(clicked) == 1
    assert clicked.response.type is discord.InteractionResponseType.deferred_message_update


async def test_a_refusal_after_the_deferral_still_reaches_the_caller() -> None:
    clicked = interaction()

    async def refused() -> str:
        await waited(clicked.response.acknowledged, "the deferral")
        raise ValueError("That choice is out of date")

    with pytest.raises(ValueError, match="out of date"):
        await responses.in_time(clicked.as_interaction(), refused())
    assert deferrals(clicked) == 1


async def test_a_click_that_reached_the_bot_late_is_deferred_sooner() -> None:
    """The 3 s count from Discord's making of the interaction, not from its arrival."""
    clicked = interaction(age=1.0)  # DEFER_AFTER is 0.05 here: already past
    assert await responses.in_time(clicked.as_interaction(), answer_at_once()) == "answer"
    assert deferrals(clicked) == 1


async def test_a_click_that_expired_before_its_answer_is_logged_not_raised(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A process far behind may answer a click after Discord dropped it (404, 10062): the
    move is saved; the failed answer is logged, nothing treats the message as answered in
    place, and the answer is not said delivered (its row is the sender's to deliver)."""

    class Sender:
        """What the presenter tells the sender of an answer shown in place."""

        def __init__(self) -> None:
            self.answered: list[int] = []

        def answered_here(self, table_id: str, seat: int, interaction: object) -> None:
            self.answered.append(seat)

    clicked = interaction()
    clicked.drop()
    sender = Sender()
    shown = presenter.Presenter(None, sender)  # type: ignore[arg-type]
    answer = Reply(seat=0, step=3, user=7, content="Your hand",
                   view=PromptButtons("7c36648f", 0, "1-0", None, "en"))
    with caplog.at_level("INFO", logger="bot.discord.presenter"):
        assert await shown._acknowledge(clicked.as_interaction(), "7c36648f", answer) is None
    assert "could not answer an expired click" in caplog.text
    assert [request.kind for request in clicked.requests] == ["update"]  # tried, refused
    assert sender.answered == []
