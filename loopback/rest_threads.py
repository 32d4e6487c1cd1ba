"""REST routes of threads: start one (from a message or on its own), change and delete it.

A thread is a channel with a parent: messages in it go through the channel routes, each
thread with a rate-limit bucket of its own, as on Discord. Only what Discord checks and a
bot meets is checked here: a thread hangs off a guild text channel, its name is 1-100
characters, a message starts at most one thread, and editing a channel that is not a thread
needs Manage Channels, which the bot is not given.
"""

from __future__ import annotations

from typing import Any

from aiohttp import web

from loopback.errors import DiscordError, FormErrors
from loopback.http_util import json_response, read_body, snowflake
from loopback.models import GUILD_TEXT, PRIVATE_THREAD, PUBLIC_THREAD, Channel
from loopback.payloads import thread_payload
from loopback.state import GUILDS, LoopbackState

ARCHIVE_DURATIONS = (60, 1440, 4320, 10080)


def missing_permissions() -> DiscordError:
    return DiscordError(403, 50013, "Missing Permissions")


def wrong_channel_type() -> DiscordError:
    return DiscordError(400, 50024, "Cannot execute action on this channel type")


class ThreadRoutes:
    def __init__(self, state: LoopbackState) -> None:
        self.state = state

    def register(self, router: web.UrlDispatcher, base: str) -> None:
        add = router.add_route
        channel = f"{base}/channels/{{channel_id}}"
        add("POST", f"{channel}/threads", self.start)
        add("POST", f"{channel}/messages/{{message_id}}/threads", self.start_from_message)
        add("PATCH", channel, self.edit)
        add("DELETE", channel, self.delete)

    def _parent(self, request: web.Request) -> Channel:
        parent = self.state.channel(snowflake(request, "channel_id"))
        if parent.type != GUILD_TEXT or parent.guild_id is None:
            raise wrong_channel_type()
        return parent

    async def start(self, request: web.Request) -> web.Response:
        parent = self._parent(request)
        payload, _ = await read_body(request)
        body = payload or {}
        kind = body.get("type", PRIVATE_THREAD)  # Discord's default without a message
        if kind not in (PUBLIC_THREAD, PRIVATE_THREAD):
            form = FormErrors()
            form.add("type", "BASE_TYPE_CHOICES", f"Value must be one of {{{PUBLIC_THREAD}, "
                     f"{PRIVATE_THREAD}}}.")
            form.raise_if_any()
        thread = self._create(parent, body, kind, self.state.ids.next())
        return json_response(thread_payload(self.state, thread), status=201)

    async def start_from_message(self, request: web.Request) -> web.Response:
        parent = self._parent(request)
        message = self.state.message(parent.id, snowflake(request, "message_id"))
        if message.id in self.state.channels:
            raise DiscordError(400, 160004, "A thread has already been created for this message")
        payload, _ = await read_body(request)
        # A thread started from a message takes the message's id, as on Discord.
        thread = self._create(parent, payload or {}, PUBLIC_THREAD, message.id)
        return json_response(thread_payload(self.state, thread), status=201)

    def _create(self, parent: Channel, body: dict[str, Any], kind: int, thread_id: int
                ) -> Channel:
        name = body.get("name")
        form = FormErrors()
        form.required("name", name)
        form.max_length("name", name, 100)
        duration = body.get("auto_archive_duration", 4320)
        if duration not in ARCHIVE_DURATIONS:
            form.add("auto_archive_duration", "BASE_TYPE_CHOICES",
                     f"Value must be one of {set(ARCHIVE_DURATIONS)}.")
        form.raise_if_any()
        state = self.state
        thread = Channel(thread_id, str(name), type=kind, guild_id=parent.guild_id,
                         parent_id=parent.id, owner_id=state.bot.id,
                         auto_archive_duration=int(duration),
                         archive_timestamp=state.clock.time(), member_ids=[state.bot.id])
        state.channels[thread.id] = thread
        state.dispatch("THREAD_CREATE", thread_payload(state, thread) | {"newly_created": True},
                       parent.guild_id, GUILDS)
        state.notify()
        return thread

    def _thread(self, request: web.Request) -> Channel:
        channel = self.state.channel(snowflake(request, "channel_id"))
        if not channel.is_thread:
            raise missing_permissions()  # a channel's settings need Manage Channels
        return channel

    async def edit(self, request: web.Request) -> web.Response:
        thread = self._thread(request)
        payload, _ = await read_body(request)
        body = payload or {}
        form = FormErrors()
        if "name" in body:
            form.required("name", body["name"])
            form.max_length("name", body["name"], 100)
        duration = body.get("auto_archive_duration", thread.auto_archive_duration)
        if duration not in ARCHIVE_DURATIONS:
            form.add("auto_archive_duration", "BASE_TYPE_CHOICES",
                     f"Value must be one of {set(ARCHIVE_DURATIONS)}.")
        form.raise_if_any()
        if "name" in body:
            thread.name = str(body["name"])
        thread.auto_archive_duration = int(duration)
        for flag in ("archived", "locked"):
            if flag in body and bool(body[flag]) != getattr(thread, flag):
                setattr(thread, flag, bool(body[flag]))
                if flag == "archived":
                    thread.archive_timestamp = self.state.clock.time()
        payload_out = thread_payload(self.state, thread)
        self.state.dispatch("THREAD_UPDATE", payload_out, thread.guild_id, GUILDS)
        self.state.notify()
        return json_response(payload_out)

    async def delete(self, request: web.Request) -> web.Response:
        thread = self._thread(request)
        gone = thread_payload(self.state, thread)
        del self.state.channels[thread.id]
        for message in self.state.messages.values():
            if message.channel_id == thread.id:
                message.deleted = True
        self.state.dispatch("THREAD_DELETE", {key: gone[key] for key in
                                              ("id", "guild_id", "parent_id", "type")},
                            thread.guild_id, GUILDS)
        self.state.notify()
        return json_response(gone)

