"""Which tables this process drives: its shards, held by leases in the database.

Discord sends a guild's events to shard ``(guild_id >> 22) % shard_count``; a process runs the
shards of SHARD_IDS (all of them without it) and drives the tables of those shards' guilds.
DMs (guild None) belong to shard 0, as Discord sends them there.

So that two processes never drive the same tables (a mistyped SHARD_IDS, a process thought
dead that is not), each shard's tables are driven only under a lease in the database
(`bot.store.leases`): taken at start-up before any table is restored, renewed every
`RENEW_EVERY` seconds, given up at a clean stop. A process that cannot renew its lease (the
database is gone for longer than the lease, or another process took it) stops at once. A
killed process's shards are taken over when its lease expires, or at once by a process on the
same host that sees the holder's process is gone (a restart after kill -9).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets
import socket
from collections.abc import Callable
from dataclasses import dataclass

from bot.store import Lease, Store

log = logging.getLogger(__name__)

LEASE_SECONDS = 15.0
RENEW_EVERY = 4.0


def shard_of(guild_id: int | None, shard_count: int) -> int:
    """The shard Discord sends a guild's events to (DMs: shard 0).

    >>> shard_of(81384788769906688, 2), shard_of(None, 4)
    (1, 0)
    """
    return 0 if not guild_id else (guild_id >> 22) % shard_count


@dataclass(frozen=True)
class ShardPlan:
    """The shards in all, and those this process runs."""

    count: int = 1
    ids: tuple[int, ...] = (0,)

    @classmethod
    def of(cls, shard_count: int | None, shard_ids: tuple[int, ...] | None) -> ShardPlan:
        count = shard_count or 1
        return cls(count, shard_ids if shard_ids is not None else tuple(range(count)))

    def owns(self, guild_id: int | None) -> bool:
        return shard_of(guild_id, self.count) in self.ids


def _pid_namespace() -> str:
    try:
        return str(os.stat("/proc/self/ns/pid").st_ino)
    except OSError:
        return "?"


def this_process() -> str:
    """An owner name: host, pid namespace and pid (so that a process on the same host can
    tell the holder is gone), and a random part (so that a reused pid is another owner)."""
    return f"{socket.gethostname()}:{_pid_namespace()}:{os.getpid()}:{secrets.token_hex(4)}"


def gone(owner: str) -> bool:
    """Whether `owner` is a process of this host (and pid namespace) that no longer runs."""
    host, _, rest = owner.partition(":")
    namespace, _, rest = rest.partition(":")
    pid = rest.partition(":")[0]
    if host != socket.gethostname() or namespace != _pid_namespace() or not pid.isdigit():
        return False
    if int(pid) == os.getpid():
        return False
    try:
        os.kill(int(pid), 0)
    except ProcessLookupError:
        return True
    except PermissionError:
        return False
    return False


class LeaseKeeper:
    """Holds this process's shard leases for as long as it runs."""

    def __init__(self, store: Store, plan: ShardPlan, *,
                 on_lost: Callable[[int], None], owner: str | None = None,
                 lease_seconds: float = LEASE_SECONDS, renew_every: float = RENEW_EVERY) -> None:
        self.store = store
        self.plan = plan
        self.owner = owner or this_process()
        self.on_lost = on_lost
        self.lease_seconds = lease_seconds
        self.renew_every = renew_every
        self._renewer: asyncio.Task[None] | None = None

    async def acquire(self) -> None:
        """Take every shard of the plan, waiting for those another live process holds."""
        for shard in self.plan.ids:
            told = False
            while True:
                lease = await self._take(shard)
                if lease.owner == self.owner:
                    break
                if not told:
                    log.info("waiting for shard %d: held by %s until %s", shard, lease.owner,
                             lease.expires_at.isoformat(timespec="seconds"))
                    if lease.shard_count != self.plan.count:
                        log.warning("shard %d is held for SHARD_COUNT=%d, not %d: every "
                                    "process must set the same SHARD_COUNT", shard,
                                    lease.shard_count, self.plan.count)
                    told = True
                await asyncio.sleep(1.0)
        log.info("holding shard(s) %s of %d as %s", ",".join(map(str, self.plan.ids)),
                 self.plan.count, self.owner)
        self._renewer = asyncio.create_task(self._renew())

    async def _take(self, shard: int) -> Lease:
        lease = await self.store.take_lease(shard, self.plan.count, self.owner,
                                            ttl=self.lease_seconds)
        if lease.owner != self.owner and gone(lease.owner):
            log.info("shard %d: its holder %s is gone; taking it over", shard, lease.owner)
            lease = await self.store.take_lease(shard, self.plan.count, self.owner,
                                                ttl=self.lease_seconds, dead_owner=lease.owner)
        return lease

    async def _renew(self) -> None:
        failed_since: float | None = None
        loop = asyncio.get_running_loop()
        while True:
            await asyncio.sleep(self.renew_every)
            try:
                for shard in self.plan.ids:
                    lease = await self.store.take_lease(shard, self.plan.count, self.owner,
                                                        ttl=self.lease_seconds)
                    if lease.owner != self.owner:
                        log.critical("shard %d's lease was taken by %s", shard, lease.owner)
                        self.on_lost(shard)
                        return
                failed_since = None
            except Exception:
                log.exception("could not renew the shard leases")
                failed_since = failed_since if failed_since is not None else loop.time()
                if loop.time() - failed_since > self.lease_seconds - self.renew_every:
                    log.critical("the shard leases could not be renewed before they expire")
                    self.on_lost(self.plan.ids[0])
                    return

    async def release(self) -> None:
        """A clean stop: the shards are free for the next process at once."""
        if self._renewer is not None:
            self._renewer.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._renewer
            self._renewer = None
            with contextlib.suppress(Exception):
                await self.store.release_leases(self.owner)
