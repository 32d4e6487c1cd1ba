"""Small steps every end-to-end test takes: open a table, seat people, read what they see."""

from __future__ import annotations

from bot.loopback import LoopbackDiscord
from bot.loopback.handles import ChannelHandle, UserHandle
from bot.loopback.models import Message


def lobby_message(channel: ChannelHandle) -> Message:
    for message in reversed(channel.messages()):
        if message.button("Join") is not None:
            return message
    raise AssertionError("no lobby message in the channel")


async def open_table(discord: LoopbackDiscord, host: UserHandle, channel: ChannelHandle,
                     command: str, players: list[UserHandle], ai: int = 0) -> None:
    """Host opens a table with `command`; `players` join; `ai` AI seats; host starts."""
    await host.slash(channel, command)
    lobby = lobby_message(channel)
    for player in players:
        await player.click(lobby, label="Join")
    for _ in range(ai):
        await host.click(lobby, label="Add AI")
    await host.click(lobby, label="Start")


def dm_with_button(user: UserHandle, label: str) -> Message | None:
    for message in reversed(user.dms()):
        if message.button(label) is not None:
            return message
    return None


async def wait_dm_button(discord: LoopbackDiscord, user: UserHandle, label: str,
                         timeout: float = 15) -> Message:
    await discord.wait_for(lambda: dm_with_button(user, label) is not None, timeout=timeout,
                           message=lambda: f"{user.name} never got a DM with {label!r}: "
                           + repr([m.text for m in user.dms()[-3:]]))
    message = dm_with_button(user, label)
    assert message is not None
    return message


def channel_text(channel: ChannelHandle) -> str:
    """Everything the channel ever showed, edits included."""
    parts = []
    for message in channel.messages(include_deleted=True):
        parts.append(message.text)
        parts += [version.content for version in message.history]
    return "\n".join(parts)
