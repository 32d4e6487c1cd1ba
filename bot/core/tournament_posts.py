"""What a tournament posts in its channel, as typed values, and the one JSON codec of their
saved rows.

A tournament's message is decided inside its command (under its lock) and written with the
change that says it (`bot.store.tournaments`, which keeps it as JSON and knows nothing of
it); the bot posts it afterwards, drawing its picture then. So the core speaks
`TournamentPost` (its text, and a standings picture described by its rows, with an
elimination's bracket), and only this module turns it into the saved JSON and back, as
`bot.core.outbox_json` does for the tables' outbox.

The format is the one rows have always been saved in (`{"text": ..., "picture": null}`, a
picture as `{"kind": "standings", "title", "headings", "rows": [[place, name, score,
tiebreak]], "bracket": [[round name, [[[players], winner]]]]}`), so a message saved before an
upgrade is posted after it: `post_from_json` reads what the code of before wrote, and
`post_to_json` writes exactly that again.

>>> post_to_json(TournamentPost("Round 2 starts soon."))
{'text': 'Round 2 starts soon.', 'picture': None}
>>> post_from_json({"text": "Hi", "picture": None})
TournamentPost(text='Hi', picture=None)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from bot.present.tournament_pictures import BracketMatch, StandingRow, bracket_png, standings_png

__all__ = ["BracketRound", "StandingsPicture", "TournamentPost", "draw", "post_from_json",
           "post_to_json"]


@dataclass(frozen=True)
class BracketRound:
    """One round of an elimination's bracket: its name and its tables (a bye: one player)."""

    name: str
    matches: tuple[BracketMatch, ...]


@dataclass(frozen=True)
class StandingsPicture:
    """The standings picture, by what it shows: drawn when the message is posted (a PNG is
    not worth saving, and a restart draws it the same)."""

    title: str
    headings: tuple[str, ...]
    rows: tuple[StandingRow, ...]
    bracket: tuple[BracketRound, ...] = ()


@dataclass(frozen=True)
class TournamentPost:
    """A message in the tournament's channel: its text (in the server's language, names
    made inert) and, after a round, the standings picture."""

    text: str
    picture: StandingsPicture | None = None


def draw(post: TournamentPost) -> list[tuple[str, bytes]]:
    """The post's pictures as (file name, PNG): the standings, and an elimination's bracket."""
    picture = post.picture
    if picture is None:
        return []
    files = [("standings.png", standings_png(picture.title, picture.headings, picture.rows))]
    if picture.bracket:
        files.append(("bracket.png", bracket_png(
            picture.title, [(r.name, list(r.matches)) for r in picture.bracket])))
    return files


def post_to_json(post: TournamentPost) -> dict[str, Any]:
    picture = post.picture
    return {"text": post.text, "picture": None if picture is None else _picture_json(picture)}


def _picture_json(picture: StandingsPicture) -> dict[str, Any]:
    saved: dict[str, Any] = {
        "kind": "standings", "title": picture.title, "headings": list(picture.headings),
        "rows": [[row.place, row.name, row.score, row.tiebreak] for row in picture.rows]}
    if picture.bracket:
        saved["bracket"] = [[r.name, [[list(m.players), m.winner] for m in r.matches]]
                            for r in picture.bracket]
    return saved


def post_from_json(data: Mapping[str, Any]) -> TournamentPost:
    picture = data.get("picture")
    return TournamentPost(str(data.get("text") or ""),
                          _picture_from_json(picture) if picture else None)


def _picture_from_json(data: Mapping[str, Any]) -> StandingsPicture:
    rows = tuple(StandingRow(int(r[0]), str(r[1]), str(r[2]), str(r[3]))
                 for r in data["rows"])
    bracket = tuple(
        BracketRound(str(name), tuple(
            BracketMatch(tuple(None if p is None else str(p) for p in players),
                         None if winner is None else str(winner))
            for players, winner in matches))
        for name, matches in data.get("bracket") or ())
    return StandingsPicture(str(data["title"]), tuple(str(h) for h in data["headings"]),
                            rows, bracket)
