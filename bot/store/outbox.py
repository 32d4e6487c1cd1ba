"""The store's half of the table service's durability: the outbox, message refs, action log.

Kept apart from `bot.store` (a mixin over its connection and lock) because these rows belong
to the delivery of tables, not to scores and chips; `Store` writes them in the same
transaction as a step's snapshot (`save_snapshot(..., messages=, actions=)`), so a step and
everything it must tell are saved together or not at all.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from bot.store.base import StoreCore
from bot.store.drivers import Connection


@dataclass(frozen=True)
class LoggedAction:
    """One applied action of a table, as the action log keeps it."""

    step: int
    seat: int
    action: list[Any]  # `engine.game.Action.to_json()`
    at: str  # ISO-8601 UTC, as the store writes times


@dataclass(frozen=True)
class PendingMessage:
    """An outbox row not yet delivered. Its `body` is the message as JSON, which the store
    keeps and hands back as it is: the sender decodes it (`bot.core.outbox_json`), as this
    layer knows nothing of the core's values."""

    id: int
    table_id: str
    body: dict[str, Any]
    attempts: int


@dataclass(frozen=True)
class MessageRef:
    channel_id: int
    message_id: int


class OutboxRows(StoreCore):
    """The outbox, message refs and action log, over the store's connection."""

    @staticmethod
    async def _insert_step_rows(
        conn: Connection,
        table_id: str,
        messages: Iterable[Mapping[str, Any]],
        actions: Iterable[LoggedAction],
        stamp: str,
        guild_id: int | None = None,
    ) -> None:
        """The step's outbox rows (with the table's guild: given, else its snapshot's, so
        that each process sends its own shards' rows) and action log rows."""
        await conn.executemany(
            "INSERT INTO outbox (table_id, guild_id, body, created_at) VALUES"
            " (?, coalesce(?, (SELECT guild_id FROM table_snapshots WHERE table_id = ?)), ?, ?)",
            [(table_id, guild_id, table_id, _compact(body), stamp) for body in messages],
        )
        await conn.executemany(
            "INSERT INTO table_actions (table_id, step, seat, action, at) VALUES (?, ?, ?, ?, ?)"
            " ON CONFLICT (table_id, step) DO NOTHING",
            [(table_id, a.step, a.seat, _compact(a.action), a.at) for a in actions],
        )

    async def enqueue(self, table_id: str, messages: Iterable[Mapping[str, Any]]) -> None:
        """Messages that no state change goes with (a clock warning, a restart notice)."""
        bodies = list(messages)
        if not bodies:
            return
        async with self._write() as conn:
            await self._insert_step_rows(conn, table_id, bodies, (), self._now())

    async def pending_messages(self, table_id: str | None = None) -> list[PendingMessage]:
        """Undelivered rows in the order they must go out (all tables, or one)."""
        where, params = ("WHERE table_id = ?", (table_id,)) if table_id else ("", ())
        async with self._read() as conn:
            rows = await conn.fetch_all(
                f"SELECT id, table_id, body, attempts FROM outbox {where} ORDER BY id", params
            )
        return [PendingMessage(r["id"], r["table_id"], json.loads(r["body"]), r["attempts"])
                for r in rows]

    async def tables_with_pending_messages(
        self, guilds: Callable[[int | None], bool] | None = None
    ) -> list[str]:
        """The tables with rows to send, oldest first; with `guilds`, only the tables of the
        guilds it accepts (a row of unknown guild always counts)."""
        async with self._read() as conn:
            rows = await conn.fetch_all(
                "SELECT table_id, max(guild_id) AS guild_id, min(id) AS first FROM outbox"
                " GROUP BY table_id ORDER BY first"
            )
        return [row["table_id"] for row in rows
                if guilds is None or row["guild_id"] is None or guilds(row["guild_id"])]

    async def message_attempted(self, row_id: int) -> None:
        """Counted before a send: a row tried too often is given up rather than block a table."""
        await self._write_one("UPDATE outbox SET attempts = attempts + 1 WHERE id = ?", (row_id,))

    async def message_delivered(
        self, row_id: int, table_id: str, refs: Mapping[str, MessageRef | None] | None = None
    ) -> None:
        """The row is done; the messages it created or removed are remembered by name, in the
        same transaction, so a crash never leaves a sent row whose message id is lost."""
        if not refs:
            await self._write_one("DELETE FROM outbox WHERE id = ?", (row_id,))
            return
        async with self._write() as conn:
            await conn.execute("DELETE FROM outbox WHERE id = ?", (row_id,))
            for ref, value in (refs or {}).items():
                if value is None:
                    await conn.execute(
                        "DELETE FROM message_refs WHERE table_id = ? AND ref = ?", (table_id, ref)
                    )
                else:
                    await conn.execute(
                        "INSERT INTO message_refs (table_id, ref, channel_id, message_id)"
                        " VALUES (?, ?, ?, ?) ON CONFLICT (table_id, ref) DO UPDATE SET"
                        " channel_id = excluded.channel_id, message_id = excluded.message_id",
                        (table_id, ref, value.channel_id, value.message_id),
                    )

    async def remember_message(self, table_id: str, ref: str, where: MessageRef) -> None:
        """A message posted outside the outbox (a lobby is the answer to its command)."""
        await self._write_one(
            "INSERT INTO message_refs (table_id, ref, channel_id, message_id)"
            " VALUES (?, ?, ?, ?) ON CONFLICT (table_id, ref) DO UPDATE SET"
            " channel_id = excluded.channel_id, message_id = excluded.message_id",
            (table_id, ref, where.channel_id, where.message_id),
        )

    async def message_refs(self, table_id: str) -> dict[str, MessageRef]:
        async with self._read() as conn:
            rows = await conn.fetch_all(
                "SELECT ref, channel_id, message_id FROM message_refs WHERE table_id = ?",
                (table_id,),
            )
        return {r["ref"]: MessageRef(r["channel_id"], r["message_id"]) for r in rows}

    async def table_actions(self, table_id: str) -> list[LoggedAction]:
        """The action log of a table, finished or not, in the order the actions applied."""
        async with self._read() as conn:
            rows = await conn.fetch_all(
                "SELECT step, seat, action, at FROM table_actions WHERE table_id = ?"
                " ORDER BY step", (table_id,),
            )
        return [LoggedAction(r["step"], r["seat"], json.loads(r["action"]), r["at"])
                for r in rows]


def _compact(value: Any) -> str:
    """An outbox body or a logged action as the store keeps it."""
    return json.dumps(value, separators=(",", ":"))
