"""Shards: which guilds a process drives, and the leases that keep two processes from driving
the same tables (bot.discord.shards), on both backends."""

from __future__ import annotations

import asyncio
import doctest
import os
import subprocess
import sys

import pytest

import bot.discord.routing
import bot.discord.shards
from bot.discord.shards import LeaseKeeper, ShardPlan, gone, shard_of, this_process
from bot.store import Store, StoreError
from tests.support.patience import patient
from tests.support.postgres import drop_listening_connections


@pytest.fixture
async def store(database):
    opened = await Store.open(database)
    yield opened
    await opened.close()


def test_a_plan_owns_the_guilds_of_its_shards():
    guilds = [n << 22 for n in range(8)]
    assert [shard_of(g, 4) for g in guilds] == [0, 1, 2, 3, 0, 1, 2, 3]
    plan = ShardPlan.of(4, (1, 3))
    assert [plan.owns(g) for g in guilds] == [shard_of(g, 4) in (1, 3) for g in guilds]
    assert not plan.owns(None)  # DMs: shard 0
    assert ShardPlan.of(None, None) == ShardPlan(1, (0,))
    assert all(ShardPlan.of(None, None).owns(g) for g in [*guilds, None])
    assert doctest.testmod(bot.discord.shards).failed == 0
    assert doctest.testmod(bot.discord.routing).failed == 0


def test_a_holder_is_gone_only_if_its_process_on_this_host_is():
    me = this_process()
    assert not gone(me)
    finished = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                              capture_output=True, text=True, check=True)
    host, namespace, _, tail = me.split(":")
    assert gone(f"{host}:{namespace}:{finished.stdout.strip()}:{tail}")
    assert not gone(f"elsewhere:{namespace}:{finished.stdout.strip()}:{tail}")
    assert not gone(f"{host}:{namespace}:{os.getppid()}:{tail}")  # alive


async def test_a_second_process_waits_for_the_shard_and_takes_a_dead_ones_at_once(store):
    lost: list[int] = []
    first = LeaseKeeper(store, ShardPlan(2, (0, 1)), on_lost=lost.append, owner="h:1:1:a",
                        lease_seconds=patient(2), renew_every=0.2)
    await first.acquire()
    second = LeaseKeeper(store, ShardPlan(2, (1,)), on_lost=lost.append, renew_every=0.2)
    waiting = asyncio.create_task(second.acquire())
    await asyncio.sleep(1.5)
    assert not waiting.done()  # shard 1 is first's, renewed
    await first.release()  # a clean stop frees it at once
    await asyncio.wait_for(waiting, patient(5))
    assert {lease.shard_id: lease.owner for lease in await store.leases()} == {1: second.owner}
    await second.release()
    assert lost == []

    # A holder killed on this host: its successor need not wait for the lease to run out.
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True, check=True).stdout.strip()
    host, namespace, _, _ = this_process().split(":")
    await store.take_lease(0, 1, f"{host}:{namespace}:{dead}:x", ttl=60)
    successor = LeaseKeeper(store, ShardPlan(), on_lost=lost.append)
    await asyncio.wait_for(successor.acquire(), patient(3))
    await successor.release()


async def test_a_process_whose_lease_is_taken_stops(store):
    lost: list[int] = []
    keeper = LeaseKeeper(store, ShardPlan(), on_lost=lost.append, lease_seconds=60,
                         renew_every=0.1)
    await keeper.acquire()
    await store.release_leases(keeper.owner)
    await store.take_lease(0, 1, "usurper", ttl=60)
    for _ in range(round(patient(50))):
        if lost:
            break
        await asyncio.sleep(0.05)
    assert lost == [0]
    await keeper.release()


async def test_interactions_passed_on_wake_the_listener_even_after_it_was_dropped(store):
    heard: list[str] = []
    if store.dialect == "sqlite":  # one process runs every shard: nothing to pass on
        with pytest.raises(StoreError, match="cannot pass notifications"):
            await store.listen("dc_test", heard.append)
        with pytest.raises(StoreError, match="cannot pass notifications"):
            await store.notify("dc_test", "1:{}")
        return

    async def passed_on(payload: str) -> str:
        row = await store.forward_interaction(1, payload, channel="dc_test")
        for _ in range(round(patient(100))):
            if heard and heard[-1] == f"1:{row}":
                return await store.claim_interaction(row) or ""
            await asyncio.sleep(0.02)
        raise AssertionError(f"no notification for row {row}: {heard}")

    await store.listen("dc_test", heard.append)
    assert await passed_on('{"a": 1}') == '{"a": 1}'
    await store.notify("dc_test", '1:{"inline": 1}')  # the interaction in the payload itself
    for _ in range(round(patient(100))):
        if heard[-1] == '1:{"inline": 1}':
            break
        await asyncio.sleep(0.02)
    assert heard[-1] == '1:{"inline": 1}'
    assert await drop_listening_connections(store) == 1  # as in a server's restart
    database = store._db  # listening again, which a notification sent before would miss

    async def listening_again() -> None:
        while database._reconnect is None or not database._reconnect.done():
            await asyncio.sleep(0.02)

    await asyncio.wait_for(listening_again(), patient(5))
    assert await passed_on('{"b": 2}') == '{"b": 2}'
    assert await store.claim_interaction(1) is None  # claimed once only
    # A row nobody claimed for a minute (its interaction long expired) goes with the next
    # claim, whoever's it is.
    from datetime import UTC, datetime, timedelta
    old = await store.forward_interaction(0, '{"old": 1}', channel="dc_elsewhere",
                                          now=datetime.now(UTC) - timedelta(minutes=2))
    assert await passed_on('{"c": 3}') == '{"c": 3}'
    assert await store.claim_interaction(old) is None


class RouterStore:
    """What `InteractionRouter` asks of the store, recorded."""

    def __init__(self) -> None:
        self.notified: list[tuple[str, str]] = []
        self.rows: list[tuple[int, str]] = []

    async def table_guild(self, table_id: str) -> int:
        return 1 << 22  # shard 1 of 2

    async def notify(self, channel: str, payload: str) -> None:
        self.notified.append((channel, payload))

    async def forward_interaction(self, shard: int, payload: str, *, channel: str) -> int:
        self.rows.append((shard, payload))
        return len(self.rows)

    async def claim_interaction(self, row: int) -> str | None:
        return self.rows[row - 1][1]


async def test_a_dm_click_passes_on_in_the_notification_unless_it_is_too_long():
    """Shard 0's process passes a click on another shard's table on in the NOTIFY itself
    (one round trip); one too long for a NOTIFY's 8,000 bytes goes as a row to claim."""
    from bot.discord.routing import CHANNEL, NOTIFY_BYTES, InteractionRouter

    def click(size: int) -> dict[str, object]:
        return {"id": "5", "data": {"custom_id": "dc:c:7c36648f:1:3:0"}, "pad": "x" * size}

    store = RouterStore()
    parsed_at_0: list[dict[str, object]] = []
    at_0 = InteractionRouter(store, ShardPlan(2, (0,)),  # type: ignore[arg-type]
                             {"INTERACTION_CREATE": parsed_at_0.append}, lambda table: False)
    at_0.parsers["INTERACTION_CREATE"] = at_0._intercept
    for size in (100, NOTIFY_BYTES):
        at_0._intercept(click(size))
    await asyncio.gather(*at_0._tasks)
    assert parsed_at_0 == []
    assert [(channel, payload[:2]) for channel, payload in store.notified] == [(CHANNEL, "1:")]
    assert [(shard, len(payload) > NOTIFY_BYTES) for shard, payload in store.rows] == [(1, True)]

    parsed_at_1: list[dict[str, object]] = []
    at_1 = InteractionRouter(store, ShardPlan(2, (1,)),  # type: ignore[arg-type]
                             {"INTERACTION_CREATE": parsed_at_1.append}, lambda table: True)
    at_1._notified(store.notified[0][1])
    at_1._notified("1:1")  # the row
    at_1._notified("0:2")  # another shard's: not for this process
    await asyncio.gather(*at_1._tasks)
    assert parsed_at_1 == [click(100), click(NOTIFY_BYTES)]
