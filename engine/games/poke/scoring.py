"""Poke's score: honours for the better hand, trick points and the bonuses of a rubber, kept on a
bridge-style scoresheet (`Scoresheet`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.evaluator import Category, HandValue

__all__ = [
    "ALL_TRICKS_BONUS",
    "GAME_BONUS",
    "GAME_POINTS",
    "HONOURS",
    "ROYAL_HONOURS",
    "RUBBER_BONUS_CLEAN",
    "RUBBER_BONUS_CLOSE",
    "SHEET_WORDS",
    "Scoresheet",
    "honours_for",
]


HONOURS: dict[Category, int] = {
    Category.STRAIGHT_FLUSH: 750,
    Category.FOUR_OF_A_KIND: 600,
    Category.FULL_HOUSE: 500,
    Category.FLUSH: 400,
    Category.STRAIGHT: 300,
    Category.THREE_OF_A_KIND: 200,
    Category.TWO_PAIR: 100,
    Category.PAIR: 50,
}


ROYAL_HONOURS = 1000


ALL_TRICKS_BONUS = 250


GAME_POINTS = 20


GAME_BONUS = 100


RUBBER_BONUS_CLOSE = 500  # the opponent won a game


RUBBER_BONUS_CLEAN = 750  # two games to none


def honours_for(value: HandValue) -> int:
    """The honour score a hand earns if it is the strictly better one (0 below a pair)."""
    if value.is_royal:
        return ROYAL_HONOURS
    return HONOURS.get(value.category, 0)


def _entry(points: int, why: str) -> dict[str, Any]:
    return {"points": points, "why": why}


SHEET_WORDS = {"we": "WE", "they": "THEY", "above": "above", "game": "game {n}",
               "won by": "won by {side}"}
"""The scoresheet's words; a reader in another language passes its own to `render`."""


@dataclass
class Scoresheet:
    """A bridge-style sheet: one column per seat, honours and bonuses above the line, trick
    points below it, a fresh below-the-line section for every game of the rubber."""

    above: list[list[dict[str, Any]]] = field(default_factory=lambda: [[], []])
    games: list[dict[str, Any]] = field(
        default_factory=lambda: [{"below": [[], []], "winner": None}]
    )

    def add_above(self, seat: int, points: int, why: str) -> None:
        self.above[seat].append(_entry(points, why))

    def add_below(self, seat: int, points: int, why: str) -> None:
        self.games[-1]["below"][seat].append(_entry(points, why))

    def above_totals(self) -> list[int]:
        return [sum(e["points"] for e in column) for column in self.above]

    def below_totals(self) -> list[int]:
        """Trick points of the game in progress."""
        return [sum(e["points"] for e in column) for column in self.games[-1]["below"]]

    def games_won(self) -> list[int]:
        won = [0, 0]
        for game in self.games:
            if game["winner"] is not None:
                won[game["winner"]] += 1
        return won

    def to_json(self) -> dict[str, Any]:
        return {
            "above": [[dict(e) for e in column] for column in self.above],
            "games": [
                {"below": [[dict(e) for e in col] for col in g["below"]], "winner": g["winner"]}
                for g in self.games
            ],
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Scoresheet:
        sheet = cls()
        sheet.above = [[dict(e) for e in column] for column in data["above"]]
        sheet.games = [
            {"below": [[dict(e) for e in col] for col in g["below"]], "winner": g["winner"]}
            for g in data["games"]
        ]
        return sheet

    def render(self, names: Sequence[str], we: int = 0,
               labels: Mapping[str, str] | None = None) -> str:
        """The sheet as monospace text, the `we` seat in the WE column; a won game is marked
        with its winner's column.

        >>> sheet = Scoresheet()
        >>> sheet.add_above(1, 50, "honours"); sheet.add_below(0, 3, "3 tricks")
        >>> print(sheet.render(["Ann", "Bob"]))
                     WE   THEY
                    Ann    Bob
        above         0     50
        ----------------------
        game 1        3      0
        """
        order = (we, 1 - we)

        def row(label: str, left: object, right: object) -> str:
            return f"{label:<8}{left!s:>7}{right!s:>7}"

        words = {**SHEET_WORDS, **(labels or {})}
        above = self.above_totals()
        lines = [row("", words["we"], words["they"]),
                 row("", names[order[0]][:6], names[order[1]][:6])]
        lines += [row(words["above"], above[order[0]], above[order[1]]), "-" * 22]
        for number, game in enumerate(self.games, 1):
            below = [sum(e["points"] for e in game["below"][s]) for s in order]
            line = row(words["game"].format(n=number), below[0], below[1])
            if game["winner"] is not None:
                winner = words["we"] if game["winner"] == we else words["they"]
                line += "  " + words["won by"].format(side=winner)
            lines.append(line)
        return "\n".join(lines)
