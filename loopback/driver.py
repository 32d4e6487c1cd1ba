"""The test and sandbox face of the loopback Discord: people, channels, clicks and waits.

Everything here is what a person could do in the Discord client (type a slash command, click
a visible button, pick from a select, fill in a modal, type a message) plus what a test needs
to see (what each person was shown) and to provoke (faults, gateway drops, time passing).
Interactions are awaited until the bot acknowledges them, so tests need no sleeps.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import inspect
import json
import secrets
import time
from collections.abc import AsyncIterator, Callable, Iterable
from typing import Any, Self

from loopback.clock import Clock
from loopback.errors import BotNotConnected, InteractionFailed
from loopback.handles import ChannelHandle, UserHandle
from loopback.interactions import ACK_DEADLINE, interaction_payload
from loopback.models import (
    Channel,
    ErrorRecord,
    Interaction,
    Message,
    RequestRecord,
    ScheduledEvent,
    User,
)
from loopback.ratelimits import RateLimits, RequestStats
from loopback.rest_oauth import OAuth
from loopback.rest_scheduled_events import mark_interested
from loopback.results import InteractionResult, Predicate
from loopback.server import LoopbackServer

LATE_ANSWER_GRACE = 0.5
# 400s that say the request itself is malformed: invalid form body, empty message, bad JSON,
# too few or many messages to bulk-delete.
REJECTION_CODES = frozenset({50035, 50006, 50109, 50016})


def describe_rejection(error: ErrorRecord, width: int = 600) -> str:
    """One refused request for a failure message: route, Discord's error tree, the body."""
    body = json.dumps(error.body, ensure_ascii=False)
    if len(body) > width:
        body = body[:width] + "…"
    reasons = json.dumps(error.details, ensure_ascii=False) if error.details else ""
    return (f"  {error.method} {error.path} -> {error.status} {error.code} {error.message} "
            f"{reasons}\n    body: {body}")


class LoopbackDiscord:
    """A loopback Discord server plus the handles a test drives it with.

    >>> async def example():  # doctest: +SKIP
    ...     async with LoopbackDiscord(users=["alice", "bob"]) as discord:
    ...         env = discord.bot_env()           # hand these to the bot process
    ...         await discord.wait_for_bot_ready()
    ...         result = await discord.user("alice").slash("general", "table status")
    ...         assert result.ephemeral
    """

    def __init__(
        self,
        users: Iterable[str] = ("alice", "bob"),
        *,
        guild_name: str = "Test Guild",
        channels: Iterable[str] = ("general",),
        bot_name: str = "Dealer",
        token: str = "loopback-token",
        clock: Clock | None = None,
        host: str = "127.0.0.1",
        port: int = 0,
        ack_timeout: float = 5.0,
        validate: bool = True,
        rate_limits: RateLimits | bool | None = True,
    ) -> None:
        """`validate`: refuse bodies Discord's schemas refuse (400 / 50035), as Discord does.
        `rate_limits`: Discord's buckets and 429s (RateLimits() defaults, or your numbers);
        False only counts requests. Both are on by default so the loopback is as strict as
        Discord; turn one off only to measure what it costs."""
        self.server = LoopbackServer(
            users=list(users), guild_name=guild_name, channels=list(channels),
            bot_name=bot_name, token=token, clock=clock, host=host, port=port,
            validate=validate, rate_limits=rate_limits,
        )
        self.state = self.server.state
        self.gateway = self.server.gateway
        self.clock = self.server.clock
        self.ack_timeout = ack_timeout

    async def __aenter__(self) -> Self:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    async def start(self) -> None:
        await self.server.start()

    async def stop(self) -> None:
        await self.server.stop()

    # --- connecting a bot ----------------------------------------------------------------

    @property
    def token(self) -> str:
        return self.state.token

    @property
    def api_base(self) -> str:
        return self.server.api_base

    @property
    def gateway_url(self) -> str:
        return self.server.gateway_url

    def bot_env(self) -> dict[str, str]:
        """Environment variables that point the bot at this server."""
        return {
            "DISCORD_API_BASE": self.api_base,
            "DISCORD_GATEWAY_URL": self.gateway_url,
            "DISCORD_TOKEN": self.token,
        }

    @property
    def oauth(self) -> OAuth:
        """Discord's OAuth2 for a web page's log-in: `oauth.redirect_uris.append(url)`,
        `oauth.sign_in("alice")`, `oauth.client_id`, `oauth.client_secret` (rest_oauth.py)."""
        return self.server.oauth

    @property
    def bot_connected(self) -> bool:
        return self.gateway.connected

    @property
    def bot(self) -> User:
        return self.state.bot

    async def wait_for_bot_ready(
        self, timeout: float = 20.0, *, commands: bool = True, identifies: int = 1
    ) -> None:
        """Until the bot has IDENTIFYed (`identifies` times in all), received its guilds and,
        with `commands`, synced its application commands."""

        def ready() -> bool:
            if self.gateway.identify_count < identifies or not self.gateway.connected:
                return False
            live = [s for s in self.gateway.sessions.values()
                    if s.ws is not None and not s.ws.closed and not s.invalid]
            # Each connected shard has been sent its READY and the GUILD_CREATE of each of its
            # guilds; and the first guild's shard is among them.
            delivered = self.gateway.session_for(self.state.guild.id) is not None and all(
                s.cursor >= 1 + sum(s.covers(g) for g in self.state.guilds) for s in live)
            return delivered and (not commands or self.state.commands_synced > 0)

        await self.wait_for(ready, timeout, message=lambda: (
            f"bot not ready: identifies={self.gateway.identify_count}, "
            f"connected={self.gateway.connected}, command syncs={self.state.commands_synced}"
        ))

    # --- people and places ---------------------------------------------------------------

    def user(self, name: str) -> UserHandle:
        user = self.state.user_by_name(name)
        if user is None or user.bot:
            raise KeyError(f"no user called {name!r}")
        return UserHandle(self, user.id)

    @property
    def users(self) -> list[UserHandle]:
        return [UserHandle(self, u.id) for u in self.state.users.values() if not u.bot]

    def add_user(self, name: str) -> UserHandle:
        return UserHandle(self, self.state.add_user(name).id)

    def channel(self, name: str = "general") -> ChannelHandle:
        channel = self.state.channel_by_name(name)
        if channel is None:
            raise KeyError(f"no channel called #{name}")
        return ChannelHandle(self, channel.id)

    def add_guild(self, name: str, channels: Iterable[str], *,
                  shard: tuple[int, int] | None = None) -> list[ChannelHandle]:
        """Another guild, with every user in it and these channels (see LoopbackState)."""
        guild = self.state.add_guild(name, list(channels), shard=shard)
        return [self.channel(self.state.channels[c].name) for c in guild.channel_ids]

    def set_recommended_shards(self, count: int) -> None:
        """What `GET /gateway/bot` recommends to a bot that does not set SHARD_COUNT."""
        self.state.shard_count = count

    def add_channel(self, name: str) -> ChannelHandle:
        """A channel created before the bot connects (GUILD_CREATE carries it)."""
        return ChannelHandle(self, self.state.add_channel(name).id)

    def threads(self, parent: str | None = None) -> list[ChannelHandle]:
        """The threads the bot started (of channel `parent`, or everywhere), oldest first."""
        parent_id = None if parent is None else self.channel(parent).id
        return [ChannelHandle(self, c.id) for c in self.state.channels.values()
                if c.is_thread and parent_id in (None, c.parent_id)]

    def thread(self, channel_id: int) -> Channel:
        """A thread's current state (name, archived, locked), as a copy."""
        found = self.state.channels.get(channel_id)
        if found is None or not found.is_thread:
            raise KeyError(f"no thread {channel_id}")
        return copy.deepcopy(found)

    def scheduled_events(self) -> list[ScheduledEvent]:
        """Every scheduled event the bot created and did not delete, as copies."""
        return [copy.deepcopy(e) for e in self.state.scheduled_events.values() if not e.deleted]

    def mark_interested(self, event_id: int, user: str) -> None:
        """`user` clicks "Interested" on a scheduled event in Discord's client."""
        mark_interested(self.state, event_id, self.state.users[self.user(user).id])

    def message(self, message_id: int) -> Message:
        """The current state of a message, as a copy."""
        return self.state.messages[message_id].snapshot()

    def messages(self, *, ephemeral: bool = True, deleted: bool = False) -> list[Message]:
        """Every message anywhere (channels, DMs, ephemeral replies), oldest first."""
        return [m.snapshot() for m in self.state.messages.values()
                if (ephemeral or m.visible_to is None) and (deleted or not m.deleted)]

    def commands(self, guild: bool | None = None) -> list[dict[str, Any]]:
        """Registered commands: guild ones, global ones (False), or both (None)."""
        scopes: list[int | None] = (
            [self.state.guild.id] if guild else [None] if guild is False
            else [self.state.guild.id, None])
        return [dict(c) for s in scopes for c in self.state.commands.get(s, [])]

    # --- waiting -------------------------------------------------------------------------

    async def wait_for(
        self,
        predicate: Predicate,
        timeout: float = 10.0,
        *,
        message: str | Callable[[], str] | None = None,
    ) -> Any:
        """Until `predicate()` (sync or async) is truthy; returns its value.

        Re-checked on every change the server records, and at least every 50 ms.
        """
        deadline = time.monotonic() + timeout
        while True:
            value = predicate()
            if inspect.isawaitable(value):
                value = await value
            if value:
                return value
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                text = message() if callable(message) else message
                raise TimeoutError(text or f"condition not met within {timeout} s")
            await self.state.changed(min(remaining, 0.05))

    # --- faults, time and the gateway ----------------------------------------------------

    def fail_next(
        self, method: str, path_regex: str, status: int, count: int = 1, **options: Any
    ) -> None:
        """Answer the next matching REST calls with `status`; see LoopbackServer.fail_next."""
        self.server.fail_next(method, path_regex, status, count, **options)

    async def close_gateway(self, code: int = 4000, *, invalidate: bool = False) -> None:
        """Drop the bot's gateway connection; it resumes unless `invalidate` (or a fatal code)."""
        await self.gateway.close(code, invalidate=invalidate)

    async def request_reconnect(self) -> None:
        await self.gateway.reconnect()

    async def invalidate_session(self, *, resumable: bool = False) -> None:
        await self.gateway.invalidate(resumable=resumable)

    @property
    def rate_limits(self) -> RateLimits:
        return self.server.limiter.config

    def set_rate_limits(self, rate_limits: RateLimits | bool) -> None:
        """Change the limits while running (current windows start afresh)."""
        self.server.limiter.configure(RateLimits.coerce(rate_limits))

    @property
    def stats(self) -> RequestStats:
        """Requests by route kind and the 429s the rate limits answered, since the start."""
        return self.server.limiter.stats

    def advance_time(self, seconds: float) -> None:
        """Move the server's clock (interaction deadlines, token expiry, timestamps)."""
        self.clock.advance(seconds)

    # --- records -------------------------------------------------------------------------

    def errors(self, *, injected: bool = False) -> list[ErrorRecord]:
        """Error answers given to the bot; those a test injected only with `injected=True`."""
        return [e for e in self.state.errors if injected or not e.injected]

    @property
    def requests(self) -> list[RequestRecord]:
        return list(self.state.requests)

    def rejected(self) -> list[ErrorRecord]:
        """Requests Discord would refuse as malformed (400: invalid form body, empty message,
        bad JSON), whatever the bot did about them; injected faults are not among them."""
        return [e for e in self.state.errors
                if not e.injected and e.status == 400 and e.code in REJECTION_CODES]

    def assert_no_rejected(self) -> None:
        """Fail, showing each refused body and Discord's reasons, if any request was refused."""
        bad = self.rejected()
        if bad:
            lines = "\n".join(describe_rejection(e) for e in bad[:10])
            raise AssertionError(
                f"Discord would have refused {len(bad)} request(s) the bot sent:\n{lines}")

    def assert_no_errors(self, *allowed_codes: int) -> None:
        """Fail if the bot got an error answer it should not have provoked."""
        bad = [e for e in self.errors() if e.code not in allowed_codes]
        if bad:
            lines = "\n".join(f"  {e.method} {e.path} -> {e.status} {e.code} {e.message}"
                              for e in bad)
            raise AssertionError(f"the bot received {len(bad)} error answer(s):\n{lines}")

    async def watch(self, *, since_start: bool = False) -> AsyncIterator[tuple[str, Message]]:
        """Yield ("created" | "edited" | "deleted", message copy) as they happen, forever.

        For the sandbox (print what the bot does) and for tests that follow a conversation;
        with `since_start`, earlier changes come first.
        """
        cursor = 0 if since_start else len(self.state.feed)
        while True:
            while cursor < len(self.state.feed):
                change, message_id = self.state.feed[cursor]
                cursor += 1
                yield change, self.state.messages[message_id].snapshot()
            await self.state.changed(1.0)

    def interactions(self) -> list[InteractionResult]:
        return [InteractionResult(self, i) for i in self.state.interactions]

    # --- interactions (used by the handles) ----------------------------------------------

    async def _interact(
        self,
        kind: str,
        user: User,
        channel: Channel,
        type_: int,
        data: dict[str, Any],
        *,
        message_id: int | None,
        timeout: float | None,
        check: bool,
    ) -> InteractionResult:
        if self.gateway.session_for(channel.guild_id) is None:
            raise BotNotConnected("no bot session has identified on the loopback gateway")
        interaction = Interaction(
            id=self.state.ids.next(), token=f"loopback-{secrets.token_urlsafe(32)}", type=type_,
            user_id=user.id, channel_id=channel.id, guild_id=channel.guild_id, data=data,
            created_at=self.clock.time(), message_id=message_id,
        )
        self.state.interactions[interaction.id] = interaction
        self.state.interaction_tokens[interaction.token] = interaction
        self.gateway.dispatch("INTERACTION_CREATE", interaction_payload(self.state, interaction),
                              channel.guild_id, 0)
        interaction.dispatched_at = self.clock.time()
        self.state.notify()
        result = InteractionResult(self, interaction.id, kind)
        wait = self.ack_timeout if timeout is None else timeout
        await self._await_ack(interaction, wait)
        if check and not result.acked:
            why = ("answered after Discord's 3 s deadline" if result.late
                   else "not acknowledged in time")
            if result.errors:
                why += "; errors: " + "; ".join(f"{e.status} {e.code} {e.message}"
                                                for e in result.errors)
            if not self.gateway.connected:
                why += " (the bot is not connected to the gateway)"
            raise InteractionFailed(f"{kind} by {user.name}: {why}", result)
        return result

    async def _await_ack(self, interaction: Interaction, timeout: float) -> None:
        """Until the callback arrives, or Discord would already show "interaction failed"
        (3 s on the server clock, plus a moment to see a late answer), or `timeout`."""
        give_up = time.monotonic() + timeout
        while not interaction.settled.is_set():
            age = self.clock.time() - interaction.created_at
            left = give_up - time.monotonic()
            if age > ACK_DEADLINE + LATE_ANSWER_GRACE or left <= 0:
                return
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(interaction.settled.wait(), min(left, 0.05))

    def _resolve_channel(self, user: User, where: Any) -> Channel:
        if isinstance(where, ChannelHandle):
            return self.state.channels[where.id]
        if isinstance(where, Channel):
            return where
        if where == "dm" or (isinstance(where, UserHandle) and where.id == user.id):
            return self.state.dm_channel(user)
        channel = self.state.channel_by_name(str(where))
        if channel is None:
            raise KeyError(f"no channel called {where!r}")
        return channel

    def _visible(self, user: User, channel: Channel | None = None) -> list[Message]:
        """Messages `user` can see, newest first: public ones, their DMs, their ephemerals."""
        dm = self.state.dm_channels.get(user.id)
        found = []
        for message in self.state.messages.values():
            if message.deleted or (channel is not None and message.channel_id != channel.id):
                continue
            where = self.state.channels[message.channel_id]
            if message.visible_to == user.id or (
                message.visible_to is None and (not where.is_dm or where.id == dm)
            ):
                found.append(message)
        return sorted(found, key=lambda m: m.id, reverse=True)
