"""Red Dog: bet whether the next card falls between two.

Importing the package registers the game (`engine.games.registry`)."""

from engine.games.red_dog.rules import RedDog

__all__ = ["RedDog"]
