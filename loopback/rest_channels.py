"""REST routes of channels and DMs: send, edit, delete, read messages; open a DM."""

from __future__ import annotations

from aiohttp import web

from loopback import errors
from loopback.errors import DiscordError
from loopback.http_util import json_response, no_content, read_body, snowflake
from loopback.models import Channel, Message
from loopback.payloads import channel_payload, message_payload
from loopback.state import LoopbackState


class ChannelRoutes:
    def __init__(self, state: LoopbackState) -> None:
        self.state = state

    def register(self, router: web.UrlDispatcher, base: str) -> None:
        add = router.add_route
        channel = f"{base}/channels/{{channel_id}}"
        message = f"{channel}/messages/{{message_id}}"
        add("POST", f"{base}/users/@me/channels", self.open_dm)
        add("GET", channel, self.get_channel)
        add("GET", f"{channel}/messages", self.history)
        add("POST", f"{channel}/messages", self.send)
        add("POST", f"{channel}/typing", self.typing)
        add("POST", f"{channel}/messages/bulk-delete", self.bulk_delete)
        add("GET", message, self.get_message)
        add("PATCH", message, self.edit)
        add("DELETE", message, self.delete)
        add("PUT", f"{message}/reactions/{{emoji}}/@me", self.react)
        add("DELETE", f"{message}/reactions/{{emoji}}/@me", self.react)
        add("GET", "/attachments/{attachment_id}/{filename}", self.attachment)

    def _channel(self, request: web.Request) -> Channel:
        return self.state.channel(snowflake(request, "channel_id"))

    def _message(self, request: web.Request) -> Message:
        channel = self._channel(request)
        message = self.state.message(channel.id, snowflake(request, "message_id"))
        if message.visible_to is not None:
            raise errors.unknown("Message")  # ephemeral messages are not reachable by channel
        return message

    async def open_dm(self, request: web.Request) -> web.Response:
        payload, _ = await read_body(request)
        recipient = (payload or {}).get("recipient_id")
        user = self.state.users.get(int(str(recipient))) if str(recipient).isdigit() else None
        if user is None or user.bot:
            raise errors.unknown("User")
        return json_response(channel_payload(self.state, self.state.dm_channel(user)))

    async def get_channel(self, request: web.Request) -> web.Response:
        return json_response(channel_payload(self.state, self._channel(request)))

    async def history(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        query = request.query
        limit = max(1, min(100, int(query.get("limit", "50"))))
        found = [m for m in self.state.messages.values()
                 if m.channel_id == channel.id and not m.deleted and m.visible_to is None]
        if "before" in query:
            found = [m for m in found if m.id < int(query["before"])]
        if "after" in query:
            found = [m for m in found if m.id > int(query["after"])][:limit]
        if "around" in query:
            around = int(query["around"])
            older = [m for m in found if m.id <= around][-(limit // 2 + 1):]
            found = older + [m for m in found if m.id > around][: limit - len(older)]
        found = sorted(found, key=lambda m: m.id, reverse=True)[:limit]
        return json_response([message_payload(self.state, m) for m in found])

    async def get_message(self, request: web.Request) -> web.Response:
        return json_response(message_payload(self.state, self._message(request)))

    async def send(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        payload, files = await read_body(request)
        if payload is None and not files:
            raise errors.empty_message()
        message = self.state.create_message(channel, payload or {}, files)
        return json_response(message_payload(self.state, message))

    async def edit(self, request: web.Request) -> web.Response:
        message = self._message(request)
        if message.author_id != self.state.bot.id:
            raise errors.cannot_edit_others()
        payload, files = await read_body(request)
        self.state.edit_message(message, payload or {}, files)
        return json_response(message_payload(self.state, message))

    async def delete(self, request: web.Request) -> web.Response:
        message = self._message(request)
        channel = self.state.channels[message.channel_id]
        if channel.is_dm and message.author_id != self.state.bot.id:
            raise DiscordError(403, 50003, "Cannot execute action on a DM channel")
        self.state.delete_message(message)
        return no_content()

    async def bulk_delete(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        payload, _ = await read_body(request)
        ids = [int(i) for i in (payload or {}).get("messages", [])]
        if not 2 <= len(ids) <= 100:
            raise DiscordError(400, 50016, "Provided too few or too many messages to delete.")
        for message_id in ids:
            self.state.delete_message(self.state.message(channel.id, message_id))
        return no_content()

    async def typing(self, request: web.Request) -> web.Response:
        self._channel(request)
        return no_content()

    async def react(self, request: web.Request) -> web.Response:
        self._message(request)
        return no_content()

    async def attachment(self, request: web.Request) -> web.Response:
        attachment = self.state.find_attachment(snowflake(request, "attachment_id"))
        if attachment is None:
            raise web.HTTPNotFound()
        return web.Response(body=attachment.data,
                            content_type=attachment.content_type or "application/octet-stream")
