"""AI levels: the named policies an AI seat can play by.

Ratings rate an AI seat as its level, not as "AI 1" or "AI 2" (names that change from table
to table), so the level is the AI's identity and must have a stable name. Every game has
one AI of its own, its `ai_action`: that is the **standard** level, the one every AI seat
the bot seats today plays. The **novice** picks uniformly among the legal actions: it is
the baseline the benches measure the standard AI against (`bench/tricks_ai.py`), and a
weaker level that a rating must be able to tell apart from the standard one.

>>> sorted(LEVELS)
['novice', 'standard']
"""

from __future__ import annotations

import random
from collections.abc import Callable

from engine.game import Action, Game

Policy = Callable[[Game, int, random.Random], Action]

STANDARD = "standard"
NOVICE = "novice"
DEFAULT_LEVEL = STANDARD


def _standard(game: Game, seat: int, rng: random.Random) -> Action:
    return game.ai_action(seat, rng)


def _novice(game: Game, seat: int, rng: random.Random) -> Action:
    return rng.choice(game.legal_actions(seat))


LEVELS: dict[str, Policy] = {STANDARD: _standard, NOVICE: _novice}


def ai_move(level: str, game: Game, seat: int, rng: random.Random) -> Action:
    """The action an AI of this level takes now (its chance from `rng`, so it replays)."""
    try:
        policy = LEVELS[level]
    except KeyError:
        raise ValueError(f"no AI level {level!r}: the levels are {', '.join(LEVELS)}") from None
    return policy(game, seat, rng)
