"""Chaos soak: the real bot against the loopback Discord, dozens of tables of mixed games played
by people and AI seats, the bot killed -9 at random instants; then everything checked.

The bot runs unmodified (`python -m bot` via BotProcess) against a loopback Discord that keeps
Discord's rate limits and refuses any body Discord's schema would refuse. Each of `--tables`
channels has three regulars who open one table after another there, of a game drawn from
every game of the bot (chip and non-chip: bench/chaos_play.py's SETUPS), with one to three of
them seated and up to two AI seats. People think at a random pace (mostly 0.5-5 s, sometimes
longer, now and then long enough for the table's clock to answer for them); hosts deal again
or end their cash sessions between deals, now and then cancel a lobby, abort a game, or press
Cancel while a guest's Join is in flight. A click the dead bot never answered is made again
once it is back, as a person would.

For `--minutes` the bot is killed -9 at random instants (every 10 to 60 s, `--kill-every`)
and started again at once. Then nobody opens new tables, and the people play on until every
open table has accepted a click from the restarted bot (at most `FINAL_LIMIT` seconds); they
stop, the bot sends what it still has to, and is stopped. bench/chaos_checks.py then checks
from the database, the loopback's records and the bot's log: chips conserved, no finished
game lost or counted twice, every step's messages delivered exactly once (by nonce), no
acknowledged move lost, no table stuck, no unhandled traceback. Each failed check is a
violation, listed with its table, game and detail; there must be none.

Run: .venv/bin/python bench/chaos.py [--minutes 10] [--tables 50] [--database both]
     [--kill-every 10-60] [--seed 1] [--logs DIR] [--json]
`--database sqlite|postgresql|both` (default both, one after the other): PostgreSQL is a
throwaway server started as the tests start theirs (tests/support/postgres.py). A 10-minute
soak takes about 14 minutes a database on 2 cores (start-up, the final round, the outbox
drained). It talks only to 127.0.0.1 and that server's unix socket. A benchmark, never a
test (tests/project/test_chaos_smoke.py only runs a half-minute of it).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.chaos_checks import Violation, as_json, check_all, rows, undelivered
from bench.chaos_play import Bot, Channel, Feed, Soak
from bench.load import cpu_seconds, database_for, json_safe, machine_busy
from bench.scale import outbox_drained, progress
from bot.store.drivers import Database, open_database
from loopback import LoopbackDiscord
from loopback.process import BotProcess

FINAL_LIMIT = 120.0  # for every open table to answer a click after the last restart
DRAIN_LIMIT = 240.0  # for the outbox to empty once the people stopped
READY_TIMEOUT = 180.0  # a start on a busy machine, restoring dozens of tables
PEOPLE_PER_CHANNEL = 3
DATABASES = ("sqlite", "postgresql")


def channel_names(tables: int) -> list[str]:
    return [f"t{n:03d}" for n in range(tables)]


def people_of(name: str) -> list[str]:
    return [f"{name}{role}" for role in "hab"[:PEOPLE_PER_CHANNEL]]


def bot_cpu(bot: BotProcess) -> float:
    """The CPU seconds the bot's process (and its painter) has used so far."""
    if bot.process is None or bot.process.returncode is not None:
        return 0.0
    return cpu_seconds(bot.process.pid)


async def kill_now_and_then(bot: BotProcess, alive: Bot, seconds: float,
                            every: tuple[float, float], rng: random.Random,
                            out: list[Violation], cpu: list[float]) -> list[dict[str, float]]:
    """kill -9 at random instants (from one kill to the next: `every`) until `seconds` have
    passed, each time started again at once; how long each start took. Each process's CPU
    seconds go to `cpu`."""
    kills: list[dict[str, float]] = []
    began = time.monotonic()
    next_kill = began + rng.uniform(*every)
    while next_kill < began + seconds:
        await asyncio.sleep(next_kill - time.monotonic())
        alive.died()
        killed = time.monotonic()
        cpu.append(bot_cpu(bot))
        await bot.kill()
        with contextlib.suppress(Exception):
            await bot.discord.wait_for(lambda: not bot.discord.bot_connected, timeout=10)
        try:
            await bot.start(ready_timeout=READY_TIMEOUT)
        except RuntimeError as error:
            out.append(Violation("restart", f"the bot did not come back after kill "
                                            f"{len(kills) + 1}: {str(error)[-1500:]}"))
            raise
        alive.started()
        kills.append({"at_s": round(killed - began, 1),
                      "back_in_s": round(time.monotonic() - killed, 1)})
        progress(f"kill {len(kills)} at {killed - began:.0f} s; back in "
                 f"{time.monotonic() - killed:.1f} s")
        next_kill = max(killed + rng.uniform(*every), time.monotonic() + 3)
    await asyncio.sleep(max(0.0, began + seconds - time.monotonic()))
    return kills


async def final_round(soak: Soak, limit: float) -> float:
    """No new tables; the people play on until every open table has accepted a click since
    the last restart (or `limit` passes). The seconds it took."""
    soak.closing.set()
    began = time.monotonic()
    while time.monotonic() - began < limit:
        waiting = [r for r in soak.records if r.active
                   and not soak.ended(r.table_id)
                   and r.last_accepted < soak.bot.ready_at]
        if not waiting:
            break
        await asyncio.sleep(1.0)
    return round(time.monotonic() - began, 1)


class Lag:
    """How late the harness's own event loop runs (the loopback Discord lives on it): a late
    loop answers the bot late, and the bot's clicks and sends look slow or time out."""

    def __init__(self) -> None:
        self.samples: list[float] = []

    async def run(self) -> None:
        while True:
            before = time.monotonic()
            await asyncio.sleep(0.1)
            self.samples.append((time.monotonic() - before - 0.1) * 1000)
            if len(self.samples) % 300 == 0:
                # The loopback keeps every message and request: a full collection walking
                # them all stalled the loop for a second. What exists now stays, so it is
                # set aside where collections no longer look.
                gc.freeze()

    def figures(self) -> dict[str, Any]:
        ordered = sorted(self.samples) or [0.0]
        return {"harness_lag_p99_ms": round(ordered[int(0.99 * (len(ordered) - 1))]),
                "harness_lag_max_ms": round(ordered[-1])}


async def quiet(discord: LoopbackDiscord, seconds: float = 2.0, limit: float = 30.0) -> None:
    """Until the bot has sent nothing for `seconds`."""
    give_up = time.monotonic() + limit
    seen, since = -1, time.monotonic()
    while time.monotonic() < give_up:
        count = len(discord.state.requests)
        if count != seen:
            seen, since = count, time.monotonic()
        elif time.monotonic() - since >= seconds:
            return
        await asyncio.sleep(0.2)


async def soak_one(args: argparse.Namespace, backend: str, workdir: Path) -> dict[str, Any]:
    """One soak on one database: play, kill, check."""
    names = channel_names(args.tables)
    users = [person for name in names for person in people_of(name)]
    rng = random.Random(f"{args.seed}:{backend}")
    violations: list[Violation] = []
    started = time.monotonic()
    busy_before = machine_busy()
    async with LoopbackDiscord(users=users, channels=names, ack_timeout=10.0,
                               rate_limits=True, validate=True) as discord:
        database = await database_for(
            argparse.Namespace(postgres=args.postgres if backend == "postgresql" else None),
            workdir, f"chaos-{backend}")
        log_path = workdir / f"chaos-{backend}.log"
        bot = BotProcess(discord, database, log_path=log_path,
                         extra_env={"LOG_LEVEL": args.log_level, "AI_DELAY": str(args.ai_delay)})
        await bot.start(ready_timeout=READY_TIMEOUT)
        progress(f"{backend}: bot ready; {args.tables} tables for {args.minutes:g} min")
        db = await open_database(database)
        feed = Feed(discord)
        follower = asyncio.create_task(feed.run())
        lag = Lag()
        ticker = asyncio.create_task(lag.run())
        alive = Bot()
        alive.started()

        async def snapshot_of(table_id: str) -> dict[str, Any] | None:
            found = await rows(db, "SELECT snapshot FROM table_snapshots WHERE table_id = ?",
                               (table_id,))
            return as_json(found[0][0]) if found else None

        soak = Soak(discord, feed, alive, snapshot_of, args.pace)
        channels = [Channel(soak, discord.channel(name),
                            [discord.user(p).id for p in people_of(name)], rng.randrange(1 << 30))
                    for name in names]
        drivers = [asyncio.create_task(c.run()) for c in channels]
        kills: list[dict[str, float]] = []
        cpu: list[float] = []
        figures: dict[str, Any] = {}
        try:
            kills = await kill_now_and_then(bot, alive, args.minutes * 60, args.kill_every,
                                            rng, violations, cpu)
            progress(f"{backend}: {len(kills)} kills; the final round")
            figures["final_round_s"] = await final_round(soak, FINAL_LIMIT)
            soak.stopped.set()
            await asyncio.gather(*drivers, return_exceptions=True)
            figures["drain_s"] = await outbox_drained(str(database), DRAIN_LIMIT)
            if figures["drain_s"] >= DRAIN_LIMIT:
                violations += await undelivered(db, {r.table_id: r.kind for r in soak.records},
                                                figures["drain_s"])
            await quiet(discord)
        except RuntimeError:
            soak.stopped.set()
            await asyncio.gather(*drivers, return_exceptions=True)
        finally:
            follower.cancel()
            ticker.cancel()
            cpu.append(bot_cpu(bot))
            await bot.stop()
        progress(f"{backend}: checking")
        found, checked = await check_all(db, database, soak, bot.log_text())
        violations += found
        figures |= checked | lag.figures()
        await close(db)
        busy, total = (now - then for now, then in zip(machine_busy(), busy_before,
                                                       strict=True))
        figures["machine_busy_pct"] = round(100 * busy / max(1, total))
        figures["bot_cpu_pct"] = round(100 * sum(cpu) / max(1.0, time.monotonic() - started))
        stats = discord.stats.snapshot()
        records = soak.records
        figures |= {
            "kills": len(kills),
            "restart_s_mean": round(statistics.fmean(k["back_in_s"] for k in kills), 1)
            if kills else None,
            "restart_s_max": max((k["back_in_s"] for k in kills), default=None),
            "tables": args.tables,
            "tables_opened": len(records),
            "games_played": sum(1 for r in records if r.state != "cancelled"),
            "lobbies_cancelled": sum(1 for r in records if r.state == "cancelled"),
            "aborted_by_host": sum(1 for r in records if r.aborted),
            "join_cancel_races": sum(1 for r in records
                                     if any("join/cancel race" in n for n in r.notes)),
            "aborted_leftovers": sum(1 for r in records
                                     if any("lobby never came" in n for n in r.notes)),
            "games_by_kind": dict(sorted({r.kind: sum(1 for x in records if x.kind == r.kind)
                                          for r in records}.items())),
            "interactions": len(discord.state.interactions),
            "requests": sum(stats["requests"].values()),
            "held_back_429": sum(stats["rate_limited"].values()) + stats["global_rate_limited"],
            "harness_problems": soak.problems[:20],
            "seconds": round(time.monotonic() - started),
            "violations": len(violations),
            "violation_details": [v.to_json() for v in violations],
            "log": str(log_path) if args.logs else None,
        }
    return figures


async def close(db: Database) -> None:
    with contextlib.suppress(Exception):
        await db.close()


async def main_async(args: argparse.Namespace) -> dict[str, Any]:
    from tests.support.postgres import start_server

    wanted = list(DATABASES) if args.database == "both" else [args.database]
    args.postgres = start_server() if "postgresql" in wanted else None
    results: dict[str, Any] = {}
    try:
        with tempfile.TemporaryDirectory(prefix="dc-chaos-") as tmp:
            workdir = Path(args.logs) if args.logs else Path(tmp)
            workdir.mkdir(parents=True, exist_ok=True)
            for backend in wanted:
                results[backend] = await soak_one(args, backend, workdir)
    finally:
        if args.postgres is not None:
            args.postgres.stop()
    return {
        "kills": sum(r["kills"] for r in results.values()),
        "steps": sum(r["steps"] for r in results.values()),
        "violations": sum(r["violations"] for r in results.values()),
        "minutes": args.minutes,
        "tables": args.tables,
        "databases": results,
    }


ROWS: tuple[tuple[str, str], ...] = (
    ("kills", "kill -9s"),
    ("restart_s_mean", "restart to ready, mean s"),
    ("restart_s_max", "restart to ready, max s"),
    ("tables", "channels (tables at once)"),
    ("tables_opened", "tables opened"),
    ("games_played", "games started or seated"),
    ("games_finished_seen", "games seen to end"),
    ("games_recorded", "games rows"),
    ("games_aborted", "   of them aborted"),
    ("lobbies_cancelled", "lobbies cancelled"),
    ("join_cancel_races", "Join racing Cancel"),
    ("aborted_by_host", "tables aborted by their host"),
    ("aborted_leftovers", "   of them: lobby never shown"),
    ("steps", "steps applied (action log)"),
    ("moves_acked", "moves acknowledged to people"),
    ("interactions", "interactions"),
    ("requests", "requests to Discord"),
    ("held_back_429", "held back by rate limits (429)"),
    ("messages_by_nonce", "messages sent with a nonce"),
    ("nonces_sent_again", "nonces sent again (deduplicated)"),
    ("bot_messages_without_nonce", "bot messages without nonce"),
    ("members_total", "chips: members' balances"),
    ("tables_total", "chips: on open tables"),
    ("house_issued", "chips: issued by the house"),
    ("house_into_tables_net", "chips: AI seats' net from house"),
    ("tables_unverified", "chip tables not verifiable"),
    ("final_round_s", "final round, s"),
    ("drain_s", "outbox drained after, s"),
    ("outbox_left_at_stop", "outbox rows at stop (after drain)"),
    ("machine_busy_pct", "machine busy (all of it), %"),
    ("bot_cpu_pct", "the bot's CPU (of one core), %"),
    ("harness_lag_p99_ms", "harness loop late, p99 ms"),
    ("harness_lag_max_ms", "harness loop late, max ms"),
    ("log_errors", "ERROR lines in the bot's log"),
    ("tracebacks", "tracebacks in the bot's log"),
    ("tables_stuck", "tables stuck"),
    ("seconds", "run took, s"),
    ("violations", "VIOLATIONS"),
)


def report(summary: dict[str, Any]) -> str:
    results = summary["databases"]
    names = list(results)
    width = max(len(label) for _, label in ROWS) + 2
    lines = [f"chaos soak: {summary['minutes']:g} min, {summary['tables']} tables",
             f"{'':<{width}}" + "".join(f"{name:>14}" for name in names),
             "-" * (width + 14 * len(names))]
    for key, label in ROWS:
        cells = [results[name].get(key) for name in names]
        lines.append(f"{label:<{width}}" + "".join(
            f"{'n/a' if c is None else c!s:>14}" for c in cells))
    for name in names:
        figures = results[name]
        lines.append("")
        lines.append(f"[{name}] games by kind: {figures['games_by_kind']}")
        if figures.get("audit"):
            lines.append(f"[{name}] Store.chip_audit(): {figures['audit']}")
        for problem in figures["harness_problems"]:
            lines.append(f"[{name}] harness: {problem}")
        for violation in figures["violation_details"]:
            lines.append(f"[{name}] VIOLATION " + Violation(**violation).line())
        if figures.get("log"):
            lines.append(f"[{name}] the bot's log: {figures['log']}")
    verdict = "PASS" if summary["violations"] == 0 else "FAIL"
    lines += ["", f"{verdict}: {summary['violations']} violation(s), {summary['kills']} kills, "
                  f"{summary['steps']} steps"]
    return "\n".join(lines)


def kill_range(text: str) -> tuple[float, float]:
    low, _, high = text.partition("-")
    bounds = float(low), float(high or low)
    if not 0 < bounds[0] <= bounds[1]:
        raise argparse.ArgumentTypeError(f"not a range of seconds: {text!r}")
    return bounds


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, default=10.0,
                        help="how long the bot is killed now and then (default 10)")
    parser.add_argument("--tables", type=int, default=50,
                        help="channels, each with a table at a time (default 50)")
    parser.add_argument("--database", choices=("sqlite", "postgresql", "both"), default="both")
    parser.add_argument("--kill-every", type=kill_range, default=(10.0, 60.0),
                        metavar="MIN-MAX", help="seconds from one kill to the next (10-60)")
    parser.add_argument("--ai-delay", type=float, default=0.5,
                        help="AI_DELAY of the bot: seconds an AI seat thinks (default 0.5)")
    parser.add_argument("--pace", type=float, default=1.0,
                        help="the people's think times, times this (default 1: about 9 s a "
                             "decision; 0.3 for a quick smoke run)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--logs", help="keep the bot's logs (and SQLite files) in this folder")
    parser.add_argument("--log-level", default="INFO", choices=("DEBUG", "INFO", "WARNING"),
                        help="the bot's LOG_LEVEL (DEBUG: every message it sends, for a hunt)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    summary = asyncio.run(main_async(args))
    if args.json:
        print(json.dumps(json_safe(summary), allow_nan=False))
    else:
        print(report(summary))
    return 0 if summary["violations"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
