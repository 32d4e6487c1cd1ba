"""The chaos soak's delivery check (bench/chaos_checks.py) reads each message as it arrived.

Read as they ended, a seat's DM of news without buttons and its next DM, its turn, which it
answered (the answer shows the seat's view again, and the buttons go), read alike: the soak
reported them as one step told twice, though each told something new when it came."""

from __future__ import annotations

from bench.chaos_checks import is_prompt_key, message_key
from loopback.models import Message, MessageVersion

VIEW = "**Zero to 55** — you are **Ann** · deal 2\nYour cards: 4♦ 5♣ 10♠ 5♠ Q♣"
WAITING = f"{VIEW}\n\nNothing is needed from you right now."
TURN = f"{VIEW}\n\n**Pot 15. Nothing to call.**"
BUTTONS = [{"type": 1, "components": [
    {"type": 2, "style": 2, "label": "Check", "custom_id": "dc:c:f952d158:0:6:0"},
    {"type": 2, "style": 3, "label": "Bet 10", "custom_id": "dc:c:f952d158:0:6:1"}]}]


def dm(message_id: int, content: str, components: list[dict[str, object]]) -> Message:
    return Message(message_id, 7, 1, content=content, components=components)


def answered(message: Message, content: str) -> Message:
    """`message` after the seat's click showed its view there and its buttons went."""
    message.history.append(MessageVersion(message.content, message.embeds, message.components,
                                          message.attachments, message.flags, 0.0))
    message.content, message.components = content, []
    return message


def test_news_then_an_answered_turn_are_two_messages() -> None:
    news = dm(1, WAITING, [])
    turn = answered(dm(2, TURN, BUTTONS), WAITING)
    assert (news.content, news.components) == (turn.content, turn.components)  # alike now
    assert message_key(news) != message_key(turn)
    assert is_prompt_key(message_key(turn)) and not is_prompt_key(message_key(news))


def test_the_same_prompt_posted_twice_is_still_found() -> None:
    first, second = dm(1, TURN, BUTTONS), dm(2, TURN, BUTTONS)
    answered(second, WAITING)  # whatever became of it later
    assert message_key(first) == message_key(second)
    assert is_prompt_key(message_key(first))
