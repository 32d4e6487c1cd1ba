"""The tournament service: create, sign up, start, and the organiser's steps.

It imports no Discord (`cogs/tournaments.py` turns interactions into these calls). The rules
are the engine's (`engine.tournaments`); every command here follows the tables' discipline
through `TournamentRounds.command` (lock, check inside it, draft, commit, install), so a
refused step changes nothing, and two clicks at once are one after the other: a second Join
finds the first, a second Start finds the tournament started.
"""

from __future__ import annotations

import contextlib
from typing import Any

from bot.core import tournament_tables
from bot.core import tournament_text as text
from bot.core.table import TableError
from bot.core.tournament_chips import DEFAULT_DEALS
from bot.core.tournament_posts import TournamentPost, draw
from bot.core.tournament_rounds import TournamentRounds
from bot.core.tournament_state import Live, TournamentPlaces, organiser_only, refused
from bot.core.tournament_tables import DEALS, DEALS_OPTION
from bot.core.tournament_time import parse_start
from bot.present import i18n
from bot.present.inert import inert
from engine.games import GAMES
from engine.i18n import msg
from engine.tournaments import Entrant, Format, Tournament, TournamentConfig, TournamentError

__all__ = ["TournamentPlaces", "TournamentService"]

ORGANISER_STEPS = {
    "pause": msg("pause the tournament"),
    "resume": msg("resume the tournament"),
    "next": msg("start the next round"),
    "end": msg("end the tournament"),
    "replace": msg("replace a player by an AI seat"),
    "forfeit": msg("record a forfeit"),
    "drop": msg("drop a player"),
    "start": msg("start the tournament"),
    "ai": msg("add an AI player"),
}


class TournamentService(TournamentRounds):
    """Every tournament's commands (the rounds, clocks and posts are `TournamentRounds`)."""

    async def create(self, guild_id: int, channel_id: int, user_id: int, kind: str, *,
                     format_: str = "swiss", rounds: int | None = None,
                     seats: int | None = None, start: str | None = None,
                     deals: int | None = None,
                     options: dict[str, Any] | None = None) -> tuple[int, str]:
        """A new tournament in this channel, open for sign-up; its id and sign-up text. The
        cog posts the sign-up message and creates the scheduled event, then tells us
        (`remember_signup`, `remember_event`). A chip game's tables play `deals` deals
        each with tournament chips (`bot.core.tournament_chips`)."""
        game = GAMES.get(kind)
        if game is None:
            raise TableError(msg("There is no game called {kind}.", kind=kind))
        options = dict(options or {})
        if game.chip_game:
            options[DEALS_OPTION] = DEALS.check(deals or DEFAULT_DEALS)
        elif deals is not None:
            raise TableError(msg("{title} is played to its end: `deals` is for chip games, "
                                 "whose tables play that many deals.", title=game.title))
        if game.max_seats < 2:
            raise TableError(msg("{title} is played alone: it cannot be a tournament.",
                                 title=game.title))
        size = seats or 2
        if not game.min_seats <= size <= game.max_seats:
            raise TableError(msg("{title} is played by {low} to {high} players a table.",
                                 title=game.title, low=game.min_seats, high=game.max_seats))
        start_at = parse_start(start, self.clock())
        try:
            config = TournamentConfig(Format(format_), seats=size,
                                      min_table=max(2, game.min_seats), rounds=rounds)
        except TournamentError as error:
            raise refused(error) from error
        t = Tournament(config)
        for live in self.live.values():
            if live.channel_id == channel_id and live.t.status != "over":
                raise TableError(msg("A tournament is already under way in this channel: "
                                     "see `/tournament standings`, or create one in another "
                                     "channel."))
        locale = i18n.guild_locale(guild_id)
        extra = {"options": options, "start_at": start_at, "next_at": None,
                 "saved_at": self.clock(), "locale": locale, "announced": 0}
        tid = await self.store.create_tournament(guild_id, channel_id, kind, user_id,
                                                 t.to_json(), extra)
        live = Live(tid, guild_id, channel_id, kind, user_id, 1, t, extra)
        self.live[tid] = live
        self._schedule(live)
        with i18n.using(locale):
            return tid, text.signup_text(t, kind, user_id, start_at, live.deals)

    async def remember_signup(self, tournament_id: int, channel_id: int,
                              message_id: int) -> None:
        async with self.command(tournament_id) as draft:
            draft.extra["signup"] = [channel_id, message_id]
            await self.commit(draft)

    async def remember_event(self, tournament_id: int, event_id: int) -> None:
        async with self.command(tournament_id) as draft:
            draft.extra["event_id"] = event_id
            await self.commit(draft)

    def signup_text(self, tournament_id: int) -> str:
        live = self.live.get(tournament_id)
        if live is None:
            return i18n.t("This tournament is over.")
        with i18n.using(live.locale):
            return text.signup_text(live.t, live.kind, live.organiser_id,
                                    live.extra.get("start_at"), live.deals)

    # --- sign-up ---------------------------------------------------------------------------
    async def signup(self, tournament_id: int, user_id: int, name: str, op: str, *,
                     is_admin: bool = False, guild_id: int | None = None) -> str:
        """A sign-up button: join, leave, add an AI player or start (the organiser's). The
        sign-up text as it is now."""
        async with self.command(tournament_id, guild_id=guild_id) as draft:
            t = draft.t
            if t.status != "signup" and op != "start":
                raise TableError(msg("The tournament has started: the sign-up is closed."))
            try:
                if op == "join":
                    t.join(Entrant(str(user_id), name), by=str(user_id))
                elif op == "leave":
                    if str(user_id) not in t.entrants:
                        raise TableError(msg("You have not joined this tournament."))
                    t.leave(str(user_id), by=str(user_id))
                elif op == "ai":
                    organiser_only(draft, user_id, is_admin, ORGANISER_STEPS["ai"])
                    number = 1
                    while f"ai{number}" in t.entrants:
                        number += 1
                    t.join(Entrant(f"ai{number}", f"AI {number}", ai=True), by=str(user_id))
                elif op == "start":
                    organiser_only(draft, user_id, is_admin, ORGANISER_STEPS["start"])
                    if t.status != "signup":
                        raise TableError(msg("The tournament has already started."))
                    await self.begin(draft, by=str(user_id))
                    return self.signup_text(tournament_id)
                else:
                    raise TableError(msg("That button is not part of this sign-up."))
            except TournamentError as error:
                raise refused(error) from error
            await self.commit(draft)
        return self.signup_text(tournament_id)

    # --- the organiser's steps -------------------------------------------------------------
    async def organise(self, guild_id: int, channel_id: int, user_id: int, step: str, *,
                       is_admin: bool = False, player: int | None = None) -> str:
        """`/tournament pause|resume|next|end|replace|forfeit|drop`: the organiser's (or a
        member with Manage Server's); refused to others, changing nothing. What to answer."""
        live = self.found(guild_id, channel_id)
        async with self.command(live.id, guild_id=guild_id) as draft:
            organiser_only(draft, user_id, is_admin, ORGANISER_STEPS[step])
            t, by = draft.t, str(user_id)
            said: list[TournamentPost] = []
            try:
                if step == "start":
                    await self.begin(draft, by=by)
                    return i18n.t("The tournament has started.")
                if step == "pause":
                    t.pause(by=by)
                elif step == "resume":
                    t.resume(by=by)
                    if t.can_advance:
                        draft.extra["next_at"] = self.clock() + self.break_seconds
                elif step == "next":
                    await self.advance(draft, by=by)
                    return i18n.t("Done: the next round is open.") if t.status == "running" \
                        else i18n.t("That was the last round: the tournament is over.")
                elif step == "end":
                    t.end(by=by)
                    await self.finish(draft)
                    await self._close_tables(draft)
                    return i18n.t("The tournament is over.")
                else:
                    target = self._player(t, player)
                    name = t.entrant(target).name
                    if step == "replace":
                        t.replace_by_ai(target, by=by)
                        await self._replace(draft, target, name)
                        return i18n.t("Done.")
                    elif step == "drop":
                        t.drop(target, by=by)
                        with i18n.using(draft.locale):
                            said.append(text.post(i18n.t(
                                "{name} has left the tournament.", name=inert(name))))
                    elif step == "forfeit":
                        table = t.forfeit(target, by=by)
                        current = t.current_round
                        assert current is not None
                        with i18n.using(draft.locale):
                            said.append(text.post(i18n.t(
                                "{name} forfeits table {n} of round {round}.",
                                name=inert(name), n=table.number, round=current.number)))
                            if table.finished:
                                said.append(text.post(text.result_text(
                                    t, current.number, table, aborted=False)))
                        if table.finished:
                            await self.after_results(draft, said)
                            await self._abort_table(draft, current.number, table.number)
                            return i18n.t("Done: {name} forfeits.", name=inert(name))
                    else:
                        raise TableError(msg("That is not a step of the tournament."))
            except TournamentError as error:
                raise refused(error) from error
            await self.commit(draft, said)
        return i18n.t("Done.")

    async def _replace(self, draft: Live, player: str, name: str) -> None:
        """The replacement is saved, then takes effect at the player's running table at
        once: their seat plays on as an AI seat from its next decision (a restart between
        the two writes hands it over when the round is reopened: `open_round`)."""
        current, seated = draft.t.current_round, draft.t.table_of(player)
        playing = [] if current is None or seated is None or seated.finished else [
            row for row in await self.store.tournament_tables(draft.id)
            if (row.round, row.number) == (current.number, seated.number)
            and row.result is None and (table := self.tables.tables.get(row.table_id))
            and table.seat_of(int(player)) is not None]  # not busted out of it
        with i18n.using(draft.locale):
            said = i18n.t("{name} is played by the AI from now on, at their table too.",
                          name=inert(name)) if playing else i18n.t(
                "{name} is played by the AI from the next round on.", name=inert(name))
        draft = await self.commit(draft, [text.post(said)])
        for row in playing:
            await tournament_tables.hand_over(self.tables, draft, row)

    def _player(self, t: Tournament, player: int | None) -> str:
        if player is None:
            raise TableError(msg("Name the player (the `player` option)."))
        if str(player) not in t.entrants:
            raise TableError(msg("That player is not in the tournament."))
        return str(player)

    async def _abort_table(self, live: Live, round_number: int, number: int) -> None:
        """A table whose result the tournament has (a forfeit left one player) stops."""
        for row in await self.store.tournament_tables(live.id):
            if (row.round, row.number) == (round_number, number) and row.result is None:
                await self._abort(live, row.thread_id)

    async def _close_tables(self, live: Live) -> None:
        """The end: the tables still playing stop, and count for nothing."""
        for row in await self.store.tournament_tables(live.id):
            if row.result is None:
                await self._abort(live, row.thread_id)

    async def _abort(self, live: Live, thread_id: int) -> None:
        with contextlib.suppress(TableError):  # it ended meanwhile
            await self.tables.abort(thread_id, live.organiser_id, "organiser", is_admin=True)

    # --- reading ---------------------------------------------------------------------------
    def standings(self, guild_id: int, channel_id: int) -> tuple[str, list[tuple[str, bytes]]]:
        """`/tournament standings`: the text and the picture(s), in the reader's language."""
        live = self.found(guild_id, channel_id)
        t = live.t
        if t.status == "signup":
            return self.signup_text(live.id), []
        title = i18n.t("Standings after round {n}", n=t.round_number) \
            if t.status == "running" else i18n.t("Final standings")
        said = text.standings_post(t, title, text.standings_text(t))
        return said.text, draw(said)
