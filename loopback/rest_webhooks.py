"""REST routes that an interaction token opens: the callback, followups, response edits.

discord.py sends these without the bot token (the interaction token is the credential).
"""

from __future__ import annotations

from aiohttp import web

from loopback import errors, interactions
from loopback.http_util import INTERACTION_KEY, json_response, no_content, read_body, snowflake
from loopback.models import Interaction
from loopback.payloads import message_payload
from loopback.state import LoopbackState


class WebhookRoutes:
    def __init__(self, state: LoopbackState) -> None:
        self.state = state

    def register(self, router: web.UrlDispatcher, base: str) -> None:
        add = router.add_route
        webhook = f"{base}/webhooks/{{app_id}}/{{token}}"
        add("POST", f"{base}/interactions/{{interaction_id}}/{{token}}/callback", self.callback)
        add("POST", webhook, self.followup)
        add("GET", f"{webhook}/messages/{{ref}}", self.get_message)
        add("PATCH", f"{webhook}/messages/{{ref}}", self.edit_message)
        add("DELETE", f"{webhook}/messages/{{ref}}", self.delete_message)

    def _interaction(self, request: web.Request) -> Interaction:
        found = interactions.by_token(self.state, snowflake(request, "app_id"),
                                      request.match_info["token"])
        request[INTERACTION_KEY] = found
        return found

    async def callback(self, request: web.Request) -> web.Response:
        found = self.state.interactions.get(snowflake(request, "interaction_id"))
        if found is None or found.token != request.match_info["token"]:
            raise errors.unknown("interaction")
        request[INTERACTION_KEY] = found
        payload, files = await read_body(request)
        answer = interactions.respond(self.state, found, payload or {}, files)
        if request.query.get("with_response") in ("1", "true", "True"):
            return json_response(answer)
        return no_content()

    async def followup(self, request: web.Request) -> web.Response:
        found = self._interaction(request)
        payload, files = await read_body(request)
        message = interactions.followup(self.state, found, payload or {}, files)
        if request.query.get("wait") in ("1", "true", "True"):
            return json_response(message_payload(self.state, message))
        return no_content()

    async def get_message(self, request: web.Request) -> web.Response:
        found = self._interaction(request)
        message = interactions.webhook_message(self.state, found, request.match_info["ref"])
        return json_response(message_payload(self.state, message))

    async def edit_message(self, request: web.Request) -> web.Response:
        found = self._interaction(request)
        message = interactions.webhook_message(self.state, found, request.match_info["ref"])
        payload, files = await read_body(request)
        self.state.edit_message(message, payload or {}, files)
        if message.id == found.original_id:
            found.original_edited_at = self.state.clock.time()
        return json_response(message_payload(self.state, message))

    async def delete_message(self, request: web.Request) -> web.Response:
        found = self._interaction(request)
        message = interactions.webhook_message(self.state, found, request.match_info["ref"])
        self.state.delete_message(message)
        return no_content()
