"""Spew: a high-low chip game of point totals, where spewed cards leave the hand.

Importing the package registers the game (`engine.games.registry`)."""

from engine.games.spew.rules import Spew

__all__ = ["Spew"]
