"""Zero to 55 (seed 001): five cards, a betting round, one draw, a private reveal order, the
cards turned one at a time by everyone together with a betting round after each of the first
four, a sealed high / low / both declaration, then the last card and the showdown.

Values (RULINGS.md): faces 0 or 10, aces 1 or 11, the ace of spades 1 or 12, 2-10 as ranked,
each card valued to the player's advantage for the side they declared (each side separately
for "both"). High is closest to 55 (nothing can pass it: engine/chips/points.py), low closest to 0.
The draw is of up to four cards, three with six or more players; option `draw_fee` (0, off)
charges that many chips per card drawn, dead money that goes with the main pot. The shared
machinery (order, reveals, betting, showdown) is engine/chips/reveal_order.py.

>>> import random
>>> game = ZeroTo55(["Ann", "Bob", "Cid"], {"stacks": [200, 200, 200]}, random.Random(1))
>>> game.phase, sorted(game.to_act), game.public_view().pot
('bet', [1], 15)
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from engine.cards import Card
from engine.chips.points import ZERO_TO_55, ZERO_TO_55_TARGET, PointScheme, best_high
from engine.chips.reveal_ai import reveal_ai
from engine.chips.reveal_order import RevealGame
from engine.game import Action
from engine.games.registry import register
from engine.i18n import msg

__all__ = ["ZeroTo55"]

SHORT_DRAW_FROM = 6  # players from which the draw is limited to three cards


@register
class ZeroTo55(RevealGame):
    """One deal of Zero to 55. Options: `stacks` (required), `button` (0), `small_bet` (10),
    `big_bet` (20), `ante` (5), `draw_fee` (0: the draw is free), `declare_seconds` (120) and
    `last_seconds` (10); `ai_seats` is filled in by the table."""

    kind = "zero_to_55"
    title = "Zero to 55"
    scheme: ClassVar[PointScheme] = ZERO_TO_55
    schedule: ClassVar[tuple[str, ...]] = (
        "bet", "draw", "order",
        "reveal", "bet", "reveal", "bet", "reveal", "bet", "reveal", "bet",
        "declare", "reveal",
    )
    extra_options: ClassVar[Mapping[str, int]] = {"draw_fee": 0}

    @classmethod
    def goal(cls, options: Mapping[str, Any], players: int) -> str:
        return msg("closest to 55 and closest to 0 split the pot")

    def draw_limit(self) -> int:
        return 3 if self.n >= SHORT_DRAW_FROM else 4

    @property
    def draw_fee(self) -> int:
        return int(self.settings["draw_fee"])

    def high_total(self, cards: Sequence[Card]) -> int:
        return best_high(cards, self.scheme, target=ZERO_TO_55_TARGET)

    def ai_action(self, seat: int, rng: random.Random) -> Action:
        """The reveal-order games' AI (`engine.chips.reveal_ai`), which reads this game's
        scheme and hooks."""
        return reveal_ai(self, seat, rng)
