"""When a prompt may replace the private view its person just answered on
(`bot/discord/in_place.py`), and which queued prompts go out without their buttons, or not at all
(`bot.discord.stale_rows`)."""

from __future__ import annotations

from dataclasses import replace

import discord

from bot.core.outbox import Answered, Picture, Post, Reply, Strip, prompt_view
from bot.discord.in_place import RECENT_SECONDS, InPlace
from bot.discord.stale_rows import outdated, overtaken, overtaken_news, stale, what_goes
from bot.present.render import MAX_CONTENT
from tests.support.fake_discord import FakeClient, FakeInteraction, FakeUser


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def click(user: int = 7, guild: int | None = None, ephemeral: bool = False) -> FakeInteraction:
    """A click on the bot's message in a person's DMs (or, given `guild`, on a message of a
    server's channel: the ephemeral "Show my hand" view, or a public one)."""
    client = FakeClient()
    channel = client.dm_channel(user) if guild is None else client.text_channel(9, guild)
    message = channel.add({"content": "your turn"}, [],
                          flags=discord.MessageFlags(ephemeral=ephemeral))
    return FakeInteraction(client, discord.InteractionType.component, channel, FakeUser(user),
                           message=message)


def clicked(interaction: FakeInteraction) -> int:
    """The id of the message the click was on."""
    assert interaction.message is not None
    return interaction.message.id


def test_a_prompt_goes_in_place_only_on_the_message_just_answered() -> None:
    clock = Clock()
    place = InPlace(clock=clock)
    answered = click()
    place.note("t1", 2, answered.as_interaction())
    on = clicked(answered)
    assert place.target("t1", 2, 7, on, "text") is not None
    assert place.target("t1", 2, 7, on + 1, "text") is None  # the prompt is another message now
    assert place.target("t1", 2, 8, on, "text") is None  # someone else's seat now
    assert place.target("t1", 1, 7, on, "text") is None
    assert place.target("t2", 2, 7, on, "text") is None
    assert place.target("t1", 2, 7, on, "x" * (MAX_CONTENT + 1)) is None  # needs two messages
    clock.now += RECENT_SECONDS + 1  # they may have gone: a new DM notifies them
    assert place.target("t1", 2, 7, on, "text") is None


def test_a_click_on_show_my_hand_takes_a_closed_dm_seat_s_turn_not_a_dm_prompt() -> None:
    clock = Clock()
    place = InPlace(clock=clock)
    shown = click(guild=123, ephemeral=True)
    place.note("t1", 0, shown.as_interaction())  # the "Show my hand" view
    assert place.target("t1", 0, 7, clicked(shown), "text") is None
    assert place.private_view("t1", 0, 7, "text") is not None
    assert place.private_view("t1", 0, 8, "text") is None
    clock.now += RECENT_SECONDS + 1
    assert place.private_view("t1", 0, 7, "text") is None
    # A public message (the board): nothing to edit.
    place.note("t1", 1, click(guild=123).as_interaction())
    assert place.private_view("t1", 1, 7, "text") is None
    place.note("t1", 2, click().as_interaction())  # a DM prompt is not a "Show my hand" view
    assert place.private_view("t1", 2, 7, "text") is None


def prompt(seat: int, step: int | None = None) -> Post:
    return Post(user=7, content="your turn", ref=f"prompt:{seat}", previous="strip",
                view=prompt_view("t1", seat, "a", None), step=step)


def reply(seat: int, step: int) -> Reply:
    """A click's answer, as its step wrote it into the seat's queue."""
    return Reply(seat=seat, step=step, user=7, content="you picked",
                 view=prompt_view("t1", seat, "a", None))


def test_an_answer_on_the_very_prompt_just_posted_takes_nothing_back() -> None:
    """The prompt of step 1 was just posted as message 50, and a quick person answered it
    at once (step 2), before the sender's check after the post: the mark names message 50,
    so the prompt stays. An answer on another message (step 2, on 49) overtook it."""
    posted = prompt(1, step=1)
    assert what_goes("t1", posted, [], answered=Answered(1, 2, 50), posted=50) is posted
    assert what_goes("t1", posted, [], answered=Answered(1, 2, 49), posted=50) is None
    assert what_goes("t1", posted, [], answered=Answered(1, 2, 50)) is None  # before posting


def test_an_answer_no_interaction_carried_goes_like_a_prompt() -> None:
    """A `Reply` the sender reaches undelivered goes, its buttons off once a later row
    replaces it or the table moved past its stamp; a later answer of the seat overtakes it
    (a picture in it still goes, without buttons). Delivered, it is a mark: nothing goes."""
    answer = reply(1, step=2)
    assert what_goes("t1", answer, []) is answer
    assert what_goes("t1", Answered(1, 2, 50), []) is None
    for later in ([prompt(1, step=3)], [Strip("prompt:1")]):
        left = what_goes("t1", answer, later)
        assert isinstance(left, Reply) and left.view is None and left.content == "you picked"
    moved = what_goes("t1", answer, [], lambda table, seat: "b")
    assert isinstance(moved, Reply) and moved.view is None
    assert what_goes("t1", answer, [reply(1, step=3)]) is None
    assert what_goes("t1", answer, [Answered(1, 3)]) is None
    pictured = replace(answer, picture=Picture("sppoker", (), (), "en"))
    news = what_goes("t1", pictured, [Answered(1, 3)])
    assert isinstance(news, Reply) and news.view is None and news.picture == pictured.picture


def test_a_queued_prompt_replaced_or_withdrawn_later_is_outdated() -> None:
    assert outdated(prompt(1), [prompt(1)])
    assert outdated(prompt(1), [Strip("prompt:1")])
    assert not outdated(prompt(1), [prompt(2)])
    assert not outdated(prompt(1), [])
    channel = Post(channel=5, content="news", ref="board")
    assert not outdated(channel, [channel])


def test_a_queued_prompt_written_before_its_seat_answered_is_overtaken() -> None:
    """Sppoker: the host declares (step 1), which writes the guest a last-call DM; the guest
    declares (step 2) before the sender gets to it. Sent then, it would put step 1's buttons
    over the answer the guest already sees (they were refused as out of date). The guest's
    step leaves its answer in its queue, saved with it (a `Reply`, or once delivered its
    `Answered` mark: so a restart knows too); an answer saved after the rows were read is
    passed in (`answered`)."""
    mark = Answered(1, 2)
    assert not overtaken(prompt(1, step=1), [])  # nobody answered yet
    assert overtaken(prompt(1, step=1), [mark])
    assert overtaken(prompt(1, step=1), [reply(1, step=2)])  # not delivered yet: the same
    assert overtaken(prompt(1, step=1), [], answered=mark)
    assert not overtaken(prompt(1, step=2), [mark])  # written with the answer's step
    assert not overtaken(prompt(1, step=3), [mark], answered=mark)  # news after the answer
    assert not overtaken(prompt(0, step=1), [mark])  # another seat's prompt
    assert not overtaken(prompt(1), [mark], answered=mark)  # a row saved before rows had steps
    board = Post(channel=5, content="news", ref="board")
    assert not overtaken(board, [mark], answered=mark)
    assert not outdated(prompt(1, step=1), [mark])  # a mark replaces nothing by itself


def test_an_overtaken_prompt_keeps_only_its_pictures_without_buttons() -> None:
    assert overtaken_news(prompt(1, step=1)) is None
    pictured = replace(prompt(1, step=1), picture=Picture("sppoker", (), (), "en"),
                       clocks=("last-1-1",))
    news = overtaken_news(pictured)
    assert news is not None and news.picture == pictured.picture
    assert (news.view, news.ref, news.clocks) == (None, None, ())


def test_a_queued_prompt_the_table_moved_past_is_stale() -> None:
    """A clock moved the table on while the row waited: its buttons would be refused."""
    now = {"t1": {1: "a"}}

    def stamp(table: str, seat: int) -> str | None:
        return now.get(table, {}).get(seat)

    assert not stale("t1", prompt(1), stamp)  # the buttons carry stamp "a", still current
    now["t1"][1] = "b"
    assert stale("t1", prompt(1), stamp)
    now["t1"][1] = "-"  # the prompt was withdrawn
    assert stale("t1", prompt(1), stamp)
    assert not stale("t1", prompt(0), stamp)  # unknown seat: sent as it is
    now.clear()  # the table ended or is another process's
    assert not stale("t1", prompt(1), stamp)
    assert not stale("t1", Post(channel=5, content="news", ref="board"), stamp)
