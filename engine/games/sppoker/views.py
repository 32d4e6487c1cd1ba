"""What Sppoker shows: the table's view and a seat's own."""

from __future__ import annotations

from dataclasses import dataclass

from engine.views import GameView, JSONRecord, SeatView
from engine.words import WordCheck

__all__ = ["SppokerSeatView", "SppokerView"]


@dataclass(frozen=True, kw_only=True)
class SppokerView(GameView):
    """The table: `active` the seats dealt in (the playoff's only, in a playoff),
    `declared_count` how many have declared, `last_reveal` the reveal's record while it is
    shown (None while declaring)."""

    target: int
    active: tuple[int, ...]
    playoff: tuple[int, ...] | None = None
    declared_count: int = 0
    last_reveal: JSONRecord | None = None


@dataclass(frozen=True, kw_only=True)
class SppokerSeatView(SppokerView, SeatView):
    """A seat's own hand (`hand` the card texts, `labels` as shown), its letters and best
    poker hand, and its declaration and word as they stand."""

    labels: tuple[str, ...] = ()
    letters: str = ""
    poker: str | None = None
    poker_cards: tuple[str, ...] = ()
    declaration: str | None = None
    word: str | None = None
    word_check: WordCheck | None = None
