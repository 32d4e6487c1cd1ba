"""Card pictures (PNG) for the places where text cards fall short.

Suit symbols in message text depend on each client's emoji and font fallback (a phone may
draw ♦ as a tiny glyph or an emoji of another colour), and a row of text cards is hard to
scan at a showdown. A picture looks the same on every client, so the bot can attach one
next to the text (which stays the source of truth: screen readers and search use it).

Everything here is pure Pillow (no Discord import) so tests and benches run without a bot.

Design choices, each for Discord:

- Everything sits on a rounded dark-green "felt" panel with transparent corners, and the
  cards carry their own white faces, so the image reads the same on dark and light themes.
- Big corner indices (rank over suit, repeated upside down) stay legible when a phone
  shrinks the image to a third of its size; the centre holds one big pip, a chess figure
  for J/Q/K, or the Sppoker letter.
- A card's face is drawn once and cached (keyed by the card, which hashes by rank, suit
  and letter), so a hand is a handful of pastes and one PNG encode.
- Output is deterministic: the same input gives the same bytes (tests and message edits
  can compare images).
- Every text drawn (labels, notes, captions, titles) is cleaned (`bot.present.inert.clean`): a
  player's name comes as they chose it, and a right-to-left override or a zero-width joiner
  would be drawn as a box. Not escaped: a picture shows no markdown, so it shows the name
  itself, not the backslashes a message needs.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from bot.present.card_art import (
    CARD_H,
    CARD_SIZE,
    CARD_W,
    FAN_STEP,
    GAP,
    GOLD,
    MAX_WIDTH,
    NOTE,
    PAD,
    RAISE,
    RULE,
    SHADOW_OFFSET,
    TEXT,
    FontMissingError,
    _back,
    _encode,
    _face,
    _fit,
    _font,
    _halo,
    _panel,
    _shadow,
    _slot,
)
from bot.present.i18n import t
from bot.present.inert import clean
from engine.cards import Card

__all__ = ["CARD_SIZE", "FontMissingError", "Row", "render_cards", "render_rows"]


# --- rows of cards -----------------------------------------------------------------------


@dataclass(frozen=True)
class Row:
    """One labelled row of a multi-row picture (a player at a showdown, a board space).

    Fields beyond label and cards exist because a bare row can't say them: `note` is a
    smaller second line (the hand's name, "2/5"); `highlight` lifts cards (indices into
    `cards`; others are ignored, so a stale index can't fail a message); `face_down` adds
    backs after the cards; `slots` pads with empty places up to that many (a Po-Ke-No
    space being filled); `winner` draws the name in gold behind a star.
    """

    label: str
    cards: Sequence[Card] = ()
    note: str | None = None
    highlight: Iterable[int] = ()
    face_down: int = 0
    slots: int = 0
    winner: bool = False

    def __post_init__(self) -> None:
        # Frozen and hashable whatever the caller passed (a list, a generator of indices).
        cards = tuple(self.cards)
        marks = frozenset(i for i in self.highlight if 0 <= i < len(cards))
        object.__setattr__(self, "cards", cards)
        object.__setattr__(self, "highlight", marks)
        object.__setattr__(self, "label", _plain(self.label))
        object.__setattr__(self, "note", _plain(self.note) if self.note else self.note)

    @property
    def places(self) -> int:
        return max(len(self.cards) + self.face_down, self.slots)


def wild_word() -> str:
    """The word a Sppoker vowel card shows under its letter (wild in poker), in the current
    locale: a picture is drawn in its reader's language (`bot.discord.painter.draw`)."""
    return t("WILD")


def _plain(text: str) -> str:
    """Text as a picture draws it: cleaned, not clipped (the pixel width clips it)."""
    return clean(text, limit=None)


def _as_row(row: Row | tuple[str, Sequence[Card]]) -> Row:
    if isinstance(row, Row):
        return row
    label, cards = row
    name, _, note = label.partition("\n")
    return Row(name, tuple(cards), note or None)


def _strip_width(places: int, step: int) -> int:
    return 0 if places == 0 else CARD_W + step * (places - 1)


def _lift(row: Row) -> int:
    """Room above a row for its lifted cards and their gold ring."""
    return RAISE + 3 if row.highlight else 0


def _draw_strip(base: Image.Image, row: Row, x: int, y: int, step: int, lift: int) -> None:
    """Cards left to right from (x, y + lift); lifted cards rise into the `lift` band."""
    top = y + lift
    for i in range(row.places):
        cx = x + i * step
        if i < len(row.cards):
            raised = i in row.highlight
            face = _face(row.cards[i], wild_word())
        elif i < len(row.cards) + row.face_down:
            raised, face = False, _back()
        else:
            base.alpha_composite(_slot(), (cx, top))
            continue
        cy = top - RAISE if raised else top
        shadow = _shadow(raised)
        pad = (shadow.width - CARD_W) // 2
        base.alpha_composite(shadow, (cx - pad + SHADOW_OFFSET[0], cy - pad + SHADOW_OFFSET[1]))
        if raised:
            base.alpha_composite(_halo(), (cx - 3, cy - 3))
        base.alpha_composite(face, (cx, cy))


STRIP_H = CARD_H + SHADOW_OFFSET[1] + 2  # the band a row of cards occupies, below any lift
NAME_SIZE, NOTE_SIZE, TITLE_SIZE = 17, 14, 20


def render_cards(
    cards: Sequence[Card],
    *,
    caption: str | None = None,
    highlight: Iterable[int] = (),
    face_down: int = 0,
) -> bytes:
    """One row of cards as PNG bytes (a hand, a board), with an optional caption above.

    `highlight` (indices into `cards`) lifts and rings cards, e.g. the best five of seven;
    `face_down` adds that many backs after the face-up cards (hidden cards of a stud hand).
    """
    caption = _plain(caption) if caption else caption
    row = Row(caption or "", cards, highlight=highlight, face_down=face_down)
    font = _font(NAME_SIZE)
    text_h = NAME_SIZE + 8 if caption else 0
    lift = _lift(row)
    width = max(_strip_width(row.places, CARD_W + GAP), 2 * CARD_W) + 2 * PAD
    if caption:
        width = max(width, min(round(font.getlength(caption)) + 2 * PAD, MAX_WIDTH))
    height = PAD + text_h + (lift + STRIP_H if row.places else 0) + PAD - 4
    image = _panel(width, height)
    if caption:
        text = _fit(caption, font, width - 2 * PAD)
        ImageDraw.Draw(image).text((PAD, PAD - 3), text, font=font, fill=TEXT)
    if row.places:
        _draw_strip(image, row, PAD, PAD + text_h, CARD_W + GAP, lift)
    return _encode(image)


def render_rows(
    rows: Sequence[Row | tuple[str, Sequence[Card]]],
    *,
    title: str | None = None,
    columns: int | None = None,
    fan: bool = False,
) -> bytes:
    """Several labelled rows as PNG bytes: a showdown (a row per player), a Po-Ke-No board.

    A plain `(label, cards)` row may put a result line after a newline in its label
    ("Ann\\nFlush, ace high"); a `Row` says more (highlights, backs, empty slots, winner).
    More than five rows go in two columns by default, keeping the picture near the shape
    of Discord's preview; `fan` overlaps each row's cards, leaving their corner indices in
    view, which nearly halves a wide row (a board of ten 5-card spaces then fits ~730 px).
    """
    items = [_as_row(row) for row in rows]
    title = _plain(title) if title else title
    ncols = max(1, min(columns or (1 if len(items) <= 5 else 2), len(items) or 1))
    step = FAN_STEP if fan else CARD_W + GAP
    name_font, note_font = _font(NAME_SIZE), _font(NOTE_SIZE, bold=False)

    def label_h(row: Row) -> int:
        return NAME_SIZE + 6 + (NOTE_SIZE + 4 if row.note else 0)

    def row_h(row: Row) -> int:
        return label_h(row) + (_lift(row) + STRIP_H if row.places else 0)

    per_col = -(-len(items) // ncols)
    grid = [items[c * per_col : (c + 1) * per_col] for c in range(ncols)]
    strip_w = max((_strip_width(r.places, step) for r in items), default=0)
    label_w = max(
        (max(name_font.getlength(r.label), note_font.getlength(r.note or "")) for r in items),
        default=0,
    )
    col_gap, row_gap = 2 * PAD, 14
    col_w = max(strip_w, min(round(label_w), MAX_WIDTH // ncols - col_gap), 2 * CARD_W)
    title_font = _font(TITLE_SIZE)
    title_h = TITLE_SIZE + 16 if title else 0
    width = ncols * col_w + (ncols - 1) * col_gap + 2 * PAD
    if title:
        width = max(width, min(round(title_font.getlength(title)) + 2 * PAD, MAX_WIDTH))
    body_h = max(
        (sum(row_h(r) for r in col) + row_gap * (len(col) - 1) for col in grid if col),
        default=0,
    )
    height = PAD + title_h + body_h + PAD - 4
    image = _panel(width, height)
    draw = ImageDraw.Draw(image)
    if title:
        text = _fit(title, title_font, width - 2 * PAD)
        draw.text((PAD, PAD - 4), text, font=title_font, fill=GOLD)
        rule_y = PAD + TITLE_SIZE + 5
        draw.line([(PAD, rule_y), (width - PAD, rule_y)], fill=RULE, width=1)
    for c, col in enumerate(grid):
        x, y = PAD + c * (col_w + col_gap), PAD + title_h
        for row in col:
            name = f"★ {row.label}" if row.winner else row.label
            draw.text((x, y - 3), _fit(name, name_font, col_w), font=name_font,
                      fill=GOLD if row.winner else TEXT)
            if row.note:
                draw.text((x, y + NAME_SIZE + 2), _fit(row.note, note_font, col_w),
                          font=note_font, fill=NOTE)
            if row.places:
                _draw_strip(image, row, x, y + label_h(row), step, _lift(row))
            y += row_h(row) + row_gap
    return _encode(image)
