"""The table manager: one table per channel, every clock, every save, every delivery.

Each table has a lock; every change happens under it as: check → apply → save → tell. The
snapshot is written before anyone is told anything, so a crash can lose at most an action
nobody saw succeed, and the same buttons work again after a restart.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import io
import logging
import multiprocessing
import signal
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import discord

from bot.components import TextModal, board_view, lobby_view, prompt_view
from bot.delivery import Delivery
from bot.outbox import Job, Outbox
from bot.render import board_text, event_embed, lobby_text, private_text, renderer_for
from bot.settings import DEFAULT_AI_DELAY
from bot.store import GameRecord, PlayerResult, Store
from bot.table import Table, TableError, new_table_id, prompt_stamp
from engine.cards import CardError, parse_cards
from engine.game import Action, CardPick, Choice, Event, TextAsk

if TYPE_CHECKING:
    from discord.ext import commands

log = logging.getLogger(__name__)

LOBBY_IDLE_SECONDS = 600.0
WARN_BEFORE = 0.34  # warn when a third of a clock (at most 30 s) is left
LOBBY_KEY = "lobby-idle"


def _painter_started() -> None:
    """The drawing process ends with the bot, even when the bot is killed (Linux)."""
    with contextlib.suppress(Exception):
        ctypes.CDLL("libc.so.6").prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG


@dataclass
class Letter:
    """One DM decided under the lock and sent later by the outbox."""

    user_id: int
    content: str
    view: discord.ui.View | None
    events: list[Event]
    seat: int | None = None



async def reply(interaction: discord.Interaction, text: str) -> None:
    """An ephemeral answer, whether or not the interaction was answered before."""
    if interaction.response.is_done():
        await interaction.followup.send(text, ephemeral=True)
    else:
        await interaction.response.send_message(text, ephemeral=True)


class TableManager:
    def __init__(self, bot: commands.Bot, store: Store,
                 clock: Callable[[], float] = time.time,
                 ai_pause: float = DEFAULT_AI_DELAY) -> None:
        self.bot = bot
        self.store = store
        self.clock = clock
        self.ai_pause = ai_pause
        self.delivery = Delivery(bot)
        self.outbox = Outbox()
        # Drawing is pure CPU and holds the GIL: a process of its own keeps clicks answered.
        self.painter = ProcessPoolExecutor(
            max_workers=1, mp_context=multiprocessing.get_context("spawn"),
            initializer=_painter_started,
        )
        self.tables: dict[str, Table] = {}
        self.by_channel: dict[int, str] = {}
        self._locks: dict[str, asyncio.Lock] = {}
        self._timers: dict[str, asyncio.Task[None]] = {}
        self._ai_tasks: dict[str, asyncio.Task[None]] = {}
        self.restored: list[str] = []

    # --- bookkeeping -----------------------------------------------------------------------
    def lock(self, table_id: str) -> asyncio.Lock:
        return self._locks.setdefault(table_id, asyncio.Lock())

    def table_in(self, channel_id: int) -> Table | None:
        table_id = self.by_channel.get(channel_id)
        return self.tables.get(table_id) if table_id else None

    def _add(self, table: Table) -> None:
        self.tables[table.table_id] = table
        self.by_channel[table.channel_id] = table.table_id

    def _drop(self, table: Table) -> None:
        self.tables.pop(table.table_id, None)
        self._locks.pop(table.table_id, None)  # whoever holds it finishes with it
        if self.by_channel.get(table.channel_id) == table.table_id:
            del self.by_channel[table.channel_id]
        for tasks in (self._timers, self._ai_tasks):
            task = tasks.pop(table.table_id, None)
            if task is not None and task is not asyncio.current_task():
                task.cancel()

    async def save(self, table: Table) -> None:
        await self.store.save_snapshot(
            table.table_id, table.guild_id, table.channel_id, table.kind, table.to_dict()
        )

    # --- restore ------------------------------------------------------------------------------
    async def restore(self) -> None:
        """Load every unfinished table; a snapshot that cannot load is set aside, not fatal."""
        for row in await self.store.load_snapshots():
            try:
                table = Table.from_dict(row.snapshot)
            except ValueError as error:
                log.error("table %s set aside: %s", row.table_id, error)
                await self.store.set_aside_snapshot(row.table_id, str(error))
                continue
            if table.channel_id in self.by_channel:
                await self.store.set_aside_snapshot(row.table_id, "a second table in its channel")
                continue
            self._add(table)
            self.restored.append(table.table_id)
        log.info("restored %d table(s)", len(self.restored))

    async def resume(self) -> None:
        """After the gateway is ready: tell each channel its table is back, restart clocks."""
        restored, self.restored = self.restored, []
        for table_id in restored:
            table = self.tables.get(table_id)
            if table is None:
                continue
            async with self.lock(table_id):
                if table.status == "lobby":
                    table.deadlines.setdefault(LOBBY_KEY, self.clock() + table.idle_seconds)
                notice = ("♻️ I restarted; this table is back exactly where it was. "
                          "Every button works as before; if a prompt of yours is missing, "
                          "press **Show my hand**.")
                board = board_text(table) if table.status == "playing" else None
                self.outbox.post(table.table_id, self._announce(table, notice, board))
            self._schedule(table)
            self._kick_ai(table)

    def _announce(self, table: Table, notice: str, board: str | None) -> Job:
        async def deliver() -> None:
            view = board_view(table.table_id) if table.status == "playing" else None
            await self.delivery.channel(table.channel_id, notice, view)
            if board is not None:
                await self._replace_board(table, board)
        return deliver

    # --- lobby -------------------------------------------------------------------------------
    async def open_table(self, interaction: discord.Interaction, kind: str,
                         options: dict[str, Any]) -> None:
        channel_id = interaction.channel_id
        if interaction.guild_id is None or channel_id is None:
            await reply(interaction, "Games are played in a server channel, not in DMs.")
            return
        minutes = await self.store.get_guild_setting(interaction.guild_id, "lobby_minutes",
                                                     LOBBY_IDLE_SECONDS / 60)
        existing = self.table_in(channel_id)
        if existing is not None:
            await reply(
                interaction,
                f"A table of {existing.game_class.title} is already open in this channel. "
                "Use `/table status` to see it, or play in another channel.",
            )
            return
        user = interaction.user
        table = Table(
            table_id=new_table_id(), guild_id=interaction.guild_id, channel_id=channel_id,
            kind=kind, host_id=user.id, options={k: v for k, v in options.items() if v is not None},
            created_at=self.clock(),
        )
        table.join(user.id, user.display_name)
        table.idle_seconds = float(minutes) * 60
        table.deadlines[LOBBY_KEY] = self.clock() + table.idle_seconds
        self._add(table)
        async with self.lock(table.table_id):
            await self.save(table)
            await interaction.response.send_message(
                lobby_text(table, table.deadlines[LOBBY_KEY]), view=lobby_view(table.table_id)
            )
            message = await interaction.original_response()
            table.lobby_message_id = message.id
            await self.save(table)
        self._schedule(table)

    async def lobby_action(self, interaction: discord.Interaction, table_id: str, op: str) -> None:
        table = self.tables.get(table_id)
        if table is None or table.status != "lobby":
            await reply(interaction, "This lobby is closed.")
            return
        user = interaction.user
        async with self.lock(table_id):
            try:
                if op == "join":
                    table.join(user.id, user.display_name)
                elif op == "leave":
                    table.leave(user.id)
                elif op == "ai":
                    table.add_ai(user.id)
                elif op == "cancel":
                    self._require_host_or_admin(interaction, table, "cancel this table")
                    await self._close(table, "The table was cancelled by "
                                      f"{user.display_name}.", interaction)
                    return
                elif op == "start":
                    events = table.start(user.id)
                    table.deadlines.pop(LOBBY_KEY, None)
                    await self.save(table)
                    await interaction.response.edit_message(
                        content=lobby_text(table, None) + "\n**Started.**", view=None
                    )
                    await self._after_step(table, events)
                    return
            except TableError as error:
                await reply(interaction, str(error))
                return
            if not table.seats:
                await self._close(table, "Everyone left; the table is closed.", interaction)
                return
            table.deadlines[LOBBY_KEY] = self.clock() + table.idle_seconds
            await self.save(table)
            await interaction.response.edit_message(
                content=lobby_text(table, table.deadlines[LOBBY_KEY]),
                view=lobby_view(table.table_id),
            )
        self._schedule(table)

    @staticmethod
    def _require_host_or_admin(interaction: discord.Interaction, table: Table, what: str) -> None:
        if interaction.user.id == table.host_id:
            return
        permissions = getattr(interaction, "permissions", None)
        if permissions is not None and permissions.manage_guild:
            return
        raise TableError(f"Only the host or a member with Manage Server can {what}.")

    async def _discard(self, table: Table) -> None:
        """Forget a table that did not finish: recorded as aborted when a game was running,
        so it never counts in leaderboards."""
        if table.status == "playing" and table.game is not None:
            await self._register_players(table)
            await self.store.finish_table(table.table_id, self._record(table, status="aborted"))
        else:
            await self.store.delete_snapshot(table.table_id)
        self._drop(table)
        stale = list(table.prompt_messages.values())

        async def clear_prompts() -> None:  # nobody should click a dead table's choices
            for channel_id, message_id in stale:
                await self.delivery.strip_components(channel_id, message_id)

        if stale:
            self.outbox.post(table.table_id, clear_prompts)

    async def _close(self, table: Table, text: str,
                     interaction: discord.Interaction | None = None) -> None:
        """End a table that did not finish and tell the channel."""
        await self._discard(table)
        if interaction is not None and not interaction.response.is_done():
            if table.status == "lobby":
                await interaction.response.edit_message(content=text, view=None)
                return
            await interaction.response.send_message(text)
            return
        await self.delivery.channel(table.channel_id, text)
        if table.status == "lobby" and table.lobby_message_id:
            await self.delivery.edit(table.channel_id, table.lobby_message_id, text, None)

    # --- status and abort --------------------------------------------------------------------
    async def status(self, interaction: discord.Interaction) -> None:
        table = self.table_in(interaction.channel_id or 0)
        if table is None:
            await reply(interaction, "No table is open in this channel. Start one with a game's "
                        "`start` command, e.g. `/sppoker start`.")
            return
        if table.status == "lobby":
            text = lobby_text(table, table.deadlines.get(LOBBY_KEY))
        else:
            text = board_text(table)
        await interaction.response.send_message(text, ephemeral=True)

    async def abort(self, interaction: discord.Interaction) -> None:
        table = self.table_in(interaction.channel_id or 0)
        if table is None:
            await reply(interaction, "No table is open in this channel.")
            return
        async with self.lock(table.table_id):
            try:
                self._require_host_or_admin(interaction, table, "abort this table")
            except TableError as error:
                await reply(interaction, str(error))
                return
            await self._discard(table)
            await interaction.response.send_message(
                f"The table was aborted by {interaction.user.display_name}; "
                "nothing of it is counted."
            )
            if table.lobby_message_id and table.status == "lobby":
                await self.delivery.edit(table.channel_id, table.lobby_message_id,
                                         "This lobby was aborted.", None)
            elif table.board_message_id is not None:
                await self.delivery.edit(table.channel_id, table.board_message_id,
                                         f"**{table.game_class.title}** — this table was "
                                         "aborted.", None)

    # --- play ---------------------------------------------------------------------------------
    async def show_hand(self, interaction: discord.Interaction, table_id: str) -> None:
        table = self.tables.get(table_id)
        if table is None or table.game is None:
            await reply(interaction, "This game is over.")
            return
        seat = table.seat_of(interaction.user.id)
        if seat is None:
            await reply(interaction, "You are not playing at this table, so there is no hand "
                        "to show you.")
            return
        prompt = None if table.game.is_over else table.game.prompt(seat)
        await interaction.response.send_message(
            private_text(table, seat, prompt),
            view=prompt_view(table_id, seat, prompt_stamp(prompt), prompt),
            ephemeral=True,
        )

    async def prompt_answer(self, interaction: discord.Interaction, table_id: str, seat: int,
                            stamp: str, index: int, *, values: list[str] | None = None,
                            text: str | None = None) -> None:
        table = self.tables.get(table_id)
        if table is None or table.game is None:
            await reply(interaction, "This game is over.")
            return
        async with self.lock(table_id):
            try:
                game = table.check_turn(interaction.user.id, seat)
            except TableError as error:
                await reply(interaction, str(error))
                return
            prompt = game.prompt(seat)
            if prompt is None or prompt_stamp(prompt) != stamp or index >= len(prompt.choices):
                await reply(interaction, "That choice is out of date; press **Show my hand** "
                            "for your current one.")
                return
            choice = prompt.choices[index]
            if isinstance(choice, TextAsk) and text is None:
                await interaction.response.send_modal(
                    TextModal(table_id, seat, stamp, index, choice)
                )
                return
            try:
                action = self._action_for(choice, values, text)
                events = table.act(interaction.user.id, seat, action)
            except TableError as error:
                await reply(interaction, str(error))
                return
            table.sync_deadlines(self.clock())
            await self._persist(table)  # saved before the player sees it succeed
            await self._acknowledge(interaction, table, seat, events)
            await self._after_step(table, events, actor=seat, saved=True)

    @staticmethod
    def _action_for(choice: Choice | CardPick | TextAsk, values: list[str] | None,
                    text: str | None) -> Action:
        if isinstance(choice, Choice):
            if choice.disabled_reason:
                raise TableError(choice.disabled_reason)
            return choice.action
        if isinstance(choice, CardPick):
            picked = [v for v in values or [] if v != "-"]
            if not set(picked) <= set(choice.cards):
                raise TableError("Pick from the cards offered.")
            try:
                parse_cards(picked)
            except CardError as error:
                raise TableError(str(error)) from error
            return Action(choice.action_name, tuple(picked))
        return Action(choice.action_name, (*choice.args, text or ""))

    async def _acknowledge(self, interaction: discord.Interaction, table: Table,
                           seat: int, events: list[Event]) -> None:
        """Answer the click by showing the seat its updated view where it clicked, with the
        picture of a new hand when the step dealt one."""
        game = table.require_game()
        pictured = [event for event in events if event.seat == seat]
        has_pictures = renderer_for(table.kind).draws(pictured)
        prompt = None if game.is_over else game.prompt(seat)
        stamp = prompt_stamp(prompt)
        table.sent_stamps[seat] = stamp
        content = private_text(table, seat, prompt)
        view = prompt_view(table.table_id, seat, stamp, prompt)
        clicked = interaction.type in (
            discord.InteractionType.component, discord.InteractionType.modal_submit
        )
        if interaction.message is not None and clicked:
            if interaction.guild_id is None:  # a DM prompt: it stays the current one
                table.prompt_messages[seat] = [interaction.message.channel.id,
                                               interaction.message.id]
            if has_pictures:  # the old hand's picture goes now, the new one right after
                await interaction.response.edit_message(content=content, view=view,
                                                        attachments=[])
            else:
                await interaction.response.edit_message(content=content, view=view)
        else:
            await interaction.response.send_message(content, view=view, ephemeral=True)
        if has_pictures:
            self.outbox.post(table.table_id, self._attach_pictures(table, interaction, pictured))

    def _attach_pictures(self, table: Table, interaction: discord.Interaction,
                         events: list[Event]) -> Job:
        """Drawing takes tens of milliseconds: it comes after the acknowledgement."""
        async def deliver() -> None:
            files = await self._files(table, events)
            if files:
                try:
                    await interaction.edit_original_response(attachments=files)
                except discord.HTTPException as error:
                    log.info("could not attach pictures: %s", error)
        return deliver

    # --- after every step ------------------------------------------------------------------
    async def _after_step(self, table: Table, events: list[Event],
                          actor: int | None = None, saved: bool = False) -> None:
        """Save (unless the caller just did), then tell: the channel, the board, each seat
        whose prompt changed. The `actor` already sees its updated view where it clicked."""
        if not saved:
            table.sync_deadlines(self.clock())
            await self._persist(table)
        if table.require_game().is_over:
            self._tell_finish(table, events)
            return
        self._tell(table, events, actor)
        self._schedule(table)
        self._kick_ai(table)

    async def _files(self, table: Table, events: list[Event]) -> list[discord.File]:
        """Pictures of these events (hands, reveals); drawn off the event loop, and never
        allowed to break the game if drawing fails."""
        if not renderer_for(table.kind).draws(events):
            return []
        try:
            names = [seat.name for seat in table.seats]
            images = await asyncio.get_running_loop().run_in_executor(
                self.painter, renderer_for(table.kind).images, events, names
            )
        except Exception:
            log.exception("drawing images failed at table %s", table.table_id)
            return []
        return [discord.File(io.BytesIO(data), filename=name) for name, data in images]

    def _tell(self, table: Table, events: list[Event], actor: int | None = None) -> None:
        """Decide now, under the lock, what each person is told about this step; the outbox
        sends it in order without holding the lock."""
        public_events = [event for event in events if event.seat is None]
        board = board_text(table)
        letters, withdrawn = self._private_letters(table, events, actor)

        async def deliver() -> None:
            if public_events:
                await self._post_public(table, public_events)
            await self._replace_board(table, board)
            await self._send_letters(table, letters)
            for channel_id, message_id in withdrawn:
                await self.delivery.strip_components(channel_id, message_id)

        self.outbox.post(table.table_id, deliver)

    async def _replace_board(self, table: Table, content: str) -> None:
        """The board moves to the bottom of the channel: the old one goes, a new one comes."""
        if table.board_message_id is not None:
            await self.delivery.delete(table.channel_id, table.board_message_id)
        message = await self.delivery.channel(table.channel_id, content,
                                              board_view(table.table_id))
        table.board_message_id = message.id if message is not None else None
        if self.tables.get(table.table_id) is table:
            await self.save(table)  # so a restart removes this board, not an older one

    def _private_letters(self, table: Table, events: list[Event],
                         actor: int | None) -> tuple[list[Letter], list[list[int]]]:
        """The DMs this step calls for: seats whose prompt changed or who have private news.
        The actor already sees its updated view, pictures included, where it clicked.
        Also the prompt messages withdrawn without a new one (a seat timed out, or sits out
        a playoff hand): their buttons must go."""
        game = table.require_game()
        private_seats = {event.seat for event in events if event.seat is not None}
        letters = []
        withdrawn = []
        for seat, occupant in enumerate(table.seats):
            if occupant.user_id is None:
                continue
            prompt = None if game.is_over else game.prompt(seat)
            stamp = prompt_stamp(prompt)
            news = [event for event in events if event.seat == seat]
            unchanged = table.sent_stamps.get(seat) == stamp
            table.sent_stamps[seat] = stamp
            if seat == actor:
                continue
            if occupant.user_id in table.dm_closed:
                if not any(event.kind == "hand" for event in news):
                    continue  # closed DMs are tried again once a deal, not at every step
                table.dm_closed.remove(occupant.user_id)
            if (unchanged or prompt is None) and seat not in private_seats and not game.is_over:
                if prompt is None and not unchanged and seat in table.prompt_messages:
                    withdrawn.append(table.prompt_messages.pop(seat))
                continue
            letters.append(Letter(
                occupant.user_id, private_text(table, seat, prompt),
                prompt_view(table.table_id, seat, stamp, prompt), news, seat,
            ))
        return letters, withdrawn

    async def _new_prompt_message(self, table: Table, seat: int, channel_id: int,
                                  message_id: int) -> None:
        """A seat's newest prompt replaces the last one, whose buttons are then taken off so
        nobody clicks an old choice."""
        old = table.prompt_messages.get(seat)
        table.prompt_messages[seat] = [channel_id, message_id]
        if old is not None and old[1] != message_id:
            await self.delivery.strip_components(old[0], old[1])

    async def _send_letters(self, table: Table, letters: list[Letter]) -> None:
        for letter in letters:
            files = await self._files(table, letter.events)
            sent = await self.delivery.dm(letter.user_id, letter.content, letter.view, files)
            if sent is not None and letter.seat is not None:
                await self._new_prompt_message(table, letter.seat, sent.channel.id, sent.id)
            if sent is None and letter.user_id not in table.dm_closed:
                table.dm_closed.append(letter.user_id)
                await self.delivery.channel(
                    table.channel_id,
                    f"<@{letter.user_id}>, I can't send you direct messages. Press "
                    "**Show my hand** on the table message to see your cards and choices.",
                )
                if self.tables.get(table.table_id) is table:
                    await self.save(table)

    def _record(self, table: Table, status: str) -> GameRecord:
        game = table.require_game()
        result = game.result
        players = []
        for seat, occupant in enumerate(table.seats):
            players.append(PlayerResult(
                seat=seat, user_id=occupant.user_id, name=occupant.name,
                score=result.scores[seat] if result else 0,
                place=result.places[seat] if result else None,
                win=bool(result and seat in result.winners),
            ))
        return GameRecord(
            guild_id=table.guild_id, channel_id=table.channel_id, kind=table.kind,
            started_at=table.created_at, finished_at=self.clock(), status=status,
            options=table.options, seed=table.seed, players=players,
        )

    async def _register_players(self, table: Table) -> None:
        """Players are written when a game is recorded, under their names at the table, so
        joining a lobby costs no extra write."""
        for occupant in table.seats:
            if occupant.user_id is not None:
                await self.store.upsert_player(occupant.user_id, occupant.name)

    async def _persist(self, table: Table) -> None:
        """Write the step: the snapshot, or for a finished game its results (which also
        forgets the snapshot), in one transaction. Idempotent."""
        if not table.require_game().is_over:
            await self.save(table)
        elif table.status != "finished":
            await self._register_players(table)
            await self.store.finish_table(table.table_id, self._record(table, status="finished"))
            table.status = "finished"
            self._drop(table)

    async def _post_public(self, table: Table, events: list[Event], closing: str = "") -> None:
        """A step in the channel, in reading order: what led up to a boxed event (a reveal),
        the box itself as an embed with its picture inside, then what followed it."""
        renderer = renderer_for(table.kind)
        first = next((i for i, event in enumerate(events)
                      if event.kind in renderer.embed_kinds), len(events))
        boxed = [event for event in events[first:] if event.kind in renderer.embed_kinds]
        before = "\n".join(event.text for event in events[:first])
        after = "\n".join(filter(None, [
            *(event.text for event in events[first:] if event not in boxed), closing,
        ]))
        files = await self._files(table, events)
        picture = files[0].filename if files else None
        embeds = [discord.Embed.from_dict(event_embed(event, picture)) for event in boxed[:10]]
        # Every message of a running table carries Show my hand, so it is never far away.
        view = None if table.require_game().is_over else board_view(table.table_id)
        if not embeds:
            await self.delivery.channel(table.channel_id, "\n".join(filter(None, [before, after])),
                                        view=view, files=files)
            return
        await self.delivery.channel(table.channel_id, before, files=files, embeds=embeds,
                                    view=None if after else view)
        if after:
            await self.delivery.channel(table.channel_id, after, view=view)

    def _tell_finish(self, table: Table, events: list[Event]) -> None:
        game = table.require_game()
        public_events = [event for event in events if event.seat is None]
        public = "\n".join(event.text for event in public_events)
        result = game.result
        closing = ""
        if result is not None and not result.winners:
            closing = "🤝 The game ended in a draw."
        elif result is not None:
            winners = ", ".join(table.seats[seat].name for seat in result.winners)
            closing = f"🏆 **{winners}** won the game."
            if result.summary and result.summary not in public:
                closing += " " + result.summary
        board = board_text(table)
        letters, _ = self._private_letters(table, events, None)  # all get a last letter

        async def deliver() -> None:
            await self._post_public(table, public_events, closing)
            if table.board_message_id is not None:
                await self.delivery.edit(table.channel_id, table.board_message_id, board, None)
            await self._send_letters(table, letters)

        self.outbox.post(table.table_id, deliver)

    # --- AI seats -------------------------------------------------------------------------
    def _kick_ai(self, table: Table) -> None:
        game = table.game
        if game is None or game.is_over or table.table_id in self._ai_tasks:
            return
        awaited = game.to_act
        if not any(table.seats[seat].is_ai for seat in awaited):
            return
        if len(awaited) > 1 and any(not table.seats[seat].is_ai for seat in awaited):
            return  # a sealed step: AI seats choose after the people, never rushing them
        self._ai_tasks[table.table_id] = asyncio.create_task(self._run_ai(table))

    async def _run_ai(self, table: Table) -> None:
        try:
            await asyncio.sleep(self.ai_pause)
            async with self.lock(table.table_id):
                if self.tables.get(table.table_id) is not table:
                    return
                events = table.ai_step()
            self._ai_tasks.pop(table.table_id, None)
            if events is not None:
                async with self.lock(table.table_id):
                    await self._after_step(table, events)
        except Exception:  # a broken AI must not kill the table
            log.exception("AI step failed at table %s", table.table_id)
        finally:
            if self._ai_tasks.get(table.table_id) is asyncio.current_task():
                self._ai_tasks.pop(table.table_id, None)

    # --- clocks -------------------------------------------------------------------------------
    def _schedule(self, table: Table) -> None:
        """(Re)start the table's clock task for its nearest deadline or warning."""
        task = self._timers.pop(table.table_id, None)
        if task is not None and task is not asyncio.current_task():
            task.cancel()
        if table.deadlines and self.tables.get(table.table_id) is table:
            self._timers[table.table_id] = asyncio.create_task(self._clock(table))

    def _next_alarm(self, table: Table) -> tuple[float, str, bool]:
        alarms: list[tuple[float, str, bool]] = []
        specs = {spec.key: spec for spec in table.game.timers()} if table.game else {}
        for key, deadline in table.deadlines.items():
            alarms.append((deadline, key, False))
            spec = specs.get(key)
            if spec is not None and spec.warn and key not in table.warned and spec.seconds >= 20:
                alarms.append((deadline - min(30.0, spec.seconds * WARN_BEFORE), key, True))
        return min(alarms)

    async def _clock(self, table: Table) -> None:
        try:
            while self.tables.get(table.table_id) is table and table.deadlines:
                when, key, is_warning = self._next_alarm(table)
                delay = when - self.clock()
                if delay > 0:
                    await asyncio.sleep(min(delay, 60.0))
                    continue
                async with self.lock(table.table_id):
                    if table.deadlines.get(key) is None:
                        continue
                    if is_warning:
                        table.warned.append(key)
                        await self.save(table)
                        self._warn(table, key)
                    elif key == LOBBY_KEY:
                        await self._close(table, "Nobody started the table, so it closed.")
                        return
                    else:
                        events = table.timeout(key)
                        await self._after_step(table, events)
                        return  # _after_step scheduled a fresh clock
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("clock failed at table %s", table.table_id)

    def _warn(self, table: Table, key: str) -> None:
        """An AFK warning to the seats the clock `key` is running for."""
        game = table.require_game()
        spec = next((spec for spec in game.timers() if spec.key == key), None)
        if spec is None:
            return
        deadline = int(table.deadlines[key])
        late = [table.seats[seat] for seat in spec.seats
                if seat in game.to_act and not table.seats[seat].is_ai]

        async def deliver() -> None:
            for occupant in late:
                assert occupant.user_id is not None
                text = f"⏰ {occupant.name}, your time at {game.title} runs out <t:{deadline}:R>."
                if await self.delivery.dm(occupant.user_id, text, None) is None:
                    await self.delivery.channel(table.channel_id, f"⏰ <@{occupant.user_id}>, "
                                                f"your time runs out <t:{deadline}:R>.")

        self.outbox.post(table.table_id, deliver)

    async def close(self) -> None:
        await self.outbox.close()
        self.painter.shutdown(wait=False, cancel_futures=True)
        for task in [*self._timers.values(), *self._ai_tasks.values()]:
            task.cancel()
        for task in [*self._timers.values(), *self._ai_tasks.values()]:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
