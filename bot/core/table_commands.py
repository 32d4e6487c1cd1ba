"""The one way to change a table: lock, check, draft, commit, install.

It imports no Discord. Every change to a table, whoever asks for it (a slash command, a
click, a clock, an AI seat, the sender reporting a delivery), follows one discipline, and
`TableCommands.command` is the only way in:

1. **Lock** what the command changes: the table's lock, or for opening a table the
   channel's lock (two `start`s at the same instant must not both find the channel free).
2. **Load and check inside the lock**: the table still exists and is in the phase the
   command expects, the actor's server is the table's, the actor may do this. A check made
   before the lock proves nothing: a cancel may have closed the lobby while a join waited.
3. **Apply to a draft** (`Table.draft`, a deep copy), never to the table others read.
4. **Commit** (`commit`): the snapshot, the action log, every chip moved (double-entry
   ledger rows) and every message the step must send (outbox bodies), in one transaction.
5. **Only then** install the draft as the table (or drop a table that ended) and answer.

So a command that fails at any point, a save the database refuses (not enough chips: the
balance is checked by the database inside the transaction, not from a figure read before)
or a process killed between two awaits, leaves memory and the store agreeing on the state
before the command; a player who saw their action succeed never loses any of it.

Apart from `bot.core.service` (what the commands are: lobby, play, abort, restore) so that
the discipline, and the only writes that install or drop a table (`commit`, `end_cash_table`,
`_discard`), stand in one place that every command, the clocks (`bot.core.clocks`) and the
chip table's buttons (`bot.core.between_deals`) go through.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any

from bot.core import cash_table, game_records, narration
from bot.core.chips import Bank
from bot.core.clocks import Clocks
from bot.core.outbox import OutboxMessage
from bot.core.outbox_json import message_to_json
from bot.core.outcomes import iso
from bot.core.table import Table, TableError
from bot.settings import DEFAULT_AI_DELAY
from bot.store import ChipChange, InsufficientChipsError, LoggedAction, Store
from engine.game import Event
from engine.i18n import Msg, msg

CLOSED = msg("This table is closed.")
OTHER_SERVER = msg("This button belongs to a table in another server.")


class TableCommands:
    """The open tables in memory, their locks and clocks, and the door to change them."""

    def __init__(self, store: Store, *, clock: Callable[[], float] = time.time,
                 ai_pause: float = DEFAULT_AI_DELAY,
                 wake: Callable[[str], None] = lambda table_id: None) -> None:
        self.store = store
        self.bank = Bank(store)
        self.clock = clock
        self.wake = wake  # the sender: rows are waiting for this table
        self.tables: dict[str, Table] = {}
        self._locks: dict[str, asyncio.Lock] = {}
        self.clocks = Clocks(self, ai_pause)
        self.restored: list[str] = []  # restored from the store, not yet resumed
        # Called with each table a commit installed (not with one that ended), after the
        # write: a tournament deals its chip tables' next deal from here. Must not block.
        self.committed: list[Callable[[Table], None]] = []

    # --- bookkeeping -----------------------------------------------------------------------
    def lock(self, key: str) -> asyncio.Lock:
        return self._locks.setdefault(key, asyncio.Lock())

    def table_in(self, channel_id: int, user_id: int | None = None) -> Table | None:
        """The table a command in this channel is about: the user's own one-person table if
        they have one here, else the channel's table."""
        return self._table(channel_id, user_id) or self._table(channel_id, None)

    def _table(self, channel_id: int, owner_id: int | None) -> Table | None:
        """The channel's shared table (owner None), or that user's one-person table there."""
        for table in self.tables.values():
            if table.channel_id == channel_id and table.owner_id == owner_id:
                return table
        return None

    def _drop(self, table: Table) -> None:
        self.tables.pop(table.table_id, None)
        self._locks.pop(table.table_id, None)  # whoever waits on it finds the table gone
        self.clocks.forget(table.table_id)

    # --- the door --------------------------------------------------------------------------
    @asynccontextmanager
    async def command(self, table_id: str, *, missing: Msg = CLOSED,
                      guild_id: int | None = None,
                      expect: Callable[[Table], bool] | None = None) -> AsyncIterator[Table]:
        """The one way to change a table (see the module's docstring): under the table's
        lock, the table as it is now is checked (it exists, `expect` holds, the actor's
        server is its server) and a draft of it is handed out; the caller changes the draft
        and `commit`s it, which installs it. Anything raised before the commit's write
        succeeds leaves the table as it was."""
        async with self.lock(table_id):
            table = self.tables.get(table_id)
            if table is None or (expect is not None and not expect(table)):
                raise TableError(missing)
            if guild_id is not None and table.guild_id != guild_id:
                raise TableError(OTHER_SERVER)
            yield table.draft()

    async def commit(self, table: Table, bodies: list[OutboxMessage],
                     chip_changes: list[ChipChange] | None = None) -> None:
        """Write the step: snapshot (or, for a finished game, its results and settlement),
        action log, chip moves and outbox rows, in one transaction; then install the table
        (`table` is a command's draft: until now nobody else saw it) and wake the sender.
        A chip table goes on after a deal ends: it ends only when its players end it."""
        now = self.clock()
        table.saved_at = now
        actions = [LoggedAction(step, seat, action.to_json(), iso(now))
                   for step, seat, action in table.unsaved_actions]
        game = table.game
        try:
            if game is not None and game.is_over and table.status != "finished" \
                    and not table.game_class.chip_game:
                await game_records.register_players(self.store, table)
                await self.store.finish_table(
                    table.table_id, game_records.record(table, "finished", self.clock()),
                    messages=rows(bodies), actions=actions,
                )
                table.status = "finished"
            else:
                await self.store.save_snapshot(
                    table.table_id, table.guild_id, table.channel_id, table.kind,
                    table.to_dict(), messages=rows(bodies), actions=actions,
                    chip_changes=chip_changes or (),
                )
        except InsufficientChipsError as error:
            raise TableError(short_of_chips(error)) from error
        table.unsaved_actions.clear()
        if table.status == "finished":
            self._drop(table)
        else:
            self.tables[table.table_id] = table
            for listener in self.committed:
                listener(table)
        self.wake(table.table_id)

    async def end_cash_table(self, table: Table, text: str,
                             already: list[ChipChange] | None = None) -> None:
        """A chip table ends by its players' choice: everyone cashes out, each seat's net
        result is recorded (a finished game: it counts), and the channel is told."""
        await game_records.register_players(self.store, table)
        try:
            await self.store.finish_table(
                table.table_id, game_records.record(table, "finished", self.clock()),
                chip_changes=[*(already or []), *game_records.refunds(table)],
                messages=rows(narration.closed(table, text, tell_channel=True)),
            )
        except InsufficientChipsError as error:
            raise TableError(short_of_chips(error)) from error
        self._drop(table)
        self.wake(table.table_id)

    async def _discard(self, table: Table, bodies: list[OutboxMessage],
                       given_back: list[ChipChange] | None = None) -> None:
        """Forget a table that did not finish: recorded as aborted when a game was running,
        so it never counts in leaderboards; its closing messages and the chips it gives back
        go in the same write."""
        changes = [*(given_back or []), *game_records.refunds(table)]
        if table.status == "playing" and table.game is not None:
            await game_records.register_players(self.store, table)
            await self.store.finish_table(
                table.table_id, game_records.record(table, "aborted", self.clock()),
                chip_changes=changes, messages=rows(bodies))
        else:
            await self.store.delete_snapshot(table.table_id, messages=rows(bodies),
                                             guild_id=table.guild_id, chip_changes=changes)
        self._drop(table)
        self.wake(table.table_id)

    # --- the clocks' own steps (`bot.core.clocks`) -----------------------------------------
    async def step_by_clock(self, table: Table, events: list[Event]) -> None:
        """A timeout or an AI move, applied by `bot.core.clocks` to its draft: save and tell."""
        events = events + game_records.deal_end(table)
        table.sync_deadlines(self.clock())
        await self.commit(table, narration.step(table, events))

    async def warn(self, table: Table, seats: list[int], deadline: float) -> None:
        """Saved with the table's note that it warned, so a restart does not warn twice."""
        await self.commit(table, narration.warning(table, seats, deadline))

    async def close_idle_lobby(self, table: Table) -> None:
        await self._discard(table, narration.closed(
            table, msg("Nobody started the table, so it closed."), tell_channel=True))

    async def sit(self, table: Table, user_id: int, name: str) -> list[ChipChange]:
        """Seat a person; at a chip table they buy in from their balance. The balance read
        here only shapes the offer (a short buy-in); the database checks it again when the
        step is committed, so two tables cannot both spend the same chips."""
        if not table.game_class.chip_game:
            table.join(user_id, name)
            return []
        if table.seat_of(user_id) is not None:
            raise TableError(msg("You are already seated at this table."))
        balance = await self.bank.balance(table.guild_id, user_id)
        return cash_table.sit(table, user_id, name, balance)

    async def close(self) -> None:
        await self.clocks.close()


def short_of_chips(error: InsufficientChipsError) -> Msg:
    """The database refused a move: the balance it found (perhaps spent at another table a
    moment ago) is short of what the move needs."""
    return msg("You have only {n} chips now, not the {need} this needs. Claim your daily "
               "chips with `/chips daily`, or ask for a grant.",
               n=error.balance, need=-error.delta)


def rows(told: list[OutboxMessage]) -> list[dict[str, Any]]:
    """A step's messages as the store's outbox rows keep them (JSON: the store knows nothing
    of the core's values)."""
    return [message_to_json(message) for message in told]
