"""A driver's database shared out to one kind of background work (`Store.background`)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager

from bot.store.drivers.base import Connection, Database, Params, Row

__all__ = ["SharedDatabase"]


class SharedDatabase(Database):
    """A database for one kind of background work: at most `limit` of its blocks at a time.

    Work that comes in waves (the outbox sender, with a worker per table and destination)
    would otherwise fill the pool's queue, or SQLite's lock's, hundreds deep, and each click
    would wait behind all of it to save its step: seconds, under load. Capped, it leaves the
    rest of the pool to clicks. Closing it leaves the database open: its owner closes that.
    """

    def __init__(self, database: Database, limit: int) -> None:
        self._database = database
        self._gate = asyncio.Semaphore(limit)
        self.dialect = database.dialect
        self.errors = database.errors
        self.name = database.name

    @asynccontextmanager
    async def reading(self) -> AsyncIterator[Connection]:
        async with self._gate, self._database.reading() as conn:
            yield conn

    @asynccontextmanager
    async def writing(self) -> AsyncIterator[Connection]:
        async with self._gate, self._database.writing() as conn:
            yield conn

    async def write_one(self, sql: str, params: Params = ()) -> int:
        async with self._gate:
            return await self._database.write_one(sql, params)

    async def write_one_returning(self, sql: str, params: Params = ()) -> list[Row]:
        async with self._gate:
            return await self._database.write_one_returning(sql, params)

    async def close(self) -> None:
        return None

    def bootstrap(self) -> list[str]:
        return self._database.bootstrap()

    def ddl(self, statement: str) -> str:
        return self._database.ddl(statement)

    async def listen(self, channel: str, callback: Callable[[str], None]) -> None:
        await self._database.listen(channel, callback)

    async def notify(self, channel: str, payload: str) -> None:
        async with self._gate:
            await self._database.notify(channel, payload)

    @property
    def listening_since(self) -> int | None:
        return self._database.listening_since
