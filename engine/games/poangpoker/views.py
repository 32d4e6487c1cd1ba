"""What Poängpoker and Chicago show: the table's view and a seat's own."""

from __future__ import annotations

from dataclasses import dataclass

from engine.tricks.deal import (
    TrickSeatView,
    TrickView,
)
from engine.views import JSONRecord

__all__ = ["PointsSeatView", "PointsView"]


@dataclass(frozen=True, kw_only=True)
class PointsView(TrickView):
    """Poängpoker's and Chicago's table: `order` the turn order of this deal, the exchange
    (or buy) round of `exchanges`, `exchanged` how many cards each seat threw per round
    (None: not yet), `kopstopp` the seats that may no longer buy, the Chicago `caller`, and
    `shown`, the combinations interim scoring showed this deal."""

    order: tuple[int, ...]
    target: int
    exchange_round: int
    exchanges: int
    exchanged: tuple[tuple[int | None, ...], ...] = ()
    kopstopp: tuple[int, ...] = ()
    call_enabled: bool = False
    caller: int | None = None
    shown: tuple[JSONRecord, ...] = ()


@dataclass(frozen=True, kw_only=True)
class PointsSeatView(PointsView, TrickSeatView):
    """A seat's view adds how many cards it may throw now."""

    exchange_limit: int = 0
