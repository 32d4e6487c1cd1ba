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
import json
import random

import pytest

from engine.game import TIMEOUT, Event, Game, IllegalAction
from engine.games import GAMES
from engine.notation import Move, notation_of, parse, write
from engine.notation import games as rebuilt_games
from engine.replay import LoggedAction, replay
from engine.views import GameView, SeatView
from tests.support.play import (
    awaited,
    copy_of,
    engine_kinds,
    extras,
    names,
    new_game,
    options_for,
    random_action,
)
from tests.test_hidden_information import (
    REVEALING_EVENTS,
    current_public,
    deal_number,
    held,
    leaks,
    revealed,
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


def check_snapshot(game: Game) -> None:
    snapshot = game.to_dict()
    text = json.dumps(snapshot)
    cls = type(game)
    again = cls.from_dict(json.loads(text), **extras(cls.from_dict))
    assert again.to_dict() == snapshot
    assert again.public_view() == game.public_view()
    for seat in range(len(game.seats)):
        assert again.view(seat) == game.view(seat)
    assert sorted(again.to_act) == sorted(game.to_act) and again.phase == game.phase


def check_views(game: Game) -> None:
    public = game.public_view()
    assert isinstance(public, GameView) and not isinstance(public, SeatView)
    json.dumps(public.to_json())
    assert public.kind == game.playing and public.names == game.seats
    assert public.phase == game.phase and public.to_act == tuple(sorted(game.to_act))
    assert len(public.scores) == len(game.seats)
    for seat in range(len(game.seats)):
        view = game.view(seat)
        assert isinstance(view, SeatView) and isinstance(view, type(public))
        assert view.seat == seat and view.name == game.seats[seat]
        json.dumps(view.to_json())
    if not revealed(game):
        hands = held(game)
        shown = current_public(public)
        seen = [current_public(game.view(seat)) for seat in range(len(hands))]
        for seat, cards in enumerate(hands):
            assert not [c for c in cards if c in shown], f"seat {seat}'s cards are public"
            for other in range(len(hands)):
                if other != seat:
                    leaked = leaks(cards, seen[other], "", hands[other])
                    assert not leaked, f"seat {other} sees seat {seat}'s {leaked}"


def check_events(game: Game, events: list[Event], deal_before: int) -> None:
    """No event shows a held card to anyone but its holder (unless the rules reveal it)."""
    if revealed(game) or deal_number(game) != deal_before:
        return  # a new deal's cards may repeat the old deal's, which the rules showed
    still_held = held(game)
    for event in events:
        json.dumps(dict(event.data))
        if event.kind in REVEALING_EVENTS:
            continue
        shown = event.text + json.dumps(dict(event.data))
        for holder, cards in enumerate(still_held):
            if event.seat != holder:
                own = still_held[event.seat] if event.seat is not None else set()
                leaked = leaks(cards, shown, event.text, own)
                assert not leaked, f"{event.kind} shows seat {holder}'s {leaked}"


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


def check_seats_to_act(game: Game, ai_rng: random.Random) -> None:
    for seat in sorted(game.to_act):
        assert game.legal_actions(seat), f"seat {seat} must act but has no legal action"
        assert game.prompt(seat) is not None, f"seat {seat} must act but is asked nothing"
        copy_of(game).apply(seat, TIMEOUT)
        copy_of(game).apply(seat, game.ai_action(seat, ai_rng))


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
