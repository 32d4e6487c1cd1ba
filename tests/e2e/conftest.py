"""Fixtures: a loopback Discord and the real bot (`python -m bot`) connected to it.

The loopback is as strict as Discord: it refuses bodies Discord would refuse (and the test
fails at teardown if the bot sent any, even when the bot shrugged the 400 off), and it keeps
Discord's rate limits so the tests play at Discord's pace.

    DC_E2E_RATE_LIMITS=0   run without rate limits (to measure what they cost)
    DC_E2E_STATS=path      append each test's request counts, as a JSON line, to `path`
    @pytest.mark.loopback(rate_limits=False)   one test without them

Every test runs the bot on SQLite (DATABASE a file); those in ON_POSTGRESQL run a second time
on PostgreSQL (a new database on the session's server, tests/support/postgres.py), as
`test_x[sqlite]` and `test_x[postgresql]`: a representative few (whole games, kill -9 and
restore, chips and the ledger), since the whole suite twice would cost minutes for little.
"""

from __future__ import annotations

import json
import os
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from bot.store_db import is_postgres_url
from loopback import LoopbackDiscord
from loopback.driver import describe_rejection
from loopback.process import BotProcess
from tests.support.postgres import PostgresServer

pytestmark = pytest.mark.e2e


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "loopback(**options): LoopbackDiscord options for the world fixture, "
                   "e.g. rate_limits=False")


@dataclass
class World:
    discord: LoopbackDiscord
    bot: BotProcess
    database: Path | str  # a SQLite file or a PostgreSQL URL; read it with tests.support.rawdb

    @property
    def on_postgresql(self) -> bool:
        return is_postgres_url(self.database)


# The end-to-end tests that also run with DATABASE a PostgreSQL URL: a whole chip session
# killed -9 mid-deal and restored (Badugi: side pots, the ledger, the session recorded and
# rated when it ends), a kill -9 between a step's save and its messages, and the chip commands
# with the leaderboard. About 40 s on top of the SQLite run (tests/e2e/test_shards.py runs on
# PostgreSQL too).
ON_POSTGRESQL = frozenset({
    "test_badugi_three_people_and_an_ai_with_side_pots_across_a_kill_9",
    "test_kill_9_after_the_save_before_anything_is_sent",
    "test_chips_commands_from_a_first_balance_to_the_leaderboard",
})


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "backend" in metafunc.fixturenames and metafunc.definition.originalname in ON_POSTGRESQL:
        metafunc.parametrize("backend", ["sqlite", "postgresql"])


@pytest.fixture
def backend() -> str:
    """SQLite, unless the test is in ON_POSTGRESQL (then parametrized with both)."""
    return "sqlite"


def loopback_options(request: pytest.FixtureRequest) -> dict[str, Any]:
    """Rate limits on unless the environment or the test's marker says not."""
    setting = os.environ.get("DC_E2E_RATE_LIMITS", "1").lower()
    options: dict[str, Any] = {
        "rate_limits": setting not in ("0", "false", "no"),
        "validate": True,
    }
    marker = request.node.get_closest_marker("loopback")
    if marker is not None:
        options |= marker.kwargs
    return options


@pytest.fixture
async def world(tmp_path: Path, request: pytest.FixtureRequest,
                backend: str) -> AsyncIterator[World]:
    database: Path | str = tmp_path / "bot.sqlite3"
    if backend == "postgresql":
        server: PostgresServer = request.getfixturevalue("postgres_server")
        database = await server.fresh_database()
    async with LoopbackDiscord(
        users=["alice", "bob", "carol", "dave"], channels=["general", "games"],
        **loopback_options(request),
    ) as discord:
        bot = BotProcess(discord, database, log_path=tmp_path / "bot.log",
                         extra_env={"AI_DELAY": "0.05"})
        await bot.start()
        try:
            yield World(discord, bot, database)
        except BaseException:
            print(bot.log_tail(120))
            for rejected in discord.rejected():  # often why the test timed out waiting
                print(describe_rejection(rejected))
            raise
        finally:
            await bot.stop()
            _save_stats(request, discord)
        # A request Discord would refuse fails the test even if the bot carried on after it.
        discord.assert_no_rejected()


def _save_stats(request: pytest.FixtureRequest, discord: LoopbackDiscord) -> None:
    path = os.environ.get("DC_E2E_STATS")
    if path:
        line = {"test": request.node.nodeid, "rate_limits": discord.rate_limits.enabled,
                **discord.stats.snapshot()}
        with open(path, "a") as out:
            out.write(json.dumps(line) + "\n")
