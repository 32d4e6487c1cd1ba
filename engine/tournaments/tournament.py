"""A tournament's whole state and every step of it, as pure operations on plain data.

Like a game, a `Tournament` is built from plain values, changed only by its operations,
and saved whole (`to_json`, read back by `from_json`): the bot stores it in the same
transaction as the table results that move it. It takes no clock, no randomness and no
Discord: the same steps give the same pairings, every time. Each operation checks
everything first and raises a `TournamentError` (a friendly sentence) without changing
anything, or makes its change and writes a line to `log`.

The life of a tournament:

- **Sign-up** (`status == "signup"`): `join`, `leave`; `start` (with the ratings as they
  are then, if given) seeds the field and pairs round 1.
- **Running**: the bot opens the round's tables and reports each result
  (`record_result`, places in the table's seat order); `next_round` pairs the next round once
  every table of this one has its result, and after the last round ends the tournament
  (it returns None). The organiser may `pause` (no next round until `resume`), `forfeit` a
  player's table, `drop` a player (never paired again; their table of this round goes on
  unless forfeited), `replace_by_ai` (the entrant plays on as an AI seat, keeping their
  score) and `end` it at any time (unfinished tables then count for nothing). Every step
  takes `by=`, who took it, for the log; who may take which step is the bot's to decide.
- **Over** (`status == "over"`): `standings()` are final.

>>> t = Tournament(TournamentConfig(rounds=2))
>>> for n, (name, rating) in enumerate([("Ann", 1500), ("Bo", 1400), ("Cy", 1300)]):
...     t.join(Entrant(str(n), name, rating))
>>> first = t.start()
>>> [table.players for table in first.tables], [bye.player for bye in first.byes]
([('0', '1')], ['2'])
>>> t.next_round()
Traceback (most recent call last):
...
engine.tournaments.formats.TournamentError: Table 1 of round 1 is still being played.
>>> t.record_result(1, [2, 1]).places
(2, 1)
>>> second = t.next_round()
>>> [table.players for table in second.tables], [bye.player for bye in second.byes]
([('1', '2')], ['0'])
>>> Tournament.from_json(t.to_json()).to_json() == t.to_json()
True
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Any, Literal

from engine.i18n import msg
from engine.tournaments.elimination import advancers, advancing_count, first_bracket
from engine.tournaments.formats import Format, TournamentConfig, TournamentError, table_sizes
from engine.tournaments.records import Bye, Entrant, Round, Table
from engine.tournaments.round_robin import round_count, schedule
from engine.tournaments.scoring import effective_places, ranked, win_points
from engine.tournaments.standings import (
    Standing,
    byes_had,
    elimination_standings,
    meetings,
    scores,
    swiss_standings,
)
from engine.tournaments.swiss import pair_round, slide

__all__ = ["VERSION", "Status", "Tournament"]

VERSION = 1
"""The version of `to_json`'s format; `from_json` refuses others rather than misread them."""

Status = Literal["signup", "running", "over"]


class Tournament:
    """A tournament (see the module's doc). Read its fields; change it only through its
    operations."""

    def __init__(self, config: TournamentConfig | None = None,
                 entrants: Iterable[Entrant] = ()) -> None:
        self.config = config if config is not None else TournamentConfig()
        self.entrants: dict[str, Entrant] = {}  # in the order they joined
        self.status: Status = "signup"
        self.paused = False
        self.ended = False  # ended by the organiser before its last round
        self.seeded: tuple[str, ...] = ()  # by rating at the start
        self.planned_rounds: int | None = None  # None: an elimination at big tables
        self.rounds: list[Round] = []
        self.out: dict[str, tuple[int, int | None]] = {}  # elimination: round, place
        self.log: list[dict[str, Any]] = []
        for entrant in entrants:
            self.join(entrant)

    # ----- reading -----------------------------------------------------------------------

    @property
    def current_round(self) -> Round | None:
        return self.rounds[-1] if self.rounds else None

    @property
    def round_number(self) -> int:
        """The current round's number (0 before the start)."""
        return len(self.rounds)

    @property
    def can_advance(self) -> bool:
        """`next_round` would be accepted now."""
        current = self.current_round
        return (self.status == "running" and not self.paused and current is not None
                and current.finished)

    def entrant(self, player: str) -> Entrant:
        found = self.entrants.get(player)
        if found is None:
            raise TournamentError(msg("That player is not in the tournament."))
        return found

    def active_players(self) -> list[str]:
        """Those still paired, in the order they joined."""
        return [p for p, entrant in self.entrants.items() if entrant.active]

    def ratings(self) -> dict[str, float]:
        return {p: entrant.rating for p, entrant in self.entrants.items()}

    def table_of(self, player: str) -> Table | None:
        """The player's table in the current round (None: a bye, or no round yet)."""
        current = self.current_round
        return current.table_of(player) if current is not None else None

    def scores(self) -> dict[str, float]:
        return scores(list(self.entrants), self.rounds)

    def standings(self) -> list[Standing]:
        """The standings now (final once the tournament is over): `standings`' rules."""
        if self.config.format is Format.ELIMINATION:
            out = dict(self.out)
            current = self.current_round
            if self.status == "running" and current is not None and current.finished:
                self._pair(out)  # who this round knocked out, before the next is paired
            seeded = self.seeded or tuple(self.entrants)
            return elimination_standings(seeded, self.ratings(), self.rounds, out)
        return swiss_standings(list(self.entrants), self.ratings(), self.rounds)

    # ----- sign-up -----------------------------------------------------------------------

    def join(self, entrant: Entrant, *, by: str | None = None) -> None:
        self._require_signup()
        if entrant.id in self.entrants:
            raise TournamentError(msg("{name} has already joined.", name=entrant.name))
        self.entrants[entrant.id] = replace(entrant, dropped_after=None)
        self._log("join", by, player=entrant.id)

    def leave(self, player: str, *, by: str | None = None) -> None:
        self._require_signup()
        self.entrant(player)
        del self.entrants[player]
        self._log("leave", by, player=player)

    def start(self, ratings: Mapping[str, float] | None = None, *, by: str | None = None) -> Round:
        """Seed the field by rating (`ratings`, if given, replace the entrants' own: the
        ratings as they are at the start) and pair round 1."""
        self._require_signup()
        least = max(2, self.config.min_table)
        if len(self.entrants) < least:
            raise TournamentError(msg("A tournament needs at least {n} players.", n=least))
        given = ratings or {}
        updated = {p: replace(e, rating=float(given.get(p, e.rating)))
                   for p, e in self.entrants.items()}
        joined = list(updated)
        seeded = tuple(sorted(joined, key=lambda p: (-updated[p].rating, joined.index(p))))
        self.entrants, self.seeded, self.status = updated, seeded, "running"
        count = len(seeded)
        if self.config.format is Format.SWISS:
            self.planned_rounds = self.config.rounds or max(1, (count - 1).bit_length())
        elif self.config.format is Format.ROUND_ROBIN:
            self.planned_rounds = round_count(count)
        elif self.config.seats == 2:
            self.planned_rounds = (count - 1).bit_length()
        self._log("start", by)
        first = self._pair()
        assert first is not None  # two players or more always make a round
        self.rounds.append(first)
        self._log("round")
        return first

    # ----- the organiser's steps ---------------------------------------------------------

    def next_round(self, *, by: str | None = None) -> Round | None:
        """Pair the next round, or end the tournament after its last (None)."""
        self._require_running()
        if self.paused:
            raise TournamentError(msg("The tournament is paused: resume it first."))
        current = self.current_round
        assert current is not None
        waiting = next((table for table in current.tables if not table.finished), None)
        if waiting is not None:
            raise TournamentError(msg("Table {table} of round {round} is still being played.",
                                      table=waiting.number, round=current.number))
        if (self.config.format is Format.SWISS and self.round_number < (self.planned_rounds or 0)
                and len(self.active_players()) < max(2, self.config.min_table)):
            raise TournamentError(msg(
                "Too few players are left for another round: end the tournament."))
        out = dict(self.out)
        following = self._pair(out)
        self.out = out
        if following is None:
            self.status = "over"
            self._log("finish", by)
            return None
        self.rounds.append(following)
        self._log("round", by)
        return following

    def record_result(self, table: int, places: Sequence[int], *,
                      by: str | None = None) -> Table:
        """A table's result: the places (1 best, equal places shared, as `GameResult.places`
        or `scoring.places_by_chips` give them) in the table's seat order. A player who
        forfeited is placed last whatever their place here."""
        self._require_running()
        current, found = self._table(table)
        if found.finished:
            raise TournamentError(msg("Table {table} already has its result.", table=table))
        if (len(places) != len(found.players)
                or not all(isinstance(p, int) and not isinstance(p, bool) and p >= 1
                           for p in places)):
            raise TournamentError(msg(
                "A result gives a place, from 1, to each of the {n} players at the table.",
                n=len(found.players)))
        gone = [player in found.forfeits for player in found.players]
        result = replace(found, places=effective_places(ranked(places), gone))
        self._put(current, result)
        self._log("result", by, table=table, places=list(result.places or ()))
        return result

    def forfeit(self, player: str, *, by: str | None = None) -> Table:
        """The player gives up their table of this round: they score nothing and place last.
        When one player is left at the table, it is over and they have won it."""
        self._require_running()
        name = self.entrant(player).name
        current = self.current_round
        found = self.table_of(player)
        if current is None or found is None:
            raise TournamentError(msg("{name} has no table in this round.", name=name))
        if found.finished:
            raise TournamentError(msg("The table {name} plays at already has its result.",
                                      name=name))
        if player in found.forfeits:
            raise TournamentError(msg("{name} has already forfeited.", name=name))
        forfeits = (*found.forfeits, player)
        gone = [p in forfeits for p in found.players]
        places = (effective_places([1] * len(gone), gone)
                  if gone.count(False) <= 1 else None)
        result = replace(found, forfeits=forfeits, places=places)
        self._put(current, result)
        self._log("forfeit", by, player=player, table=found.number)
        return result

    def drop(self, player: str, *, by: str | None = None) -> None:
        """The player leaves: never paired again (before the start: they leave the sign-up).
        Their scores stand; their table of this round goes on unless they forfeit it."""
        if self.status == "signup":
            self.leave(player, by=by)
            return
        self._require_running()
        entrant = self.entrant(player)
        if not entrant.active:
            raise TournamentError(msg("{name} has already left the tournament.",
                                      name=entrant.name))
        self.entrants[player] = replace(entrant, dropped_after=self.round_number)
        self._log("drop", by, player=player)

    def replace_by_ai(self, player: str, *, by: str | None = None) -> None:
        """The player's seat goes on as an AI entrant: paired, scored and placed as before."""
        self._require_running()
        entrant = self.entrant(player)
        if not entrant.active:
            raise TournamentError(msg("{name} has already left the tournament.",
                                      name=entrant.name))
        if entrant.ai:
            raise TournamentError(msg("{name} is already played by the AI.", name=entrant.name))
        self.entrants[player] = replace(entrant, ai=True)
        self._log("ai", by, player=player)

    def pause(self, *, by: str | None = None) -> None:
        self._require_running()
        if self.paused:
            raise TournamentError(msg("The tournament is already paused."))
        self.paused = True
        self._log("pause", by)

    def resume(self, *, by: str | None = None) -> None:
        self._require_running()
        if not self.paused:
            raise TournamentError(msg("The tournament is not paused."))
        self.paused = False
        self._log("resume", by)

    def end(self, *, by: str | None = None) -> None:
        """End the tournament now: the standings are those of the tables finished."""
        if self.status == "over":
            raise TournamentError(msg("The tournament is over."))
        self.status, self.ended, self.paused = "over", True, False
        self._log("end", by)

    # ----- saving ------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """The whole state as plain JSON (`from_json` reads it back exactly)."""
        return {
            "version": VERSION,
            "config": self.config.to_json(),
            "entrants": [entrant.to_json() for entrant in self.entrants.values()],
            "status": self.status,
            "paused": self.paused,
            "ended": self.ended,
            "seeded": list(self.seeded),
            "planned_rounds": self.planned_rounds,
            "rounds": [round_.to_json() for round_ in self.rounds],
            "out": {p: [gone, place] for p, (gone, place) in self.out.items()},
            "log": [dict(line) for line in self.log],
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Tournament:
        if data.get("version") != VERSION:
            raise ValueError(f"a tournament saved in format {data.get('version')!r}, "
                             f"not {VERSION}")
        tournament = cls(TournamentConfig.from_json(data["config"]))
        tournament.entrants = {e.id: e for e in map(Entrant.from_json, data["entrants"])}
        status = data["status"]
        if status not in ("signup", "running", "over"):
            raise ValueError(f"unknown tournament status {status!r}")
        tournament.status = status
        tournament.paused = bool(data["paused"])
        tournament.ended = bool(data["ended"])
        tournament.seeded = tuple(str(p) for p in data["seeded"])
        tournament.planned_rounds = data.get("planned_rounds")
        tournament.rounds = [Round.from_json(r) for r in data["rounds"]]
        tournament.out = {str(p): (int(gone), None if place is None else int(place))
                          for p, (gone, place) in dict(data.get("out") or {}).items()}
        tournament.log = [dict(line) for line in data.get("log") or ()]
        return tournament

    # ----- inside ------------------------------------------------------------------------

    def _log(self, action: str, by: str | None = None, **details: Any) -> None:
        """A line of the log: the step, the round it was taken in, who took it (the `by`
        every step accepts: the bot's id of the organiser or player) and its details."""
        line: dict[str, Any] = {"action": action, "round": self.round_number}
        if by is not None:
            line["by"] = by
        self.log.append(line | details)

    def _require_signup(self) -> None:
        if self.status != "signup":
            raise TournamentError(msg("The tournament has already started."))

    def _require_running(self) -> None:
        if self.status == "signup":
            raise TournamentError(msg("The tournament has not started yet."))
        if self.status == "over":
            raise TournamentError(msg("The tournament is over."))

    def _table(self, number: int) -> tuple[Round, Table]:
        current = self.current_round
        found = None if current is None else next(
            (table for table in current.tables if table.number == number), None)
        if current is None or found is None:
            raise TournamentError(msg("There is no table {table} in this round.", table=number))
        return current, found

    def _put(self, current: Round, table: Table) -> None:
        tables = tuple(table if t.number == table.number else t for t in current.tables)
        self.rounds[-1] = replace(current, tables=tables)

    def _pair(self, out: dict[str, tuple[int, int | None]] | None = None) -> Round | None:
        """The next round by the format's rules (None: the tournament is complete); `out`
        collects an elimination's knocked-out players."""
        number = self.round_number + 1
        if self.config.format is Format.SWISS:
            if number > (self.planned_rounds or 0):
                return None
            return self._pair_swiss(number)
        if self.config.format is Format.ROUND_ROBIN:
            if number > (self.planned_rounds or 0):
                return None
            return self._pair_round_robin(number)
        if self.config.seats == 2:
            return self._pair_bracket(number, {} if out is None else out)
        return self._pair_elimination(number, {} if out is None else out)

    def _tables(self, number: int, groups: Iterable[Sequence[str]], byes: Iterable[Bye],
                bracket: Sequence[str | None] = ()) -> Round:
        tables = tuple(Table(index, tuple(group)) for index, group in enumerate(groups, 1))
        return Round(number, tables, tuple(byes), tuple(bracket))

    def _pair_swiss(self, number: int) -> Round:
        active = set(self.active_players())
        seats, least = self.config.seats, self.config.min_table
        bye_points = win_points(seats)
        if number == 1:
            field = [p for p in self.seeded if p in active]
            sizes, count = table_sizes(len(field), seats, least)
            seated, byes = field[:len(field) - count], field[len(field) - count:]
            return self._tables(number, slide(seated, sizes) if sizes else [],
                                (Bye(p, bye_points) for p in byes))
        score = self.scores()
        joined = list(self.entrants)
        field = sorted(active, key=lambda p: (-score[p], -self.entrants[p].rating,
                                              joined.index(p)))
        groups, byes = pair_round(field, meetings(self.rounds), byes_had(self.rounds),
                                  seats=seats, min_table=least)
        return self._tables(number, groups, (Bye(p, bye_points) for p in byes))

    def _pair_round_robin(self, number: int) -> Round:
        groups: list[tuple[str, str]] = []
        byes: list[Bye] = []
        for a, b in schedule(self.seeded)[number - 1]:
            here = [p for p in (a, b) if p is not None and self.entrants[p].active]
            if len(here) == 2:
                groups.append((here[0], here[1]))
            elif here:
                walkover = a is not None and b is not None
                byes.append(Bye(here[0], win_points(2) if walkover else 0.0, walkover))
        return self._tables(number, groups, byes)

    def _pair_bracket(self, number: int, out: dict[str, tuple[int, int | None]]) -> Round | None:
        previous = self.current_round
        if previous is None:
            bracket = first_bracket(self.seeded)
        else:
            if len(previous.bracket) <= 2:
                self._knock_out(previous, out, final=True)
                return None
            bracket = tuple(self._bracket_winner(previous, i, out)
                            for i in range(0, len(previous.bracket), 2))
        slots: list[str | None] = []
        for player in bracket:
            if player is not None and not self.entrants[player].active:
                out.setdefault(player, (number, None))
                player = None
            slots.append(player)
        groups: list[tuple[str, str]] = []
        byes: list[Bye] = []
        for a, b in zip(slots[::2], slots[1::2], strict=True):
            if a is not None and b is not None:
                groups.append((a, b))
            elif a is not None:
                byes.append(Bye(a, win_points(2), walkover=number > 1))
            elif b is not None:
                byes.append(Bye(b, win_points(2), walkover=number > 1))
        return self._tables(number, groups, byes, slots)

    def _bracket_winner(self, previous: Round, index: int,
                        out: dict[str, tuple[int, int | None]]) -> str | None:
        pair = [p for p in previous.bracket[index:index + 2] if p is not None]
        table = next((t for t in previous.tables if set(t.players) == set(pair)), None)
        if table is None or table.places is None:
            return pair[0] if pair else None
        winner = advancers(table.players, table.places, self.seeded, 1)[0]
        for player in table.players:
            if player != winner:
                out[player] = (previous.number, 2)
        return winner

    def _knock_out(self, previous: Round, out: dict[str, tuple[int, int | None]],
                   *, final: bool) -> list[str]:
        """Record who went out at `previous`'s tables (at the final: everyone, by place);
        return who goes on, in seed order."""
        going_on = [bye.player for bye in previous.byes]
        for table in previous.tables:
            if table.places is None:
                continue
            count = 0 if final else advancing_count(len(table.players), self.config.advance)
            if final and self.config.seats == 2:
                count = 1  # the champion of a bracket is never "out"
            ahead = advancers(table.players, table.places, self.seeded, count)
            going_on += ahead
            for index, player in enumerate(table.players):
                if player not in ahead:  # behind those who went on, even from a tie
                    out[player] = (previous.number, max(table.places[index], count + 1))
        return [p for p in self.seeded if p in going_on]

    def _pair_elimination(self, number: int,
                          out: dict[str, tuple[int, int | None]]) -> Round | None:
        previous = self.current_round
        if previous is None:
            field = list(self.seeded)
        else:
            final = len(previous.tables) == 1 and not previous.byes
            field = self._knock_out(previous, out, final=final)
            if final:
                return None
        for player in field:
            if not self.entrants[player].active:
                out.setdefault(player, (number, None))
        field = [p for p in field if self.entrants[p].active]
        if len(field) <= 1:
            return None
        seats = self.config.seats
        if len(field) <= seats:
            return self._tables(number, [field], ())
        sizes, count = table_sizes(len(field), seats, self.config.min_table)
        byes, seated = field[:count], field[count:]
        return self._tables(number, slide(seated, sizes),
                            (Bye(p, win_points(seats)) for p in byes))
