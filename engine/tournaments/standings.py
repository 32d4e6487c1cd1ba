"""Standings: scores, tiebreaks and places, from the rounds played.

**Swiss and round robin** rank by tournament score (`scoring`: the points of every finished
table, and of byes), then by these tiebreaks in turn:

1. **Buchholz**: the sum of the final scores of every opponent met at a finished table (a
   table of four: each of the three others; an opponent met twice, twice). Byes add
   nothing. It says how strong a field the score was made against.
2. **Head-to-head**: among the players still tied, the points they took from each other:
   one for each tied player finished ahead of at a table they shared, a half for a tie (a
   forfeit takes nothing), as the tables themselves are scored.
3. **Rating**: the higher rating (as at the start) first.

Players equal in all of these share the place (listed in the order they joined).

**Single elimination** ranks by how far a player went: those still in first (a tournament
ended early: they share the place), then by the round they went out in, latest first, then
by their place at that table (heads-up: the two losing semi-finalists share third). The
final table places its players by its own result. A player who left the tournament goes out
in the round after their last, behind those who lost a table in that round.

The worked example of docs/tournaments.md: nine players over three rounds at heads-up
(places of each table in seat order; Ida, Hal and Bo had the byes, a point each).

>>> from engine.tournaments.records import Bye, Round, Table
>>> def tables(*games):
...     return tuple(Table(n, players, places) for n, (players, places) in enumerate(games, 1))
>>> rounds = [
...     Round(1, tables((("Ann", "Eva"), (1, 2)), (("Bo", "Finn"), (2, 1)),
...                     (("Cy", "Gus"), (1, 1)), (("Dan", "Hal"), (1, 2))), (Bye("Ida", 1),)),
...     Round(2, tables((("Ann", "Dan"), (1, 2)), (("Finn", "Ida"), (1, 2)),
...                     (("Cy", "Bo"), (1, 2)), (("Gus", "Eva"), (1, 1))), (Bye("Hal", 1),)),
...     Round(3, tables((("Ann", "Finn"), (2, 1)), (("Cy", "Dan"), (2, 1)),
...                     (("Gus", "Hal"), (1, 1)), (("Ida", "Eva"), (2, 1))), (Bye("Bo", 1),))]
>>> players = ["Ann", "Bo", "Cy", "Dan", "Eva", "Finn", "Gus", "Hal", "Ida"]
>>> ratings = dict(zip(players, range(1900, 1000, -100)))
>>> for row in swiss_standings(players, ratings, rounds):
...     print(row.place, row.player, row.score, row.buchholz, row.head_to_head, row.rating)
1 Finn 3.0 4.0 0.0 1400.0
2 Ann 2.0 6.5 0.0 1900.0
3 Dan 2.0 5.0 0.0 1600.0
4 Gus 1.5 4.5 1.0 1300.0
5 Cy 1.5 4.5 0.5 1700.0
6 Eva 1.5 4.5 0.5 1500.0
7 Hal 1.5 3.5 0.0 1200.0
8 Bo 1.0 4.5 0.0 1800.0
9 Ida 1.0 4.5 0.0 1100.0
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from engine.tournaments.records import Round
from engine.tournaments.swiss import meeting_key

__all__ = ["Standing", "byes_had", "elimination_standings", "meetings", "scores",
           "swiss_standings"]


@dataclass(frozen=True)
class Standing:
    """One player's line of the standings. `head_to_head` is their points against the
    players tied with them on score and Buchholz (0 when nobody is); `out` is, in an
    elimination, the round they went out in (None: still in)."""

    player: str
    place: int
    score: float
    buchholz: float
    head_to_head: float
    rating: float
    byes: int
    out: int | None = None

    def to_json(self) -> dict[str, Any]:
        return {"player": self.player, "place": self.place, "score": self.score,
                "buchholz": self.buchholz, "head_to_head": self.head_to_head,
                "rating": self.rating, "byes": self.byes, "out": self.out}


def scores(players: Sequence[str], rounds: Sequence[Round]) -> dict[str, float]:
    """Each player's tournament score: finished tables and byes."""
    total = dict.fromkeys(players, 0.0)
    for round_ in rounds:
        for table in round_.tables:
            for player, points in table.points().items():
                total[player] += points
        for bye in round_.byes:
            total[bye.player] += bye.points
    return total


def meetings(rounds: Sequence[Round]) -> dict[tuple[str, str], int]:
    """How often each pair sat at one table (finished or not), keyed by `meeting_key`."""
    met: dict[tuple[str, str], int] = defaultdict(int)
    for round_ in rounds:
        for table in round_.tables:
            for a, b in combinations(table.players, 2):
                met[meeting_key(a, b)] += 1
    return dict(met)


def byes_had(rounds: Sequence[Round]) -> dict[str, int]:
    """How many byes (walkovers not counted: the player was paired) each player had."""
    had: dict[str, int] = defaultdict(int)
    for round_ in rounds:
        for bye in round_.byes:
            if not bye.walkover:
                had[bye.player] += 1
    return dict(had)


def _head_to_head(group: Sequence[str], rounds: Sequence[Round]) -> dict[str, float]:
    members = set(group)
    points = dict.fromkeys(group, 0.0)
    for round_ in rounds:
        for table in round_.tables:
            if table.places is None:
                continue
            here = [(p, table.places[i], p in table.forfeits)
                    for i, p in enumerate(table.players) if p in members]
            for (a, place_a, gone_a), (b, place_b, gone_b) in combinations(here, 2):
                if not gone_a and (gone_b or place_a < place_b):
                    points[a] += 1.0
                elif not gone_b and (gone_a or place_b < place_a):
                    points[b] += 1.0
                elif not gone_a and not gone_b:
                    points[a] += 0.5
                    points[b] += 0.5
    return points


def _placed(keys: Sequence[tuple[Any, ...]]) -> list[int]:
    """Competition places of rows already sorted by `keys` (equal keys share)."""
    places: list[int] = []
    for index, key in enumerate(keys):
        places.append(places[-1] if index and keys[index - 1] == key else index + 1)
    return places


def swiss_standings(players: Sequence[str], ratings: Mapping[str, float],
                    rounds: Sequence[Round]) -> list[Standing]:
    """The standings of a Swiss or round-robin tournament (see the module's doc);
    `players` in the order they joined."""
    score = scores(players, rounds)
    buchholz = dict.fromkeys(players, 0.0)
    for round_ in rounds:
        for table in round_.tables:
            if table.finished:
                for a, b in combinations(table.players, 2):
                    buchholz[a] += score[b]
                    buchholz[b] += score[a]
    tied: dict[tuple[float, float], list[str]] = defaultdict(list)
    for player in players:
        tied[(score[player], buchholz[player])].append(player)
    h2h = dict.fromkeys(players, 0.0)
    for group in tied.values():
        if len(group) > 1:
            h2h |= _head_to_head(group, rounds)
    joined = {player: index for index, player in enumerate(players)}

    def key(p: str) -> tuple[float, float, float, float]:
        return (-score[p], -buchholz[p], -h2h[p], -float(ratings[p]))

    order = sorted(players, key=lambda p: (key(p), joined[p]))
    byes = byes_had(rounds)
    return [Standing(p, place, score[p], buchholz[p], h2h[p], float(ratings[p]),
                     byes.get(p, 0))
            for p, place in zip(order, _placed([key(p) for p in order]), strict=True)]


def elimination_standings(seeded: Sequence[str], ratings: Mapping[str, float],
                          rounds: Sequence[Round],
                          out: Mapping[str, tuple[int, int | None]]) -> list[Standing]:
    """The standings of an elimination (see the module's doc): `seeded` in seed order,
    `out` the round each player went out in and their place at that table (None: they
    left the tournament)."""
    score = scores(seeded, rounds)
    byes = byes_had(rounds)
    seed = {player: index for index, player in enumerate(seeded)}

    def key(p: str) -> tuple[int, int, int]:
        if p not in out:
            return (0, 0, 0)
        gone, place = out[p]
        return (1, -gone, place if place is not None else len(seeded) + 1)

    order = sorted(seeded, key=lambda p: (key(p), seed[p]))
    return [Standing(p, place, score[p], 0.0, 0.0, float(ratings[p]), byes.get(p, 0),
                     out[p][0] if p in out else None)
            for p, place in zip(order, _placed([key(p) for p in order]), strict=True)]
