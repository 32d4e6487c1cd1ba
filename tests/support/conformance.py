"""The checks the conformance suite makes after every move of every game: snapshots
round-trip, views are consistent, events are well-formed, the seats to act can act.

Shared with the snapshot-compatibility test, which replays old snapshots through the same checks."""

from __future__ import annotations

import json
import random

from engine.game import TIMEOUT, Event, Game
from engine.views import GameView, SeatView
from tests.support.leaks import REVEALING_EVENTS, current_public, deal_number, held, leaks, revealed
from tests.support.play import (
    copy_of,
    extras,
)


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


def check_seats_to_act(game: Game, ai_rng: random.Random) -> None:
    for seat in sorted(game.to_act):
        assert game.legal_actions(seat), f"seat {seat} must act but has no legal action"
        assert game.prompt(seat) is not None, f"seat {seat} must act but is asked nothing"
        copy_of(game).apply(seat, TIMEOUT)
        copy_of(game).apply(seat, game.ai_action(seat, ai_rng))
