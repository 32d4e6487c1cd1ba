"""Hold'em Sppoker: Sppoker's words and hands on a hold'em board, with fixed-limit betting.

Importing the package registers the game (`engine.games.registry`)."""

from engine.games.holdem_sppoker.rules import HoldemSppoker

__all__ = ["HoldemSppoker"]
