"""The organiser's steps and results as pure operations: what each does, and that each
refused step says why in a catalogue sentence and changes nothing."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from engine.game import IllegalAction
from engine.i18n import Msg
from engine.tournaments import (
    Entrant,
    Format,
    Tournament,
    TournamentConfig,
    TournamentError,
    places_by_chips,
    table_points,
)

SIX = [("Ann", 1900), ("Bo", 1800), ("Cy", 1700), ("Dan", 1600), ("Eva", 1500), ("Finn", 1400)]


def field(people: list[tuple[str, int]], start: bool = True, **config: Any) -> Tournament:
    tournament = Tournament(TournamentConfig(**config))
    for name, rating in people:
        tournament.join(Entrant(name, name, rating))
    if start:
        tournament.start()
    return tournament


def refused(tournament: Tournament, step: Callable[[], object], words: str) -> None:
    """The step raises a friendly TournamentError naming `words`, and changes nothing."""
    before = json.dumps(tournament.to_json())
    with pytest.raises(TournamentError, match=words) as caught:
        step()
    assert isinstance(caught.value.args[0], Msg)
    assert isinstance(caught.value, IllegalAction)  # the bot shows it like a game's refusal
    assert json.dumps(tournament.to_json()) == before


def test_sign_up_and_its_refusals() -> None:
    t = field(SIX[:1], start=False)
    refused(t, lambda: t.join(Entrant("Ann", "Ann", 1)), "Ann has already joined")
    refused(t, lambda: t.leave("Zed"), "not in the tournament")
    refused(t, t.start, "at least 2 players")
    for step in (t.next_round, t.pause, lambda: t.record_result(1, [1, 2]),
                 lambda: t.forfeit("Ann"), lambda: t.replace_by_ai("Ann")):
        refused(t, step, "has not started")
    t.join(Entrant("Bo", "Bo", 1800))
    t.drop("Bo")  # before the start, dropping is leaving
    assert list(t.entrants) == ["Ann"]
    t.join(Entrant("Bo", "Bo", 1800))
    t.start()
    refused(t, lambda: t.join(Entrant("Cy", "Cy", 1)), "already started")
    refused(t, t.start, "already started")


def test_config_refusals() -> None:
    for config, words in [({"seats": 1}, "at least two seats"),
                          ({"seats": 4, "min_table": 5}, "smallest table"),
                          ({"format": Format.ROUND_ROBIN, "seats": 3}, "tables of two"),
                          ({"rounds": 0}, "at least one round"),
                          ({"seats": 4, "advance": 4}, "go on to the next round")]:
        with pytest.raises(TournamentError, match=words):
            TournamentConfig(**config)
    assert TournamentConfig.from_json(TournamentConfig(Format.ELIMINATION, 4, 3, None, 1)
                                      .to_json()) == TournamentConfig(Format.ELIMINATION, 4, 3,
                                                                      None, 1)


def test_results_are_checked_and_recorded_once() -> None:
    t = field(SIX)
    refused(t, lambda: t.record_result(4, [1, 2]), "no table 4")
    refused(t, lambda: t.record_result(1, [1]), "each of the 2 players")
    refused(t, lambda: t.record_result(1, [0, 1]), "from 1")
    refused(t, lambda: t.record_result(1, [True, 2]), "from 1")
    assert t.record_result(1, [5, 9]).places == (1, 2)  # any numbers, read as a ranking
    refused(t, lambda: t.record_result(1, [1, 2]), "already has its result")
    refused(t, t.next_round, "Table 2 of round 1 is still being played")


def test_a_forfeit_at_heads_up_gives_the_table_to_the_opponent() -> None:
    t = field(SIX)
    table = t.forfeit("Ann")  # Ann v Dan
    assert table.finished and table.places == (2, 1) and table.points() == {"Ann": 0.0,
                                                                           "Dan": 1.0}
    refused(t, lambda: t.forfeit("Ann"), "table Ann plays at already has its result")
    refused(t, lambda: t.forfeit("Zed"), "not in the tournament")


def test_a_forfeit_at_a_bigger_table_places_them_last_when_the_game_ends() -> None:
    t = field(SIX, seats=3)  # (Ann, Cy, Eva), (Bo, Dan, Finn)
    table = t.forfeit("Cy")
    assert not table.finished
    refused(t, lambda: t.forfeit("Cy"), "Cy has already forfeited")
    # The game says Cy first, Eva second, Ann third: Cy forfeited, so Eva wins, Ann second.
    result = t.record_result(1, [3, 1, 2])
    assert result.places == (2, 3, 1) and result.points() == {"Ann": 1.0, "Cy": 0.0,
                                                              "Eva": 2.0}
    t.forfeit("Bo")
    both = t.forfeit("Dan")  # one player left: the table is over, won by Finn
    assert both.places == (2, 2, 1) and both.points() == {"Bo": 0.0, "Dan": 0.0, "Finn": 2.0}


def test_a_forfeit_needs_a_table_of_this_round() -> None:
    t = field(SIX[:3])  # Cy has the bye
    refused(t, lambda: t.forfeit("Cy"), "Cy has no table in this round")


def test_a_dropped_player_is_never_paired_again_and_keeps_their_score() -> None:
    t = field(SIX, rounds=3)
    t.record_result(1, [1, 2])  # Ann beats Dan
    t.drop("Ann")
    refused(t, lambda: t.drop("Ann"), "Ann has already left")
    refused(t, lambda: t.replace_by_ai("Ann"), "Ann has already left")
    assert t.entrants["Ann"].dropped_after == 1
    t.record_result(2, [1, 2])
    t.record_result(3, [1, 2])
    t.next_round()
    current = t.current_round
    assert current is not None
    assert "Ann" not in [p for table in current.tables for p in table.players]
    assert [b.player for b in current.byes] == ["Finn"]  # five left: the lowest has the bye
    assert t.scores()["Ann"] == 1.0 and "Ann" in [s.player for s in t.standings()]


def test_an_ai_takes_over_a_seat_and_plays_on() -> None:
    t = field(SIX, rounds=2)
    t.replace_by_ai("Bo")
    assert t.entrants["Bo"].ai and t.entrants["Bo"].active
    refused(t, lambda: t.replace_by_ai("Bo"), "Bo is already played by the AI")
    for table in (1, 2, 3):
        t.record_result(table, [1, 2])
    t.next_round()
    assert t.table_of("Bo") is not None


def test_pause_holds_the_next_round_but_not_the_results() -> None:
    t = field(SIX, rounds=2)
    refused(t, t.resume, "not paused")
    t.pause()
    refused(t, t.pause, "already paused")
    for table in (1, 2, 3):
        t.record_result(table, [1, 2])
    assert not t.can_advance
    refused(t, t.next_round, "paused")
    t.resume()
    assert t.can_advance and t.next_round() is not None


def test_ending_early_counts_the_finished_tables_only() -> None:
    t = field(SIX)
    t.record_result(1, [1, 2])
    t.end()
    assert t.status == "over" and t.ended
    assert t.standings()[0].player == "Ann" and t.standings()[0].score == 1.0
    for step in (t.end, t.next_round, t.pause, lambda: t.record_result(2, [1, 2]),
                 lambda: t.drop("Bo")):
        refused(t, step, "is over")


def test_every_step_is_in_the_log() -> None:
    t = field(SIX[:4], rounds=2)
    t.pause(by="organiser")
    t.resume()
    t.forfeit("Ann")
    t.record_result(2, [2, 1])
    t.replace_by_ai("Bo")
    t.next_round()
    t.drop("Cy")
    t.end()
    assert [(line["action"], line["round"]) for line in t.log] == [
        ("join", 0), ("join", 0), ("join", 0), ("join", 0), ("start", 0), ("round", 1),
        ("pause", 1), ("resume", 1), ("forfeit", 1), ("result", 1), ("ai", 1), ("round", 2),
        ("drop", 2), ("end", 2)]
    assert t.log[6] == {"action": "pause", "round": 1, "by": "organiser"}
    assert t.log[8] == {"action": "forfeit", "round": 1, "player": "Ann", "table": 1}


def test_the_saved_form_is_versioned() -> None:
    t = field(SIX)
    saved = json.loads(json.dumps(t.to_json()))
    assert saved["version"] == 1
    assert Tournament.from_json(saved).to_json() == t.to_json()
    with pytest.raises(ValueError, match="format 2"):
        Tournament.from_json({**saved, "version": 2})


def test_scoring_by_place_chips_and_ties() -> None:
    assert table_points((1, 2)) == (1.0, 0.0)
    assert table_points((1, 1)) == (0.5, 0.5)
    assert table_points((1, 2, 3, 4)) == (3.0, 2.0, 1.0, 0.0)
    assert table_points((2, 1, 2, 4)) == (1.5, 3.0, 1.5, 0.0)
    assert table_points((1, 1, 1)) == (1.0, 1.0, 1.0)
    assert table_points((1, 1), forfeited=(True, True)) == (0.0, 0.0)
    assert places_by_chips([10, -20, 10]) == (1, 3, 1)
    assert sum(table_points(places_by_chips([5, 0, -5, 0, 0]))) == 10  # 5 × 4 / 2 points
