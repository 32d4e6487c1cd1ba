"""Discord's rate limits, so the tests see the pace the bot will have in production.

Discord limits each route per "major parameter" (a channel, a webhook token) and the bot as
a whole, announces each bucket in `X-RateLimit-*` headers, and answers 429 with a JSON
`retry_after` when a bucket is exhausted. discord.py reads those headers and waits before it
would exceed a bucket; a bot that sends more than a channel can carry is slowed to the
bucket's pace, which is what a player feels. Windows are measured on the loopback's clock,
so a test that advances it empties every bucket at once.

The numbers are the commonly observed ones (Discord does not promise them): 5 message creates
per 5 s per channel, edits and deletes likewise in buckets of their own, 5 requests per 2 s
per interaction webhook, 50 requests per second in all. Interaction endpoints (the callback,
and the webhook routes an interaction's token opens: the original response and followups)
are "not bound to the bot's Global Rate Limit" (Discord's rate-limit docs), so a bot whose
messages have used up the global limit can still answer its users' clicks.

Every request is counted by route kind, limited or not, so a test or a benchmark can read
how many messages a game step costs.
"""

from __future__ import annotations

import hashlib
import math
from collections import Counter
from dataclasses import dataclass, field, replace
from typing import Any

from loopback.clock import Clock
from loopback.errors import DiscordError

Major = str


@dataclass(frozen=True)
class Limit:
    """`count` requests per `per` seconds, in windows that start with their first request."""

    count: int
    per: float

    def __post_init__(self) -> None:
        if self.count < 1 or self.per <= 0:
            raise ValueError(f"a rate limit needs count >= 1 and per > 0, not {self}")


@dataclass(frozen=True)
class RateLimits:
    """Which limits the loopback enforces; `None` for a limit leaves that bucket unlimited.

    >>> RateLimits().message_create
    Limit(count=5, per=5.0)
    >>> RateLimits.off().enabled
    False
    """

    enabled: bool = True
    message_create: Limit | None = Limit(5, 5.0)
    message_edit: Limit | None = Limit(5, 5.0)
    message_delete: Limit | None = Limit(5, 5.0)
    webhook: Limit | None = Limit(5, 2.0)
    global_limit: Limit | None = Limit(50, 1.0)
    global_exempt: frozenset[str] = frozenset({
        "interaction_callback", "followup_create", "followup_get", "followup_edit",
        "followup_delete",
    })

    @classmethod
    def off(cls) -> RateLimits:
        """Counting only: every request passes (the loopback's old behaviour)."""
        return cls(enabled=False)

    @classmethod
    def coerce(cls, value: RateLimits | bool | None) -> RateLimits:
        """Constructor arguments may say True / False / None (on) / a RateLimits."""
        if isinstance(value, RateLimits):
            return value
        return cls() if value is None or value else cls.off()

    def with_(self, **changes: Any) -> RateLimits:
        return replace(self, **changes)


# Route kinds: which bucket a request falls in. The key is the method and the route template
# as the loopback registers it (after /api/v10).
_KINDS: dict[tuple[str, str], str] = {
    ("POST", "/channels/{channel_id}/messages"): "message_create",
    ("PATCH", "/channels/{channel_id}/messages/{message_id}"): "message_edit",
    ("DELETE", "/channels/{channel_id}/messages/{message_id}"): "message_delete",
    ("GET", "/channels/{channel_id}/messages"): "message_history",
    ("GET", "/channels/{channel_id}/messages/{message_id}"): "message_get",
    ("POST", "/channels/{channel_id}/typing"): "typing",
    ("POST", "/users/@me/channels"): "dm_open",
    ("POST", "/interactions/{interaction_id}/{token}/callback"): "interaction_callback",
    ("POST", "/webhooks/{app_id}/{token}"): "followup_create",
    ("GET", "/webhooks/{app_id}/{token}/messages/{ref}"): "followup_get",
    ("PATCH", "/webhooks/{app_id}/{token}/messages/{ref}"): "followup_edit",
    ("DELETE", "/webhooks/{app_id}/{token}/messages/{ref}"): "followup_delete",
    ("PUT", "/applications/{app_id}/commands"): "commands_sync",
    ("PUT", "/applications/{app_id}/guilds/{guild_id}/commands"): "commands_sync",
}
_WEBHOOK_KINDS = frozenset({"followup_create", "followup_get", "followup_edit", "followup_delete"})


def route_kind(method: str, template: str | None) -> str:
    """What a request is, for counting and bucketing: "message_create", "followup_edit", ...

    >>> route_kind("POST", "/channels/{channel_id}/messages")
    'message_create'
    >>> route_kind("GET", "/users/@me")
    'other'
    """
    if template is None:
        return "unknown"
    return _KINDS.get((method.upper(), template), "other")


@dataclass
class Window:
    """One bucket's current window: how many requests it took and when it ends."""

    limit: Limit
    used: int = 0
    resets_at: float = 0.0


@dataclass
class Verdict:
    """What the limiter decided about one request: headers to send, or the 429 to answer."""

    headers: dict[str, str] = field(default_factory=dict)
    error: DiscordError | None = None


@dataclass
class RequestStats:
    """Counts since the server started (or since `reset`), by route kind."""

    requests: Counter[str] = field(default_factory=Counter)
    rate_limited: Counter[str] = field(default_factory=Counter)
    global_rate_limited: int = 0

    def snapshot(self) -> dict[str, Any]:
        """Plain data, for printing or JSON; `requests` counts 429'd attempts too."""
        return {
            "requests": dict(sorted(self.requests.items())),
            "rate_limited": dict(sorted(self.rate_limited.items())),
            "global_rate_limited": self.global_rate_limited,
        }

    def reset(self) -> None:
        self.requests.clear()
        self.rate_limited.clear()
        self.global_rate_limited = 0


class RateLimiter:
    """Buckets per (route kind, major parameter) plus the global one, on the server's clock."""

    def __init__(self, config: RateLimits, clock: Clock) -> None:
        self.config = config
        self.clock = clock
        self.stats = RequestStats()
        self._windows: dict[tuple[str, Major], Window] = {}
        self._global: Window | None = None

    def configure(self, config: RateLimits) -> None:
        """New limits from now on; current windows are forgotten."""
        self.config = config
        self._windows.clear()
        self._global = None

    def _limit_for(self, kind: str) -> Limit | None:
        if kind in _WEBHOOK_KINDS:
            return self.config.webhook
        return {
            "message_create": self.config.message_create,
            "message_edit": self.config.message_edit,
            "message_delete": self.config.message_delete,
        }.get(kind)

    @staticmethod
    def _bucket_name(kind: str) -> str:
        # One bucket for all of a token's webhook routes: discord.py queues them on one lock.
        return "webhook" if kind in _WEBHOOK_KINDS else kind

    def _window(self, key: tuple[str, Major], limit: Limit, now: float) -> Window:
        window = self._windows.get(key)
        if window is None or window.limit != limit or now >= window.resets_at:
            window = Window(limit, 0, now + limit.per)
            self._windows[key] = window
        return window

    def _global_window(self, limit: Limit, now: float) -> Window:
        if self._global is None or self._global.limit != limit or now >= self._global.resets_at:
            self._global = Window(limit, 0, now + limit.per)
        return self._global

    def check(self, kind: str, major: Major) -> Verdict:
        """Count the request; take a token from its buckets, or say why it must wait."""
        self.stats.requests[kind] += 1
        if not self.config.enabled:
            return Verdict()
        now = self.clock.time()
        limit = self._limit_for(kind)
        glimit = None if kind in self.config.global_exempt else self.config.global_limit
        gwindow = self._global_window(glimit, now) if glimit else None
        if gwindow is not None and gwindow.used >= gwindow.limit.count:
            self.stats.global_rate_limited += 1
            self.stats.rate_limited[kind] += 1
            return Verdict(error=_global_429(gwindow.resets_at - now))
        if limit is None:
            if gwindow is not None:
                gwindow.used += 1
            return Verdict()
        name = self._bucket_name(kind)
        window = self._window((name, major), limit, now)
        if window.used >= limit.count:
            self.stats.rate_limited[kind] += 1
            headers = _headers(name, window, now)
            return Verdict(error=_route_429(window.resets_at - now, headers))
        window.used += 1
        if gwindow is not None:
            gwindow.used += 1
        return Verdict(headers=_headers(name, window, now))


def _seconds(value: float) -> str:
    """Rounded up, so a client that waits exactly this long finds the window over."""
    return f"{math.ceil(max(value, 0.0) * 1000) / 1000:.3f}"


def _headers(bucket: str, window: Window, now: float) -> dict[str, str]:
    digest = hashlib.blake2s(f"{bucket}:{window.limit}".encode(), digest_size=8).hexdigest()
    return {
        "X-RateLimit-Limit": str(window.limit.count),
        "X-RateLimit-Remaining": str(max(window.limit.count - window.used, 0)),
        "X-RateLimit-Reset": _seconds(window.resets_at),
        "X-RateLimit-Reset-After": _seconds(window.resets_at - now),
        "X-RateLimit-Bucket": digest,
    }


def _route_429(retry_after: float, headers: dict[str, str]) -> DiscordError:
    """A route bucket is empty: Discord's body, its headers, and the `Via` discord.py wants."""
    wait = float(_seconds(retry_after))
    return DiscordError(
        429, 0, "You are being rate limited.",
        headers=headers | {"Retry-After": str(math.ceil(wait)), "X-RateLimit-Scope": "user",
                           "Via": "1.1 google"},
        extra={"retry_after": wait, "global": False},
    )


def _global_429(retry_after: float) -> DiscordError:
    wait = float(_seconds(retry_after))
    return DiscordError(
        429, 0, "You are being rate limited.",
        headers={"Retry-After": str(math.ceil(wait)), "X-RateLimit-Global": "true",
                 "X-RateLimit-Scope": "global", "Via": "1.1 google"},
        extra={"retry_after": wait, "global": True},
    )
