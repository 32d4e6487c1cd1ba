"""One module per game; importing this package registers every game in `GAMES`."""

from engine.games import (  # noqa: F401  (register themselves)
    badugi,
    dealers_choice,
    holdem_sppoker,
    old_man_49er,
    poangpoker,
    poke,
    pokeno,
    pokeno_solitaire,
    red_dog,
    spew,
    sppoker,
    zero_to_55,
)
from engine.games.registry import GAMES, register

__all__ = ["GAMES", "register"]
