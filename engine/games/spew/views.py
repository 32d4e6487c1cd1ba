"""What Spew shows: the table's view and a seat's own."""

from __future__ import annotations

from dataclasses import dataclass

from engine.chips.deal import ChipDealView
from engine.views import SeatView

__all__ = ["SpewSeatView", "SpewView"]


@dataclass(frozen=True, kw_only=True)
class SpewView(ChipDealView):
    """The table (see `ChipDealView`; `scores` and `stacks` include a nut low's chips).
    `draws` the cards each seat drew (None before its turn to draw); `spew_cards` the spew
    cards turned so far, face up, of `spew_total`; `spewed` the cards each seat spewed (face
    up, all the table saw); `out` the seats spewed out of cards (out of the pot, or the nut
    low under `out_takes_low`, listed in `nut_low`); `declared` who has declared (never
    what)."""

    ante: int
    rounds: int
    max_draw: int
    spew_total: int
    out_takes_low: bool
    draws: tuple[int | None, ...]
    hand_sizes: tuple[int, ...]
    stock: int
    spew_cards: tuple[str, ...]
    spewed: tuple[tuple[str, ...], ...]
    out: tuple[bool, ...]
    nut_low: tuple[int, ...]
    declared: tuple[bool, ...]


@dataclass(frozen=True, kw_only=True)
class SpewSeatView(SpewView, SeatView):
    """A seat's view: its hand (by rank), its best high and low totals now (aces chosen for
    each side), and its own sealed declaration once made."""

    high: int = 0
    low: int = 0
    declaration: str | None = None
