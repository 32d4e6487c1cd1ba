"""Single elimination, computed by hand: a bracket of eight, byes for the top seeds, draws,
walkovers, and the top finishers going on at tables of four."""

from __future__ import annotations

from engine.tournaments import Entrant, Format, Tournament, TournamentConfig
from engine.tournaments.elimination import advancing_count, bracket_order, first_bracket

EIGHT = [("Ann", 1900), ("Bo", 1800), ("Cy", 1700), ("Dan", 1600), ("Eva", 1500),
         ("Finn", 1400), ("Gus", 1300), ("Hal", 1200)]
WIN, DRAW, LOSS = (1, 2), (1, 1), (2, 1)


def knockout(people: list[tuple[str, int]], seats: int = 2) -> Tournament:
    tournament = Tournament(TournamentConfig(Format.ELIMINATION, seats=seats))
    for name, rating in people:
        tournament.join(Entrant(name, name, rating))
    tournament.start()
    return tournament


def pairs(tournament: Tournament) -> tuple[list[tuple[str, ...]], list[str]]:
    current = tournament.current_round
    assert current is not None
    return [t.players for t in current.tables], [b.player for b in current.byes]


def play(tournament: Tournament, results: list[tuple[int, ...]]) -> None:
    current = tournament.current_round
    assert current is not None
    for table, places in zip(current.tables, results, strict=True):
        tournament.record_result(table.number, list(places))


def places(tournament: Tournament) -> list[tuple[int, str]]:
    return [(s.place, s.player) for s in tournament.standings()]


def test_the_standard_bracket_order() -> None:
    assert bracket_order(2) == [1, 2]
    assert bracket_order(4) == [1, 4, 2, 3]
    assert bracket_order(16) == [1, 16, 8, 9, 4, 13, 5, 12, 2, 15, 7, 10, 3, 14, 6, 11]


def test_a_bracket_of_eight_to_its_champion() -> None:
    t = knockout(EIGHT)
    assert t.planned_rounds == 3
    # 1 v 8, 4 v 5, 2 v 7, 3 v 6.
    assert pairs(t) == ([("Ann", "Hal"), ("Dan", "Eva"), ("Bo", "Gus"), ("Cy", "Finn")], [])
    play(t, [WIN, LOSS, WIN, LOSS])
    # The losers of round 1 are out once it is over, before the next round is paired.
    assert places(t)[4:] == [(5, "Cy"), (5, "Dan"), (5, "Gus"), (5, "Hal")]
    t.next_round()
    assert pairs(t) == ([("Ann", "Eva"), ("Bo", "Finn")], [])  # winners keep their half
    play(t, [WIN, LOSS])
    t.next_round()
    assert pairs(t) == ([("Ann", "Finn")], [])
    play(t, [LOSS])
    assert t.next_round() is None and t.status == "over"
    # The champion, the finalist, the semi-finalists sharing third, the first round's losers
    # sharing fifth (each group in seed order).
    assert places(t) == [(1, "Finn"), (2, "Ann"), (3, "Bo"), (3, "Eva"), (5, "Cy"),
                         (5, "Dan"), (5, "Gus"), (5, "Hal")]
    assert [s.out for s in t.standings()] == [None, 3, 2, 2, 1, 1, 1, 1]


def test_byes_go_to_the_top_seeds_and_a_draw_to_the_better_seed() -> None:
    t = knockout(EIGHT[:6])
    assert first_bracket([p for p, _ in EIGHT[:6]]) == (
        "Ann", None, "Dan", "Eva", "Bo", None, "Cy", "Finn")
    assert pairs(t) == ([("Dan", "Eva"), ("Cy", "Finn")], ["Ann", "Bo"])
    current = t.current_round
    assert current is not None and not any(bye.walkover for bye in current.byes)
    play(t, [DRAW, LOSS])
    t.next_round()
    assert pairs(t) == ([("Ann", "Dan"), ("Bo", "Finn")], [])


def test_a_player_who_leaves_gives_a_walkover_and_goes_out_behind_that_rounds_losers() -> None:
    t = knockout(EIGHT[:4])
    assert pairs(t) == ([("Ann", "Dan"), ("Bo", "Cy")], [])
    play(t, [WIN, WIN])
    t.drop("Ann")
    t.next_round()
    current = t.current_round
    assert current is not None
    assert current.tables == () and [(b.player, b.walkover) for b in current.byes] == [
        ("Bo", True)]
    assert t.next_round() is None
    assert places(t) == [(1, "Bo"), (2, "Ann"), (3, "Cy"), (3, "Dan")]


def test_at_tables_of_four_the_top_half_goes_on_to_a_final_table() -> None:
    t = knockout(EIGHT, seats=4)
    assert t.planned_rounds is None
    assert pairs(t) == ([("Ann", "Cy", "Eva", "Gus"), ("Bo", "Dan", "Finn", "Hal")], [])
    # Cy and Ann go on; Dan and Finn tie for second: Dan, the better seed, goes on.
    play(t, [(2, 1, 3, 4), (1, 2, 2, 4)])
    t.next_round()
    assert pairs(t) == ([("Ann", "Bo", "Cy", "Dan")], [])
    play(t, [(3, 1, 2, 4)])
    assert t.next_round() is None
    assert places(t) == [(1, "Bo"), (2, "Cy"), (3, "Ann"), (4, "Dan"), (5, "Eva"), (5, "Finn"),
                         (7, "Gus"), (7, "Hal")]


def test_how_many_go_on_from_a_table() -> None:
    assert [advancing_count(size, None) for size in (2, 3, 4, 5, 6)] == [1, 1, 2, 2, 3]
    assert advancing_count(3, 2) == 2 and advancing_count(2, 3) == 1
