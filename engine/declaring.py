"""Sealed declarations: one mechanism for every game that has them (Sppoker, Hold'em
Sppoker, Spew, Old Man 49er, Zero to 55). Every seat in the declaration declares at once,
in private, against one clock for the whole table and a shorter one for the last person;
a seat whose clock runs out has declared nothing (`TIMED_OUT`).

It stands beside the games, not in one of them, because four games of two families build on
it: a chip game importing a word game's rules for it would import every game.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import Any

from engine.game import Event, IllegalAction, TimerSpec
from engine.i18n import msg

__all__ = [
    "DECLARE_SECONDS",
    "LAST_SECONDS",
    "TIMED_OUT",
    "SealedDeclarations",
    "TableDeclarations",
    "declaring_options",
]

TIMED_OUT = "timeout"
"""The declaration of a seat whose clock ran out before it declared."""
DECLARE_SECONDS = 120.0
LAST_SECONDS = 10.0


def declaring_options(options: Mapping[str, Any], seats: int) -> dict[str, Any]:
    """The declaring clocks and AI seats of a chip game's options, checked: `declare_seconds`
    (the whole table's, 120), `last_seconds` (the last person's, 10) and `ai_seats` (filled
    in by the table; numbers out of range, kept from an earlier seating, are left out)."""
    clocks: dict[str, Any] = {}
    for key, default in (("declare_seconds", DECLARE_SECONDS), ("last_seconds", LAST_SECONDS)):
        value = options.get(key, default)
        if not isinstance(value, int | float) or isinstance(value, bool) or value <= 0:
            raise ValueError(f"{key} must be a positive number of seconds")
        clocks[key] = float(value)
    ai_seats = options.get("ai_seats", [])
    if not isinstance(ai_seats, list | tuple):
        raise ValueError("ai_seats lists seat numbers")
    ai = sorted({s for s in ai_seats if isinstance(s, int) and 0 <= s < seats})
    return {**clocks, "ai_seats": ai}


class SealedDeclarations:
    """The sealed declarations of every game that has them (Sppoker, Hold'em Sppoker, Spew,
    Old Man 49er, Zero to 55), with Sppoker's clocks, once (RULINGS.md):

    - the whole table has `declare_seconds`; when every seat still in but one has declared
      (AI seats count as declared: they declare after the people), that person has
      `last_seconds`, and is told so privately at once. It needs two people in the
      declaration: a lone person among AI seats keeps the whole clock, nobody waits on them;
    - a seat whose clock runs out before it declared has declared nothing (`TIMED_OUT`): it
      loses the hand (no points, no part of any pot; its chips stay in the pots). A word
      game's seat whose spelling declaration stands with an invalid word is revealed with it
      instead (`WordDeclarations`).

    A game keeps its declarations in `declarations` (None: not yet), says who declares
    (`_declarers`, in order), when a seat has completed its declaration (`_is_done`), which
    seats are AI (`_ai_declarers`), its clocks (`_declare_clocks`) and their keys
    (`_declare_timer_keys`); it calls `_declaring_timers`, `_last_call_events` after every
    declaring action, and `_declaration_timeout` when a seat's clock runs out."""

    seats: tuple[str, ...]
    declarations: list[str | None]
    _phase: str

    # --- what a game tells the mechanism ------------------------------------------------
    def _declarers(self) -> Sequence[int]:
        """The seats in the declaration, in order."""
        raise NotImplementedError

    def _is_done(self, seat: int) -> bool:
        """Whether the seat has completed its declaration (or its clock ran out)."""
        return self.declarations[seat] is not None

    def _ai_declarers(self) -> Collection[int]:
        raise NotImplementedError

    def _declare_clocks(self) -> tuple[float, float]:
        """(the whole table's seconds, the last person's)."""
        raise NotImplementedError

    def _declare_timer_keys(self) -> tuple[str, str]:
        """The whole table's clock's key, and the prefix of the last person's (their seat
        follows it)."""
        raise NotImplementedError

    def _standing_word(self, seat: int) -> str | None:
        """A word game's word standing in an incomplete spelling declaration (see
        `WordDeclarations`); None: nothing stands, a timeout loses the hand."""
        return None

    def _reveal_as_it_stands(self, seat: int) -> None:
        raise NotImplementedError  # pragma: no cover - only word games have a word standing

    # --- the mechanism -------------------------------------------------------------------
    def _awaited_declarers(self) -> list[int]:
        return [s for s in self._declarers() if not self._is_done(s)]

    def _declared_nothing(self, seat: int) -> bool:
        """The seat's clock ran out before it declared: it loses the hand."""
        return self.declarations[seat] == TIMED_OUT

    def _last_person(self) -> int | None:
        """The seat the last person's clock runs for, if any: the one person still awaited
        when every other seat in the declaration has declared."""
        if self._phase != "declare":
            return None
        ai = set(self._ai_declarers())
        people = [s for s in self._declarers() if s not in ai]
        waiting = [s for s in people if not self._is_done(s)]
        return waiting[0] if len(people) >= 2 and len(waiting) == 1 else None

    def _declaring_timers(self) -> list[TimerSpec]:
        """The whole table's clock for every seat awaited, and the last person's."""
        whole, last_seconds = self._declare_clocks()
        table_key, last_key = self._declare_timer_keys()
        specs = [TimerSpec(table_key, whole, tuple(sorted(self._awaited_declarers())))]
        last = self._last_person()
        if last is not None:
            specs.append(TimerSpec(f"{last_key}{last}", last_seconds, (last,)))
        return specs

    def _last_call(self, seat: int) -> Event:
        """The private notice that a person's last seconds have started (RULINGS: told at
        once, not only in the channel), addressed to the seat so it goes by DM."""
        seconds = f"{self._declare_clocks()[1]:g}"
        word = self._standing_word(seat)
        if word is not None:
            text = msg("Everyone else has declared: send a valid word or declare poker within "
                       "{seconds} seconds, or your hand is revealed with {word}, which loses "
                       "the spelling hand.", seconds=seconds, word=word)
        else:
            text = msg("Everyone else has declared: declare within {seconds} seconds, or you "
                       "lose this hand.", seconds=seconds)
        return Event(text, seat=seat, kind="last_call",
                     data={"seconds": self._declare_clocks()[1]})

    def _last_call_events(self, before: int | None) -> list[Event]:
        """After a declaring action: the last person's notice, when their clock has just
        started (`before` is who it ran for before the action)."""
        last = self._last_person()
        return [self._last_call(last)] if last is not None and last != before else []

    def _declaration_timeout(self, seat: int) -> list[Event]:
        """The seat's clock ran out: it has declared nothing and loses the hand (or, with a
        word standing, its hand is revealed with it). The channel learns only that."""
        if seat not in self._awaited_declarers():
            raise IllegalAction(msg("that seat is not awaited"))
        name = self.seats[seat]
        if self._standing_word(seat) is not None:
            self._reveal_as_it_stands(seat)
            text = msg("{name} ran out of time; their hand is revealed as it stands.",
                       name=name)
            return [Event(text, kind="timeout", data={"seat": seat, "revealed": True})]
        self.declarations[seat] = TIMED_OUT
        text = msg("{name} ran out of time and loses the hand.", name=name)
        return [Event(text, kind="timeout", data={"seat": seat})]


class TableDeclarations(SealedDeclarations):
    """The sealed declarations of a game whose declaring clocks and AI seats are the table's
    options, checked by `declaring_options` into `settings` (Hold'em Sppoker, Spew and the
    reveal-order games): those hooks answered once."""

    settings: dict[str, Any]

    def _ai_declarers(self) -> Collection[int]:
        return list(self.settings["ai_seats"])

    def _declare_clocks(self) -> tuple[float, float]:
        return self.settings["declare_seconds"], self.settings["last_seconds"]
