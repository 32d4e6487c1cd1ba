"""The loopback Discord: a small Discord (REST + gateway) on 127.0.0.1 for tests and the sandbox.

The unmodified discord.py client connects to it once `discord.http.Route.BASE` and
`discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY` point here; `LoopbackDiscord.bot_env()`
gives the DISCORD_API_BASE / DISCORD_GATEWAY_URL / DISCORD_TOKEN the bot reads them from.

    async with LoopbackDiscord(users=["alice", "bob"]) as discord:
        start_the_bot(env=discord.bot_env())
        await discord.wait_for_bot_ready()
        alice, general = discord.user("alice"), discord.channel("general")
        await alice.slash(general, "sppoker start target:10")   # or ("sppoker start", target=10)
        await alice.click(label="Join")                        # newest visible "Join" button
        await alice.select(values=["Poker"], placeholder="Pick a game")
        await alice.submit_modal(word="zebra")                 # the modal the bot opened
        hand = await alice.wait_for_dm(lambda m: "Your hand" in m.text)
        await alice.click_dm(label="Show")
        assert not discord.user("bob").ephemerals()
        discord.assert_no_errors()

Like Discord, it refuses bodies that Discord's schemas refuse (400, code 50035; see
`rejected()`) and keeps Discord's rate limits (`rate_limits=`, counts in `stats`).
"""

from loopback.clock import Clock
from loopback.driver import LoopbackDiscord
from loopback.errors import (
    BadOption,
    BotNotConnected,
    CommandNotFound,
    ComponentNotFound,
    DiscordError,
    InteractionFailed,
    LoopbackError,
    ModalNotOpen,
)
from loopback.handles import ChannelHandle, UserHandle
from loopback.models import Attachment, Button, ErrorRecord, Message, Modal, Select
from loopback.ratelimits import Limit, RateLimits, RequestStats
from loopback.results import InteractionResult
from loopback.server import LoopbackServer

__all__ = [
    "Attachment",
    "BadOption",
    "BotNotConnected",
    "Button",
    "ChannelHandle",
    "Clock",
    "CommandNotFound",
    "ComponentNotFound",
    "DiscordError",
    "ErrorRecord",
    "InteractionFailed",
    "InteractionResult",
    "Limit",
    "LoopbackDiscord",
    "LoopbackError",
    "LoopbackServer",
    "Message",
    "Modal",
    "ModalNotOpen",
    "RateLimits",
    "RequestStats",
    "Select",
    "UserHandle",
]
