"""One table: its lobby and the game it runs, with every check an interaction needs.

A table knows nothing of Discord either: it holds user ids and names, and turns requests
("join", "start", "play this") into state changes or a `TableError` whose message is shown to
the person who asked. The service does the I/O around it. What a table holds, and the one
JSON-safe dict it is saved as after every change (so a restart loses nothing), is its
`TableState` (`bot.core.table_state`); this module is what a table does with it.
"""

from __future__ import annotations

import copy
import hashlib
import json
import random
import secrets
from typing import Any

from bot.core.table_state import Seat as Seat  # importers know a table's seats from here
from bot.core.table_state import TableState
from engine.game import TIMEOUT, Action, Event, Game, IllegalAction, Prompt
from engine.games import GAMES
from engine.i18n import msg

# A cash table's, not a deal's; the tournament_ ones are a tournament's chip table's
# (bot.core.tournament_chips: its fixed deals, its stacks, its busted players).
CASH_OPTIONS = frozenset({"buy_in", "min_buy_in", "max_buy_in", "tournament_deals",
                          "tournament_stack", "tournament_out"})
DEFAULT_BUY_IN = 200
DEAL_RECORD = "deal"  # the action log's record of a cash table's deal (`Table.log_deal`)


class TableError(Exception):
    """A request the table refuses; the message is fit to show the person who made it (a
    `Msg`, so the presenter can say it in that person's language)."""


def error_text(error: BaseException) -> str:
    """An exception's message, the `Msg` it was raised with when it was one."""
    return error.args[0] if error.args and isinstance(error.args[0], str) else str(error)


def prompt_digest(prompt: Prompt | None) -> str:
    """A short fingerprint of a prompt, to notice that a seat's prompt changed (and so needs
    a new message). Never put in a button: a reworded prompt must not kill its buttons."""
    if prompt is None:
        return "-"
    text = repr(prompt).encode()
    return hashlib.blake2s(text, digest_size=4).hexdigest()


def new_table_id() -> str:
    return secrets.token_hex(4)


class Table(TableState):
    """A table's state (its fields and snapshot: `TableState`) with all it does: the
    lobby's checks, the deals, the turns, the clocks the game asks for, the prompt stamps."""

    def draft(self) -> Table:
        """A deep copy for a command to change: the service installs it only once its step
        is saved, so a command that fails (or a save the database refuses) leaves the table
        everyone else reads exactly as it was."""
        return copy.deepcopy(self)

    # --- lobby -------------------------------------------------------------------------
    @property
    def game_class(self) -> type[Game]:
        return GAMES[self.kind]

    @property
    def is_full(self) -> bool:
        return len(self.seats) >= self.game_class.max_seats

    def seat_of(self, user_id: int) -> int | None:
        for index, seat in enumerate(self.seats):
            if seat.user_id == user_id:
                return index
        return None

    def _require_lobby(self) -> None:
        if self.status != "lobby":
            raise TableError(msg("The game has already started."))

    def join(self, user_id: int, name: str) -> None:
        self._require_lobby()
        if self.seat_of(user_id) is not None:
            raise TableError(msg("You are already seated at this table."))
        if self.is_full:
            raise TableError(msg("The table is full ({n} seats).", n=self.game_class.max_seats))
        self.seats.append(Seat(name, user_id))

    def leave(self, user_id: int) -> None:
        self._require_lobby()
        index = self.seat_of(user_id)
        if index is None:
            raise TableError(msg("You are not seated at this table."))
        del self.seats[index]
        if user_id == self.host_id:
            humans = [seat for seat in self.seats if not seat.is_ai]
            if humans:
                assert humans[0].user_id is not None
                self.host_id = humans[0].user_id

    def add_ai(self, user_id: int) -> str:
        self._require_lobby()
        self._require_host(user_id, msg("add an AI seat"))
        if self.is_full:
            raise TableError(msg("The table is full ({n} seats).", n=self.game_class.max_seats))
        taken = {seat.name for seat in self.seats}
        number = 1
        while f"AI {number}" in taken:
            number += 1
        name = f"AI {number}"
        self.seats.append(Seat(name))
        return name

    def _require_host(self, user_id: int, what: str) -> None:
        if user_id != self.host_id:
            raise TableError(msg("Only the host can {what}.", what=what))

    @property
    def has_humans(self) -> bool:
        return any(not seat.is_ai for seat in self.seats)

    def start(self, user_id: int) -> list[Event]:
        self._require_lobby()
        self._require_host(user_id, msg("start the game"))
        cls = self.game_class
        if len(self.seats) < cls.min_seats:
            raise TableError(msg(
                "{title} needs at least {n} players ({seated} seated). Invite someone or add "
                "an AI seat.", title=cls.title, n=cls.min_seats, seated=len(self.seats)))
        self.seed = self.seed or random.SystemRandom().randrange(2**63)
        dealt = self.deal()  # refused options leave the lobby as it was
        self.status = "playing"
        opening = Event(msg("{title} begins: {names}.", title=cls.title,
                            names=", ".join(s.name for s in self.seats)))
        return [opening, *dealt]

    def deal(self) -> list[Event]:
        """Build the game: the whole game, or for a chip game the next deal, on the stacks
        at the table, its seed drawn from the table's so that each deal replays exactly."""
        cls = self.game_class
        if "ai_seats" in cls.table_options:  # kept in the options, so replays rebuild it;
            # at a cash table seats come and go, so each deal counts them afresh
            self.options["ai_seats"] = [i for i, seat in enumerate(self.seats) if seat.is_ai]
        options = dict(self.options)
        seed: int | str = self.seed
        if cls.chip_game:  # the table's own cash options stay with the table
            options = {k: v for k, v in options.items() if k not in CASH_OPTIONS}
            options |= {"stacks": list(self.stacks), "button": self.deals % len(self.seats)}
            seed = f"{self.seed}:{self.deals + 1}"
        try:
            self.game = cls([seat.name for seat in self.seats], options, random.Random(seed))
        except (TypeError, ValueError) as error:
            if cls.chip_game and self.deals:  # the options worked before: the stacks don't
                why = msg("The next deal can't start: {error}. Whoever is short can press "
                          "**Rebuy**, or leave.", error=error_text(error))
                raise TableError(why) from error
            raise TableError(msg("These options don't work: {error}", error=error_text(error))
                             ) from error
        if cls.chip_game:
            self.log_deal(seed, options)
            self.deals += 1
            self.deal_stacks = list(self.stacks)
        # A new deal: the last one's private news is stale (a Dealer's Choice dealer choosing
        # the next game read "You declared low." from the deal before, no hand event between).
        self.notes.clear()
        events = self.game.opening_events()
        self.record(events)
        return events

    def log_deal(self, seed: int | str, options: dict[str, Any]) -> None:
        """A cash table's deal goes into the action log as a step of its own (by the dealer's
        seat): each deal is a game of its own, on the seats and stacks of the moment, which
        the log alone would not tell, so replays (`bot.core.replays`) read them from here."""
        self.steps += 1
        header = {"deal": self.deals + 1, "seed": seed,
                  "names": [seat.name for seat in self.seats],
                  "options": json.loads(json.dumps(options))}
        self.unsaved_actions.append(
            (self.steps, self.deals % len(self.seats), Action(DEAL_RECORD, (header,))))

    # --- play ----------------------------------------------------------------------------
    def require_game(self) -> Game:
        if self.game is None:
            raise TableError(msg("The game has not started yet."))
        return self.game

    def check_turn(self, user_id: int, seat: int) -> Game:
        """Everything a click must pass before it may reach the engine."""
        game = self.require_game()
        if game.is_over:
            raise TableError(msg("This game is over."))
        if not 0 <= seat < len(self.seats) or self.seats[seat].user_id != user_id:
            raise TableError(msg("That is not your seat at this table."))
        if seat not in game.to_act and game.prompt(seat) is None:
            raise TableError(msg("Nothing is awaited from you right now."))
        return game

    def act(self, user_id: int, seat: int, action: Action) -> list[Event]:
        game = self.check_turn(user_id, seat)
        return self._apply(game, seat, action)

    def _apply(self, game: Game, seat: int, action: Action) -> list[Event]:
        try:
            events = game.apply(seat, action)
        except IllegalAction as error:
            raise TableError(error_text(error)) from error
        self.steps += 1
        self.unsaved_actions.append((self.steps, seat, action))
        self.record(events)
        return events

    def ai_step(self) -> list[Event] | None:
        """One AI move, if an AI seat is to act; None when no AI seat is awaited."""
        game = self.game
        if game is None or game.is_over:
            return None
        for seat in sorted(game.to_act):
            if self.seats[seat].is_ai:
                return self._ai_move(game, seat)
        return None

    def _ai_move(self, game: Game, seat: int) -> list[Event]:
        """The AI's own chance comes from the table's seed and step, so replays repeat it."""
        rng = random.Random(f"{self.seed}:{seat}:{self.steps}")
        return self._apply(game, seat, game.ai_action(seat, rng))

    def timeout(self, key: str) -> list[Event]:
        """The clock `key` ran out: every seat it names that is still awaited times out."""
        game = self.require_game()
        events: list[Event] = []
        spec = next((spec for spec in game.timers() if spec.key == key), None)
        self.deadlines.pop(key, None)
        if key in self.warned:
            self.warned.remove(key)
        if spec is None:
            return events
        for seat in spec.seats:
            if not game.is_over and seat in game.to_act:
                if self.seats[seat].is_ai:  # an AI seat never runs out of time: it acts
                    events += self._ai_move(game, seat)
                else:
                    events += self._apply(game, seat, TIMEOUT)
        return events

    def sync_deadlines(self, now: float) -> None:
        """Start the clocks the game asks for and drop those it no longer wants."""
        if self.game is None or self.game.is_over:
            self.deadlines.clear()
            self.warned.clear()
            return
        wanted = {spec.key: spec for spec in self.game.timers()}
        for key in list(self.deadlines):
            if key not in wanted:
                del self.deadlines[key]
                if key in self.warned:
                    self.warned.remove(key)
        self.fresh_clocks = {}
        for key, spec in wanted.items():
            if key not in self.deadlines:
                self.deadlines[key] = now + spec.seconds
                self.fresh_clocks[key] = spec.seats

    def clock_delivered(self, keys: list[str], at: float) -> bool:
        """A prompt that a clock is running for reached its player at `at`: that clock runs
        its whole length from then, so nobody loses time to a slow Discord. True if a deadline
        moved."""
        game = self.game
        if game is None or game.is_over:
            return False
        seconds = {spec.key: spec.seconds for spec in game.timers()}
        moved = False
        for key in keys:
            if key in self.deadlines and key in seconds and \
                    self.deadlines[key] < at + seconds[key]:
                self.deadlines[key] = at + seconds[key]
                moved = True
        return moved

    def record(self, events: list[Event]) -> None:
        """Keep each seat's private notes of the current hand (the channel keeps the rest)."""
        for event in events:
            if event.seat is None:
                continue
            if event.kind == "hand":  # a new hand: old notes are stale; the view shows it
                self.notes[event.seat] = []
            elif event.text:  # an event without words (only a picture's) is no news
                self.notes.setdefault(event.seat, []).append(event.text)
        for seat_notes in self.notes.values():
            del seat_notes[:-10]

    def stamp(self, seat: int) -> tuple[str, bool]:
        """The stamp of `seat`'s current prompt, and whether that prompt is new since it was
        last told. The stamp is the step the prompt first appeared at, so a button stays good
        exactly as long as its prompt, whatever the prompt's words (a deploy may reword them).
        """
        game = self.require_game()
        prompt = None if game.is_over else game.prompt(seat)
        digest = prompt_digest(prompt)
        changed = self.prompt_digests.get(seat) != digest
        if changed:
            self.prompt_digests[seat] = digest
            self.prompt_since[seat] = self.steps
        return (f"{self.prompt_since.get(seat, 0):x}" if prompt is not None else "-"), changed

    def current_stamp(self, seat: int) -> str | None:
        """The stamp `seat`'s buttons carry now, without marking anything as told (unlike
        `stamp`); None when its prompt changed and was not told yet, or there is no game."""
        game = self.game
        if game is None:
            return None
        prompt = None if game.is_over else game.prompt(seat)
        if prompt is None:
            return "-"
        if self.prompt_digests.get(seat) != prompt_digest(prompt):
            return None
        return f"{self.prompt_since.get(seat, 0):x}"

    def stamp_is_current(self, seat: int, stamp: str) -> bool:
        legacy = seat not in self.prompt_since and stamp == self.prompt_digests.get(seat)
        current, _ = self.stamp(seat)
        return stamp == current or (legacy and stamp != "-")

    def reword_prompts(self) -> None:
        """After a restore: take today's wording of every prompt as already told, without
        moving its stamp, so outstanding buttons keep working."""
        game = self.game
        if game is None:
            return
        for seat in range(len(self.seats)):
            prompt = None if game.is_over else game.prompt(seat)
            if seat in self.prompt_since or prompt is None:
                self.prompt_digests[seat] = prompt_digest(prompt)
