"""Sppoker invariants under random play: cards are conserved, scores move only at a reveal
and by exactly what the reveal says, nothing hidden reaches the public before the reveal,
and a snapshot taken at any point has the same future as the game it was taken from."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.wordlists import build
from engine.cards import sppoker_deck
from engine.game import TIMEOUT, Action, Event, IllegalAction
from engine.games.sppoker.rules import Sppoker
from engine.words import WordFinder, WordListDictionary, hand_letters

CANDIDATES = build("en_US")
DICTIONARY = WordListDictionary(CANDIDATES)
FINDER = WordFinder(CANDIDATES, DICTIONARY)
FULL_DECK = Counter(str(card) for card in sppoker_deck())
HIDDEN_KINDS = ('"poker"', '"spelling"', '"double"')

steps = st.lists(st.tuples(st.integers(0, 7), st.integers(0, 7)), min_size=1, max_size=60)


def pick_action(game: Sppoker, a: int, b: int) -> tuple[int, Action]:
    """Turn two random numbers into a legal-looking action of some seat."""
    if game.phase == "reveal":
        seat = a % len(game.seats)
        return seat, (TIMEOUT if b % 2 else Action("next_hand"))
    seats = [s for s in game.active if game.prompt(s) is not None]
    seat = seats[a % len(seats)]
    best = FINDER.best_word(hand_letters(game.hands[seat])) or "ZZ"
    options = [
        Action("declare", ("poker",)),
        Action("declare", ("spelling", best)),
        Action("declare", ("double", best)),
        Action("declare", ("spelling", "QXQXQ")),
        Action("word", (best[:-1] if len(best) > 2 else best,)),
        Action("declare", ("double", best)),
        TIMEOUT,
        Action("declare", ("spelling",)),
    ]
    action = options[b % len(options)]
    if action == TIMEOUT and seat not in game.to_act:
        action = Action("declare", ("poker",))
    return seat, action


def check_step(game: Sppoker, before: list[int], events: list[Event]) -> None:
    # Cards conserved: every hand and the undealt deck make the 56 cards exactly.
    held = Counter(str(c) for hand in game.hands for c in hand) + Counter(map(str, game.deck))
    assert held == FULL_DECK
    reveals = [e for e in events if e.kind == "reveal"]
    changes = [after - b for after, b in zip(game.scores, before, strict=True)]
    if not reveals:
        assert changes == [0] * len(changes)
        return
    [reveal] = reveals
    data = reveal.data
    assert changes == [data["points"].get(str(s), 0) for s in range(len(game.seats))]
    doubles = sum(1 for d in data["declarations"].values() if d == "double")
    if data["double_winner"] is not None:
        assert sum(changes) == 4 - 2 * (doubles - 1)
    else:
        expected = len(data["poker_winners"]) + len(data["spelling_winners"]) - 2 * doubles
        assert sum(changes) == expected
    assert data["scores"] == game.scores


def check_secrets(game: Sppoker, events: list[Event], typed: set[str]) -> None:
    """Before the reveal, nothing of a current hand, word or declaration is public."""
    if game.phase != "declare":
        return
    public = [game.public_view().to_json()]
    public += [[e.text, dict(e.data)] for e in events if e.is_public]
    text = json.dumps(public, ensure_ascii=False)
    for seat in game.active:
        for card in game.hands[seat]:
            assert str(card) not in text and card.label not in text
    for word in typed:
        assert word not in text
    for kind in HIDDEN_KINDS:
        assert kind not in text


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), players=st.integers(2, 8), script=steps,
       cut=st.integers(0, 60))
def test_random_play_keeps_every_invariant(seed, players, script, cut):
    names = [f"P{i}" for i in range(players)]
    game = Sppoker(names, {"target": 6}, random.Random(seed), dictionary=DICTIONARY,
                   finder=FINDER)
    copy: Sppoker | None = None
    typed: set[str] = set()
    for index, (a, b) in enumerate(script):
        if index == cut:
            snapshot = json.loads(json.dumps(game.to_dict()))
            copy = Sppoker.from_dict(snapshot, dictionary=DICTIONARY, finder=FINDER)
            assert copy.to_dict() == game.to_dict()
        if game.is_over:
            break
        seat, action = pick_action(game, a, b)
        if game.phase == "declare" and action.name in ("declare", "word"):
            typed |= {str(arg).upper() for arg in action.args[1:] if arg and len(str(arg)) > 2}
            typed |= {str(arg).upper() for arg in action.args if action.name == "word"}
        before = list(game.scores)
        try:
            events = game.apply(seat, action)
        except IllegalAction:
            # A declaration an invalid word would undo is refused, and changes nothing.
            state = game.to_dict()
            assert action.name in ("declare", "word") and seat not in game.to_act
            if copy is not None:
                with pytest.raises(IllegalAction):
                    copy.apply(seat, action)
            assert game.to_dict() == state
            continue
        if copy is not None:
            assert copy.apply(seat, action) == events
        check_step(game, before, events)
        check_secrets(game, events, typed)
        if any(e.kind == "dealt" for e in events):
            typed = set()
    if copy is not None:
        assert copy.to_dict() == game.to_dict()
