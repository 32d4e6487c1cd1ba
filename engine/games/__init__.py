"""One package per game; importing this package registers every game in `GAMES`.

A game's package (`engine.games.<game>`) holds its rules and whatever only it uses; what
several games share lives beside `engine.games`: `engine.chips` for the chip games,
`engine.tricks` for the trick games. Adding a game is its package plus one line here.
"""

from engine.games import (  # noqa: F401  (register themselves)
    badugi,
    dealers_choice,
    holdem_sppoker,
    old_man_49er,
    poangpoker,
    poke,
    pokeno,
    red_dog,
    spew,
    sppoker,
    zero_to_55,
)
from engine.games.registry import GAMES, register

__all__ = ["GAMES", "register"]
