"""How a table's board is written while Discord's global budget is short (issue 27,
`bot/discord/board_pace.py`): a board that would move to the bottom of the channel is edited
where it is instead, and a table's last edit is forgotten once the table ends (or once it is
too old to hold anything back), so the map does not grow with every table ever played."""

from __future__ import annotations

from bot.core.outbox import BOARD_REF, Edit, Post, Upsert, board_view
from bot.discord.board_pace import BoardPace


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


class Pressure:
    def __init__(self, pressed: bool = True) -> None:
        self.pressed = pressed


def moving_board(pings: tuple[int, ...] = ()) -> Post:
    """What a notable step writes for the board (`bot.core.narration.board`)."""
    return Post(channel=5, content="**Guessing** — Alice, Bob\nscores 1, 0",
                view=board_view("t1"), ref=BOARD_REF, previous="delete", pings=pings)


def live_board(text: str = "scores") -> Upsert:
    return Upsert(ref=BOARD_REF, channel=5, content=text, view=board_view("t1"))


def test_under_pressure_a_moving_board_is_edited_where_it_is() -> None:
    pressure = Pressure()
    pace = BoardPace(pressure, Clock())
    post = moving_board()
    edit = pace.in_place(post, board_exists=True)
    assert edit == Upsert(ref=BOARD_REF, channel=5, content=post.content, view=post.view)
    # No board yet: there is nothing to edit, it is posted.
    assert pace.in_place(post, board_exists=False) is post
    # A board that pings someone (their DMs are closed, it is their turn) still moves: an
    # edit notifies nobody.
    pinging = moving_board(pings=(42,))
    assert pace.in_place(pinging, board_exists=True) is pinging
    # Anything else is left as it is.
    other = Post(channel=5, content="Alice shows 7", view=board_view("t1"))
    assert pace.in_place(other, board_exists=True) is other
    upsert = live_board()
    assert pace.in_place(upsert, board_exists=True) is upsert
    # Idle, the board moves to the bottom of the channel as always.
    pressure.pressed = False
    assert pace.in_place(post, board_exists=True) is post
    assert BoardPace(None).in_place(post, board_exists=True) is post


def test_a_board_in_place_waits_like_any_board_edit() -> None:
    """The edit a moving board became is paced as a board's edit: it waits while the board
    was edited moments ago, so the table's next moves fold into it."""
    clock = Clock()
    pace = BoardPace(Pressure(), clock)
    pace.sent("t1", live_board())
    edit = pace.in_place(moving_board(), board_exists=True)
    assert pace.hold("t1", edit) == pace.seconds
    clock.now += pace.seconds
    assert pace.hold("t1", edit) == 0


def test_a_table_s_last_edit_is_forgotten_when_the_table_ends() -> None:
    clock = Clock()
    pace = BoardPace(Pressure(), clock)
    pace.sent("t1", live_board())
    pace.sent("t2", live_board())
    assert pace.remembered == 2
    assert pace.hold("t1", live_board()) > 0
    # Its last words: finished or closed, a table writes its board with an `Edit`.
    pace.sent("t1", Edit(BOARD_REF, "**Guessing** — the game is over"))
    assert pace.remembered == 1
    assert pace.hold("t1", live_board()) == 0
    assert pace.hold("t2", live_board()) > 0


def test_boards_not_edited_lately_are_let_go_however_many_tables() -> None:
    """A table whose end this process never sends (it crashed, its shard moved) is not kept
    for ever: once in a while the boards edited longer than `seconds` ago are forgotten."""
    clock = Clock()
    pace = BoardPace(Pressure(), clock)
    for table in range(200):
        pace.sent(f"old{table}", live_board())
    assert pace.remembered == 200
    clock.now += pace.seconds + 1
    pace.sent("new", live_board())
    assert pace.remembered == 1
    assert pace.hold("new", live_board()) > 0
    assert pace.hold("old3", live_board()) == 0


def test_without_pressure_to_read_nothing_is_remembered() -> None:
    pace = BoardPace(None)
    pace.sent("t1", live_board())
    assert pace.remembered == 0
