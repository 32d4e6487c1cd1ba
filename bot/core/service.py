"""The table service: every table's lobby, seats, steps, aborts and restores.

It imports no Discord. Each of its commands goes through the one door its base class keeps
(`bot.core.table_commands`: lock, check on a draft, commit, install), which is where the
discipline every change to a table follows is written down. The Discord side (cogs,
`bot.discord.presenter`) turns interactions into these calls and outcomes into replies;
`bot.discord.sender` delivers the outbox. Clocks and AI seats are the service's own tasks
(`bot.core.clocks`) and go through the same door.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from bot.core import cash_table, game_records, narration
from bot.core.clocks import LOBBY_KEY
from bot.core.outbox import Reply
from bot.core.outcomes import (
    LobbyOutcome,
    NeedText,
    Private,
    action_for,
    require_host_or_admin,
)
from bot.core.snapshot_upgrades import legacy_refs
from bot.core.table import Table, TableError, new_table_id
from bot.core.table_commands import TableCommands
from bot.core.table_text import board_text, lobby_text, private_text
from bot.core.validation import guild_setting
from bot.present import i18n
from bot.present.inert import inert
from bot.store import ChipChange, MessageRef
from engine.game import Event, TextAsk
from engine.i18n import msg

log = logging.getLogger(__name__)

LOBBY_IDLE_SECONDS = 600.0
LOBBY_OPS = frozenset({"join", "leave", "ai", "start", "cancel"})
LOBBY_CLOSED = msg("This lobby is closed.")
GAME_OVER = msg("This game is over.")


def channel_lock_key(channel_id: int) -> str:
    """The lock a table's opening takes: one per channel, never a table id (hex)."""
    return f"channel:{channel_id}"


class TableService(TableCommands):
    """Every table's commands; `TableCommands` holds the tables and the door to them."""

    # --- lobby -----------------------------------------------------------------------------
    async def open_table(self, guild_id: int, channel_id: int, user_id: int, name: str,
                         kind: str, options: dict[str, Any]) -> tuple[str, LobbyOutcome]:
        """A new lobby (or, for a one-person game, a game started at once). Opening is a
        command on the channel: under its lock, so two `start`s cannot both find it free."""
        async with self.lock(channel_lock_key(channel_id)):
            table = Table(
                table_id=new_table_id(), guild_id=guild_id, channel_id=channel_id, kind=kind,
                host_id=user_id, options={k: v for k, v in options.items() if v is not None},
                created_at=self.clock(), locale=i18n.guild_locale(guild_id),
            )
            solo = table.game_class.max_seats == 1
            existing = self._table(channel_id, user_id if solo else None)
            if existing is not None:
                title = existing.game_class.title
                if existing.owner_id:
                    raise TableError(msg("Your own table of {title} is already open in this "
                                         "channel. Use `/table status` to see it, or play in "
                                         "another channel.", title=title))
                raise TableError(msg("A table of {title} is already open in this channel. "
                                     "Use `/table status` to see it, or play in another "
                                     "channel.", title=title))
            if solo:
                table.owner_id = user_id
            # Read through the settings' checks (bot/core/validation.py): a value stored before
            # they existed (10**9, -5) reads as the default.
            minutes = await guild_setting(self.store, guild_id, "lobby_minutes",
                                          LOBBY_IDLE_SECONDS / 60)
            table.idle_seconds = float(minutes) * 60
            buy_in = await self.sit(table, user_id, name)
            async with self.lock(table.table_id):  # nobody can know its id yet; for form
                if solo:
                    events = table.start(user_id)
                    return table.table_id, await self._started(table, events)
                table.deadlines[LOBBY_KEY] = self.clock() + table.idle_seconds
                await self.commit(table, [], buy_in)
        self.clocks.schedule(table)
        return table.table_id, LobbyOutcome(lobby_text(table, table.deadlines[LOBBY_KEY]), True)

    async def remember_message(self, table_id: str, ref: str, channel_id: int,
                               message_id: int) -> None:
        """A message the presenter posted itself (a lobby: the answer to its command)."""
        async with self.lock(table_id):
            await self.store.remember_message(table_id, ref, MessageRef(channel_id, message_id))

    async def lobby_action(self, table_id: str, user_id: int, name: str, op: str,
                           *, is_admin: bool = False, guild_id: int | None = None
                           ) -> LobbyOutcome:
        if op not in LOBBY_OPS:
            raise TableError(msg("That button is not part of this lobby."))
        async with self.command(table_id, missing=LOBBY_CLOSED, guild_id=guild_id,
                                expect=lambda table: table.status == "lobby") as table:
            moved: list[ChipChange] = []
            if op == "join":
                moved = await self.sit(table, user_id, name)
            elif op == "leave" and table.game_class.chip_game:
                moved = cash_table.stand_up(table, user_id)
            elif op == "leave":
                table.leave(user_id)
            elif op == "ai":
                name = table.add_ai(user_id)
                if table.game_class.chip_game:
                    table.seats.pop()
                    moved = cash_table.sit(table, None, name, None)
            elif op == "cancel":
                require_host_or_admin(table, user_id, is_admin, msg("cancel this table"))
                text = msg("The table was cancelled by {name}.", name=name)
                await self._discard(table, narration.closed(table, text, tell_channel=False))
                return LobbyOutcome(i18n.render(text, table.locale), False)
            elif op == "start":
                events = table.start(user_id)
                return await self._started(table, events)
            if not table.has_humans:
                text = msg("Everyone left; the table is closed.")
                await self._discard(table, [], given_back=moved)
                return LobbyOutcome(i18n.render(text, table.locale), False)
            table.deadlines[LOBBY_KEY] = self.clock() + table.idle_seconds
            await self.commit(table, [], moved)
        self.clocks.schedule(table)
        return LobbyOutcome(lobby_text(table, table.deadlines[LOBBY_KEY]), True)

    async def _started(self, table: Table, events: list[Event]) -> LobbyOutcome:
        table.deadlines.pop(LOBBY_KEY, None)
        table.sync_deadlines(self.clock())
        await self.commit(table, narration.step(table, events))
        self.clocks.after_step(table)
        return LobbyOutcome(lobby_text(table, None, started=True), False)

    # --- status and abort ------------------------------------------------------------------
    def status(self, channel_id: int, user_id: int) -> str:
        table = self.table_in(channel_id, user_id)
        if table is None:
            return i18n.t("No table is open in this channel. Start one with a game's `start` "
                          "command, e.g. `/sppoker start`.")
        if table.status == "lobby":
            return lobby_text(table, table.deadlines.get(LOBBY_KEY))
        return board_text(table)

    async def abort(self, channel_id: int, user_id: int, name: str, *, is_admin: bool) -> str:
        found = self.table_in(channel_id, user_id)
        nothing = msg("No table is open in this channel.")
        if found is None:
            raise TableError(nothing)
        async with self.command(found.table_id, missing=nothing) as table:
            if table.owner_id is None or table.owner_id != user_id:
                require_host_or_admin(table, user_id, is_admin, msg("abort this table"))
            text = msg("This lobby was aborted.") if table.status == "lobby" else \
                msg("this table was aborted.")
            await self._discard(table, narration.closed(table, text, tell_channel=False))
        finished = table.deals - (0 if cash_table.between_deals(table) else 1)
        with i18n.using(table.locale):  # said in the channel
            if table.game_class.chip_game and finished > 0:  # a cash table's deals stand
                return i18n.t("The table was aborted by {name}; the deals played to the end "
                              "stand, and everyone's chips went back to their balance.",
                              name=inert(name))
            return i18n.t("The table was aborted by {name}; nothing of it is counted.",
                          name=inert(name))

    # --- play ------------------------------------------------------------------------------
    def _seat_of(self, table: Table, user_id: int) -> int:
        seat = table.seat_of(user_id)
        if seat is None:
            raise TableError(msg("You are not playing at this table, so there is no hand to "
                                 "show you."))
        return seat

    async def show_hand(self, table_id: str, user_id: int) -> Private:
        async with self.command(table_id, missing=GAME_OVER,
                                expect=lambda table: table.game is not None) as table:
            seat = self._seat_of(table, user_id)
            told = dict(table.prompt_digests)
            private = self._private(table, seat)
            if table.prompt_digests != told:  # shown here first: saved as told
                await self.commit(table, [])
            return private

    def _private(self, table: Table, seat: int) -> Private:
        game = table.require_game()
        prompt = None if game.is_over else game.prompt(seat)
        stamp, _ = table.stamp(seat)
        return Private(table.table_id, seat, private_text(table, seat, prompt), stamp, prompt)

    def prompt_stamp(self, table_id: str, seat: int) -> str | None:
        """The stamp of `seat`'s current buttons at an open table (None: unknown)."""
        table = self.tables.get(table_id)
        return None if table is None else table.current_stamp(seat)

    async def act(self, table_id: str, user_id: int, seat: int, stamp: str, index: int, *,
                  values: list[str] | None = None, text: str | None = None
                  ) -> Reply | NeedText:
        """A seat answers its prompt (a button, a menu, a modal's text). The answer is the
        step's `Reply`, saved with it (the narration writes it into the seat's queue): the
        presenter answers the click with it, and if the process dies first the sender
        delivers it from the store."""
        async with self.command(table_id, missing=GAME_OVER,
                                expect=lambda table: table.game is not None) as table:
            game = table.check_turn(user_id, seat)
            prompt = game.prompt(seat)
            if prompt is None or not table.stamp_is_current(seat, stamp) \
                    or index >= len(prompt.choices):
                log.debug("out of date: table %s seat %d clicked stamp %s, current %s (step %d)",
                          table_id, seat, stamp, table.current_stamp(seat), table.steps)
                raise TableError(msg("That choice is out of date; press **Show my hand** for "
                                     "your current one."))
            choice = prompt.choices[index]
            if isinstance(choice, TextAsk) and text is None:
                return NeedText(table_id, seat, stamp, index, choice)
            events = table.act(user_id, seat, action_for(choice, values, text))
            events += game_records.deal_end(table)
            table.sync_deadlines(self.clock())
            bodies = narration.step(table, events, actor=seat)
            answer = next(message for message in bodies
                          if isinstance(message, Reply) and message.seat == seat)
            await self.commit(table, bodies)  # saved before the player sees it succeed
        self.clocks.after_step(table)
        return answer

    async def prompt_delivered(self, table_id: str, clocks: list[str], at: float) -> None:
        """A prompt reached its player: the clocks it started run from now (the clock must
        not run while Discord is still delivering the question)."""
        try:
            async with self.command(table_id) as table:
                if not table.clock_delivered(clocks, at):
                    return
                await self.commit(table, [])
        except TableError:
            return  # the table ended meanwhile
        self.clocks.schedule(table)

    async def dm_closed(self, table_id: str, user_id: int) -> bool:
        """The sender found this person's DMs closed; True the first time (say so once)."""
        try:
            async with self.command(table_id) as table:
                if user_id in table.dm_closed:
                    return False
                table.dm_closed.append(user_id)
                await self.commit(table, [])
                return True
        except TableError:
            return False

    # --- restart ---------------------------------------------------------------------------
    async def restore(self, owns: Callable[[int | None], bool] | None = None) -> None:
        """Load every unfinished table (of the guilds `owns` accepts: this process's shards);
        a snapshot that cannot load, or a second table in a channel, is set aside, not fatal:
        the store gives its chips back from the ledger (what each member paid in), never
        from the snapshot's figures, so nothing unpaid is refunded and nothing twice."""
        for row in await self.store.load_snapshots():
            if owns is not None and not owns(row.guild_id):
                continue
            try:
                table = Table.from_dict(row.snapshot)
            except ValueError as error:
                log.error("table %s set aside: %s", row.table_id, error)
                await self.store.set_aside_snapshot(row.table_id, str(error))
                continue
            if self._table(table.channel_id, table.owner_id) is not None:
                log.error("table %s set aside: a second table in channel %d", row.table_id,
                          table.channel_id)
                await self.store.set_aside_snapshot(row.table_id, "a second table in its channel")
                continue
            if table.game_class.chip_game:  # a table saved before chips had accounts
                await self.store.reconcile_table_account(table.table_id, table.guild_id,
                                                         sum(table.stacks))
            for ref, (channel, message) in legacy_refs(row.snapshot).items():
                await self.store.remember_message(table.table_id, ref,
                                                  MessageRef(channel, message))
            table.reword_prompts()
            self.tables[table.table_id] = table
            self.restored.append(table.table_id)
        log.info("restored %d table(s)", len(self.restored))

    async def resume(self) -> None:
        """After the gateway is ready: each clock resumes with the time it had left (at least
        30 s), each channel is told its table is back, AI seats carry on."""
        restored, self.restored = self.restored, []
        now = self.clock()
        for table_id in restored:
            try:
                async with self.command(table_id) as table:
                    saved = table.saved_at or now
                    for key, deadline in table.deadlines.items():
                        table.deadlines[key] = now + max(30.0, deadline - saved)
                    await self.commit(table, narration.restarted(table))
            except TableError:
                continue  # closed before it was resumed
            self.clocks.after_step(table)
