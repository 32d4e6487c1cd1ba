"""The aiohttp application: REST under /api/v10, the gateway at /gateway, all on 127.0.0.1.

The middleware is where Discord's cross-cutting behaviour lives: the bot token is checked,
injected faults are answered, every DiscordError becomes Discord's JSON error, and every
request and error is recorded for the tests.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from aiohttp import web

from loopback import errors
from loopback.clock import Clock
from loopback.errors import DiscordError
from loopback.faults import Faults
from loopback.gateway import Gateway
from loopback.http_util import BODY_KEY, FILES_KEY, INTERACTION_KEY, error_response
from loopback.models import RequestRecord
from loopback.rest_app import AppRoutes
from loopback.rest_channels import ChannelRoutes
from loopback.rest_webhooks import WebhookRoutes
from loopback.state import LoopbackState

API_PREFIX = "/api/v10"
MAX_REQUEST_BYTES = 64 * 1024 * 1024
MAX_RECORDED_REQUESTS = 20_000  # a long sandbox session must not grow without bound
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


class LoopbackServer:
    """The loopback Discord itself; `LoopbackDiscord` in driver.py is the friendlier face."""

    def __init__(
        self,
        *,
        users: list[str],
        guild_name: str = "Test Guild",
        channels: list[str] | None = None,
        bot_name: str = "Dealer",
        token: str = "loopback-token",
        clock: Clock | None = None,
        host: str = "127.0.0.1",
        port: int = 0,
    ) -> None:
        self.clock = clock or Clock()
        self.state = LoopbackState(
            users=users, guild_name=guild_name, channels=channels or ["general"],
            bot_name=bot_name, token=token, clock=self.clock,
        )
        self.gateway = Gateway(self.state)
        self.state.dispatch = self.gateway.dispatch
        self.faults = Faults()
        self.host = host
        self.port = port
        self._runner: web.AppRunner | None = None

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}"

    @property
    def api_base(self) -> str:
        return f"{self.url}{API_PREFIX}"

    @property
    def gateway_url(self) -> str:
        return f"ws://{self.host}:{self.port}/gateway"

    async def start(self) -> None:
        app = web.Application(middlewares=[self._middleware], client_max_size=MAX_REQUEST_BYTES)
        self._runner = web.AppRunner(app, handle_signals=False, access_log=None)
        app.router.add_get("/gateway", self.gateway.handle)
        # Routes are registered before the port is known; the gateway URL is read late.
        routes = AppRoutes(self.state, "")
        routes.register(app.router, API_PREFIX)
        ChannelRoutes(self.state).register(app.router, API_PREFIX)
        WebhookRoutes(self.state).register(app.router, API_PREFIX)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, self.port)
        await site.start()
        self.port = self._runner.addresses[0][1]
        routes.gateway_url = self.gateway.url = self.gateway_url
        self.state.base_url = self.url

    async def stop(self) -> None:
        await self.gateway.shutdown()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    def fail_next(
        self,
        method: str,
        path_regex: str,
        status: int,
        count: int = 1,
        **options: Any,
    ) -> None:
        """Answer the next `count` matching REST calls with `status` (429 retries, 5xx fails).

        `path_regex` is searched in the path after /api/v10, e.g. r"/channels/\\d+/messages$";
        `method` may be "*". Options: retry_after (429), is_global (429), code, message.
        """
        self.faults.add(method, path_regex, status, count, **options)

    @web.middleware
    async def _middleware(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        if not request.path.startswith(API_PREFIX):
            return await handler(request)
        path = request.path[len(API_PREFIX):]
        injected = False
        try:
            fault = self.faults.take(request.method, path)
            if fault is not None:
                injected = True
                raise fault
            if self._needs_token(path) and not self._token_ok(request):
                raise errors.unauthorized()
            response = await handler(request)
        except DiscordError as error:
            response = self._error(request, path, error, injected)
        except web.HTTPMethodNotAllowed:
            response = self._error(request, path, errors.method_not_allowed(), False)
        except web.HTTPNotFound:
            response = self._error(request, path, errors.route_not_found(), False)
        if len(self.state.requests) >= MAX_RECORDED_REQUESTS:
            del self.state.requests[: MAX_RECORDED_REQUESTS // 2]
        self.state.requests.append(RequestRecord(
            request.method, path, response.status, request.get(BODY_KEY),
            request.get(FILES_KEY, []), self.clock.time(),
        ))
        return response

    def _error(
        self, request: web.Request, path: str, error: DiscordError, injected: bool
    ) -> web.Response:
        record = self.state.record_error(request.method, path, error, injected=injected)
        interaction = request.get(INTERACTION_KEY)
        if interaction is not None:
            interaction.errors.append(record)
        return error_response(error)

    @staticmethod
    def _needs_token(path: str) -> bool:
        return not path.startswith(("/interactions/", "/webhooks/"))

    def _token_ok(self, request: web.Request) -> bool:
        return request.headers.get("Authorization") == f"Bot {self.state.token}"
