"""The games the bot can host, by `kind`: the table manager and the cogs look a game up here
instead of importing each module, so adding a game is one decorator.

>>> from engine.games import GAMES
>>> GAMES["sppoker"].title
'Sppoker'
"""

from __future__ import annotations

from typing import TypeVar

from engine.game import Game

__all__ = ["GAMES", "register"]

GAMES: dict[str, type[Game]] = {}

G = TypeVar("G", bound=type[Game])


def register(cls: G) -> G:
    """Class decorator: make a game available under its `kind` (one class per kind)."""
    known = GAMES.get(cls.kind)
    if known is not None and known is not cls:
        raise ValueError(f"two games claim the kind {cls.kind!r}: {known.__name__}, {cls.__name__}")
    GAMES[cls.kind] = cls
    return cls
