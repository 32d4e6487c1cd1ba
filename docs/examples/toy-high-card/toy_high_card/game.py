"""Toy High Card: the smallest whole game, to show what a game from outside the repository
needs. Each seat is dealt one card; in seat order each keeps it or swaps it once for the top
card of the stock; then every card is shown and the highest rank wins (equal ranks share the
win). Everything comes from the seed, so a game replays exactly.

>>> import random
>>> game = ToyHighCard(["Ann", "Bob"], {}, random.Random(1))
>>> game.phase, sorted(game.to_act), [c.label for c in game.prompt(0).choices]
('choose', [0], ['Keep', 'Swap'])
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.cards import parse_card
from engine.game import (
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
from engine.games import register
from engine.i18n import msg
from engine.views import GameView, SeatView

__all__ = ["ToyHighCard", "ToySeatView", "ToyView"]

RANKS = "23456789TJQKA"
KEEP, SWAP = Action("keep"), Action("swap")


@dataclass(frozen=True, kw_only=True)
class ToyView(GameView):
    """The table: what each seat chose so far ("keep", "swap" or None) and, once the game
    is over, every seat's card (`shown`; None before)."""

    chosen: tuple[str | None, ...]
    shown: tuple[str | None, ...]


@dataclass(frozen=True, kw_only=True)
class ToySeatView(ToyView, SeatView):
    """A seat's view adds its own card (`hand`)."""


def label(card: str) -> str:
    """A card as players read it ("A♥")."""
    return parse_card(card).label


@register
class ToyHighCard(Game):
    """One game of Toy High Card; it takes no options."""

    kind = "toy_high_card"
    title = "Toy High Card"
    min_seats = 2
    max_seats = 4

    def __init__(self, seats: Sequence[str], options: Mapping[str, Any] | None = None,
                 rng: random.Random | None = None) -> None:
        self.seats = tuple(seats)
        self.rng = rng or random.Random()
        stock = [rank + suit for rank in RANKS for suit in "cdhs"]
        self.rng.shuffle(stock)
        self.hands: list[list[str]] = [[stock.pop()] for _ in self.seats]
        self.stock = stock
        self.chosen: list[str | None] = [None] * len(self.seats)
        self._opening = [Event(msg("Everyone has one card; {name} chooses first.",
                                   name=self.seats[0]))]

    @property
    def phase(self) -> str:
        return "over" if self.is_over else "choose"

    @property
    def to_act(self) -> frozenset[int]:
        waiting = [seat for seat, choice in enumerate(self.chosen) if choice is None]
        return frozenset(waiting[:1])

    @property
    def is_over(self) -> bool:
        return all(choice is not None for choice in self.chosen)

    def _ranks(self) -> list[int]:
        return [RANKS.index(hand[0][0]) + 2 for hand in self.hands]

    @property
    def result(self) -> GameResult | None:
        if not self.is_over:
            return None
        ranks = self._ranks()
        winners = tuple(seat for seat, rank in enumerate(ranks) if rank == max(ranks))
        names = ", ".join(self.seats[seat] for seat in winners)
        return GameResult(tuple(ranks), places_from_scores(ranks), winners,
                          summary=msg("Highest card: {names}.", names=names))

    def legal_actions(self, seat: int) -> list[Action]:
        return [KEEP, SWAP] if seat in self.to_act else []

    def prompt(self, seat: int) -> Prompt | None:
        if seat not in self.to_act:
            return None
        return Prompt(msg("Your card is {card}. Keep it, or swap it for the top card of the "
                          "stock?", card=label(self.hands[seat][0])),
                      (Choice(msg("Keep"), KEEP, "primary"), Choice(msg("Swap"), SWAP)))

    def _timeout_action(self, seat: int) -> Action:
        return KEEP  # a seat out of time keeps its card

    def _step(self, seat: int, action: Action) -> list[Event]:
        name = self.seats[seat]
        if action == KEEP:
            self.chosen[seat] = "keep"
            events = [Event(msg("{name} keeps their card.", name=name))]
        elif action == SWAP:
            self.chosen[seat] = "swap"
            self.hands[seat] = [self.stock.pop()]
            events = [Event(msg("{name} swaps their card.", name=name)),
                      Event(msg("You draw {card}.", card=label(self.hands[seat][0])),
                            seat=seat)]
        else:
            raise IllegalAction(msg("Keep your card or swap it."))
        if self.is_over:
            shown = ", ".join(f"{self.seats[s]} {label(hand[0])}"
                              for s, hand in enumerate(self.hands))
            events.append(Event(msg("The cards: {cards}.", cards=shown), kind="reveal",
                                data={"hands": [list(hand) for hand in self.hands]}))
        else:
            events.append(Event(msg("{name} chooses next.", name=self.seats[min(self.to_act)])))
        return events

    def _fields(self) -> dict[str, Any]:
        over = self.is_over
        return {**self._view_header(self._ranks() if over else [0] * len(self.seats), 1),
                "chosen": tuple(self.chosen),
                "shown": tuple(hand[0] if over else None for hand in self.hands)}

    def view(self, seat: int) -> ToySeatView:
        return ToySeatView(**self._fields(), seat=seat, hand=tuple(self.hands[seat]))

    def public_view(self) -> ToyView:
        return ToyView(**self._fields())

    def ai_action(self, seat: int, rng: random.Random) -> Action:
        """Keep an eight or better, swap anything lower."""
        return KEEP if self._ranks()[seat] >= 8 else SWAP

    def to_dict(self) -> dict[str, Any]:
        return {"seats": list(self.seats), "hands": self.hands, "stock": self.stock,
                "chosen": self.chosen, "rng": rng_to_json(self.rng)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> ToyHighCard:
        game = cls(data["seats"], {}, random.Random(0))  # its deal is replaced below
        game.rng = rng_from_json(data["rng"])
        game.hands = [list(hand) for hand in data["hands"]]
        game.stock = list(data["stock"])
        game.chosen = list(data["chosen"])
        game._opening = []
        return game
