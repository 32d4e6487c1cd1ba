"""What every test process needs, as the bot's start-up provides it; the databases the store
runs on (a SQLite file, a PostgreSQL server started for the session); how the suite is
shared between pytest-xdist's workers (`-n`); and Hypothesis's settings for a busy machine."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings
from xdist.remote import Producer
from xdist.scheduler import Scheduling, WorkStealingScheduling

from bot import wordlists
from tests.support.postgres import PostgresServer, PostgresUnavailable, start_server

#: The store's backends; a test that takes `database` runs once on each.
BACKENDS = ("sqlite", "postgresql")

# Hypothesis fails an example that takes over 200 ms (its deadline), and a test whose data
# takes long to draw (the too_slow health check). On two cores shared with other workers,
# the bots of the end-to-end tests and a PostgreSQL server, a first call that imports or
# warms up something (the evaluator's tables, a word list) took longer than that and failed
# tests that check nothing about speed. The suite's profile has neither: a property test
# checks what comes out, never how fast. It replaces Hypothesis's own "ci" profile (of recent
# versions), which also derandomizes: here each run still draws new examples, and a failure
# prints the blob that reproduces it. Loaded here, before any test module builds its
# @settings, so those inherit it and set only what they need (max_examples ...);
# HYPOTHESIS_PROFILE=default (or pytest's --hypothesis-profile) brings the deadline back
# to see what is slow.
settings.register_profile("ci", deadline=None, print_blob=True,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


@pytest.hookimpl(optionalhook=True)  # a hook of xdist's: unknown under -p no:xdist
def pytest_xdist_make_scheduler(config: pytest.Config, log: Producer) -> Scheduling | None:
    """`-n N` shares the tests out by work stealing rather than xdist's default `load`.

    `load` hands each worker a first chunk of consecutive tests (a quarter of its share) and
    never takes it back. The end-to-end tests come first in the collection (tests/e2e) and are
    fewer than a chunk, so one worker played every one of them in a row, minutes after the
    others had finished: the suite took as long as the end-to-end tests alone. Work stealing
    gives each worker its share and lets an idle one take half of a busy one's queue, so the
    end-to-end tests, which mostly wait on Discord's pace, overlap. `--dist` given explicitly
    (loadfile, each ...) is left as it is."""
    if config.getvalue("dist") == "load":
        return WorkStealingScheduling(config, log)
    return None


@pytest.fixture(autouse=True, scope="session")
def word_lists(tmp_path_factory: pytest.TempPathFactory) -> None:
    """The word finder's lists, as the bot installs them at start-up (bot/discord/app.py): from the
    installed dictionaries, cached in a data directory of the session's own. Built only if a
    test needs one (a Sppoker game made without an injected finder)."""
    wordlists.install(tmp_path_factory.mktemp("data"))


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    """The session's PostgreSQL server (tests/support/postgres.py), started on first use."""
    try:
        server = start_server()
    except PostgresUnavailable as error:
        if os.environ.get("DC_TEST_POSTGRES") == "required":
            pytest.fail(f"PostgreSQL is required for these tests: {error}")
        pytest.skip(f"no PostgreSQL for these tests: {error}")
    yield server
    server.stop()


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
async def database(backend: str, tmp_path: Path, request: pytest.FixtureRequest) -> Path | str:
    """DATABASE for one test: a SQLite file not yet created (in folders not yet made), or the
    URL of a new, empty PostgreSQL database."""
    if backend == "sqlite":
        return tmp_path / "nested" / "dir" / "test.sqlite3"
    server: PostgresServer = request.getfixturevalue("postgres_server")
    return await server.fresh_database()
