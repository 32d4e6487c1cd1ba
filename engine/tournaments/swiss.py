"""Swiss pairing: who sits with whom in a round, from plain rankings and the rounds before.

**Round 1, by rating, slide pairing.** Players are ranked by rating (equal ratings: in the
order they joined). With T tables, the player ranked r (from 0) sits at table `r mod T`: at
heads-up the top half meets the bottom half in order (1 v 5, 2 v 6, 3 v 7, 4 v 8 of eight),
and at bigger tables each table gets one player from each band of strength. Byes go to the
lowest-ranked players.

**Later rounds, by standing (Monrad).** Players are ranked by tournament score, then rating
(then the order they joined). The highest-ranked player not yet seated sits with the next
ranked players they can, table by table, so players of like score meet (at heads-up: 1 v 2,
3 v 4, …). A table of players who have met before is avoided: the pairing is the first, in
that order of preference, with the fewest repeat meetings (a pair who met twice counts
twice), found by backtracking; so a repeat happens only when no pairing of the round avoids
it. Where that search would take too long (more than `SEARCH_LIMIT` steps: only when repeats
are unavoidable in a large field, at big tables late in a long tournament), it settles for a
greedy seating: table by table from the top, the top player's first choice of companions with
the fewest repeats.

**Byes.** When the players do not fit the tables (`table_sizes`), the bye goes to the
lowest-ranked player who has had the fewest byes (so nobody has a second bye while someone
has had none); among those equally entitled, the first whose bye lets the rest be paired
with the fewest repeats.

>>> slide(["A", "B", "C", "D", "E", "F", "G", "H"], (2, 2, 2, 2))
[('A', 'E'), ('B', 'F'), ('C', 'G'), ('D', 'H')]
>>> met = {("A", "B"): 1, ("C", "D"): 1}
>>> pair_round(["A", "B", "C", "D", "E"], met, {}, seats=2)
([('A', 'C'), ('B', 'D')], ['E'])
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import combinations, islice

from engine.tournaments.formats import table_sizes

__all__ = ["SEARCH_LIMIT", "bye_choices", "meeting_key", "pair_round", "slide"]

SEARCH_LIMIT = 100_000
"""Steps of the backtracking search before it settles for the greedy seating (a fraction of
a second: the pairing of a round is a plain function the bot may run in a thread)."""
_BYE_CHOICES = 64  # sets of bye players tried, when several byes are due at once


def meeting_key(a: str, b: str) -> tuple[str, str]:
    """The key of a pair in the table of meetings (`met`): the two ids in order."""
    return (a, b) if a <= b else (b, a)


def slide(ranked: Sequence[str], sizes: Sequence[int]) -> list[tuple[str, ...]]:
    """Deal the ranked players over the tables in turn: rank r to table r mod T (sizes
    largest first, so the extra players land at the first tables)."""
    tables: list[list[str]] = [[] for _ in sizes]
    for rank, player in enumerate(ranked):
        tables[rank % len(sizes)].append(player)
    return [tuple(table) for table in tables]


def bye_choices(ranked: Sequence[str], byes_had: Mapping[str, int],
                count: int) -> list[tuple[str, ...]]:
    """The sets of players who may have this round's `count` byes, best first: everyone
    with fewer byes than the last one needed must have one, then the lowest-ranked of those
    with that many."""
    if count == 0:
        return [()]
    position = {player: index for index, player in enumerate(ranked)}
    order = sorted(ranked, key=lambda p: (byes_had.get(p, 0), -position[p]))
    threshold = byes_had.get(order[count - 1], 0)
    must = [p for p in order if byes_had.get(p, 0) < threshold]
    may = [p for p in order if byes_had.get(p, 0) == threshold]
    return [tuple(must) + extra
            for extra in islice(combinations(may, count - len(must)), _BYE_CHOICES)]


class _Exhausted(Exception):
    """The search took more than SEARCH_LIMIT steps."""


class _Search:
    """The backtracking search for a round's tables within a budget of repeat meetings."""

    def __init__(self, met: Mapping[tuple[str, str], int]) -> None:
        self.met = met
        self.steps = 0
        self.failed: set[tuple[tuple[str, ...], tuple[int, ...], int]] = set()

    def cost(self, table: Sequence[str]) -> int:
        return sum(self.met.get(meeting_key(a, b), 0) for a, b in combinations(table, 2))

    def seat(self, players: tuple[str, ...], sizes: tuple[int, ...],
             budget: int) -> list[tuple[str, ...]] | None:
        """The first seating, in order of preference, of `players` (ranked) at tables of
        `sizes` with at most `budget` repeat meetings; None if there is none."""
        if not players:
            return []
        key = (players, sizes, budget)
        if key in self.failed:
            return None
        top, rest = players[0], players[1:]
        for size in sorted(set(sizes), reverse=True):
            left = list(sizes)
            left.remove(size)
            for chosen in combinations(range(len(rest)), size - 1):
                self.steps += 1
                if self.steps > SEARCH_LIMIT:
                    raise _Exhausted
                table = (top, *(rest[i] for i in chosen))
                cost = self.cost(table)
                if cost > budget:
                    continue
                others = tuple(p for i, p in enumerate(rest) if i not in chosen)
                found = self.seat(others, tuple(left), budget - cost)
                if found is not None:
                    return [table, *found]
        self.failed.add(key)
        return None

    def greedy(self, players: Sequence[str], sizes: Sequence[int]) -> list[tuple[str, ...]]:
        """A quick seating, table by table from the top: each table the top player's first
        choice of companions with the fewest repeats, never revisited. The search's bound,
        and its answer when the search gives up."""
        left = list(players)
        tables: list[tuple[str, ...]] = []
        for size in sizes:
            top, rest = left[0], left[1:]
            best: tuple[str, ...] | None = None
            best_cost = 0
            for chosen in combinations(rest, size - 1):
                cost = self.cost((top, *chosen))
                if best is None or cost < best_cost:
                    best, best_cost = (top, *chosen), cost
                    if cost == 0:
                        break
            assert best is not None
            tables.append(best)
            left = [p for p in left if p not in best]
        return tables


def pair_round(ranked: Sequence[str], met: Mapping[tuple[str, str], int],
               byes_had: Mapping[str, int], *, seats: int,
               min_table: int = 2) -> tuple[list[tuple[str, ...]], list[str]]:
    """A later round's tables and byes (see the module's doc) for the active players
    `ranked` by standing, given how often each pair met (`met`, keyed by `meeting_key`) and
    how many byes each had."""
    sizes, count = table_sizes(len(ranked), seats, min_table)
    choices = bye_choices(ranked, byes_had, count)
    search = _Search(met)

    def seated_without(byes: tuple[str, ...]) -> tuple[str, ...]:
        return tuple(p for p in ranked if p not in byes)

    fallback = search.greedy(seated_without(choices[0]), sizes)
    worst = sum(search.cost(table) for table in fallback)
    try:
        for budget in range(worst):
            for byes in choices:
                found = search.seat(seated_without(byes), sizes, budget)
                if found is not None:
                    return found, list(byes)
    except _Exhausted:
        pass
    return fallback, list(choices[0])
