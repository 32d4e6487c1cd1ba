"""What Poke shows: the table's view with its scoresheet's columns, and a seat's own."""

from __future__ import annotations

from dataclasses import dataclass

from engine.tricks.deal import (
    TrickSeatView,
    TrickView,
)
from engine.views import JSONRecord

__all__ = ["PokeSeatView", "PokeView", "ScoreColumn"]


@dataclass(frozen=True)
class ScoreColumn:
    """A scoresheet column: WE is the viewer's own (seat 0's on the board), THEY the other."""

    label: str
    seat: int
    name: str


@dataclass(frozen=True, kw_only=True)
class PokeView(TrickView):
    """Poke's table. `scores` are the points above the line (they decide the rubber);
    `below` the trick points of the game in progress; `trick_values` what a trick is worth
    to each seat (doubled and redoubled by the other's draws); `scoresheet` the sheet's JSON
    (`Scoresheet.from_json` renders it)."""

    draws: tuple[int, ...]
    trick_values: tuple[int, ...]
    columns: tuple[ScoreColumn, ...]
    above: tuple[int, ...]
    below: tuple[int, ...]
    games_won: tuple[int, ...]
    scoresheet: JSONRecord


@dataclass(frozen=True, kw_only=True)
class PokeSeatView(PokeView, TrickSeatView):
    """A Poke seat's view: its hand and throws, and the sheet with its own column as WE."""
