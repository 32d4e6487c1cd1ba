"""Games played to the end with random legal moves, and their notations.

What the notation and replay-command tests start from."""

from __future__ import annotations

import random

from engine.game import Game, IllegalAction
from engine.notation import (
    Notation,
    notation_of,
)
from engine.replay import LoggedAction
from tests.support.play import awaited, new_game, options_for, random_action


def play(game: Game, seed: int, limit: int = 3000) -> list[LoggedAction]:
    """Random play to the end (or `limit` moves), logged."""
    rng, ai_rng = random.Random(seed), random.Random(seed + 1)
    log: list[LoggedAction] = []
    while not game.is_over and len(log) < limit:
        seat = rng.choice(awaited(game))
        action = random_action(game, seat, rng, ai_rng)
        try:
            game.apply(seat, action)
        except IllegalAction:
            continue
        log.append(LoggedAction(seat, action))
    return log


def finished(kind: str, seats: int, seed: int) -> tuple[Game, Notation]:
    game = new_game(kind, seats, seed)
    log = play(game, seed)
    assert game.is_over
    return game, notation_of(game, options_for(kind, seats), seed, log,
                             date="2026-11-30T12:00:00Z", tags={"Table": "5eed5eed"})
