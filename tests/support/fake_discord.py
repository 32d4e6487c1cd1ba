"""An in-process Discord for the adapter's fast tests (issue 24, "Tests by layer").

The end-to-end tests (tests/e2e/) run the whole bot against the loopback Discord, at Discord's
pace: right, but seconds a step. This is what the adapter (`bot.discord`) touches of discord.py,
and nothing more, kept in memory: a client (`FakeClient`, what the sender's `Delivery` calls:
`get_partial_messageable`, `create_dm`), guild and DM channels (`FakeChannel`) holding the
messages they were sent and what edits made of them (`FakeMessage`), messages reached by id
for edits (`FakePartialMessage`), and interactions (`FakeInteraction`: its response, followups
and original response), so that the sender and the presenter are driven for real, in
milliseconds.

It checks what Discord would get rather than what the adapter meant: every message and edit
is built into its payload by discord.py's own `handle_message_parameters` (views by their
`to_components`, embeds by `to_dict`, `allowed_mentions` merged with the client's default as
discord.py merges them, files as uploaded, the nonce with `enforce_nonce`), and Discord's
rules that the adapter relies on hold here too: a nonce already used hands back its message
instead of a copy; an interaction is acknowledged once (discord.py's `InteractionResponded`
before the request, Discord's 40060 after); the first followup of a deferral that is
"thinking" fills its placeholder; an ephemeral message is out of the channel's reach; a DM to
someone whose DMs are closed is refused; a message over 2,000 characters, or empty, is refused.

Every request is recorded in order (`FakeClient.requests`) with its bucket, so that a test
counts what a step costs, and where: a channel's (the bot token's, under the global limit)
or an interaction's own webhook. `fail_next` and `hold_next` make the next matching request
fail (before Discord acted on it, or after, its answer lost) or wait for the test.

The fakes stand where discord.py's classes are expected: `FakeClient.as_bot()` and
`FakeInteraction.as_interaction()` give them under the types the adapter's signatures name
(they have only what the adapter uses: anything else is an AttributeError, which says what
the adapter started to need).
"""

from __future__ import annotations

import asyncio
import itertools
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any, TypeVar, cast

import discord
from discord import app_commands
from discord.ext import commands
from discord.http import handle_message_parameters
from discord.utils import MISSING

T = TypeVar("T")
MAX_CONTENT = 2000  # Discord's limit of a message's text
EPHEMERAL = 64  # the ephemeral message flag
UNKNOWN_MESSAGE = (404, 10008, "Unknown Message")

#: A request's kinds: the bot's own requests...
BOT_KINDS = ("send", "edit", "delete", "fetch", "open_dm")
#: ...and an interaction's, through its webhook.
INTERACTION_KINDS = ("defer", "respond", "update", "modal", "followup", "edit_original",
                     "delete_original")


def known(kind: str) -> str:
    """`kind`, if it is a request's kind (a misspelt one would match nothing, silently)."""
    if kind not in (*BOT_KINDS, *INTERACTION_KINDS):
        raise ValueError(f"no request is of kind {kind!r}")
    return kind


@dataclass(frozen=True)
class Request:
    """One request the adapter made of Discord, in the order made (refused ones too: they
    cost a request all the same)."""

    kind: str  # one of BOT_KINDS or INTERACTION_KINDS
    bucket: str  # "channel:<id>", "interaction:<id>" (its own webhook), or "dm:open"
    message_id: int | None = None
    payload: dict[str, Any] = field(default_factory=dict)  # as discord.py sends it

    @property
    def content(self) -> str | None:
        content = self.payload.get("content")
        return None if content is None else str(content)

    @property
    def ephemeral(self) -> bool:
        return bool(int(self.payload.get("flags") or 0) & EPHEMERAL)


@dataclass(frozen=True)
class FakeUser:
    """A person (what the adapter reads of `interaction.user`)."""

    id: int
    name: str = "Someone"

    @property
    def display_name(self) -> str:
        return self.name

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"


class _Answer:
    """What Discord answers an HTTP request with, as discord.py's exceptions read it."""

    def __init__(self, status: int, reason: str) -> None:
        self.status, self.reason = status, reason


def discord_error(status: int, code: int, text: str) -> discord.HTTPException:
    """The exception discord.py raises for Discord's error answer (404: NotFound, ...)."""
    kind: type[discord.HTTPException] = {
        403: discord.Forbidden, 404: discord.NotFound,
    }.get(status, discord.DiscordServerError if status >= 500 else discord.HTTPException)
    return kind(cast(Any, _Answer(status, "error")), {"code": code, "message": text})


async def waited(event: asyncio.Event, what: str, give_up: float = 60.0) -> None:
    """Wait for `event`; a test gives up after `give_up` seconds (failing: what it waited for
    never came), rather than hanging when the bot no longer does it."""
    try:
        await asyncio.wait_for(event.wait(), give_up)
    except TimeoutError:
        raise AssertionError(f"{what} never came") from None


class Hold:
    """A request held by `FakeClient.hold_next`: Discord has done it (`reached` is set), and
    its answer waits for `release`."""

    def __init__(self) -> None:
        self.reached = asyncio.Event()
        self._released = asyncio.Event()

    async def arrived(self) -> None:
        """Until Discord has the held request."""
        await waited(self.reached, "the held request")

    def release(self) -> None:
        self._released.set()

    async def wait(self) -> None:
        await self._released.wait()


@dataclass
class _Fault:
    kind: str
    bucket: str | None
    error: BaseException | None = None
    after: bool = False
    hold: Hold | None = None

    def matches(self, request: Request) -> bool:
        return self.kind == request.kind and self.bucket in (None, request.bucket)


@dataclass(eq=False)
class FakeMessage:
    """A message as Discord holds it now: made by a send, changed by every edit."""

    id: int
    channel: FakeChannel
    content: str | None = None
    embeds: list[dict[str, Any]] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    files: list[tuple[str, bytes]] = field(default_factory=list)  # (filename, data)
    allowed_mentions: dict[str, Any] | None = None
    nonce: str | None = None
    flags: discord.MessageFlags = field(default_factory=discord.MessageFlags)
    edits: int = 0
    deleted: bool = False

    def apply(self, payload: dict[str, Any], files: list[tuple[str, bytes]]) -> None:
        """An edit: what it names replaces what was (Discord's PATCH); attachments listed
        are the ones kept, here the files it uploads."""
        for key in ("content", "embeds", "components", "allowed_mentions"):
            if key in payload:
                setattr(self, key, payload[key])
        if "attachments" in payload:
            self.files = files

    @property
    def items(self) -> list[dict[str, Any]]:
        """Its buttons and menus, row by row."""
        return [item for row in self.components for item in row.get("components", [])]

    @property
    def labels(self) -> list[str]:
        """Its buttons' labels (a menu's placeholder)."""
        return [str(item.get("label") or item.get("placeholder") or "") for item in self.items]

    def item(self, label: str) -> dict[str, Any]:
        """The button or menu of this label (or custom_id)."""
        for found in self.items:
            if label in (found.get("label"), found.get("placeholder"), found.get("custom_id")):
                return found
        raise LookupError(f"no component {label!r} on message {self.id}: {self.labels}")


class FakePartialMessage:
    """A message reached by its channel and id, as `channel.get_partial_message` gives it:
    edited and deleted without being fetched first."""

    def __init__(self, channel: FakeChannel, message_id: int) -> None:
        self.channel, self.id = channel, message_id

    async def fetch(self) -> FakeMessage:
        return await self.channel.fetch_message(self.id)

    async def edit(self, *, content: str | None = MISSING,
                   embed: discord.Embed | None = MISSING,
                   embeds: Sequence[discord.Embed] = MISSING,
                   attachments: Sequence[discord.File] = MISSING,
                   view: discord.ui.View | None = MISSING,
                   allowed_mentions: discord.AllowedMentions | None = MISSING) -> FakeMessage:
        client = self.channel.client
        payload, files = client.payload(content=content, embed=embed, embeds=embeds,
                                        attachments=attachments, view=view,
                                        allowed_mentions=allowed_mentions)

        def effect() -> FakeMessage:
            message = self.channel.reachable(self.id)
            check_content(payload.get("content", message.content))
            message.apply(payload, files)
            message.edits += 1
            return message

        return await client.request(Request("edit", self.channel.bucket, self.id, payload),
                                    effect)

    async def delete(self) -> None:
        def effect() -> None:
            self.channel.reachable(self.id).deleted = True

        await self.channel.client.request(Request("delete", self.channel.bucket, self.id),
                                          effect)


class FakeChannel:
    """A guild text channel, or a person's DM channel (`recipient`): what it was sent, in
    order (`messages`, ephemeral answers and deleted messages included, flagged)."""

    def __init__(self, client: FakeClient, channel_id: int, *, guild_id: int | None = None,
                 recipient: int | None = None, exists: bool = True) -> None:
        self.client, self.id = client, channel_id
        self.guild_id, self.recipient, self.exists = guild_id, recipient, exists
        self.messages: list[FakeMessage] = []
        self._nonces: dict[str, FakeMessage] = {}

    @property
    def bucket(self) -> str:
        return f"channel:{self.id}"

    @property
    def shown(self) -> list[FakeMessage]:
        """What everyone in it sees: its messages neither deleted nor ephemeral."""
        return [message for message in self.messages
                if not message.deleted and not message.flags.ephemeral]

    async def send(self, content: str | None = None, *,
                   embed: discord.Embed | None = None,
                   embeds: Sequence[discord.Embed] | None = None,
                   file: discord.File | None = None,
                   files: Sequence[discord.File] | None = None,
                   nonce: str | int | None = None,
                   allowed_mentions: discord.AllowedMentions | None = None,
                   view: discord.ui.View | None = None) -> FakeMessage:
        """`Messageable.send`, with the parameters the adapter uses."""
        payload, uploaded = self.client.payload(
            content=content, embed=MISSING if embed is None else embed,
            embeds=MISSING if embeds is None else embeds,
            file=MISSING if file is None else file, files=MISSING if files is None else files,
            nonce=nonce, allowed_mentions=allowed_mentions,
            view=MISSING if view is None else view)

        def effect() -> FakeMessage:
            if not self.exists:
                raise discord_error(404, 10003, "Unknown Channel")
            if self.recipient is not None and self.recipient in self.client.closed_dms:
                raise discord_error(403, 50007, "Cannot send messages to this user")
            key = payload.get("nonce") if payload.get("enforce_nonce") else None
            if key is not None and key in self._nonces:
                made = self._nonces[key]
                if made.deleted:
                    raise discord_error(404, 10008, "Unknown Message")
                return made  # Discord hands back what it made for this nonce
            if not (payload.get("content") or payload.get("embeds") or uploaded):
                raise discord_error(400, 50006, "Cannot send an empty message")
            check_content(payload.get("content"))
            message = self.add(payload, uploaded)
            if key is not None:
                self._nonces[key] = message
            return message

        return await self.client.request(Request("send", self.bucket, None, payload), effect)

    def add(self, payload: dict[str, Any], files: list[tuple[str, bytes]], *,
            flags: discord.MessageFlags | None = None) -> FakeMessage:
        """A message made here (by a send, or an interaction's answer)."""
        message = FakeMessage(self.client.snowflake(), self, flags=flags or discord.MessageFlags())
        message.apply({"content": None, "embeds": [], "components": [], **payload}, files)
        message.nonce = payload.get("nonce")
        self.messages.append(message)
        return message

    def get_partial_message(self, message_id: int) -> FakePartialMessage:
        return FakePartialMessage(self, message_id)

    async def fetch_message(self, message_id: int) -> FakeMessage:
        return await self.client.request(Request("fetch", self.bucket, message_id),
                                         lambda: self.reachable(message_id))

    def reachable(self, message_id: int) -> FakeMessage:
        """A message the bot token can reach here: not deleted, not ephemeral (only the
        interaction that made an ephemeral message can edit it)."""
        for message in self.messages:
            if message.id == message_id and not message.deleted and not message.flags.ephemeral:
                return message
        raise discord_error(*UNKNOWN_MESSAGE)


def check_content(content: str | None) -> None:
    if content is not None and len(content) > MAX_CONTENT:
        raise discord_error(400, 50035, "Invalid Form Body: content: Must be 2000 or fewer "
                                        "in length.")


@dataclass(frozen=True)
class Callback:
    """What `interaction.response.send_message` returns (an InteractionCallbackResponse)."""

    message_id: int | None


class FakeResponse:
    """`interaction.response`: the one acknowledgement an interaction gets. `type` is
    discord.py's record of it, set when Discord has answered; Discord's own, set when the
    request reached it, refuses a second (40060)."""

    def __init__(self, interaction: FakeInteraction) -> None:
        self._parent = interaction
        self.type: discord.InteractionResponseType | None = None
        self.acknowledged = asyncio.Event()  # set once the acknowledgement came back
        self._taken = False  # Discord's side

    def is_done(self) -> bool:
        return self.type is not None

    async def _respond(self, kind: str, answer: discord.InteractionResponseType,
                       payload: dict[str, Any], effect: Callable[[], T]) -> T:
        parent = self._parent
        if self.type is not None:
            raise discord.InteractionResponded(parent.as_interaction())

        def acknowledge() -> T:
            if parent.dropped:
                raise discord_error(404, 10062, "Unknown interaction")
            if self._taken:
                raise discord_error(400, 40060, "Interaction has already been acknowledged.")
            self._taken = True
            return effect()

        result = await parent.client.request(Request(kind, parent.bucket, None, payload),
                                             acknowledge)
        self.type = answer
        self.acknowledged.set()
        return result

    async def defer(self, *, ephemeral: bool = False, thinking: bool = False) -> None:
        """A click deferred as an update (the clicked message stays, loading), or with
        `thinking` and for a command, a "thinking…" placeholder, ephemeral or not."""
        parent = self._parent
        if parent.type is discord.InteractionType.application_command or thinking:
            flags = discord.MessageFlags(ephemeral=ephemeral, loading=True)

            def placeholder() -> None:
                parent.original = parent.channel.add({}, [], flags=flags)
                parent.placeholder = True

            await self._respond("defer", discord.InteractionResponseType.deferred_channel_message,
                                {"flags": flags.value}, placeholder)
            return

        def update() -> None:
            parent.original = parent.message

        await self._respond("defer", discord.InteractionResponseType.deferred_message_update, {},
                            update)

    async def send_message(self, content: str | None = None, *,
                           embed: discord.Embed = MISSING,
                           embeds: Sequence[discord.Embed] = MISSING,
                           file: discord.File = MISSING,
                           files: Sequence[discord.File] = MISSING,
                           view: discord.ui.View = MISSING, ephemeral: bool = False,
                           allowed_mentions: discord.AllowedMentions = MISSING) -> Callback:
        flags = discord.MessageFlags(ephemeral=ephemeral)
        payload, uploaded = self._parent.client.payload(
            content=content, embed=embed, embeds=embeds, file=file, files=files, view=view,
            allowed_mentions=allowed_mentions, flags=flags)

        def made() -> Callback:
            if not (payload.get("content") or payload.get("embeds") or uploaded):
                raise discord_error(400, 50006, "Cannot send an empty message")
            check_content(payload.get("content"))
            self._parent.original = self._parent.channel.add(payload, uploaded, flags=flags)
            return Callback(self._parent.original.id)

        return await self._respond("respond", discord.InteractionResponseType.channel_message,
                                   payload, made)

    async def edit_message(self, *, content: str | None = MISSING,
                           embed: discord.Embed | None = MISSING,
                           embeds: Sequence[discord.Embed] = MISSING,
                           attachments: Sequence[discord.File] = MISSING,
                           view: discord.ui.View | None = MISSING,
                           allowed_mentions: discord.AllowedMentions | None = MISSING) -> None:
        """A click answered by changing the clicked message."""
        parent = self._parent
        if parent.type not in (discord.InteractionType.component,
                               discord.InteractionType.modal_submit):
            raise ValueError("only component and modal interactions may edit a message")
        payload, files = parent.client.payload(content=content, embed=embed, embeds=embeds,
                                               attachments=attachments, view=view,
                                               allowed_mentions=allowed_mentions)

        def edited() -> None:
            message = parent.message
            if message is None or message.deleted:
                raise discord_error(*UNKNOWN_MESSAGE)
            check_content(payload.get("content", message.content))
            message.apply(payload, files)
            message.edits += 1
            parent.original = message

        await self._respond("update", discord.InteractionResponseType.message_update, payload,
                            edited)

    async def send_modal(self, modal: discord.ui.Modal) -> None:
        if self._parent.type is discord.InteractionType.modal_submit:
            raise discord_error(400, 50035, "a modal cannot answer a modal")

        def shown() -> None:
            self._parent.modal = modal

        await self._respond("modal", discord.InteractionResponseType.modal,
                            modal.to_dict(), shown)


class FakeFollowup:
    """`interaction.followup`: messages after the acknowledgement, through the webhook."""

    def __init__(self, interaction: FakeInteraction) -> None:
        self._parent = interaction

    async def send(self, content: str | None = MISSING, *, embed: discord.Embed = MISSING,
                   embeds: Sequence[discord.Embed] = MISSING, file: discord.File = MISSING,
                   files: Sequence[discord.File] = MISSING, view: discord.ui.View = MISSING,
                   ephemeral: bool = False, allowed_mentions: discord.AllowedMentions = MISSING,
                   wait: bool = False) -> FakeMessage | None:
        """A followup; the message it made, with `wait` (else None, as discord.py)."""
        parent = self._parent
        flags = discord.MessageFlags(ephemeral=ephemeral)
        payload, uploaded = parent.client.payload(
            content=content, embed=embed, embeds=embeds, file=file, files=files, view=view,
            allowed_mentions=allowed_mentions, flags=flags)

        def made() -> FakeMessage:
            parent.check_token()
            if not parent.response._taken:
                raise discord_error(404, 10015, "Unknown Webhook")
            check_content(payload.get("content"))
            original = parent.original
            if parent.placeholder and original is not None and not original.deleted:
                # The first followup of a "thinking…" deferral fills its placeholder, which
                # keeps its own visibility whatever the followup asks.
                parent.placeholder = False
                original.apply(payload, uploaded)
                original.flags = discord.MessageFlags(ephemeral=original.flags.ephemeral)
                return original
            return parent.channel.add(payload, uploaded, flags=flags)

        message = await parent.client.request(
            Request("followup", parent.bucket, None, payload), made)
        return message if wait else None


class FakeInteraction:
    """A slash command or a click on a message's component (made by `FakeClient.command` and
    `FakeClient.click`), or any other kind made here directly (a modal's submission); what
    it was answered with is its requests (`requests`) and the messages they made or
    changed."""

    def __init__(self, client: FakeClient, kind: discord.InteractionType, channel: FakeChannel,
                 user: FakeUser, *, message: FakeMessage | None = None,
                 data: dict[str, Any] | None = None, age: float = 0.0,
                 locale: discord.Locale = discord.Locale.american_english,
                 command: app_commands.Command[Any, ..., Any] | None = None) -> None:
        self.client, self.type, self.channel, self.user = client, kind, channel, user
        self.id = client.snowflake()
        self.message, self.data, self.locale, self.command = message, data or {}, locale, command
        self.channel_id, self.guild_id = channel.id, channel.guild_id
        self.created_at: datetime = discord.utils.utcnow() - timedelta(seconds=age)
        self.permissions = discord.Permissions.none()
        self.extras: dict[str, Any] = {}
        self.response = FakeResponse(self)
        self.followup = FakeFollowup(self)
        self.original: FakeMessage | None = None  # the message `@original` names
        self.placeholder = False  # a "thinking…" placeholder not yet filled
        self.modal: discord.ui.Modal | None = None
        self.dropped = False  # Discord's 3 s ran out before it was acknowledged
        self.expired = False  # its token's 15 minutes are over

    def as_interaction(self) -> discord.Interaction[Any]:
        """This fake under the type the adapter's signatures name."""
        return cast("discord.Interaction[Any]", self)

    @property
    def bucket(self) -> str:
        return f"interaction:{self.id}"

    @property
    def requests(self) -> list[Request]:
        """What was asked of this interaction's webhook, in order."""
        return [request for request in self.client.requests if request.bucket == self.bucket]

    def drop(self) -> None:
        """Discord's 3 s ran out: its acknowledgement is refused (10062)."""
        self.dropped = True

    def expire(self) -> None:
        """Its token's 15 minutes are over: followups and edits through it are refused."""
        self.expired = True

    def check_token(self) -> None:
        if self.expired:
            raise discord_error(401, 50027, "Invalid Webhook Token")

    async def edit_original_response(self, *, content: str | None = MISSING,
                                     embeds: Sequence[discord.Embed] = MISSING,
                                     attachments: Sequence[discord.File] = MISSING,
                                     view: discord.ui.View | None = MISSING,
                                     allowed_mentions: discord.AllowedMentions | None = None,
                                     ) -> FakeMessage:
        payload, files = self.client.payload(content=content, embeds=embeds,
                                             attachments=attachments, view=view,
                                             allowed_mentions=allowed_mentions)

        def edited() -> FakeMessage:
            self.check_token()
            original = self.original
            if original is None or original.deleted:
                raise discord_error(*UNKNOWN_MESSAGE)
            check_content(payload.get("content", original.content))
            original.apply(payload, files)
            original.edits += 1
            if self.placeholder:
                self.placeholder = False
                original.flags = discord.MessageFlags(ephemeral=original.flags.ephemeral)
            return original

        return await self.client.request(
            Request("edit_original", self.bucket, self.original.id if self.original else None,
                    payload), edited)

    async def delete_original_response(self) -> None:
        def deleted() -> None:
            self.check_token()
            if self.original is None or self.original.deleted:
                raise discord_error(*UNKNOWN_MESSAGE)
            self.original.deleted = True
            self.placeholder = False

        await self.client.request(Request("delete_original", self.bucket), deleted)


class FakeClient:
    """The Discord the adapter sees: channels and DM channels with their messages, the
    interactions made on them, and every request, in order.

    `allowed_mentions` is the client's default, merged into every message's as discord.py
    merges it (the bot's: nobody). `add_dynamic_items` and `press` dispatch a click to the
    bot's buttons as discord.py does, from the component's custom_id."""

    def __init__(self, *, allowed_mentions: discord.AllowedMentions | None = None) -> None:
        self.allowed_mentions = allowed_mentions or discord.AllowedMentions.none()
        self.requests: list[Request] = []
        self.channels: dict[int, FakeChannel] = {}
        self.closed_dms: set[int] = set()
        self._dms: dict[int, FakeChannel] = {}
        self._ids = itertools.count(900_000_000_000_000_000)
        self._faults: list[_Fault] = []
        self._dynamic_items: list[type[discord.ui.DynamicItem[Any]]] = []

    def as_bot(self) -> commands.Bot:
        """This fake under the type the adapter's signatures name (`Sender`, `Delivery`)."""
        return cast(commands.Bot, self)

    def snowflake(self) -> int:
        return next(self._ids)

    # --- the world a test sets up ----------------------------------------------------------
    def text_channel(self, channel_id: int, guild_id: int) -> FakeChannel:
        """The guild channel of this id (made on first use)."""
        channel = self.channels.get(channel_id)
        if channel is None:
            channel = self.channels[channel_id] = FakeChannel(self, channel_id, guild_id=guild_id)
        return channel

    def dm_channel(self, user_id: int) -> FakeChannel:
        """This person's DM channel with the bot (made on first use, without a request)."""
        channel = self._dms.get(user_id)
        if channel is None:
            channel = FakeChannel(self, self.snowflake(), recipient=user_id)
            self._dms[user_id] = self.channels[channel.id] = channel
        return channel

    def close_dms(self, user_id: int) -> None:
        """This person takes no DMs from the bot (Discord's 50007)."""
        self.closed_dms.add(user_id)

    # --- what the adapter calls ------------------------------------------------------------
    def get_partial_messageable(self, channel_id: int, *, guild_id: int | None = None,
                                type: discord.ChannelType | None = None) -> FakeChannel:
        """A channel by id, unchecked: one Discord does not know refuses what is sent."""
        return self.channels.get(channel_id) or FakeChannel(self, channel_id, exists=False)

    async def create_dm(self, user: discord.abc.Snowflake) -> FakeChannel:
        def opened() -> FakeChannel:
            return self.dm_channel(user.id)

        return await self.request(Request("open_dm", "dm:open"), opened)

    # --- interactions ----------------------------------------------------------------------
    def command(self, channel: FakeChannel, user: FakeUser, *, name: str = "command",
                age: float = 0.0, locale: discord.Locale = discord.Locale.american_english,
                ) -> FakeInteraction:
        """A slash command used in `channel`, made by Discord `age` seconds ago."""

        async def callback(interaction: discord.Interaction) -> None:
            """The command's callback (never run here)."""

        named: app_commands.Command[Any, ..., None] = app_commands.Command(
            name=name, description=name, callback=callback)
        return FakeInteraction(self, discord.InteractionType.application_command, channel,
                               user, age=age, locale=locale, command=named,
                               data={"name": name, "type": 1})

    def click(self, message: FakeMessage, user: FakeUser, label: str, *,
              values: Sequence[str] = (), age: float = 0.0,
              locale: discord.Locale = discord.Locale.american_english) -> FakeInteraction:
        """A click on the component of this label (or custom_id) of `message` (a menu's
        `values` chosen); Discord sends none for a disabled one."""
        item = message.item(label)
        if item.get("disabled"):
            raise ValueError(f"{label!r} is disabled: Discord sends no click for it")
        data = {"custom_id": item["custom_id"], "component_type": item["type"],
                **({"values": list(values)} if item["type"] == 3 else {})}
        return FakeInteraction(self, discord.InteractionType.component, message.channel, user,
                               message=message, data=data, age=age, locale=locale)

    def add_dynamic_items(self, *items: type[discord.ui.DynamicItem[Any]]) -> None:
        """The buttons whose clicks `dispatch` runs (the bot's `add_dynamic_items`)."""
        self._dynamic_items.extend(items)

    async def press(self, message: FakeMessage, user: FakeUser, label: str, *,
                    values: Sequence[str] = (), age: float = 0.0,
                    locale: discord.Locale = discord.Locale.american_english) -> FakeInteraction:
        """`click`, then `dispatch`: the click as a person makes it and the bot answers it."""
        click = self.click(message, user, label, values=values, age=age, locale=locale)
        await self.dispatch(click)
        return click

    async def dispatch(self, click: FakeInteraction) -> None:
        """A click handed to the bot as discord.py hands it to a dynamic item: the first
        whose template matches the custom_id is built `from_custom_id`, checked, and its
        callback run (its exceptions reach the test rather than discord.py's log). A menu's
        values are in `interaction.data`, where the bot's menus read them."""
        interaction = click.as_interaction()
        custom_id = str(click.data["custom_id"])
        for factory in self._dynamic_items:
            match = factory.__discord_ui_compiled_template__.fullmatch(custom_id)
            if match is None:
                continue
            base: discord.ui.Item[Any] = (
                discord.ui.Select(custom_id=custom_id) if click.data["component_type"] == 3
                else discord.ui.Button(custom_id=custom_id))
            item = await factory.from_custom_id(interaction, base, match)
            if await item.interaction_check(interaction):
                await item.callback(interaction)
            return
        raise LookupError(f"no dynamic item takes {custom_id!r}")

    # --- faults and delays -----------------------------------------------------------------
    def fail_next(self, kind: str, error: BaseException, *, bucket: str | None = None,
                  after: bool = False) -> None:
        """The next request of `kind` (in `bucket`) raises `error`: before Discord acted on
        it, or `after` it did (the answer lost on the way: a reset connection)."""
        self._faults.append(_Fault(known(kind), bucket, error, after))

    def hold_next(self, kind: str, *, bucket: str | None = None) -> Hold:
        """The next request of `kind` (in `bucket`) is done by Discord, and its answer waits
        until the test releases it (a slow round trip, or a crash in the middle of one)."""
        hold = Hold()
        self._faults.append(_Fault(known(kind), bucket, hold=hold))
        return hold

    async def request(self, request: Request, effect: Callable[[], T]) -> T:
        """One request: recorded, then done by Discord (`effect`, which may refuse it), its
        answer held or lost as `fail_next`/`hold_next` asked."""
        self.requests.append(request)
        fault = next((fault for fault in self._faults if fault.matches(request)), None)
        if fault is not None:
            self._faults.remove(fault)
            if fault.error is not None and not fault.after:
                raise fault.error
        result = effect()
        if fault is not None and fault.hold is not None:
            fault.hold.reached.set()
            await fault.hold.wait()
        if fault is not None and fault.error is not None:
            raise fault.error
        return result

    def payload(self, **given: Any) -> tuple[dict[str, Any], list[tuple[str, bytes]]]:
        """What discord.py sends for these parameters (its own `handle_message_parameters`,
        the client's `allowed_mentions` merged in), and the files it uploads."""
        given = {key: value for key, value in given.items() if value is not MISSING}
        with handle_message_parameters(previous_allowed_mentions=self.allowed_mentions,
                                       **given) as made:
            if not made.multipart:
                return dict(made.payload or {}), []
            first, *uploads = made.multipart
            payload = json.loads(first["value"])
            return payload, [(str(part["filename"]), part["value"].read()) for part in uploads]

    # --- reading ---------------------------------------------------------------------------
    def since(self, mark: int) -> list[Request]:
        """The requests made since `mark` (`len(client.requests)` then): what a step cost."""
        return self.requests[mark:]

    def count(self, kind: str | None = None, *, bucket: str | None = None,
              since: int = 0) -> int:
        """How many requests (of `kind`, in `bucket`) were made since `since`."""
        if kind is not None:
            known(kind)
        return sum(1 for request in self.requests[since:]
                   if kind in (None, request.kind) and bucket in (None, request.bucket))
