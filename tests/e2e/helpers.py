"""Small steps every end-to-end test takes: open a table, seat people, read what they see,
wait until the bot has sent everything."""

from __future__ import annotations

import asyncio

from loopback import LoopbackDiscord
from loopback.handles import ChannelHandle, UserHandle
from loopback.models import Message
from tests.support import rawdb

# The autoplayer lives with the test support code, since bench/pace.py plays by it too.
from tests.support.autoplay import (  # noqa: F401  (re-exported for the tests)
    AutoPlayer,
    Move,
    lobby_message,
    open_table,
)


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


async def settle(discord: LoopbackDiscord, database: rawdb.Target, quiet: float = 0.3) -> None:
    """Until the bot's outbox (in its database) is empty and it has then made no request for
    `quiet` seconds: everything it decided so far is out. The outbox says what a quiet spell
    cannot: at Discord's pace a sender waiting out a full bucket is quiet for up to 5 s with
    rows still to send, and on a busy machine a bot can go a second without a request while
    its next message is already saved."""
    while True:
        seen = len(discord.state.requests)
        await asyncio.sleep(quiet)
        if len(discord.state.requests) != seen:
            continue
        if not await rawdb.fetch(database, "SELECT id FROM outbox"):
            return


def channel_text(channel: ChannelHandle) -> str:
    """Everything the channel ever showed, edits included."""
    parts = []
    for message in channel.messages(include_deleted=True):
        parts.append(message.text)
        parts += [version.content for version in message.history]
    return "\n".join(parts)
