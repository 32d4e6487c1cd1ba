"""Pyramid Po-Ke-No's scoring: each space's verdict (correct or not, and why), the points of
a round between several boards, the caller's bonus, and the solitaire score.

Whether a space is correct, and how strong it is, is the work of `spaces`; this module
compares boards and explains. Per RULINGS.md: for each space the strongest correct hand
scores the space's points; equal hands split them, rounded down; the caller of "full board"
scores +25 when all ten of their spaces are correct, else -25 (a round that ends without a
call has no bonus). Solitaire: the correct spaces' points, +10 per card in hand or left in
the deck, -10 per card discarded.

>>> from engine.cards import parse_cards
>>> verdict(Space.TWO_PAIR, parse_cards("9c 9d 9h 9s")).why
'four of a kind (nines), not two pair'
>>> verdict(Space.PAIR, parse_cards("Kc Jk")).why
'pair of kings (🃏 as K♠)'
>>> split_points(Space.FLUSH, 2), split_points(Space.NO_PAIR, 2)
(7, 1)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from engine.cards import Card, Suit, label_cards, rank_word
from engine.evaluator import evaluate
from engine.games.pokeno.spaces import Space, read_space, reading
from engine.i18n import Msg, msg

__all__ = [
    "CALL_BONUS",
    "CARD_VALUE",
    "SPACES",
    "RoundScore",
    "SpaceVerdict",
    "board_complete",
    "describe",
    "score_round",
    "solitaire_score",
    "space_index",
    "space_title",
    "split_points",
    "verdict",
]

SPACES: tuple[Space, ...] = tuple(Space)
"""The ten spaces in board order, from any two cards (3) up to the royal flush (60)."""

CALL_BONUS = 25
CARD_VALUE = 10  # solitaire: per card kept (hand or deck), and per card discarded

SHORT_NAMES = {
    Space.NO_PAIR: msg("any two cards"),
    Space.PAIR: msg("one pair"),
    Space.TWO_PAIR: msg("two pair"),
    Space.THREE_OF_A_KIND: msg("three of a kind"),
    Space.STRAIGHT: msg("straight"),
    Space.FLUSH: msg("flush"),
    Space.FULL_HOUSE: msg("full house"),
    Space.FOUR_OF_A_KIND: msg("four of a kind"),
    Space.STRAIGHT_FLUSH: msg("straight flush"),
    Space.ROYAL_FLUSH: msg("royal flush"),
}
TITLES = {
    Space.NO_PAIR: msg("Any two cards"),
    Space.PAIR: msg("One pair"),
    Space.TWO_PAIR: msg("Two pair"),
    Space.THREE_OF_A_KIND: msg("Three of a kind"),
    Space.STRAIGHT: msg("Straight"),
    Space.FLUSH: msg("Flush"),
    Space.FULL_HOUSE: msg("Full house"),
    Space.FOUR_OF_A_KIND: msg("Four of a kind"),
    Space.STRAIGHT_FLUSH: msg("Straight flush"),
    Space.ROYAL_FLUSH: msg("Royal flush"),
}
"""The spaces' names at the head of a line (a row of the board, a verdict)."""


def space_name(space: Space) -> str:
    return SHORT_NAMES[space]


def space_title(space: Space) -> str:
    """The space's name capitalised, as a catalogue entry of its own."""
    return TITLES[space]


def space_index(key: str | int) -> int:
    """A space from its key ("pair", "royal_flush") or its index 0-9; ValueError otherwise."""
    if isinstance(key, int) and not isinstance(key, bool) and 0 <= key < len(SPACES):
        return key
    if isinstance(key, str):
        text = key.strip().lower().replace(" ", "_").replace("-", "_")
        for index, space in enumerate(SPACES):
            if text in (space.name.lower(), SHORT_NAMES[space].replace(" ", "_")):
                return index
    raise ValueError(msg("{text} is not a space of the board", text=repr(key)))


def split_points(space: Space, ways: int) -> int:
    """A space's points shared by `ways` equal hands, rounded down."""
    return space.points // max(ways, 1)


def board_complete(board: Sequence[Sequence[Card]]) -> bool:
    return all(len(cards) == space.size for space, cards in zip(SPACES, board, strict=True))


def _groups_name(ranks: Sequence[int]) -> str:
    """Two to four concrete ranks in words: "pair of kings", "kings and sevens"."""
    counts = Counter(ranks)
    groups = sorted(counts.items(), key=lambda rc: (rc[1], rc[0]), reverse=True)
    shape = [count for _, count in groups]
    top = groups[0][0]
    if shape[0] == 4:
        return msg("four of a kind ({ranks})", ranks=rank_word(top, plural=True))
    if shape[0] == 3:
        return msg("three of a kind ({ranks})", ranks=rank_word(top, plural=True))
    if shape[:2] == [2, 2]:
        low = groups[1][0]
        return msg("two pair ({high} and {low})", high=rank_word(top, plural=True),
                   low=rank_word(low, plural=True))
    if shape[0] == 2:
        return msg("pair of {ranks}", ranks=rank_word(top, plural=True))
    high = sorted(ranks, reverse=True)
    if len(high) > 1:
        return msg("no pair, {high}-{low}", high=rank_word(high[0]), low=rank_word(high[1]))
    return msg("{rank} high", rank=rank_word(high[0]))


def describe(cards: Sequence[Card]) -> str:
    """Concrete cards (no wilds) as the hand they make: five by the evaluator, fewer here.

    >>> from engine.cards import parse_cards
    >>> describe(parse_cards("Ah Kh Qh Jh Th")), describe(parse_cards("7c 7d 2s 2h"))
    ('royal flush', 'two pair (sevens and twos)')
    """
    if len(cards) == 5:
        return evaluate(cards).description
    return _groups_name([card.rank for card in cards if card.rank is not None])


@dataclass(frozen=True)
class SpaceVerdict:
    """One space of one board at the round's end: correct or not, its strength (None when
    not correct), and why, in words a player reads."""

    correct: bool
    strength: int | None
    why: str


def verdict(space: Space, cards: Sequence[Card]) -> SpaceVerdict:
    if len(cards) < space.size:
        if not cards:
            return SpaceVerdict(False, None, msg("incomplete (empty)"))
        return SpaceVerdict(False, None, msg("incomplete (only {n} of {size} cards)",
                                             n=len(cards), size=space.size))
    strength = read_space(space, cards)
    wilds = [card for card in cards if card.is_wild]
    if strength is not None:
        read = reading(space, cards) or tuple(cards)
        text = describe(read)
        if wilds:
            stand_ins = _plain_suits(space, read[:len(cards) - len(wilds)],
                                     read[len(cards) - len(wilds):])
            jokers = [msg("🃏 as {card}", card=card.label) for card in stand_ins]
            text = msg("{hand} ({jokers})", hand=text, jokers=Msg.joined(", ", jokers))
        return SpaceVerdict(True, strength, text)
    if wilds and not space.wilds_allowed:
        return SpaceVerdict(False, None, msg("a royal flush must be natural: no jokers"))
    if wilds:
        return SpaceVerdict(False, None, msg("no reading of these cards, jokers included, is "
                                             "exactly {space}", space=space_name(space)))
    made = describe(cards)
    if space is Space.ROYAL_FLUSH:
        return SpaceVerdict(False, None, msg("{hand}, not a royal flush", hand=made))
    return SpaceVerdict(False, None, msg("{hand}, not {space}", hand=made,
                                         space=space_name(space)))


def _plain_suits(space: Space, naturals: Sequence[Card], stand_ins: Sequence[Card]
                 ) -> list[Card]:
    """The jokers' stand-ins as a player would name them: where the suit does not matter
    (every space but the flushes), a card not already there (🃏 as J♦ beside J♣ J♠, not as
    a second J♣), and in the straight never the naturals' one suit (no straight flush)."""
    if space in (Space.FLUSH, Space.STRAIGHT_FLUSH, Space.ROYAL_FLUSH):
        return list(stand_ins)
    used = list(naturals)
    avoid = {card.suit for card in naturals} if space is Space.STRAIGHT and len(
        {card.suit for card in naturals}) == 1 else set()
    named = []
    for card in stand_ins:
        rank = card.rank
        choice = card
        if rank is not None:
            for suit in (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS):
                candidate = Card(rank, suit)
                if candidate not in used and suit not in avoid:
                    choice = candidate
                    break
        used.append(choice)
        named.append(choice)
    return named


@dataclass(frozen=True)
class RoundScore:
    """A round between boards: each board's verdicts and points per space, the caller's
    bonus, and each seat's total for the round."""

    verdicts: tuple[tuple[SpaceVerdict, ...], ...]
    space_points: tuple[tuple[int, ...], ...]
    caller: int | None
    bonus: int
    totals: tuple[int, ...]

    def all_correct(self, seat: int) -> bool:
        return all(v.correct for v in self.verdicts[seat])

    def to_json(self) -> dict[str, Any]:
        return {
            "verdicts": [[{"correct": v.correct, "why": v.why} for v in row]
                         for row in self.verdicts],
            "space_points": [list(row) for row in self.space_points],
            "caller": self.caller,
            "bonus": self.bonus,
            "totals": list(self.totals),
        }


def score_round(boards: Sequence[Sequence[Sequence[Card]]], caller: int | None) -> RoundScore:
    """Score every space between the boards, then the caller's bonus or penalty.

    >>> from engine.cards import parse_cards
    >>> empty = [[] for _ in SPACES]
    >>> a = [list(empty[i]) for i in range(10)]; b = [list(empty[i]) for i in range(10)]
    >>> a[1] = parse_cards("Kc Kd"); b[1] = parse_cards("Kh Jk")
    >>> score_round([a, b], None).totals  # equal pairs of kings split 5: 2 each
    (2, 2)
    """
    verdicts = tuple(tuple(verdict(space, board[i]) for i, space in enumerate(SPACES))
                     for board in boards)
    points = [[0] * len(SPACES) for _ in boards]
    for i, space in enumerate(SPACES):
        strengths = [row[i].strength for row in verdicts]
        known = [s for s in strengths if s is not None]
        if not known:
            continue
        best = max(known)
        winners = [seat for seat, s in enumerate(strengths) if s == best]
        for seat in winners:
            points[seat][i] = split_points(space, len(winners))
    bonus = 0
    if caller is not None:
        bonus = CALL_BONUS if all(v.correct for v in verdicts[caller]) else -CALL_BONUS
    totals = tuple(sum(row) + (bonus if seat == caller else 0)
                   for seat, row in enumerate(points))
    return RoundScore(verdicts, tuple(tuple(row) for row in points), caller, bonus, totals)


def solitaire_score(board: Sequence[Sequence[Card]], kept: int, discarded: int
                    ) -> tuple[int, tuple[SpaceVerdict, ...]]:
    """Solitaire: the points of the correct spaces, +10 per card kept (in hand or left in
    the deck), -10 per card discarded.

    >>> solitaire_score([[] for _ in SPACES], kept=9, discarded=3)[0]
    60
    """
    verdicts = tuple(verdict(space, board[i]) for i, space in enumerate(SPACES))
    spaces = sum(space.points for space, v in zip(SPACES, verdicts, strict=True) if v.correct)
    return spaces + CARD_VALUE * kept - CARD_VALUE * discarded, verdicts


def board_text(board: Sequence[Sequence[Card]]) -> str:
    """A board in one line per space, for explanations."""
    return Msg.joined("\n", [msg("{space}: {cards}", space=space_name(space),
                                  cards=label_cards(board[i]) or "—")
                              for i, space in enumerate(SPACES)])
