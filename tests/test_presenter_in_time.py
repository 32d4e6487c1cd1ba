"""A click the bot is slow to answer is acknowledged before Discord's 3 s run out
(`bot.discord.responses.in_time`), and the answer then edits the clicked message."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from typing import Any

import discord
import pytest

from bot.discord import presenter, responses


class Response:
    def __init__(self) -> None:
        self.deferred = 0

    def is_done(self) -> bool:
        return self.deferred > 0

    async def defer(self) -> None:
        self.deferred += 1


def interaction(age: float = 0.0) -> Any:
    """A click Discord made `age` seconds ago."""
    class Interaction:
        response = Response()
        created_at = discord.utils.utcnow() - timedelta(seconds=age)

    return Interaction()


async def answer_after(seconds: float) -> str:
    await asyncio.sleep(seconds)
    return "answer"


@pytest.fixture(autouse=True)
def quick(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(responses, "DEFER_AFTER", 0.05)


async def test_a_quick_answer_is_not_deferred(monkeypatch: pytest.MonkeyPatch) -> None:
    # Quick next to a deferral after 30 s: a busy machine may hold the test up for longer
    # than the 0.05 s the slow answers here are measured against.
    monkeypatch.setattr(responses, "DEFER_AFTER", 30.0)
    clicked = interaction()
    assert await responses.in_time(clicked, answer_after(0)) == "answer"
    assert clicked.response.deferred == 0


async def test_a_slow_answer_is_deferred_once_then_given() -> None:
    clicked = interaction()
    assert await responses.in_time(clicked, answer_after(0.2)) == "answer"
    assert clicked.response.deferred == 1


async def test_a_refusal_after_the_deferral_still_reaches_the_caller() -> None:
    async def refused() -> str:
        await asyncio.sleep(0.2)
        raise ValueError("That choice is out of date")

    clicked = interaction()
    with pytest.raises(ValueError, match="out of date"):
        await responses.in_time(clicked, refused())
    assert clicked.response.deferred == 1


async def test_a_click_that_reached_the_bot_late_is_deferred_sooner() -> None:
    """The 3 s count from Discord's making of the interaction, not from its arrival."""
    clicked = interaction(age=1.0)  # DEFER_AFTER is 0.05 here: already past
    assert await responses.in_time(clicked, answer_after(0.02)) == "answer"
    assert clicked.response.deferred == 1


async def test_a_click_that_expired_before_its_answer_is_logged_not_raised(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A process far behind may answer a click after Discord dropped it (404, 10062): the
    move is saved; the failed answer is logged, and nothing treats the message as answered
    in place."""
    from bot.core.outcomes import Private

    class Expired:
        status, reason = 404, "Not Found"

    class Answer:
        def is_done(self) -> bool:
            return False

        async def edit_message(self, **_: Any) -> None:
            raise discord.NotFound(Expired(), {"code": 10062, "message": "Unknown interaction"})

    class Click:
        response = Answer()
        message = object()
        type = discord.InteractionType.component

    class Sender:
        def __init__(self) -> None:
            self.answered: list[int] = []

        def answered_here(self, *args: Any) -> None:
            self.answered.append(1)

    sender = Sender()
    shown = presenter.Presenter(None, sender)  # type: ignore[arg-type]
    with caplog.at_level("INFO", logger="bot.discord.presenter"):
        await shown._acknowledge(Click(), Private("7c36648f", 0, "Your hand", "1-0", None))  # type: ignore[arg-type]
    assert "could not answer an expired click" in caplog.text
    assert sender.answered == []
