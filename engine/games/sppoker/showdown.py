"""Sppoker's showdown: each seat's entry (its declaration, poker hand and word) and who wins
what, as one pure function (`resolve`), so each ruling can be tested on its own; and the
cards' texts of the game (`sppoker_cards`) with the bonus for spelling SPPOKER."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.cards import Card, parse_card, sppoker_card
from engine.declaring import TIMED_OUT
from engine.i18n import Msg, msg
from engine.words import (
    WordCheck,
    hand_letters,
    word_rank,
)

__all__ = ["SPPOKER_LETTERS", "Entry", "Resolution", "resolve", "spells_sppoker", "sppoker_cards"]


SPPOKER_LETTERS = Counter("SPPOKER")


def sppoker_cards(text: str | Iterable[str | Card]) -> list[Card]:
    """Cards of the Sppoker deck from their text ("Ah 2c *E"), each given its letter, so
    tests and replays can name cards the usual way.

    >>> [str(card) for card in sppoker_cards("Ah 2c *E")]
    ['Ah:O', '2c:A', '*E']
    """
    items = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    cards = []
    for item in items:
        card = item if isinstance(item, Card) else parse_card(item)
        if card.rank is not None:
            assert card.suit is not None
            card = sppoker_card(card.rank, card.suit)
        elif card.letter is None:
            raise ValueError("the Sppoker deck has no jokers: its wild cards are *A *E *I *O")
        cards.append(card)
    return cards


def spells_sppoker(cards: Iterable[Card]) -> bool:
    """Whether 7 cards spell the game's name (vowel cards count as their vowel).

    >>> spells_sppoker(sppoker_cards("3c 2s Kd *O 7h *E 6s"))
    True
    """
    return Counter(hand_letters(cards)) == SPPOKER_LETTERS


@dataclass(frozen=True)
class Entry:
    """One seat at the reveal: its declaration, its poker strength and its word check."""

    seat: int
    name: str
    declaration: str  # poker / spelling / double / timeout
    poker: int
    poker_text: str
    word: WordCheck | None = None

    @property
    def word_key(self) -> tuple[int, int] | None:
        """The spelling comparison key, or None for a missing or invalid word (which never
        wins, ties or beats anything)."""
        if self.word is None or not self.word.ok:
            return None
        return word_rank(self.word.word)

    @property
    def plays_poker(self) -> bool:
        return self.declaration in ("poker", "double")

    @property
    def plays_spelling(self) -> bool:
        return self.declaration in ("spelling", "double")

    @property
    def shown_word(self) -> str:
        if self.word and self.word.word:
            return msg("{word} ({name})", word=self.word.word, name=self.name)
        return self.name


@dataclass
class Resolution:
    """Who scored what at a reveal, and why, per seat (sentences fit for the reveal)."""

    points: dict[int, int]
    notes: dict[int, list[str]]
    poker_winners: list[int] = field(default_factory=list)
    spelling_winners: list[int] = field(default_factory=list)
    double_winner: int | None = None


def _best(entries: list[Entry], key: Any) -> list[Entry]:
    valued = [e for e in entries if key(e) is not None]
    if not valued:
        return []
    top = max(key(e) for e in valued)
    return [e for e in valued if key(e) == top]


def _plain_contest(
    contenders: list[Entry],
    kind: str,
    res: Resolution,
) -> None:
    """Resolve one kind (poker or spelling) without double down: the best score 1 each."""
    poker = kind == "poker"

    def key(e: Entry) -> Any:
        return e.poker if poker else e.word_key

    def what(e: Entry) -> str:
        return msg("{name} ({hand})", name=e.name, hand=e.poker_text) if poker \
            else e.shown_word

    winners = _best(contenders, key)
    won = res.poker_winners if poker else res.spelling_winners
    for e in contenders:
        notes = res.notes[e.seat]
        if not poker and e.word_key is None:
            continue  # already noted as an invalid word: it neither wins nor ties
        if e in winners:
            res.points[e.seat] += 1
            won.append(e.seat)
            others = [w for w in winners if w is not e]
            if len(contenders) == 1:
                notes.append(msg("lone poker declarer: wins poker: +1") if poker
                             else msg("lone spelling declarer: wins spelling: +1"))
            elif others:
                tied = Msg.joined(", ", [what(w) for w in others])
                notes.append(msg("tied on poker with {others}: +1", others=tied) if poker
                             else msg("tied on spelling with {others}: +1", others=tied))
            else:
                notes.append(msg("wins poker: +1") if poker else msg("wins spelling: +1"))
        else:
            beaters = Msg.joined(", ", [what(w) for w in winners])
            notes.append(msg("beaten on poker by {others}", others=beaters) if poker
                         else msg("beaten on spelling by {others}", others=beaters))


def resolve(entries: Sequence[Entry]) -> Resolution:
    """Resolve a reveal exactly as RULINGS say (Sppoker: resolution, with and without
    double down). Timed-out seats take part in nothing and score nothing."""
    res = Resolution({e.seat: 0 for e in entries}, {e.seat: [] for e in entries})
    for e in entries:
        if e.declaration == TIMED_OUT:
            res.notes[e.seat].append(msg("did not declare in time: loses the hand"))
        elif e.plays_spelling and e.word_key is None:
            reason = e.word.reason if e.word else msg("no word given")
            res.notes[e.seat].append(msg("invalid word: {reason}", reason=reason))
    poker = [e for e in entries if e.plays_poker]
    spelling = [e for e in entries if e.plays_spelling]
    doubles = [e for e in entries if e.declaration == "double"]
    if not doubles:
        _plain_contest(poker, "poker", res)
        _plain_contest(spelling, "spelling", res)
        return res

    # First the double-down players among themselves: strictly best on both, or out.
    survivor: Entry | None = None
    for d in doubles:
        if _double_eliminated(d, [x for x in doubles if x is not d], res, among="doubles"):
            continue
        survivor = d
    # Then the survivor against every other declared hand of each kind.
    if survivor is not None:
        others_poker = [x for x in poker if x is not survivor and x.declaration != "double"]
        others_spelling = [x for x in spelling if x is not survivor and x.declaration != "double"]
        if _double_eliminated(survivor, others_poker, res, among="all", spelling=others_spelling):
            survivor = None
    if survivor is not None:
        res.points[survivor.seat] = 4
        res.double_winner = survivor.seat
        res.poker_winners.append(survivor.seat)
        res.spelling_winners.append(survivor.seat)
        res.notes[survivor.seat].append(msg("double down wins both ways: +4"))
        for d in doubles:
            if d is not survivor:
                res.points[d.seat] = -2
                res.notes[d.seat][-1] = Msg.joined("", [res.notes[d.seat][-1], ": -2"])
        for e in entries:
            if e.declaration in ("poker", "spelling"):
                res.notes[e.seat].append(msg("the double down of {name} ends the hand",
                                             name=survivor.name))
        return res
    for d in doubles:
        res.points[d.seat] = -2
        res.notes[d.seat][-1] = Msg.joined("", [res.notes[d.seat][-1], ": -2"])
    _plain_contest([e for e in poker if e.declaration == "poker"], "poker", res)
    _plain_contest([e for e in spelling if e.declaration == "spelling"], "spelling", res)
    return res


def _double_eliminated(
    d: Entry,
    rivals_poker: list[Entry],
    res: Resolution,
    *,
    among: str,
    spelling: list[Entry] | None = None,
) -> bool:
    """Whether double-down player `d` is tied or beaten on either hand; notes why."""
    notes = res.notes[d.seat]
    if d.word_key is None:
        notes.append(msg("double down needs a valid word"))
        return True
    rivals_spelling = rivals_poker if spelling is None else spelling
    for x in sorted(rivals_poker, key=lambda e: -e.poker):
        if x.poker > d.poker:
            notes.append(msg("double down beaten on poker by {name} ({hand})", name=x.name,
                             hand=x.poker_text))
            return True
        if x.poker == d.poker:
            notes.append(msg("double down tied on poker with {name} ({hand})", name=x.name,
                             hand=x.poker_text))
            return True
    valid = [x for x in rivals_spelling if x.word_key is not None]
    for x in sorted(valid, key=lambda e: e.word_key or (0, 0), reverse=True):
        assert x.word_key is not None
        if x.word_key > d.word_key:
            notes.append(msg("double down beaten on spelling by {word}", word=x.shown_word))
            return True
        if x.word_key == d.word_key:
            notes.append(msg("double down tied on spelling with {word}", word=x.shown_word))
            return True
    return False
