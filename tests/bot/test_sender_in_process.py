"""The outbox's sender (`bot.discord.sender`) delivering a real table's steps to the
in-process Discord (tests/support/fake_discord.py): the rows of a step go out in order, once
each, whatever fails on the way; rows a later row made stale go in part or not at all; and a
person's next prompt goes where they just answered. The same as the end-to-end tests check at
Discord's pace, here in milliseconds, counting the requests each step costs."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.core.outbox import Reply
from bot.discord import replies as replies_module
from bot.discord import sender as sender_module
from bot.discord.board_pace import BOARD_EDIT_SECONDS, BoardPace
from bot.discord.global_pace import URGENT
from bot.discord.in_place import RECENT_SECONDS
from bot.store import MessageRef
from engine.games import GAMES
from tests.support.fake_discord import FakeMessage, FakeUser, Request
from tests.support.guessing import Guessing
from tests.support.in_process import ALICE, BOB, CHANNEL, Bot, running_bot


@pytest.fixture
async def bot(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[Bot]:
    monkeypatch.setitem(GAMES, "guessing", Guessing)
    async with running_bot(tmp_path) as running:
        yield running


def nonces(requests: list[Request]) -> list[str]:
    """The nonces these requests' new messages carried ("" for none)."""
    return [str(request.payload.get("nonce") or "") for request in requests
            if request.kind == "send"]


async def test_a_steps_rows_go_out_once_each_with_their_nonce(bot: Bot) -> None:
    """The start's three rows (the board, each seat's prompt) are three new messages, each
    with its row's nonce; the store then holds no row, and names each message."""
    table = await bot.open_table()
    rows = await bot.store.pending_messages(table.table_id)
    assert [(row.body["op"], row.body.get("ref")) for row in rows] == [
        ("upsert", "board"), ("post", "prompt:0"), ("post", "prompt:1")]
    mark = len(bot.requests)
    await bot.deliver()
    sent = [request for request in bot.since(mark) if request.kind == "send"]
    # One new message a row, each carrying its row's nonce (Discord's guard against a copy).
    assert sorted(nonces(sent)) == sorted(f"{table.table_id}.{row.id}" for row in rows)
    assert await bot.store.pending_messages(table.table_id) == []
    for user in (ALICE, BOB):
        [prompt] = bot.dm(user).shown
        assert prompt.labels == ["1", "2", "3"] and "Round 1" in (prompt.content or "")
        assert prompt.allowed_mentions == {"parse": []}  # a DM pings nobody
    refs = await bot.store.message_refs(table.table_id)
    assert refs["board"].message_id == bot.board.id
    assert refs["prompt:0"].message_id == bot.prompt(ALICE).id


async def test_the_end_of_a_game_is_told_before_the_board_closes(bot: Bot) -> None:
    """The results (a post) and the board's last edit are one queue: in the order written;
    the board's edit of the step before, which the last one rewrites anyway, is not sent."""
    table = await bot.open_table({"target": 1, "seconds": 3600})
    await bot.deliver()
    board = bot.board
    await bot.press(bot.prompt(ALICE), ALICE, "1")
    await bot.press(bot.prompt(BOB), BOB, "3")
    mark = len(bot.requests)
    await bot.deliver()
    told = [request for request in bot.since(mark) if request.bucket == bot.channel.bucket]
    assert [request.kind for request in told] == ["send", "edit"]
    results = bot.channel.shown[-1]
    assert "Bob** won the game" in (results.content or "") and results.labels == ["Replay"]
    assert told[1].message_id == board.id and "The game is over" in (board.content or "")
    assert board.items == []  # nothing left to press
    assert table.table_id not in bot.service.tables


@pytest.mark.parametrize("after", [False, True], ids=["refused", "answer-lost"])
async def test_a_row_that_failed_is_sent_again_and_not_posted_twice(
    bot: Bot, monkeypatch: pytest.MonkeyPatch, after: bool,
) -> None:
    """Discord unreachable for a moment: the row is tried again with the same nonce. When
    Discord had made the message and only its answer was lost (`after`), the second try is
    handed back that message: still one board."""
    monkeypatch.setattr(sender_module, "RETRY_PAUSE", 0.0)
    table = await bot.open_table()
    bot.fail_next("send", OSError("Connection reset by peer"), bucket=bot.channel.bucket,
                  after=after)
    await bot.deliver()
    tries = [request for request in bot.requests
             if request.kind == "send" and request.bucket == bot.channel.bucket]
    assert len(tries) == 2 and len(set(nonces(tries))) == 1
    assert len([message for message in bot.channel.shown if message.nonce]) == 1
    refs = await bot.store.message_refs(table.table_id)
    assert refs["board"].message_id == bot.board.id
    assert await bot.store.pending_messages(table.table_id) == []


async def test_a_row_sent_just_before_a_crash_is_not_posted_again_after_it(bot: Bot) -> None:
    """The process dies after Discord made Alice's prompt, before its row was marked done:
    the next process sends the row again, and Discord hands back the message its nonce
    made. Alice has one prompt, and the store names it."""
    table = await bot.open_table()
    alice = bot.dm(ALICE)
    held = bot.hold_next("send", bucket=alice.bucket)
    delivering = asyncio.create_task(bot.deliver())
    await held.arrived()
    await bot.sender.close()  # the process is gone; the row is still saved
    await delivering
    [row] = [row for row in await bot.store.pending_messages(table.table_id)
             if row.body.get("ref") == "prompt:0"]
    bot.new_sender()
    await bot.sender.start()
    await bot.sender.drain()
    await bot.deliver()
    tries = [request for request in bot.requests
             if request.kind == "send" and request.bucket == alice.bucket]
    assert nonces(tries) == [f"{table.table_id}.{row.id}"] * 2
    assert len(alice.messages) == 1 and alice.shown == [bot.prompt(ALICE)]
    assert await bot.store.pending_messages(table.table_id) == []
    refs = await bot.store.message_refs(table.table_id)
    assert refs["prompt:0"].message_id == alice.messages[0].id


async def carried_click(bot: Bot, table_id: str, user: FakeUser, seat: int,
                        index: int) -> Reply:
    """A seat's click answered by its interaction, on "Show my hand" in the channel (message
    0 here), as the presenter does it: registered, played, answered and marked delivered."""
    click = bot.sender.replies.click(table_id, seat, 0)
    try:
        answer = await bot.sender.replies.answering(click, bot.service.act(
            table_id, user.id, seat, bot.service.tables[table_id].stamp(seat)[0], index))
        assert isinstance(answer, Reply)
        await bot.sender.replies.delivered(click, answer, MessageRef(CHANNEL, 0))
    finally:
        bot.sender.replies.release(click)
    return answer


async def test_a_prompt_its_seat_already_answered_is_not_sent(bot: Bot) -> None:
    """Alice's answer was saved before the sender got to her round's prompt (a long queue,
    a restart): it would come with buttons already refused, over the answer she saw. It is
    dropped, and of the board's two edits only the last goes."""
    table = await bot.open_table()
    await carried_click(bot, table.table_id, ALICE, 0, 0)
    await bot.deliver()
    assert bot.count(bucket=bot.dm(ALICE).bucket) == 0
    assert bot.prompt(BOB).labels == ["1", "2", "3"]
    assert [request.kind for request in bot.requests
            if request.bucket == bot.channel.bucket] == ["send"]
    assert "Waiting for **Bob**" in (bot.board.content or "")
    assert await bot.store.pending_messages(table.table_id) == []


async def time_runs_out(bot: Bot, table_id: str, key: str) -> None:
    """The clock `key` of the table runs out, as `bot.core.clocks` fires it."""
    async with bot.service.command(table_id) as table:
        await bot.service.step_by_clock(table, table.timeout(key))


async def test_a_prompt_a_later_one_replaces_goes_without_its_buttons(bot: Bot) -> None:
    """The round's clock ran out before the sender got to its prompts: each seat is told
    the round it missed (news), but only the next round's prompt has buttons (`outdated`,
    and `stale` by the stamp the table has now: either rule takes them off)."""
    table = await bot.open_table()
    await time_runs_out(bot, table.table_id, "round-1")
    await bot.deliver()
    for user in (ALICE, BOB):
        missed, current = bot.dm(user).shown
        assert "Round 1" in (missed.content or "") and missed.items == []
        assert "Round 2" in (current.content or "") and current.labels == ["1", "2", "3"]
        # Sent without them: not sent with buttons and stripped after (a moment to press one).
        sent = [request for request in bot.requests
                if request.kind == "send" and request.bucket == bot.dm(user).bucket]
        assert [bool(request.payload.get("components")) for request in sent] == [False, True]


async def test_a_prompt_posted_as_its_seat_answers_elsewhere_is_taken_back(
    bot: Bot, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Alice's next prompt is on its way as a new DM, slowly, when she answers it on "Show
    my hand" in the channel (her answer does not wait for the DM: ANSWER_WAIT). Once Discord
    has the DM it is deleted: left, its step-old buttons would be refused, and her DMs keep
    the prompt she answered before."""
    monkeypatch.setattr(replies_module, "ANSWER_WAIT", 0.0)
    table = await bot.open_table()
    await bot.deliver()
    first = bot.prompt(ALICE)
    await bot.press(first, ALICE, "1")
    await bot.deliver()
    bot.clock.now += RECENT_SECONDS + 1  # she looked away: her next prompt is a new DM
    alice = bot.dm(ALICE)
    held = bot.hold_next("send", bucket=alice.bucket)
    await bot.press(bot.prompt(BOB), BOB, "3")  # round 2
    delivering = asyncio.create_task(bot.deliver())
    await held.arrived()
    shown = await bot.press(bot.board, ALICE, "Show my hand")
    assert shown.original is not None and shown.original.flags.ephemeral
    await bot.press(shown.original, ALICE, "2")
    held.release()
    await delivering
    assert [message.deleted for message in alice.messages] == [False, True]
    assert Request("delete", alice.bucket, alice.messages[1].id) in bot.requests
    refs = await bot.store.message_refs(table.table_id)
    assert refs["prompt:0"].message_id == first.id
    assert "You picked 2" in (shown.original.content or "")


async def test_a_seat_whose_dms_are_closed_is_told_in_the_channel(bot: Bot) -> None:
    """Bob takes no DMs: that is said once in the channel, pinging him and nobody else; from
    then on his turn is a ping in the channel, and no DM is tried again."""
    bot.close_dms(BOB.id)
    table = await bot.open_table()
    await bot.deliver()
    [told] = [message for message in bot.channel.shown if message.content
              and "can't send you direct messages" in message.content]
    assert told.content is not None and told.content.startswith(BOB.mention)
    assert told.allowed_mentions == {"parse": [], "users": [BOB.id]}
    assert told.nonce is not None and told.nonce.endswith("f")
    mark = len(bot.requests)
    await time_runs_out(bot, table.table_id, "round-1")
    await bot.deliver()
    [turn] = [request for request in bot.since(mark)
              if request.kind == "send" and request.bucket == bot.channel.bucket]
    assert turn.content is not None and turn.content.startswith(f"{BOB.mention}, your turn")
    assert turn.payload["allowed_mentions"] == {"parse": [], "users": [BOB.id]}
    assert bot.count("send", bucket=bot.dm(BOB).bucket) == 1  # the first, refused


async def test_a_next_prompt_replaces_the_message_just_answered(bot: Bot) -> None:
    """Alice answered her DM prompt moments ago: her next prompt is that message, edited
    through her click's interaction (its own webhook), not a new DM and a strip, which cost
    her DM channel's bucket two requests."""
    table = await bot.open_table()
    await bot.deliver()
    asked = bot.prompt(ALICE)
    click = await bot.press(asked, ALICE, "1")
    await bot.deliver()
    await bot.press(bot.prompt(BOB), BOB, "3")  # round 2
    mark = len(bot.requests)
    await bot.deliver()
    alice = bot.dm(ALICE)
    assert bot.count(bucket=alice.bucket, since=mark) == 0
    assert [request.kind for request in bot.since(mark) if request.bucket == click.bucket] \
        == ["edit_original"]
    assert alice.shown == [asked] and "Round 2" in (asked.content or "")
    assert asked.labels == ["1", "2", "3"]
    refs = await bot.store.message_refs(table.table_id)
    assert refs["prompt:0"].message_id == asked.id
    assert not any(ref.startswith("in-place:") for ref in refs)


async def test_after_a_pause_the_next_prompt_is_a_new_dm(bot: Bot) -> None:
    """An edit notifies nobody: once Alice may have looked away, her prompt is a new DM
    (which notifies her), and the one she answered loses its buttons."""
    await bot.open_table()
    await bot.deliver()
    asked = bot.prompt(ALICE)
    await bot.press(asked, ALICE, "1")
    await bot.deliver()
    bot.clock.now += RECENT_SECONDS + 1
    await bot.press(bot.prompt(BOB), BOB, "3")
    mark = len(bot.requests)
    await bot.deliver()
    alice = bot.dm(ALICE)
    assert [request.kind for request in bot.since(mark) if request.bucket == alice.bucket] \
        == ["send", "edit"]
    answered, current = alice.shown
    assert answered is asked and asked.items == []
    assert "Round 2" in (current.content or "") and current.labels == ["1", "2", "3"]


async def test_a_prompt_whose_click_expired_goes_as_a_new_dm(bot: Bot) -> None:
    """The click's token was refused (expired): the prompt goes as a new DM, and nothing
    is left saying it was ever going in place."""
    table = await bot.open_table()
    await bot.deliver()
    asked = bot.prompt(ALICE)
    click = await bot.press(asked, ALICE, "1")
    await bot.deliver()
    click.expire()
    await bot.press(bot.prompt(BOB), BOB, "3")
    await bot.deliver()
    assert [request.kind for request in click.requests] == ["update", "edit_original"]
    assert bot.dm(ALICE).shown[-1] is bot.prompt(ALICE) is not asked
    refs = await bot.store.message_refs(table.table_id)
    assert refs["prompt:0"].message_id == bot.prompt(ALICE).id
    assert not any(ref.startswith("in-place:") for ref in refs)


async def test_prompts_are_urgent_under_the_global_limit_and_the_board_is_not(
    bot: Bot, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Issue 27: the sender's work for a seat's prompt runs with `global_pace.URGENT` set, so
    Discord's global budget goes to it before the channel's board edits and narration."""
    seen: list[tuple[str, bool]] = []
    delivery = bot.sender.delivery
    for name in ("dm", "channel", "edit"):
        sent = getattr(delivery, name)

        async def noting(*args: object, _sent: Any = sent, _name: str = name,
                         **kwargs: object) -> Any:
            seen.append((_name, URGENT.get()))
            return await _sent(*args, **kwargs)

        monkeypatch.setattr(delivery, name, noting)
    await bot.open_table()
    await bot.deliver()
    assert sorted(set(seen)) == [("channel", False), ("dm", True)]
    assert URGENT.get() is False  # the test's own task was never marked


async def pick(bot: Bot, table_id: str, user: FakeUser, index: int) -> None:
    """A seat's pick through the service, as its click would make it, nothing delivered."""
    table = bot.service.tables[table_id]
    seat = table.seat_of(user.id)
    assert seat is not None
    stamp = table.current_stamp(seat)
    assert stamp is not None
    await bot.service.act(table_id, user.id, seat, stamp, index)


def board_edits(bot: Bot, board: FakeMessage, mark: int) -> int:
    return sum(1 for request in bot.since(mark)
               if request.kind == "edit" and request.message_id == board.id)


async def test_queued_board_edits_of_a_table_go_out_as_one(bot: Bot) -> None:
    """Issue 27: the edits of a board saved while its queue waited go as one, the latest."""
    table = await bot.open_table()
    await bot.deliver()
    board = bot.board
    for user, index in ((ALICE, 0), (BOB, 1), (ALICE, 2)):  # round 1, and round 2 begun
        await pick(bot, table.table_id, user, index)
    upserts = [row for row in await bot.store.pending_messages(table.table_id)
               if row.body.get("ref") == "board"]
    assert len(upserts) == 3
    mark = len(bot.requests)
    await bot.deliver()
    assert board_edits(bot, board, mark) == 1
    assert "Reveal: Alice 1, Bob 2" in (board.content or "")


async def test_under_load_a_board_waits_and_its_edits_go_as_one(bot: Bot) -> None:
    """Issue 27: while requests wait for Discord's global budget, a board edited moments ago
    waits until BOARD_EDIT_SECONDS have passed; the move made meanwhile goes in the same edit.
    Idle, the next edit goes at once."""
    class Pressed:
        pressed = True

    holds: list[float] = []
    table = await bot.open_table()

    async def sleep(seconds: float) -> None:
        holds.append(seconds)
        bot.clock.now += seconds
        if len(holds) == 1:  # a move while the board waits
            await pick(bot, table.table_id, BOB, 1)

    bot.sender.boards = BoardPace(Pressed(), bot.clock, sleep=sleep)
    await bot.deliver()  # the board is posted: edited "now"
    board = bot.board
    await pick(bot, table.table_id, ALICE, 0)
    mark = len(bot.requests)
    await bot.deliver()
    assert holds == [BOARD_EDIT_SECONDS]
    assert board_edits(bot, board, mark) == 1
    assert "Reveal: Alice 1, Bob 2" in (board.content or "")  # both moves in the one edit
    Pressed.pressed = False  # idle: no wait
    await pick(bot, table.table_id, ALICE, 2)
    await bot.deliver()
    assert holds == [BOARD_EDIT_SECONDS]
