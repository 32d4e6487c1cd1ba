"""A tiny sealed-choice game for testing the table machinery without any real game's rules:
each round every seat secretly picks a number 1-3; the highest unique pick scores a point;
first to `target` points wins. A timeout picks nothing (no point)."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.game import (
    TIMEOUT,
    Action,
    Choice,
    Event,
    Game,
    GameResult,
    IllegalAction,
    Prompt,
    TimerSpec,
    places_from_scores,
    rng_from_json,
    rng_to_json,
)
from engine.views import GameView, SeatView


@dataclass(frozen=True, kw_only=True)
class GuessingView(GameView):
    picked: int = 0  # how many have picked this round


@dataclass(frozen=True, kw_only=True)
class GuessingSeatView(GuessingView, SeatView):
    pick: int | None = None


class Guessing(Game):
    kind = "guessing"
    title = "Guessing"
    min_seats = 2
    max_seats = 4

    def __init__(self, seats: Sequence[str], options: Mapping[str, Any] | None,
                 rng: random.Random) -> None:
        options = dict(options or {})
        self.seats = tuple(seats)
        self.rng = rng
        self.target = int(options.get("target", 2))
        if self.target < 1:
            raise ValueError("target must be at least 1")
        self.seconds = float(options.get("seconds", 60))
        self.scores = [0] * len(seats)
        self.picks: dict[int, int | None] = {}
        self.round = 1

    @property
    def phase(self) -> str:
        return "over" if self.is_over else "pick"

    @property
    def to_act(self) -> frozenset[int]:
        if self.is_over:
            return frozenset()
        return frozenset(s for s in range(len(self.seats)) if s not in self.picks)

    @property
    def is_over(self) -> bool:
        return max(self.scores) >= self.target

    @property
    def result(self) -> GameResult | None:
        if not self.is_over:
            return None
        top = max(self.scores)
        return GameResult(tuple(self.scores), places_from_scores(self.scores),
                          tuple(s for s, v in enumerate(self.scores) if v == top))

    def legal_actions(self, seat: int) -> list[Action]:
        return [Action("pick", (n,)) for n in (1, 2, 3)] if seat in self.to_act else []

    def prompt(self, seat: int) -> Prompt | None:
        if seat not in self.to_act:
            return None
        return Prompt(f"Round {self.round}: pick a number",
                      tuple(Choice(str(n), Action("pick", (n,))) for n in (1, 2, 3)))

    def timers(self) -> list[TimerSpec]:
        if self.is_over:
            return []
        return [TimerSpec(f"round-{self.round}", self.seconds, tuple(sorted(self.to_act)))]

    def _step(self, seat: int, action: Action) -> list[Event]:
        if action == TIMEOUT:
            self.picks[seat] = None
        elif action.name == "pick" and action.args in ((1,), (2,), (3,)):
            self.picks[seat] = int(action.args[0])
        else:
            raise IllegalAction("Pick 1, 2 or 3.")
        picked = self.picks[seat]
        said = f"You picked {picked}." if picked is not None else "Time ran out: no pick."
        events = [Event(said, seat=seat)]
        if len(self.picks) == len(self.seats):
            events += self._reveal()
        return events

    def _reveal(self) -> list[Event]:
        counts: dict[int, int] = {}
        for pick in self.picks.values():
            if pick is not None:
                counts[pick] = counts.get(pick, 0) + 1
        unique = [n for n, c in counts.items() if c == 1]
        text = ", ".join(f"{self.seats[s]} {p or '—'}" for s, p in sorted(self.picks.items()))
        winner = None
        if unique:
            best = max(unique)
            winner = next(s for s, p in self.picks.items() if p == best)
            self.scores[winner] += 1
        self.picks = {}
        self.round += 1
        outcome = f"{self.seats[winner]} scores." if winner is not None else "Nobody scores."
        return [Event(f"Reveal: {text}. {outcome}", kind="reveal")]

    def _fields(self) -> dict[str, Any]:
        return {"kind": self.kind, "names": self.seats, "scores": tuple(self.scores),
                "phase": self.phase, "to_act": tuple(sorted(self.to_act)), "deal": self.round,
                "result": self.result, "picked": len(self.picks)}

    def view(self, seat: int) -> GuessingSeatView:
        return GuessingSeatView(**self._fields(), seat=seat, pick=self.picks.get(seat))

    def public_view(self) -> GuessingView:
        return GuessingView(**self._fields())

    def ai_action(self, seat: int, rng: random.Random) -> Action:
        return Action("pick", (rng.randint(1, 3),))

    def to_dict(self) -> dict[str, Any]:
        return {"seats": list(self.seats), "target": self.target, "seconds": self.seconds,
                "scores": self.scores, "picks": {str(k): v for k, v in self.picks.items()},
                "round": self.round, "rng": rng_to_json(self.rng)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Guessing:
        game = cls(data["seats"], {"target": data["target"], "seconds": data["seconds"]},
                   rng_from_json(data["rng"]))
        game.scores = list(data["scores"])
        game.picks = {int(k): v for k, v in data["picks"].items()}
        game.round = int(data["round"])
        return game
