"""Round robin: everyone meets everyone once, by the circle method.

The players, in seed order (by rating; equal ratings in the order they joined), sit round a
circle of an even number of places, with an empty place (the bye seat) when the field is
odd. Each round the place i meets the place n − 1 − i, then the first seed stays where they
are and everyone else moves one place round the circle; after n − 1 rounds each pair has met
exactly once (the construction behind Berger tables). Whoever faces the bye seat sits the
round out.

>>> for pairs in schedule(["A", "B", "C", "D"]):
...     print(pairs)
[('A', 'D'), ('B', 'C')]
[('A', 'C'), ('D', 'B')]
[('A', 'B'), ('C', 'D')]
>>> schedule(["A", "B", "C"])[0]
[('A', None), ('B', 'C')]
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["round_count", "schedule"]


def round_count(players: int) -> int:
    """Rounds of a round robin of `players`: one fewer than the circle's places."""
    return players - 1 if players % 2 == 0 else players


def schedule(seeded: Sequence[str]) -> list[list[tuple[str | None, str | None]]]:
    """Every round's pairs, in order; None is the bye seat."""
    ring: list[str | None] = [*seeded, *([None] if len(seeded) % 2 else [])]
    places = len(ring)
    rounds: list[list[tuple[str | None, str | None]]] = []
    for _ in range(places - 1):
        rounds.append([(ring[i], ring[places - 1 - i]) for i in range(places // 2)])
        ring = [ring[0], ring[-1], *ring[1:-1]]
    return rounds
