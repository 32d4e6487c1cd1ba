"""The plain records a tournament is made of: its entrants, and each round's tables and byes.

Small frozen values with a JSON round trip, like the games' actions and results: the
tournament replaces a record rather than changing it, so a refused step cannot leave half a
change behind.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine.tournaments.scoring import table_points

__all__ = ["Bye", "Entrant", "Round", "Table"]


@dataclass(frozen=True)
class Entrant:
    """A player of the tournament. `id` is the bot's key for them (a member id, an AI
    seat's); `rating` a plain number (the shown skill rating), used for seeding and as the
    last tiebreak; `ai`: the seat is played by the AI (an AI entrant, or a player replaced
    by one); `dropped_after`: the last round they were paired in, once they have left."""

    id: str
    name: str
    rating: float = 0.0
    ai: bool = False
    dropped_after: int | None = None

    @property
    def active(self) -> bool:
        """Still paired in the rounds to come."""
        return self.dropped_after is None

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, "rating": self.rating, "ai": self.ai,
                "dropped_after": self.dropped_after}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Entrant:
        return cls(str(data["id"]), str(data["name"]), float(data["rating"]),
                   bool(data["ai"]), data.get("dropped_after"))


@dataclass(frozen=True)
class Table:
    """One game of a round: its players in seat order, and once it is over their places
    (1 best, shared places equal, forfeits already placed last) and who forfeited."""

    number: int
    players: tuple[str, ...]
    places: tuple[int, ...] | None = None
    forfeits: tuple[str, ...] = ()

    @property
    def finished(self) -> bool:
        return self.places is not None

    def points(self) -> dict[str, float]:
        """Each player's points from this table (empty while it is playing)."""
        if self.places is None:
            return {}
        gone = [player in self.forfeits for player in self.players]
        return dict(zip(self.players, table_points(self.places, gone), strict=True))

    def place_of(self, player: str) -> int | None:
        if self.places is None:
            return None
        return self.places[self.players.index(player)]

    def to_json(self) -> dict[str, Any]:
        return {"number": self.number, "players": list(self.players),
                "places": None if self.places is None else list(self.places),
                "forfeits": list(self.forfeits)}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Table:
        places = data.get("places")
        return cls(int(data["number"]), tuple(str(p) for p in data["players"]),
                   None if places is None else tuple(int(p) for p in places),
                   tuple(str(p) for p in data.get("forfeits") or ()))


@dataclass(frozen=True)
class Bye:
    """A player who sits a round out, and what it scores: a bye (the numbers did not fit,
    or an elimination's top seed) or a `walkover` (the opponent had left)."""

    player: str
    points: float
    walkover: bool = False

    def to_json(self) -> dict[str, Any]:
        return {"player": self.player, "points": self.points, "walkover": self.walkover}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Bye:
        return cls(str(data["player"]), float(data["points"]), bool(data.get("walkover")))


@dataclass(frozen=True)
class Round:
    """A round: its tables, its byes, and for a heads-up elimination the bracket's slots it
    was paired from (a player or an empty slot, in bracket order: slots 2i and 2i+1 meet)."""

    number: int
    tables: tuple[Table, ...]
    byes: tuple[Bye, ...] = ()
    bracket: tuple[str | None, ...] = ()

    @property
    def finished(self) -> bool:
        """Every table has its result."""
        return all(table.finished for table in self.tables)

    def table_of(self, player: str) -> Table | None:
        return next((table for table in self.tables if player in table.players), None)

    def to_json(self) -> dict[str, Any]:
        return {"number": self.number, "tables": [table.to_json() for table in self.tables],
                "byes": [bye.to_json() for bye in self.byes], "bracket": list(self.bracket)}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Round:
        return cls(int(data["number"]), tuple(Table.from_json(t) for t in data["tables"]),
                   tuple(Bye.from_json(b) for b in data.get("byes") or ()),
                   tuple(None if slot is None else str(slot)
                         for slot in data.get("bracket") or ()))
