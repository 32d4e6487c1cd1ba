"""What Red Dog shows: each turn's record, the table's view and a seat's own."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine.views import GameView, JSONRecord, SeatView

__all__ = ["RedDogSeatView", "RedDogTurn", "RedDogView"]


@dataclass(frozen=True)
class RedDogTurn:
    """One player's turn of the round in progress: `bet` 0 is a pass (nothing shown);
    otherwise the turned `card`, the bettor's `hand` as shown, the card that won (`by`,
    empty on a loss) and the pot after the bet was settled."""

    seat: int
    bet: int
    card: str = ""
    hand: tuple[str, ...] = ()
    won: bool = False
    by: str = ""
    pot: int = 0

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> RedDogTurn:
        return cls(
            int(data["seat"]),
            int(data["bet"]),
            str(data.get("card", "")),
            tuple(data.get("hand", ())),
            bool(data.get("won", False)),
            str(data.get("by", "")),
            int(data.get("pot", 0)),
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "bet": self.bet,
            "card": self.card,
            "hand": list(self.hand),
            "won": self.won,
            "by": self.by,
            "pot": self.pot,
        }


@dataclass(frozen=True, kw_only=True)
class RedDogView(GameView):
    """The table. `scores` and `stacks` are the chips each seat holds outside the pot;
    `brought` what each seat sat down with; `players` the seats in the game (those who
    anted); `order` this round's bettors in turn order; `turns` the turns already taken this
    round (bettors' hands shown, passers' not); `max_bet` what the seat to act may bet at
    most; `last_deal` the previous round's record (its cards may be dealt again now)."""

    pot: int
    stacks: tuple[int, ...]
    brought: tuple[int, ...]
    ante: int
    button: int
    dealer: int
    players: tuple[int, ...]
    order: tuple[int, ...]
    hand_sizes: tuple[int, ...]
    turns: tuple[RedDogTurn, ...] = ()
    max_bet: int = 0
    stock: int = 0
    last_deal: JSONRecord | None = None


@dataclass(frozen=True, kw_only=True)
class RedDogSeatView(RedDogView, SeatView):
    """A seat's view adds its hand (kept after it is shown, so "Show my hand" still shows
    it) and its chance: `beats` of the `unseen` cards (neither in its hand nor turned or
    shown this round) would win a bet now."""

    beats: int = 0
    unseen: int = 0
