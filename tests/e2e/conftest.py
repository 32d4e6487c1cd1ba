"""Fixtures: a loopback Discord and the real bot (`python -m bot`) connected to it.

The loopback is as strict as Discord: it refuses bodies Discord would refuse (and the test
fails at teardown if the bot sent any, even when the bot shrugged the 400 off), and it keeps
Discord's rate limits so the tests play at Discord's pace.

    DC_E2E_RATE_LIMITS=0   run without rate limits (to measure what they cost)
    DC_E2E_STATS=path      append each test's request counts, as a JSON line, to `path`
    @pytest.mark.loopback(rate_limits=False)   one test without them

What runs on which database (DATABASE, as a server owner sets it):

- Every test that takes `world`, every module's whole games included (each game kind played
  to its end, every kill -9 and restore, chips and the ledger, replays, ratings, Swedish,
  prompts edited in place, faults and closed DMs), runs twice: `test_x[sqlite]` with DATABASE
  a file, `test_x[postgresql]` with DATABASE the URL of a new database on the session's
  PostgreSQL server (tests/support/postgres.py).
- tests/e2e/test_startup.py and test_shards.py's one-process test take `database`
  (tests/conftest.py) and run twice alike: the start-up sentences must hold whichever
  DATABASE is set.
- test_shards.py's two-process test runs on PostgreSQL only: two processes sharing one
  database is its subject.
- SQLITE_ONLY below names any test kept off PostgreSQL, with the reason; it is empty. The
  PostgreSQL runs are about a third of the suite's test time (some 500 s of worker time on
  2 cores), but the e2e tests mostly wait on Discord's pace and overlap on pytest-xdist's
  workers (tests/conftest.py), so they add under 2 minutes to `./dev test`, which stays
  near 6: not enough to leave any out.
"""

from __future__ import annotations

import json
import os
from collections.abc import AsyncIterator, Generator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from bot.store.drivers import is_postgres_url
from loopback import LoopbackDiscord
from loopback.driver import describe_rejection
from loopback.process import BotProcess
from tests.conftest import BACKENDS
from tests.support.patience import AnsweredDiscord
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


# The end-to-end tests that run on SQLite only, each with its reason. Every other test taking
# `backend` (through `world` or `database`) runs on both backends.
SQLITE_ONLY: dict[str, str] = {}


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "backend" in metafunc.fixturenames:
        only_sqlite = metafunc.definition.originalname in SQLITE_ONLY
        metafunc.parametrize("backend", ["sqlite"] if only_sqlite else list(BACKENDS))


@pytest.fixture
def backend(request: pytest.FixtureRequest) -> str:
    """The backend pytest_generate_tests chose (this replaces tests/conftest.py's `backend`,
    whose own parametrization would clash with it)."""
    return str(request.param)


CALL_REPORT = pytest.StashKey[pytest.TestReport]()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(
        item: pytest.Item, call: pytest.CallInfo[None],
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    """Keeps the test's own outcome (its call phase) where `world`'s teardown can read it."""
    report = yield
    if call.when == "call":
        item.stash[CALL_REPORT] = report
    return report


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
    # Every wait of the test (the bot's start-up included) gives up only after what a busy
    # machine needs, and a click a busy bot deferred returns with its answer, as after an
    # answer at once (tests/support/patience.py).
    async with AnsweredDiscord(
        users=["alice", "bob", "carol", "dave"], channels=["general", "games"],
        **loopback_options(request),
    ) as discord:
        bot = BotProcess(discord, database, log_path=tmp_path / "bot.log",
                         extra_env={"AI_DELAY": "0.05"})
        await bot.start()
        try:
            yield World(discord, bot, database)
        finally:
            await bot.stop()
            _save_stats(request, discord)
            # pytest never throws a test's failure into its fixtures: the report says it.
            report: pytest.TestReport | None = request.node.stash.get(CALL_REPORT, None)
            if report is None or report.failed:
                print(bot.log_tail(120))  # shown with the failure, as captured teardown output
                for rejected in discord.rejected():  # often why the test timed out waiting
                    print(describe_rejection(rejected))
        # A request Discord would refuse fails the test even if the bot carried on after it.
        discord.assert_no_rejected()


def _save_stats(request: pytest.FixtureRequest, discord: LoopbackDiscord) -> None:
    path = os.environ.get("DC_E2E_STATS")
    if path:
        line = {"test": request.node.nodeid, "rate_limits": discord.rate_limits.enabled,
                **discord.stats.snapshot()}
        with open(path, "a") as out:
            out.write(json.dumps(line) + "\n")
