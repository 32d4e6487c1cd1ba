"""JSON payloads in the shapes discord.py parses (ids as strings, ISO timestamps).

Every function returns a fresh dict, so nothing the client or a test does to a payload can
change the loopback's own records. What a payload reads of those records is `Records`, which
loopback.state's LoopbackState is: the state builds payloads as it records (a new message is
announced to the gateway), so this module must not import it.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any, Protocol

from loopback.models import (
    Attachment,
    Channel,
    Guild,
    Interaction,
    Message,
    Role,
    ScheduledEvent,
    User,
)

VIEW_CHANNEL, SEND_MESSAGES, EMBED_LINKS, ATTACH_FILES = 1 << 10, 1 << 11, 1 << 14, 1 << 15
EVERYONE_PERMISSIONS = (
    (1 << 6) | VIEW_CHANNEL | SEND_MESSAGES | EMBED_LINKS | ATTACH_FILES | (1 << 16) | (1 << 18)
    | (1 << 31) | (1 << 35) | (1 << 38)
)
# The bot's role adds Manage Messages, Mention Everyone, Manage Threads, Send Messages in
# Threads and Create Events (its tournaments' scheduled events).
BOT_PERMISSIONS = EVERYONE_PERMISSIONS | (1 << 13) | (1 << 17) | (1 << 34) | (1 << 36) | (1 << 44)
ALL_PERMISSIONS = (1 << 51) - 1
ATTACHMENT_SIZE_LIMIT = 10 * 1024 * 1024
_MENTION = re.compile(r"<@!?(\d+)>")


class Records(Protocol):
    """The loopback's records as a payload reads them (loopback.state.LoopbackState)."""

    @property
    def users(self) -> Mapping[int, User]: ...

    @property
    def channels(self) -> Mapping[int, Channel]: ...

    @property
    def guilds(self) -> Mapping[int, Guild]: ...

    @property
    def interactions(self) -> Mapping[int, Interaction]: ...

    @property
    def scheduled_events(self) -> Mapping[int, ScheduledEvent]: ...

    @property
    def messages(self) -> Mapping[int, Message]: ...

    def last_message_id(self, channel_id: int) -> int | None: ...


def iso(timestamp: float | None) -> str | None:
    if timestamp is None:
        return None
    return datetime.fromtimestamp(timestamp, UTC).isoformat()


def user_payload(user: User) -> dict[str, Any]:
    return {
        "id": str(user.id),
        "username": user.name,
        "global_name": None if user.bot else user.name.title(),
        "discriminator": "0",
        "avatar": None,
        "bot": user.bot,
        "public_flags": 0,
        "flags": 0,
    }


def role_payload(role: Role) -> dict[str, Any]:
    return {
        "id": str(role.id),
        "name": role.name,
        "permissions": str(role.permissions),
        "position": role.position,
        "color": 0,
        "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
        "hoist": False,
        "managed": role.position > 0,
        "mentionable": False,
        "icon": None,
        "unicode_emoji": None,
        "flags": 0,
    }


def member_roles(guild: Guild, user: User) -> list[int]:
    """The bot holds its own role above @everyone; test users hold only @everyone."""
    return [r.id for r in guild.roles if r.position > 0] if user.bot else []


def member_permissions(guild: Guild, user: User) -> int:
    if user.id == guild.owner_id:
        return ALL_PERMISSIONS
    perms = user.permissions
    for role in guild.roles:
        if role.position == 0 or role.id in member_roles(guild, user):
            perms |= role.permissions
    return ALL_PERMISSIONS if perms & 8 else perms


def member_payload(guild: Guild, user: User, *, with_user: bool = True) -> dict[str, Any]:
    payload: dict[str, Any] = {
        "roles": [str(r) for r in member_roles(guild, user)],
        "nick": None,
        "avatar": None,
        "joined_at": iso(guild.joined_at),
        "premium_since": None,
        "deaf": False,
        "mute": False,
        "pending": False,
        "flags": 0,
        "communication_disabled_until": None,
    }
    if with_user:
        payload["user"] = user_payload(user)
    return payload


def channel_payload(state: Records, channel: Channel) -> dict[str, Any]:
    last = state.last_message_id(channel.id)
    if channel.is_dm:
        recipient = state.users[channel.recipient_id]  # type: ignore[index]
        return {
            "id": str(channel.id),
            "type": 1,
            "last_message_id": str(last) if last else None,
            "recipients": [user_payload(recipient)],
            "flags": 0,
        }
    if channel.is_thread:
        return thread_payload(state, channel)
    return {
        "id": str(channel.id),
        "type": channel.type,
        "guild_id": str(channel.guild_id),
        "name": channel.name,
        "position": channel.position,
        "permission_overwrites": [],
        "topic": None,
        "nsfw": False,
        "parent_id": None,
        "last_message_id": str(last) if last else None,
        "rate_limit_per_user": 0,
        "flags": 0,
    }


def thread_payload(state: Records, thread: Channel) -> dict[str, Any]:
    """A thread as Discord describes it: a channel with a parent, an owner and metadata."""
    last = state.last_message_id(thread.id)
    return {
        "id": str(thread.id),
        "type": thread.type,
        "guild_id": str(thread.guild_id),
        "parent_id": str(thread.parent_id),
        "owner_id": str(thread.owner_id),
        "name": thread.name,
        "last_message_id": str(last) if last else None,
        "rate_limit_per_user": 0,
        "flags": 0,
        "message_count": sum(1 for m in state.messages.values()
                             if m.channel_id == thread.id and not m.deleted),
        "member_count": len(thread.member_ids),
        "total_message_sent": 0,
        "thread_metadata": {
            "archived": thread.archived,
            "auto_archive_duration": thread.auto_archive_duration,
            "archive_timestamp": iso(thread.archive_timestamp),
            "locked": thread.locked,
            **({"invitable": True} if thread.type == 12 else {}),
        },
    }


def scheduled_event_payload(state: Records, event: ScheduledEvent) -> dict[str, Any]:
    creator = state.users.get(event.creator_id)
    return {
        "id": str(event.id),
        "guild_id": str(event.guild_id),
        "channel_id": str(event.channel_id) if event.channel_id else None,
        "creator_id": str(event.creator_id),
        "creator": user_payload(creator) if creator is not None else None,
        "name": event.name,
        "description": event.description,
        "scheduled_start_time": iso(event.scheduled_start_time),
        "scheduled_end_time": iso(event.scheduled_end_time),
        "privacy_level": event.privacy_level,
        "status": event.status,
        "entity_type": event.entity_type,
        "entity_id": None,
        "entity_metadata": {"location": event.location} if event.location else None,
        "user_count": len(event.interested),
        "image": None,
        "recurrence_rule": None,
    }


def guild_payload(state: Records, guild: Guild) -> dict[str, Any]:
    """The full GUILD_CREATE body; member_count equals the members sent, so no chunking."""
    members = [member_payload(guild, state.users[uid]) for uid in guild.member_ids]
    return {
        "id": str(guild.id),
        "name": guild.name,
        "icon": None,
        "splash": None,
        "owner_id": str(guild.owner_id),
        "afk_channel_id": None,
        "afk_timeout": 300,
        "verification_level": 0,
        "default_message_notifications": 0,
        "explicit_content_filter": 0,
        "roles": [role_payload(r) for r in guild.roles],
        "emojis": [],
        "stickers": [],
        "features": [],
        "mfa_level": 0,
        "system_channel_id": str(guild.channel_ids[0]) if guild.channel_ids else None,
        "system_channel_flags": 0,
        "rules_channel_id": None,
        "preferred_locale": "en-US",
        "premium_tier": 0,
        "nsfw_level": 0,
        "joined_at": iso(guild.joined_at),
        "large": False,
        "unavailable": False,
        "member_count": len(members),
        "members": members,
        "channels": [channel_payload(state, state.channels[c]) for c in guild.channel_ids],
        "threads": [thread_payload(state, c) for c in state.channels.values()
                    if c.is_thread and c.guild_id == guild.id and not c.archived],
        "voice_states": [],
        "presences": [],
        "stage_instances": [],
        "guild_scheduled_events": [
            scheduled_event_payload(state, e) for e in state.scheduled_events.values()
            if e.guild_id == guild.id and not e.deleted and e.status in (1, 2)],
        "soundboard_sounds": [],
    }


def attachment_payload(attachment: Attachment) -> dict[str, Any]:
    payload: dict[str, Any] = {
        "id": str(attachment.id),
        "filename": attachment.filename,
        "size": attachment.size,
        "url": attachment.url,
        "proxy_url": attachment.url,
        "content_type": attachment.content_type,
    }
    if attachment.description is not None:
        payload["description"] = attachment.description
    return payload


def message_payload(state: Records, message: Message) -> dict[str, Any]:
    author = state.users[message.author_id]
    payload: dict[str, Any] = {
        "id": str(message.id),
        "channel_id": str(message.channel_id),
        "author": user_payload(author),
        "content": message.content,
        "timestamp": iso(message.created_at),
        "edited_timestamp": iso(message.edited_at),
        "tts": False,
        "mention_everyone": "@everyone" in message.content,
        "mentions": [user_payload(state.users[int(uid)]) for uid in
                     dict.fromkeys(_MENTION.findall(message.content))
                     if int(uid) in state.users],
        "mention_roles": [],
        "attachments": [attachment_payload(a) for a in message.attachments],
        "embeds": copy.deepcopy(message.embeds),
        "components": copy.deepcopy(message.components),
        "pinned": False,
        "type": message.type,
        "flags": message.flags,
    }
    if message.guild_id is not None:
        payload["guild_id"] = str(message.guild_id)
        if message.webhook_id is None:
            guild = state.guilds[message.guild_id]
            payload["member"] = member_payload(guild, author, with_user=False)
    if message.webhook_id is not None:
        payload["webhook_id"] = str(message.webhook_id)
        payload["application_id"] = str(message.webhook_id)
    if message.reply_to is not None:
        payload["message_reference"] = {
            "type": 0, "message_id": str(message.reply_to), "channel_id": str(message.channel_id),
        } | ({"guild_id": str(message.guild_id)} if message.guild_id is not None else {})
    interaction = state.interactions.get(message.interaction_id or 0)
    if interaction is not None:
        metadata: dict[str, Any] = {
            "id": str(interaction.id),
            "type": interaction.type,
            "user": user_payload(state.users[interaction.user_id]),
            "authorizing_integration_owners": owners(interaction.guild_id),
        }
        if interaction.message_id is not None:
            metadata["interacted_message_id"] = str(interaction.message_id)
        payload["interaction_metadata"] = metadata
    return payload


def owners(guild_id: int | None) -> dict[str, str]:
    """Who installed the app for this interaction: the guild, or (bot DMs) the "0" owner."""
    return {"0": str(guild_id) if guild_id is not None else "0"}
