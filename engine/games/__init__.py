"""One module per game; importing this package registers every game in `GAMES`."""

from engine.games import sppoker  # noqa: F401  (registers itself)
from engine.games.registry import GAMES, register

__all__ = ["GAMES", "register"]
