"""How a game ended: the final standing every game reports (`Game.result`) and views carry.

It stands on its own so that both the game's shape (engine/game.py) and its views
(engine/views.py) can name it without importing each other.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

__all__ = ["GameResult", "places_from_scores"]


@dataclass(frozen=True)
class GameResult:
    """The final standing, per seat in seat order. `chips` is the settlement of a chip game
    (each seat's net chips won or lost, summing to zero); empty for points games."""

    scores: tuple[int, ...]
    places: tuple[int, ...]
    winners: tuple[int, ...]
    summary: str = ""
    chips: tuple[int, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "scores": list(self.scores),
            "places": list(self.places),
            "winners": list(self.winners),
            "summary": self.summary,
            "chips": list(self.chips),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> GameResult:
        return cls(
            tuple(data["scores"]),
            tuple(data["places"]),
            tuple(data["winners"]),
            data.get("summary", ""),
            tuple(data.get("chips") or ()),
        )


def places_from_scores(scores: Sequence[int]) -> tuple[int, ...]:
    """Competition ranking (1, 2, 2, 4): equal scores share a place."""
    return tuple(1 + sum(other > score for other in scores) for score in scores)
