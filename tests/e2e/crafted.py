"""Interactions Discord's client would never send, crafted as a hostile member would.

A value outside an option's range, a forged server: sent past the client's checks, and the
text of what the bot answered."""

from __future__ import annotations

from typing import Any

from loopback import LoopbackDiscord
from loopback.commands import build_data, find_command
from loopback.handles import ChannelHandle, UserHandle
from loopback.models import APPLICATION_COMMAND
from loopback.results import InteractionResult

SUBCOMMAND_TYPES = (1, 2)


def _leaf(node: dict[str, Any]) -> dict[str, Any]:
    """The innermost (sub)command of a command's data or schema."""
    while node.get("options") and node["options"][0].get("type") in SUBCOMMAND_TYPES:
        node = node["options"][0]
    return node


async def crafted_slash(discord: LoopbackDiscord, user: UserHandle, channel: ChannelHandle,
                        command: str, **values: Any) -> InteractionResult:
    """`/command` with `values` as a modified client could send them: each option with the
    type its schema declares, whatever its value (out of range, not among the choices)."""
    path = command.split()
    where = discord.state.channels[channel.id]
    data = build_data(discord.state, where, user.user, path, {})
    schema = find_command(discord.state, path[0], where, user.user)
    for word in path[1:]:
        schema = next(o for o in schema["options"] if o["name"] == word)
    declared = {option["name"]: option for option in schema.get("options") or []}
    _leaf(data)["options"] = [{"name": name, "type": declared[name]["type"], "value": value}
                              for name, value in values.items()]
    return await discord._interact(f"/{command} (crafted)", user.user, where,
                                   APPLICATION_COMMAND, data, message_id=None, timeout=None,
                                   check=True)


def plain(result: InteractionResult) -> str:
    """What the person reads: markdown's escapes taken off (a refusal's option name and
    value are data, escaped for Discord's markdown)."""
    return result.text.replace("\\", "")
