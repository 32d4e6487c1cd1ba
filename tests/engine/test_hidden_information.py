"""Hidden information never leaks, in any game: a card a player holds is never in the public
view, in another seat's view, or in an event the holder alone may not see — until the rules
reveal it (Sppoker's reveal phase)."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.game import Game
from engine.games import GAMES
from engine.words import WordFinder, WordListDictionary
from tests.support.leaks import (
    REVEALING_EVENTS,
    current_public,
    deal_number,
    held,
    leaks,
    revealed,
)

WORDS = ["at", "to", "tea", "eat", "rate", "tear", "stare", "no", "on", "one", "nose"]
SEATS = {"sppoker": 4, "poke": 2, "poangpoker": 4, "chicago": 3, "pokeno": 3}


def build(kind: str, seed: int) -> Game:
    names = [f"P{n}" for n in range(SEATS[kind])]
    cls = GAMES[kind]
    if kind == "sppoker":
        dictionary = WordListDictionary(WORDS)
        return cls(names, {"target": 3}, random.Random(seed), dictionary=dictionary,
                   finder=WordFinder(WORDS, dictionary))  # type: ignore[call-arg]
    return cls(names, {}, random.Random(seed))


@pytest.mark.parametrize("kind", sorted(SEATS))
@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_no_card_in_hand_is_ever_shown_to_anyone_else(kind: str, seed: int) -> None:
    game = build(kind, seed)
    rng = random.Random(seed)
    for _step in range(400):
        if game.is_over:
            break
        hands = held(game)
        if not revealed(game):
            public = current_public(game.public_view())
            for seat, cards in enumerate(hands):
                assert not [c for c in cards if c in public], f"seat {seat}'s cards are public"
                for other in range(len(hands)):
                    if other != seat:
                        view = current_public(game.view(other))
                        leaked = leaks(cards, view, "", hands[other])
                        assert not leaked, f"seat {other} sees seat {seat}'s {leaked}"
        awaited = sorted(game.to_act) or [s for s in range(len(hands)) if game.prompt(s)]
        if not awaited:
            break
        seat = rng.choice(awaited)
        deal = deal_number(game)
        events = game.apply(seat, game.ai_action(seat, rng))
        if revealed(game) or deal_number(game) != deal:
            continue  # a new deal: its cards may repeat the old deal's, shown by the rules
        still_held = held(game)
        for event in events:
            if event.kind in REVEALING_EVENTS:
                continue
            shown = event.text + json.dumps(dict(event.data))
            for holder, cards in enumerate(still_held):
                if event.seat == holder:
                    continue
                own = still_held[event.seat] if event.seat is not None else set()
                leaked = leaks(cards, shown, event.text, own)
                assert not leaked, f"{event.kind} shows seat {holder}'s {leaked}"
