"""Card pictures: valid PNGs whose size follows their content, every card of every deck
draws, highlights and backs show, and the same input always gives the same bytes."""

import io

import pytest
from PIL import Image

from bot.present import card_art
from bot.present.images import MAX_WIDTH, FontMissingError, Row, render_cards, render_rows
from engine.cards import (
    Suit,
    joker,
    parse_cards,
    pokeno_deck,
    sppoker_card,
    sppoker_deck,
    sppoker_wild,
)

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
SEVEN = parse_cards("Ah Kd Qs Jc Th 9d 2c")


def decode(data: bytes) -> Image.Image:
    assert data.startswith(PNG_SIGNATURE)
    image = Image.open(io.BytesIO(data))
    image.load()
    return image.convert("RGBA")


def test_a_hand_is_a_png_with_transparent_corners():
    image = decode(render_cards(SEVEN, caption="Your hand"))
    assert image.getpixel((0, 0))[3] == 0  # outside the felt's rounded corner
    assert image.getpixel((image.width // 2, 5))[3] == 255


def test_width_grows_with_the_number_of_cards():
    widths = [decode(render_cards(SEVEN[:n])).width for n in range(1, 8)]
    assert widths == sorted(set(widths))
    assert widths[-1] <= 800  # a 7-card hand stays phone-sized


def test_face_down_cards_add_places_and_differ_from_faces():
    shown = decode(render_cards(SEVEN[:2]))
    hidden = decode(render_cards(SEVEN[:2], face_down=2))
    assert hidden.width > shown.width
    assert decode(render_cards([], face_down=1)).tobytes() != (
        decode(render_cards(SEVEN[:1])).tobytes()
    )


def test_highlight_changes_the_picture():
    plain = decode(render_cards(SEVEN, highlight=()))
    lifted = decode(render_cards(SEVEN, highlight=range(5)))
    assert plain.tobytes() != lifted.tobytes()
    # out-of-range indices are ignored rather than failing a message
    assert decode(render_cards(SEVEN[:2], highlight=[7, -1])).size == (
        decode(render_cards(SEVEN[:2])).size
    )


def test_same_input_gives_the_same_bytes_even_after_the_caches_are_dropped():
    first = render_rows([("Ann\nFlush", SEVEN)], title="Showdown")
    card_art._face.cache_clear()
    card_art._glyph.cache_clear()
    assert render_rows([("Ann\nFlush", SEVEN)], title="Showdown") == first
    assert render_cards(SEVEN, highlight=[0, 1]) == render_cards(SEVEN, highlight=[1, 0])


def test_sppoker_letters_vowel_cards_and_jokers_draw_their_own_faces():
    plain = parse_cards("Ah")[0]
    lettered = sppoker_card(14, Suit.HEARTS)
    pictures = {
        card: decode(render_cards([card])).tobytes()
        for card in (plain, lettered, sppoker_wild("E"), sppoker_wild("O"), joker())
    }
    assert len(set(pictures.values())) == len(pictures)


@pytest.mark.parametrize("deck", [sppoker_deck, pokeno_deck], ids=["sppoker", "pokeno"])
def test_every_card_of_the_decks_renders(deck):
    cards = list(dict.fromkeys(deck()))  # each distinct card once
    for card in cards:
        decode(render_cards([card]))
    rows = [(f"row {i}", cards[i : i + 7]) for i in range(0, len(cards), 7)]
    assert decode(render_rows(rows)).height > 0


def test_rows_stack_and_split_into_columns():
    one = decode(render_rows([("Ann", SEVEN)]))
    four = decode(render_rows([(name, SEVEN) for name in "ABCD"]))
    assert four.width == one.width and four.height > 3 * one.height // 2
    ten = decode(render_rows([(f"space {i}", SEVEN[:5]) for i in range(10)]))
    assert ten.width > one.width  # two columns
    fanned = decode(render_rows([(f"space {i}", SEVEN[:5]) for i in range(10)], fan=True))
    assert fanned.width < ten.width and fanned.height == ten.height


def test_rows_carry_notes_highlights_backs_slots_and_a_winner():
    rows = [
        Row("Ann", SEVEN, note="Straight, ace high", highlight=range(5), winner=True),
        Row("Bob", (), note="folded", face_down=2),
        Row("Two pair", SEVEN[:2], note="2/4 · 7 pts", slots=4),
        Row("Cleo", ()),
    ]
    image = decode(render_rows(rows, title="Showdown, hand #3"))
    plain = decode(render_rows([Row(r.label, r.cards, note=r.note) for r in rows], title="x"))
    assert image.tobytes() != plain.tobytes()
    assert Row("Ann", list(SEVEN), highlight=iter([1])) == Row("Ann", SEVEN, highlight=[1])


def test_a_label_after_a_newline_is_the_note():
    assert render_rows([("Ann\nFlush", SEVEN)]) == render_rows([Row("Ann", SEVEN, note="Flush")])


def test_long_text_is_clipped_not_widening_past_the_limit():
    image = decode(render_cards(SEVEN[:2], caption="a very long caption " * 40))
    assert image.width <= MAX_WIDTH
    rows = decode(render_rows([("name " * 200, SEVEN[:1])], title="title " * 200))
    assert rows.width <= MAX_WIDTH


def test_empty_pictures_are_still_pictures():
    decode(render_cards([]))
    decode(render_cards([], caption="No cards yet"))
    decode(render_rows([]))
    decode(render_rows([], title="Nobody played"))


def test_missing_font_names_the_debian_package(monkeypatch, tmp_path):
    monkeypatch.setattr(card_art, "DEBIAN_FONT_DIR", tmp_path / "dejavu")
    monkeypatch.setattr(card_art, "FONT_DIRS", (tmp_path,))
    card_art._font_path.cache_clear()
    try:
        with pytest.raises(FontMissingError, match="fonts-dejavu-core"):
            card_art._font_path(True)
    finally:
        card_art._font_path.cache_clear()
