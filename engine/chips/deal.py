"""What every fixed-limit chip deal shares: Badugi, Spew, Hold'em Sppoker and the
reveal-order games differ in their cards and their showdowns, not in how a bet is made,
told, timed out, shown on the board or settled at the end, so that lives here once.

A `ChipDeal` is ONE DEAL (the chip games' contract with the table service): it is built
from the stacks the table carries, and its `result.chips` are each seat's net, summing to
zero. Subclasses keep their own `__init__`, flow (`_advance`) and snapshot fields; they
call `_bet` for a betting action, `_close_deal` to end, and merge `_betting_fields` and
`_snapshot_fields` into their views and snapshots.
"""

from __future__ import annotations

import abc
import random
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from engine.chips.bet_prompts import bet_choices, bet_names, why_not
from engine.chips.betting import Betting
from engine.chips.pots import Pot
from engine.game import (
    Action,
    Event,
    Game,
    GameResult,
    IllegalAction,
    Prompt,
    places_from_scores,
    rng_from_json,
    rng_to_json,
)
from engine.i18n import Msg, msg
from engine.views import GameView, JSONRecord, json_record

__all__ = [
    "BET_ACTIONS",
    "CASH_TABLE_OPTIONS",
    "STAKES",
    "ChipDeal",
    "ChipDealView",
    "check_stakes",
]

STAKES = {"button": 0, "small_bet": 10, "big_bet": 20, "ante": 5}
"""The stakes every fixed-limit deal takes, with RULINGS.md's defaults."""

CASH_TABLE_OPTIONS = frozenset({"buy_in", "min_buy_in", "max_buy_in"})
"""Options a cash table keeps for itself and passes along with every deal's options."""

BET_ACTIONS = ("fold", "check", "call", "bet", "raise")


def whole(key: str, value: Any, *, positive: bool = False) -> int:
    """A whole number of chips or seconds; a bool is refused although Python counts it."""
    if not isinstance(value, int) or isinstance(value, bool) or value < (1 if positive else 0):
        above = " above 0" if positive else ""
        raise ValueError(f"{key} must be a whole number{above}, not {value!r}")
    return value


def check_stakes(
    title: str,
    options: Mapping[str, Any],
    seats: int,
    defaults: Mapping[str, int] = STAKES,
    also_known: Collection[str] = (),
    *,
    least_stack: int = 1,
) -> dict[str, Any]:
    """The checked `stacks` and whole-number `defaults` of a deal's options; `also_known`
    are the game's other options, which it checks itself. Every stack holds `least_stack`
    chips or more (Red Dog seats a player with none, who sits the game out); the bets are
    checked where `defaults` has them."""
    unknown = sorted(set(options) - {"stacks", *defaults, *also_known} - CASH_TABLE_OPTIONS)
    if unknown:
        raise ValueError(f"unknown {title} options: {', '.join(unknown)}")
    stacks = options.get("stacks")
    if not isinstance(stacks, list | tuple) or len(stacks) != seats:
        raise ValueError(f"stacks must list the chips each of the {seats} seats brings")
    if not all(isinstance(s, int) and not isinstance(s, bool) and s >= least_stack
               for s in stacks):
        raise ValueError("every seat needs a positive number of chips to be dealt in"
                         if least_stack > 0 else "stacks must be whole numbers of chips, 0 or more")
    values = {key: whole(key, options.get(key, default)) for key, default in defaults.items()}
    if not 0 <= values["button"] < seats:
        raise ValueError(f"button must be a seat number from 0 to {seats - 1}")
    if "small_bet" in values and not 0 < values["small_bet"] <= values["big_bet"]:
        raise ValueError("the small bet must be positive and no bigger than the big bet")
    return {"stacks": list(stacks), **values}


@dataclass(frozen=True, kw_only=True)
class ChipDealView(GameView):
    """The betting part of a chip deal's table. `scores` and `stacks` are the chips behind;
    `bets` this round's bets, `committed` all each seat put in this deal; `pot` every chip
    in the middle and `pots` the main and side pots collected so far; `to_call` and
    `raise_to` what the seat to act faces (None: it may not raise); `last_actions` each
    seat's last move; `showdown` the end's record once the deal is over."""

    button: int
    small_bet: int
    big_bet: int
    betting_round: int
    stacks: tuple[int, ...]
    bets: tuple[int, ...]
    committed: tuple[int, ...]
    folded: tuple[bool, ...]
    all_in: tuple[bool, ...]
    pot: int
    pots: tuple[Pot, ...]
    to_call: int
    raise_to: int | None
    last_actions: tuple[str, ...]
    showdown: JSONRecord | None = None


class ChipDeal(Game):
    """The betting half of a fixed-limit chip deal; see the module's docstring."""

    chip_game: ClassVar[bool] = True

    seats: tuple[str, ...]
    options: dict[str, Any]
    rng: random.Random
    betting: Betting
    last_actions: list[str]
    showdown: dict[str, Any] | None
    step: int
    _phase: str
    _result: GameResult | None

    # --- the shape every game has --------------------------------------------------------
    @property
    def n(self) -> int:
        return len(self.seats)

    @property
    def button(self) -> int:
        return self.betting.button

    @property
    def phase(self) -> str:
        return self._phase

    @property
    def is_over(self) -> bool:
        return self._phase == "over"

    @property
    def result(self) -> GameResult | None:
        return self._result

    def _check_seat_count(self, seats: int) -> None:
        if not self.min_seats <= seats <= self.max_seats:
            raise ValueError(
                f"{self.title} is played by {self.min_seats} to {self.max_seats} players"
            )

    # --- the hooks ---------------------------------------------------------------------
    @abc.abstractmethod
    def _advance(self) -> list[Event]:
        """Move the deal on after an action until someone has a decision."""

    def _stacks_behind(self) -> list[int]:
        """The chips each seat has behind, as the board shows them."""
        return list(self.betting.stacks)

    @property
    def pot(self) -> int:
        """Every chip in the middle."""
        return self.betting.pot_total

    def _muck(self, seat: int) -> None:
        """A seat folded: what happens to its cards."""

    # --- betting -----------------------------------------------------------------------
    def _chips(self) -> dict[str, Any]:
        b = self.betting
        return {
            "stacks": self._stacks_behind(),
            "bets": list(b.bets),
            "pot": self.pot,
            "pots": [pot.to_json() for pot in b.pots()],
        }

    def _bet(self, seat: int, name: str) -> list[Event]:
        """Fold, check, call, bet or raise for `seat`, told as the table hears it."""
        b = self.betting
        options = b.options(seat)
        assert options is not None
        if name not in bet_names(options):
            raise IllegalAction(why_not(name, options, b))
        who = self.seats[seat]
        text: str
        if name == "fold":
            b.fold(seat)
            self._muck(seat)
            text, last = msg("{name} folds.", name=who), "fold"
        elif name in ("check", "call"):
            amount = b.check_or_call(seat)
            if amount == 0:
                text, last = msg("{name} checks.", name=who), "check"
            else:
                last = f"call {amount}"
                text = msg("{name} calls {n} and is all-in.", name=who, n=amount) \
                    if self._all_in(seat) else msg("{name} calls {n}.", name=who, n=amount)
        else:
            to = b.bet_or_raise(seat)
            last = f"{'bet' if options.is_bet else 'raise to'} {to}"
            if options.is_bet:
                text = msg("{name} bets {n} and is all-in.", name=who, n=to) \
                    if self._all_in(seat) else msg("{name} bets {n}.", name=who, n=to)
            else:
                text = msg("{name} raises to {n} and is all-in.", name=who, n=to) \
                    if self._all_in(seat) else msg("{name} raises to {n}.", name=who, n=to)
        self.last_actions[seat] = last
        text = Msg.joined(" ", [text, msg("Pot {n}.", n=self.pot)])
        data = {"seat": seat, "action": name, "last": last, **self._chips()}
        return [Event(text, None, "bet", data), *self._advance()]

    def _betting_action(self, seat: int, action: Action) -> list[Event]:
        if action.name not in BET_ACTIONS:
            raise IllegalAction(msg("It is your turn to bet: fold, check, call, bet or raise."))
        name = action.name
        options = self.betting.options(seat)
        if name == "bet" and options is not None and options.facing == 0 \
                and not options.is_bet:
            # The big blind's option was offered as "bet" before it was named a raise: a
            # logged action (a replay) or a button sent before then still means the raise.
            name = "raise"
        return self._bet(seat, name)

    def _end_betting_round(self) -> list[Event]:
        """Close the round; chips nobody called go back to their owner, told to the table."""
        returned = self.betting.end_round()
        return [
            Event(msg("{name}'s uncalled {n} goes back to them.", name=self.seats[seat],
                      n=amount), None,
                  "uncalled", {"seat": seat, "amount": amount, **self._chips()})
            for seat, amount in returned
        ]

    def _all_in(self, seat: int) -> bool:
        return self.betting.stacks[seat] == 0

    def _bet_timeout(self, seat: int) -> Action:
        """RULINGS.md: on timeout a player checks if they can, else folds."""
        options = self.betting.options(seat)
        assert options is not None
        return Action("check" if options.call == 0 else "fold")

    def _bet_prompt(self, seat: int) -> Prompt:
        """The pot and the call: no hand, which the seat's view just above the prompt shows
        (with it the DM said the hand twice, as Red Dog's did)."""
        options = self.betting.options(seat)
        assert options is not None
        to_call = msg("To call: {n}.", n=options.call) if options.call \
            else msg("Nothing to call.")
        text = Msg.joined(" ", [msg("Pot {n}.", n=self.pot), to_call])
        stack, bet = self.betting.stacks[seat], self.betting.bets[seat]
        return Prompt(text, tuple(bet_choices(options, stack, bet)))

    # --- the end -----------------------------------------------------------------------
    def _close_deal(self) -> Event:
        """The deal is over: each seat's net chips become the result."""
        self._phase = "over"
        stacks = tuple(self._stacks_behind())
        chips = tuple(self.betting.net())
        top = max(chips)
        winners = tuple(s for s, won in enumerate(chips) if won == top and won > 0)
        moves = ", ".join(
            f"{self.seats[s]} {'+' if c > 0 else ''}{c}" for s, c in enumerate(chips) if c
        )
        summary = msg("Deal over: {moves}.", moves=moves) if moves \
            else msg("Deal over: no chips moved.")
        self._result = GameResult(stacks, places_from_scores(stacks), winners, summary, chips)
        return Event(summary, None, "game_over", {"chips": list(chips), "stacks": list(stacks)})

    # --- views and snapshots -------------------------------------------------------------
    def _betting_fields(self) -> dict[str, Any]:
        """The `ChipDealView` fields (and GameView's); a subclass adds its own."""
        b = self.betting
        actor = b.actor if self._phase == "bet" else None
        options = b.options(actor) if actor is not None else None
        stacks = tuple(self._stacks_behind())
        return {
            **self._view_header(stacks, 1),
            "button": b.button,
            "small_bet": b.structure.small_bet,
            "big_bet": b.structure.big_bet,
            "betting_round": b.round_no,
            "stacks": stacks,
            "bets": tuple(b.bets),
            "committed": tuple(b.committed),
            "folded": tuple(b.folded),
            "all_in": tuple(not b.folded[s] and b.stacks[s] == 0 and not b.settled
                            for s in range(self.n)),
            "pot": self.pot,
            "pots": tuple(b.pots()),
            "to_call": options.call if options else 0,
            "raise_to": options.raise_to if options else None,
            "last_actions": tuple(self.last_actions),
            "showdown": json_record(self.showdown),
        }

    def _snapshot_fields(self) -> dict[str, Any]:
        """The snapshot keys every chip deal has; a subclass adds its cards and stages."""
        return {
            "kind": self.kind,
            "seats": list(self.seats),
            "options": dict(self.options),
            "rng": rng_to_json(self.rng),
            "betting": self.betting.to_json(),
            "last_actions": list(self.last_actions),
            "phase": self._phase,
            "step": self.step,
            "showdown": self.showdown,
            "result": self._result.to_json() if self._result else None,
        }

    def _restore_fields(self, data: Mapping[str, Any]) -> None:
        """Set what `_snapshot_fields` saved (except the seats and options, which a
        subclass needs earlier to check its settings)."""
        self.rng = rng_from_json(data["rng"])
        self.betting = Betting.from_json(data["betting"])
        self.last_actions = list(data["last_actions"])
        self._phase = data["phase"]
        self.step = int(data["step"])
        self.showdown = data["showdown"]
        self._result = GameResult.from_json(data["result"]) if data["result"] else None
