"""Shard leases: which process drives the tables of which shard (see `bot.discord.shards`); and the
interactions one process passes on to another (`bot.discord.routing`).

A lease is one row per shard with its owner and an expiry. Taking one is a single upsert
that succeeds only if the shard is free, already ours, expired, or held by the owner we name
as dead; so two processes can never both hold a shard, on SQLite or PostgreSQL."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta

from bot.store.base import StoreCore, _check_text, _from_ts, _ts
from bot.store.drivers import Row


@dataclass(frozen=True)
class Lease:
    shard_id: int
    shard_count: int
    owner: str
    acquired_at: datetime
    expires_at: datetime


class ShardLeaseRows(StoreCore):
    """The shard_leases table."""

    async def take_lease(
        self,
        shard_id: int,
        shard_count: int,
        owner: str,
        *,
        ttl: float,
        dead_owner: str | None = None,
        now: datetime | None = None,
    ) -> Lease:
        """Take (or renew) shard `shard_id` for `owner` for `ttl` seconds, if it is free, ours,
        expired or held by `dead_owner`; returns the lease as it stands afterwards, so the
        caller holds it iff `lease.owner == owner`."""
        _check_text(owner, "owner")
        if not 0 <= shard_id < shard_count:
            raise ValueError(f"shard {shard_id} is not one of {shard_count} shards")
        moment = self._clock() if now is None else now
        stamp, expires = _ts(moment), _ts(moment + timedelta(seconds=ttl))
        async with self._write() as conn:
            await conn.execute(
                "INSERT INTO shard_leases (shard_id, shard_count, owner, acquired_at, expires_at)"
                " VALUES (?, ?, ?, ?, ?) ON CONFLICT (shard_id) DO UPDATE SET"
                " shard_count = excluded.shard_count, owner = excluded.owner,"
                " acquired_at = CASE WHEN shard_leases.owner = excluded.owner"
                " THEN shard_leases.acquired_at ELSE excluded.acquired_at END,"
                " expires_at = excluded.expires_at"
                " WHERE shard_leases.owner = excluded.owner"
                " OR shard_leases.expires_at < excluded.acquired_at"
                " OR shard_leases.owner = ?",
                (shard_id, shard_count, owner, stamp, expires, dead_owner or ""),
            )
            row = await conn.fetch_one(
                "SELECT shard_id, shard_count, owner, acquired_at, expires_at FROM shard_leases"
                " WHERE shard_id = ?",
                (shard_id,),
            )
        assert row is not None
        return _lease(row)

    async def release_leases(self, owner: str) -> int:
        """Give up every shard `owner` holds (a clean stop: the next process need not wait)."""
        async with self._write() as conn:
            return await conn.execute("DELETE FROM shard_leases WHERE owner = ?", (owner,))

    async def table_guild(self, table_id: str) -> int | None:
        """The guild of an unfinished table (None: no such table)."""
        async with self._read() as conn:
            row = await conn.fetch_one(
                "SELECT guild_id FROM table_snapshots WHERE table_id = ?", (table_id,))
        return None if row is None else int(row[0])

    async def forward_interaction(self, shard_id: int, payload: str, *, channel: str,
                                  now: datetime | None = None) -> int:
        """Pass an interaction on to the process of shard `shard_id`, woken on `channel`
        (PostgreSQL: only it runs several processes). One statement, one round trip: a click
        passed on is a click whose 3 s are running."""
        moment = self._clock() if now is None else now
        rows = await self._db.write_one_returning(
            "WITH row AS (INSERT INTO forwarded_interactions (shard_id, payload, created_at)"
            " VALUES (?, ?, ?) RETURNING id)"
            " SELECT id, pg_notify(?, ? || id::text) FROM row",
            (shard_id, payload, _ts(moment), channel, f"{shard_id}:"))
        return int(rows[0][0])

    async def notify(self, channel: str, payload: str) -> None:
        """Wake the processes listening on `channel` with `payload` itself (PostgreSQL: at
        most 8,000 bytes), storing nothing: one round trip."""
        await self._db.notify(channel, payload)

    async def claim_interaction(self, row_id: int, *,
                                now: datetime | None = None) -> str | None:
        """The payload of a passed-on interaction, for the one process that claims it; rows
        nobody claimed within a minute (long expired interactions) go with it."""
        moment = self._clock() if now is None else now
        rows = await self._db.write_one_returning(
            "DELETE FROM forwarded_interactions WHERE id = ? OR created_at < ?"
            " RETURNING id, payload", (row_id, _ts(moment - timedelta(minutes=1))))
        return next((str(row[1]) for row in rows if int(row[0]) == row_id), None)

    async def listen(self, channel: str, callback: Callable[[str], None]) -> None:
        """`callback(payload)` for every notification on `channel` (PostgreSQL)."""
        await self._db.listen(channel, callback)

    async def leases(self) -> list[Lease]:
        async with self._read() as conn:
            rows = await conn.fetch_all(
                "SELECT shard_id, shard_count, owner, acquired_at, expires_at FROM shard_leases"
                " ORDER BY shard_id"
            )
        return [_lease(row) for row in rows]


def _lease(row: Row) -> Lease:
    return Lease(int(row["shard_id"]), int(row["shard_count"]), str(row["owner"]),
                 _from_ts(row["acquired_at"]), _from_ts(row["expires_at"]))
