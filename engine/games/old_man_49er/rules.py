"""Old Man 49er (seed 001): five cards, one draw of up to four, a private reveal order, the
cards turned one at a time by everyone together with a betting round before each turn, a
sealed high / low / both declaration after the fourth, a last betting round, the last card.

Values (RULINGS.md): A 1 or 11 at the player's election, J/Q/K 0, 2-10 as ranked; high is
the highest total, low the lowest, each side valued separately. A hand that can total
exactly 49 takes every pot it is eligible for whatever was declared (several at 49 split
it); otherwise each pot is split between high and low as declared (engine/chips/betting.py).
The shared machinery (order, reveals, betting, showdown) is engine/chips/reveal_order.py.

>>> import random
>>> game = OldMan49er(["Ann", "Bob", "Cid"], {"stacks": [200, 200, 200]}, random.Random(1))
>>> game.phase, sorted(game.to_act), game.public_view().pot
('draw', [1], 15)
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from engine.cards import Card
from engine.chips.points import OLD_MAN_49ER, PointScheme, is_49
from engine.chips.reveal_ai import reveal_ai
from engine.chips.reveal_order import RevealGame
from engine.game import Action
from engine.games.registry import register
from engine.i18n import msg

__all__ = ["OldMan49er"]


@register
class OldMan49er(RevealGame):
    """One deal of Old Man 49er. Options: `stacks` (required), `button` (0), `small_bet`
    (10), `big_bet` (20), `ante` (5), `declare_seconds` (120) and `last_seconds` (10);
    `ai_seats` is filled in by the table."""

    kind = "old_man_49er"
    title = "Old Man 49er"
    scheme: ClassVar[PointScheme] = OLD_MAN_49ER
    schedule: ClassVar[tuple[str, ...]] = (
        "draw", "order",
        "bet", "reveal", "bet", "reveal", "bet", "reveal", "bet", "reveal",
        "declare", "bet", "reveal",
    )

    @classmethod
    def goal(cls, options: Mapping[str, Any], players: int) -> str:
        return msg("highest and lowest totals split the pot; exactly 49 takes it all")

    def jackpot(self, cards: Sequence[Card]) -> bool:
        return is_49(cards, self.scheme)

    def ai_action(self, seat: int, rng: random.Random) -> Action:
        """The reveal-order games' AI (`engine.chips.reveal_ai`), which reads this game's
        scheme and hooks."""
        return reveal_ai(self, seat, rng)
