"""When a prompt may replace the private view its person just answered on (`bot/in_place.py`),
and which queued prompts go out without their buttons (`bot/sender.outdated`)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from bot import messages
from bot.in_place import RECENT_SECONDS, InPlace
from bot.messages import strip as withdraw
from bot.render import MAX_CONTENT
from bot.sender import outdated
from bot.store import PendingMessage


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def click(user: int = 7, message: int = 50, guild: int | None = None,
          ephemeral: bool = False) -> Any:
    """What `note` reads of a discord.Interaction: a click on a message of a DM (or guild)."""
    return SimpleNamespace(guild_id=guild, user=SimpleNamespace(id=user),
                           message=SimpleNamespace(id=message, channel=SimpleNamespace(id=9),
                                                   flags=SimpleNamespace(ephemeral=ephemeral)))


def test_a_prompt_goes_in_place_only_on_the_message_just_answered() -> None:
    clock = Clock()
    place = InPlace(clock=clock)
    place.note("t1", 2, click())
    assert place.target("t1", 2, 7, 50, "text") is not None
    assert place.target("t1", 2, 7, 51, "text") is None  # the prompt is another message now
    assert place.target("t1", 2, 8, 50, "text") is None  # someone else's seat now
    assert place.target("t1", 1, 7, 50, "text") is None
    assert place.target("t2", 2, 7, 50, "text") is None
    assert place.target("t1", 2, 7, 50, "x" * (MAX_CONTENT + 1)) is None  # needs two messages
    clock.now += RECENT_SECONDS + 1  # they may have gone: a new DM notifies them
    assert place.target("t1", 2, 7, 50, "text") is None


def test_a_click_on_show_my_hand_takes_a_closed_dm_seat_s_turn_not_a_dm_prompt() -> None:
    clock = Clock()
    place = InPlace(clock=clock)
    place.note("t1", 0, click(guild=123, ephemeral=True))  # the "Show my hand" view
    assert place.target("t1", 0, 7, 50, "text") is None
    assert place.private_view("t1", 0, 7, "text") is not None
    assert place.private_view("t1", 0, 8, "text") is None
    clock.now += RECENT_SECONDS + 1
    assert place.private_view("t1", 0, 7, "text") is None
    place.note("t1", 1, click(guild=123))  # a public message (the board): nothing to edit
    assert place.private_view("t1", 1, 7, "text") is None
    place.note("t1", 2, click())  # a DM prompt is not a "Show my hand" view
    assert place.private_view("t1", 2, 7, "text") is None


def row(number: int, body: dict[str, Any]) -> PendingMessage:
    return PendingMessage(number, "t1", body, 0)


def prompt(seat: int) -> dict[str, Any]:
    return messages.post(user=7, content="your turn", ref=f"prompt:{seat}", previous="strip",
                         view=messages.prompt_view("t1", seat, "a", None))


def test_a_queued_prompt_replaced_or_withdrawn_later_is_outdated() -> None:
    assert outdated(prompt(1), [row(2, prompt(1))])
    assert outdated(prompt(1), [row(2, withdraw("prompt:1"))])
    assert not outdated(prompt(1), [row(2, prompt(2))])
    assert not outdated(prompt(1), [])
    channel = messages.post(channel=5, content="news", ref="board")
    assert not outdated(channel, [row(2, channel)])
