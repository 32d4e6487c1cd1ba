"""Single elimination: a bracket seeded by rating, and who goes on from a table.

**Heads-up (tables of two): the standard bracket.** Players are seeded by rating (seed 1
the highest; equal ratings in the order they joined) into a bracket of the next power of
two, laid out so that the top seeds can only meet late: 1 v 8, 4 v 5, 2 v 7, 3 v 6 of eight
(`bracket_order`), and of sixteen 1 v 16, 8 v 9, … . When the field is not a power of two,
the empty slots face the top seeds: they have a bye in round 1. Each table's winner takes
its slot in the next round (slots 2i and 2i+1 meet); a draw goes to the better seed; a slot
whose player left gives the other a walkover.

**At bigger tables: the top finishers go on.** Each round the players still in are seeded
afresh by their seed and spread over tables by the slide (`swiss.slide`: one from each band
of strength at every table); the first `advance` of each table go on (default: half the
table rounded down, at least one; equal places at the cut go to the better seed). When the
players left fit one table, that table is the final and places them all.

>>> bracket_order(8)
[1, 8, 4, 5, 2, 7, 3, 6]
>>> first_bracket(["A", "B", "C", "D", "E", "F"])
('A', None, 'D', 'E', 'B', None, 'C', 'F')
>>> advancers(("C", "A", "B", "D"), (1, 2, 2, 4), ["A", "B", "C", "D"], 2)
['C', 'A']
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["advancers", "advancing_count", "bracket_order", "first_bracket"]


def bracket_order(size: int) -> list[int]:
    """The seeds (1-based) in bracket order for a bracket of `size`, a power of two: each
    seed s of the half-size bracket is followed by its opponent size + 1 − s."""
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [seed for s in order for seed in (s, total - s)]
    return order


def first_bracket(seeded: Sequence[str]) -> tuple[str | None, ...]:
    """Round 1's slots for the players in seed order: None is an empty slot (a bye)."""
    size = 1
    while size < len(seeded):
        size *= 2
    return tuple(seeded[seed - 1] if seed <= len(seeded) else None
                 for seed in bracket_order(size))


def advancing_count(size: int, advance: int | None) -> int:
    """How many of a table of `size` go on: `advance` (or half the table), always at least
    one and fewer than the table, so every round knocks someone out."""
    wanted = advance if advance is not None else size // 2
    return max(1, min(wanted, size - 1))


def advancers(players: Sequence[str], places: Sequence[int], seeded: Sequence[str],
              count: int) -> list[str]:
    """The `count` players of a finished table who go on: by place, equal places by seed."""
    seed = {player: index for index, player in enumerate(seeded)}
    order = sorted(range(len(players)), key=lambda i: (places[i], seed[players[i]]))
    return [players[i] for i in order[:count]]
