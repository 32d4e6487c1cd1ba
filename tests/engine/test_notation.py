"""The game notation (engine/notation.py) beyond the conformance suite's round trip of every
game: a cash table's deal sections, what a running game's notation hides, errors that name
the line, stepping through a replay forwards and back, and `python -m engine replay`."""

from __future__ import annotations

import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.game import TIMEOUT, Action
from engine.notation import (
    Deal,
    Move,
    Notation,
    NotationError,
    Replayer,
    conceal,
    games,
    notation_of,
    parse,
    write,
)
from engine.replay import ReplayError, build
from tests.support.finished_games import finished, play
from tests.support.play import extras, names, new_game, options_for

ROOT = Path(__file__).resolve().parents[2]


def test_a_cash_table_writes_each_deal_with_its_seats_stacks_and_button() -> None:
    """Three deals of Badugi as a table deals them: seeds "seed:n", the button moving, a
    seat joining between deals, the stacks carried over."""
    seed, seats, stacks = 99, ["Ann", "Bob"], [200, 200]
    deals, finals = [], []
    for number in range(1, 4):
        if number == 3:
            seats, stacks = [*seats, "Cy"], [*stacks, 150]
        options = {"stacks": list(stacks), "button": (number - 1) % len(seats)}
        game = build("badugi", seats, options, f"{seed}:{number}")
        log = play(game, number)
        assert game.is_over and game.result is not None
        stacks = [s + d for s, d in zip(stacks, game.result.chips, strict=True)]
        deals.append(Deal(tuple(seats), options, f"{seed}:{number}",
                          tuple(Move(r.seat, r.action) for r in log)))
        finals.append(game.to_dict())
    notation = Notation("badugi", tuple(seats), {"buy_in": 200}, seed, tuple(deals),
                        "2026-11-30T12:00:00Z", {"Table": "0a1b2c3d", "Result": [1, -1, 0]})
    text = write(notation)
    assert "[Deal 3]" in text and '[Seed "99:2"]' in text and "[Stacks [" in text
    assert "[Button 1]" in text and '[Seats ["Ann", "Bob", "Cy"]]' in text
    assert parse(text) == notation
    assert [game.to_dict() for game in games(parse(text))] == finals
    replayer = Replayer(parse(text))
    assert replayer.starts[0] == 0 and len(replayer.starts) == 3
    assert replayer.chapters()[:3] == replayer.starts
    third = replayer.frame(replayer.starts[2])
    assert third.deal == 3 and third.step == 0 and third.names == ("Ann", "Bob", "Cy")


def test_a_running_game_hides_its_seed_and_the_moves_nobody_saw() -> None:
    game = new_game("chicago", 3, 4)
    log = play(game, 4, limit=30)
    assert not game.is_over
    notation = notation_of(game, options_for("chicago", 3), 4, log)
    text = write(notation)
    assert notation.concealed and notation.tags["Result"] == "*"
    assert "[Seed" not in text and " exchange ?" in text
    assert all(not move.action.args for d in notation.deals for move in d.moves if move.hidden)
    played = [m for m in notation.deals[0].moves if m.action.name == "play"]
    assert played and not any(move.hidden for move in played)  # face up, seen by all
    assert parse(text) == notation
    with pytest.raises(NotationError, match="hides"):
        games(notation)
    with pytest.raises(NotationError, match="hides"):
        Replayer(notation)
    assert conceal(notation) is notation


def test_a_finished_game_shows_everything_and_replays() -> None:
    game, notation = finished("sppoker", 3, 8)
    text = write(notation)
    assert "[Seed 8]" in text and "[Result [" in text and not notation.concealed
    (again,) = games(parse(text), **extras(type(game)))
    assert again.to_dict() == game.to_dict()


def test_stepping_back_and_forth_shows_the_same_frames() -> None:
    game, notation = finished("chicago", 3, 5)
    replayer = Replayer(notation)
    assert len(replayer) == notation.moves + 1
    last = replayer.frame(len(replayer) - 1)
    assert last.over and last.result == game.result
    middle = len(replayer) // 2
    forward = replayer.frame(middle)
    replayer.frame(middle + 7)
    back = replayer.frame(middle)  # replayed from the start
    fresh = Replayer(notation).frame(middle)
    for frame in (back, fresh):
        assert frame.views == forward.views and frame.public == forward.public
        assert frame.events == forward.events and frame.notes == forward.notes
        assert frame.recent == forward.recent and frame.move == forward.move
    first = replayer.frame(0)
    assert first.move is None and first.step == 0
    assert all(view.hand for view in first.views)  # every hand, face up
    assert any(event.seat is not None for event in first.events)  # each seat's deal
    chapters = replayer.chapters()
    assert len(chapters) > 1 and chapters[0] == 0  # Chicago deals more than once
    assert {replayer.frame(start).public.deal for start in chapters} == \
        set(range(1, len(chapters) + 1))


def test_a_notation_a_person_wrote_reads_and_errors_name_the_line() -> None:
    text = """; a bug report
[Game "poke"]
[Seats ["Ann", "Bob"]]
[Options {"first_dealer": 0}]
[Seed 7]

1 stand
"""
    notation = parse(text)
    assert notation.deals[0].moves == (Move(1, Action("stand")),)
    with pytest.raises(NotationError, match="line 2"):
        parse('[Game "poke"]\n[Seats "Ann"]]\n')
    with pytest.raises(NotationError, match="line 7"):
        parse(text.replace("1 stand", "Bob stand"))
    with pytest.raises(NotationError, match="not a game notation"):
        parse("1 stand\n")
    with pytest.raises(NotationError, match="deal 1 expected"):
        parse(text.replace("1 stand", "[Deal 2]"))
    with pytest.raises(ReplayError, match="deal 1, move 2: seat 1 stand"):
        games(parse(text + "1 stand\n"))
    hidden = parse(text.replace("1 stand", "1 draw ?"))
    assert hidden.deals[0].moves[0].hidden and hidden.concealed
    quoted = Move(0, Action("word", ("?",)))
    assert Move.parse(quoted.format()) == quoted and not quoted.hidden


def test_timeouts_and_free_text_read_back() -> None:
    moves = (Move(0, TIMEOUT), Move(1, Action("declare", ("spelling", "two words"))),
             Move(2, Action("word", (None,))), Move(1, Action("bet", (5,))))
    notation = Notation.single("sppoker", names(3), {"target": 3}, "text seed", moves)
    assert parse(write(notation)) == notation


def run_engine(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "engine", *args], cwd=ROOT, input=stdin,
                          capture_output=True, text=True, timeout=120, check=False)


def test_python_m_engine_replay_prints_the_game(tmp_path: Path) -> None:
    game, notation = finished("chicago", 2, 6)
    path = tmp_path / "chicago.txt"
    path.write_text(write(notation), encoding="utf-8")
    done = run_engine("replay", str(path))
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert out.startswith("Chicago — P0, P1 · seed 6")
    assert "As dealt:" in out and "[P0] " in out and "Hands at the end:" in out
    assert f"  {notation.moves}. " in out
    assert game.result is not None
    assert f"Result: P0 {game.result.scores[0]}, P1 {game.result.scores[1]}" in out
    every = run_engine("replay", "--hands", "-", stdin=write(notation))
    assert every.returncode == 0 and every.stdout.count("    P1  ") > notation.moves

    running = new_game("chicago", 2, 6)
    log = play(running, 6, limit=10)
    path.write_text(write(notation_of(running, options_for("chicago", 2), 6, log)))
    refused = run_engine("replay", str(path))
    assert refused.returncode == 2 and "cannot be replayed" in refused.stderr
    moves = write(notation).splitlines()
    broken = [line if not line.startswith("0 ") else "0 stand" for line in moves]
    path.write_text("\n".join(broken))
    stopped = run_engine("replay", str(path))
    assert stopped.returncode == 1 and "the replay stops: deal 1, move" in stopped.stderr


def notation_blocks(path: Path) -> list[str]:
    """The code blocks of a page that are notations, as written there."""
    blocks = re.findall(r"^( *)```\n(.*?)^\1```", path.read_text(encoding="utf-8"),
                        re.MULTILINE | re.DOTALL)
    found = [textwrap.dedent(body) for _, body in blocks]
    return [body for body in found if body.startswith("[Game ")]


@pytest.mark.parametrize("page", ["docs/notation.md", "README.md"])
def test_the_documented_notations_are_real(page: str) -> None:
    """Every notation the docs show reads back as written, and the finished ones replay."""
    blocks = notation_blocks(ROOT / page)
    assert blocks
    for block in blocks:
        notation = parse(block)
        assert write(notation) == block
        if not notation.concealed:
            rebuilt = games(notation)
            assert all(game.is_over and game.result for game in rebuilt)
            if notation.sectioned:  # a cash table's result: each seat's net chips
                nets = [sum(game.result.chips[seat] for game in rebuilt if game.result)
                        for seat in range(len(notation.names))]
            else:
                nets = list(rebuilt[0].result.scores) if rebuilt[0].result else []
            assert notation.tags["Result"] == nets


@given(
    seats=st.lists(st.text(min_size=1, max_size=12), min_size=1, max_size=4),
    options=st.dictionaries(st.text(max_size=6), st.one_of(st.text(max_size=6), st.integers(),
                                                           st.none()), max_size=3),
    seed=st.one_of(st.integers(0, 2**70), st.text(max_size=10), st.none()),
    moves=st.lists(st.tuples(st.integers(0, 3), st.from_regex(r"[a-z_]{1,8}", fullmatch=True),
                             st.lists(st.one_of(st.text(max_size=8), st.integers(-9, 99),
                                                st.booleans(), st.none()), max_size=3),
                             st.booleans()), max_size=6),
    tags=st.dictionaries(st.from_regex(r"[A-Z][a-z0-9_]{0,6}", fullmatch=True)
                         .filter(lambda tag: tag not in ("Game", "Seats", "Options", "Seed",
                                                         "Date", "Deal")),
                         st.one_of(st.text(max_size=8), st.integers()), max_size=2),
    sections=st.booleans(),
)
def test_any_notation_reads_back_as_written(seats: list[str], options: dict[str, object],
                                            seed: int | str | None,
                                            moves: list[tuple[int, str, list[object], bool]],
                                            tags: dict[str, object], sections: bool) -> None:
    made = tuple(Move(seat, Action(name), hidden=True) if hidden and args
                 else Move(seat, Action(name, tuple(args)))
                 for seat, name, args, hidden in moves)
    notation = Notation.single("poke", seats, options, seed, made, date="2026-11-30",
                               tags=tags)
    if sections:
        deal = Deal(tuple(seats), {**options, "stacks": [5] * len(seats), "button": 0},
                    None if seed is None else f"{seed}:1", made)
        notation = Notation("poke", tuple(seats), options, seed, (deal, deal), None, tags)
    assert parse(write(notation)) == notation
