"""Discord's rate limits in the loopback: buckets, headers, 429s, the global limit, and the
real discord.py client pacing itself against them without a single failed send."""

from __future__ import annotations

import asyncio

import aiohttp
import discord
import pytest

from loopback import Limit, LoopbackDiscord, RateLimits
from loopback.clock import Clock
from loopback.ratelimits import RateLimiter, route_kind
from tests.loopback.tiny_bot import TinyBot

CREATE = "message_create"


class StoppedClock(Clock):
    """Time that moves only when told, so a window's edges are exact."""

    def __init__(self) -> None:
        super().__init__()
        self.now = 1_000_000.0

    def time(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


def limiter(config: RateLimits | None = None) -> tuple[RateLimiter, StoppedClock]:
    clock = StoppedClock()
    return RateLimiter(config or RateLimits(), clock), clock


def test_five_creates_per_channel_then_429_until_the_window_ends() -> None:
    limits, clock = limiter()
    remaining = [limits.check(CREATE, "1").headers["X-RateLimit-Remaining"] for _ in range(5)]
    assert remaining == ["4", "3", "2", "1", "0"]
    clock.advance(1.25)
    refused = limits.check(CREATE, "1").error
    assert refused is not None and refused.status == 429
    body = refused.body()
    assert body["retry_after"] == 3.75 and body["global"] is False
    assert refused.headers["Via"]  # discord.py retries a 429 only with it
    assert refused.headers["X-RateLimit-Scope"] == "user"
    assert refused.headers["X-RateLimit-Remaining"] == "0"
    assert limits.check(CREATE, "2").error is None  # another channel, another bucket
    clock.advance(3.75)
    assert limits.check(CREATE, "1").headers["X-RateLimit-Remaining"] == "4"
    assert limits.stats.requests[CREATE] == 8 and limits.stats.rate_limited[CREATE] == 1


def test_headers_name_the_bucket_and_when_it_resets() -> None:
    limits, clock = limiter()
    first = limits.check(CREATE, "1").headers
    assert first["X-RateLimit-Limit"] == "5"
    assert first["X-RateLimit-Reset-After"] == "5.000"
    assert float(first["X-RateLimit-Reset"]) == clock.now + 5
    clock.advance(2)
    assert limits.check(CREATE, "1").headers["X-RateLimit-Reset-After"] == "3.000"
    other_channel = limits.check(CREATE, "2").headers
    edit = limits.check("message_edit", "1").headers
    # One bucket (hash) per route, counted per channel: discord.py keys its limiter so.
    assert other_channel["X-RateLimit-Bucket"] == first["X-RateLimit-Bucket"]
    assert edit["X-RateLimit-Bucket"] != first["X-RateLimit-Bucket"]


def test_edits_and_deletes_have_buckets_of_their_own() -> None:
    limits, _ = limiter()
    for _ in range(5):
        assert limits.check(CREATE, "1").error is None
    assert limits.check(CREATE, "1").error is not None
    for kind in ("message_edit", "message_delete"):
        for _ in range(5):
            assert limits.check(kind, "1").error is None
        assert limits.check(kind, "1").error is not None


def test_webhooks_are_five_per_two_seconds_per_token() -> None:
    limits, clock = limiter()
    for kind in ("followup_create", "followup_edit", "followup_create", "followup_delete",
                 "followup_get"):
        assert limits.check(kind, "token-a").error is None  # one bucket for the token
    refused = limits.check("followup_edit", "token-a").error
    assert refused is not None and refused.body()["retry_after"] == 2.0
    assert limits.check("followup_create", "token-b").error is None
    clock.advance(2)
    assert limits.check("followup_create", "token-a").error is None


def test_global_limit_spares_interaction_endpoints() -> None:
    """Discord: "Interaction endpoints are not bound to the bot's Global Rate Limit": the
    callback and the token's webhook routes (original response, followups)."""
    config = RateLimits(message_create=None, global_limit=Limit(50, 1.0))
    limits, clock = limiter(config)
    for n in range(50):
        assert limits.check(CREATE, str(n % 3)).error is None
    refused = limits.check("dm_open", "").error
    assert refused is not None and refused.body()["global"] is True
    assert refused.headers["X-RateLimit-Global"] == "true"
    assert refused.headers["X-RateLimit-Scope"] == "global" and refused.headers["Via"]
    assert limits.check("interaction_callback", "tok").error is None
    for kind in ("followup_create", "followup_edit", "followup_get", "followup_delete"):
        assert limits.check(kind, "tok").error is None, kind
    assert limits.stats.global_rate_limited == 1
    clock.advance(1)
    assert limits.check(CREATE, "0").error is None


def test_a_refused_request_uses_no_token() -> None:
    """A 429 is not a request served: it must not push the bucket's reset further away."""
    config = RateLimits(global_limit=Limit(6, 1.0))
    limits, _ = limiter(config)
    for _ in range(5):
        limits.check(CREATE, "1")
    for _ in range(3):
        assert limits.check(CREATE, "1").error is not None
    assert limits.check("message_edit", "1").error is None  # global still had room


def test_off_counts_but_never_refuses() -> None:
    limits, _ = limiter(RateLimits.off())
    for _ in range(100):
        verdict = limits.check(CREATE, "1")
        assert verdict.error is None and verdict.headers == {}
    assert limits.stats.snapshot() == {"requests": {CREATE: 100}, "rate_limited": {},
                                       "global_rate_limited": 0}


def test_routes_are_sorted_into_kinds() -> None:
    assert route_kind("PATCH", "/channels/{channel_id}/messages/{message_id}") == "message_edit"
    assert route_kind("POST", "/webhooks/{app_id}/{token}") == "followup_create"
    assert route_kind("POST", "/interactions/{interaction_id}/{token}/callback") == (
        "interaction_callback")
    assert route_kind("GET", None) == "unknown"


def test_constructor_arguments() -> None:
    assert RateLimits.coerce(None).enabled and RateLimits.coerce(True).enabled
    assert not RateLimits.coerce(False).enabled
    mine = RateLimits(webhook=Limit(1, 1.0))
    assert RateLimits.coerce(mine) is mine
    with pytest.raises(ValueError):
        Limit(0, 1.0)


# --- over HTTP -------------------------------------------------------------------------


async def test_a_raw_client_sees_headers_and_429s(loopback: LoopbackDiscord) -> None:
    """What Discord sends on the wire: the headers on every answer, then the 429's body."""
    loopback.set_rate_limits(RateLimits(message_create=Limit(2, 60.0)))
    channel = loopback.channel("general").id
    url = f"{loopback.api_base}/channels/{channel}/messages"
    auth = {"Authorization": f"Bot {loopback.token}"}
    async with aiohttp.ClientSession(headers=auth) as http:
        for remaining in ("1", "0"):
            async with http.post(url, json={"content": "hi"}) as answer:
                assert answer.status == 200
                assert answer.headers["X-RateLimit-Remaining"] == remaining
                assert answer.headers["X-RateLimit-Limit"] == "2"
                assert "X-RateLimit-Bucket" in answer.headers
        async with http.post(url, json={"content": "too many"}) as answer:
            assert answer.status == 429
            assert answer.headers["Content-Type"] == "application/json"
            body = await answer.json()
            assert body["global"] is False and 0 < body["retry_after"] <= 60
            assert answer.headers["Via"] and answer.headers["Retry-After"]
    assert [m.content for m in loopback.channel("general").messages()] == ["hi", "hi"]
    assert loopback.stats.rate_limited == {CREATE: 1}
    assert loopback.errors() == []  # flow control, not a mistake
    assert [r.status for r in loopback.requests if r.kind == CREATE] == [200, 200, 429]


async def test_discord_py_paces_itself_with_no_failed_send(
    loopback: LoopbackDiscord, bot: TinyBot
) -> None:
    """A burst larger than the bucket: discord.py reads the headers and waits, so every
    message arrives, in order of acceptance, and the loopback never has to say 429."""
    loopback.set_rate_limits(RateLimits(message_create=Limit(3, 0.3),
                                        message_edit=Limit(2, 0.3)))
    channel = bot.get_channel(loopback.channel("general").id)
    assert isinstance(channel, discord.TextChannel)
    sent = await asyncio.gather(*(channel.send(f"line {n}") for n in range(10)))
    await asyncio.gather(*(m.edit(content=m.content + " (seen)") for m in sent[:5]))
    contents = sorted(m.content for m in loopback.channel("general").messages())
    assert contents == sorted([f"line {n} (seen)" for n in range(5)]
                              + [f"line {n}" for n in range(5, 10)])
    assert loopback.stats.requests[CREATE] == 10 and loopback.stats.requests["message_edit"] == 5
    assert loopback.stats.rate_limited == {} and loopback.stats.global_rate_limited == 0


async def test_followups_are_paced_per_interaction(
    loopback: LoopbackDiscord, bot: TinyBot
) -> None:
    loopback.set_rate_limits(RateLimits(webhook=Limit(1, 0.2)))
    result = await loopback.user("alice").slash("general", "think")
    assert (await result.wait_for_message()).content == "done thinking"
    assert (await result.wait_for_followup()).content == "and one more"
    assert loopback.stats.requests["followup_create"] == 2
    assert loopback.stats.rate_limited == {}


async def test_a_bot_that_ignores_the_headers_is_told_429(
    loopback: LoopbackDiscord, bot: TinyBot
) -> None:
    """discord.py retries a 429 (it carries `Via`) after `retry_after`; nothing is lost."""
    loopback.set_rate_limits(RateLimits(message_create=Limit(1, 1.0)))
    channel = loopback.channel("general").id
    route = discord.http.Route("POST", "/channels/{channel_id}/messages", channel_id=channel)
    # Two clients at once, neither knowing of the other's request: one of them is refused.
    clients = [discord.http.HTTPClient(asyncio.get_running_loop()) for _ in range(2)]
    try:
        for client in clients:
            await client.static_login(loopback.token)
        await asyncio.gather(*(client.request(route, json={"content": text})
                               for client, text in zip(clients, ["first", "second"],
                                                       strict=True)))
    finally:
        for client in clients:
            await client.close()
    assert sorted(m.content for m in loopback.channel("general").messages()) == [
        "first", "second"]
    assert loopback.stats.rate_limited == {CREATE: 1}
