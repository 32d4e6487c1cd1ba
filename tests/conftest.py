"""What every test process needs, as the bot's start-up provides it; and the databases the
store runs on (a SQLite file, a PostgreSQL server started for the session)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot import wordlists
from tests.support.postgres import PostgresServer, PostgresUnavailable, start_server

#: The store's backends; a test that takes `database` runs once on each.
BACKENDS = ("sqlite", "postgresql")


@pytest.fixture(autouse=True, scope="session")
def word_lists(tmp_path_factory: pytest.TempPathFactory) -> None:
    """The word finder's lists, as the bot installs them at start-up (bot/app.py): from the
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
