"""The bot's own pacing under Discord's global rate limit (bot/discord/global_pace.py)."""

from __future__ import annotations

import asyncio
from typing import Any

import discord
import pytest

from bot.discord.global_pace import URGENT, GlobalPace, pace_requests, share_of_limit


class FakeTime:
    def __init__(self) -> None:
        self.now = 100.0

    def clock(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.now += seconds
        await asyncio.sleep(0)  # as a real sleep does, others run meanwhile


async def test_no_second_ever_holds_more_requests_than_the_share() -> None:
    time = FakeTime()
    pace = GlobalPace(5, time.clock, time.sleep)
    sent = []
    for _ in range(23):
        await pace.wait()
        sent.append(time.now)
        time.now += 0.01  # the request itself
    for start in sent:
        assert sum(start <= t < start + 1.0 for t in sent) <= 5
    assert sent[:5] == pytest.approx([100.0, 100.01, 100.02, 100.03, 100.04])
    assert sent[5] == pytest.approx(101.0)  # the sixth waits for the first to leave the window
    assert pace.waited == 4  # one wait per window after the first


async def test_waiters_go_in_the_order_they_came() -> None:
    pace = GlobalPace(2)
    order: list[int] = []

    async def request(n: int) -> None:
        await pace.wait()
        order.append(n)

    await asyncio.gather(*(request(n) for n in range(5)))
    assert order == [0, 1, 2, 3, 4]


async def test_a_waiting_prompt_goes_before_a_waiting_board_edit() -> None:
    """Issue 27: with the second's budget spent, the edits of boards that came first still
    wait behind the prompts that came after them; each kind in the order it came."""
    time = FakeTime()
    pace = GlobalPace(2, time.clock, time.sleep)
    await pace.wait()
    await pace.wait()  # the window is full
    order: list[str] = []

    async def request(name: str, urgent: bool) -> None:
        URGENT.set(urgent)  # as the sender's workers set it for their own task
        await pace.wait()
        order.append(name)

    board_edits = [asyncio.create_task(request(f"board {n}", False)) for n in range(3)]
    await asyncio.sleep(0)  # the boards' edits are waiting first
    prompts = [asyncio.create_task(request(f"prompt {n}", True)) for n in range(2)]
    await asyncio.gather(*board_edits, *prompts)
    assert order == ["prompt 0", "prompt 1", "board 0", "board 1", "board 2"]


async def test_a_request_cancelled_while_it_waits_takes_no_turn() -> None:
    time = FakeTime()
    pace = GlobalPace(1, time.clock, time.sleep)
    await pace.wait()
    gone = asyncio.create_task(pace.wait(urgent=True))
    await asyncio.sleep(0)
    gone.cancel()
    await pace.wait()
    assert time.now == pytest.approx(101.0)  # the one after it went in the next second


def test_each_process_takes_its_shards_share() -> None:
    assert share_of_limit(50, 2, 2) == 45  # a tenth spare (discord.py's own retries)
    assert share_of_limit(50, 1, 2) == 22
    assert share_of_limit(50, 3, 4) == 33
    assert share_of_limit(50, 1, 100) == 1  # never nothing at all
    with pytest.raises(ValueError):
        GlobalPace(0)


async def test_every_bot_token_request_waits_its_turn() -> None:
    class Http:
        def __init__(self) -> None:
            self.routes: list[str] = []

        async def request(self, route: discord.http.Route, **kwargs: Any) -> str:
            self.routes.append(route.path)
            return "ok"

    time = FakeTime()
    pace = GlobalPace(1, time.clock, time.sleep)
    http = Http()
    pace_requests(http, pace)  # type: ignore[arg-type]
    route = discord.http.Route("GET", "/users/@me")
    assert [await http.request(route) for _ in range(3)] == ["ok"] * 3
    assert http.routes == ["/users/@me"] * 3 and time.now == pytest.approx(102.0)
