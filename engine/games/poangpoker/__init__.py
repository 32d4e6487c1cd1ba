"""Poängpoker and Chicago: poker hands and trick play for points.

Importing the package registers the game (`engine.games.registry`)."""

from engine.games.poangpoker.rules import Chicago, Poangpoker

__all__ = ["Chicago", "Poangpoker"]
