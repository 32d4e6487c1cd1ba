"""The table: lobby rules, the checks every click passes, clocks and snapshots."""

import json

import pytest

from bot.core.table import Table, TableError, prompt_digest
from engine.game import Action
from engine.games import GAMES
from tests.support.guessing import Guessing

GAMES.setdefault("guessing", Guessing)

HOST, BOB, CAROL, MALLORY = 1, 2, 3, 99


def lobby(**options) -> Table:
    table = Table("t1", 10, 20, "guessing", HOST, options=options)
    table.join(HOST, "Alice")
    return table


def started(**options) -> Table:
    table = lobby(**options)
    table.join(BOB, "Bob")
    table.start(HOST)
    return table


def test_lobby_rules():
    table = lobby()
    with pytest.raises(TableError, match="already seated"):
        table.join(HOST, "Alice")
    with pytest.raises(TableError, match="at least 2"):
        table.start(HOST)
    table.join(BOB, "Bob")
    with pytest.raises(TableError, match="Only the host"):
        table.start(BOB)
    with pytest.raises(TableError, match="Only the host"):
        table.add_ai(BOB)
    assert table.add_ai(HOST) == "AI 1"
    assert table.add_ai(HOST) == "AI 2"
    with pytest.raises(TableError, match="full"):
        table.join(CAROL, "Carol")
    table.leave(HOST)
    assert table.host_id == BOB


def test_bad_options_are_refused_at_start():
    table = lobby(target=0)
    table.join(BOB, "Bob")
    with pytest.raises(TableError, match="options"):
        table.start(HOST)
    assert table.status == "lobby"


def test_only_the_seat_owner_may_act_and_only_when_awaited():
    table = started()
    with pytest.raises(TableError, match="not your seat"):
        table.act(MALLORY, 0, Action("pick", (1,)))
    with pytest.raises(TableError, match="not your seat"):
        table.act(BOB, 0, Action("pick", (1,)))
    table.act(HOST, 0, Action("pick", (3,)))
    with pytest.raises(TableError, match="Nothing is awaited"):
        table.act(HOST, 0, Action("pick", (2,)))  # a double click changes nothing
    with pytest.raises(TableError, match="Pick 1, 2 or 3"):
        table.act(BOB, 1, Action("pick", (7,)))
    assert table.require_game().to_act == {1}


def test_clocks_start_once_and_time_out_the_awaited_seats():
    table = started(seconds=30)
    table.sync_deadlines(now=100.0)
    assert table.deadlines == {"round-1": 130.0}
    table.act(HOST, 0, Action("pick", (2,)))
    table.sync_deadlines(now=110.0)
    assert table.deadlines == {"round-1": 130.0}  # not reset by another's action
    events = table.timeout("round-1")
    assert any(event.kind == "reveal" for event in events)
    table.sync_deadlines(now=131.0)
    assert table.deadlines == {"round-2": 161.0}


def test_snapshot_round_trip_keeps_everything():
    table = started()
    table.act(HOST, 0, Action("pick", (1,)))
    table.sync_deadlines(now=5.0)
    data = json.loads(table.snapshot_json())
    again = Table.from_dict(data)
    assert again.to_dict() == table.to_dict()
    game = again.require_game()
    assert prompt_digest(game.prompt(1)) == prompt_digest(table.require_game().prompt(1))
    assert again.stamp(1) == table.stamp(1)


@pytest.mark.parametrize(
    "corrupt",
    [
        {},
        {"version": 1},
        {"version": 99, "kind": "guessing"},
        {"version": 1, "kind": "nope", "table_id": "x"},
    ],
)
def test_corrupt_snapshots_raise_value_error(corrupt):
    with pytest.raises(ValueError, match="cannot be loaded"):
        Table.from_dict(corrupt)


def test_ai_seats_play_themselves_deterministically():
    def play() -> list[int]:
        table = lobby()
        table.add_ai(HOST)
        table.seed = 1234
        table.start(HOST)
        table.act(HOST, 0, Action("pick", (2,)))
        assert table.ai_step() is not None
        return list(table.require_game().public_view().scores)

    assert play() == play()


def test_the_table_tells_sppoker_which_seats_are_ai():
    """The 10-second rule counts AI seats as declared, so the game must know them; they are
    kept in the table's options, so a replay builds the same game."""
    table = Table("ab12", 1, 2, "sppoker", HOST)
    table.join(HOST, "Host")
    table.join(HOST + 1, "Guest")
    table.add_ai(HOST)
    table.start(HOST)
    assert table.options["ai_seats"] == [2]
    assert table.require_game().options.ai_seats == [2]  # type: ignore[attr-defined]
