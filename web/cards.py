"""The cards a page shows, found in the engine's views, and their pictures.

What a view holds is what its reader may see (the engine's rule: hidden information leaves
it only through `view(seat)`), so the cards on a page are read from the views, never from
the game: the table's from its public view, a seat's hand from that seat's view. The public
view's records of the past (the previous deal's hands, a reveal) are left out of the
table's cards: they are history, told in the text, not cards on the table now.

>>> table_cards({"kind": "x", "names": ["Ah"], "board": ["Ah", "Td"], "phase": "play",
...              "last_deal": {"hands": [["2c"]]}})
['Ah', 'Td']
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from bot.present.images import Row, render_rows
from engine.cards import Card, CardError, parse_card

__all__ = ["HISTORY_KEYS", "card_labels", "cards_in", "picture", "table_cards"]

# What the public view keeps of the past (tests/support/leaks.py names the same keys), and
# what is no card: the seats' names (a person may be called "Ah").
HISTORY_KEYS = frozenset({"last_deal", "last_reveal", "shown", "names", "result"})


def _card(text: str) -> Card | None:
    try:
        card = parse_card(text)
    except CardError:
        return None
    return card if str(card) == text else None  # only a card as the engine writes one


def cards_in(value: Any) -> list[str]:
    """Every card text in a view's JSON, in order, each once."""
    found: dict[str, None] = {}

    def walk(item: Any) -> None:
        if isinstance(item, str):
            if 2 <= len(item) <= 6 and _card(item) is not None:
                found.setdefault(item)
        elif isinstance(item, Mapping):
            for key, inner in item.items():
                if key not in HISTORY_KEYS:
                    walk(inner)
        elif isinstance(item, list | tuple):
            for inner in item:
                walk(inner)

    walk(value)
    return list(found)


def table_cards(public_json: Mapping[str, Any]) -> list[str]:
    """The cards on the table now: everything the public view shows but its history."""
    return cards_in({key: value for key, value in public_json.items()
                     if key not in HISTORY_KEYS})


def card_labels(cards: Iterable[str]) -> list[tuple[str, str]]:
    """(card text, label as every client shows it: "A♥") for each card."""
    shown = []
    for text in cards:
        card = _card(text)
        shown.append((text, card.label if card is not None else text))
    return shown


def picture(title: str, rows: Sequence[tuple[str, Sequence[str]]]) -> bytes:
    """A PNG of labelled rows of cards, drawn like the bot's pictures in Discord
    (`bot.present.images`: the same card art and font)."""
    drawn = [Row(label, [card for card in (_card(text) for text in cards) if card is not None])
             for label, cards in rows]
    return render_rows(drawn, title=title)
