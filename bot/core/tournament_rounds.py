"""A tournament's rounds at the tables: the door every change goes through, each round's
tables opened in their threads, the tables' results taken in, the clocks, and the messages
posted in the tournament's channel.

It imports no Discord: the Discord side is `TournamentPlaces` (threads, posts, the scheduled
event), which `bot.discord.tournament_places` implements. The discipline is the tables':
take the tournament's lock, check inside it, change a draft, commit (`save_tournament`: the
state, its messages, the results it took in, the tables it opens, in one write), and only
then install the draft. A table's result reaches the store with its game
(`bot.store.tournaments`); `apply_results` takes in whatever is recorded and not yet taken
in, so a result is applied once, after a restart too.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Callable, Coroutine, Iterable
from contextlib import asynccontextmanager
from dataclasses import replace
from typing import Any

from bot.core import tournament_tables
from bot.core import tournament_text as text
from bot.core.service import TableService
from bot.core.table import Table, TableError, new_table_id
from bot.core.tournament_extra import extra_to_json
from bot.core.tournament_posts import TournamentPost, draw, post_from_json, post_to_json
from bot.core.tournament_state import NO_TOURNAMENT, Live, TournamentPlaces, player_user, refused
from bot.present import i18n
from bot.store import Store, TournamentPlace, TournamentTable
from engine.tournaments import Tournament, TournamentError

log = logging.getLogger(__name__)

BREAK_SECONDS = 60.0  # from a round's last result to the next round, unless the organiser
MIN_LEFT = 30.0  # a clock resumed after a restart has at least this long left


class TournamentRounds:
    """The tournaments in memory, their locks, clocks and posts, and the rounds' tables."""

    def __init__(self, store: Store, tables: TableService, places: TournamentPlaces, *,
                 clock: Callable[[], float] | None = None,
                 break_seconds: float = BREAK_SECONDS) -> None:
        self.store = store
        self.tables = tables
        self.places = places
        self.clock = clock or tables.clock
        self.break_seconds = break_seconds
        self.live: dict[int, Live] = {}
        self.threads: dict[int, int] = {}  # a table's thread -> its tournament
        self._locks: dict[int, asyncio.Lock] = {}
        self._post_locks: dict[int, asyncio.Lock] = {}
        self._timers: dict[int, asyncio.Task[None]] = {}
        self._tasks: set[asyncio.Task[Any]] = set()
        store.on_tournament_result(lambda tid: self.spawn(self.apply_results(tid)))
        tables.committed.append(self._table_committed)

    # --- bookkeeping -----------------------------------------------------------------------
    def spawn(self, work: Coroutine[Any, Any, Any]) -> None:
        """Run `work` on its own (a failure is logged), keeping a reference till it ends."""
        task = asyncio.get_running_loop().create_task(self._logged(work))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    @staticmethod
    async def _logged(work: Coroutine[Any, Any, Any]) -> None:
        try:
            await work
        except TableError as error:
            log.info("tournament step refused: %s", error)
        except Exception:
            log.exception("a tournament's step failed")

    def lock(self, tournament_id: int) -> asyncio.Lock:
        return self._locks.setdefault(tournament_id, asyncio.Lock())

    def found(self, guild_id: int, channel_id: int) -> Live:
        """The live tournament of a channel (or of the table thread the command is in)."""
        tid = self.threads.get(channel_id)
        for live in self.live.values():
            if live.guild_id == guild_id and (live.channel_id == channel_id or live.id == tid) \
                    and live.t.status != "over":
                return live
        raise TableError(NO_TOURNAMENT)

    # --- the door --------------------------------------------------------------------------
    @asynccontextmanager
    async def command(self, tournament_id: int, *,
                      guild_id: int | None = None) -> AsyncIterator[Live]:
        """Under the tournament's lock, a draft of it as it is now (see the module's doc)."""
        async with self.lock(tournament_id):
            live = self.live.get(tournament_id)
            if live is None or (guild_id is not None and live.guild_id != guild_id):
                raise TableError(NO_TOURNAMENT)
            yield live.draft()

    async def commit(self, draft: Live, messages: Iterable[TournamentPost] = (), *,
                     applied: Iterable[str] = (),
                     new_tables: Iterable[TournamentTable] = ()) -> Live:
        """Save the draft with what it says, the results it took in and the tables it opens;
        then install it, set its clock and post. Returns a fresh draft to go on with."""
        running = draft.t.status == "running"
        draft.extra = replace(draft.extra, saved_at=self.clock(),
                              next_at=draft.extra.next_at if running else None)
        places = self._final_places(draft) if draft.t.status == "over" else []
        draft.version = await self.store.save_tournament(
            draft.id, draft.version, draft.t.to_json(), extra_to_json(draft.extra),
            messages=[post_to_json(message) for message in messages],
            applied=list(applied), new_tables=list(new_tables), places=places)
        self.live[draft.id] = draft
        self._schedule(draft)
        self.spawn(self.deliver(draft.id))
        return draft.draft()

    @staticmethod
    def _final_places(draft: Live) -> list[TournamentPlace]:
        return [TournamentPlace(s.player, player_user(s.player) if s.player.isdigit() else None,
                                draft.t.entrants[s.player].name, s.place, s.score)
                for s in draft.t.standings()]

    # --- posting ---------------------------------------------------------------------------
    async def deliver(self, tournament_id: int) -> None:
        """Post the tournament's waiting messages in order, each marked sent once posted."""
        live = self.live.get(tournament_id)
        if live is None:
            return
        async with self._post_locks.setdefault(tournament_id, asyncio.Lock()):
            for message in await self.store.unsent_tournament_messages(tournament_id):
                said = post_from_json(message.body)
                await self.places.post(live.channel_id, said.text, draw(said))
                await self.store.mark_tournament_message_sent(message.id)

    # --- clocks ----------------------------------------------------------------------------
    def due(self, live: Live) -> float | None:
        if live.t.status == "signup":
            return live.extra.start_at
        if live.t.status == "running" and not live.t.paused:
            return live.extra.next_at
        return None

    def _schedule(self, live: Live) -> None:
        timer = self._timers.pop(live.id, None)
        if timer is not None:
            timer.cancel()
        due = self.due(live)
        if due is not None:
            self._timers[live.id] = asyncio.get_running_loop().create_task(
                self._wait(live.id, due))

    async def _wait(self, tournament_id: int, due: float) -> None:
        await asyncio.sleep(max(0.0, due - self.clock()))
        self._timers.pop(tournament_id, None)
        self.spawn(self.tick(tournament_id))  # on its own: its commit reschedules

    async def tick(self, tournament_id: int) -> None:
        """A clock came due: the start time (start, if enough have joined) or the break
        after a round (the next round)."""
        async with self.command(tournament_id) as draft:
            due = self.due(draft)
            if due is None or due > self.clock() + 0.5:
                return
            if draft.t.status == "signup":
                draft.extra = replace(draft.extra, start_at=None)
                try:
                    await self.begin(draft, by="clock")
                except TableError as error:
                    with i18n.using(draft.locale):
                        said = i18n.render(error.args[0]) + " " + i18n.t(
                            "The start waits for the organiser.")
                    await self.commit(draft, [text.post(said)])
            else:
                await self.advance(draft, by="clock")

    async def close(self) -> None:
        for timer in self._timers.values():
            timer.cancel()
        for task in list(self._tasks):
            task.cancel()

    # --- rounds ----------------------------------------------------------------------------
    async def begin(self, draft: Live, *, by: str) -> None:
        """Start: seed by the ratings as they are now, pair round 1, open its tables."""
        ratings = await self._ratings(draft)
        try:
            draft.t.start(ratings, by=by)
        except TournamentError as error:
            raise refused(error) from error
        draft.extra = replace(draft.extra, start_at=None)
        draft = await self.commit(draft)
        if draft.extra.event_id is not None:
            await self._event(draft, draft.extra.event_id, "active")
        await self.open_round(draft)

    async def advance(self, draft: Live, *, by: str) -> None:
        """The next round (or, after the last, the end), opened at once."""
        try:
            following = draft.t.next_round(by=by)
        except TournamentError as error:
            raise refused(error) from error
        draft.extra = replace(draft.extra, next_at=None)
        if following is None:
            await self.finish(draft)
            return
        draft = await self.commit(draft)
        await self.open_round(draft)

    async def open_round(self, draft: Live) -> Live:
        """Open every table of the current round not yet open, each in a thread of its own,
        then announce the round once. Safe to repeat: after a crash it opens what is
        missing (a thread made just before a crash is left empty)."""
        current = draft.t.current_round
        if draft.t.status != "running" or current is None:
            return draft
        known = {(row.round, row.number): row
                 for row in await self.store.tournament_tables(draft.id)}
        for table in current.tables:
            row = known.get((current.number, table.number))
            if table.finished and row is None:
                continue
            if row is None:
                with i18n.using(draft.locale):
                    name = i18n.t("Round {round}, table {n}", round=current.number,
                                  n=table.number)
                thread = await self.places.create_thread(draft.channel_id, name)
                row = TournamentTable(new_table_id(), draft.id, current.number, table.number,
                                      thread)
                draft = await self.commit(draft, new_tables=[row])
            self.threads[row.thread_id] = draft.id
            if row.result is None and row.table_id not in self.tables.tables \
                    and not table.finished:
                await tournament_tables.open_table(self.tables, draft, row, table.players)
            elif (playing := self.tables.tables.get(row.table_id)) is not None:
                await tournament_tables.hand_over(self.tables, draft, row)  # replaced seats
                self._table_committed(playing)  # a chip table saved between deals deals on
        if draft.extra.announced < current.number:
            draft.extra = replace(draft.extra, announced=current.number)
            threads = {row.number: row.thread_id
                       for row in await self.store.tournament_tables(draft.id)
                       if row.round == current.number}
            with i18n.using(draft.locale):
                said = text.pairings_text(draft.t, current, threads)
            draft = await self.commit(draft, [text.post(said)])
        return draft

    def _table_committed(self, table: Table) -> None:
        """A table was saved: a tournament's chip table whose deal just ended deals on."""
        if table.channel_id in self.threads and tournament_tables.between_deals(table):
            self.spawn(tournament_tables.deal_on(self.tables, table.table_id))

    async def apply_results(self, tournament_id: int) -> None:
        """Take in every table result recorded and not yet taken in (once each), tell the
        channel, and when the round is over show the standings and set the next round's
        clock (or finish after the last round)."""
        async with self.command(tournament_id) as draft:
            pending = [row for row in await self.store.tournament_tables(draft.id)
                       if row.result is not None and not row.applied]
            if not pending:
                return
            said: list[TournamentPost] = []
            current = draft.t.current_round
            for row in pending:
                if draft.t.status != "running" or current is None \
                        or row.round != current.number:
                    continue
                said += self._take_in(draft, row)
            await self.after_results(draft, said, applied=[row.table_id for row in pending])

    def _take_in(self, draft: Live, row: TournamentTable) -> list[TournamentPost]:
        t = draft.t
        current = t.current_round
        assert current is not None
        table = next(tb for tb in current.tables if tb.number == row.number)
        if table.finished:
            return []
        if row.result == "finished" and row.places is not None:
            table = t.record_result(row.number, list(row.places), by="table")
        else:  # aborted: nobody there scores
            for player in table.players:
                if table.finished:
                    break
                table = t.forfeit(player, by="table")
        with i18n.using(draft.locale):
            return [text.post(text.result_text(t, current.number, table,
                                               row.result != "finished"))]

    async def after_results(self, draft: Live, said: list[TournamentPost], *,
                            applied: Iterable[str] = ()) -> None:
        """Commit results taken in; when they finish the round: its standings, then the
        break before the next round, or the end after the last."""
        current = draft.t.current_round
        if draft.t.status == "running" and current is not None and current.finished \
                and draft.extra.next_at is None:
            probe = Tournament.from_json(draft.t.to_json())
            last = False
            if not probe.paused:
                try:
                    last = probe.next_round(by="probe") is None
                except TournamentError:
                    last = False
            if last:
                draft = await self.commit(draft, said, applied=applied)
                await self.advance(draft, by="clock")
                return
            with i18n.using(draft.locale):
                title = i18n.t("Standings after round {n}", n=current.number)
                said.append(text.standings_post(draft.t, title, text.standings_text(draft.t)))
                if draft.t.paused:
                    said.append(text.post(i18n.t(
                        "The tournament is paused: the next round waits for `/tournament "
                        "resume`.")))
                else:
                    said.append(text.post(i18n.t(
                        "Round {n} starts <t:{stamp}:R>, or when the organiser uses "
                        "`/tournament next`.", n=current.number + 1,
                        stamp=int(self.clock() + self.break_seconds))))
            if not draft.t.paused:
                draft.extra = replace(draft.extra, next_at=self.clock() + self.break_seconds)
        await self.commit(draft, said, applied=applied)

    async def finish(self, draft: Live) -> None:
        """Over: the podium and the final standings, the places for the board (in the same
        write), the scheduled event completed and the sign-up message brought up to date."""
        with i18n.using(draft.locale):
            title = i18n.t("Final standings")
            said = [text.post(text.final_text(draft.t)),
                    text.standings_post(draft.t, title, text.standings_text(draft.t))]
        draft = await self.commit(draft, said)
        if draft.extra.event_id is not None:
            await self._event(draft, draft.extra.event_id, "completed")
        await self.refresh_signup(draft)

    async def refresh_signup(self, live: Live) -> None:
        signup = live.extra.signup
        if signup is None:
            return
        with i18n.using(live.locale):
            said = text.signup_text(live.t, live.kind, live.organiser_id,
                                    live.extra.start_at, live.deals)
        try:
            await self.places.edit_message(signup[0], signup[1], said)
        except Exception:  # the sign-up message is a courtesy: a deleted one is no failure
            log.warning("could not edit tournament %d's sign-up message", live.id)

    async def _event(self, live: Live, event_id: int, status: str) -> None:
        try:
            await self.places.set_event(live.guild_id, event_id, status)
        except Exception:  # Discord's reminder is a courtesy: the tournament goes on
            log.warning("could not set tournament %d's event to %s", live.id, status)

    async def _ratings(self, draft: Live) -> dict[str, float]:
        """Each entrant's shown skill rating at this game now (a newcomer's 1000; AI
        entrants the AI level's)."""
        ai = (await self.store.ai_ratings(draft.guild_id, draft.kind)).get("standard")
        ratings: dict[str, float] = {}
        for player in draft.t.entrants:
            if not player.isdigit():  # an AI entrant (a member replaced by one keeps theirs)
                ratings[player] = float(ai.shown) if ai else 1000.0
                continue
            found = (await self.store.player_ratings(draft.guild_id, player_user(player))).get(
                draft.kind)
            ratings[player] = float(found.skill.shown) if found else 1000.0
        return ratings

    # --- restart ---------------------------------------------------------------------------
    async def restore(self) -> None:
        """Load every live tournament (before the gateway: the tables are restored first)."""
        for row in await self.store.live_tournaments():
            try:
                self.live[row.id] = Live.of(row)
            except (ValueError, KeyError) as error:
                log.error("tournament %d not restored: %s", row.id, error)
                continue
            for table in await self.store.tournament_tables(row.id):
                self.threads[table.thread_id] = row.id

    async def resume(self) -> None:
        """After the gateway is ready: each clock resumes with the time it had left (at least
        30 s: clocks stand still while the bot is down), results recorded meanwhile are taken
        in, missing tables opened, waiting messages posted."""
        now = self.clock()
        for tournament_id in list(self.live):
            try:
                async with self.command(tournament_id) as draft:
                    draft.extra = draft.extra.resumed(now, MIN_LEFT)
                    draft = await self.commit(draft)
                    await self.open_round(draft)
                await self.apply_results(tournament_id)
            except Exception:
                log.exception("tournament %d did not resume", tournament_id)
