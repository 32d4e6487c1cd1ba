"""What the bot spends less of Discord's global budget on while that budget is short
(issue 27): a person who answered in the last two minutes gets their next prompt in the message
they answered on (through the click's token, which the global limit does not count) rather
than a new DM and a strip of the old one; and a board that a notable step would move to the
bottom of the channel (a new message, the old one deleted) is edited where it is instead."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import discord
import pytest

from bot.core import narration
from bot.core.outbox import BOARD_REF, Edit, Embed, OutboxMessage, Post, Upsert, board_view
from bot.core.outbox_json import message_to_json
from bot.core.table import Table
from bot.discord.board_pace import BoardPace, ride_on_board
from bot.discord.global_pace import PRESSURE_SECONDS, GlobalPace
from bot.discord.in_place import PRESSED_RECENT_SECONDS, RECENT_SECONDS, InPlace
from bot.discord.sender import Sender
from bot.present.render import MAX_CONTENT
from engine.games import GAMES
from tests.support.fake_discord import FakeClient, FakeInteraction, FakeMessage, FakeUser
from tests.support.guessing import Guessing
from tests.support.in_process import Bot, running_bot


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def click(user: int = 7) -> FakeInteraction:
    """A click on the bot's prompt in a person's DMs."""
    client = FakeClient()
    channel = client.dm_channel(user)
    message = channel.add({"content": "your turn"}, [], flags=discord.MessageFlags())
    return FakeInteraction(client, discord.InteractionType.component, channel, FakeUser(user),
                           message=message)


class Pressure:
    def __init__(self, pressed: bool = True) -> None:
        self.pressed = pressed


def test_under_pressure_a_prompt_goes_in_place_after_a_longer_pause() -> None:
    clock, pressure = Clock(), Pressure(pressed=False)
    place = InPlace(clock=clock, pressure=pressure)
    answered = click()
    place.note("t1", 2, answered.as_interaction())
    assert answered.message is not None
    on = answered.message.id
    clock.now += RECENT_SECONDS + 1
    assert place.target("t1", 2, 7, on, "text") is None  # idle: a new DM, which notifies
    pressure.pressed = True
    assert place.target("t1", 2, 7, on, "text") is not None  # short: in place, not counted
    clock.now += PRESSED_RECENT_SECONDS - RECENT_SECONDS
    assert place.target("t1", 2, 7, on, "text") is None  # gone too long: a DM all the same


@pytest.fixture
async def bot(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[Bot]:
    monkeypatch.setitem(GAMES, "guessing", Guessing)
    async with running_bot(tmp_path) as running:
        yield running


def pressed_sender(bot: Bot, pressure: Pressure) -> Sender:
    """The bot's sender as app.py makes it: its boards and prompts read the global pace.
    A board's wait passes on the bot's clock at once."""
    async def sleep(seconds: float) -> None:
        bot.clock.now += seconds

    bot.sender = Sender(bot.as_bot(), bot.store, bot.service.dm_closed,
                        bot.service.prompt_delivered, bot.service.prompt_stamp,
                        clock=bot.clock, links=bot.links,
                        boards=BoardPace(pressure, bot.clock, sleep=sleep))
    bot.presenter.sender = bot.sender
    return bot.sender


async def started(bot: Bot, pressure: Pressure) -> tuple[Table, FakeMessage]:
    """A table started and delivered while the budget had room, with its board."""
    pressed = pressure.pressed
    pressure.pressed = False
    pressed_sender(bot, pressure)
    table = await bot.open_table()
    await bot.deliver()
    pressure.pressed = pressed
    return table, bot.board


async def send(bot: Bot, table: Table, *messages: OutboxMessage) -> list[str]:
    """The messages saved for the table and sent; the kinds of requests that took."""
    await bot.store.enqueue(table.table_id, [message_to_json(m) for m in messages])
    bot.woken.append(table.table_id)
    mark = len(bot.requests)
    await bot.deliver()
    return [request.kind for request in bot.since(mark)]


def reveal(table: Table) -> Post:
    """A reveal's news, with its box, as `narration.public_events` writes it."""
    return Post(channel=table.channel_id, content="Alice shows a flush.",
                embeds=(Embed("Reveal", "Alice: flush, 12 points", 0x2ECC71),),
                view=board_view(table.table_id))


@pytest.mark.parametrize("pressed", [False, True])
async def test_a_notable_step_moves_the_board_only_when_the_budget_has_room(
        bot: Bot, pressed: bool) -> None:
    table, board = await started(bot, Pressure(pressed))
    # What a notable step (a reveal) writes for the board: posted anew at the bottom, the
    # old one deleted.
    moving = narration.board(table)
    assert isinstance(moving, Post)
    kinds = await send(bot, table, moving)
    if pressed:  # one request: the board edited where it is, with the step's text
        assert kinds == ["edit"]
        assert bot.board is board
    else:  # two: the new board, and the old one deleted
        assert sorted(kinds) == ["delete", "send"]
        assert bot.board is not board
    assert bot.board.content == moving.content


@pytest.mark.parametrize("pressed", [False, True])
async def test_under_pressure_a_steps_news_rides_on_the_board_in_one_edit(
        bot: Bot, pressed: bool) -> None:
    table, board = await started(bot, Pressure(pressed))
    # A reveal: its news and the board moving below it, as `narration.step` writes them.
    moving = narration.board(table)
    kinds = await send(bot, table, reveal(table), moving)
    assert isinstance(moving, Post)
    if pressed:  # one request: the board edited where it is, the news on it
        assert kinds == ["edit"]
        assert bot.board is board
        assert bot.board.content == f"Alice shows a flush.\n\n{moving.content}"
        assert [embed["title"] for embed in bot.board.embeds] == ["Reveal"]
    else:  # the news posted (it notifies), the new board below it, the old one deleted
        assert sorted(kinds) == ["delete", "send", "send"]
        assert bot.board.content == moving.content
    assert await bot.store.pending_messages(table.table_id) == []  # nothing left behind


def test_news_rides_on_the_last_board_write_and_keeps_its_newest_lines() -> None:
    board = Upsert(ref=BOARD_REF, channel=5, content="B" * 1900)
    boxed = Post(channel=5, content="first box", embeds=(Embed("One", "1", 1),))
    text = Post(channel=5, content="\n".join(f"line {n}" for n in range(30)))
    ping = Post(channel=5, content="<@7>, your turn", pings=(7,))
    found = ride_on_board([boxed, board, ping, text, board])
    assert found is not None
    last, riding, carrying = found
    assert (last, riding) == (4, [0, 3])  # the ping goes as a message: it must notify
    assert carrying.embeds == boxed.embeds  # the last news with boxes brings them
    assert len(carrying.content) <= MAX_CONTENT
    assert carrying.content.endswith("\n\n" + board.content)
    assert "line 29" in carrying.content and "first box" not in carrying.content
    # A finished game's last words (an `Edit`) carry nothing: its news is posted.
    assert ride_on_board([text, Edit(BOARD_REF, "final")]) is None
    assert ride_on_board([text]) is None


async def test_the_budget_counts_as_short_a_few_seconds_after_a_request_waited() -> None:
    clock = Clock()

    async def sleep(seconds: float) -> None:
        clock.now += seconds

    pace = GlobalPace(2, clock=clock, sleep=sleep)
    await pace.wait()
    await pace.wait()
    assert not pace.pressed  # room for both: nothing waited
    await pace.wait()  # the third in the same second waits for the window
    assert pace.pressed
    clock.now += PRESSURE_SECONDS - 0.1
    assert pace.pressed
    clock.now += 0.2
    assert not pace.pressed


async def test_news_riding_on_a_board_someone_deleted_comes_in_a_new_board(bot: Bot) -> None:
    table, gone = await started(bot, Pressure(pressed=True))
    gone.deleted = True  # a moderator deleted the table's message
    await send(bot, table, reveal(table), narration.board(table))
    assert bot.board is not gone and not bot.board.deleted
    assert bot.board.content is not None and bot.board.content.startswith("Alice shows a flush.")
    assert [embed["title"] for embed in bot.board.embeds] == ["Reveal"]
    assert await bot.store.pending_messages(table.table_id) == []


async def test_a_boards_last_words_take_off_the_news_that_rode_on_it(bot: Bot) -> None:
    table, board = await started(bot, Pressure(pressed=True))
    await send(bot, table, reveal(table), narration.board(table))
    assert [embed["title"] for embed in board.embeds] == ["Reveal"]
    await send(bot, table, Edit(BOARD_REF, "The game is over."))
    assert board.content == "The game is over."
    assert board.embeds == [] and board.files == []  # an old hand's reveal is not the end
