"""Dealer's Choice: a chip session where each dealer picks the game of their deal.

One deal per game, like every chip game (the cash table carries the stacks and rotates the
button): the dealer first chooses among the chip games that suit the number of seated players,
then the deal is that game's, played through it unchanged. A Red Dog deal in a session lasts
at most five rounds (RULINGS). The choice is an action like any other, so a session replays
from its log, and an AI dealer (or a dealer whose clock runs out) picks at random from the
game's own generator.

>>> from engine.games import GAMES
>>> session = GAMES["dealers_choice"](["Ann", "Bo"], {"stacks": [50, 50]}, random.Random(1))
>>> session.to_act, [c.label for c in session.prompt(0).choices][0]
(frozenset({0}), 'Badugi')
>>> events = session.apply(0, Action("choose", ("red_dog",)))
>>> session.view(1).kind, session.is_over
('red_dog', False)
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
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
    TimerSpec,
    rng_from_json,
    rng_to_json,
)
from engine.games.registry import GAMES, register
from engine.i18n import msg
from engine.views import GameView, SeatView

CHOOSE_SECONDS = 60.0
# What a game is told when dealt in a session, beyond the table's stacks and button.
SESSION_OPTIONS: dict[str, dict[str, Any]] = {"red_dog": {"max_rounds": 5}}


def menu_for(players: int) -> list[str]:
    """The chip games a dealer may choose for this many players, by title."""
    games = [cls for kind, cls in GAMES.items()
             if cls.chip_game and kind != DealersChoice.kind
             and cls.min_seats <= players <= cls.max_seats]
    return [cls.kind for cls in sorted(games, key=lambda cls: cls.title)]


@register
class DealersChoice(Game):
    kind = "dealers_choice"
    title = "Dealer's Choice"
    min_seats = 2
    max_seats = 10
    chip_game: ClassVar[bool] = True
    table_options: ClassVar[frozenset[str]] = frozenset({"ai_seats"})

    def __init__(self, seats: Sequence[str], options: Mapping[str, Any] | None,
                 rng: random.Random) -> None:
        options = dict(options or {})
        unknown = sorted(set(options) - {"stacks", "button", "ai_seats"})
        if unknown:
            raise ValueError(f"unknown Dealer's Choice options: {', '.join(unknown)}")
        self.seats = tuple(seats)
        self.rng = rng
        self.stacks = [int(stack) for stack in options["stacks"]]
        if len(self.stacks) != len(self.seats):
            raise ValueError("stacks must list the chips of every seat")
        self.button = int(options.get("button", 0)) % len(self.seats)
        self.ai_seats = [int(seat) for seat in options.get("ai_seats") or []]
        self.menu = menu_for(len(self.seats))
        if not self.menu:
            raise ValueError(f"no chip game is played by {len(self.seats)} players")
        self.inner: Game | None = None
        self._opening = [Event(msg("{name} deals and chooses the game.",
                                   name=self.seats[self.button]))]

    @classmethod
    def goal(cls, options: Mapping[str, Any], players: int) -> str:
        return msg("the most chips; each dealer picks the game of their deal")

    # --- the state, the choice's or the chosen game's -------------------------------------
    @property
    def phase(self) -> str:
        return self.inner.phase if self.inner is not None else "choose"

    @property
    def to_act(self) -> frozenset[int]:
        return self.inner.to_act if self.inner is not None else frozenset({self.button})

    @property
    def is_over(self) -> bool:
        return self.inner is not None and self.inner.is_over

    @property
    def result(self) -> GameResult | None:
        return self.inner.result if self.inner is not None else None

    def legal_actions(self, seat: int) -> list[Action]:
        if self.inner is not None:
            return self.inner.legal_actions(seat)
        return [Action("choose", (kind,)) for kind in self.menu] if seat == self.button else []

    def prompt(self, seat: int) -> Prompt | None:
        if self.inner is not None:
            return self.inner.prompt(seat)
        if seat != self.button:
            return None
        return Prompt(msg("You deal: choose the game of this deal."),
                      tuple(Choice(GAMES[kind].title, Action("choose", (kind,)), "primary")
                            for kind in self.menu))

    def timers(self) -> list[TimerSpec]:
        if self.inner is not None:
            return self.inner.timers()
        return [TimerSpec("choose", CHOOSE_SECONDS, (self.button,))]

    def _check_turn(self, seat: int, action: Action) -> None:
        """Before the choice only the dealer acts; after it, the deal's game checks."""
        if self.inner is None and seat != self.button:
            raise IllegalAction(msg("{name} deals and chooses the game.",
                                    name=self.seats[self.button]))

    def _timeout_action(self, seat: int) -> Action:
        """The dealer's clock picks a game at random; in the deal, its game decides."""
        if self.inner is not None:
            return TIMEOUT
        return Action("choose", (self.rng.choice(self.menu),))

    def _step(self, seat: int, action: Action) -> list[Event]:
        if self.inner is not None:
            return self.inner.apply(seat, action)
        if action.name != "choose" or len(action.args) != 1 or action.args[0] not in self.menu:
            raise IllegalAction(msg("Choose one of the games offered."))
        kind = str(action.args[0])
        options: dict[str, Any] = {"stacks": list(self.stacks), "button": self.button,
                                   **SESSION_OPTIONS.get(kind, {})}
        if "ai_seats" in GAMES[kind].table_options:  # its rules treat AI seats differently
            options["ai_seats"] = list(self.ai_seats)
        self.inner = GAMES[kind](list(self.seats), options, self.rng)
        chosen = Event(msg("{name} chooses {game}.", name=self.seats[seat],
                           game=GAMES[kind].title), kind="choice")
        return [chosen, *self.inner.opening_events()]

    def action_is_public(self, seat: int, action: Action) -> bool:
        """The choice of game is announced; the deal's actions are the chosen game's."""
        return self.inner.action_is_public(seat, action) if self.inner is not None else True

    def ai_action(self, seat: int, rng: random.Random) -> Action:
        if self.inner is not None:
            return self.inner.ai_action(seat, rng)
        return Action("choose", (rng.choice(self.menu),))

    @property
    def playing(self) -> str:
        return self.inner.kind if self.inner is not None else self.kind

    @property
    def hands(self) -> list[Any]:
        """The chosen game's hidden hands (none before the choice), for the hidden-information
        checks every game passes."""
        return list(getattr(self.inner, "hands", [])) or [[] for _ in self.seats]

    # --- what is seen ---------------------------------------------------------------------
    def _waiting(self) -> dict[str, Any]:
        return {"kind": self.kind, "names": self.seats, "scores": tuple(self.stacks),
                "phase": "choose", "to_act": (self.button,), "deal": 1}

    def view(self, seat: int) -> SeatView:
        if self.inner is not None:
            return self.inner.view(seat)
        return SeatView(**self._waiting(), seat=seat)

    def public_view(self) -> GameView:
        if self.inner is not None:
            return self.inner.public_view()
        return GameView(**self._waiting())

    # --- snapshots ------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        return {
            "seats": list(self.seats), "stacks": self.stacks, "button": self.button,
            "ai_seats": self.ai_seats,
            "chosen": self.inner.kind if self.inner is not None else None,
            "inner": self.inner.to_dict() if self.inner is not None else None,
            "rng": rng_to_json(self.rng),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> DealersChoice:
        rng = rng_from_json(data["rng"])
        session = cls(data["seats"], {"stacks": data["stacks"], "button": data["button"],
                                      "ai_seats": data.get("ai_seats") or []}, rng)
        session._opening = []
        if data.get("chosen"):
            session.inner = GAMES[str(data["chosen"])].from_dict(data["inner"])
            session.rng = session.inner.rng  # one generator, as when the deal was chosen
        return session
