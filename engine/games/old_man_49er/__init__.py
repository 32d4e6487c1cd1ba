"""Old Man 49er: a reveal-order chip game counted in points, where 49 takes the pot.

Importing the package registers the game (`engine.games.registry`)."""

from engine.games.old_man_49er.rules import OldMan49er

__all__ = ["OldMan49er"]
