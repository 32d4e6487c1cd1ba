"""Sealed declarations, one mechanism for every game that has them (issue 23, rule 3):
Sppoker's clocks (the whole table's, and the last person's, told privately, AI seats counting
as declared) and its rule that a declaration left to the clock loses the hand, the same code
in Sppoker, Hold'em Sppoker, Spew, Old Man 49er and Zero to 55."""

from __future__ import annotations

import random

import pytest

from engine.declaring import SealedDeclarations
from engine.game import TIMEOUT, Action, Game
from engine.games import GAMES
from tests.support.play import extras, names

DECLARING = ("sppoker", "holdem_sppoker", "spew", "old_man_49er", "zero_to_55")
MECHANISM = ("_last_person", "_last_call", "_last_call_events", "_declaring_timers",
             "_declaration_timeout", "_awaited_declarers", "_declared_nothing")


@pytest.mark.parametrize("kind", DECLARING)
def test_every_game_with_declarations_uses_the_one_mechanism(kind: str) -> None:
    cls = GAMES[kind]
    assert issubclass(cls, SealedDeclarations) and "ai_seats" in cls.table_options
    for name in MECHANISM:
        assert getattr(cls, name) is getattr(SealedDeclarations, name), f"{kind}.{name}"


def at_the_declaration(kind: str) -> Game:
    """A three-seat game (seat 2 an AI seat) where all three are awaited to declare, reached
    by everyone checking or calling, and the AI's draws and orders."""
    cls = GAMES[kind]
    options = {"ai_seats": [2]} if kind == "sppoker" else {"stacks": [200] * 3,
                                                            "ai_seats": [2]}
    for seed in range(50):
        game = cls(names(3), options, random.Random(seed), **extras(cls))
        rng = random.Random(seed)
        while not game.is_over and game.phase != "declare":
            seat = min(game.to_act)
            legal = {a.name for a in game.legal_actions(seat)}
            if "check" in legal or "call" in legal:
                action = Action("check" if "check" in legal else "call")
            else:
                action = game.ai_action(seat, rng)
            game.apply(seat, action)
        if not game.is_over and game.to_act == {0, 1, 2}:
            return game
    raise AssertionError(f"no {kind} deal reached the declaration with every seat in it")


@pytest.mark.parametrize("kind", DECLARING)
def test_the_last_person_has_ten_seconds_and_a_declaration_left_to_the_clock_loses(
    kind: str,
) -> None:
    game = at_the_declaration(kind)
    assert [t.seconds for t in game.timers()] == [120]
    declaration = game.legal_actions(0)[0]  # poker, or high: no word needed
    events = game.apply(0, declaration)
    [call] = [e for e in events if e.kind == "last_call"]
    assert call.seat == 1 and call.text == ("Everyone else has declared: declare within 10 "
                                            "seconds, or you lose this hand.")
    assert sorted(t.seconds for t in game.timers()) == [10, 120]
    events = game.apply(1, TIMEOUT)
    [timeout] = [e for e in events if e.kind == "timeout"]
    assert timeout.is_public and timeout.text == "P1 ran out of time and loses the hand."
    assert 1 not in game.to_act and not game.legal_actions(1)
    rng = random.Random(1)
    while game.phase != "reveal" and not game.is_over:  # to the end of the hand
        seat = min(game.to_act)
        legal = {a.name for a in game.legal_actions(seat)}
        action = Action("check" if "check" in legal else "call") \
            if legal & {"check", "call"} else game.ai_action(seat, rng)
        game.apply(seat, action)
    record = getattr(game, "showdown", None) or getattr(game, "last_reveal", None)
    assert record is not None
    if "awards" in record:  # a chip game: no part of any pot
        assert all(award["shares"].get("1", 0) == 0 for award in record["awards"])
    else:  # Sppoker: no points
        assert record["points"]["1"] == 0 and record["declarations"]["1"] == "timeout"
