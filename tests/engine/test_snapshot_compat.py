"""Unfinished games saved by an earlier engine still restore and play on: a deploy must not
strand the tables that were open when it happened.

tests/data/engine_snapshots_3540eec.json holds snapshots written by the engine of commit
3540eec (before typed views and Sppoker's invalid-word rule), mid-deal and mid-declaration;
tests/data/engine_snapshots_033ba0b.json the chip games' as the engine of commit 033ba0b wrote
them before issue 23's rules (a short big blind before anyone acted, a Hold'em Sppoker seat
timed out into poker, a Spew seat timed out, Zero to 55 and Old Man 49er mid-declaration and
mid-betting, Red Dog in its second round, a Dealer's Choice deal). Each is read by today's
engine, must survive its own snapshot round trip, and must play to the end under the
conformance checks. When a snapshot format changes, add the previous
engine's snapshots here the same way rather than replacing these."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from engine.game import Game, IllegalAction
from engine.games import GAMES
from tests.support.conformance import check_events, check_seats_to_act, check_snapshot, check_views
from tests.support.leaks import deal_number
from tests.support.play import awaited, extras, random_action

DATA = Path(__file__).resolve().parents[1] / "data"
SNAPSHOTS = {
    f"{name}@{commit}": snapshot
    for commit in ("3540eec", "033ba0b")
    for name, snapshot in json.loads(
        (DATA / f"engine_snapshots_{commit}.json").read_text()).items()
}
MAX_STEPS = 3000


def restore(data: dict) -> Game:
    cls = GAMES[data["kind"]]
    return cls.from_dict(data, **extras(cls.from_dict))


@pytest.mark.parametrize("name", sorted(SNAPSHOTS))
def test_an_old_snapshot_restores_and_plays_to_the_end(name: str) -> None:
    old = SNAPSHOTS[name]
    game = restore(old)
    phase = old["phase"] if "phase" in old else old["inner"]["phase"]  # a session: its deal's
    assert list(game.seats) == old["seats"] and game.phase == phase
    assert not game.is_over and awaited(game)
    rng, ai_rng = random.Random(name), random.Random(name + "ai")
    for _ in range(MAX_STEPS):
        if game.is_over:
            break
        check_snapshot(game)
        check_views(game)
        check_seats_to_act(game, ai_rng)
        seat = rng.choice(awaited(game))
        deal = deal_number(game)
        try:
            events = game.apply(seat, random_action(game, seat, rng, ai_rng, ai_share=0.9))
        except IllegalAction:
            continue
        check_events(game, events, deal)
    assert game.is_over and game.result is not None
