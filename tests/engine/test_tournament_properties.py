"""Tournament invariants over random fields, results, drops and forfeits (hypothesis):

- every active player is at exactly one table, or has a bye, every round; nobody who left is;
- Swiss tables hold `min_table` to `seats` players, sizes at most one apart;
- no repeat pairing while one is avoidable: each Swiss round has the fewest repeat meetings
  of any seating the bye rule allows (checked against every seating, by brute force);
- a bye never goes to a player with more byes than someone seated that round;
- a round robin meets every pair exactly once, an elimination ends with one champion;
- the saved form reads back to the same state, which pairs the same next round.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.tournaments import Entrant, Format, Tournament, TournamentConfig
from engine.tournaments.formats import table_sizes
from engine.tournaments.records import Round
from engine.tournaments.standings import byes_had, meetings
from engine.tournaments.swiss import meeting_key


def seatings(players: Sequence[str], sizes: Sequence[int]) -> Iterator[list[tuple[str, ...]]]:
    """Every way to seat `players` at tables of `sizes` (tables unordered)."""
    if not players:
        yield []
        return
    top, rest = players[0], players[1:]
    for size in set(sizes):
        left = list(sizes)
        left.remove(size)
        for chosen in combinations(range(len(rest)), size - 1):
            table = (top, *(rest[i] for i in chosen))
            others = [p for i, p in enumerate(rest) if i not in chosen]
            for tail in seatings(others, left):
                yield [table, *tail]


def repeats(tables: Sequence[Sequence[str]], met: dict[tuple[str, str], int]) -> int:
    return sum(met.get(meeting_key(a, b), 0) for t in tables for a, b in combinations(t, 2))


def fewest_repeats(active: list[str], rounds: list[Round], seats: int, least: int) -> int:
    """The fewest repeat meetings of any seating of `active` whose byes go to players with
    no more byes than anyone seated."""
    met, had = meetings(rounds), byes_had(rounds)
    sizes, count = table_sizes(len(active), seats, least)
    best: int | None = None
    for byes in combinations(active, count):
        seated = [p for p in active if p not in byes]
        if byes and seated and max(had.get(p, 0) for p in byes) > min(
                had.get(p, 0) for p in seated):
            continue
        for tables in seatings(seated, sizes):
            cost = repeats(tables, met)
            best = cost if best is None else min(best, cost)
    assert best is not None
    return best


def entrants(count: int) -> list[Entrant]:
    # Ratings with ties, so the order of joining matters too.
    return [Entrant(f"p{i}", f"Player {i}", float(1000 + 100 * (i % 4))) for i in range(count)]


def check_round(t: Tournament, current: Round) -> None:
    seated = [p for table in current.tables for p in table.players]
    everyone = seated + [bye.player for bye in current.byes]
    assert len(everyone) == len(set(everyone))
    assert all(t.entrants[p].active for p in everyone)
    if t.config.format is not Format.ELIMINATION:
        assert set(everyone) == set(t.active_players())


def play_round(t: Tournament, data: st.DataObject) -> None:
    """Random results, with now and then a forfeit or a player leaving."""
    current = t.current_round
    assert current is not None
    for table in current.tables:
        if data.draw(st.integers(0, 9)) == 0:
            t.forfeit(data.draw(st.sampled_from(table.players)))
            if t.current_round is not None and t.current_round.tables[table.number - 1].finished:
                continue
        size = len(table.players)
        places = data.draw(st.lists(st.integers(1, size), min_size=size, max_size=size))
        t.record_result(table.number, places)
    active = t.active_players()
    if len(active) > 2 and data.draw(st.integers(0, 5)) == 0:
        t.drop(data.draw(st.sampled_from(active)))


def round_trip(t: Tournament) -> Tournament:
    again = Tournament.from_json(json.loads(json.dumps(t.to_json())))
    assert again.to_json() == t.to_json()
    return again


@settings(max_examples=120, deadline=None)
@given(st.data(), st.integers(2, 4), st.integers(1, 6))
def test_swiss_rounds(data: st.DataObject, seats: int, rounds: int) -> None:
    least = data.draw(st.integers(2, seats))
    count = data.draw(st.integers(least, 9))
    t = Tournament(TournamentConfig(Format.SWISS, seats=seats, min_table=least, rounds=rounds),
                   entrants(count))
    t.start()
    while True:
        current = t.current_round
        assert current is not None
        check_round(t, current)
        sizes = [len(table.players) for table in current.tables]
        assert all(least <= size <= seats for size in sizes)
        assert not sizes or max(sizes) - min(sizes) <= 1
        before = t.rounds[:-1]
        if before:
            active = t.active_players()
            got = repeats([table.players for table in current.tables], meetings(before))
            assert got == fewest_repeats(active, before, seats, least)
            had = byes_had(before)
            seated = [p for table in current.tables for p in table.players]
            for bye in current.byes:
                assert all(had.get(bye.player, 0) <= had.get(p, 0) for p in seated)
        play_round(t, data)
        if len(t.active_players()) < least and t.round_number < (t.planned_rounds or 0):
            t.end()
            break
        again = round_trip(t)
        following = t.next_round()
        assert again.next_round() == following
        if following is None:
            break
    assert t.status == "over"
    assert sorted(s.player for s in t.standings()) == sorted(t.entrants)


@settings(max_examples=60, deadline=None)
@given(st.data(), st.integers(2, 10))
def test_round_robin_meets_everyone_once(data: st.DataObject, count: int) -> None:
    t = Tournament(TournamentConfig(Format.ROUND_ROBIN), entrants(count))
    t.start()
    while True:
        current = t.current_round
        assert current is not None
        check_round(t, current)
        for table in current.tables:
            size = len(table.players)
            t.record_result(table.number, data.draw(
                st.lists(st.integers(1, size), min_size=size, max_size=size)))
        following = round_trip(t).next_round()
        assert t.next_round() == following
        if following is None:
            break
    met = meetings(t.rounds)
    assert len(met) == count * (count - 1) // 2 and set(met.values()) == {1}
    assert all(n == 1 for n in byes_had(t.rounds).values())
    assert len(byes_had(t.rounds)) == (count if count % 2 else 0)


@settings(max_examples=80, deadline=None)
@given(st.data(), st.integers(2, 12), st.integers(2, 4))
def test_elimination_ends_with_one_champion(data: st.DataObject, count: int,
                                            seats: int) -> None:
    t = Tournament(TournamentConfig(Format.ELIMINATION, seats=seats), entrants(count))
    t.start()
    still_in = set(t.entrants)
    while True:
        current = t.current_round
        assert current is not None
        check_round(t, current)
        here = {p for table in current.tables for p in table.players}
        here |= {bye.player for bye in current.byes}
        assert here <= still_in
        still_in = here
        assert t.round_number <= count
        play_round(t, data)
        following = round_trip(t).next_round()
        assert t.next_round() == following
        if following is None:
            break
    standings = t.standings()
    assert sorted(s.player for s in standings) == sorted(t.entrants)
    if seats == 2 and any(t.entrants[p].active for p in still_in):
        assert [s.place for s in standings].count(1) == 1  # a bracket's final has a winner
    if seats == 2 and all(e.active for e in t.entrants.values()):
        assert t.round_number == t.planned_rounds
