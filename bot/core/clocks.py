"""The service's own tasks: each table's clock (timeouts, AFK warnings, idle lobbies) and
its AI seats' turns.

Every move they make goes through the service under the table's lock, exactly like a
person's click; a failure here is logged and never kills the table. The service owns its
clocks, so they know it only as `ClockedTables`, the few doors they use.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Mapping
from contextlib import AbstractAsyncContextManager
from typing import Protocol

from bot.core.outbox import OutboxMessage
from bot.core.table import Table, TableError
from engine.game import Event

log = logging.getLogger(__name__)

WARN_BEFORE = 0.34  # warn when a third of a clock (at most 30 s) is left
LOBBY_KEY = "lobby-idle"  # the deadline of an unstarted lobby: when it passes, it closes


class ClockedTables(Protocol):
    """What the clocks need of the service (`bot.core.service.TableService` is one): the
    open tables, the time, the one way to change a table, and the steps a clock makes."""

    @property
    def tables(self) -> Mapping[str, Table]: ...

    @property
    def clock(self) -> Callable[[], float]: ...

    def command(self, table_id: str) -> AbstractAsyncContextManager[Table]: ...

    async def commit(self, table: Table, bodies: list[OutboxMessage]) -> None: ...

    async def step_by_clock(self, table: Table, events: list[Event]) -> None: ...

    async def warn(self, table: Table, seats: list[int], deadline: float) -> None: ...

    async def close_idle_lobby(self, table: Table) -> None: ...


class Clocks:
    def __init__(self, service: ClockedTables, ai_pause: float) -> None:
        self.service = service
        self.ai_pause = ai_pause
        self._timers: dict[str, asyncio.Task[None]] = {}
        self._ai_tasks: dict[str, asyncio.Task[None]] = {}

    def forget(self, table_id: str) -> None:
        for tasks in (self._timers, self._ai_tasks):
            task = tasks.pop(table_id, None)
            if task is not None and task is not asyncio.current_task():
                task.cancel()

    def _live(self, table: Table) -> bool:
        return table.table_id in self.service.tables

    def after_step(self, table: Table) -> None:
        """A table changed: its clock is re-aimed and any AI seat now to act gets going."""
        if not self._live(table):
            return
        self.schedule(table)
        self.kick_ai(table)

    # --- AI seats --------------------------------------------------------------------------
    def kick_ai(self, table: Table) -> None:
        game = table.game
        if game is None or game.is_over or table.table_id in self._ai_tasks:
            return
        awaited = game.to_act
        if not any(table.seats[seat].is_ai for seat in awaited):
            return
        if len(awaited) > 1 and any(not table.seats[seat].is_ai for seat in awaited):
            return  # a sealed step: AI seats choose after the people, never rushing them
        self._ai_tasks[table.table_id] = asyncio.create_task(self._run_ai(table.table_id))

    async def _run_ai(self, table_id: str) -> None:
        """An AI seat's move is a command like a click: the table as it is when the pause is
        over (a person may have moved meanwhile), changed on a draft, committed."""
        try:
            await asyncio.sleep(self.ai_pause)
            try:
                async with self.service.command(table_id) as table:
                    events = table.ai_step()
                    if events is not None:
                        await self.service.step_by_clock(table, events)
            except TableError:
                return  # the table closed meanwhile
            self._ai_tasks.pop(table_id, None)
            self.after_step(table)
        except Exception:  # a broken AI must not kill the table
            log.exception("AI step failed at table %s", table_id)
        finally:
            if self._ai_tasks.get(table_id) is asyncio.current_task():
                self._ai_tasks.pop(table_id, None)

    # --- clocks ----------------------------------------------------------------------------
    def schedule(self, table: Table) -> None:
        """(Re)start the table's clock task for its nearest deadline or warning."""
        task = self._timers.pop(table.table_id, None)
        if task is not None and task is not asyncio.current_task():
            task.cancel()
        if table.deadlines and self._live(table):
            self._timers[table.table_id] = asyncio.create_task(self._clock(table.table_id))

    @staticmethod
    def next_alarm(table: Table) -> tuple[float, str, bool]:
        alarms: list[tuple[float, str, bool]] = []
        specs = {spec.key: spec for spec in table.game.timers()} if table.game else {}
        for key, deadline in table.deadlines.items():
            alarms.append((deadline, key, False))
            spec = specs.get(key)
            if spec is not None and spec.warn and key not in table.warned and spec.seconds >= 20:
                alarms.append((deadline - min(30.0, spec.seconds * WARN_BEFORE), key, True))
        return min(alarms)

    async def _clock(self, table_id: str) -> None:
        """Wait for the table's nearest alarm, then fire it as a command on the table as it
        is then (read afresh each time: every step installs a new table object)."""
        service = self.service
        try:
            while (table := service.tables.get(table_id)) is not None and table.deadlines:
                when, key, is_warning = self.next_alarm(table)
                delay = when - service.clock()
                if delay > 0:
                    await asyncio.sleep(min(delay, 60.0))
                    continue
                try:
                    async with service.command(table_id) as table:
                        if table.deadlines.get(key) is None:
                            continue
                        if is_warning:
                            table.warned.append(key)
                            await self._warn(table, key)
                        elif key == LOBBY_KEY:
                            await service.close_idle_lobby(table)
                            return
                        else:
                            await service.step_by_clock(table, table.timeout(key))
                            break
                except TableError:
                    return  # closed meanwhile
            self._timers.pop(table_id, None)
            if table is not None:
                self.after_step(table)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("clock failed at table %s", table_id)

    async def _warn(self, table: Table, key: str) -> None:
        """An AFK warning to the people the clock `key` is running for."""
        game = table.require_game()
        spec = next((spec for spec in game.timers() if spec.key == key), None)
        if spec is None:  # the note that it warned must still be saved, or it fires again
            await self.service.commit(table, [])
            return
        late = [seat for seat in spec.seats
                if seat in game.to_act and not table.seats[seat].is_ai]
        await self.service.warn(table, late, table.deadlines[key])

    async def close(self) -> None:
        tasks = [*self._timers.values(), *self._ai_tasks.values()]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
