"""Round robin by the circle method, computed by hand: four players, an odd field's bye
seat, and a walkover when a player has left."""

from __future__ import annotations

from itertools import combinations

from engine.tournaments import Entrant, Format, Tournament, TournamentConfig
from engine.tournaments.round_robin import round_count, schedule
from engine.tournaments.standings import meetings

FOUR = [("Ann", 1900), ("Bo", 1800), ("Cy", 1700), ("Dan", 1600)]
WIN, DRAW, LOSS = (1, 2), (1, 1), (2, 1)


def league(people: list[tuple[str, int]]) -> Tournament:
    tournament = Tournament(TournamentConfig(Format.ROUND_ROBIN))
    for name, rating in people:
        tournament.join(Entrant(name, name, rating))
    tournament.start()
    return tournament


def pairs(tournament: Tournament) -> tuple[list[tuple[str, ...]], list[tuple[str, float]]]:
    current = tournament.current_round
    assert current is not None
    return [t.players for t in current.tables], [(b.player, b.points) for b in current.byes]


def play(tournament: Tournament, results: list[tuple[int, int]]) -> None:
    current = tournament.current_round
    assert current is not None
    for table, places in zip(current.tables, results, strict=True):
        tournament.record_result(table.number, list(places))


def test_a_round_robin_of_four() -> None:
    t = league(FOUR)
    assert t.planned_rounds == 3
    assert pairs(t) == ([("Ann", "Dan"), ("Bo", "Cy")], [])
    play(t, [WIN, DRAW])
    t.next_round()
    assert pairs(t) == ([("Ann", "Cy"), ("Dan", "Bo")], [])
    play(t, [LOSS, WIN])
    t.next_round()
    assert pairs(t) == ([("Ann", "Bo"), ("Cy", "Dan")], [])
    play(t, [WIN, DRAW])
    assert t.next_round() is None
    # Ann 2, Cy 2, Dan 1½, Bo ½. Everyone met everyone, so Buchholz is the 6 points played
    # for less one's own: Ann and Cy 4 each; Cy beat Ann, so Cy first.
    rows = [(s.place, s.player, s.score, s.buchholz, s.head_to_head) for s in t.standings()]
    assert rows == [(1, "Cy", 2.0, 4.0, 1.0), (2, "Ann", 2.0, 4.0, 0.0),
                    (3, "Dan", 1.5, 4.5, 0.0), (4, "Bo", 0.5, 5.5, 0.0)]
    assert set(meetings(t.rounds).values()) == {1} and len(meetings(t.rounds)) == 6


def test_an_odd_field_has_a_bye_seat_that_scores_nothing() -> None:
    five = [*FOUR, ("Eva", 1500)]
    assert round_count(5) == 5
    t = league(five)
    assert pairs(t) == ([("Bo", "Eva"), ("Cy", "Dan")], [("Ann", 0.0)])
    sitting_out = []
    for _ in range(5):
        current = t.current_round
        assert current is not None
        sitting_out += [bye.player for bye in current.byes]
        play(t, [WIN] * len(current.tables))
        t.next_round()
    assert t.status == "over" and sorted(sitting_out) == sorted(p for p, _ in five)
    assert set(meetings(t.rounds).values()) == {1} and len(meetings(t.rounds)) == 10


def test_a_player_who_left_gives_each_later_opponent_a_walkover() -> None:
    t = league(FOUR)
    play(t, [WIN, WIN])
    t.drop("Dan")
    t.next_round()
    assert pairs(t) == ([("Ann", "Cy")], [("Bo", 1.0)])  # Bo's opponent was Dan
    current = t.current_round
    assert current is not None and current.byes[0].walkover


def test_the_circle_meets_everyone_once_for_any_field() -> None:
    for size in range(2, 13):
        players = [f"p{i}" for i in range(size)]
        rounds = schedule(players)
        assert len(rounds) == round_count(size)
        met = [frozenset(pair) for pairs in rounds for pair in pairs if None not in pair]
        assert sorted(met, key=sorted) == sorted(
            (frozenset(pair) for pair in combinations(players, 2)), key=sorted)
        for pairs in rounds:
            seated = [p for pair in pairs for p in pair if p is not None]
            assert sorted(seated) == sorted(set(seated))
