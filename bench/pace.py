"""Pace benchmark: each game played by simulated people through the loopback Discord with
Discord's rate limits on, and the same with them off, side by side (issue 10).

The bot runs unmodified (`python -m bot` via BotProcess, AI seats paced by its AI_DELAY
setting as in the end-to-end tests) against a loopback that keeps Discord's buckets (5
message creates / 5 s per channel, edits and deletes likewise, 5 / 2 s per interaction
webhook, 50 / s in all). People are the end-to-end tests' AutoPlayer (tests/support/
autoplay.py), each thinking a random while after their prompt appears: "human" 2-6 s, "fast"
0.2-0.6 s. Think times come from a seed per seat, so limits on and off get the same ones.

Figures per game, speed and limits setting:

* seconds per step: from the Start click's answer to the last step the bot applied, divided
  by the steps (every move, a person's or an AI seat's, as the bot's action log has them);
* the wait from a move to the next prompt (mean, p90, max): from the answer to the click that
  made a person's prompt due to the moment a message with that prompt's buttons exists (DM,
  or the click's own updated message). "Made due" is read from the prompt's stamp, the step
  it first appeared at: the last person's move at or before that step, their own or (in a
  two-person game) the other person's, so the other person's thinking is never counted,
  while AI moves and deliveries in between are;
* REST calls per step by kind (channel message create / edit / delete, DM create / edit,
  interaction callback, followup, other), the most any one person's move set off, and
  channel requests per step; edits that changed nothing (wasted requests);
* where a late prompt's wait went (`--trace` lists its requests): the time the worker that
  sends it was held because a request in the prompt's DM channel had taken the last token of
  its bucket (discord.py then sleeps until the window resets before that call returns), and
  the rest (the bot's own work, AI moves, drawing pictures).

Runs are bounded (`--moves-human`, `--moves-fast` person moves, `--seconds` per run), so a
human-speed run is a slice of a game, not a whole one; the output says how much was played.
Times are on the loopback server's clock, taken as it records each request, so the harness's
own scheduling does not enter the figures. A benchmark, never a test: nothing here asserts.

Run: .venv/bin/python bench/pace.py [--games chicago,poke] [--speeds human,fast]
     [--limits on,off] [--moves-human 14] [--moves-fast 40] [--jobs 2] [--trace] [--json]
About 7-8 minutes with the defaults on 2 cores; it talks only to 127.0.0.1.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import json
import math
import random
import re
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from loopback import LoopbackDiscord, RateLimits, UserHandle
from loopback.errors import InteractionFailed
from loopback.models import Message, RequestRecord
from loopback.process import BotProcess
from tests.support.autoplay import AutoPlayer, lobby_message, open_table, prompt_stamp

TARGET_P90 = {"human": 1.0, "fast": 2.0}  # seconds from a move to the next prompt
TARGET_SLOWDOWN = 1.25  # seconds per step with limits / without
TARGET_CHANNEL_PER_STEP = 1.2
DEAL_NUMBER = re.compile(r"^(?:Deal|Hand) (\d+) ·", re.MULTILINE)  # in every private view
PLAY_GRACE = 1.0  # AI moves that answer the last person's move still belong to play
SLOW_WAIT = 0.5  # a prompt later than this is looked into: where did its time go

PEOPLE = ("alice", "bob")


@dataclass(frozen=True)
class Setup:
    """How a game is played here: its start command, people and AI seats."""

    kind: str
    title: str
    command: str
    people: int
    ai: int


GAMES: dict[str, Setup] = {
    # A far target: a run is a slice of a game, and one that ended early would be a shorter
    # slice than its counterpart with limits on or off.
    "sppoker": Setup("sppoker", "Sppoker", "sppoker start target:99", 2, 1),
    "poke": Setup("poke", "Poke", "poke start", 2, 0),
    "poangpoker": Setup("poangpoker", "Poängpoker", "poangpoker start", 2, 1),
    "chicago": Setup("chicago", "Chicago", "chicago start", 1, 3),
}
SPEEDS: dict[str, tuple[float, float]] = {"human": (2.0, 6.0), "fast": (0.2, 0.6)}

# Kinds of REST call, as the output names them.
CALL_KINDS = ("create", "edit", "delete", "dm", "dm_edit", "callback", "followup", "other")
CHANNEL_KINDS = ("create", "edit", "delete")
# Discord counts every call against the bot's global 50 a second but an interaction's answer
# and its followups (issue 27): what a step spends of the budget the whole bot shares.
GLOBAL_KINDS = tuple(kind for kind in CALL_KINDS if kind not in ("callback", "followup"))


@dataclass
class Options:
    ai_delay: float
    moves: dict[str, int]
    seconds: float
    seed: int
    trace: bool = False


@dataclass
class Run:
    """One game at one speed with limits on or off: the raw records and the figures."""

    game: str
    speed: str
    limits: bool
    people: int
    ai: int
    moves: int = 0  # person moves (accepted clicks)
    steps: int = 0  # every action the bot applied, AI seats' included
    play_steps: int = 0  # those applied while the people played (seconds per step)
    ai_steps: int = 0
    deals: int = 0
    elapsed: float = 0.0
    backlog: float = 0.0  # seconds the outbox took to empty once play stopped
    game_over: bool = False
    waits: list[float] = field(default_factory=list)
    calls: Counter[str] = field(default_factory=Counter)
    limited: Counter[str] = field(default_factory=Counter)  # 429s answered, by kind
    unchanged_edits: Counter[str] = field(default_factory=Counter)  # edits that changed nothing
    max_calls_per_move: int = 0
    slow: Counter[str] = field(default_factory=Counter)  # seconds of gap, by what ended it
    slow_prompts: int = 0
    slow_channel_requests: int = 0  # channel requests made while late prompts waited
    traces: list[str] = field(default_factory=list)  # the late prompts' timelines
    problems: list[str] = field(default_factory=list)
    wall: float = 0.0

    @property
    def seconds_per_step(self) -> float:
        return self.elapsed / self.play_steps if self.play_steps else math.nan

    def per_step(self, kind: str) -> float:
        return self.calls[kind] / self.steps if self.steps else math.nan

    @property
    def global_per_step(self) -> float:
        """Calls Discord counted against the global limit, a step (`calls` leaves out the
        429'd tries: each is tried again, and counted then)."""
        if not self.steps:
            return math.nan
        return sum(self.calls[k] for k in GLOBAL_KINDS) / self.steps

    @property
    def channel_per_step(self) -> float:
        if not self.steps:
            return math.nan
        return sum(self.calls[kind] for kind in CHANNEL_KINDS) / self.steps

    def wait(self, what: str) -> float:
        if not self.waits:
            return math.nan
        if what == "mean":
            return statistics.fmean(self.waits)
        if what == "max":
            return max(self.waits)
        return percentile(self.waits, 0.9)

    def figures(self) -> dict[str, Any]:
        return {
            "game": self.game, "speed": self.speed, "rate_limits": self.limits,
            "people": self.people, "ai_seats": self.ai, "person_moves": self.moves,
            "steps": self.steps, "steps_while_playing": self.play_steps,
            "ai_steps": self.ai_steps, "deals_started": self.deals,
            "game_over": self.game_over, "seconds": round(self.elapsed, 2),
            "outbox_drained_after_seconds": _round(self.backlog, 2),
            "seconds_per_step": _round(self.seconds_per_step),
            "wait": {what: _round(self.wait(what)) for what in ("mean", "p90", "max")},
            "prompts": len(self.waits),
            "calls_per_step": {kind: _round(self.per_step(kind)) for kind in CALL_KINDS},
            "calls_per_move": {kind: _round(self.calls[kind] / self.moves if self.moves
                                            else math.nan) for kind in CALL_KINDS},
            "max_calls_per_move": self.max_calls_per_move,
            "channel_requests_per_step": _round(self.channel_per_step),
            "global_requests_per_step": _round(self.global_per_step),
            "rate_limited_429": dict(self.limited),
            "edits_that_changed_nothing": dict(self.unchanged_edits),
            "slow_prompts": self.slow_prompts,
            "slow_prompt_gaps_seconds": {k: round(v, 2) for k, v in self.slow.most_common()},
            "slow_prompt_channel_requests": self.slow_channel_requests,
            "problems": self.problems[:10],
            "late_prompt_traces": self.traces,
            "wall_seconds": round(self.wall, 1),
        }


def _round(value: float, digits: int = 3) -> float | None:
    return None if not math.isfinite(value) else round(value, digits)


def percentile(values: list[float], fraction: float) -> float:
    """Nearest-rank, as bench/load.py: with few samples it reports a real observation."""
    if not values:
        return math.nan
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(fraction * len(ordered) + 0.5) - 1))
    return ordered[index]


# --- reading the loopback's records ----------------------------------------------------------


def prompt_stamps(message: Message) -> dict[tuple[int, str], float]:
    """(seat, stamp) of every version of `message` that offered enabled prompt buttons or
    menus, with the time that version came to exist: a prompt's first appearance, even if a
    later edit changed or stripped it."""
    versions = [(v.components, v.at) for v in message.history]
    versions.append((message.components, message.edited_at or message.created_at))
    found: dict[tuple[int, str], float] = {}
    for components, at in versions:
        stamp = prompt_stamp(Message(0, 0, 0, components=components))
        if stamp is not None:
            key = (int(stamp[0]), stamp[1])
            found[key] = min(found.get(key, at), at)
    return found


def classify(record: RequestRecord, dm_channels: set[str]) -> str:
    """One of CALL_KINDS: channel and DM messages apart, since they have separate buckets."""
    kind = record.kind
    if kind == "interaction_callback":
        return "callback"
    if kind.startswith("followup"):
        return "followup"
    if kind in ("message_create", "message_edit", "message_delete"):
        channel = record.path.split("/")[2]
        short = {"message_create": "create", "message_edit": "edit",
                 "message_delete": "delete"}[kind]
        if channel in dm_channels:
            return "dm" if short == "create" else "dm_" + short
        return short
    return "other"


def read_actions(database: Path) -> list[tuple[int, int, float]]:
    """(step, seat, when) of every action the bot applied, from its action log."""
    with contextlib.closing(sqlite3.connect(f"file:{database}?mode=ro", uri=True)) as conn:
        rows = conn.execute("SELECT step, seat, at FROM table_actions ORDER BY step").fetchall()
    return [(step, seat, datetime.fromisoformat(at).timestamp()) for step, seat, at in rows]


# --- one run ---------------------------------------------------------------------------------


async def person(player: AutoPlayer, user: UserHandle, rng: random.Random,
                 think: tuple[float, float], discord: LoopbackDiscord, run: Run,
                 stop: asyncio.Event) -> None:
    """One simulated person: waits for their prompt, thinks from the moment it appeared,
    answers the newest version of it."""
    clock = discord.clock
    while not stop.is_set():
        prompt = player.prompt_of(user)
        if prompt is None:
            await discord.state.changed(0.05)
            continue
        appeared = prompt.edited_at or prompt.created_at
        pause = appeared + rng.uniform(*think) - clock.time()
        if pause > 0:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), pause)
        if stop.is_set():
            return
        prompt = player.prompt_of(user) or prompt  # it may have moved on while they thought
        try:
            move = await player.answer(user, prompt)
        except (AssertionError, InteractionFailed) as error:
            run.problems.append(f"{user.name}: {str(error)[:200]}")
            continue
        if move is not None:
            run.moves += 1


async def play_one(setup: Setup, speed: str, limits: bool, options: Options) -> Run:
    """Open a table, play it until the bound, let the bot finish sending, and measure."""
    run = Run(setup.kind, speed, limits, setup.people, setup.ai)
    wall = time.monotonic()
    names = list(PEOPLE[: setup.people])
    with tempfile.TemporaryDirectory(prefix="pace-") as tmp:
        database = Path(tmp) / "bot.sqlite3"
        async with LoopbackDiscord(users=names, channels=["general"], rate_limits=limits,
                                   validate=True) as discord:
            bot = BotProcess(discord, database,
                             extra_env={"AI_DELAY": str(options.ai_delay)})
            await bot.start()
            try:
                played = await drive(discord, setup, speed, options, run, database)
            except BaseException:
                print(bot.log_tail(40), file=sys.stderr)
                raise
            finally:
                await bot.stop()
            measure(discord, database, played, run)
            run.problems += [f"rejected: {r.method} {r.path} {r.message}"
                             for r in discord.rejected()]
    run.wall = time.monotonic() - wall
    return run


@dataclass
class Played:
    """What the harness knows of a run that the records do not: where it began, and when
    each person's click was answered."""

    mark: int  # index of the first request after the lobby filled
    start_ack: float
    stopped_at: float  # when the people stopped playing
    acks: list[float]
    people: set[int]


async def drive(discord: LoopbackDiscord, setup: Setup, speed: str, options: Options,
                run: Run, database: Path) -> Played:
    """Start the table and let the people play until the bound; then let the bot finish."""
    users = [discord.user(name) for name in PEOPLE[: setup.people]]
    channel = discord.channel("general")
    await open_table(discord, users[0], channel, setup.command, users[1:], setup.ai,
                     start=False)
    lobby = lobby_message(channel)
    discord.stats.reset()
    mark = len(discord.state.requests)
    started = await users[0].click(lobby, label="Start")
    start_ack = discord.state.interactions[started.id].responded_at or discord.clock.time()
    player = AutoPlayer(discord, channel, users, seed=options.seed)
    stop = asyncio.Event()
    seats = [
        asyncio.create_task(person(
            player, user, random.Random(f"{options.seed}:{setup.kind}:{speed}:{n}"),
            SPEEDS[speed], discord, run, stop))
        for n, user in enumerate(users)
    ]
    deadline = time.monotonic() + options.seconds
    bound = options.moves[speed]
    try:
        while run.moves < bound and time.monotonic() < deadline:
            if player.winners() is not None:
                run.game_over = True
                break
            if all(task.done() for task in seats):
                break
            await discord.state.changed(0.1)
    finally:
        stop.set()
        await asyncio.gather(*seats, return_exceptions=True)
    stopped_at = discord.clock.time()
    run.backlog = await settle(discord, database)
    run.game_over = run.game_over or player.winners() is not None
    return Played(mark, start_ack, stopped_at, [m.acked_at for m in player.moves if m.acked_at],
                  {u.id for u in users})


async def settle(discord: LoopbackDiscord, database: Path, quiet: float = 1.0,
                 longest: float = 90.0) -> float:
    """Until the bot's outbox is empty and it has sent nothing for `quiet` seconds: the last
    steps' messages are part of what they cost. Quiet alone is not enough: a worker held by a
    full bucket sends nothing for up to 5 s with rows still waiting. Returns how long the
    outbox took to empty after play stopped (the narration's backlog)."""
    began = time.monotonic()
    give_up = began + longest
    drained: float | None = None
    while time.monotonic() < give_up:
        seen = len(discord.state.requests)
        await asyncio.sleep(quiet)
        if outbox_rows(database) == 0:
            drained = drained if drained is not None else time.monotonic() - began
            if len(discord.state.requests) == seen:
                break
        else:
            drained = None
    return drained if drained is not None else math.inf


def outbox_rows(database: Path) -> int:
    with contextlib.closing(sqlite3.connect(f"file:{database}?mode=ro", uri=True,
                                            timeout=5)) as conn:
        return int(conn.execute("SELECT COUNT(*) FROM outbox").fetchone()[0])


def measure(discord: LoopbackDiscord, database: Path, played: Played, run: Run) -> None:
    """Figures from the loopback's records and the bot's action log."""
    start_ack, people = played.start_ack, played.people
    state = discord.state
    actions = read_actions(database)
    dm_channels = {str(state.dm_channels[u]) for u in people if u in state.dm_channels}
    requests = state.requests[played.mark:]

    # Whose seats are people's: the seats their prompts name.
    first_seen: dict[tuple[int, str], float] = {}
    dm_of_seat: dict[int, str] = {}
    for message in state.messages.values():
        mine = str(message.channel_id) in dm_channels or message.visible_to in people
        if mine and message.author_id == state.bot.id:
            for key, at in prompt_stamps(message).items():
                first_seen[key] = min(first_seen.get(key, at), at)
                dm_of_seat[key[0]] = str(message.channel_id)
    exhausted = exhausted_buckets(requests, discord.rate_limits, dm_channels)
    person_seats = {seat for seat, _ in first_seen}

    run.steps = len(actions)
    run.ai_steps = sum(1 for _, seat, _ in actions if seat not in person_seats)
    # The pace is that of play: a clock that runs out after the people stopped (Sppoker's
    # 10-second rule) is a step, but not one anybody waited for.
    played_steps = [at for _, _, at in actions if at <= played.stopped_at + PLAY_GRACE]
    run.play_steps = len(played_steps)
    run.elapsed = (played_steps[-1] - start_ack) if played_steps else 0.0
    run.deals = max((int(found) for m in state.messages.values()
                     if str(m.channel_id) in dm_channels
                     for found in DEAL_NUMBER.findall(m.content)), default=0)

    # Each person action's answer time: the click of that seat acked first after it.
    pending_acks = sorted(played.acks)
    anchor_at: dict[int, float] = {}  # step -> when the person's click was answered
    for step, seat, at in actions:
        if seat in person_seats:
            ack = next((a for a in pending_acks if a >= at - 0.01), at)
            if ack in pending_acks:
                pending_acks.remove(ack)
            anchor_at[step] = ack
    person_steps = sorted(anchor_at)

    def anchor(stamp: str) -> float:
        step = int(stamp, 16) if stamp not in ("", "-") else 0
        earlier = [s for s in person_steps if s <= step]
        return anchor_at[earlier[-1]] if earlier else start_ack

    for (_seat, stamp), seen in sorted(first_seen.items(), key=lambda item: item[1]):
        if seen < start_ack:
            continue
        begin = anchor(stamp)
        wait = max(0.0, seen - begin)
        run.waits.append(wait)
        if wait > SLOW_WAIT:
            run.slow_prompts += 1
            explain_wait(requests, exhausted, dm_of_seat.get(_seat, ""), begin, seen, run)
            run.traces.append(timeline(requests, dm_channels, exhausted, begin, seen,
                                       f"seat {_seat} prompt {stamp} after {wait:.2f} s"))

    for message in state.messages.values():
        if message.created_at < start_ack or message.author_id != state.bot.id:
            continue
        versions = [(v.content, v.embeds, v.components, [a.id for a in v.attachments])
                    for v in message.history]
        versions.append((message.content, message.embeds, message.components,
                         [a.id for a in message.attachments]))
        same = sum(1 for a, b in itertools.pairwise(versions) if a == b)
        if same:
            where = "dm_edit" if str(message.channel_id) in dm_channels else "edit"
            run.unchanged_edits[where] += same

    for record in requests:
        kind = classify(record, dm_channels)
        if record.status == 429:
            run.limited[kind] += 1
        else:
            run.calls[kind] += 1

    # The most calls any person's move set off, up to the next person's move.
    bounds = [anchor_at[s] for s in person_steps] + [math.inf]
    for begin, end in itertools.pairwise(bounds):
        count = sum(1 for r in requests if begin <= r.at < end and r.status != 429)
        run.max_calls_per_move = max(run.max_calls_per_move, count)


@dataclass
class Exhausted:
    """A request that took its bucket's last token: discord.py's `Ratelimit.__aexit__` then
    sleeps until the window resets before the call returns, so whoever sent it (one of the
    sender's workers) is held that long although Discord already has the message."""

    at: float
    resets_at: float
    kind: str


def exhausted_buckets(requests: list[RequestRecord], limits: RateLimits,
                      dm_channels: set[str]) -> dict[int, Exhausted]:
    """Replays the loopback's windows (ratelimits.py: a window starts with its first request)
    over the recorded requests; index in `requests` -> the bucket it emptied."""
    per_kind = {"message_create": limits.message_create, "message_edit": limits.message_edit,
                "message_delete": limits.message_delete}
    windows: dict[tuple[str, str], list[float]] = {}  # -> [resets_at, used]
    found: dict[int, Exhausted] = {}
    if not limits.enabled:
        return found
    for index, record in enumerate(requests):
        limit = per_kind.get(record.kind)
        if limit is None or record.status == 429:
            continue
        key = (record.kind, record.path.split("/")[2])
        window = windows.get(key)
        if window is None or record.at >= window[0]:
            window = windows[key] = [record.at + limit.per, 0]
        window[1] += 1
        if window[1] >= limit.count:
            found[index] = Exhausted(record.at, window[0], classify(record, dm_channels))
    return found


def explain_wait(requests: list[RequestRecord], exhausted: dict[int, Exhausted],
                 channel: str, begin: float, seen: float, run: Run) -> None:
    """Split a late prompt's wait between the sender being held by a full bucket of the
    prompt's own DM channel (after the request that emptied it, perhaps sent before the
    move) and everything else: the bot's own work, AI moves, drawing, queueing."""
    chain = [(index, r) for index, r in enumerate(requests)
             if r.path.startswith(f"/channels/{channel}/") and r.status != 429]
    held = 0.0
    for index, record in chain:
        if record.at > seen:
            break
        full = exhausted.get(index)
        if full is None:
            continue
        start, stop = max(full.at, begin), min(full.resets_at, seen)
        if stop > start:
            key = f"held after a full {full.kind} bucket"
            run.slow[key] += stop - start
            held += stop - start
    run.slow["other (bot work, AI moves, drawing, queue)"] += max(0.0, seen - begin - held)
    run.slow_channel_requests += sum(
        1 for r in requests if begin < r.at <= seen and r.status != 429
        and r.kind in ("message_create", "message_edit", "message_delete")
        and not r.path.startswith(f"/channels/{channel}/"))


def timeline(requests: list[RequestRecord], dm_channels: set[str],
             exhausted: dict[int, Exhausted], begin: float, seen: float, title: str) -> str:
    """A late prompt's wait, request by request, in seconds after the move that made it due
    (`--trace`): which channel edits went first, where discord.py slept on a bucket."""
    lines = [title]
    for index, record in enumerate(requests):
        full = exhausted.get(index)
        if begin - 5.0 <= record.at < begin and full is not None and full.resets_at > begin:
            lines.append(f"    {record.at - begin:+7.3f}  {record.status}  "
                         f"{classify(record, dm_channels):<9}{record.method:<7}{record.path}"
                         f"  (bucket full until {full.resets_at - begin:+.3f})")
        if begin - 0.01 <= record.at <= seen + 0.01:
            note = f"  (bucket full until {full.resets_at - begin:+.3f})" if full else ""
            lines.append(f"    {record.at - begin:+7.3f}  {record.status}  "
                         f"{classify(record, dm_channels):<9}{record.method:<7}{record.path}"
                         f"{note}")
    return "\n".join(lines)


# --- output ------------------------------------------------------------------------------------


def verdicts(runs: list[Run]) -> list[dict[str, Any]]:
    """Each target, per game and speed, with the figures it was judged on."""
    out = []
    by = {(r.game, r.speed, r.limits): r for r in runs}
    for (game, speed, limits), run in sorted(by.items()):
        if not limits:
            continue
        p90 = run.wait("p90")
        out.append({"target": f"{speed} p90 wait <= {TARGET_P90[speed]} s", "game": game,
                    "speed": speed, "value": _round(p90),
                    "pass": bool(p90 <= TARGET_P90[speed])})
        off = by.get((game, speed, False))
        if off is not None and off.steps and run.steps:
            ratio = run.seconds_per_step / off.seconds_per_step
            out.append({"target": f"s/step with limits <= {TARGET_SLOWDOWN}x without",
                        "game": game, "speed": speed, "value": _round(ratio),
                        "pass": bool(ratio <= TARGET_SLOWDOWN)})
        out.append({"target": f"channel requests/step <= {TARGET_CHANNEL_PER_STEP}",
                    "game": game, "speed": speed, "value": _round(run.channel_per_step),
                    "pass": bool(run.channel_per_step <= TARGET_CHANNEL_PER_STEP)})
    limited = [r for r in runs if r.limits and r.steps]
    if limited:
        mean = (sum(sum(r.calls[k] for k in CHANNEL_KINDS) for r in limited)
                / sum(r.steps for r in limited))
        out.append({"target": f"channel requests/step <= {TARGET_CHANNEL_PER_STEP} "
                              "(all runs with limits)", "game": "all", "speed": "all",
                    "value": _round(mean), "pass": bool(mean <= TARGET_CHANNEL_PER_STEP)})
    return out


def _fmt(value: float, digits: int = 2) -> str:
    return "-" if value is None or math.isnan(value) else f"{value:.{digits}f}"


def code_version() -> str:
    """Which bot was measured: the tree changes under a long run, so say what it was."""
    root = Path(__file__).resolve().parent.parent
    try:
        head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=root, text=True,
                              capture_output=True, check=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "bot", "cogs", "engine"],
                               cwd=root, text=True, capture_output=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    changed = len(dirty.splitlines())
    return head + (f" + {changed} uncommitted file(s) in bot/, cogs/, engine/" if changed else "")


def report(runs: list[Run], options: Options, version: str) -> str:
    lines = [
        f"Bot at {version}.",
        f"Pace through the loopback Discord (AI_DELAY {options.ai_delay} s; people think "
        f"human {SPEEDS['human'][0]}-{SPEEDS['human'][1]} s, fast {SPEEDS['fast'][0]}-"
        f"{SPEEDS['fast'][1]} s; each run stops after {options.moves['human']} (human) / "
        f"{options.moves['fast']} (fast) person moves or {options.seconds:.0f} s: a slice of "
        "a game, not a whole one).",
        "Wait = from the answer to the move that made a person's prompt due to the prompt's "
        "buttons existing. Steps = every move the bot applied (AI seats' too; s/step counts "
        "those made while the people played, up to the last); deals = deals "
        "or hands begun (* the game ended); calls per step count every REST call, 429s apart; "
        "drain = seconds the bot's outbox took to empty once the people stopped.",
        "",
    ]
    by = {(r.game, r.speed, r.limits): r for r in runs}
    pairs = sorted({(r.game, r.speed) for r in runs},
                   key=lambda p: (list(GAMES).index(p[0]), list(SPEEDS).index(p[1])))
    header = (f"{'game / speed':<24}{'limits':>7}{'moves':>6}{'steps':>6}{'deals':>6}"
              f"{'s/step':>8}"
              f"{'wait mean':>10}{'p90':>6}{'max':>6}{'chan/step':>10}{'glob/step':>10}"
              "  calls per step: "
              + " ".join(f"{k:>8}" for k in CALL_KINDS) + f"{'429s':>6}{'max/move':>9}"
              + f"{'drain':>7}")
    lines.append(header)
    for game, speed in pairs:
        setup = GAMES[game]
        label = f"{setup.title} {speed} ({setup.people}p+{setup.ai}AI)"
        for limits in (True, False):
            run = by.get((game, speed, limits))
            if run is None:
                continue
            lines.append(
                f"{label:<24}{'on' if limits else 'off':>7}{run.moves:>6}{run.steps:>6}"
                f"{run.deals:>5}{'*' if run.game_over else ' '}"
                f"{_fmt(run.seconds_per_step):>8}{_fmt(run.wait('mean')):>10}"
                f"{_fmt(run.wait('p90')):>6}{_fmt(run.wait('max')):>6}"
                f"{_fmt(run.channel_per_step):>10}{_fmt(run.global_per_step):>10}"
                "                  "
                + " ".join(f"{_fmt(run.per_step(k)):>8}" for k in CALL_KINDS)
                + f"{sum(run.limited.values()):>6}{run.max_calls_per_move:>9}"
                + f"{_fmt(run.backlog, 1):>7}")
            label = ""
    lines += ["", "Targets:"]
    for verdict in verdicts(runs):
        mark = "PASS" if verdict["pass"] else "FAIL"
        where = "" if verdict["game"] == "all" else f"{verdict['game']} {verdict['speed']}: "
        lines.append(f"  {mark}  {where}{verdict['target']}  ({_fmt(verdict['value'])})")
    lines += ["", f"Where late prompts' waits went (prompts later than {SLOW_WAIT} s, limits "
                  "on, seconds in all). \"Held after a full bucket\": the request that took "
                  "the last token of its 5 / 5 s bucket in the prompt's DM channel does not "
                  "return (discord.py sleeps in Ratelimit.__aexit__ until the window resets), "
                  "so the prompt's worker waits:"]
    for run in runs:
        if run.limits and run.slow_prompts:
            parts = "; ".join(f"{kind} {seconds:.1f}" for kind, seconds
                              in run.slow.most_common() if seconds >= 0.05)
            lines.append(f"  {GAMES[run.game].title} {run.speed}: {run.slow_prompts} of "
                         f"{len(run.waits)} prompts; {parts}; channel requests meanwhile "
                         f"{run.slow_channel_requests}")
    wasted = [f"  {GAMES[r.game].title} {r.speed} {'on' if r.limits else 'off'}: "
              + ", ".join(f"{kind} {count}" for kind, count in sorted(r.unchanged_edits.items()))
              for r in runs if r.unchanged_edits]
    if wasted:
        lines += ["", "Edits that changed nothing (the message already looked like that):",
                  *wasted]
    if options.trace:
        for run in runs:
            if run.traces and run.limits:
                lines += ["", f"Late prompts, {run.game} {run.speed} limits "
                              f"{'on' if run.limits else 'off'}:", *run.traces]
    problems = [f"  {r.game} {r.speed} {'on' if r.limits else 'off'}: {p}"
                for r in runs for p in r.problems]
    if problems:
        lines += ["", "Problems:", *problems[:20]]
    return "\n".join(lines)


# --- main ------------------------------------------------------------------------------------


async def main_async(args: argparse.Namespace) -> list[Run]:
    options = Options(ai_delay=args.ai_delay,
                      moves={"human": args.moves_human, "fast": args.moves_fast},
                      seconds=args.seconds, seed=args.seed, trace=args.trace)
    plan = [(GAMES[g], s, limits) for g in args.games for s in args.speeds
            for limits in args.limits]
    runs: list[Run] = []

    async def one(setup: Setup, speed: str, limits: bool, gate: asyncio.Semaphore) -> None:
        async with gate:
            run = await play_one(setup, speed, limits, options)
        runs.append(run)
        if not args.json:
            print(f"  {setup.title} {speed} limits {'on' if limits else 'off'}: "
                  f"{run.moves} moves, {run.steps} steps in {run.wall:.0f} s",
                  file=sys.stderr, flush=True)

    # Human speed idles most of the time, so its runs may share the machine; fast runs
    # would compete for the 2 cores, so they go one by one.
    shared = asyncio.Semaphore(max(1, args.jobs))
    await asyncio.gather(*(one(*p, shared) for p in plan if p[1] == "human"))
    alone = asyncio.Semaphore(1)
    for p in plan:
        if p[1] != "human":
            await one(*p, alone)
    return runs


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", default=",".join(GAMES),
                        help=f"comma-separated, from {', '.join(GAMES)}")
    parser.add_argument("--speeds", default="human,fast", help="human, fast or both")
    parser.add_argument("--limits", default="on,off", help="on, off or both")
    parser.add_argument("--moves-human", type=int, default=14,
                        help="person moves per human-speed run (default 14)")
    parser.add_argument("--moves-fast", type=int, default=40,
                        help="person moves per fast run (default 40)")
    parser.add_argument("--seconds", type=float, default=120.0,
                        help="at most this long per run (default 120)")
    parser.add_argument("--ai-delay", type=float, default=0.05,
                        help="the bot's AI_DELAY (default 0.05, as the end-to-end tests)")
    parser.add_argument("--jobs", type=int, default=2,
                        help="human-speed runs played at once (they mostly wait; default 2, "
                             "a game with limits on beside the same with them off)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="figures as JSON on stdout")
    parser.add_argument("--json-file", help="also write the JSON figures to this file")
    parser.add_argument("--trace", action="store_true",
                        help="print each late prompt's requests, in the order they were made")
    args = parser.parse_args(argv)
    args.games = [g.strip() for g in args.games.split(",") if g.strip()]
    args.speeds = [s.strip() for s in args.speeds.split(",") if s.strip()]
    args.limits = [{"on": True, "off": False}[s.strip()] for s in args.limits.split(",")]
    unknown = [g for g in args.games if g not in GAMES] + \
        [s for s in args.speeds if s not in SPEEDS]
    if unknown:
        parser.error(f"unknown game or speed: {', '.join(unknown)}")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    started = time.monotonic()
    version = code_version()
    runs = asyncio.run(main_async(args))
    options = Options(args.ai_delay, {"human": args.moves_human, "fast": args.moves_fast},
                      args.seconds, args.seed, args.trace)
    figures = json.dumps({
        "bot_version": version, "ai_delay": args.ai_delay, "think_seconds": SPEEDS,
        "bounds": {"person_moves": options.moves, "seconds_per_run": args.seconds},
        "runs": [run.figures() for run in runs], "targets": verdicts(runs),
        "wall_seconds": round(time.monotonic() - started, 1),
    }, indent=2, ensure_ascii=False)
    if args.json_file:
        Path(args.json_file).write_text(figures + "\n")
    if args.json:
        print(figures)
    else:
        print(report(runs, options, version))
        print(f"\n({time.monotonic() - started:.0f} s in all)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
