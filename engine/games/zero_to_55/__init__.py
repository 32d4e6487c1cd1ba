"""Zero to 55: a reveal-order chip game counted in points, high closest to 55.

Importing the package registers the game (`engine.games.registry`)."""

from engine.games.zero_to_55.rules import ZeroTo55

__all__ = ["ZeroTo55"]
