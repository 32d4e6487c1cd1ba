"""Web page benchmark (issue 25): a server with 1,000 players and 20,000 finished games, and
each kind of page of `python -m web` measured at 20 concurrent clients.

The store is filled through its own write methods, so every row is one the bot would have
written: `Store.finish_table` records each game with its results, its ratings (rated in the
same transaction, OpenSkill as always) and its action log, the replay's moves. The games are
real: a pool of games of Poängpoker, Chicago, Poke and Pyramid Po-Ke-No is played to the end
with random legal moves by the engine (the tests' random player, tests/support/play.py), and
each of the 20,000 games is one of them with its own table id, time and players (drawn with
a long tail: a few people play a lot, most a little; one game in seven has an AI seat), so
every replay page steps through a game the engine replays. Chips come from each player's
daily claims (`Store.claim_daily`), a few tables are left playing (a snapshot saved midway
by `Store.save_snapshot`, as the bot saves them), and the server's `web` setting is `public`.

Then `python -m web` runs on that database (read-only, as in production; its per-client rate
limit raised, since every client here is 127.0.0.1) and each page kind is requested by 20
clients at once, the next request as soon as the last answered, `--requests` times (after a
warm-up): a server's home, a leaderboard (every game kind and chips, every order, the first
pages), a player's page, a replay step (`?step=N`, with `as=all` or a seat now and then) and
its card picture, and a live table. p50/p95/p99 per kind are printed beside the targets
(p95 < 100 ms for leaderboards and player pages, < 150 ms for a replay step); every answer
must be 200, and the count of others is printed (they are not timed).

A replay is measured as people use it: a client opens a game at a step (`replay_open`,
shown without a target: it replays the game in the engine, 40-150 ms of CPU for these
games, which python -m web does in a process of its own at a lower priority, so under load
it waits for the cheap pages) and then steps through it, mostly forward and now and then
back, `SESSION_STEPS` times (`replay`, the step the target is for), each step a page of its
own. The other kinds are single requests drawn at random. `--pages` measures some kinds
only.

`--workers N` sets WEB_WORKERS (python -m web's processes; default: its own, one a core).

All of it shares the machine's 2 cores: the clients, the web process and, on PostgreSQL, the
server; so the figures are an upper bound for a web process on a machine of its own.

The fill: SQLite's through the store, game by game (about 3 minutes); PostgreSQL's copied
from SQLite's fill, table by table with COPY (about 40 seconds, where writing it game by
game took 9 minutes). `--keep DIR` keeps both: the SQLite file and a PostgreSQL server's
data (DIR/pg, the server started for the run and stopped after it), and notes how each was
filled (DIR/web-bench-fill.json); `--reuse` then measures them as they are, and refuses one
filled by another version of `fill` or with other --players, --games, --pool or --seed,
saying to run once without --reuse.

Run: .venv/bin/python bench/web.py [--players 1000] [--games 20000] [--clients 20]
     [--requests 400] [--database sqlite postgresql] [--workers N] [--json] [--keep DIR]
     [--reuse] [--pages KIND ...]
     quick: --players 50 --games 300 --requests 40 --database sqlite
     fill once, then measure often: --keep /tmp/wb/sq, then --keep /tmp/wb/sq --reuse
PostgreSQL: DATABASE=postgresql://... is used as it is (its tables must not exist yet, but
with --reuse); otherwise a server is started as the tests start theirs
(tests/support/postgres.py, on a unix socket): kept in --keep's folder, else a throwaway
one. It talks only to 127.0.0.1 and that socket, and stops by itself.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import aiohttp

from bot.core.table_state import Seat, TableState
from bot.store import GameRecord, PlayerResult, Store
from bot.store.outbox import LoggedAction
from engine.game import Action, GameResult
from tests.support.finished_games import play
from tests.support.play import new_game, options_for
from tests.support.web_process import WebProcess, web_process

ROOT = Path(__file__).resolve().parent.parent
GUILD = 900_000_000_000_000_001
CHANNEL = 900_000_000_000_000_002
FIRST_USER = 800_000_000_000_000_000
#: The games filled in, with the seat counts drawn for them.
KINDS: dict[str, tuple[int, ...]] = {
    "poangpoker": (2, 3, 4), "chicago": (2, 3, 4), "poke": (2,), "pokeno": (2, 3),
}
ORDERS = ("wins", "points", "win_rate", "rating", "best")
LIVE_TABLES = 8
#: p95 targets in milliseconds (issue 25); kinds without one are measured and shown.
TARGETS_MS: dict[str, float | None] = {
    "home": None, "leaderboard": 100.0, "player": 100.0, "replay_open": None,
    "replay": 150.0, "replay_png": None, "live": None,
}
#: The kinds of page measured apart, each by all the clients (`page_urls`).
PAGE_GROUPS = ("home", "leaderboard", "player", "replay", "replay_png", "live")
SESSION_STEPS = 9  # steps of a replay after opening it (arrow keys or the links)
AI_NAME = "AI"


@dataclass(frozen=True)
class PoolGame:
    """A game played to the end by the engine: what a recorded game is made of."""

    kind: str
    seats: int
    options: dict[str, Any]
    seed: int
    log: tuple[tuple[int, list[Any]], ...]  # (seat, Action.to_json())
    result: GameResult


@dataclass
class Filled:
    """What the store holds, for the clients to ask for."""

    players: list[int]
    games: list[tuple[str, int]]  # (table id, moves)
    tables: list[str]
    seconds: float
    rows: dict[str, int] = field(default_factory=dict)


def play_pool(per_kind: int, rng: random.Random) -> list[PoolGame]:
    pool = []
    for kind, seat_counts in KINDS.items():
        for _ in range(per_kind):
            seats, seed = rng.choice(seat_counts), rng.getrandbits(31)
            game = new_game(kind, seats, seed)
            log = play(game, seed)
            assert game.is_over and game.result is not None
            pool.append(PoolGame(kind, seats, options_for(kind, seats), seed,
                                 tuple((entry.seat, list(entry.action.to_json()))
                                       for entry in log), game.result))
    return pool


def player_names(count: int) -> list[str]:
    """Plain names, and now and then one a page must escape or that is not ASCII."""
    names = []
    for n in range(count):
        if n % 97 == 5:
            names.append(f"<b>bold {n}</b>")
        elif n % 31 == 3:
            names.append(f"Åsa Öberg {n}")
        else:
            names.append(f"player{n:04d}")
    return names


def pick_seats(rng: random.Random, players: list[int], weights: list[float], count: int
               ) -> list[int]:
    seated: list[int] = []
    while len(seated) < count:
        (user,) = rng.choices(players, weights)
        if user not in seated:
            seated.append(user)
    return seated


def table_ids(rng: random.Random) -> Iterator[str]:
    seen: set[str] = set()
    while True:
        table = f"{rng.getrandbits(32):08x}"
        if table not in seen:
            seen.add(table)
            yield table


async def fill(store: Store, *, players: int, games: int, pool_size: int, seed: int,
               progress: bool) -> float:
    """The server's history, written as the bot writes it; the seconds it took."""
    rng = random.Random(seed)
    started = time.perf_counter()
    pool = play_pool(pool_size, rng)
    users = [FIRST_USER + n for n in range(players)]
    names = dict(zip(users, player_names(players), strict=True))
    # A long tail: the player of rank r plays about 1 / r**0.8 as often as the first.
    weights = [1 / (rank + 1) ** 0.8 for rank in range(players)]
    await store.set_guild_setting(GUILD, "web", "public")
    ids = table_ids(rng)
    begin = datetime(2026, 1, 1, tzinfo=UTC)
    span = timedelta(days=330) / max(games, 1)
    for n in range(games):
        game = pool[n % len(pool)]
        humans = game.seats - (1 if game.seats > 2 and rng.random() < 1 / 7 else 0)
        seated: list[int | None] = list(pick_seats(rng, users, weights, humans))
        seated += [None] * (game.seats - humans)
        rng.shuffle(seated)
        finished = begin + span * n
        start = finished - timedelta(minutes=rng.randint(4, 40))
        table = next(ids)
        result = game.result
        record = GameRecord(
            guild_id=GUILD, channel_id=CHANNEL, kind=game.kind, started_at=start,
            finished_at=finished, options=game.options, seed=game.seed,
            players=[PlayerResult(seat=seat, user_id=user,
                                  name=AI_NAME if user is None else names[user],
                                  score=result.scores[seat], place=result.places[seat],
                                  win=seat in result.winners)
                     for seat, user in enumerate(seated)])
        stamp = finished.strftime("%Y-%m-%dT%H:%M:%S.%fZ")
        actions = [LoggedAction(step, seat, action, stamp)
                   for step, (seat, action) in enumerate(game.log, start=1)]
        await store.finish_table(table, record, actions=actions, now=finished)
        if progress and (n + 1) % 1000 == 0:
            print(f"  {n + 1:,} games written ({time.perf_counter() - started:.0f} s)",
                  file=sys.stderr)
    day = begin + timedelta(days=331)
    for user in users:
        await store.claim_daily(GUILD, user, rng.randint(10, 500), now=day)
    await leave_tables_playing(store, pool, users, names, rng, ids)
    return time.perf_counter() - started


async def leave_tables_playing(store: Store, pool: list[PoolGame], users: list[int],
                               names: dict[int, str], rng: random.Random,
                               ids: Iterator[str]) -> list[str]:
    """A few tables midway through their game, saved as the bot saves a step."""
    tables = []
    for game in rng.sample(pool, min(LIVE_TABLES, len(pool))):
        played = new_game(game.kind, game.seats, game.seed)
        moves = game.log[: len(game.log) // 2]
        for seat, action in moves:
            played.apply(seat, Action.from_json(action))
        seated = rng.sample(users, game.seats)
        table = next(ids)
        now = time.time()
        state = TableState(
            table_id=table, guild_id=GUILD, channel_id=CHANNEL, kind=game.kind,
            host_id=seated[0], options=game.options,
            seats=[Seat(names[user], user) for user in seated], status="playing",
            seed=game.seed, game=played, created_at=now - 300, steps=len(moves),
            saved_at=now)
        stamp = datetime.fromtimestamp(now, UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")
        await store.save_snapshot(
            table, GUILD, CHANNEL, game.kind, state.to_dict(),
            actions=[LoggedAction(step, seat, action, stamp)
                     for step, (seat, action) in enumerate(moves, start=1)])
        tables.append(table)
    return tables


async def count_rows(store: Store) -> dict[str, int]:
    counts = {}
    async with store._read() as conn:
        for table in ("players", "games", "game_results", "table_actions", "rating_changes",
                      "table_snapshots"):
            row = await conn.fetch_one(f"SELECT count(*) AS n FROM {table}", ())
            counts[table] = int(row["n"]) if row is not None else 0
    return counts


# --- the web process -------------------------------------------------------------------------


@contextlib.asynccontextmanager
async def serving(database: str, log: Path, workers: int | None
                  ) -> AsyncIterator[WebProcess]:
    """`python -m web` on the database, its per-client rate limit raised: every client here
    is 127.0.0.1, and a limit would only measure itself."""
    env = {"WEB_RATE": "100000", "WEB_BURST": "100000", "LOG_LEVEL": "WARNING"}
    if workers is not None:
        env["WEB_WORKERS"] = str(workers)
    async with web_process(database, log, env=env) as served:
        yield served


# --- the clients ---------------------------------------------------------------------------


Session = list[tuple[str, str]]  # (page kind, address) asked one after the other


def page_urls(filled: Filled, rng: random.Random, count: int) -> dict[str, list[Session]]:
    """About `count` addresses of each kind of page, drawn as people would open them: one
    request a session, but a replay's, which steps through its game (`replay_session`)."""
    g = f"/g/{GUILD}"
    boards = [*KINDS, "chips"]
    pages = (1, 1, 1, 2, 3) if len(filled.players) >= 200 else (1,)  # pages that exist

    def board() -> str:
        kind = rng.choice(boards)
        order = "" if kind == "chips" else f"order={rng.choice(ORDERS)}&"
        return f"{g}/leaderboard/{kind}?{order}page={rng.choice(pages)}"

    def picture() -> str:
        table, moves = rng.choice(filled.games)
        step = rng.randint(0, moves)
        who = rng.choice(("", "", "all", "0"))
        return f"{g}/replay/{table}/step/{step}.png" + (f"?as={who}" if who else "")

    makers: dict[str, Callable[[], str]] = {
        "home": lambda: f"{g}",
        "leaderboard": board,
        "player": lambda: f"{g}/player/{rng.choice(filled.players)}",
        "replay_png": picture,
        "live": lambda: f"{g}/table/{rng.choice(filled.tables)}",
    }
    found = {kind: [[(kind, make())] for _ in range(count)] for kind, make in makers.items()}
    found["replay"] = [replay_session(filled, rng)
                       for _ in range(max(1, count // (SESSION_STEPS + 1)))]
    return found


WARM_BOARD_ROUNDS = 6


def every_board(filled: Filled, rng: random.Random) -> list[Session]:
    """Every board address `page_urls` can draw (each game kind and chips, each order, each
    page), `WARM_BOARD_ROUNDS` times in a random order, for the warm-up: each web worker
    reads a board's order at its first request for it (its page is a slice after that), so
    a warm-up of random boards left a few orders unread, and their first reads were
    counted (in 400 requests, enough to move p95); asked six times over 20 connections,
    each order misses a worker of two about once in 64."""
    g = f"/g/{GUILD}"
    pages = (1, 2, 3) if len(filled.players) >= 200 else (1,)
    every = [f"{g}/leaderboard/{kind}?order={order}&page={page}"
             for kind in KINDS for order in ORDERS for page in pages]
    every += [f"{g}/leaderboard/chips?page={page}" for page in pages]
    sessions = [[("leaderboard", url)] for url in every * WARM_BOARD_ROUNDS]
    rng.shuffle(sessions)
    return sessions


def replay_session(filled: Filled, rng: random.Random) -> Session:
    """A visitor's replay: a game opened at a step, then stepped through, forward four
    times in five, and back otherwise, seen as one seat knew it or face up throughout."""
    g = f"/g/{GUILD}"
    table, moves = rng.choice(filled.games)
    step = rng.randint(0, moves)
    who = rng.choice(("", "", "all", "0"))
    tail = f"&as={who}" if who else ""
    session = [("replay_open", f"{g}/replay/{table}?step={step}{tail}")]
    for _ in range(SESSION_STEPS):
        step = min(moves, step + 1) if rng.random() < 0.8 or step == 0 else step - 1
        session.append(("replay", f"{g}/replay/{table}?step={step}{tail}"))
    return session


@dataclass
class Measured:
    latencies_ms: list[float]
    failures: dict[str, int]
    seconds: float

    def summary(self, target: float | None) -> dict[str, Any]:
        ordered = sorted(self.latencies_ms)

        def pct(p: float) -> float | None:
            if not ordered:
                return None
            return round(ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))], 1)

        p95 = pct(95)
        return {"requests": len(ordered), "failures": self.failures,
                "per_second": round(len(ordered) / self.seconds, 1) if self.seconds else None,
                "p50_ms": pct(50), "p95_ms": p95, "p99_ms": pct(99),
                "mean_ms": round(statistics.fmean(ordered), 1) if ordered else None,
                "target_p95_ms": target,
                "meets_target": None if target is None or p95 is None else p95 < target}


async def measure(base: str, sessions: list[Session], clients: int) -> dict[str, Measured]:
    """`clients` clients at once (browsers, each on a connection of its own), each taking
    the next session and asking for its addresses one after the other, each as soon as it has
    the last answer; only 200s are timed, by page kind."""
    queue = iter(sessions)
    latencies: dict[str, list[float]] = {}
    failures: dict[str, dict[str, int]] = {}
    timeout = aiohttp.ClientTimeout(total=60)

    async def client() -> None:
        # A browser: one connection of its own, kept alive from page to page, so a visit
        # stays with one of the web's workers while it steps through a replay (one pool
        # shared by all the clients spread a visit over the workers, each then opening the
        # same game: a cost no browser makes the site pay).
        connector = aiohttp.TCPConnector(limit=1)
        async with aiohttp.ClientSession(connector=connector, timeout=timeout) as session:
            for visit in queue:
                for kind, url in visit:
                    began = time.perf_counter()
                    try:
                        async with session.get(base + url, allow_redirects=False) as response:
                            await response.read()
                            status = str(response.status)
                    except (aiohttp.ClientError, TimeoutError) as error:
                        status = type(error).__name__
                    if status == "200":
                        latencies.setdefault(kind, []).append(
                            (time.perf_counter() - began) * 1000)
                    else:
                        failed = failures.setdefault(kind, {})
                        failed[status] = failed.get(status, 0) + 1

    began = time.perf_counter()
    await asyncio.gather(*(client() for _ in range(clients)))
    seconds = time.perf_counter() - began
    kinds = {kind for visit in sessions for kind, _ in visit}
    return {kind: Measured(latencies.get(kind, []), failures.get(kind, {}), seconds)
            for kind in kinds}


async def run_backend(backend: str, args: argparse.Namespace, work: Path) -> dict[str, Any]:
    stamp = fill_stamp(args)
    async with database_for(backend, work, reuse=args.reuse, kept=bool(args.keep),
                            stamp=stamp) as (database, filled_before):
        seconds = 0.0
        if not filled_before and backend == "postgresql":
            began = time.perf_counter()
            source = work / "web-bench.sqlite3"
            if _stamps(work).get("sqlite") != stamp:  # this run's SQLite is filled first
                async with database_for("sqlite", work, reuse=False, kept=True,
                                        stamp=stamp) as (path, _):
                    await fill_store(path, args)
                write_stamp(work, "sqlite", stamp)
            await copy_to_postgres(source, database)
            seconds = time.perf_counter() - began
        elif not filled_before:
            seconds = await fill_store(database, args)
        if not filled_before:
            write_stamp(work, backend, stamp)
        store = await Store.open(database)
        try:
            filled = await read_back(store)
            filled.seconds = seconds
        finally:
            await store.close()
        if not args.json:
            print(f"[{backend}] filled in {filled.seconds:.0f} s: {filled.rows}",
                  file=sys.stderr)
        rng = random.Random(args.seed + 1)
        results: dict[str, Any] = {}
        async with serving(database, work / f"web-{backend}.log",
                           args.workers) as served:
            warm = page_urls(filled, rng, args.warmup)
            # its own draws: the measured addresses stay those of the runs before
            warm["leaderboard"] += every_board(filled, random.Random(args.seed + 2))
            for group, sessions in warm.items():
                if group in args.pages:
                    await measure(served.url, sessions, args.clients)
            for group, sessions in page_urls(filled, rng, args.requests).items():
                if group not in args.pages:
                    continue
                for kind, measured in (await measure(served.url, sessions,
                                                     args.clients)).items():
                    results[kind] = measured.summary(TARGETS_MS[kind])
                served.check()  # a page that brought the process down is no figure
        return {"fill_s": round(filled.seconds, 1), "reused": filled_before,
                "workers": args.workers,
                "rows": filled.rows, "pages": results}


async def fill_store(database: str, args: argparse.Namespace) -> float:
    """`fill` on the database; the seconds it took."""
    store = await Store.open(database)
    try:
        return await fill(store, players=args.players, games=args.games, pool_size=args.pool,
                          seed=args.seed, progress=not args.json)
    finally:
        await store.close()


async def read_back(store: Store) -> Filled:
    """What the store holds for the clients to ask for: its players, each game's table id
    and number of moves, the tables playing (a reused database's too)."""
    async with store._read() as conn:
        players = [int(row["user_id"]) for row in await conn.fetch_all(
            "SELECT user_id FROM players ORDER BY user_id", ())]
        games = [(str(row["table_id"]), int(row["moves"])) for row in await conn.fetch_all(
            "SELECT table_id, max(step) AS moves FROM table_actions"
            " WHERE table_id IN (SELECT table_id FROM games WHERE guild_id = ?)"
            " GROUP BY table_id", (GUILD,))]
        tables = [str(row["table_id"]) for row in await conn.fetch_all(
            "SELECT table_id FROM table_snapshots WHERE guild_id = ?", (GUILD,))]
    return Filled(players, games, tables, 0.0, await count_rows(store))


@contextlib.asynccontextmanager
async def database_for(backend: str, work: Path, *, reuse: bool, kept: bool, stamp: dict[str, Any]
                       ) -> AsyncIterator[tuple[str, bool]]:
    """The database to fill, and whether it is filled already: `--reuse` of a kept SQLite
    file, or of a kept PostgreSQL server's database (`--keep DIR`: its data in DIR/pg, the
    server stopped at the end and started again by the next run), or of DATABASE's. A kept
    database filled by another version of `fill` (or with other --players, --games, --pool
    or --seed) is refused, with what to do (`check_stamp`)."""
    if backend == "sqlite":
        path = work / "web-bench.sqlite3"
        if reuse and path.exists():
            check_stamp(work, backend, stamp)
            yield str(path), True
            return
        for old in (path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")):
            old.unlink(missing_ok=True)  # a kept folder's last run: start from nothing
        forget_stamp(work, backend)
        yield str(path), False
        return
    configured = os.environ.get("DATABASE", "")
    if configured.startswith(("postgresql://", "postgres://")):
        if reuse:
            check_stamp(work, backend, stamp)
        yield configured, reuse
        return
    if kept:
        with kept_postgres(work / "pg") as (url, made):
            if reuse and not made:
                check_stamp(work, backend, stamp)
                yield url, True
                return
            forget_stamp(work, backend)
            yield await fresh_postgres_database(url), False
        return
    from tests.support.postgres import start_server

    server = start_server()
    try:
        yield await server.fresh_database(), False
    finally:
        server.stop()


# --- a kept PostgreSQL server, and its fill copied from SQLite's -------------------------------

#: What `fill` writes, numbered: a kept database filled by another number is refused by
#: --reuse. Raise it whenever `fill` writes other rows.
FILL_VERSION = 2
STAMPS = "web-bench-fill.json"


def fill_stamp(args: argparse.Namespace) -> dict[str, Any]:
    """What a filled database holds, as far as the figures depend on it."""
    return {"fill": FILL_VERSION, "players": args.players, "games": args.games,
            "pool": args.pool, "seed": args.seed}


def _stamps(work: Path) -> dict[str, Any]:
    try:
        found = json.loads((work / STAMPS).read_text())
    except (OSError, ValueError):
        return {}
    return found if isinstance(found, dict) else {}


def write_stamp(work: Path, backend: str, stamp: dict[str, Any]) -> None:
    """Note that `backend`'s kept database is filled, and how (once it is, wholly)."""
    (work / STAMPS).write_text(json.dumps({**_stamps(work), backend: stamp}, indent=1))


def forget_stamp(work: Path, backend: str) -> None:
    stamps = _stamps(work)
    if stamps.pop(backend, None) is not None:
        (work / STAMPS).write_text(json.dumps(stamps, indent=1))


class OutdatedDatabase(SystemExit):
    """--reuse of a database this version of the bench did not fill (or not wholly)."""


def check_stamp(work: Path, backend: str, stamp: dict[str, Any]) -> None:
    found = _stamps(work).get(backend)
    if found != stamp:
        said = "was not filled to the end" if found is None else f"was filled as {found}"
        raise OutdatedDatabase(
            f"bench/web.py: the kept {backend} database in {work} {said}, not as this run "
            f"needs ({stamp}): run once without --reuse (same --keep) to fill it again.")


@contextlib.contextmanager
def kept_postgres(directory: Path) -> Iterator[tuple[str, bool]]:
    """A PostgreSQL server whose data stays in `directory` (made there by initdb the first
    time), on a unix socket there, until the block ends; its URL, and whether it was made
    now. Run as tests/support/postgres.py runs its own (as the postgres user under root)."""
    import pwd
    import signal
    import subprocess

    from tests.support.postgres import _SERVER_USER, POSTGRES_BIN, _die_with_parent

    user = _SERVER_USER if os.geteuid() == 0 else None
    directory.mkdir(parents=True, exist_ok=True)
    if user is not None:
        entry = pwd.getpwnam(user)
        os.chown(directory, entry.pw_uid, entry.pw_gid)
    data = directory / "data"
    made = not (data / "PG_VERSION").exists()
    if made:
        shutil.rmtree(data, ignore_errors=True)
        subprocess.run([str(POSTGRES_BIN / "initdb"), "-D", str(data), "-U", "postgres",
                        "--auth=trust", "--no-sync", "--encoding=UTF8", "--locale=C"],
                       user=user, capture_output=True, check=True, timeout=300)
    log = directory / "server.log"
    with log.open("ab") as out:
        server = subprocess.Popen(
            [str(POSTGRES_BIN / "postgres"), "-D", str(data), "-c", "listen_addresses=",
             "-c", f"unix_socket_directories={directory}", "-c", "fsync=off",
             "-c", "synchronous_commit=off", "-c", "full_page_writes=off",
             "-c", "max_connections=100"],
            user=user, stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
            preexec_fn=_die_with_parent)
    try:
        deadline = time.monotonic() + 120
        while subprocess.run([str(POSTGRES_BIN / "pg_isready"), "-h", str(directory), "-t", "5",
                              "-q"], timeout=60).returncode != 0:
            if server.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"PostgreSQL did not start: {log.read_text()[-2000:]}")
            time.sleep(0.1)
        yield f"postgresql://postgres@/{PG_DATABASE}?host={directory}", made
    finally:
        server.send_signal(signal.SIGINT)  # a fast shutdown: the data stays
        try:
            server.wait(timeout=60)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


PG_DATABASE = "web_bench"


async def fresh_postgres_database(url: str) -> str:
    """`url`'s database made again, empty."""
    import importlib

    asyncpg: Any = importlib.import_module("asyncpg")

    admin = await asyncpg.connect(url.replace(f"/{PG_DATABASE}?", "/postgres?"))
    try:
        await admin.execute(f'DROP DATABASE IF EXISTS "{PG_DATABASE}"')
        await admin.execute(f'CREATE DATABASE "{PG_DATABASE}"')
    finally:
        await admin.close()
    return url


async def copy_to_postgres(source: Path, target: str) -> None:
    """SQLite's filled database, row for row, into PostgreSQL's (migrated by `Store.open`
    first, so both have the same schema): what the store wrote once, copied by COPY in one
    transaction instead of written again game by game (9 minutes on two cores)."""
    import importlib
    import sqlite3

    asyncpg: Any = importlib.import_module("asyncpg")  # untyped: it ships no type information
    await (await Store.open(target)).close()  # the schema, as the bot makes it
    read = sqlite3.connect(f"{source.as_uri()}?mode=ro", uri=True)
    conn = await asyncpg.connect(target)
    try:
        names = [str(row[0]) for row in read.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
            " AND name != 'schema_version' ORDER BY name")]
        async with conn.transaction():
            await conn.execute("SET LOCAL session_replication_role = replica")  # no FK checks
            for name in names:
                cursor = read.execute(f'SELECT * FROM "{name}"')
                columns = [str(column[0]) for column in cursor.description]
                while batch := cursor.fetchmany(50_000):
                    await conn.copy_records_to_table(name, records=batch, columns=columns)
            for table_name, column in await conn.fetch(
                    "SELECT table_name, column_name FROM information_schema.columns"
                    " WHERE is_identity = 'YES' AND table_schema = current_schema()"):
                await conn.execute(
                    f"SELECT setval(pg_get_serial_sequence('{table_name}', '{column}'),"
                    f" coalesce((SELECT max({column}) FROM {table_name}), 0) + 1, false)")
        await conn.execute("ANALYZE")
    finally:
        await conn.close()
        read.close()


def table(report: dict[str, Any]) -> str:
    lines = []
    backends = list(report["backends"])
    head = f"{'page':<12}" + "".join(f"{b + ' p50':>16}{b + ' p95':>16}" for b in backends)
    lines.append(head + f"{'target p95':>13}")
    for kind, target in TARGETS_MS.items():
        row = f"{kind:<12}"
        for backend in backends:
            page = report["backends"][backend]["pages"].get(kind)
            if page is None:
                row += f"{'-':>16}{'-':>16}"
                continue
            bad = sum(page["failures"].values())
            mark = "" if page["meets_target"] in (None, True) else " !"
            row += f"{_ms(page['p50_ms']):>16}{_ms(page['p95_ms']) + mark:>16}"
            if bad:
                row += f" ({bad} not 200: {page['failures']})"
        lines.append(row + f"{'< ' + _ms(target) if target else '-':>13}")
    return "\n".join(lines)


def _ms(value: float | None) -> str:
    return "-" if value is None else f"{value:.1f} ms"


async def main_async(args: argparse.Namespace) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="dc-web-bench-") as scratch:
        work = Path(args.keep) if args.keep else Path(scratch)
        work.mkdir(parents=True, exist_ok=True)
        report: dict[str, Any] = {
            "players": args.players, "games": args.games, "clients": args.clients,
            "requests_per_page": args.requests, "targets_p95_ms": TARGETS_MS, "backends": {},
        }
        for backend in args.database:
            report["backends"][backend] = await run_backend(backend, args, work)
        return report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--games", type=int, default=20_000)
    parser.add_argument("--pool", type=int, default=25,
                        help="games played by the engine per game kind, which the recorded "
                             "games are copies of (each with its own players and time)")
    parser.add_argument("--clients", type=int, default=20)
    parser.add_argument("--requests", type=int, default=400, help="per page kind")
    parser.add_argument("--warmup", type=int, default=40, help="per page kind, not timed")
    parser.add_argument("--database", nargs="+", choices=("sqlite", "postgresql"),
                        default=["sqlite", "postgresql"])
    parser.add_argument("--seed", type=int, default=25)
    parser.add_argument("--keep", help="write the databases and logs here, and keep them")
    parser.add_argument("--reuse", action="store_true",
                        help="measure the database a last run left in --keep (or DATABASE's) "
                             "as it is, without filling it again")
    parser.add_argument("--workers", type=int, default=None,
                        help="python -m web's processes (WEB_WORKERS; default: its own)")
    parser.add_argument("--pages", nargs="+", choices=PAGE_GROUPS, default=list(PAGE_GROUPS),
                        help="the kinds of page measured (replay: a visit, opened then "
                             "stepped through)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    if args.reuse and not (args.keep or os.environ.get("DATABASE", "").startswith("postgres")):
        parser.error("--reuse needs --keep DIR (SQLite) or DATABASE (PostgreSQL)")
    if args.players < max(max(c) for c in KINDS.values()):
        parser.error("--players must be at least the largest table (4)")
    report = asyncio.run(main_async(args))
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        print(table(report))
    failed = sum(sum(page["failures"].values()) for backend in report["backends"].values()
                 for page in backend["pages"].values())
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
