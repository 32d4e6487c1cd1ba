"""What a tournament is played as: its format, its tables' size, and its friendly error.

A tournament is played in one of three formats (docs/tournaments.md has their rules):

- **Swiss** (the default): a fixed number of rounds, each pairing players of like score;
  nobody is knocked out.
- **Single elimination**: a seeded bracket; losing a table ends your tournament.
- **Round robin**: everyone meets everyone once (at tables of two).

`seats` is the size of a full table (2 for heads-up, more for a game several play at once)
and `min_table` the smallest table the game may be played at: players are spread over as
few tables as hold them, sizes as even as possible (`table_sizes`), and whoever does not fit
has a bye.

>>> table_sizes(9, seats=2)
((2, 2, 2, 2), 1)
>>> table_sizes(9, seats=4)
((3, 3, 3), 0)
>>> table_sizes(7, seats=3, min_table=3)
((3, 3), 1)
>>> TournamentConfig(Format.ROUND_ROBIN, seats=4)
Traceback (most recent call last):
...
engine.tournaments.formats.TournamentError: A round robin is played at tables of two.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine.game import IllegalAction
from engine.i18n import msg

__all__ = ["Format", "TournamentConfig", "TournamentError", "table_sizes"]


class TournamentError(IllegalAction):
    """An organiser's or player's step the tournament refuses. The message is a friendly
    sentence (a `Msg`) to show as it is; a refused step has changed nothing."""


class Format(enum.StrEnum):
    """The three ways a tournament is played; the value is what the bot stores and offers."""

    SWISS = "swiss"
    ELIMINATION = "elimination"
    ROUND_ROBIN = "round_robin"


def table_sizes(players: int, seats: int, min_table: int = 2) -> tuple[tuple[int, ...], int]:
    """The sizes of a round's tables (largest first) and how many players have a bye.

    As few tables as hold everyone (`ceil(players / seats)`), fewer if that would make a
    table smaller than `min_table`; the seated players are spread so that sizes differ by
    at most one; those left over (never more than fit nowhere) have byes.
    """
    if players < min_table:
        return (), players
    tables = -(-players // seats)
    while tables * min_table > players:
        tables -= 1
    seated = min(players, tables * seats)
    base, extra = divmod(seated, tables)
    return (base + 1,) * extra + (base,) * (tables - extra), players - seated


@dataclass(frozen=True)
class TournamentConfig:
    """How a tournament is played, fixed when it is created.

    `rounds`: a Swiss tournament's rounds (default: enough to separate the field,
    `ceil(log2(players))` at the start); the other formats' rounds follow from the field.
    `advance`: in an elimination at tables of more than two, how many of each table go on
    (default: half the table, rounded down, at least one).
    """

    format: Format = Format.SWISS
    seats: int = 2
    min_table: int = 2
    rounds: int | None = None
    advance: int | None = None

    def __post_init__(self) -> None:
        if self.seats < 2:
            raise TournamentError(msg("A table needs at least two seats."))
        if not 2 <= self.min_table <= self.seats:
            raise TournamentError(msg(
                "The smallest table must have between two and {seats} players.",
                seats=self.seats))
        if self.format is Format.ROUND_ROBIN and self.seats != 2:
            raise TournamentError(msg("A round robin is played at tables of two."))
        if self.rounds is not None and self.rounds < 1:
            raise TournamentError(msg("A tournament needs at least one round."))
        if self.advance is not None and not 1 <= self.advance < self.seats:
            raise TournamentError(msg(
                "Between one and {most} players of a table can go on to the next round.",
                most=self.seats - 1))

    def to_json(self) -> dict[str, Any]:
        return {"format": self.format.value, "seats": self.seats, "min_table": self.min_table,
                "rounds": self.rounds, "advance": self.advance}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> TournamentConfig:
        return cls(Format(data["format"]), int(data["seats"]), int(data["min_table"]),
                   data.get("rounds"), data.get("advance"))
