"""A tournament's pictures (PNG): the standings after a round, and an elimination's bracket.

Drawn like the card pictures (`bot.present.card_art`): the same felt panel, fonts and inks,
deterministic bytes, every name cleaned (a picture shows no markdown, so a name is drawn as
it is, without a right-to-left override or zero-width joiner drawn as a box). The text of the
message beside the picture says the same, for screen readers and search.

Pure Pillow: the core passes plain rows (what a picture shows), so the picture never reads
a tournament's rules.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from PIL import ImageDraw

from bot.present.card_art import (
    GOLD,
    MAX_WIDTH,
    NOTE,
    PAD,
    RULE,
    TEXT,
    _encode,
    _fit,
    _font,
    _panel,
)
from bot.present.inert import clean

__all__ = ["BracketMatch", "StandingRow", "bracket_png", "standings_png"]

TITLE_SIZE, ROW_SIZE = 26, 20
ROW_H = 30
MEDALS = {1: GOLD, 2: (205, 212, 220, 255), 3: (214, 140, 84, 255)}


@dataclass(frozen=True)
class StandingRow:
    """One line of the standings: the place, the name, the score and the tiebreak."""

    place: int
    name: str
    score: str
    tiebreak: str = ""


@dataclass(frozen=True)
class BracketMatch:
    """One table of an elimination round: its players (None: an empty slot, a bye) and
    who went on (None: still playing)."""

    players: tuple[str | None, ...]
    winner: str | None = None


def standings_png(title: str, headings: Sequence[str], rows: Sequence[StandingRow]) -> bytes:
    """The standings as a table: place, name, score, tiebreak; the podium's places in
    medal colours. `headings`: the four columns' names, in the reader's language."""
    title_font, row_font = _font(TITLE_SIZE), _font(ROW_SIZE, bold=False)
    bold = _font(ROW_SIZE)
    names = [clean(row.name, limit=60) for row in rows]
    name_w = max([row_font.getlength(n) for n in names] + [bold.getlength(headings[1]), 120.0])
    name_w = min(name_w, 420.0)
    # Each column as wide as its heading too ("Placering" in Swedish), so none is cut short.
    columns = [max(56.0, bold.getlength(headings[0]) + 16), name_w + 24,
               max(90.0, bold.getlength(headings[2]) + 24),
               max(110.0, bold.getlength(headings[3]) + 12)]
    width = round(min(MAX_WIDTH, max(sum(columns) + 2 * PAD,
                                     title_font.getlength(title) + 2 * PAD)))
    height = PAD + TITLE_SIZE + 14 + ROW_H * (len(rows) + 1) + PAD
    image = _panel(width, height)
    draw = ImageDraw.Draw(image)
    draw.text((PAD, PAD - 4), _fit(clean(title), title_font, width - 2 * PAD), font=title_font,
              fill=GOLD)
    y = PAD + TITLE_SIZE + 14
    x = float(PAD)
    for heading, column in zip(headings, columns, strict=True):
        draw.text((x, y), _fit(heading, bold, column - 8), font=bold, fill=NOTE)
        x += column
    draw.line((PAD, y + ROW_H - 4, width - PAD, y + ROW_H - 4), fill=RULE, width=2)
    for row, name in zip(rows, names, strict=True):
        y += ROW_H
        ink = MEDALS.get(row.place, TEXT)
        cells = [f"{row.place}.", name, row.score, row.tiebreak]
        x = float(PAD)
        for cell, column in zip(cells, columns, strict=True):
            font = bold if row.place in MEDALS else row_font
            draw.text((x, y), _fit(cell, font, column - 8), font=font, fill=ink)
            x += column
    return _encode(image)


def bracket_png(title: str, rounds: Sequence[tuple[str, Sequence[BracketMatch]]]) -> bytes:
    """An elimination's rounds side by side, each a column of its tables (round name,
    then its tables); who went on from each table in gold."""
    title_font, font, bold = _font(TITLE_SIZE), _font(ROW_SIZE, bold=False), _font(ROW_SIZE)
    column_w = 220
    seats = max((len(m.players) for _, matches in rounds for m in matches), default=2)
    box_h = ROW_H * seats + 10
    most = max((len(matches) for _, matches in rounds), default=1)
    width = min(MAX_WIDTH, max(PAD * 2 + column_w * max(1, len(rounds)),
                               round(title_font.getlength(title)) + 2 * PAD))
    height = PAD + TITLE_SIZE + 14 + ROW_H + most * (box_h + 12) + PAD
    image = _panel(width, height)
    draw = ImageDraw.Draw(image)
    draw.text((PAD, PAD - 4), _fit(clean(title), title_font, width - 2 * PAD), font=title_font,
              fill=GOLD)
    top = PAD + TITLE_SIZE + 14
    for index, (name, matches) in enumerate(rounds):
        x = PAD + index * column_w
        draw.text((x, top), _fit(clean(name), bold, column_w - 12), font=bold, fill=NOTE)
        # Later rounds' tables sit centred against the ones they came from.
        spread = most / max(1, len(matches))
        for number, match in enumerate(matches):
            y = top + ROW_H + round((number + 0.5) * spread * (box_h + 12) - (box_h + 12) / 2)
            draw.rounded_rectangle((x, y, x + column_w - 16, y + box_h), radius=6,
                                   outline=RULE, width=2)
            for seat, player in enumerate(match.players):
                label = "—" if player is None else clean(player, limit=40)
                won = player is not None and player == match.winner
                draw.text((x + 8, y + 6 + seat * ROW_H), _fit(label, bold if won else font,
                                                              column_w - 32),
                          font=bold if won else font, fill=GOLD if won else TEXT)
    return _encode(image)
