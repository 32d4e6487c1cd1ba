"""REST routes of login and set-up: the bot's user, its application, commands, guild reads."""

from __future__ import annotations

from typing import Any

from aiohttp import web

from loopback import errors
from loopback.http_util import json_response, no_content, read_body, snowflake
from loopback.models import Guild
from loopback.payloads import (
    channel_payload,
    guild_payload,
    member_payload,
    role_payload,
    user_payload,
)
from loopback.state import LoopbackState


class AppRoutes:
    def __init__(self, state: LoopbackState, gateway_url: str) -> None:
        self.state = state
        self.gateway_url = gateway_url

    def register(self, router: web.UrlDispatcher, base: str) -> None:
        add = router.add_route
        # GET /users/@me: rest_oauth.py, which answers the bot's token with `me` below.
        add("GET", f"{base}/oauth2/applications/@me", self.application)
        add("GET", f"{base}/applications/@me", self.application)
        add("GET", f"{base}/gateway", self.gateway)
        add("GET", f"{base}/gateway/bot", self.gateway_bot)
        add("GET", f"{base}/users/{{user_id}}", self.user)
        add("GET", f"{base}/guilds/{{guild_id}}", self.guild)
        add("GET", f"{base}/guilds/{{guild_id}}/channels", self.guild_channels)
        add("GET", f"{base}/guilds/{{guild_id}}/roles", self.guild_roles)
        add("GET", f"{base}/guilds/{{guild_id}}/members", self.members)
        add("GET", f"{base}/guilds/{{guild_id}}/members/{{user_id}}", self.member)
        for scope in ("", "/guilds/{guild_id}"):
            commands = f"{base}/applications/{{app_id}}{scope}/commands"
            add("GET", commands, self.list_commands)
            add("PUT", commands, self.overwrite_commands)
            add("POST", commands, self.upsert_command)
            add("GET", f"{commands}/{{command_id}}", self.get_command)
            add("PATCH", f"{commands}/{{command_id}}", self.edit_command)
            add("DELETE", f"{commands}/{{command_id}}", self.delete_command)

    async def me(self, request: web.Request) -> web.Response:
        bot = user_payload(self.state.bot)
        return json_response(bot | {"verified": True, "mfa_enabled": False, "email": None})

    async def application(self, request: web.Request) -> web.Response:
        state = self.state
        owner = state.users[state.guild.owner_id]
        return json_response({
            "id": str(state.application_id),
            "name": state.bot.name,
            "description": "",
            "icon": None,
            "bot_public": True,
            "bot_require_code_grant": False,
            "owner": user_payload(owner),
            "verify_key": "0" * 64,
            "team": None,
            "flags": 0,
            "summary": "",
            "rpc_origins": [],
            "bot": user_payload(state.bot),
        })

    async def gateway(self, request: web.Request) -> web.Response:
        return json_response({"url": self.gateway_url})

    async def gateway_bot(self, request: web.Request) -> web.Response:
        return json_response({
            "url": self.gateway_url,
            "shards": self.state.shard_count,
            "session_start_limit": {"total": 1000, "remaining": 1000, "reset_after": 0,
                                    "max_concurrency": 1},
        })

    async def user(self, request: web.Request) -> web.Response:
        user = self.state.users.get(snowflake(request, "user_id"))
        if user is None:
            raise errors.unknown("User")
        return json_response(user_payload(user))

    def _guild(self, request: web.Request) -> Guild:
        guild = self.state.guilds.get(snowflake(request, "guild_id"))
        if guild is None:
            raise errors.unknown("Guild")
        return guild

    async def guild(self, request: web.Request) -> web.Response:
        payload = guild_payload(self.state, self._guild(request))
        for key in ("members", "channels", "threads", "presences", "voice_states"):
            payload.pop(key)
        return json_response(payload)

    async def guild_channels(self, request: web.Request) -> web.Response:
        guild = self._guild(request)
        return json_response([channel_payload(self.state, self.state.channels[c])
                              for c in guild.channel_ids])

    async def guild_roles(self, request: web.Request) -> web.Response:
        return json_response([role_payload(r) for r in self._guild(request).roles])

    async def members(self, request: web.Request) -> web.Response:
        guild = self._guild(request)
        limit = max(1, min(1000, int(request.query.get("limit", "1"))))
        after = int(request.query.get("after", "0"))
        found = sorted(uid for uid in guild.member_ids if uid > after)[:limit]
        return json_response([member_payload(guild, self.state.users[u]) for u in found])

    async def member(self, request: web.Request) -> web.Response:
        guild = self._guild(request)
        user_id = snowflake(request, "user_id")
        if user_id not in guild.member_ids:
            raise errors.unknown("Member")
        return json_response(member_payload(guild, self.state.users[user_id]))

    # --- application commands ------------------------------------------------------------

    def _scope(self, request: web.Request) -> int | None:
        if snowflake(request, "app_id") != self.state.application_id:
            raise errors.unknown("Application")
        if "guild_id" not in request.match_info:
            return None
        return self._guild(request).id

    async def list_commands(self, request: web.Request) -> web.Response:
        return json_response(self.state.commands.get(self._scope(request), []))

    async def overwrite_commands(self, request: web.Request) -> web.Response:
        scope = self._scope(request)
        payload, _ = await read_body(request)
        return json_response(self.state.overwrite_commands(scope, payload or []))

    async def upsert_command(self, request: web.Request) -> web.Response:
        scope = self._scope(request)
        payload, _ = await read_body(request)
        return json_response(self.state.upsert_command(scope, payload or {}), 201)

    def _command(self, request: web.Request) -> tuple[int | None, dict[str, Any]]:
        scope = self._scope(request)
        wanted = request.match_info["command_id"]
        for command in self.state.commands.get(scope, []):
            if command["id"] == wanted:
                return scope, command
        raise errors.unknown("application command")

    async def get_command(self, request: web.Request) -> web.Response:
        return json_response(self._command(request)[1])

    async def edit_command(self, request: web.Request) -> web.Response:
        scope, command = self._command(request)
        payload, _ = await read_body(request)
        return json_response(self.state.upsert_command(scope, command | (payload or {})))

    async def delete_command(self, request: web.Request) -> web.Response:
        scope, command = self._command(request)
        self.state.commands[scope] = [c for c in self.state.commands[scope] if c is not command]
        self.state.notify()
        return no_content()
