"""Shards through the real bot: one process running two shards, and two processes (one shard
each) on one PostgreSQL database, one of them killed -9 and started again mid-game while the
other's game goes on; DM clicks on the second shard's table reach shard 0's process (as
Discord sends them) and are passed on to the process that drives it (bot.discord.routing)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.discord.shards import shard_of
from loopback import LoopbackDiscord
from loopback.driver import describe_rejection
from loopback.handles import ChannelHandle, UserHandle
from loopback.process import BotProcess
from tests.e2e.cash_tables import cash_board
from tests.e2e.conftest import loopback_options
from tests.e2e.helpers import AutoPlayer, channel_text, open_table
from tests.support.patience import AnsweredDiscord
from tests.support.postgres import PostgresServer
from tests.support.rawdb import fetch

pytestmark = pytest.mark.e2e


def deal_overs(channel: ChannelHandle) -> int:
    return sum(1 for m in channel.messages() if not m.deleted and "Deal over:" in m.text)


@pytest.fixture
async def discord(request: pytest.FixtureRequest) -> AsyncIterator[LoopbackDiscord]:
    async with AnsweredDiscord(users=["alice", "bob", "carol", "dave"], channels=["general"],
                              **loopback_options(request)) as loopback:
        yield loopback
        for rejected in loopback.rejected():
            print(describe_rejection(rejected))
        loopback.assert_no_rejected()


def bot(discord: LoopbackDiscord, database: Path | str, log: Path,
        **settings: str) -> BotProcess:
    return BotProcess(discord, database, log_path=log, extra_env={"AI_DELAY": "0.05", **settings})


async def test_one_process_runs_both_shards(discord: LoopbackDiscord, database: Path | str,
                                            tmp_path: Path) -> None:
    first = shard_of(discord.state.guild.id, 2)
    [tables] = discord.add_guild("Second Guild", ["tables"], shard=(1 - first, 2))
    process = bot(discord, database, tmp_path / "bot.log", SHARD_COUNT="2")
    await process.start()
    try:
        assert {s.shard for s in discord.gateway.sessions.values()} == {(0, 2), (1, 2)}
        alice = discord.user("alice")
        for channel in (discord.channel("general"), tables):
            answer = await alice.slash(channel, "table status")
            assert answer.ephemeral and answer.text, answer.text
    finally:
        await process.stop()


async def test_two_processes_share_one_postgresql_and_a_killed_one_finishes_its_game(
        discord: LoopbackDiscord, tmp_path: Path, postgres_server: PostgresServer) -> None:
    database = await postgres_server.fresh_database()
    first_shard = shard_of(discord.state.guild.id, 2)
    general = discord.channel("general")
    [tables] = discord.add_guild("Second Guild", ["tables"], shard=(1 - first_shard, 2))
    processes = {
        shard: bot(discord, database, tmp_path / f"shard{shard}.log", SHARD_COUNT="2",
                   SHARD_IDS=str(shard))
        for shard in (0, 1)
    }
    # The first guild's shard first: the loopback's readiness is told by its guild.
    for shard in (first_shard, 1 - first_shard):
        await processes[shard].start()
    try:
        alice, bob, carol, dave = (discord.user(n) for n in ("alice", "bob", "carol", "dave"))
        channels = {first_shard: general, 1 - first_shard: tables}
        people: dict[int, list[UserHandle]] = {first_shard: [alice, bob],
                                               1 - first_shard: [carol, dave]}
        players = {}
        for shard, channel in channels.items():
            host, *others = people[shard]
            await open_table(discord, host, channel, "badugi start buy_in:40", others, ai=1)
            players[shard] = AutoPlayer(discord, channel, people[shard], seed=shard + 5)
        # Both play at once; shard 1's DM clicks go by way of shard 0's process. Shard 1's
        # process is killed in the middle of a deal; shard 0's game goes on meanwhile.
        deals = {0: 1, 1: 1}

        async def into_a_deal(shard: int) -> None:
            """Until a move of a deal that is not over (a deal may end as soon as it starts,
            everyone folding to the AI)."""
            player, channel = players[shard], channels[shard]
            while True:
                moves = len(player.moves)
                await player.play(until=lambda moves=moves: len(player.moves) > moves
                                  or deal_overs(channel) >= deals[shard])
                if deal_overs(channel) < deals[shard]:
                    return
                await next_deal(discord, channel, people[shard])
                deals[shard] += 1

        await asyncio.gather(into_a_deal(0), into_a_deal(1))
        await processes[1].kill()
        await players[0].play(until=lambda: deal_overs(channels[0]) >= deals[0])
        await processes[1].start()
        await discord.wait_for(lambda: "back exactly where it was" in channel_text(channels[1]))
        await players[1].play(until=lambda: deal_overs(channels[1]) >= deals[1])
        for shard, channel in channels.items():
            assert deal_overs(channel) == deals[shard]  # each deal's end told once
            await end_table(discord, channel, people[shard][0])
    except BaseException:
        for process in processes.values():
            print(process.log_tail(80))
        raise
    finally:
        for process in processes.values():
            await process.stop()

    rows = await fetch(database,
                       "SELECT b.guild_id, b.user_id, b.balance, (SELECT sum(delta) FROM"
                       " chip_ledger l WHERE l.guild_id = b.guild_id AND l.user_id = b.user_id)"
                       " FROM chip_balances b")
    guilds = {general.channel.guild_id: {alice.id, bob.id},
              tables.channel.guild_id: {carol.id, dave.id}}
    assert {(guild, user) for guild, user, _, _ in rows} == {
        (guild, user) for guild, users in guilds.items() for user in users}
    assert all(balance == total for _, _, balance, total in rows), rows
    assert await fetch(database, "SELECT count(*) FROM table_snapshots") == [(0,)]
    assert await fetch(database, "SELECT count(*) FROM forwarded_interactions") == [(0,)]


async def next_deal(discord: LoopbackDiscord, channel: ChannelHandle,
                    people: list[UserHandle]) -> None:
    await discord.wait_for(lambda: cash_board(channel) is not None, timeout=20)
    answer = await people[0].click(cash_board(channel), label="Next deal")
    if "must rebuy" in answer.text:
        for person in people:
            if person.name.title() in answer.text:
                await person.click(cash_board(channel), label="Rebuy")
        answer = await people[0].click(cash_board(channel), label="Next deal")
    assert "is dealt" in answer.text, answer.text


async def end_table(discord: LoopbackDiscord, channel: ChannelHandle, host: UserHandle) -> None:
    await discord.wait_for(lambda: cash_board(channel) is not None, timeout=20)
    ended = await host.click(cash_board(channel), label="End")
    assert "everyone's chips went back" in ended.text, ended.text
