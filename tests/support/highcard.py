"""A tiny chip game for testing cash tables without any real game's rules: one deal, every
seat antes, each in turn shows its one card, the highest rank takes the pot (a tie splits it,
the odd chip to the first shown). A timeout shows the card anyway."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from engine.game import (
    TIMEOUT,
    Action,
    Choice,
    Event,
    Game,
    GameResult,
    IllegalAction,
    Prompt,
    places_from_scores,
    rng_from_json,
    rng_to_json,
)
from engine.views import GameView, SeatView

RANKS = "23456789TJQKA"


@dataclass(frozen=True, kw_only=True)
class HighCardView(GameView):
    pot: int = 0
    shown: tuple[str | None, ...] = ()


@dataclass(frozen=True, kw_only=True)
class HighCardSeatView(HighCardView, SeatView):
    pass


class HighCard(Game):
    kind = "highcard"
    title = "High card"
    min_seats = 2
    max_seats = 6
    chip_game: ClassVar[bool] = True

    def __init__(self, seats: Sequence[str], options: Mapping[str, Any] | None,
                 rng: random.Random) -> None:
        options = dict(options or {})
        self.seats = tuple(seats)
        self.rng = rng
        self.stacks = [int(x) for x in options["stacks"]]
        self.button = int(options.get("button", 0))
        self.ante = int(options.get("ante", 5))
        deck = [rank + suit for rank in RANKS for suit in "cdhs"]
        rng.shuffle(deck)
        self.cards = deck[: len(seats)]
        self.paid = [min(self.ante, stack) for stack in self.stacks]
        self.shown: list[str | None] = [None] * len(seats)
        self.turn = (self.button + 1) % len(seats)
        self.won: list[int] | None = None

    @property
    def phase(self) -> str:
        return "over" if self.is_over else "show"

    @property
    def to_act(self) -> frozenset[int]:
        return frozenset() if self.is_over else frozenset({self.turn})

    @property
    def is_over(self) -> bool:
        return self.won is not None

    @property
    def result(self) -> GameResult | None:
        if self.won is None:
            return None
        chips = tuple(won - paid for won, paid in zip(self.won, self.paid, strict=True))
        finals = [stack + delta for stack, delta in zip(self.stacks, chips, strict=True)]
        return GameResult(tuple(finals), places_from_scores(finals),
                          tuple(s for s, delta in enumerate(chips) if delta > 0), chips=chips)

    def legal_actions(self, seat: int) -> list[Action]:
        return [Action("show")] if seat in self.to_act else []

    def prompt(self, seat: int) -> Prompt | None:
        if seat not in self.to_act:
            return None
        return Prompt(f"Your card is {self.cards[seat]}; the pot holds {sum(self.paid)}.",
                      (Choice("Show", Action("show"), "primary"),))

    def _step(self, seat: int, action: Action) -> list[Event]:
        if action not in (TIMEOUT, Action("show")):
            raise IllegalAction("Show your card.")
        self.shown[seat] = self.cards[seat]
        events = [Event(f"{self.seats[seat]} shows {self.cards[seat]}.")]
        if all(card is not None for card in self.shown):
            events += self._award()
        else:
            self.turn = (self.turn + 1) % len(self.seats)
        return events

    def _award(self) -> list[Event]:
        best = max(RANKS.index(card[0]) for card in self.cards)
        winners = [s for s, card in enumerate(self.cards) if RANKS.index(card[0]) == best]
        pot = sum(self.paid)
        self.won = [0] * len(self.seats)
        for seat in winners:
            self.won[seat] = pot // len(winners)
        self.won[winners[0]] += pot % len(winners)
        names = ", ".join(self.seats[s] for s in winners)
        return [Event(f"{names} take{'s' if len(winners) == 1 else ''} the pot of {pot}.",
                      kind="reveal")]

    def _fields(self) -> dict[str, Any]:
        return {"kind": self.kind, "names": self.seats, "scores": tuple(self.stacks),
                "phase": self.phase, "to_act": tuple(sorted(self.to_act)), "deal": 1,
                "result": self.result, "pot": sum(self.paid), "shown": tuple(self.shown)}

    def view(self, seat: int) -> HighCardSeatView:
        return HighCardSeatView(**self._fields(), seat=seat, hand=(self.cards[seat],))

    def public_view(self) -> HighCardView:
        return HighCardView(**self._fields())

    def ai_action(self, seat: int, rng: random.Random) -> Action:
        return Action("show")

    def to_dict(self) -> dict[str, Any]:
        return {"seats": list(self.seats), "stacks": self.stacks, "button": self.button,
                "ante": self.ante, "cards": self.cards, "paid": self.paid, "shown": self.shown,
                "turn": self.turn, "won": self.won, "rng": rng_to_json(self.rng)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> HighCard:
        game = cls(data["seats"], {"stacks": data["stacks"], "button": data["button"],
                                   "ante": data["ante"]}, rng_from_json(data["rng"]))
        game.cards = list(data["cards"])
        game.paid = list(data["paid"])
        game.shown = list(data["shown"])
        game.turn = int(data["turn"])
        game.won = data["won"]
        return game
