"""What Po-Ke-No and its solitaire show: the table's view (boards face down until scored) and a
seat's own (its board face up, with this turn's tentative cards)."""

from __future__ import annotations

from dataclasses import dataclass

from engine.views import GameView, JSONRecord, SeatView

__all__ = ["PokenoSeatView", "PokenoView"]


@dataclass(frozen=True, kw_only=True)
class PokenoView(GameView):
    """A Po-Ke-No table as everyone sees it. `deal` is the round. Boards are face down:
    `board_counts` says only how many cards each seat has on each space (as of the start of
    the turn in play: tentative placements stay private until "End turn"). `last_deal` is
    the previous round's record, every board revealed."""

    dealer: int
    turn: int | None
    deck: int
    discards: int
    hand_sizes: tuple[int, ...]
    board_counts: tuple[tuple[int, ...], ...]
    target: int = 0
    reshuffles: int = 0
    reshuffle_limit: int = 0
    caller: int | None = None
    last_turns: tuple[int, ...] = ()
    discarded: int = 0  # solitaire: cards discarded so far (-10 each)
    last_deal: JSONRecord | None = None


@dataclass(frozen=True, kw_only=True)
class PokenoSeatView(PokenoView, SeatView):
    """A seat's own view: its board face up with this turn's tentative cards (`fresh`: the
    indices of those cards in each space), the selection waiting for a space, the steps of
    the turn so far, and how many cards "End turn" would draw."""

    board: tuple[tuple[str, ...], ...] = ()
    fresh: tuple[tuple[int, ...], ...] = ()
    selection: tuple[str, ...] = ()
    steps: tuple[JSONRecord, ...] = ()
    draws: int = 0
    can_call: bool = False
    called: bool = False
