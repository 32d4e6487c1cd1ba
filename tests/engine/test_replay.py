"""The action log rebuilds any game exactly: for every registered game, random play (listed
actions, free text, AI moves, timeouts) is logged as it is applied, and replaying the log
from the game's kind, names, options and seed gives the same snapshot, mid-game and at the
end. Also: the log's text and JSON forms read back as written."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.game import TIMEOUT, Action, IllegalAction
from engine.games import GAMES
from engine.replay import (
    LoggedAction,
    ReplayError,
    format_action,
    parse_action,
    replay,
)
from tests.support.play import (
    awaited,
    engine_kinds,
    extras,
    names,
    new_game,
    options_for,
    random_action,
)

MAX_STEPS = 400


@pytest.mark.parametrize("kind", engine_kinds())
@settings(max_examples=6, deadline=None)
@given(data=st.data(), seed=st.integers(0, 2**32 - 1))
def test_replaying_the_log_gives_the_same_snapshot(kind: str, data: st.DataObject, seed: int):
    cls = GAMES[kind]
    seats = data.draw(st.integers(cls.min_seats, cls.max_seats), label="seats")
    checks = set(data.draw(st.lists(st.integers(1, MAX_STEPS), max_size=3), label="checks"))
    game = new_game(kind, seats, seed)
    rng, ai_rng = random.Random(seed), random.Random(seed + 1)
    log: list[LoggedAction] = []
    for step in range(1, MAX_STEPS + 1):
        if game.is_over:
            break
        seats_awaited = awaited(game)
        if not seats_awaited:
            break
        seat = rng.choice(seats_awaited)
        action = random_action(game, seat, rng, ai_rng)
        try:
            game.apply(seat, action)
        except IllegalAction:
            continue  # refused text (an invalid word): nothing applied, nothing logged
        log.append(LoggedAction(seat, action, at=1_700_000_000.0 + step))
        if step in checks:
            again = replay(kind, names(seats), options_for(kind, seats), seed, log, **extras(cls))
            assert again.to_dict() == game.to_dict(), f"replay differs after step {step}"
    stored = json.loads(json.dumps([record.to_json() for record in log]))
    records = [LoggedAction.from_json(item) for item in stored]
    assert records == log
    again = replay(kind, names(seats), options_for(kind, seats), seed, records, **extras(cls))
    assert again.to_dict() == game.to_dict()
    text = "\n".join(record.format() for record in log)
    assert [LoggedAction.parse(line) for line in text.splitlines()] == log


def test_a_log_that_does_not_fit_says_which_step():
    game = new_game("poke", 2, 3, {"first_dealer": 0})
    log = [(1, Action("stand")), (1, Action("stand"))]
    with pytest.raises(ReplayError, match=r"step 2: seat 1 stand"):
        replay("poke", names(2), {"first_dealer": 0}, 3, log)
    assert game.to_act == {1}


@pytest.mark.parametrize(
    ("action", "text"),
    [
        (Action("declare", ("spelling", "cat")), "declare spelling cat"),
        (Action("play", ("Ah", "Ad")), "play Ah Ad"),
        (Action("play", ("Tc:E",)), "play Tc:E"),
        (Action("pick", (2,)), "pick 2"),
        (Action("word", (None,)), "word null"),
        (Action("word", ("null",)), 'word "null"'),
        (Action("word", ("two words",)), 'word "two words"'),
        (Action("word", ("",)), 'word ""'),
        (Action("word", ("ÅÄÖ",)), 'word "ÅÄÖ"'),
        (TIMEOUT, "timeout"),
    ],
)
def test_action_text_round_trip(action: Action, text: str):
    assert format_action(action) == text
    assert parse_action(text) == action


@given(
    name=st.from_regex(r"[a-z_]{1,12}", fullmatch=True),
    args=st.lists(
        st.one_of(st.text(max_size=8), st.integers(-5, 99), st.none(), st.booleans()),
        max_size=4,
    ),
)
def test_any_action_reads_back_as_written(name: str, args: list):
    action = Action(name, tuple(args))
    assert parse_action(format_action(action)) == action
    record = LoggedAction(3, action, 12.5)
    assert LoggedAction.parse(record.format()) == record
