"""The presenter (`bot.discord.presenter`) answering clicks of a real table on the in-process
Discord (tests/support/fake_discord.py), from the button's custom_id on: the lobby is one
message its buttons edit; a seat's answer edits the message it clicked; a refusal goes to the
clicker alone; a click whose step is slow is acknowledged first and answered after; a click
Discord dropped leaves the move made and nothing expecting an answer."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.discord import responses
from bot.discord.presenter import OTHER_SERVER
from engine.games import GAMES
from tests.support.fake_discord import FakeUser, waited
from tests.support.guessing import Guessing
from tests.support.in_process import ALICE, BOB, CHANNEL, Bot, running_bot

CAROL = FakeUser(13, "Carol")


@pytest.fixture
async def bot(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[Bot]:
    monkeypatch.setitem(GAMES, "guessing", Guessing)
    async with running_bot(tmp_path) as running:
        yield running


async def test_the_lobby_is_one_public_message_its_buttons_edit(bot: Bot) -> None:
    command = bot.command(bot.channel, ALICE, name="start")
    await bot.presenter.open_table(command.as_interaction(), "guessing",
                                   {"target": 2, "seconds": 3600})
    lobby = command.original
    assert lobby is not None and not lobby.flags.ephemeral
    assert lobby.labels == ["Join", "Leave", "Add AI", "Start", "Cancel"]
    table = next(iter(bot.service.tables.values()))
    refs = await bot.store.message_refs(table.table_id)
    assert (refs["lobby"].channel_id, refs["lobby"].message_id) == (CHANNEL, lobby.id)
    join = await bot.press(lobby, BOB, "Join")
    assert [request.kind for request in join.requests] == ["update"]
    assert "2. Bob" in (lobby.content or "") and lobby.labels[0] == "Join"
    await bot.press(lobby, ALICE, "Start")
    assert "Started" in (lobby.content or "") and lobby.items == []
    assert bot.channel.shown == [lobby]  # the board is the sender's, still to come


async def test_an_answer_edits_the_message_it_clicked(bot: Bot) -> None:
    await bot.open_table()
    await bot.deliver()
    asked = bot.prompt(ALICE)
    mark = len(bot.requests)
    click = await bot.press(asked, ALICE, "2")
    assert [request.kind for request in bot.since(mark)] == ["update"]  # nothing else
    assert "You picked 2" in (asked.content or "") and asked.items == []
    assert bot.dm(ALICE).shown == [asked] and click.original is asked


async def test_a_refusal_goes_to_the_clicker_alone(bot: Bot) -> None:
    """Carol is not playing; Alice, who answered on "Show my hand", presses the buttons of
    her DM prompt, which wait for nothing now. Each is told why in a message only they see,
    and nothing else changes."""
    await bot.open_table()
    await bot.deliver()
    carol = await bot.press(bot.board, CAROL, "Show my hand")
    [refusal] = carol.requests
    assert refusal.kind == "respond" and refusal.ephemeral
    assert "not playing" in (refusal.content or "")
    shown = await bot.press(bot.board, ALICE, "Show my hand")
    assert shown.original is not None and shown.original.labels == ["1", "2", "3"]
    await bot.press(shown.original, ALICE, "1")
    mark = len(bot.requests)
    stale = await bot.press(bot.prompt(ALICE), ALICE, "3")
    assert [(request.kind, request.ephemeral) for request in bot.since(mark)] \
        == [("respond", True)]
    assert stale.original is not None and stale.original.flags.ephemeral
    assert stale.original.content == "Nothing is awaited from you right now."
    assert bot.prompt(ALICE).labels == ["1", "2", "3"]  # the DM itself is as it was


async def test_a_click_from_another_server_is_refused_privately(bot: Bot) -> None:
    """A forged click: the table's button on a message in another server."""
    await bot.open_table()
    await bot.deliver()
    elsewhere = bot.text_channel(200, 2)
    copy = elsewhere.add({"content": "copied", "components": bot.board.components}, [])
    click = await bot.press(copy, ALICE, "Show my hand")
    [refusal] = click.requests
    assert refusal.ephemeral and refusal.content == str(OTHER_SERVER)


async def test_a_slow_step_is_acknowledged_first_then_answered_in_place(
    bot: Bot, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The table is busy (its lock held) past the time a click may wait: the click is
    deferred as an update, and its answer, when the step is done, edits the clicked message
    through the interaction."""
    monkeypatch.setattr(responses, "DEFER_AFTER", 0.05)
    table = await bot.open_table()
    await bot.deliver()
    asked = bot.prompt(ALICE)
    click = bot.click(asked, ALICE, "1")
    async with bot.service.lock(table.table_id):
        answering = asyncio.create_task(bot.dispatch(click))
        await waited(click.response.acknowledged, "the deferral")
        assert [request.kind for request in click.requests] == ["defer"]
    await answering
    assert [request.kind for request in click.requests] == ["defer", "edit_original"]
    assert "You picked 1" in (asked.content or "") and asked.items == []


async def test_a_click_that_reached_the_bot_late_is_acknowledged_before_its_work(
    bot: Bot,
) -> None:
    """Discord made it 5 s ago (a process far behind): deferred at once, then answered."""
    await bot.open_table()
    await bot.deliver()
    asked = bot.prompt(ALICE)
    click = await bot.press(asked, ALICE, "1", age=5.0)
    assert [request.kind for request in click.requests] == ["defer", "edit_original"]
    assert "You picked 1" in (asked.content or "")


async def test_a_click_discord_dropped_is_played_but_not_answered_in_place(
    bot: Bot, caplog: pytest.LogCaptureFixture,
) -> None:
    """Its 3 s ran out before the bot answered: the move is saved, the failed answer is
    logged, and Alice's next prompt is a new DM, not an edit of a message she was never
    shown the answer on."""
    table = await bot.open_table()
    await bot.deliver()
    asked = bot.prompt(ALICE)
    click = bot.click(asked, ALICE, "1")
    click.drop()
    with caplog.at_level("INFO", logger="bot.discord.presenter"):
        await bot.dispatch(click)
    assert "could not answer an expired click" in caplog.text
    assert [row.seat for row in await bot.store.table_actions(table.table_id)] == [0]
    await bot.deliver()
    await bot.press(bot.prompt(BOB), BOB, "3")
    await bot.deliver()
    assert [request.kind for request in click.requests] == ["update"]  # refused, and no more
    assert len(bot.dm(ALICE).shown) == 2 and "Round 2" in (bot.prompt(ALICE).content or "")
