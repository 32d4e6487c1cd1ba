"""The aiohttp application: REST under /api/v10, the gateway at /gateway, all on 127.0.0.1.

The middleware is where Discord's cross-cutting behaviour lives: held requests wait (a
test's `Faults.hold`), the bot token is checked, injected faults are answered, rate limits are
kept (ratelimits.py), every DiscordError becomes Discord's JSON error, and every request and
error is recorded for the tests. Request bodies are checked against Discord's schemas
(schemas/) as they are read.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from aiohttp import web

from loopback import errors, schemas
from loopback.clock import Clock
from loopback.errors import DiscordError, FormErrors
from loopback.faults import Faults
from loopback.gateway import Gateway
from loopback.http_util import (
    BODY_CHECK_KEY,
    BODY_KEY,
    FILES_KEY,
    INTERACTION_KEY,
    error_response,
)
from loopback.models import RequestRecord
from loopback.ratelimits import RateLimiter, RateLimits, route_kind
from loopback.rest_app import AppRoutes
from loopback.rest_channels import ChannelRoutes
from loopback.rest_oauth import BEARER_PATHS, OPEN_PATHS, OAuth, OAuthRoutes
from loopback.rest_scheduled_events import ScheduledEventRoutes
from loopback.rest_threads import ThreadRoutes
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
        validate: bool = True,
        rate_limits: RateLimits | bool | None = True,
    ) -> None:
        self.clock = clock or Clock()
        self.validate = validate
        self.limiter = RateLimiter(RateLimits.coerce(rate_limits), self.clock)
        self.state = LoopbackState(
            users=users, guild_name=guild_name, channels=channels or ["general"],
            bot_name=bot_name, token=token, clock=self.clock,
        )
        self.gateway = Gateway(self.state)
        self.state.dispatch = self.gateway.dispatch
        self.faults = Faults()
        self.oauth = OAuth(self.state)  # "Log in with Discord" for the web page (rest_oauth.py)
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
        app[BODY_CHECK_KEY] = self._check_body
        self._runner = web.AppRunner(app, handle_signals=False, access_log=None)
        app.router.add_get("/gateway", self.gateway.handle)
        # Routes are registered before the port is known; the gateway URL is read late.
        routes = AppRoutes(self.state, "")
        routes.register(app.router, API_PREFIX)
        OAuthRoutes(self.state, self.oauth).register(app.router, API_PREFIX, bot_me=routes.me)
        ChannelRoutes(self.state).register(app.router, API_PREFIX)
        WebhookRoutes(self.state).register(app.router, API_PREFIX)
        ThreadRoutes(self.state).register(app.router, API_PREFIX)
        ScheduledEventRoutes(self.state).register(app.router, API_PREFIX)
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
        template = _template(request)
        kind = route_kind(request.method, template)
        injected = False
        limited = False
        headers: dict[str, str] = {}
        try:
            await self.faults.wait_if_held(request.method, path)
            fault = self.faults.take(request.method, path)
            if fault is not None:
                injected = True
                self.limiter.stats.requests[kind] += 1  # the bot did send it
                raise fault
            if self._needs_token(path) and not self._token_ok(request):
                self.limiter.stats.requests[kind] += 1
                raise errors.unauthorized()
            verdict = self.limiter.check(kind, _major(request))
            if verdict.error is not None:
                limited = True
                raise verdict.error
            headers = verdict.headers
            response = await handler(request)
        except DiscordError as error:
            if limited:  # flow control, not a mistake of the bot's: counted in limiter.stats
                response = error_response(error)
            else:
                response = self._error(request, path, error, injected)
        except web.HTTPMethodNotAllowed:
            response = self._error(request, path, errors.method_not_allowed(), False)
        except web.HTTPNotFound:
            response = self._error(request, path, errors.route_not_found(), False)
        response.headers.update(headers)
        if len(self.state.requests) >= MAX_RECORDED_REQUESTS:
            del self.state.requests[: MAX_RECORDED_REQUESTS // 2]
        self.state.requests.append(RequestRecord(
            request.method, path, response.status, request.get(BODY_KEY),
            request.get(FILES_KEY, []), self.clock.time(), kind,
        ))
        return response

    def _check_body(self, request: web.Request, payload: Any) -> None:
        """Refuse, as Discord would, a body its published schema does not allow."""
        template = _template(request)
        endpoint = schemas.endpoint_for(request.method, template) if template else None
        if not self.validate or endpoint is None:
            return
        form = FormErrors()
        schemas.check_body(endpoint, payload, form)
        form.raise_if_any()

    def _error(
        self, request: web.Request, path: str, error: DiscordError, injected: bool
    ) -> web.Response:
        record = self.state.record_error(request.method, path, error, injected=injected)
        record.body = request.get(BODY_KEY)
        interaction = request.get(INTERACTION_KEY)
        if interaction is not None:
            interaction.errors.append(record)
        return error_response(error)

    @staticmethod
    def _needs_token(path: str) -> bool:
        return not path.startswith(("/interactions/", "/webhooks/")) and path not in OPEN_PATHS

    def _token_ok(self, request: web.Request) -> bool:
        """The bot's token; a person's OAuth2 Bearer token where one is taken (its handler
        checks it)."""
        header = request.headers.get("Authorization", "")
        if header.startswith("Bearer ") and request.path[len(API_PREFIX):] in BEARER_PATHS:
            return True
        return header == f"Bot {self.state.token}"


def _template(request: web.Request) -> str | None:
    """The route template after /api/v10 ("/channels/{channel_id}/messages"), if one matched."""
    resource = request.match_info.route.resource
    if resource is None:
        return None
    canonical = resource.canonical
    return canonical[len(API_PREFIX):] if canonical.startswith(API_PREFIX) else None


def _major(request: web.Request) -> str:
    """Discord's major parameter: buckets are per channel, or per webhook token."""
    info = request.match_info
    return info.get("channel_id") or info.get("token") or ""
