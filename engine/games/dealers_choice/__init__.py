"""Dealer's Choice: a session of the other games, the dealer choosing each deal's game.

Importing the package registers the game (`engine.games.registry`)."""

from engine.games.dealers_choice.rules import DealersChoice

__all__ = ["DealersChoice"]
