"""Interactions for another process's tables: passed on through the database.

Discord sends a guild's interactions to the guild's shard, whose process drives its tables;
but it sends every DM interaction to shard 0. A click in a DM (a private prompt, "Show my
hand") on a table of another shard's guild therefore reaches the process of shard 0, which
does not drive that table. That process passes the raw interaction on, and the process
holding the table's shard handles it exactly as if the gateway had delivered it there,
answering through the interaction's own id and token, which any process may use.

It goes in a NOTIFY's payload itself (`Store.notify`): one round trip from click to owner,
where a row to claim cost two more, on the path of a click whose 3 s are running. A NOTIFY
carries at most 8,000 bytes; a larger interaction (a long message it was clicked on) goes as
a row of forwarded_interactions that the owner claims (`Store.forward_interaction`). Either
way exactly one process handles it: only the holder of a shard's lease runs that shard.

Only interactions whose custom_id names a table (``dc:<kind>:<table>...``) that is not here
are passed on, and only when the database says the table belongs to another shard; the rest
(slash commands, a table that is gone) are handled where they arrive. A single process that
runs every shard passes nothing on, and needs no PostgreSQL.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
from collections.abc import Callable
from typing import Any

from bot.discord.shards import ShardPlan, shard_of
from bot.store import Store

log = logging.getLogger(__name__)

CHANNEL = "dc_interactions"
# The components that act on an unfinished table: lobby, cash table, show hand, choice,
# pick, modal (bot.discord.components). A replay button reads a finished game: any process can.
_TABLE_ID = re.compile(r"dc:[lkhcpm]:([0-9a-f]+)(?::|$)")

Parser = Callable[[dict[str, Any]], None]
GUILDS_REMEMBERED = 100_000  # tables whose guild is known here, at a few dozen bytes each
NOTIFY_BYTES = 8000 - 8  # PostgreSQL's limit on a payload, less the "<shard>:" before it


def table_of(data: dict[str, Any]) -> str | None:
    """The unfinished table an interaction acts on, from its custom_id.

    >>> table_of({"data": {"custom_id": "dc:c:7c36648f:1:3:0"}}), table_of({"data": {}})
    ('7c36648f', None)
    """
    match = _TABLE_ID.match(str((data.get("data") or {}).get("custom_id") or ""))
    return match.group(1) if match else None


class InteractionRouter:
    """Wraps the gateway's INTERACTION_CREATE handler of one bot process."""

    def __init__(self, store: Store, plan: ShardPlan, parsers: dict[str, Parser],
                 is_here: Callable[[str], bool],
                 track: Callable[[asyncio.Task[None]], None] | None = None) -> None:
        self.store = store
        self.plan = plan
        self.parsers = parsers
        self.is_here = is_here
        self._parse: Parser = parsers["INTERACTION_CREATE"]
        self._tasks: set[asyncio.Task[None]] = set()
        # A stop waits for the passing on under way too (bot.discord.in_flight).
        self._track = track
        # A table never changes guild: its guild is looked up once, not at every click.
        self._guilds: dict[str, int] = {}

    async def start(self) -> None:
        """Pass on what is not ours, and take what other processes pass on to us."""
        await self.store.listen(CHANNEL, self._notified)
        self.parsers["INTERACTION_CREATE"] = self._intercept

    def _spawn(self, work: Any) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        if self._track is not None:
            self._track(task)

    def _intercept(self, data: dict[str, Any]) -> None:
        table = table_of(data)
        if table is None or data.get("guild_id") is not None or self.is_here(table):
            self._parse(data)
            return
        self._spawn(self._route(data, table))

    async def _route(self, data: dict[str, Any], table: str) -> None:
        try:
            guild = self._guilds.get(table)
            if guild is None:
                guild = await self.store.table_guild(table)
                if guild is not None:
                    if len(self._guilds) >= GUILDS_REMEMBERED:
                        self._guilds.clear()
                    self._guilds[table] = guild
            if guild is None or self.plan.owns(guild):
                self._parse(data)  # gone, or ours after all: answered here
                return
            shard = shard_of(guild, self.plan.count)
            payload = json.dumps(data, separators=(",", ":"))  # ASCII: characters are bytes
            if len(payload) <= NOTIFY_BYTES:
                await self.store.notify(CHANNEL, f"{shard}:{payload}")
            else:
                await self.store.forward_interaction(shard, payload, channel=CHANNEL)
            log.debug("interaction on table %s passed on to shard %d", table, shard)
        except Exception:
            log.exception("could not pass on an interaction on table %s", table)

    def _notified(self, payload: str) -> None:
        shard, _, rest = payload.partition(":")
        if not (shard.isdigit() and int(shard) in self.plan.ids):
            return
        if rest.startswith("{"):  # the interaction itself
            try:
                data = json.loads(rest)
            except ValueError:
                log.exception("a passed-on interaction that is not JSON")
                return
            self._parse(data)
        elif rest.isdigit():  # a row to claim
            self._spawn(self._claim(int(rest)))

    async def _claim(self, row: int) -> None:
        try:
            payload = await self.store.claim_interaction(row)
        except Exception:
            log.exception("could not claim a passed-on interaction")
            return
        if payload is not None:  # another process of the same shard may have been faster
            self._parse(json.loads(payload))
