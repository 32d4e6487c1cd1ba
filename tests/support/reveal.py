"""Driving Old Man 49er and Zero to 55 in tests: rigged hands, everyone checking, chosen
declarations, and the checks that nothing face down or sealed is ever public."""

from __future__ import annotations

import json
import random
from collections.abc import Mapping, Sequence

from engine.cards import parse_cards
from engine.chips.reveal_order import RevealGame
from engine.game import TIMEOUT, Action, Event
from tests.support.play import awaited, random_action


def check_everyone(game: RevealGame) -> list[Event]:
    """Check (or call) whoever is to bet until this betting round ends."""
    events: list[Event] = []
    round_no = game.betting.round_no
    while game.phase == "bet" and game.to_act and game.betting.round_no == round_no:
        [seat] = game.to_act
        name = "check" if "check" in {a.name for a in game.legal_actions(seat)} else "call"
        events += game.apply(seat, Action(name))
    return events


def rig(game: RevealGame, hands: Mapping[int, str]) -> list[Event]:
    """Play to the order step (standing pat, checking), give the seats these hands (in
    reveal order) and fix them."""
    events = check_everyone(game)
    while game.phase == "draw":
        [seat] = game.to_act
        events += game.apply(seat, Action("stand"))
    assert game.phase == "order"
    for seat, text in hands.items():
        game.hands[seat] = parse_cards(text)
    for seat in sorted(game.to_act):
        events += game.apply(seat, Action("order", tuple(str(c) for c in game.hands[seat])))
    return events


def finish(game: RevealGame, declarations: Mapping[int, str]) -> list[Event]:
    """Check every round and declare as given, to the end."""
    events: list[Event] = []
    while not game.is_over:
        events += check_everyone(game)
        if game.phase == "declare":
            for seat in sorted(game.to_act):
                events += game.apply(seat, Action("declare", (declarations[seat],)))
    return events


def face_down(game: RevealGame) -> set[str]:
    return {str(card) for hand in game.hands for card in hand}


def check_nothing_sealed_is_public(game: RevealGame, events: Sequence[Event]) -> None:
    """No face-down card in the public view, in another seat's view or in any event not
    addressed to its holder; no declaration public before they are all shown."""
    if game.is_over:
        return
    public = json.dumps(game.public_view().to_json())
    for seat, hand in enumerate(game.hands):
        for card in hand:
            assert f'"{card}"' not in public, f"seat {seat}'s {card} is public"
            for other in range(len(game.seats)):
                if other != seat:
                    view = json.dumps(game.view(other).to_json())
                    assert f'"{card}"' not in view, f"seat {other} sees {card}"
        for event in events:
            if event.seat == seat:
                continue
            shown = event.text + json.dumps(dict(event.data))
            leaked = [c for c in hand if f'"{c}"' in shown or str(c) in event.text.split()
                      or c.label in event.text]
            assert not leaked, f"{event.kind} shows seat {seat}'s face-down {leaked}"
    if not game.declarations_shown:
        assert game.public_view().declarations is None
        for other in range(len(game.seats)):
            view = game.view(other)
            assert view.declarations is None
        for event in events:
            if event.seat is None:
                assert "declaration" not in json.dumps(dict(event.data))
                assert not any(f"declared {side}" in event.text
                               for side in ("high", "low", "both"))


def play_randomly(game: RevealGame, seed: int) -> None:
    """Random play (AI moves, random legal moves, timeouts) to the end, checking at every
    step that nothing sealed leaks and that the chips in play never change."""
    rng, ai_rng = random.Random(seed), random.Random(~seed)
    total = sum(game.betting.start_stacks)
    check_nothing_sealed_is_public(game, game.opening_events())
    for _step in range(3000):
        if game.is_over:
            break
        seat = rng.choice(awaited(game))
        action = random_action(game, seat, rng, ai_rng, ai_share=0.5)
        if rng.random() < 0.05:
            action = TIMEOUT
        events = game.apply(seat, action)
        assert sum(game.betting.stacks) + game.betting.pot_total + sum(game.fees) == total
        check_nothing_sealed_is_public(game, events)
    assert game.is_over and game.result is not None
    assert sum(game.result.chips) == 0
    assert sum(game.result.scores) == total
