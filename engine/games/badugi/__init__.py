"""Badugi, one deal on the table's stacks: its rules (`rules`) and the ace-low four-card
hands it ranks (`hand`).

Importing the package registers the game (`engine.games.registry`)."""

from engine.games.badugi.rules import Badugi

__all__ = ["Badugi"]
