"""One module per game; importing this package registers every game in `GAMES`."""

from engine.games import poangpoker, poke, red_dog, sppoker  # noqa: F401  (register themselves)
from engine.games.registry import GAMES, register

__all__ = ["GAMES", "register"]
