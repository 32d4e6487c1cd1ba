"""What Hold'em Sppoker shows: the table's view and a seat's own."""

from __future__ import annotations

from dataclasses import dataclass

from engine.chips.deal import ChipDealView
from engine.views import SeatView
from engine.words import WordCheck

__all__ = ["HoldemSppokerSeatView", "HoldemSppokerView"]


@dataclass(frozen=True, kw_only=True)
class HoldemSppokerView(ChipDealView):
    """The table (see `ChipDealView`): `board` the community cards dealt so far (card
    texts, letters included); `street` preflop/flop/turn/river; `declared` which players
    still in have completed their sealed declaration (never what they declared)."""

    small_blind: int
    big_blind: int
    street: str
    board: tuple[str, ...]
    board_labels: tuple[str, ...]
    declared: tuple[bool, ...]


@dataclass(frozen=True, kw_only=True)
class HoldemSppokerSeatView(HoldemSppokerView, SeatView):
    """A seat's view: `hand` its two hole cards, `labels` them as shown, `letters` the
    letters of its cards so far (hole then board), `poker` its best hand once the flop is
    out, and its own sealed `declaration` ("poker", "spelling", "double" = both) and `word`
    with the verdict on it (`word_check`)."""

    labels: tuple[str, ...] = ()
    letters: str = ""
    poker: str | None = None
    poker_cards: tuple[str, ...] = ()
    declaration: str | None = None
    word: str | None = None
    word_check: WordCheck | None = None
