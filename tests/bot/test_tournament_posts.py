"""A tournament's channel messages as typed values (`bot.core.tournament_posts`), and their
saved JSON: rows written by the code of before (the literal rows below, as it wrote them:
`{"text", "picture"}`, a picture's rows as lists) are read and written back exactly, so a
message waiting to be posted across an upgrade is posted after it."""

from __future__ import annotations

import doctest
from typing import Any

import bot.core.tournament_posts
from bot.core import tournament_text
from bot.core.tournament_posts import (
    BracketRound,
    StandingsPicture,
    TournamentPost,
    draw,
    post_from_json,
    post_to_json,
)
from bot.present import i18n
from bot.present.tournament_pictures import BracketMatch, StandingRow
from engine.tournaments import Entrant, Format, Tournament, TournamentConfig

SAVED_TEXT: dict[str, Any] = {"text": "Round 2 starts <t:1764700000:R>.", "picture": None}
SAVED_SWISS: dict[str, Any] = {
    "text": "Standings after round 1\n1. Ann — 1 (Buchholz 0)\n2. Bo — 0 (Buchholz 1)",
    "picture": {"kind": "standings", "title": "Standings after round 1",
                "headings": ["Place", "Player", "Score", "Buchholz"],
                "rows": [[1, "Ann", "1", "0"], [2, "Bo", "0", "1"]]},
}
SAVED_BRACKET: dict[str, Any] = {
    "text": "Standings after round 1\n1. Ann — 1",
    "picture": {"kind": "standings", "title": "Standings after round 1",
                "headings": ["Place", "Player", "Score", ""],
                "rows": [[1, "Ann", "1", ""], [1, "Cy", "1", ""], [3, "Bo", "0", ""]],
                "bracket": [["Round 1", [[["Ann", "Bo"], "Ann"], [["Cy", "Dan"], None],
                                         [["Eva", None], "Eva"]]]]},
}


def test_saved_rows_of_before_read_as_typed_values_and_write_back_exactly() -> None:
    assert post_from_json(SAVED_TEXT) == TournamentPost(SAVED_TEXT["text"])
    swiss = post_from_json(SAVED_SWISS)
    assert swiss.picture == StandingsPicture(
        "Standings after round 1", ("Place", "Player", "Score", "Buchholz"),
        (StandingRow(1, "Ann", "1", "0"), StandingRow(2, "Bo", "0", "1")))
    bracket = post_from_json(SAVED_BRACKET)
    assert bracket.picture is not None and bracket.picture.bracket == (BracketRound(
        "Round 1", (BracketMatch(("Ann", "Bo"), "Ann"), BracketMatch(("Cy", "Dan"), None),
                    BracketMatch(("Eva", None), "Eva"))),)
    for saved in (SAVED_TEXT, SAVED_SWISS, SAVED_BRACKET):
        assert post_to_json(post_from_json(saved)) == saved


def test_a_row_without_a_picture_key_is_text_alone() -> None:
    assert post_from_json({"text": "Done."}) == TournamentPost("Done.")


def test_the_pictures_are_drawn_from_the_typed_rows() -> None:
    assert draw(post_from_json(SAVED_TEXT)) == []
    assert [name for name, _ in draw(post_from_json(SAVED_SWISS))] == ["standings.png"]
    files = draw(post_from_json(SAVED_BRACKET))
    assert [name for name, _ in files] == ["standings.png", "bracket.png"]
    assert all(data.startswith(b"\x89PNG") for _, data in files)


def test_the_standings_post_of_an_elimination_saves_as_before() -> None:
    t = Tournament(TournamentConfig(Format.ELIMINATION, seats=2, min_table=2))
    for number, name in enumerate(["Ann", "Bo", "Cy"], 1):
        t.join(Entrant(str(number), name))
    t.start({"1": 1900.0, "2": 1800.0, "3": 1700.0})
    t.record_result(1, [1, 2])
    with i18n.using("en"):
        said = tournament_text.standings_post(t, "Standings after round 1",
                                              tournament_text.standings_text(t))
    saved = post_to_json(said)
    assert saved["picture"]["kind"] == "standings"
    assert saved["picture"]["headings"] == ["Place", "Player", "Score", ""]
    [[name, matches]] = saved["picture"]["bracket"]
    # Three players: a bracket of four, so round 1 is the semi-finals (the column's name).
    assert name == "Semi-finals" and [["Ann", None], "Ann"] in matches  # the top seed's bye
    assert post_from_json(saved) == said


def test_the_examples_in_the_module_hold() -> None:
    assert doctest.testmod(bot.core.tournament_posts).failed == 0
