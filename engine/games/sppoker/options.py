"""A Sppoker table's settings, checked, and the word tools (judge and finder) of its language."""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field, fields
from typing import Any

from engine.words import (
    Dictionary,
    WordFinder,
    candidate_words,
    get_dictionary,
    get_finder,
)

HAND_SIZE = 7
"""The cards dealt to each seat."""
DEFAULT_TARGETS = {2: 12, 3: 11, 4: 10, 5: 9, 6: 8, 7: 7, 8: 6}
"""The points that win, by the number of seats (RULINGS.md)."""

__all__ = ["DEFAULT_TARGETS", "HAND_SIZE", "SppokerOptions", "word_tools"]


@dataclass
class SppokerOptions:
    """Per-table settings (RULINGS: target, last-declarer seconds and the whole-table limit
    are options). `ai_skill` is one level for every AI seat, or a list per seat.
    `ai_seats` names the AI seats: they count as declared for the 10-second rule, and only
    the table knows who they are, so it passes them here (and a snapshot keeps them)."""

    target: int | None = None
    declare_seconds: float = 120
    last_seconds: float = 10
    reveal_seconds: float = 20
    language: str = "en_US"
    ai_skill: int | list[int] = 2
    ai_seats: list[int] = field(default_factory=list)

    def __post_init__(self) -> None:
        if self.target is not None and self.target < 1:
            raise ValueError("the target must be at least 1 point")
        if self.declare_seconds <= 0 or self.last_seconds <= 0 or self.reveal_seconds <= 0:
            raise ValueError("time limits must be positive")
        if isinstance(self.ai_skill, tuple):
            self.ai_skill = list(self.ai_skill)
        self.ai_seats = sorted({int(seat) for seat in self.ai_seats})
        levels = self.ai_skill if isinstance(self.ai_skill, list) else [self.ai_skill]
        if any(level not in (0, 1, 2) for level in levels):
            raise ValueError("AI skill is 0, 1 or 2")

    def target_for(self, players: int) -> int:
        return self.target if self.target is not None else DEFAULT_TARGETS[players]

    def skill_of(self, seat: int) -> int:
        if isinstance(self.ai_skill, list):
            return self.ai_skill[seat] if seat < len(self.ai_skill) else 2
        return self.ai_skill

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: Mapping[str, Any] | None) -> SppokerOptions:
        data = dict(data or {})
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise ValueError(f"unknown Sppoker options: {', '.join(unknown)}")
        return cls(**data)


@functools.lru_cache(maxsize=8)
def _finder_for(lang: str, dictionary: Dictionary) -> WordFinder:
    return WordFinder(candidate_words(lang), dictionary)


def word_tools(
    lang: str, dictionary: Dictionary | None, finder: WordFinder | None
) -> tuple[Dictionary, WordFinder]:
    """The dictionary that judges a table's words and the finder of its longest ones: those
    injected (tests, simulations), else the shared ones of `lang`; an injected dictionary
    gets a finder that agrees with it."""
    judge = dictionary or (finder.dictionary if finder else get_dictionary(lang))
    if finder is None:
        finder = get_finder(lang) if dictionary is None else _finder_for(lang, dictionary)
    return judge, finder
