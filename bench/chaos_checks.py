"""What bench/chaos.py checks once a soak is over, from the database, the loopback's records,
the harness's own notes (`TableRecord`) and the bot's log. Each failed check is a `Violation`
with what a developer needs to find it again: the check, the table, its game, and detail (a
log excerpt where there is one).

1. Chips conserved. Every account's balance is the sum of its ledger rows. Every cash table
   holds what went into it: people's buy-ins less their cash-outs (the ledger rows naming the
   table) plus the house chips its AI seats brought (read from its first dealt snapshot: AI
   seats sit down in the lobby only and never rebuy), less what the AI seats took back at its
   end (their net in the game's results, plus the buy-in of each AI seat still seated; an AI
   seat that went broke left with nothing). A table still open holds that in its stacks; a
   lobby that closed gave everything back. When the store has `chip_audit` (issue 22's
   double-entry audit), its verdict and totals are added.
2. No finished game lost or counted twice: every table whose end the channel was told (the
   final message's "/replay game:<table>" line) has exactly one `games` row, finished; no
   table has two rows; no finished row is left untold; no ended table still has a snapshot.
3. Every step's messages delivered exactly once: the outbox is empty at the end (nothing
   saved was left unsent), the bot never gave up on a row, no message of a table is told
   twice under two nonces (the nonce, `<table>.<row>`, is what makes a re-sent row harmless,
   so a copy under another nonce was written twice): the same prompt (its buttons carry the
   step it first appeared at) posted twice, or the same message posted twice with no action
   of the table between them; each message compared as it was posted (what it told when it
   arrived, not what a later answer or strip made of it); and Discord refused no request as
   malformed.
4. No acknowledged move lost: at every table, each seat has at least as many actions in the
   action log as the clicks the harness saw acknowledged as that seat's moves.
5. No table stuck: every table still open at the end accepted a click after the last restart.
6. No unhandled traceback in the bot's log.
"""

from __future__ import annotations

import bisect
import json
from collections import Counter, defaultdict
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from bench.chaos_play import Lives, Soak, TableRecord, has_button
from bot.store.drivers import Database
from loopback import LoopbackDiscord
from loopback.models import walk_components
from tests.support.autoplay import is_prompt_component

REASONS_ISSUED = ("opening balance", "daily claim", "admin grant")
TRACEBACK = "Traceback (most recent call last):"
RESTART_NOTICE = "♻️ I restarted"


@dataclass(frozen=True)
class Violation:
    check: str
    detail: str
    table: str | None = None
    game: str | None = None

    def line(self) -> str:
        where = f" [{self.game} {self.table}]" if self.table else ""
        return f"{self.check}{where}: {self.detail}"

    def to_json(self) -> dict[str, Any]:
        return {"check": self.check, "table": self.table, "game": self.game,
                "detail": self.detail}


async def rows(db: Database, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    async with db.reading() as conn:
        found: list[Any] = await conn.fetch_all(sql, params)
    return [tuple(row) for row in found]


def as_json(value: Any) -> Any:
    return json.loads(value) if isinstance(value, str | bytes) else value


# --- 1. chips -----------------------------------------------------------------------------------


async def check_chips(db: Database, soak: Soak, database: Path | str,
                      out: list[Violation]) -> dict[str, Any]:
    accounts = await rows(db, "SELECT b.guild_id, b.user_id, b.balance, coalesce((SELECT"
                              " sum(delta) FROM chip_ledger l WHERE l.guild_id = b.guild_id AND"
                              " l.user_id = b.user_id), 0) FROM chip_balances b")
    for guild, user, balance, total in accounts:
        if balance != total or balance < 0:
            out.append(Violation("chips", f"user {user} of guild {guild}: balance {balance}, "
                                          f"its ledger sums to {total}"))
    issued = (await rows(db, "SELECT coalesce(sum(delta), 0) FROM chip_ledger WHERE reason IN"
                             " (?, ?, ?)", REASONS_ISSUED))[0][0]
    by_table = dict(await rows(db, "SELECT table_id, sum(delta) FROM chip_ledger WHERE table_id"
                                   " IS NOT NULL GROUP BY table_id"))
    snapshots = {table: as_json(snapshot) for table, snapshot in
                 await rows(db, "SELECT table_id, snapshot FROM table_snapshots")}
    results: dict[str, list[tuple[Any, ...]]] = defaultdict(list)
    for row in await rows(db, "SELECT g.table_id, r.user_id, r.score FROM games g JOIN"
                              " game_results r ON r.game_id = g.id WHERE g.table_id IS NOT NULL"):
        results[str(row[0])].append(row[1:])
    records = {r.table_id: r for r in soak.records if r.chip}
    tables_total = ai_net = unverified = 0
    for table_id in sorted(set(records) | set(map(str, by_table))):
        record = records.get(table_id)
        ledger = int(by_table.get(table_id) or 0)
        snapshot = snapshots.get(table_id)
        if snapshot is not None:
            seats = snapshot.get("seats") or []
            stacks = sum(int(s) for s in snapshot.get("stacks") or [])
            tables_total += stacks
            ai_now = sum(b for seat, b in zip(seats, snapshot.get("bought") or [], strict=False)
                         if seat.get("user_id") is None)
            ai_in = max(ai_now, record.ai_bought or 0) if record else ai_now
            ai_net += ai_in
            if stacks != ai_in - ledger:
                out.append(Violation(
                    "chips", f"open table holds {stacks} chips in its stacks; people put in "
                             f"{-ledger} net and AI seats {ai_in}", table_id,
                    record.kind if record else snapshot.get("kind")))
            continue
        ended = results.get(table_id)
        if ended is None:
            if ledger != 0:
                out.append(Violation("chips", f"closed without a game, yet its ledger rows sum "
                                              f"to {ledger} (a buy-in not given back, or paid "
                                              f"twice)", table_id,
                                     record.kind if record else None))
            continue
        ai_rows = [score for user, score in ended if user is None]
        if record is None or (record.ai_bought is None and (record.ai_added or ai_rows)):
            unverified += 1  # its AI seats' buy-ins were never seen
            continue
        ai_in = record.ai_bought or 0
        per_ai = ai_in // record.ai_seats if record.ai_seats else 0
        ai_out = sum(int(score or 0) for score in ai_rows) + per_ai * len(ai_rows)
        ai_net += ai_in - ai_out
        if ledger != ai_in - ai_out:
            out.append(Violation(
                "chips", f"ended table: people's ledger rows sum to {ledger}, but the AI seats "
                         f"brought {ai_in} and took back {ai_out} (so people should be "
                         f"{ai_in - ai_out:+d})", table_id, record.kind))
    members = sum(int(balance) for _, _, balance, _ in accounts)
    figures: dict[str, Any] = {
        "members_total": members, "tables_total": tables_total, "house_issued": int(issued),
        "house_into_tables_net": ai_net, "tables_unverified": unverified,
    }
    audit = await store_audit(database)
    if audit is not None:
        figures["audit"] = audit
        if not audit.get("ok"):
            out.append(Violation("chips", f"Store.chip_audit() is not ok: {audit}"))
    return figures


async def store_audit(database: Path | str) -> dict[str, Any] | None:
    """The store's own audit (issue 22), once it has one."""
    from bot.store import Store

    if not hasattr(Store, "chip_audit"):
        return None
    store = await Store.open(database)
    try:
        audit = await store.chip_audit()
    finally:
        await store.close()
    found = {name: getattr(audit, name) for name in
             ("ok", "members_total", "tables_total", "house_issued") if hasattr(audit, name)}
    return {key: value if isinstance(value, bool | int | float | str | None) else str(value)
            for key, value in found.items()}


# --- 2. games -----------------------------------------------------------------------------------


async def check_games(db: Database, soak: Soak, out: list[Violation]) -> dict[str, Any]:
    counted: dict[str, Counter[str]] = defaultdict(Counter)
    kinds: dict[str, str] = {}
    for table_id, status, kind in await rows(db, "SELECT table_id, status, kind FROM games"
                                                 " WHERE table_id IS NOT NULL"):
        counted[str(table_id)][str(status)] += 1
        kinds[str(table_id)] = str(kind)
    open_tables = {str(t) for (t,) in await rows(db, "SELECT table_id FROM table_snapshots")}
    soak.feed.catch_up()
    told = set(soak.feed.ended)
    for table_id, statuses in sorted(counted.items()):
        if sum(statuses.values()) > 1:
            out.append(Violation("games", f"counted {sum(statuses.values())} times: "
                                          f"{dict(statuses)}", table_id, kinds[table_id]))
        if statuses["finished"] and table_id not in told:
            out.append(Violation("games", "recorded as finished, but the channel was never "
                                          "told it ended", table_id, kinds[table_id]))
        if table_id in open_tables:
            out.append(Violation("games", f"recorded ({dict(statuses)}) yet still open",
                                 table_id, kinds[table_id]))
    by_id = {r.table_id: r for r in soak.records}
    for table_id in sorted(told):
        if counted[table_id]["finished"] != 1:
            record = by_id.get(table_id)
            out.append(Violation("games", f"the players saw it end, but `games` has "
                                          f"{dict(counted[table_id]) or 'no row'}", table_id,
                                 record.kind if record else None))
    return {"games_finished_seen": len(told),
            "games_recorded": sum(sum(c.values()) for c in counted.values()),
            "games_aborted": sum(c["aborted"] for c in counted.values())}


# --- 3. delivery --------------------------------------------------------------------------------


def message_key(message: Any) -> str:
    """What a reader was told by a message when it arrived (its first version, before any
    edit): a copy of it under another nonce says the same. Not as it is now: a seat's DM of
    news without buttons ("Nothing is needed from you right now."), then its turn as a new DM,
    which the seat answered, end up reading alike (the answered DM shows the seat's view
    again, and loses its buttons), though each told something new when it came."""
    first = message.history[0] if message.history else message
    buttons = sorted(f"{c.get('custom_id')}{' (disabled)' if c.get('disabled') else ''}"
                     for c in walk_components(first.components) if c.get("type") == 2)
    return json.dumps([first.content, first.embeds, buttons,
                       sorted(a.filename for a in first.attachments)], sort_keys=True,
                      default=str)


def is_prompt_key(key: str) -> bool:
    """Whether a message, as `message_key` read it, carried a seat's prompt buttons."""
    return any(is_prompt_component(custom_id.removesuffix(" (disabled)"))
               for custom_id in json.loads(key)[2])


async def undelivered(db: Database, kinds: dict[str, str], waited: float) -> list[Violation]:
    """The outbox rows still there after the people stopped and the bot had `waited`
    seconds to send them: saved, never delivered."""
    by_table: dict[str, list[tuple[int, dict[str, Any]]]] = defaultdict(list)
    for row_id, table_id, body in await rows(db, "SELECT id, table_id, body FROM outbox"
                                                 " ORDER BY id"):
        by_table[str(table_id)].append((int(row_id), as_json(body)))
    found = []
    for table_id, left in by_table.items():
        row_id, body = left[0]
        found.append(Violation("delivery", f"{len(left)} outbox row(s) still unsent "
                                           f"{waited:.0f} s after the people stopped, the first "
                                           f"row {row_id} ({body.get('op')}, "
                                           f"{str(body.get('content'))[:80]!r})",
                               table_id, kinds.get(table_id)))
    return found


async def actions_by_table(db: Database) -> dict[str, list[float]]:
    """When each table's actions were applied, in order."""
    times: dict[str, list[float]] = defaultdict(list)
    for table, at in await rows(db, "SELECT table_id, at FROM table_actions ORDER BY table_id,"
                                    " step"):
        times[str(table)].append(datetime.fromisoformat(str(at)).timestamp())
    return times


def same_step(copies: list[Any], action_times: list[float], key: str) -> list[Any]:
    """The copies that tell the same thing twice: a prompt (its buttons carry the step it
    first appeared at, so the same prompt is the same question) however far apart; any other
    message only when no action came between the copies (the same step told again: a deal's
    narration may well read the same at a later deal)."""
    if is_prompt_key(key):
        return copies
    by_step: dict[int, list[Any]] = defaultdict(list)
    for message in copies:
        by_step[bisect.bisect_right(action_times, message.created_at)].append(message)
    return max(by_step.values(), key=len)


async def steps_near(db: Database, table: str, times: list[float], lives: Lives,
                     window: float = 2.0) -> str:
    """The table's logged actions within `window` seconds before each of `times`: what the
    bot was applying when it wrote a message."""
    found = []
    for step, seat, action, at in await rows(db, "SELECT step, seat, action, at FROM"
                                                 " table_actions WHERE table_id = ? ORDER BY step",
                                             (table,)):
        when = datetime.fromisoformat(str(at)).timestamp()
        if any(-window <= moment - when <= window for moment in times):
            found.append(f"step {step} seat {seat} {str(action)[:60]} at {lives.at(when)}")
    return "actions then: " + ("; ".join(found) if found else "none logged")


async def check_delivery(db: Database, discord: LoopbackDiscord, log: str, lives: Lives,
                         out: list[Violation], kinds: dict[str, str]) -> dict[str, Any]:
    state = discord.state
    for line in log.splitlines():
        if "giving up on message" in line:
            out.append(Violation("delivery", line.strip()[:300]))
    nonce_of = {message_id: nonce for (_, _, nonce), message_id in state.nonces.items()}
    told: dict[tuple[int, str, str], list[Any]] = defaultdict(list)
    without_nonce = 0
    for message in state.messages.values():
        if message.author_id != state.bot.id or message.interaction_id is not None \
                or message.deleted:  # a board replaced by its repost is seen once
            continue
        nonce = nonce_of.get(message.id)
        if nonce is None:
            without_nonce += 1
            continue
        if message.content.startswith(RESTART_NOTICE):
            continue  # said once by every restart, not by a step
        table = nonce.split(".", 1)[0]
        told[(message.channel_id, table, message_key(message))].append(message)
    action_times = await actions_by_table(db)
    for (channel, table, key), found in told.items():
        copies = same_step(found, action_times.get(table, []), key)
        if len(copies) > 1:
            where = "a DM" if state.channels[channel].is_dm else f"channel {channel}"
            seen = ", ".join(f"{nonce_of[m.id]} (message {m.id} at {lives.at(m.created_at)})"
                             for m in copies)
            steps = await steps_near(db, table, [m.created_at for m in copies], lives)
            out.append(Violation("delivery", f"told {len(copies)} times in {where}: {seen}; "
                                             f"{steps}; the message: {key[:240]}", table,
                                 kinds.get(table)))
    creates = [r for r in state.requests if r.kind == "message_create" and
               isinstance(r.body, dict) and r.body.get("nonce")]
    sent = Counter(str(r.body["nonce"]) for r in creates)
    for rejected in discord.rejected():
        out.append(Violation("delivery", f"Discord refused {rejected.method} {rejected.path}: "
                                         f"{rejected.code} {rejected.message} "
                                         f"{json.dumps(rejected.details)[:200]}"))
    (left,) = (await rows(db, "SELECT count(*) FROM outbox"))[0]
    return {"outbox_left_at_stop": int(left),  # written by clocks and AI seats after the drain
            "messages_by_nonce": len(state.nonces),
            "nonces_sent_again": sum(n - 1 for n in sent.values() if n > 1),
            "bot_messages_without_nonce": without_nonce}


# --- 4. acknowledged moves, 5. stuck tables -----------------------------------------------------


async def check_moves(db: Database, soak: Soak, out: list[Violation]) -> dict[str, Any]:
    logged: dict[str, Counter[int]] = defaultdict(Counter)
    for table_id, seat, count in await rows(db, "SELECT table_id, seat, count(*) FROM"
                                                " table_actions GROUP BY table_id, seat"):
        logged[str(table_id)][int(seat)] = int(count)
    acked = 0
    for record in soak.records:
        for seat, moves in record.moves.items():
            acked += moves
            if logged[record.table_id][seat] < moves:
                out.append(Violation(
                    "moves", f"seat {seat}: {moves} moves acknowledged, "
                             f"{logged[record.table_id][seat]} in the action log",
                    record.table_id, record.kind))
    return {"steps": sum(sum(c.values()) for c in logged.values()), "moves_acked": acked}


def describe(soak: Soak, record: TableRecord) -> str:
    """What the table's people see: its board and each one's newest view of it."""
    state = soak.discord.state
    board = next((m for m in soak.feed.newest(record.channel_id) if not m.deleted
                  and m.visible_to is None and (has_button(m, record.table_id, "h")
                                                or has_button(m, record.table_id, "k")
                                                or has_button(m, record.table_id, "l"))), None)
    lines = [f"state {record.state}, last accepted click "
             f"{record.last_accepted - soak.bot.ready_at:+.0f} s from the last restart; board: "
             f"{board.content[:200] if board else None!r}"]
    for user_id in record.people:
        user = state.users[user_id]
        dm = state.dm_channels.get(user_id)
        view = next((m for m in soak.feed.newest(dm) if not m.deleted
                     and f"<#{record.channel_id}>" in m.content), None)
        labels = [b.label for b in view.buttons() if not b.disabled] if view else []
        lines.append(f"{user.name}: {view.content[:160] if view else None!r} {labels}")
    return "; ".join(lines) + ("; notes: " + " | ".join(record.notes[-3:]) if record.notes else "")


def check_stuck(soak: Soak, out: list[Violation]) -> dict[str, Any]:
    stuck = 0
    for record in soak.records:
        if record.active and not soak.ended(record.table_id) \
                and record.last_accepted < soak.bot.ready_at:
            stuck += 1
            out.append(Violation("stuck", describe(soak, record), record.table_id, record.kind))
    return {"tables_stuck": stuck}


# --- 6. the log ---------------------------------------------------------------------------------


def chain_end(lines: list[str], index: int) -> int:
    """The line of the last exception of the chain of tracebacks starting at `index`."""
    end = index + 1
    while True:
        while end < len(lines) and (lines[end].startswith((" ", "\t")) or not lines[end]):
            end += 1  # the frames
        after = end + 1  # `end` is the exception's line; does another traceback follow?
        while after < len(lines) and not lines[after].strip():
            after += 1
        if after < len(lines) and lines[after].startswith(("During handling", "The above")):
            after += 1
            while after < len(lines) and not lines[after].strip():
                after += 1
            if after < len(lines) and lines[after].startswith(TRACEBACK):
                end = after + 1
                continue
        return end


def check_log(log: str, out: list[Violation]) -> dict[str, Any]:
    """Each traceback (a chain of them counts once), grouped by its last exception's type and
    the bot's own line it went through last; the first few of each kind are shown."""
    lines = log.splitlines()
    seen: Counter[str] = Counter()
    errors = sum(1 for line in lines if " ERROR " in line)
    index = 0
    while index < len(lines):
        if TRACEBACK not in lines[index]:
            index += 1
            continue
        cause = lines[index - 1].strip() if index else ""
        end = chain_end(lines, index)
        last = lines[end] if end < len(lines) else ""
        ours = [lines[i].strip() for i in range(index, end)
                if lines[i].strip().startswith('File "') and "/site-packages/" not in lines[i]
                and "/lib/python3" not in lines[i]]
        where = ours[-1] if ours else ""
        key = f"{last.split(':', 1)[0]} at {where}"
        seen[key] += 1
        if seen[key] <= 3:  # each kind shown a few times, all counted
            out.append(Violation("traceback", f"{cause[:140]} → {where[:150]}: {last[:180]}"))
        index = end + 1
    repeats = sum(n - 3 for n in seen.values() if n > 3)
    if repeats:
        out.append(Violation("traceback", f"and {repeats} more of the same kinds"))
    return {"log_errors": errors, "tracebacks": sum(seen.values())}


async def check_all(db: Database, database: Path | str, soak: Soak, log: str
                    ) -> tuple[list[Violation], dict[str, Any]]:
    out: list[Violation] = []
    kinds = {r.table_id: r.kind for r in soak.records}
    figures: dict[str, Any] = {}
    figures |= await check_chips(db, soak, database, out)
    figures |= await check_games(db, soak, out)
    figures |= await check_delivery(db, soak.discord, log, soak.bot.lives(), out, kinds)
    figures |= await check_moves(db, soak, out)
    figures |= check_stuck(soak, out)
    figures |= check_log(log, out)
    return out, figures

