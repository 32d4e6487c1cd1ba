"""Swiss tournaments, rule by rule, and the worked example of docs/tournaments.md: nine
players over three rounds with a bye, every pairing, bye, score, tiebreak and place
computed by hand (below, and in the docs' tables) before the code was asked."""

from __future__ import annotations

import json
from typing import Any

import pytest

from engine.tournaments import Entrant, Format, Tournament, TournamentConfig, TournamentError, swiss
from engine.tournaments.swiss import bye_choices, pair_round, slide

NINE = [("Ann", 1900), ("Bo", 1800), ("Cy", 1700), ("Dan", 1600), ("Eva", 1500),
        ("Finn", 1400), ("Gus", 1300), ("Hal", 1200), ("Ida", 1100)]
WIN, DRAW, LOSS = (1, 2), (1, 1), (2, 1)  # places of a heads-up table, first player's view


def field(people: list[tuple[str, int]], **config: Any) -> Tournament:
    tournament = Tournament(TournamentConfig(**config))
    for name, rating in people:
        tournament.join(Entrant(name, name, rating))
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


def test_the_worked_example_nine_players_three_rounds_with_byes() -> None:
    t = field(NINE, rounds=3)
    t.start()
    # Round 1, by rating, slide: 1 v 5, 2 v 6, 3 v 7, 4 v 8; the lowest-rated, Ida, has the bye.
    assert pairs(t) == ([("Ann", "Eva"), ("Bo", "Finn"), ("Cy", "Gus"), ("Dan", "Hal")], ["Ida"])
    play(t, [WIN, LOSS, DRAW, WIN])
    # Scores: Ann, Dan, Finn 1, Ida 1 (the bye), Cy and Gus ½, Bo, Eva, Hal 0. Ranked by
    # score then rating: Ann Dan Finn Ida | Cy Gus | Bo Eva Hal. Hal, last and without a bye,
    # has it. Ann v Dan, Finn v Ida; Cy met Gus, so Cy takes the next one down, Bo; Gus v Eva.
    t.next_round()
    assert pairs(t) == ([("Ann", "Dan"), ("Finn", "Ida"), ("Cy", "Bo"), ("Gus", "Eva")], ["Hal"])

    # Saved and restored mid-round (the bot's restart): the same tournament goes on.
    t = Tournament.from_json(json.loads(json.dumps(t.to_json())))
    play(t, [WIN, WIN, WIN, DRAW])
    # Scores: Ann 2, Finn 2, Cy 1½, Dan 1, Gus 1, Hal 1, Ida 1, Eva ½, Bo 0. Ranked:
    # Ann Finn | Cy | Dan Gus Hal Ida | Eva | Bo. Bo, last and without a bye, has it.
    t.next_round()
    assert pairs(t) == ([("Ann", "Finn"), ("Cy", "Dan"), ("Gus", "Hal"), ("Ida", "Eva")], ["Bo"])
    play(t, [LOSS, LOSS, DRAW, LOSS])
    assert t.next_round() is None and t.status == "over"

    rows = [(s.place, s.player, s.score, s.buchholz, s.head_to_head) for s in t.standings()]
    assert rows == [
        (1, "Finn", 3.0, 4.0, 0.0),   # Bo 1 + Ida 1 + Ann 2
        (2, "Ann", 2.0, 6.5, 0.0),    # Eva 1½ + Dan 2 + Finn 3: Buchholz before Dan
        (3, "Dan", 2.0, 5.0, 0.0),    # Hal 1½ + Ann 2 + Cy 1½
        # Gus, Cy, Eva: 1½ and Buchholz 4½ each; among them Gus drew Cy and Eva (1),
        # Cy and Eva never met (½ each): Gus, then Cy before Eva by rating.
        (4, "Gus", 1.5, 4.5, 1.0),
        (5, "Cy", 1.5, 4.5, 0.5),
        (6, "Eva", 1.5, 4.5, 0.5),
        (7, "Hal", 1.5, 3.5, 0.0),    # Dan 2 + Gus 1½ (and a bye, which adds nothing)
        # Bo and Ida: 1 and Buchholz 4½ each, never met: Bo by rating.
        (8, "Bo", 1.0, 4.5, 0.0),
        (9, "Ida", 1.0, 4.5, 0.0),
    ]
    assert [s.byes for s in t.standings() if s.byes] == [1, 1, 1]


def test_round_one_slides_by_rating_whatever_the_order_they_joined() -> None:
    t = field([("Dan", 1600), ("Ann", 1900), ("Cy", 1700), ("Bo", 1800)])
    t.start()
    assert pairs(t) == ([("Ann", "Cy"), ("Bo", "Dan")], [])
    assert t.planned_rounds == 2  # ceil(log2(4))


def test_ratings_given_at_the_start_replace_those_given_at_sign_up() -> None:
    t = field([("Ann", 1000), ("Bo", 1000), ("Cy", 1000), ("Dan", 1000)])
    t.start({"Dan": 2000, "Cy": 1500})
    assert t.seeded == ("Dan", "Cy", "Ann", "Bo")  # equal ratings keep the sign-up order
    assert pairs(t) == ([("Dan", "Ann"), ("Cy", "Bo")], [])


def test_later_rounds_pair_by_score_then_rating_avoiding_repeats() -> None:
    met = {("A", "B"): 1, ("C", "D"): 1, ("A", "C"): 1}
    # A cannot meet B or C: A v D, then B v C.
    assert pair_round(["A", "B", "C", "D"], met, {}, seats=2) == ([("A", "D"), ("B", "C")], [])
    # A's first choice, B, would leave C and D, who met: the search goes back, and C is
    # no better (A met C), so A v D.
    met = {("C", "D"): 1, ("A", "C"): 1}
    assert pair_round(["A", "B", "C", "D"], met, {}, seats=2)[0] == [("A", "D"), ("B", "C")]
    # At tables of three: A's table skips B, whom A met.
    met = {("A", "B"): 1}
    assert pair_round(list("ABCDEF"), met, {}, seats=3)[0] == [
        ("A", "C", "D"), ("B", "E", "F")]


def test_a_repeat_only_when_nothing_avoids_it_and_then_the_fewest() -> None:
    everyone = {("A", "B"): 1, ("A", "C"): 1, ("A", "D"): 1, ("B", "C"): 1, ("B", "D"): 1,
                ("C", "D"): 1}
    assert pair_round(["A", "B", "C", "D"], everyone, {}, seats=2)[0] == [("A", "B"), ("C", "D")]
    everyone[("A", "B")] = 2  # a third meeting is worse than a second
    assert pair_round(["A", "B", "C", "D"], everyone, {}, seats=2)[0] == [("A", "C"), ("B", "D")]


def test_the_bye_goes_to_the_lowest_ranked_without_one_and_never_twice_while_avoidable() -> None:
    assert bye_choices(["A", "B", "C"], {}, 1) == [("C",), ("B",), ("A",)]
    assert bye_choices(["A", "B", "C"], {"C": 1}, 1) == [("B",), ("A",)]
    assert bye_choices(["A", "B", "C"], {"A": 1, "B": 1, "C": 1}, 1)[0] == ("C",)
    # B's bye would leave A and C, who met: the next entitled, A, has it instead.
    assert pair_round(["A", "B", "C"], {("A", "C"): 1}, {"C": 1}, seats=2) == (
        [("B", "C")], ["A"])


def test_the_bye_scores_a_win_and_is_not_a_meeting() -> None:
    t = field(NINE[:3], rounds=3)
    t.start()
    assert t.scores()["Cy"] == 1.0
    play(t, [DRAW])
    t.next_round()
    # Cy 1 with the bye, Ann and Bo ½: Bo, the lowest-ranked without a bye, has it.
    assert pairs(t) == ([("Cy", "Ann")], ["Bo"])


def test_tables_of_several_slide_in_round_one_and_group_by_standing_after() -> None:
    t = field(NINE, seats=4, rounds=2)
    t.start()
    # Nine at tables of four: three tables of three, no bye; one from each band at each.
    assert pairs(t) == ([("Ann", "Dan", "Gus"), ("Bo", "Eva", "Hal"), ("Cy", "Finn", "Ida")], [])
    play(t, [(1, 2, 3), (3, 2, 1), (2, 1, 1)])
    scores = t.scores()
    assert [scores[p] for p in ("Ann", "Dan", "Gus")] == [2.0, 1.0, 0.0]
    assert [scores[p] for p in ("Finn", "Ida", "Cy")] == [1.5, 1.5, 0.0]
    t.next_round()
    # Ranked: Ann 2, Hal 2 | Finn 1½, Ida 1½ | Dan 1, Eva 1 | Bo, Cy, Gus 0 (by rating).
    # Tables of the ranking in order, three by three (none of them met at round 1).
    assert pairs(t) == ([("Ann", "Hal", "Finn"), ("Ida", "Dan", "Eva"), ("Bo", "Cy", "Gus")], [])


def test_a_minimum_table_size_gives_byes_to_those_left_over() -> None:
    t = field(NINE[:7], seats=3, min_table=3)
    t.start()
    assert pairs(t) == ([("Ann", "Cy", "Eva"), ("Bo", "Dan", "Finn")], ["Gus"])
    assert t.scores()["Gus"] == 2.0  # a win at a full table of three


def test_swiss_is_the_default_and_runs_its_rounds() -> None:
    t = field(NINE[:2])
    assert t.config.format is Format.SWISS
    t.start()
    assert t.planned_rounds == 1
    play(t, [WIN])
    assert t.next_round() is None
    assert [s.player for s in t.standings()] == ["Ann", "Bo"]


def test_a_field_too_small_for_another_round_is_told_to_end() -> None:
    t = field(NINE[:3], rounds=3)
    t.start()
    play(t, [WIN])
    t.drop("Bo")
    t.drop("Cy")
    with pytest.raises(TournamentError, match="end the tournament"):
        t.next_round()


def test_slide_deals_the_extra_players_to_the_first_tables() -> None:
    assert slide(list("ABCDE"), (3, 2)) == [("A", "C", "E"), ("B", "D")]


def test_a_search_that_would_take_too_long_settles_for_the_greedy_seating(
        monkeypatch: pytest.MonkeyPatch) -> None:
    met = {("C", "D"): 1, ("A", "C"): 1}
    assert pair_round(["A", "B", "C", "D"], met, {}, seats=2)[0] == [("A", "D"), ("B", "C")]
    monkeypatch.setattr(swiss, "SEARCH_LIMIT", 1)
    # Greedy: A takes the first one A has not met, B; C and D are left, a repeat.
    assert pair_round(["A", "B", "C", "D"], met, {}, seats=2)[0] == [("A", "B"), ("C", "D")]
