"""What Badugi shows: the table's view and a seat's own."""

from __future__ import annotations

from dataclasses import dataclass

from engine.chips.deal import ChipDealView
from engine.views import SeatView

__all__ = ["DRAWS", "BadugiSeatView", "BadugiView"]

DRAWS = 3
"""The draws of a deal; a view's `draw_no` counts them."""


@dataclass(frozen=True, kw_only=True)
class BadugiView(ChipDealView):
    """The table (see `ChipDealView`), and the draws: `draws` the number of cards each seat
    drew at each draw so far; `showdown` records the hands shown and each pot's award."""

    ante: int
    draw_no: int
    draws: tuple[tuple[int, ...], ...]
    hand_sizes: tuple[int, ...]
    stock: int


@dataclass(frozen=True, kw_only=True)
class BadugiSeatView(BadugiView, SeatView):
    """A seat's view: its own hand (ace low, lowest first) and what it is worth now."""

    hand_value: str = ""
