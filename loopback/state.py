"""Everything the loopback Discord knows, and the record of everything the bot sent.

One object, owned by the server and read by the driver; REST handlers and the driver change
it through these methods so that validation, history and gateway events stay consistent.
"""

from __future__ import annotations

import asyncio
import contextlib
import mimetypes
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from loopback import errors, limits
from loopback.clock import Clock
from loopback.errors import DiscordError, FormErrors
from loopback.models import (
    DM,
    EPHEMERAL,
    LOADING,
    Attachment,
    Channel,
    ErrorRecord,
    Guild,
    Interaction,
    Message,
    MessageVersion,
    Modal,
    RequestRecord,
    Role,
    ScheduledEvent,
    User,
)
from loopback.payloads import (
    ATTACHMENT_SIZE_LIMIT,
    BOT_PERMISSIONS,
    EVERYONE_PERMISSIONS,
    guild_payload,
    member_payload,
    message_payload,
    thread_payload,
)
from loopback.snowflake import Snowflakes

GUILD_MEMBERS, GUILD_MESSAGES, DIRECT_MESSAGES, MESSAGE_CONTENT = 1 << 1, 1 << 9, 1 << 12, 1 << 15
GUILDS, GUILD_SCHEDULED_EVENTS = 1 << 0, 1 << 16
# Flags a bot may set on a message it sends; the rest are Discord's to set.
SETTABLE_FLAGS = (1 << 2) | (1 << 12) | (1 << 15)

Dispatch = Callable[[str, dict[str, Any], "int | None", int], object]


@dataclass
class UploadedFile:
    """One `files[n]` part of a multipart request."""

    index: int
    filename: str
    data: bytes
    content_type: str | None


class LoopbackState:
    def __init__(
        self,
        *,
        users: list[str],
        guild_name: str,
        channels: list[str],
        bot_name: str,
        token: str,
        clock: Clock,
    ) -> None:
        self.clock = clock
        self.ids = Snowflakes(clock)
        # (channel, author, nonce) -> message: `enforce_nonce` makes a second create with the
        # same nonce hand back the first message instead of posting a copy.
        self.nonces: dict[tuple[int, int, str], int] = {}
        self.token = token
        self.base_url = ""
        self.bot = User(self.ids.next(), bot_name, bot=True)
        self.application_id = self.bot.id
        self.users: dict[int, User] = {self.bot.id: self.bot}
        self.guilds: dict[int, Guild] = {}
        self.channels: dict[int, Channel] = {}
        self.dm_channels: dict[int, int] = {}
        self.messages: dict[int, Message] = {}
        # Each channel's newest message that everyone sees (deleted or not, as on Discord):
        # every interaction payload names it, and finding it among all messages cost the
        # harness a third of its time at 2,000 tables.
        self._last_message_ids: dict[int, int] = {}
        self.commands: dict[int | None, list[dict[str, Any]]] = {}
        self.commands_synced = 0
        self.interactions: dict[int, Interaction] = {}
        self.interaction_tokens: dict[str, Interaction] = {}  # webhook token -> its interaction
        self.modals: dict[int, Modal] = {}
        self.uploads: dict[int, Attachment] = {}
        self.scheduled_events: dict[int, ScheduledEvent] = {}
        self.errors: list[ErrorRecord] = []
        self.requests: list[RequestRecord] = []
        self.feed: list[tuple[str, int]] = []
        self.dispatch: Dispatch = lambda *_: None
        self._changed = asyncio.Event()
        owner = [self._new_user(name) for name in users]
        guild_id = self.ids.next()
        self.guild = Guild(
            guild_id, guild_name, owner[0].id if owner else self.bot.id,
            roles=[Role(guild_id, "@everyone", EVERYONE_PERMISSIONS),
                   Role(self.ids.next(), bot_name, BOT_PERMISSIONS, position=1)],
            member_ids=[self.bot.id, *(u.id for u in owner)],
            joined_at=clock.time(),
        )
        self.guilds[guild_id] = self.guild
        for name in channels:
            self.add_channel(name)
        #: What `GET /gateway/bot` recommends (the bot may set its own SHARD_COUNT).
        self.shard_count = 1

    # --- change notification -------------------------------------------------------------

    def notify(self) -> None:
        """Wake everything waiting in `changed()`; called after every recorded change."""
        self._changed.set()
        self._changed = asyncio.Event()

    async def changed(self, timeout: float) -> None:
        """Wait until something changes, or `timeout` seconds pass."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._changed.wait(), timeout)

    # --- users, channels -----------------------------------------------------------------

    def _new_user(self, name: str) -> User:
        if self.user_by_name(name) is not None:
            raise ValueError(f"there is already a user called {name!r}")
        user = User(self.ids.next(), name)
        self.users[user.id] = user
        return user

    def add_user(self, name: str) -> User:
        """A new member joins the guild (GUILD_MEMBER_ADD reaches a connected bot)."""
        user = self._new_user(name)
        self.guild.member_ids.append(user.id)
        payload = member_payload(self.guild, user) | {"guild_id": str(self.guild.id)}
        self.dispatch("GUILD_MEMBER_ADD", payload, self.guild.id, GUILD_MEMBERS)
        self.notify()
        return user

    def add_channel(self, name: str, guild: Guild | None = None) -> Channel:
        """A text channel of `guild` (the first guild by default); names are unique across
        guilds, so that a test can name a channel alone."""
        if self.channel_by_name(name) is not None:
            raise ValueError(f"there is already a channel called #{name}")
        guild = guild or self.guild
        channel = Channel(self.ids.next(), name, guild_id=guild.id,
                          position=len(guild.channel_ids))
        self.channels[channel.id] = channel
        guild.channel_ids.append(channel.id)
        return channel

    def add_guild(self, name: str, channels: list[str], *,
                  shard: tuple[int, int] | None = None) -> Guild:
        """Another guild with every user in it (the first one its owner) and these channels;
        `shard` (index, count): an id Discord would send to that shard. A connected bot whose
        shards cover it gets its GUILD_CREATE."""
        guild_id = self.ids.next_in_shard(*shard) if shard else self.ids.next()
        people = [u.id for u in self.users.values() if not u.bot]
        guild = Guild(
            guild_id, name, people[0] if people else self.bot.id,
            roles=[Role(guild_id, "@everyone", EVERYONE_PERMISSIONS),
                   Role(self.ids.next(), self.bot.name, BOT_PERMISSIONS, position=1)],
            member_ids=[self.bot.id, *people],
            joined_at=self.clock.time(),
        )
        self.guilds[guild_id] = guild
        for channel in channels:
            self.add_channel(channel, guild)
        self.dispatch("GUILD_CREATE", guild_payload(self, guild), guild_id, 0)
        self.notify()
        return guild

    def user_by_name(self, name: str) -> User | None:
        return next((u for u in self.users.values() if u.name == name), None)

    def channel_by_name(self, name: str) -> Channel | None:
        name = name.removeprefix("#")
        return next((c for c in self.channels.values() if c.name == name and not c.is_dm), None)

    def dm_channel(self, user: User) -> Channel:
        """The bot's DM channel with `user`; Discord keeps one per pair, so do we."""
        if user.id not in self.dm_channels:
            channel = Channel(self.ids.next(), f"dm-{user.name}", type=DM, recipient_id=user.id)
            self.channels[channel.id] = channel
            self.dm_channels[user.id] = channel.id
        return self.channels[self.dm_channels[user.id]]

    def channel(self, channel_id: int) -> Channel:
        try:
            return self.channels[channel_id]
        except KeyError:
            raise errors.unknown("Channel") from None

    def message(self, channel_id: int, message_id: int) -> Message:
        message = self.messages.get(message_id)
        if message is None or message.deleted or message.channel_id != channel_id:
            raise errors.unknown("Message")
        return message

    def last_message_id(self, channel_id: int) -> int | None:
        return self._last_message_ids.get(channel_id)

    def _add_message(self, message: Message) -> None:
        self.messages[message.id] = message
        if message.visible_to is None:
            self._last_message_ids[message.channel_id] = message.id

    # --- messages ------------------------------------------------------------------------

    def create_message(
        self,
        channel: Channel,
        payload: dict[str, Any],
        files: list[UploadedFile],
        *,
        author: User | None = None,
        interaction: Interaction | None = None,
        flags: int | None = None,
    ) -> Message:
        """Validate and record a new message; a public one also reaches the gateway."""
        author = author or self.bot
        check_payload(payload)
        nonce = payload.get("nonce") if payload.get("enforce_nonce") else None
        seen = self.nonces
        if nonce is not None and (channel.id, author.id, str(nonce)) in seen:
            # Discord hands back the message it already made for this nonce, and posts none.
            return self.messages[seen[(channel.id, author.id, str(nonce))]]
        attachments = self._attachments(payload, files, [])
        if flags is None:
            flags = (payload.get("flags") or 0) & SETTABLE_FLAGS
        if interaction is not None:
            flags |= (payload.get("flags") or 0) & EPHEMERAL
        empty = not (payload.get("content") or payload.get("embeds") or payload.get("components")
                     or attachments or payload.get("sticker_ids") or payload.get("poll"))
        if empty and not flags & LOADING:
            raise errors.empty_message()
        if channel.is_dm and author.bot:
            recipient = self.users[channel.recipient_id]  # type: ignore[index]
            if not recipient.dms_open and interaction is None:
                raise errors.cannot_dm()
        if channel.is_thread and channel.archived:
            self._unarchive(channel, author)
        message = Message(
            id=self.ids.next(),
            channel_id=channel.id,
            author_id=author.id,
            content=payload.get("content") or "",
            embeds=payload.get("embeds") or [],
            components=payload.get("components") or [],
            attachments=attachments,
            flags=flags,
            created_at=self.clock.time(),
            guild_id=channel.guild_id,
            visible_to=interaction.user_id if interaction and flags & EPHEMERAL else None,
            interaction_id=interaction.id if interaction else None,
            webhook_id=self.application_id if interaction else None,
            type=(20 if interaction.type == 2 else 0) if interaction else 0,
        )
        reference = payload.get("message_reference") or {}
        if reference.get("message_id") and not interaction:
            message.reply_to = int(reference["message_id"])
            message.type = 19
        self._add_message(message)
        if nonce is not None:
            seen[(channel.id, author.id, str(nonce))] = message.id
        self._announce("MESSAGE_CREATE", message)
        self.feed.append(("created", message.id))
        self.notify()
        return message

    def edit_message(
        self, message: Message, payload: dict[str, Any], files: list[UploadedFile]
    ) -> Message:
        """Apply a PATCH (absent keys keep their value), keeping the old version in history."""
        merged = {"flags": message.flags, **payload}
        check_payload(merged)
        keep = message.attachments
        if "attachments" in payload:
            wanted = {str(a.get("id")) for a in payload["attachments"] or []}
            keep = [a for a in message.attachments if str(a.id) in wanted]
        attachments = keep + self._attachments(payload, files, keep)
        content = payload["content"] or "" if "content" in payload else message.content
        embeds = payload["embeds"] or [] if "embeds" in payload else message.embeds
        parts = payload["components"] or [] if "components" in payload else message.components
        if not (content or embeds or parts or attachments):
            raise errors.empty_message()
        message.history.append(MessageVersion(
            message.content, message.embeds, message.components, message.attachments,
            message.flags, message.edited_at or message.created_at,
        ))
        message.content, message.embeds, message.components = content, embeds, parts
        if payload.get("flags") is not None:
            message.flags = (message.flags & ~SETTABLE_FLAGS) | (payload["flags"] & SETTABLE_FLAGS)
        message.flags &= ~LOADING
        message.attachments = attachments
        message.edited_at = self.clock.time()
        self._announce("MESSAGE_UPDATE", message)
        self.feed.append(("edited", message.id))
        self.notify()
        return message

    def delete_message(self, message: Message) -> None:
        message.deleted = True
        if message.visible_to is None:
            payload = {"id": str(message.id), "channel_id": str(message.channel_id)}
            if message.guild_id is not None:
                payload["guild_id"] = str(message.guild_id)
            self.dispatch("MESSAGE_DELETE", payload, message.guild_id, self._intent(message))
        self.feed.append(("deleted", message.id))
        self.notify()

    def user_message(self, user: User, channel: Channel, content: str) -> Message:
        """A test user types in a channel; the bot sees the content only with the intent."""
        message = Message(
            id=self.ids.next(), channel_id=channel.id, author_id=user.id, content=content,
            created_at=self.clock.time(), guild_id=channel.guild_id,
        )
        self._add_message(message)
        self._announce("MESSAGE_CREATE", message)
        self.feed.append(("created", message.id))
        self.notify()
        return message

    def _unarchive(self, thread: Channel, author: User) -> None:
        """A message sent in an archived thread brings it back, as on Discord; a locked one
        takes messages only from those who may manage threads (the bot here, not its users)."""
        if thread.locked and not author.bot:
            raise DiscordError(400, 50083, "Thread is archived")
        thread.archived = False
        thread.archive_timestamp = self.clock.time()
        self.dispatch("THREAD_UPDATE", thread_payload(self, thread), thread.guild_id, GUILDS)

    def _intent(self, message: Message) -> int:
        return GUILD_MESSAGES if message.guild_id is not None else DIRECT_MESSAGES

    def _announce(self, event: str, message: Message) -> None:
        if message.visible_to is None:
            self.dispatch(event, message_payload(self, message), message.guild_id,
                          self._intent(message))

    def _attachments(
        self, payload: dict[str, Any], files: list[UploadedFile], kept: list[Attachment]
    ) -> list[Attachment]:
        """New attachments: the payload names each `files[n]` by `id: n`, or lists nothing."""
        described = {str(a.get("id")): a for a in payload.get("attachments") or []}
        kept_ids = {str(a.id) for a in kept}
        made = []
        for upload in files:
            if len(upload.data) > ATTACHMENT_SIZE_LIMIT:
                raise errors.too_large()
            meta = described.get(str(upload.index), {}) if str(upload.index) not in kept_ids else {}
            filename = meta.get("filename") or upload.filename
            attachment = Attachment(
                id=self.ids.next(),
                filename=filename,
                data=upload.data,
                content_type=mimetypes.guess_type(filename)[0] or upload.content_type,
                description=meta.get("description"),
            )
            attachment.url = f"{self.base_url}/attachments/{attachment.id}/{filename}"
            made.append(attachment)
        return made

    def upload(self, filename: str, data: bytes) -> Attachment:
        """A file a test user attaches to a slash command option."""
        attachment = Attachment(self.ids.next(), filename, data,
                                mimetypes.guess_type(filename)[0] or "application/octet-stream")
        attachment.url = f"{self.base_url}/attachments/{attachment.id}/{filename}"
        self.uploads[attachment.id] = attachment
        return attachment

    def find_attachment(self, attachment_id: int) -> Attachment | None:
        if attachment_id in self.uploads:
            return self.uploads[attachment_id]
        for message in self.messages.values():
            for attachment in message.attachments:
                if attachment.id == attachment_id:
                    return attachment
        return None

    # --- application commands ------------------------------------------------------------

    def overwrite_commands(self, guild_id: int | None, commands: list[dict[str, Any]]
                           ) -> list[dict[str, Any]]:
        """Bulk overwrite as Discord does it: same name and type keep their id."""
        form = FormErrors()
        limits.check_commands(commands, form)
        form.raise_if_any()
        old = {(c["name"], c.get("type", 1)): c for c in self.commands.get(guild_id, [])}
        stored = []
        for command in commands:
            previous = old.get((command["name"], command.get("type", 1)))
            stored.append(self._stored_command(guild_id, command, previous))
        self.commands[guild_id] = stored
        self.commands_synced += 1
        self.notify()
        return stored

    def upsert_command(self, guild_id: int | None, command: dict[str, Any]) -> dict[str, Any]:
        rest = [c for c in self.commands.get(guild_id, [])
                if (c["name"], c.get("type", 1)) != (command["name"], command.get("type", 1))]
        previous = next((c for c in self.commands.get(guild_id, [])
                         if c["name"] == command["name"]), None)
        form = FormErrors()
        limits.check_commands([*rest, command], form)
        form.raise_if_any()
        stored = self._stored_command(guild_id, command, previous)
        self.commands[guild_id] = [*rest, stored]
        self.commands_synced += 1
        self.notify()
        return stored

    def _stored_command(
        self, guild_id: int | None, command: dict[str, Any], previous: dict[str, Any] | None
    ) -> dict[str, Any]:
        stored = {
            "type": 1,
            "description": "",
            "options": [],
            "default_member_permissions": None,
            "nsfw": False,
            **command,
            "id": previous["id"] if previous else str(self.ids.next()),
            "application_id": str(self.application_id),
            "version": str(self.ids.next()),
        }
        if guild_id is not None:
            stored["guild_id"] = str(guild_id)
        return stored

    # --- records -------------------------------------------------------------------------

    def record_error(
        self, method: str, path: str, error: DiscordError, *, injected: bool = False
    ) -> ErrorRecord:
        record = ErrorRecord(method, path, error.status, error.code, error.message,
                             self.clock.time(), injected, error.errors)
        self.errors.append(record)
        self.notify()
        return record


def check_payload(payload: dict[str, Any]) -> None:
    form = FormErrors()
    limits.check_message(payload, form)
    form.raise_if_any()
