"""The tournament service: create, sign up, start, and the organiser's steps.

It imports no Discord (`cogs/tournaments.py` turns interactions into these calls). The rules
are the engine's (`engine.tournaments`); every command here follows the tables' discipline
through `TournamentRounds.command` (lock, check inside it, draft, commit, install), so a
refused step changes nothing, and two clicks at once are one after the other: a second Join
finds the first, a second Start finds the tournament started.
"""

from __future__ import annotations

import contextlib
from collections.abc import Mapping
from dataclasses import replace

from bot.core import game_names, tournament_tables
from bot.core import tournament_text as text
from bot.core.table import TableError
from bot.core.tournament_chips import DEFAULT_DEALS
from bot.core.tournament_extra import OptionValue, TournamentExtra, extra_to_json
from bot.core.tournament_posts import TournamentPost, draw
from bot.core.tournament_rounds import TournamentRounds
from bot.core.tournament_state import Live, TournamentPlaces, organiser_only, refused
from bot.core.tournament_tables import DEALS, DEALS_OPTION
from bot.core.tournament_time import parse_start
from bot.present import i18n
from bot.present.inert import inert
from engine.games import GAMES
from engine.i18n import N_, msg
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

# What the organiser's steps tell the channel, and the organiser in the same words.
PAUSED = N_("The tournament is paused: the tables playing now play on, and the next round "
            "waits for `/tournament resume`.")
RESUMED = N_("The tournament goes on: the next round starts once this round's tables are "
             "over (or with `/tournament next`).")
RESUMED_AT = N_("The tournament goes on: it moves on <t:{stamp}:R>, or at once with "
                "`/tournament next`.")
AI_AT_TABLE = N_("{name} is played by the AI from now on, at their table too.")
AI_NEXT_ROUND = N_("{name} is played by the AI from the next round on.")
DROPPED = N_("{name} has left the tournament.")
FORFEITS = N_("{name} forfeits table {n} of round {round}.")


class TournamentService(TournamentRounds):
    """Every tournament's commands (the rounds, clocks and posts are `TournamentRounds`)."""

    async def create(self, guild_id: int, channel_id: int, user_id: int, kind: str, *,
                     format_: str = "swiss", rounds: int | None = None,
                     seats: int | None = None, start: str | None = None,
                     deals: int | None = None,
                     options: Mapping[str, OptionValue] | None = None) -> tuple[int, str]:
        """A new tournament in this channel, open for sign-up; its id and sign-up text. The
        cog posts the sign-up message and creates the scheduled event, then tells us
        (`remember_signup`, `remember_event`). A chip game's tables play `deals` deals
        each with tournament chips (`bot.core.tournament_chips`)."""
        kind = game_names.game_kind(kind)  # as typed, or the suggestion's kind
        game = GAMES[kind]
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
        extra = TournamentExtra(saved_at=self.clock(), options=tuple(options.items()),
                                start_at=start_at, locale=locale)
        tid = await self.store.create_tournament(guild_id, channel_id, kind, user_id,
                                                 t.to_json(), extra_to_json(extra))
        live = Live(tid, guild_id, channel_id, kind, user_id, 1, t, extra)
        self.live[tid] = live
        self._schedule(live)
        with i18n.using(locale):
            return tid, text.signup_text(t, kind, user_id, start_at, live.deals)

    async def remember_signup(self, tournament_id: int, channel_id: int,
                              message_id: int) -> None:
        async with self.command(tournament_id) as draft:
            draft.extra = replace(draft.extra, signup=(channel_id, message_id))
            await self.commit(draft)

    async def remember_event(self, tournament_id: int, event_id: int) -> None:
        async with self.command(tournament_id) as draft:
            draft.extra = replace(draft.extra, event_id=event_id)
            await self.commit(draft)

    def signup_text(self, tournament_id: int) -> str:
        live = self.live.get(tournament_id)
        if live is None:
            return i18n.t("This tournament is over.")
        with i18n.using(live.locale):
            return text.signup_text(live.t, live.kind, live.organiser_id,
                                    live.extra.start_at, live.deals)

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
        member with Manage Server's); refused to others, changing nothing. What to answer
        the organiser, in their language: what happened, in a sentence (the channel is
        told in its own, when the step concerns the players)."""
        live = self.found(guild_id, channel_id)
        async with self.command(live.id, guild_id=guild_id) as draft:
            organiser_only(draft, user_id, is_admin, ORGANISER_STEPS[step])
            t, by = draft.t, str(user_id)
            try:
                if step == "start":
                    await self.begin(draft, by=by)
                    return i18n.t("The tournament has started: round 1's tables are open, "
                                  "each in its thread.")
                if step == "pause":
                    t.pause(by=by)
                    await self.commit(draft, [self._said(draft, PAUSED)])
                    return i18n.t(PAUSED)
                if step == "resume":
                    t.resume(by=by)
                    if not t.can_advance:
                        await self.commit(draft, [self._said(draft, RESUMED)])
                        return i18n.t(RESUMED)
                    stamp = int(self.clock() + self.break_seconds)
                    draft.extra = replace(draft.extra, next_at=float(stamp))
                    await self.commit(draft, [self._said(draft, RESUMED_AT, stamp=stamp)])
                    return i18n.t(RESUMED_AT, stamp=stamp)
                if step == "next":
                    await self.advance(draft, by=by)
                    return i18n.t("Round {n} is open: its tables are in their threads.",
                                  n=t.round_number) if t.status == "running" \
                        else i18n.t("That was the last round: the tournament is over.")
                if step == "end":
                    t.end(by=by)
                    await self.finish(draft)
                    await self._close_tables(draft)
                    return i18n.t("The tournament is over: the final standings are posted.")
                if step not in ("replace", "drop", "forfeit"):
                    raise TableError(msg("That is not a step of the tournament."))
                return await self._player_step(draft, step, self._player(t, player), by)
            except TournamentError as error:
                raise refused(error) from error

    async def _player_step(self, draft: Live, step: str, target: str, by: str) -> str:
        """Replace, drop or forfeit one player: saved with what the channel is told."""
        t = draft.t
        name = inert(t.entrant(target).name)
        if step == "replace":
            t.replace_by_ai(target, by=by)
            at_table = await self._replace(draft, target, name)
            return i18n.t(AI_AT_TABLE if at_table else AI_NEXT_ROUND, name=name)
        if step == "drop":
            t.drop(target, by=by)
            await self.commit(draft, [self._said(draft, DROPPED, name=name)])
            return i18n.t("{name} has left the tournament: the next rounds are paired "
                          "without them. Their table of this round plays on unless you "
                          "record their forfeit (`/tournament forfeit`).", name=name)
        table = t.forfeit(target, by=by)
        current = t.current_round
        assert current is not None
        said = [self._said(draft, FORFEITS, name=name, n=table.number, round=current.number)]
        if not table.finished:
            await self.commit(draft, said)
            return i18n.t(FORFEITS, name=name, n=table.number, round=current.number)
        with i18n.using(draft.locale):
            said.append(text.post(text.result_text(t, current.number, table, aborted=False)))
        await self.after_results(draft, said)
        await self._abort_table(draft, current.number, table.number)
        return i18n.t("{name} forfeits table {n} of round {round}: one player is left there, "
                      "so the table is over and its result is posted.", name=name,
                      n=table.number, round=current.number)

    @staticmethod
    def _said(live: Live, sentence: str, **params: object) -> TournamentPost:
        """A sentence of the bot's catalogue posted in the tournament's channel, in its
        language (names among `params` already inert)."""
        with i18n.using(live.locale):
            return text.post(i18n.t(sentence, **params))

    async def _replace(self, draft: Live, player: str, name: str) -> bool:
        """The replacement is saved, then takes effect at the player's running table at
        once: their seat plays on as an AI seat from its next decision (a restart between
        the two writes hands it over when the round is reopened: `open_round`). Whether
        they were still playing at a table of this round."""
        current, seated = draft.t.current_round, draft.t.table_of(player)
        playing = [] if current is None or seated is None or seated.finished else [
            row for row in await self.store.tournament_tables(draft.id)
            if (row.round, row.number) == (current.number, seated.number)
            and row.result is None and (table := self.tables.tables.get(row.table_id))
            and table.seat_of(int(player)) is not None]  # not busted out of it
        draft = await self.commit(draft, [self._said(
            draft, AI_AT_TABLE if playing else AI_NEXT_ROUND, name=name)])
        for row in playing:
            await tournament_tables.hand_over(self.tables, draft, row)
        return bool(playing)

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
    async def standings(self, guild_id: int, channel_id: int
                        ) -> tuple[str, list[tuple[str, bytes]]]:
        """`/tournament standings`: the text and the picture(s), in the reader's language.
        With none under way in the channel (or the table thread it is asked in), the final
        standings of its last tournament, read from the store: finished tournaments are not
        reloaded at start-up, so this is what makes them survive a restart."""
        try:
            live = self.found(guild_id, channel_id)
        except TableError:
            row = await self.store.last_tournament_in(guild_id, channel_id)
            if row is None or row.status != "over":  # none, or one that failed to restore
                raise
            t = Tournament.from_json(row.state)
        else:
            if live.t.status == "signup":
                return self.signup_text(live.id), []
            t = live.t
        title = i18n.t("Standings after round {n}", n=t.round_number) \
            if t.status == "running" else i18n.t("Final standings")
        said = text.standings_post(t, title, text.standings_text(t))
        return said.text, draw(said)
