"""Every registered game keeps the contract the table service, the AI seats and the replays
rely on (engine/game.py), checked at every step of random play to the end, for several
seeds and every seat count the game allows:

- a seat to act always has a listed legal action, may always time out, and the AI's move
  for it is always accepted;
- a refused action changes nothing;
- the snapshot round trip (through JSON text) gives the same game, views included;
- views are frozen, JSON-safe, and never show a seat another seat's held cards (the checks
  of test_hidden_information, on every game and every seat count);
- the game ends, with a result for every seat, and its action log replays to it;
- its notation (engine/notation.py) reads back as written and rebuilds it; while it runs,
  the notation shows no seed and no card a seat holds.
"""

from __future__ import annotations

import dataclasses
import random

import pytest

from engine.game import Game, IllegalAction
from engine.games import GAMES
from engine.notation import Move, notation_of, parse, write
from engine.notation import games as rebuilt_games
from engine.replay import LoggedAction, replay
from tests.support.conformance import check_events, check_seats_to_act, check_snapshot, check_views
from tests.support.leaks import deal_number, held
from tests.support.play import (
    awaited,
    engine_kinds,
    extras,
    names,
    new_game,
    options_for,
    random_action,
)

MAX_STEPS = 1500
RUNNING_CHECK = 12  # moves into the game, its running notation is checked
SEEDS = (1, 2, 3)
CASES = [
    (kind, seats, seed)
    for kind in engine_kinds()
    for seats in range(GAMES[kind].min_seats, GAMES[kind].max_seats + 1)
    for seed in SEEDS
]


def check_notation(kind: str, seed: int, game: Game, log: list[LoggedAction],
                   this_deal: int = 0) -> None:
    """parse(write(notation)) == notation, and it rebuilds the game: the whole game once it
    is over; while it runs, the text has no seed and no card any seat holds (the arguments
    of the moves others did not see are withheld; a card played face up is no longer held).
    `this_deal`: the first move of the deal being played (an earlier deal's cards are dealt
    again)."""
    options = options_for(kind, len(game.seats))
    notation = notation_of(game, options, seed, log, date="2026-11-30T12:00:00Z",
                           tags={"Table": "0123abcd"}, **extras(GAMES[kind]))
    text = write(notation)
    assert parse(text) == notation
    assert parse(write(parse(text))) == notation
    if game.is_over:
        assert not notation.concealed
        (again,) = rebuilt_games(parse(text), **extras(GAMES[kind]))
        assert again.to_dict() == game.to_dict()
        return
    assert notation.concealed and "[Seed" not in text
    header = text.split("\n\n")[0]
    moves = notation.deals[-1].moves[this_deal:]
    current = "\n".join([header, *(move.format() for move in moves)])
    tokens = set(current.replace('"', " ").replace(",", " ").replace("]", " ").split())
    for seat, cards in enumerate(held(game)):
        shown = sorted(card.strip('"') for card in cards if card.strip('"') in tokens)
        assert not shown, f"the running notation shows seat {seat}'s {shown}:\n{text}"
    hidden = [move for deal in notation.deals for move in deal.moves if move.hidden]
    assert all(isinstance(move, Move) and not move.action.args for move in hidden)


@pytest.mark.parametrize(("kind", "seats", "seed"), CASES)
def test_random_play_keeps_the_game_contract(kind: str, seats: int, seed: int) -> None:
    game = new_game(kind, seats, seed)
    rng, ai_rng = random.Random(seed), random.Random(-seed)
    check_ai = random.Random(seed * 7)
    log: list[LoggedAction] = []
    deal_starts = {deal_number(game): 0}
    for _step in range(MAX_STEPS):
        if game.is_over:
            break
        check_snapshot(game)
        check_views(game)
        check_seats_to_act(game, check_ai)
        seats_awaited = awaited(game)
        assert seats_awaited, f"{kind} waits for nobody in phase {game.phase!r}"
        seat = rng.choice(seats_awaited)
        action = random_action(game, seat, rng, ai_rng)
        before, deal = game.to_dict(), deal_number(game)
        try:
            events = game.apply(seat, action)
        except IllegalAction as refusal:
            assert str(refusal), "a refusal says why"
            assert game.to_dict() == before, f"refused {action} changed the game"
            continue
        deal_starts.setdefault(deal, len(log))
        log.append(LoggedAction(seat, action))
        check_events(game, events, deal)
        if len(log) >= RUNNING_CHECK and len(log) % RUNNING_CHECK == 0 and not game.is_over:
            now = deal_number(game)
            check_notation(kind, seed, game, log, deal_starts.get(now, len(log)))
    assert game.is_over, f"{kind} did not end in {MAX_STEPS} steps"
    assert not game.to_act and game.result is not None
    assert len(game.result.scores) == len(game.result.places) == seats
    assert game.public_view().result == game.result
    check_snapshot(game)
    check_views(game)
    again = replay(kind, names(seats), options_for(kind, seats), seed, log, **extras(GAMES[kind]))
    assert again.to_dict() == game.to_dict()
    check_notation(kind, seed, game, log)


@pytest.mark.parametrize("kind", engine_kinds())
def test_views_are_frozen(kind: str) -> None:
    game = new_game(kind, GAMES[kind].min_seats, 5)
    for view in (game.public_view(), game.view(0)):
        with pytest.raises(dataclasses.FrozenInstanceError):
            view.phase = "changed"  # type: ignore[misc]
