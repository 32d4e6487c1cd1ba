"""Sppoker: poker hands that also spell words.

Importing the package registers the game (`engine.games.registry`)."""

from engine.games.sppoker.rules import Sppoker

__all__ = ["Sppoker"]
