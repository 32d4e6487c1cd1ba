"""A throwaway PostgreSQL server for the tests: started once per test session on a temporary
directory and a unix socket in it (no TCP port, so test runs side by side never meet),
stopped and removed at the end. Each test gets a database of its own (`fresh_database`): a
schema of its own in the session's database, as good as a new database to the store (every
name it uses is unqualified, found through the URL's search_path) and a hundred times quicker
to make than CREATE DATABASE.

    DC_TEST_POSTGRES_URL=postgresql://...   use that server instead (each test still gets a
                                            database of its own in it; the user must be
                                            allowed to CREATE DATABASE)
    DC_TEST_POSTGRES=required               fail, rather than skip, the PostgreSQL tests when
                                            no server can be started (`./dev test` sets it)
    DC_TEST_POSTGRES_BIN=/path/bin          the server's programs (default: the newest in
                                            /usr/lib/postgresql/*/bin, as Debian installs them)

PostgreSQL refuses to run as root; as root (CI) the server runs as the `postgres` user that
Debian's package creates. Durability is switched off (fsync, synchronous_commit): the tests
kill the bot, never the server.
"""

from __future__ import annotations

import contextlib
import ctypes
import itertools
import os
import pwd
import shutil
import signal
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import asyncpg

from tests.support.patience import patient


def _postgres_bin() -> Path:
    """DC_TEST_POSTGRES_BIN, else the newest server Debian's packages installed."""
    if os.environ.get("DC_TEST_POSTGRES_BIN"):
        return Path(os.environ["DC_TEST_POSTGRES_BIN"])
    found = [p for p in Path("/usr/lib/postgresql").glob("*/bin") if p.parent.name.isdigit()]
    found.sort(key=lambda p: int(p.parent.name))
    return found[-1] if found else Path("/usr/lib/postgresql/15/bin")


POSTGRES_BIN = _postgres_bin()
_SERVER_USER = "postgres"  # who runs the server when the tests run as root


class PostgresUnavailable(RuntimeError):
    """No server could be started (not installed, or it failed); the message says why."""


def _die_with_parent() -> None:
    """The server gets SIGQUIT (immediate shutdown) if the test process dies, even by kill -9."""
    with contextlib.suppress(Exception):
        libc = ctypes.CDLL("libc.so.6", use_errno=True)
        libc.prctl(1, signal.SIGQUIT)  # PR_SET_PDEATHSIG


@dataclass
class PostgresServer:
    """A server the tests may create databases in; `url(name)` reaches database `name`."""

    base_url: str
    process: subprocess.Popen[bytes] | None = None
    directory: Path | None = None
    _names: itertools.count[int] = field(default_factory=lambda: itertools.count(1))
    _database: str | None = None

    def url(self, database: str, **settings: str) -> str:
        """The URL of `database`, with server settings (asyncpg passes on query parameters
        it does not know, such as search_path)."""
        parts = urlsplit(self.base_url)
        query = "&".join([parts.query, *(f"{k}={v}" for k, v in settings.items())]).strip("&")
        return urlunsplit(parts._replace(path=f"/{database}", query=query))

    async def fresh_database(self) -> str:
        """The URL of a new, empty database (a schema of its own; see above)."""
        if self._database is None:
            name = f"dc_test_{os.getpid()}"
            conn = await asyncpg.connect(self.base_url)
            try:
                await conn.execute(f'DROP DATABASE IF EXISTS "{name}"')
                await conn.execute(f'CREATE DATABASE "{name}"')
            finally:
                await conn.close()
            self._database = name
        schema = f"test_{next(self._names)}"
        conn = await asyncpg.connect(self.url(self._database))
        try:
            await conn.execute(f'CREATE SCHEMA "{schema}"')
        finally:
            await conn.close()
        return self.url(self._database, search_path=schema)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)  # fast shutdown
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        if self.directory is not None:
            shutil.rmtree(self.directory, ignore_errors=True)


def start_server() -> PostgresServer:
    """The server named by DC_TEST_POSTGRES_URL, or a new one of our own."""
    external = os.environ.get("DC_TEST_POSTGRES_URL")
    if external:
        return PostgresServer(external)
    initdb, postgres = POSTGRES_BIN / "initdb", POSTGRES_BIN / "postgres"
    if not postgres.exists():
        raise PostgresUnavailable(
            f"PostgreSQL is not installed ({postgres} is missing; on Debian: apt-get install "
            "postgresql, which ./dev test does)"
        )
    user: str | None = None
    if os.geteuid() == 0:
        try:
            pwd.getpwnam(_SERVER_USER)
        except KeyError:
            raise PostgresUnavailable(
                f"running as root, and there is no {_SERVER_USER} user to run the server as"
            ) from None
        user = _SERVER_USER
    directory = Path(tempfile.mkdtemp(prefix="dc-pg-"))
    server = PostgresServer("", directory=directory)
    try:
        if user is not None:
            entry = pwd.getpwnam(user)
            os.chown(directory, entry.pw_uid, entry.pw_gid)
        data = directory / "data"
        done = subprocess.run(
            [str(initdb), "-D", str(data), "-U", "postgres", "--auth=trust", "--no-sync",
             "--encoding=UTF8", "--locale=C"],
            user=user, capture_output=True, text=True, timeout=120,
        )
        if done.returncode != 0:
            raise PostgresUnavailable(f"initdb failed: {done.stderr.strip()[-2000:]}")
        log = (directory / "server.log").open("wb")
        if user is not None:
            os.chown(directory / "server.log", entry.pw_uid, entry.pw_gid)
        server.process = subprocess.Popen(
            [str(postgres), "-D", str(data), "-c", "listen_addresses=",
             "-c", f"unix_socket_directories={directory}", "-c", "fsync=off",
             "-c", "synchronous_commit=off", "-c", "full_page_writes=off",
             "-c", "max_connections=200"],
            user=user, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
            preexec_fn=_die_with_parent,
        )
        log.close()
        server.base_url = f"postgresql://postgres@/postgres?host={directory}"
        deadline = time.monotonic() + patient(30)  # four workers start theirs at once
        while not (directory / ".s.PGSQL.5432").exists():
            if server.process.poll() is not None or time.monotonic() > deadline:
                text = (directory / "server.log").read_text(errors="replace")
                raise PostgresUnavailable(f"the server did not start: {text[-2000:]}")
            time.sleep(0.05)
        # pg_isready says at once that a server still starting up rejects connections.
        while subprocess.run(
            [str(POSTGRES_BIN / "pg_isready"), "-h", str(directory), "-t", "5", "-q"],
            timeout=60,
        ).returncode != 0:
            if server.process.poll() is not None or time.monotonic() > deadline:
                raise PostgresUnavailable("the server did not accept connections in time")
            time.sleep(0.05)
    except BaseException:
        server.stop()
        raise
    return server


async def drop_listening_connections(store: Any) -> int:
    """Have the server drop the connections listening for notifications on this store's
    database (a restart, as a client sees it), not another test's on the same server; how
    many it dropped."""
    async with store._write() as conn:
        dropped = await conn.fetch_all(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
            " WHERE query LIKE 'LISTEN%' AND pid <> pg_backend_pid()"
            " AND datname = current_database()")
    return sum(1 for row in dropped if row[0])
