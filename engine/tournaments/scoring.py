"""Points for a table's finishing places: the tournament's one scoring rule.

**A point for every player you finish ahead of at your table, half a point for every player
you tie with.** A table of k players is scored as if it were k(k-1)/2 heads-up games, so a
heads-up table is the chess score (win 1, draw ½, loss 0), and the points of each place are:

| table | 1st | 2nd | 3rd | 4th | 5th | 6th |
|---|---|---|---|---|---|---|
| 2 | 1 | 0 | | | | |
| 3 | 2 | 1 | 0 | | | |
| 4 | 3 | 2 | 1 | 0 | | |
| 5 | 4 | 3 | 2 | 1 | 0 | |
| 6 | 5 | 4 | 3 | 2 | 1 | 0 |

(a table of k: place p scores k − p). Players who tie share the points of the places they
cover: two sharing 2nd at a table of four score (2 + 1) / 2 = 1½ each. Every score is a whole
or half number, so sums are exact.

- **Places** are a game's own finishing order (`GameResult.places`, 1 best, equal places
  shared). A chip game places by net chips at the end of its fixed deals: more is better and
  equal nets share (`places_by_chips`).
- **A forfeit** scores nothing, even against another forfeit, and counts as finishing behind
  everyone who did not forfeit; those left are placed by their game among themselves.
- **A bye** in a Swiss tournament scores a win at a full table (`win_points(seats)`: 1 at
  heads-up); a walkover (an opponent who left) scores the same; in a round robin, where
  everyone sits out once when the field is odd, the bye scores nothing.

>>> table_points((1, 2, 2, 4))
(3.0, 1.5, 1.5, 0.0)
>>> table_points((2, 1, 3), forfeited=(False, False, True))
(1.0, 2.0, 0.0)
>>> places_by_chips([-40, 25, 15, 0])
(4, 1, 2, 3)
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.result import places_from_scores

__all__ = ["effective_places", "places_by_chips", "ranked", "table_points", "win_points"]


def ranked(places: Sequence[int]) -> tuple[int, ...]:
    """Competition ranking (1, 2, 2, 4) of places where lower is better, whatever numbers
    they were given as: a game's places with a gap or a shared place read the same."""
    values = [int(place) for place in places]
    return tuple(1 + sum(other < value for other in values) for value in values)


def places_by_chips(nets: Sequence[int]) -> tuple[int, ...]:
    """A chip game's places: by net chips at the end of its deals, equal nets sharing."""
    return places_from_scores(nets)


def effective_places(places: Sequence[int], forfeited: Sequence[bool]) -> tuple[int, ...]:
    """The places a table is scored by: those who played ranked by their game among
    themselves, every forfeit sharing the place after them."""
    playing = [place for place, gone in zip(places, forfeited, strict=True) if not gone]
    last = len(playing) + 1
    return tuple(last if gone else 1 + sum(other < place for other in playing)
                 for place, gone in zip(places, forfeited, strict=True))


def table_points(places: Sequence[int],
                 forfeited: Sequence[bool] | None = None) -> tuple[float, ...]:
    """Each seat's points (see the module's doc): one for each player finished ahead of, a
    half for each tie, none for a forfeit."""
    gone = list(forfeited) if forfeited is not None else [False] * len(places)
    order = effective_places(ranked(places), gone)
    points: list[float] = []
    for seat, place in enumerate(order):
        if gone[seat]:
            points.append(0.0)
            continue
        points.append(sum(1.0 if place < other else 0.5 if place == other else 0.0
                          for index, other in enumerate(order) if index != seat))
    return tuple(points)


def win_points(seats: int) -> float:
    """First place at a full table: what a bye or a walkover scores."""
    return float(seats - 1)
