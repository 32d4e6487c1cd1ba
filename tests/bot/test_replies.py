"""A click's answer on the one route (`bot.discord.replies`): the step's `Reply` row, carried by
the click's interaction response and then marked delivered, or, when no response carried it,
delivered by the sender, into the seat's prompt message. On the in-process Discord
(tests/support/fake_discord.py), counting what each path costs."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.core.outbox import Reply
from bot.discord import replies as replies_module
from bot.discord.in_place import RECENT_SECONDS
from bot.store import MessageRef
from engine.games import GAMES
from tests.support.guessing import Guessing
from tests.support.in_process import ALICE, BOB, Bot, running_bot


@pytest.fixture
async def bot(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[Bot]:
    monkeypatch.setitem(GAMES, "guessing", Guessing)
    async with running_bot(tmp_path) as running:
        yield running


async def restart(bot: Bot) -> None:
    """A new process's sender (nothing of the old one's memory) sends what is saved."""
    await bot.sender.close()
    bot.new_sender()
    await bot.sender.start()
    await bot.sender.drain()


async def marks(bot: Bot, table_id: str) -> list[str]:
    """The answers marked delivered that the store still names."""
    return [ref for ref in await bot.store.message_refs(table_id) if ref.startswith("answered:")]


async def test_an_answer_saved_as_the_process_died_is_sent_once_in_place(bot: Bot) -> None:
    """kill -9 between the click's commit and its interaction response: nobody answered the
    click, and the next process's sender finds the answer's row with no interaction to carry
    it. It edits the answer into Alice's prompt, the message she clicked: no new DM. Killed
    again between that edit and the row's deletion, the same edit is made again, and no
    more once the row is gone."""
    table = await bot.open_table()
    await bot.deliver()
    asked = bot.prompt(ALICE)
    alice = bot.dm(ALICE)
    # The step saved, the process gone before the response: the service's call alone.
    await bot.service.act(table.table_id, ALICE.id, 0, table.stamp(0)[0], 0)
    mark = len(bot.requests)
    held = bot.hold_next("edit", bucket=alice.bucket)
    delivering = asyncio.create_task(restart(bot))
    await held.arrived()  # Discord has the edit; the process dies before the row is done
    await bot.sender.close()
    await delivering
    assert "You picked 1" in (asked.content or "")
    await restart(bot)
    assert [request.kind for request in bot.since(mark) if request.bucket == alice.bucket] \
        == ["edit", "edit"]  # the same edit of the same message, the second after the crash
    assert {request.message_id for request in bot.since(mark)
            if request.bucket == alice.bucket} == {asked.id}
    assert alice.shown == [asked] and "You picked 1" in (asked.content or "")
    assert await bot.store.pending_messages(table.table_id) == []
    mark = len(bot.requests)
    await restart(bot)
    assert bot.since(mark) == []  # sent, and never again
    refs = await bot.store.message_refs(table.table_id)
    assert refs["prompt:0"].message_id == asked.id


async def test_an_answer_the_click_carried_is_never_sent_again(bot: Bot) -> None:
    """The response carried Alice's answer and marked it delivered; the sender drops the
    row unsent, in this process or in the next one after a crash before it got there."""
    table = await bot.open_table()
    await bot.deliver()
    asked = bot.prompt(ALICE)
    alice = bot.dm(ALICE)
    mark = len(bot.requests)
    click = await bot.press(asked, ALICE, "1")
    assert [request.kind for request in bot.since(mark)] == ["update"]
    [row] = [row for row in await bot.store.pending_messages(table.table_id)
             if row.body["op"] == "reply"]
    assert await marks(bot, table.table_id) == [f"answered:0:{row.body['step']}"]
    await restart(bot)  # killed before its sender got to the row
    assert bot.count(bucket=alice.bucket, since=mark) == 0
    assert await bot.store.pending_messages(table.table_id) == []
    assert await marks(bot, table.table_id) == []  # deleted with the row
    # And in one process: the next click's answer is carried, and nothing else is sent.
    await bot.press(bot.prompt(BOB), BOB, "3")
    await bot.deliver()  # round 2: a new DM (the new process knows of no click to edit)
    second = bot.prompt(ALICE)
    mark = len(bot.requests)
    again = await bot.press(second, ALICE, "2")
    await bot.deliver()
    assert bot.count(bucket=alice.bucket, since=mark) == 0
    assert [request.kind for request in click.requests] == ["update"]
    assert [request.kind for request in again.requests] == ["update"]
    assert "You picked 2" in (second.content or "")
    assert await bot.store.pending_messages(table.table_id) == []
    assert await marks(bot, table.table_id) == []


async def test_an_answer_discord_refused_is_sent_by_the_sender(bot: Bot) -> None:
    """The click's 3 s ran out before the bot answered (Discord refused the response): the
    move is made, and the sender delivers its answer from the row, into the prompt Alice
    clicked; her next prompt is a new DM, since nothing was answered in place."""
    table = await bot.open_table()
    await bot.deliver()
    asked = bot.prompt(ALICE)
    click = bot.click(asked, ALICE, "1")
    click.drop()
    await bot.dispatch(click)
    mark = len(bot.requests)
    await bot.deliver()
    alice = bot.dm(ALICE)
    assert [(request.kind, request.message_id) for request in bot.since(mark)
            if request.bucket == alice.bucket] == [("edit", asked.id)]
    assert "You picked 1" in (asked.content or "") and alice.shown == [asked]
    assert await bot.store.pending_messages(table.table_id) == []
    await bot.press(bot.prompt(BOB), BOB, "3")
    await bot.deliver()
    assert len(alice.shown) == 2 and "Round 2" in (bot.prompt(ALICE).content or "")


async def test_a_prompt_answered_as_soon_as_it_is_posted_is_not_taken_back(bot: Bot) -> None:
    """Alice's next prompt goes as a new DM; Discord has made it, and she answers it at once,
    before the sender has Discord's reply and checks whether an answer overtook it. The
    answer was on that very message (the mark names it): the prompt stays, showing her
    answer, and nothing is deleted (before, it was taken back under her, and her click's
    response met a 404)."""
    table = await bot.open_table()
    await bot.deliver()
    await bot.press(bot.prompt(ALICE), ALICE, "1")
    await bot.deliver()
    bot.clock.now += RECENT_SECONDS + 1  # she looked away: her next prompt is a new DM
    alice = bot.dm(ALICE)
    held = bot.hold_next("send", bucket=alice.bucket)
    await bot.press(bot.prompt(BOB), BOB, "3")  # round 2
    delivering = asyncio.create_task(bot.deliver())
    await held.arrived()
    posted = alice.messages[-1]
    assert "Round 2" in (posted.content or "")
    click = await bot.press(posted, ALICE, "2")
    held.release()
    await delivering
    assert [request.kind for request in click.requests] == ["update"]
    assert not posted.deleted and "You picked 2" in (posted.content or "")
    assert not any(request.kind == "delete" for request in bot.requests)
    refs = await bot.store.message_refs(table.table_id)
    assert refs["prompt:0"].message_id == posted.id
    assert alice.messages[0].items == []  # the prompt before lost its buttons, as ever
    assert await bot.store.pending_messages(table.table_id) == []


async def test_an_answer_whose_response_never_comes_is_sent_by_the_sender(
    bot: Bot, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A click's response that does not come within CARRY_WAIT (here at once): the sender
    stops waiting and delivers the answer itself, and the response's late mark, for a row
    already gone, is not written (no mark is left behind)."""
    monkeypatch.setattr(replies_module, "CARRY_WAIT", 0.0)
    table = await bot.open_table()
    await bot.deliver()
    asked = bot.prompt(ALICE)
    replies = bot.sender.replies
    click = replies.click(table.table_id, 0, asked.id)
    answer = await replies.answering(click, bot.service.act(
        table.table_id, ALICE.id, 0, table.stamp(0)[0], 0))
    assert isinstance(answer, Reply)
    mark = len(bot.requests)
    await bot.deliver()
    alice = bot.dm(ALICE)
    assert [(request.kind, request.message_id) for request in bot.since(mark)
            if request.bucket == alice.bucket] == [("edit", asked.id)]
    assert "You picked 1" in (asked.content or "")
    await replies.delivered(click, answer, MessageRef(alice.id, asked.id))  # too late
    replies.release(click)
    assert await marks(bot, table.table_id) == []
    assert await bot.store.pending_messages(table.table_id) == []
