"""Cards, their text forms, and the decks the games use.

A card is a small immutable value. Ranks run 2..14 (ace high; games that play aces low
say so themselves). A wild card (a joker, or one of Sppoker's four vowel cards) has no
rank and no suit. Sppoker cards also carry a letter.

Every card carries one precomputed integer, `code`, chosen so that the *sum* of a hand's
codes holds the hand's rank histogram, its wild count and its per-suit counts at once
(see the layout constants below). The evaluator turns that sum into a hand value with a
dict lookup, which is what makes pure-Python evaluation fast.

Text forms round-trip:

>>> parse_cards("Ah Td 10c 2s Jk")
[Card('Ah'), Card('Td'), Card('Tc'), Card('2s'), Card('Jk')]
>>> str(parse_card("2c:A")), str(parse_card("*E"))
('2c:A', '*E')
>>> parse_card("Ax")
Traceback (most recent call last):
...
engine.cards.CardError: 'Ax' is not a card: the suit must be one of c, d, h, s (or ♣♦♥♠)
"""

from __future__ import annotations

import csv
import enum
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from engine.i18n import msg

__all__ = [
    "RANKS",
    "Card",
    "CardError",
    "Suit",
    "cards_from_json",
    "cards_to_json",
    "deck_with_jokers",
    "joker",
    "parse_card",
    "parse_cards",
    "pokeno_deck",
    "rank_name",
    "shuffled",
    "sppoker_card",
    "sppoker_deck",
    "sppoker_letters",
    "sppoker_wild",
    "standard_deck",
]

DATA_DIR = Path(__file__).resolve().parent.parent / "data"

RANKS: tuple[int, ...] = tuple(range(2, 15))
_RANK_NAMES = {10: "T", 11: "J", 12: "Q", 13: "K", 14: "A"}
_RANK_WORDS = {
    2: msg("two"), 3: msg("three"), 4: msg("four"), 5: msg("five"), 6: msg("six"),
    7: msg("seven"), 8: msg("eight"), 9: msg("nine"), 10: msg("ten"), 11: msg("jack"),
    12: msg("queen"), 13: msg("king"), 14: msg("ace"),
}
_RANK_PLURALS = {
    2: msg("twos"), 3: msg("threes"), 4: msg("fours"), 5: msg("fives"), 6: msg("sixes"),
    7: msg("sevens"), 8: msg("eights"), 9: msg("nines"), 10: msg("tens"), 11: msg("jacks"),
    12: msg("queens"), 13: msg("kings"), 14: msg("aces"),
}
SPPOKER_VOWELS: tuple[str, ...] = ("A", "E", "I", "O")


class CardError(ValueError):
    """A text could not be read as a card; the message says why, fit to show a player."""


class Suit(enum.IntEnum):
    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3

    @property
    def letter(self) -> str:
        return "cdhs"[self]

    @property
    def symbol(self) -> str:
        return "♣♦♥♠"[self]


# --- the evaluation code layout -------------------------------------------------------
# bits 0..38: 13 rank fields of 3 bits (count of each rank, 2..A);
# bits 39..41: the number of wild cards;
# bits 42..57: 4 suit fields of 4 bits (count of each suit; a wild adds one to every suit).
RANK_BITS = 3
WILD_SHIFT = 39
SUIT_SHIFT = 42
SUIT_BITS = 4
RANK_FIELD_MASK = (1 << WILD_SHIFT) - 1
RANK_AND_WILD_MASK = (1 << SUIT_SHIFT) - 1
# Adding FLUSH_BIAS to a hand's sum sets bit 3 of a suit field exactly when that suit
# (with the wilds) holds 5 or more cards, so one AND tells whether a flush is possible.
FLUSH_BIAS = sum(3 << (SUIT_SHIFT + SUIT_BITS * s) for s in range(4))
FLUSH_BITS = sum(8 << (SUIT_SHIFT + SUIT_BITS * s) for s in range(4))
_WILD_CODE = (1 << WILD_SHIFT) + sum(1 << (SUIT_SHIFT + SUIT_BITS * s) for s in range(4))


def rank_name(rank: int) -> str:
    """The one-character name of a rank: 2..9, T, J, Q, K, A."""
    return _RANK_NAMES.get(rank, str(rank))


def rank_word(rank: int, plural: bool = False) -> str:
    """The English name of a rank, for explanations ("pair of kings")."""
    return _RANK_PLURALS[rank] if plural else _RANK_WORDS[rank]


def _code(rank: int | None, suit: Suit | None) -> int:
    if rank is None:
        return _WILD_CODE
    assert suit is not None
    return (1 << (RANK_BITS * (rank - 2))) + (1 << (SUIT_SHIFT + SUIT_BITS * suit))


@dataclass(frozen=True, slots=True)
class Card:
    """One playing card. `rank is None` means wild (a joker or a Sppoker vowel card)."""

    rank: int | None
    suit: Suit | None
    letter: str | None = None
    code: int = field(init=False, compare=False, repr=False, hash=False)

    def __post_init__(self) -> None:
        if (self.rank is None) != (self.suit is None):
            raise CardError(msg("a card has both a rank and a suit, or neither (a wild card)"))
        if self.rank is not None and self.rank not in RANKS:
            raise CardError(msg("{rank} is not a rank (2..14)", rank=str(self.rank)))
        if self.suit is not None and not isinstance(self.suit, Suit):
            object.__setattr__(self, "suit", Suit(self.suit))
        if self.letter is not None and not (len(self.letter) == 1 and self.letter.isalpha()):
            raise CardError(msg("{text} is not a letter", text=repr(self.letter)))
        object.__setattr__(self, "code", _code(self.rank, self.suit))

    @property
    def is_wild(self) -> bool:
        return self.rank is None

    @property
    def is_joker(self) -> bool:
        return self.rank is None and self.letter is None

    def __str__(self) -> str:
        if self.rank is None:
            return "Jk" if self.letter is None else f"*{self.letter}"
        assert self.suit is not None
        text = rank_name(self.rank) + self.suit.letter
        return text if self.letter is None else f"{text}:{self.letter}"

    def __repr__(self) -> str:
        return f"Card({str(self)!r})"

    @property
    def label(self) -> str:
        """The card as every Discord client renders it: rank and suit symbol (and letter)."""
        if self.rank is None:
            return "🃏" if self.letter is None else f"★{self.letter}"
        assert self.suit is not None
        rank = "10" if self.rank == 10 else rank_name(self.rank)
        face = rank + self.suit.symbol
        return face if self.letter is None else f"{face}{self.letter}"

    def sort_key(self) -> tuple[int, int]:
        """Order for showing a hand: by rank, then suit; wild cards last."""
        if self.rank is None:
            return (15, ord(self.letter or "Z"))
        assert self.suit is not None
        return (self.rank, int(self.suit))


_SUIT_FROM_TEXT = {
    "c": Suit.CLUBS, "d": Suit.DIAMONDS, "h": Suit.HEARTS, "s": Suit.SPADES,
    "♣": Suit.CLUBS, "♦": Suit.DIAMONDS, "♥": Suit.HEARTS, "♠": Suit.SPADES,
    "♧": Suit.CLUBS, "♢": Suit.DIAMONDS, "♡": Suit.HEARTS, "♤": Suit.SPADES,
}
_RANK_FROM_TEXT = {rank_name(r).lower(): r for r in RANKS} | {"10": 10}
_JOKER_TEXTS = {"jk", "jo", "joker", "🃏", "*"}


def parse_card(text: str) -> Card:
    """Read one card: "Ah", "Td", "10c", "2♠", "Jk" (joker), "2c:A" (letter), "*E" (vowel)."""
    raw = text.strip()
    body, _, letter = raw.partition(":")
    if raw.startswith("*") and len(raw) == 2 and raw[1].isalpha():
        return Card(None, None, raw[1].upper())
    if body.lower() in _JOKER_TEXTS or body == "🃏":
        if letter:
            raise CardError(msg("{text} is not a card: a joker carries no letter", text=repr(text)))
        return Card(None, None)
    if len(body) < 2:
        raise CardError(msg("{text} is not a card: write a rank and a suit, like Ah or 10c",
                             text=repr(text)))
    rank_text, suit_text = body[:-1].lower(), body[-1].lower()
    suit = _SUIT_FROM_TEXT.get(suit_text)
    if suit is None:
        raise CardError(msg("{text} is not a card: the suit must be one of c, d, h, s (or ♣♦♥♠)",
                             text=repr(text)))
    rank = _RANK_FROM_TEXT.get(rank_text)
    if rank is None:
        raise CardError(msg("{text} is not a card: the rank must be 2-10, J, Q, K or A",
                             text=repr(text)))
    if letter and not (len(letter) == 1 and letter.isalpha()):
        raise CardError(msg("{text} is not a card: after ':' comes one letter", text=repr(text)))
    return Card(rank, suit, letter.upper() or None)


def parse_cards(text: str | Iterable[str]) -> list[Card]:
    """Read cards separated by spaces or commas (or an iterable of card texts)."""
    parts = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    return [parse_card(part) for part in parts]


def cards_to_json(cards: Iterable[Card]) -> list[str]:
    """Cards as a snapshot or an action's arguments hold them: their texts, in order.

    >>> cards_to_json(parse_cards("Ah Td Jk"))
    ['Ah', 'Td', 'Jk']
    >>> cards_from_json(['Ah', 'Td']) == parse_cards("Ah Td")
    True
    """
    return [str(card) for card in cards]


def cards_from_json(texts: Iterable[str]) -> list[Card]:
    """The cards of `cards_to_json`'s texts."""
    return [parse_card(text) for text in texts]


def format_cards(cards: Iterable[Card]) -> str:
    """The compact, parseable text form of several cards ("Ah Td Jk")."""
    return " ".join(str(card) for card in cards)


def label_cards(cards: Iterable[Card]) -> str:
    """Cards as players read them ("A♥ 10♦ 🃏")."""
    return " ".join(card.label for card in cards)


def joker() -> Card:
    return Card(None, None)


def standard_deck() -> list[Card]:
    """The 52 cards in a fixed order (clubs..spades, 2..A within each)."""
    return [Card(rank, suit) for suit in Suit for rank in RANKS]


def deck_with_jokers(jokers: int) -> list[Card]:
    """The 52 cards plus `jokers` jokers."""
    return standard_deck() + [joker() for _ in range(jokers)]


def pokeno_deck(decks: int = 2) -> list[Card]:
    """Pyramid Po-Ke-No: `decks` standard decks with two jokers each (108 cards for two)."""
    return [card for _ in range(decks) for card in deck_with_jokers(2)]


@cache
def sppoker_letters() -> dict[tuple[int, Suit], str]:
    """The letter on each standard card of the Sppoker deck, read from data/."""
    table: dict[tuple[int, Suit], str] = {}
    path = DATA_DIR / "sppoker_letters.csv"
    with path.open(encoding="utf-8") as handle:
        rows = csv.reader(line for line in handle if not line.startswith("#"))
        header = next(rows)
        suits = [Suit[name.upper()] for name in header[1:]]
        for row in rows:
            rank = _RANK_FROM_TEXT[row[0].strip().lower()]
            for suit, letter in zip(suits, row[1:], strict=True):
                table[(rank, suit)] = letter.strip().upper()
    if len(table) != 52:
        raise ValueError(f"{path} must give a letter for each of the 52 cards")
    return table


def sppoker_card(rank: int, suit: Suit) -> Card:
    """A standard card carrying its Sppoker letter."""
    return Card(rank, suit, sppoker_letters()[(rank, Suit(suit))])


def sppoker_wild(vowel: str) -> Card:
    """One of the four SPPOKER cards: wild in poker, its vowel in spelling."""
    if vowel.upper() not in SPPOKER_VOWELS:
        raise CardError(msg("the SPPOKER cards carry A, E, I or O, not {text}", text=repr(vowel)))
    return Card(None, None, vowel.upper())


def sppoker_deck() -> list[Card]:
    """The 56-card Sppoker deck: 52 letter cards and the four vowel cards."""
    letters = sppoker_letters()
    cards = [Card(rank, suit, letters[(rank, suit)]) for suit in Suit for rank in RANKS]
    return cards + [sppoker_wild(vowel) for vowel in SPPOKER_VOWELS]


def shuffled(cards: Sequence[Card], rng: random.Random) -> list[Card]:
    """A shuffled copy; the caller's `rng` is the only source of chance (replays exactly)."""
    deck = list(cards)
    rng.shuffle(deck)
    return deck
