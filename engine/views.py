"""What a game shows: typed, frozen views that a presenter reads by attribute.

Every game answers `public_view()` with a `GameView` (what the channel may see) and
`view(seat)` with a `SeatView` (that plus the seat's own cards). The base classes hold what
every game has, so a generic presenter can show any game; each game subclasses them for the
rest. A seat view of a game is also a public view of that game (the per-game seat view
inherits from both), so a renderer written for the public view reads a seat's view too.

Views are snapshots: cards are given as their texts ("Ah", "Td"), lists as tuples, and the
records of what already happened (a previous deal, a reveal) as JSON mappings copied from
the game, so nothing a reader does to a view changes the game. `to_json()` gives plain JSON
for tests, replays and the sandbox.

>>> view = GameView(kind="demo", names=("Ann", "Bob"), scores=(3, 1), phase="play",
...                 to_act=(1,), deal=2)
>>> view.to_json()["scores"], view.score_of(0)
([3, 1], 3)
>>> mine = SeatView(kind="demo", names=("Ann", "Bob"), scores=(3, 1), phase="play",
...                 to_act=(1,), deal=2, seat=1, hand=("Ah", "Td"))
>>> mine.to_json()["hand"], mine.name
(['Ah', 'Td'], 'Bob')
"""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.cards import Card
from engine.result import GameResult

__all__ = [
    "GameView",
    "JSONRecord",
    "PlayedTrick",
    "SeatView",
    "TrickPlays",
    "card_texts",
    "json_record",
    "plays_from_json",
    "to_json",
]

JSONRecord = Mapping[str, Any]
"""A record of what happened (a deal's end, a reveal) in the JSON shape its event carries."""

TrickPlays = tuple[tuple[int, tuple[str, ...]], ...]
"""A trick as (seat, cards played) in the order played."""


def to_json(value: Any) -> Any:
    """Plain JSON of a view or anything inside one: dataclasses by field (or their own
    `to_json`), tuples as lists, mappings with string keys."""
    if value is None or isinstance(value, str | int | float):
        return value
    method = getattr(value, "to_json", None)
    if callable(method) and not isinstance(value, type):
        return method()
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: to_json(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, Mapping):
        return {str(key): to_json(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [to_json(item) for item in value]
    return value


def json_record(data: Mapping[str, Any] | None) -> JSONRecord | None:
    """A private copy of a history record, so a view never shares the game's own dict."""
    return None if data is None else copy.deepcopy(dict(data))


def card_texts(cards: Iterable[Card]) -> tuple[str, ...]:
    return tuple(str(card) for card in cards)


@dataclass(frozen=True, kw_only=True)
class GameView:
    """What everyone at the table may see, in every game.

    `scores` are the standings the game is won on (Poke: points above the line); `deal` is
    the number of the deal or hand in progress, from 1; `to_act` the seats awaited, sorted.
    """

    kind: str
    names: tuple[str, ...]
    scores: tuple[int, ...]
    phase: str
    to_act: tuple[int, ...]
    deal: int
    result: GameResult | None = None

    def to_json(self) -> dict[str, Any]:
        return {f.name: to_json(getattr(self, f.name)) for f in dataclasses.fields(self)}

    @property
    def is_over(self) -> bool:
        return self.phase == "over"

    def score_of(self, seat: int) -> int:
        return self.scores[seat]

    def score_pairs(self) -> list[tuple[str, int]]:
        """(name, score) in seat order, the shape every score line is written from."""
        return list(zip(self.names, self.scores, strict=True))


@dataclass(frozen=True, kw_only=True)
class SeatView(GameView):
    """What one seat may see: the public view plus its own cards (card texts, sorted as the
    game shows them)."""

    seat: int
    hand: tuple[str, ...] = ()

    @property
    def name(self) -> str:
        return self.names[self.seat]


@dataclass(frozen=True)
class PlayedTrick:
    """A finished trick: the plays, who took it, and how many tricks it counted for (a set
    led in Poke takes as many tricks as it has cards)."""

    plays: TrickPlays
    winner: int
    count: int = 1

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> PlayedTrick:
        return cls(
            plays_from_json(data["plays"]), int(data["winner"]), int(data.get("count", 1))
        )

    def to_json(self) -> dict[str, Any]:
        return {"plays": to_json(self.plays), "winner": self.winner, "count": self.count}


def plays_from_json(data: Iterable[Sequence[Any]]) -> TrickPlays:
    return tuple((int(seat), tuple(str(card) for card in cards)) for seat, cards in data)
