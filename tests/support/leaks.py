"""What a player may see and what would leak.

The cards each seat holds, the check that a text shows none of them, and when the rules reveal
them: shared by the hidden-information, conformance, snapshot and replay tests."""

from __future__ import annotations

import json

from engine.game import Game
from engine.views import GameView


def held(game: Game) -> list[set[str]]:
    """Each seat's hidden cards: its hand, and in Po-Ke-No its face-down board too."""
    hands: list[set[str]] = [{f'"{card}"' for card in hand}
                             for hand in game.hands]  # type: ignore[attr-defined]
    for seat, board in enumerate(getattr(game, "boards", None) or []):
        hands[seat] |= {f'"{card}"' for cards in board for card in cards}
    return hands


def leaks(cards: set[str], shown: str, text: str, own: set[str] = frozenset()) -> list[str]:
    """The holder's cards in what another seat is shown. A card that seat holds itself is
    no leak: with two decks (Po-Ke-No) both may hold a copy of one card."""
    return [c for c in cards
            if c not in own and (c in shown or c.strip('"') in text.split())]


# What the rules themselves reveal: the previous deal's hands, Chicago's interim winning
# combinations, the end-of-deal showdown.
HISTORY_KEYS = ("last_deal", "last_reveal", "shown")


REVEALING_EVENTS = ("interim", "reveal", "deal_end", "game_over")


def revealed(game: Game) -> bool:
    return game.phase in ("reveal", "over")


def current_public(view: GameView) -> str:
    return json.dumps({k: v for k, v in view.to_json().items() if k not in HISTORY_KEYS})


def deal_number(game: Game) -> int:
    return game.public_view().deal
