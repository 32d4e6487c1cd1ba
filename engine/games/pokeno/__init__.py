"""Pyramid Po-Ke-No and its solitaire: the rules of both (`rules`, `solitaire`) on a shared
base (`base`), the board's spaces and how a handful of cards reads on one (`spaces`,
`scoring`) and the AI that places cards (`ai`).

Importing the package registers both games (`engine.games.registry`)."""

from engine.games.pokeno.rules import Pokeno
from engine.games.pokeno.solitaire import PokenoSolitaire

__all__ = ["Pokeno", "PokenoSolitaire"]
