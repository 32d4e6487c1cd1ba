"""Poke: draw poker then tricks, scored on a bridge-like sheet.

Importing the package registers the game (`engine.games.registry`)."""

from engine.games.poke.rules import Poke

__all__ = ["Poke"]
