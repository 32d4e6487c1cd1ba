"""What the reveal-order games show: the table's view (fees, reveals, declarations once
shown) and a seat's own."""

from __future__ import annotations

from dataclasses import dataclass

from engine.chips.deal import ChipDealView
from engine.views import SeatView

__all__ = ["RevealSeatView", "RevealView"]


@dataclass(frozen=True, kw_only=True)
class RevealView(ChipDealView):
    """The table (see `ChipDealView`; `pot` includes the fees). `fees` are what each seat
    paid for drawing (dead money joining the main pot); `drawn` the cards each seat drew
    (None: not yet). `exposed` each seat's face-up cards in the order turned and
    `exposed_totals` the (lowest, highest) total they make; `hidden` how many cards each
    seat has face down; `reveals` how many reveals so far; `lead` the seat the current
    betting round started from. `ordered` and `declared` say who has fixed their order /
    declared; `declarations` are None until everyone has declared. `showdown` is the end's
    record (hands, values, each pot's award and why)."""

    ante: int
    draw_limit: int
    draw_fee: int
    fees: tuple[int, ...]
    drawn: tuple[int | None, ...]
    exposed: tuple[tuple[str, ...], ...]
    exposed_totals: tuple[tuple[int, int], ...]
    hidden: tuple[int, ...]
    reveals: int
    lead: int | None
    ordered: tuple[bool, ...]
    declared: tuple[bool, ...]
    declarations: tuple[str | None, ...] | None  # None for a player who declared nothing


@dataclass(frozen=True, kw_only=True)
class RevealSeatView(RevealView, SeatView):
    """A seat's view. `hand` is its face-down cards (in reveal order once fixed); `cards` all
    five (exposed first); `picked` the order being chosen (not yet confirmed); `order_fixed`
    whether it is confirmed; `declaration` its own sealed declaration; `high_total` and
    `low_total` what its whole hand counts for each side."""

    cards: tuple[str, ...] = ()
    picked: tuple[str, ...] = ()
    order_fixed: bool = False
    declaration: str | None = None
    high_total: int = 0
    low_total: int = 0
