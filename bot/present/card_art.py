"""One card drawn as a picture (face, back, wild card), with the fonts, shapes and inks it
needs, and the palette PNG encoding; `bot.present.images` lays cards out in rows and panels.

Pure Pillow, no Discord. A card's face is drawn once and cached, so a hand is a handful of
pastes; output is deterministic (the same card gives the same pixels).
"""

from __future__ import annotations

import io
from functools import cache, lru_cache
from pathlib import Path

from PIL import Image, ImageChops, ImageDraw, ImageFilter, ImageFont

from engine.cards import Card, Suit, rank_name

RGBA = tuple[int, int, int, int]

# --- geometry (pixels at 1x) -------------------------------------------------------------
CARD_W, CARD_H = 100, 140
CARD_SIZE = (CARD_W, CARD_H)
CARD_RADIUS = 9
GAP = 8  # between cards in a row
FAN_STEP = 58  # card-to-card distance when a row is fanned: the corner index stays visible
PAD = 16  # panel edge to content
RAISE = 10  # how far a highlighted card lifts
SHADOW_BLUR = 3
SHADOW_OFFSET = (1, 3)
PANEL_RADIUS = 16
INDEX_W = 30  # the corner index column
MAX_WIDTH = 1200  # captions and labels are clipped (with "…") rather than widening past this
SS = 4  # supersampling for the anti-aliased shapes that Pillow would draw jagged

# --- colours -----------------------------------------------------------------------------
RED: RGBA = (200, 24, 42, 255)
BLACK: RGBA = (24, 24, 30, 255)
WILD_INK: RGBA = (98, 42, 140, 255)  # vowel cards and jokers: neither red nor black
GOLD: RGBA = (242, 190, 48, 255)
FACE: RGBA = (255, 255, 255, 255)
WILD_FACE: RGBA = (255, 246, 214, 255)
EDGE: RGBA = (150, 150, 158, 255)
FELT: RGBA = (24, 96, 58, 255)
FELT_RIM: RGBA = (10, 48, 28, 255)
TEXT: RGBA = (246, 242, 228, 255)
NOTE: RGBA = (196, 222, 204, 255)
SLOT_FILL: RGBA = (21, 87, 52, 255)  # opaque, so fanned empty places stack like cards
SLOT_EDGE: RGBA = (66, 134, 96, 255)
RULE: RGBA = (78, 133, 104, 255)  # opaque: ImageDraw replaces pixels, it doesn't blend
BACK_RED: RGBA = (150, 22, 38, 255)
BACK_LINE: RGBA = (196, 64, 78, 255)

_RED_SUITS = frozenset({Suit.HEARTS, Suit.DIAMONDS})
_FIGURES = {11: "♞", 12: "♛", 13: "♚"}  # jack as the knight (the knave), queen, king

FONT_DIRS = (Path("/usr/share/fonts"), Path("/usr/local/share/fonts"))
DEBIAN_FONT_DIR = Path("/usr/share/fonts/truetype/dejavu")


class FontMissingError(RuntimeError):
    """The card faces need DejaVu Sans (it has the suit, star and chess glyphs)."""


# --- fonts and glyphs --------------------------------------------------------------------


@cache
def _font_path(bold: bool) -> Path:
    """Debian's path first; other layouts (Fedora, Arch, /usr/local) by a name search."""
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    candidate = DEBIAN_FONT_DIR / name
    if candidate.is_file():
        return candidate
    for root in FONT_DIRS:
        if root.is_dir():
            for found in sorted(root.rglob(name)):
                return found
    raise FontMissingError(
        f"card images need the font {name} (DejaVu Sans): install the Debian package "
        "fonts-dejavu-core (apt-get install fonts-dejavu-core; `./dev test` does it)"
    )


@cache
def _font(size: int, bold: bool = True) -> ImageFont.FreeTypeFont:
    # BASIC layout: the same pixels whether or not libraqm is present on the host.
    return ImageFont.truetype(str(_font_path(bold)), size, layout_engine=ImageFont.Layout.BASIC)


@lru_cache(maxsize=512)
def _glyph(
    text: str, size: int, colour: RGBA, bold: bool = True, stroke: int = 0
) -> Image.Image:
    """Text cropped to its ink, so glyphs of any shape centre exactly where they're put.

    With `stroke`, the ink grows by that many pixels all round: pasted under the plain
    glyph (same centre) it makes an even outline in another colour.
    """
    font = _font(size, bold)
    left, top, right, bottom = font.getbbox(text)
    margin = size // 2 + stroke
    mask = Image.new("L", (int(right - left) + 2 * margin, int(bottom - top) + 2 * margin), 0)
    ImageDraw.Draw(mask).text(
        (margin - left, margin - top), text, font=font, fill=255, stroke_width=stroke,
        stroke_fill=255,
    )
    box = mask.getbbox() or (0, 0, 1, 1)
    mask = mask.crop(box)
    out = Image.new("RGBA", mask.size, colour)
    out.putalpha(ImageChops.multiply(mask, Image.new("L", mask.size, colour[3])))
    return out


def _paste_centred(base: Image.Image, glyph: Image.Image, cx: float, cy: float) -> None:
    base.alpha_composite(glyph, (round(cx - glyph.width / 2), round(cy - glyph.height / 2)))


def _fit(text: str, font: ImageFont.FreeTypeFont, width: float) -> str:
    """Clip to a pixel width with an ellipsis: a long name must not widen the picture."""
    if font.getlength(text) <= width:
        return text
    while text and font.getlength(text + "…") > width:
        text = text[:-1]
    return text.rstrip() + "…"


# --- shapes ------------------------------------------------------------------------------


def _smooth_round_rect(
    size: tuple[int, int], radius: int, fill: RGBA, outline: RGBA | None = None, width: int = 0
) -> Image.Image:
    """Pillow draws rounded rectangles without anti-aliasing; draw big, shrink once."""
    w, h = size
    big = Image.new("RGBA", (w * SS, h * SS), (0, 0, 0, 0))
    draw = ImageDraw.Draw(big)
    box = (0, 0, w * SS - 1, h * SS - 1)
    if outline is not None and width:
        draw.rounded_rectangle(box, radius * SS, fill=outline)
        inset = width * SS
        inner = (inset, inset, w * SS - 1 - inset, h * SS - 1 - inset)
        draw.rounded_rectangle(inner, max(radius - width, 1) * SS, fill=fill)
    else:
        draw.rounded_rectangle(box, radius * SS, fill=fill)
    return big.resize(size, Image.Resampling.LANCZOS)


@cache
def _card_mask() -> Image.Image:
    return _smooth_round_rect(CARD_SIZE, CARD_RADIUS, (255, 255, 255, 255)).getchannel("A")


@cache
def _blank(face: RGBA, edge: RGBA) -> Image.Image:
    return _smooth_round_rect(CARD_SIZE, CARD_RADIUS, face, edge, 1)


@cache
def _shadow(raised: bool) -> Image.Image:
    """A soft drop shadow; a raised card casts a wider, lighter one (it floats higher)."""
    blur = SHADOW_BLUR * (2 if raised else 1)
    alpha = 60 if raised else 75
    pad = blur * 3
    mask = Image.new("L", (CARD_W + 2 * pad, CARD_H + 2 * pad), 0)
    mask.paste(_card_mask().point(lambda v: v * alpha // 255), (pad, pad))
    mask = mask.filter(ImageFilter.GaussianBlur(blur))
    out = Image.new("RGBA", mask.size, (0, 0, 0, 255))
    out.putalpha(mask)
    return out


@cache
def _halo() -> Image.Image:
    """The gold ring round a highlighted card (outside its edge, so no face is covered)."""
    ring = 3
    size = (CARD_W + 2 * ring, CARD_H + 2 * ring)
    return _smooth_round_rect(size, CARD_RADIUS + ring, (0, 0, 0, 0), GOLD, ring)


@cache
def _slot() -> Image.Image:
    """An empty place in a row (a Po-Ke-No space not yet filled): a faint outline."""
    return _smooth_round_rect(CARD_SIZE, CARD_RADIUS, SLOT_FILL, SLOT_EDGE, 2)


def _ink(card: Card) -> RGBA:
    if card.suit is None:
        return WILD_INK
    return RED if card.suit in _RED_SUITS else BLACK


# --- card faces --------------------------------------------------------------------------


def _index(top: str, top_size: int, bottom: str, bottom_size: int, colour: RGBA) -> Image.Image:
    """A corner index: rank (or letter) over suit (or star), centred on one column."""
    upper = _glyph(top, top_size, colour)
    lower = _glyph(bottom, bottom_size, colour)
    gap = 4
    width = max(upper.width, lower.width, INDEX_W)
    out = Image.new("RGBA", (width, upper.height + gap + lower.height), (0, 0, 0, 0))
    out.alpha_composite(upper, ((width - upper.width) // 2, 0))
    out.alpha_composite(lower, ((width - lower.width) // 2, upper.height + gap))
    return out


def _vertical_index(word: str, size: int, colour: RGBA) -> Image.Image:
    """JOKER written down the corner, as printed jokers have it."""
    letters = [_glyph(ch, size, colour) for ch in word]
    gap = 2
    height = sum(g.height for g in letters) + gap * (len(letters) - 1)
    out = Image.new("RGBA", (INDEX_W, height), (0, 0, 0, 0))
    y = 0
    for g in letters:
        out.alpha_composite(g, ((INDEX_W - g.width) // 2, y))
        y += g.height + gap
    return out


def _put_indices(face: Image.Image, index: Image.Image) -> None:
    """Top-left and, turned over, bottom-right: readable whichever way a player looks."""
    x, y = 4 + (INDEX_W - index.width) // 2, 8
    face.alpha_composite(index, (x, y))
    flipped = index.rotate(180)
    face.alpha_composite(flipped, (CARD_W - x - index.width, CARD_H - y - index.height))


def _rank_text(rank: int) -> str:
    return "10" if rank == 10 else rank_name(rank)


def _rank_glyph_size(rank: int) -> int:
    return 22 if rank == 10 else 27  # "10" is two figures wide; keep it in the column


@lru_cache(maxsize=256)
def _face(card: Card, wild: str = "WILD") -> Image.Image:
    """One card's face, drawn once per process (a Card hashes by rank, suit and letter).
    `wild` is the word under a Sppoker vowel card's letter, in the reader's language (the
    caller translates it: this module draws and knows no language)."""
    if card.rank is None:
        return _wild_face(card.letter, wild)
    assert card.suit is not None
    ink = _ink(card)
    face = _blank(FACE, EDGE).copy()
    rank, pip = _rank_text(card.rank), card.suit.symbol
    _put_indices(face, _index(rank, _rank_glyph_size(card.rank), pip, 20, ink))
    cx, cy = CARD_W / 2, CARD_H / 2
    if card.letter is not None:
        # Sppoker: the letter is what players spell with; the suit shows faintly behind it.
        _paste_centred(face, _glyph(pip, 92, (*ink[:3], 28)), cx, cy)
        _paste_centred(face, _glyph(card.letter, 60, ink), cx, cy)
    elif card.rank in _FIGURES:
        _paste_centred(face, _glyph(_FIGURES[card.rank], 58, ink, bold=False), cx, cy - 6)
        _paste_centred(face, _glyph(pip, 18, ink), cx, cy + 34)
    else:
        _paste_centred(face, _glyph(pip, 72 if card.rank == 14 else 58, ink), cx, cy)
    return face


def _wild_face(letter: str | None, wild: str = "WILD") -> Image.Image:
    if letter is None:  # a joker: JOKER down both corners, a gold star in the middle
        face = _blank(FACE, EDGE).copy()
        _put_indices(face, _vertical_index("JOKER", 13, WILD_INK))
        star = _glyph("★", 58, GOLD)
        outline = _glyph("★", 58, WILD_INK, stroke=2)
        _paste_centred(face, outline, CARD_W / 2, CARD_H / 2)
        _paste_centred(face, star, CARD_W / 2, CARD_H / 2)
        return face
    # A SPPOKER vowel card: wild in poker, its vowel in spelling; a warmer face sets it apart.
    face = _blank(WILD_FACE, GOLD).copy()
    _put_indices(face, _index(letter, 25, "★", 20, WILD_INK))
    _paste_centred(face, _glyph("★", 88, (*GOLD[:3], 110)), CARD_W / 2, CARD_H / 2 - 6)
    _paste_centred(face, _glyph(letter, 56, WILD_INK), CARD_W / 2, CARD_H / 2 - 6)
    _paste_centred(face, _glyph(wild, 11, WILD_INK), CARD_W / 2 - 6, CARD_H / 2 + 29)
    return face


@cache
def _back() -> Image.Image:
    """A face-down card: white margin, a red lattice, a gold diamond in the middle."""
    w, h = CARD_W * SS, CARD_H * SS
    art = Image.new("RGBA", (w, h), BACK_RED)
    draw = ImageDraw.Draw(art)
    step = 12 * SS
    for x in range(-h, w + h, step):
        draw.line([(x, 0), (x + h, h)], fill=BACK_LINE, width=SS)
        draw.line([(x, h), (x + h, 0)], fill=BACK_LINE, width=SS)
    cx, cy, r = w // 2, h // 2, 16 * SS
    draw.polygon([(cx, cy - r), (cx + r, cy), (cx, cy + r), (cx - r, cy)], fill=GOLD)
    art = art.resize(CARD_SIZE, Image.Resampling.LANCZOS)
    margin = 6
    inner_size = (CARD_W - 2 * margin, CARD_H - 2 * margin)
    inner_mask = _smooth_round_rect(inner_size, CARD_RADIUS - 4, (0, 0, 0, 255)).getchannel("A")
    face = _blank(FACE, EDGE).copy()
    face.paste(art.crop((margin, margin, CARD_W - margin, CARD_H - margin)),
               (margin, margin), inner_mask)
    return face


# --- the felt panel ----------------------------------------------------------------------


@cache
def _corner(radius: int) -> Image.Image:
    big = Image.new("L", (radius * SS * 2, radius * SS * 2), 0)
    ImageDraw.Draw(big).ellipse((0, 0, big.width - 1, big.height - 1), fill=255)
    return big.resize((radius * 2, radius * 2), Image.Resampling.LANCZOS).crop(
        (0, 0, radius, radius)
    )


def _rounded_mask(width: int, height: int, radius: int) -> Image.Image:
    """An anti-aliased rounded-rectangle mask of any size from four cached corners."""
    mask = Image.new("L", (width, height), 255)
    corner = _corner(radius)
    mask.paste(corner, (0, 0))
    mask.paste(corner.transpose(Image.Transpose.FLIP_LEFT_RIGHT), (width - radius, 0))
    mask.paste(corner.transpose(Image.Transpose.FLIP_TOP_BOTTOM), (0, height - radius))
    mask.paste(corner.rotate(180), (width - radius, height - radius))
    return mask


def _panel(width: int, height: int) -> Image.Image:
    """The felt: a dark rim round a flat green, transparent outside the corners.

    Flat, not shaded: a gradient bands once the picture is reduced to a palette (below).
    """
    rim = 2
    panel = Image.new("RGBA", (width, height), FELT_RIM)
    panel.putalpha(_rounded_mask(width, height, PANEL_RADIUS))
    inner = (width - 2 * rim, height - 2 * rim)
    panel.paste(FELT, (rim, rim, width - rim, height - rim),
                _rounded_mask(*inner, PANEL_RADIUS - rim))
    return panel


def _encode(image: Image.Image) -> bytes:
    """A 256-colour palette PNG: a third of the RGBA size and faster to write.

    The pictures hold a few inks plus their anti-aliasing ramps, so the palette loses
    nothing visible; the flat felt keeps it from banding.
    """
    palette_image = image.quantize(256, method=Image.Quantize.FASTOCTREE)
    # The octree averages alpha within a colour box, leaving clear corners at alpha 1 and
    # opaque felt at 254; snap both ends so clear is clear and solid is solid.
    palette = palette_image.getpalette("RGBA") or []
    for i in range(3, len(palette), 4):
        palette[i] = 0 if palette[i] < 8 else 255 if palette[i] > 247 else palette[i]
    palette_image.putpalette(palette, "RGBA")
    buffer = io.BytesIO()
    palette_image.save(buffer, "PNG", compress_level=6)
    return buffer.getvalue()
