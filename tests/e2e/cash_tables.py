"""A chip table's board between deals as a person finds it, and the Next deal a table of
people presses (rebuying first when told to): shared by the end-to-end tests of chip games."""

from __future__ import annotations

from loopback.handles import ChannelHandle, UserHandle
from loopback.models import Message
from tests.e2e.conftest import World


def deal_overs(channel: ChannelHandle) -> list[Message]:
    return [m for m in channel.messages() if not m.deleted and "Deal over:" in m.text]


def cash_board(channel: ChannelHandle) -> Message | None:
    """The board between deals: the newest message with a Next deal button."""
    for message in reversed(channel.messages()):
        if not message.deleted and message.button("Next deal") is not None:
            return message
    return None


async def next_deal(world: World, channel: ChannelHandle, people: list[UserHandle]) -> None:
    """Press Next deal; if the bot says stacks are too short (out of chips, or under a Red
    Dog ante), everyone below the buy-in rebuys first, as a table of people would."""
    discord = world.discord
    await discord.wait_for(lambda: cash_board(channel) is not None, timeout=20)
    board = cash_board(channel)
    assert board is not None
    answer = await people[0].click(board, label="Next deal")
    if "must rebuy" in answer.text or "can't start" in answer.text:
        for person in people:
            refusal = await person.click(board, label="Rebuy")
            assert "You bought" in refusal.text or "already" in refusal.text, refusal.text
        answer = await people[0].click(board, label="Next deal")
    assert "is dealt" in answer.text, answer.text


def deals_done(channel: ChannelHandle) -> int:
    """Deals told finished: a Badugi deal's end or a Red Dog pot's final stacks."""
    return sum(1 for m in channel.messages()
               if not m.deleted and ("Deal over:" in m.text or "Final stacks" in m.text))
