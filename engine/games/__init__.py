"""One module per game; importing this package registers every game in `GAMES`."""

from engine.games import (  # noqa: F401  (register themselves)
    badugi,
    poangpoker,
    poke,
    red_dog,
    sppoker,
)
from engine.games.registry import GAMES, register

__all__ = ["GAMES", "register"]
