"""Point totals for the chip games whose hands are counted, not ranked: Spew, Old Man 49er
and Zero to 55 (seed 001).

Some cards may take one of several values (an ace is 1 or 11), always "at the player's
election", so a hand has a *set* of reachable totals and each side of a high-low game
takes the total that suits it. The conventions below are where the seed is silent:

- **Each side is valued separately.** A player who declares both ways is scored with
  their best high total for high and their best low total for low; the seed's own
  example values one Zero to 55 hand as 55 high "or 4 if going low".
- **Zero to 55, high is "closest to 55"; nothing can pass 55.** The largest values a
  52-card deck offers are A♠ 12, three aces 11 and a ten or face 10: exactly the seed's
  "best possible high hand = 55". So closest to 55 is simply the highest total, and
  `best_high(cards, ZERO_TO_55, target=55)` equals `best_high(cards, ZERO_TO_55)`. For a
  target that *can* be passed, distance decides and an equal distance prefers the total
  short of the target (a high hand approaches its target from below).
- **Low is closest to 0**, which (all values being positive or 0) is the lowest total.
  A Spew player whose cards are all spewed holds the empty hand, total 0: the seed's
  optional rule credits exactly that "nut low"; without the rule the game removes them.
- **Old Man 49er:** high is the highest total (54, four aces and a ten, beats 49 for
  high), low the lowest. A five-card hand that *can* total exactly 49 takes the whole
  pot (`is_49`); the player elects the aces' values, so any reachable 49 counts.
- **Betting order** (Old Man 49er): the highest exposed total with aces as 11, i.e. each
  exposed card at its highest value: `exposed_total_for_betting`. Zero to 55's seed gives
  no betting-order rule; the same function (faces 10, A♠ 12) is offered for it.
- Wild cards have no value in these games and are refused (ValueError).

>>> from engine.cards import parse_cards
>>> sorted(totals(parse_cards("Ah As Kd"), ZERO_TO_55))
[2, 12, 13, 22, 23, 33]
>>> best_high(parse_cards("Ah Ac Ad As Kc"), ZERO_TO_55, target=55)
55
>>> best_low(parse_cards("Ah Ac Ad As Kc"), ZERO_TO_55)
4
>>> is_49(parse_cards("Ah 9c 9d 10s 10h"))
True
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from engine.cards import RANKS, Card, Suit

__all__ = [
    "OLD_MAN_49ER",
    "SPEW",
    "ZERO_TO_55",
    "ZERO_TO_55_TARGET",
    "PointScheme",
    "best_high",
    "best_low",
    "exposed_total_for_betting",
    "is_49",
    "reaches",
    "totals",
]

ZERO_TO_55_TARGET = 55
FORTY_NINE = 49


@dataclass(frozen=True)
class PointScheme:
    """The values each card may take in one game.

    Stored as tuples (not dicts) so a scheme is hashable and can key caches. `by_rank`
    holds one tuple of values per rank 2..A; `by_card` overrides it for single cards
    (Zero to 55's ace of spades).
    """

    name: str
    by_rank: tuple[tuple[int, ...], ...]
    by_card: tuple[tuple[int, Suit, tuple[int, ...]], ...] = ()

    @classmethod
    def build(
        cls,
        name: str,
        rank_values: Mapping[int, Iterable[int]],
        card_values: Mapping[tuple[int, Suit], Iterable[int]] | None = None,
    ) -> PointScheme:
        """A scheme from readable mappings; a rank not given is worth its own number."""
        by_rank = tuple(tuple(sorted(set(rank_values.get(r, (r,))))) for r in RANKS)
        by_card = tuple(
            (rank, Suit(suit), tuple(sorted(set(values))))
            for (rank, suit), values in (card_values or {}).items()
        )
        return cls(name, by_rank, by_card)

    def values(self, card: Card) -> tuple[int, ...]:
        """The values `card` may take, lowest first."""
        if card.rank is None:
            raise ValueError(f"wild cards have no value in {self.name}")
        for rank, suit, values in self.by_card:
            if card.rank == rank and card.suit == suit:
                return values
        return self.by_rank[card.rank - 2]


_FACES = (11, 12, 13)

SPEW = PointScheme.build("Spew", {14: (1, 11)} | {r: (10,) for r in _FACES})
OLD_MAN_49ER = PointScheme.build("Old Man 49er", {14: (1, 11)} | {r: (0,) for r in _FACES})
ZERO_TO_55 = PointScheme.build(
    "Zero to 55",
    {14: (1, 11)} | {r: (0, 10) for r in _FACES},
    {(14, Suit.SPADES): (1, 12)},
)


def totals(cards: Iterable[Card], scheme: PointScheme) -> frozenset[int]:
    """Every total the cards can reach; the empty hand reaches 0."""
    reach = {0}
    for card in cards:
        values = scheme.values(card)
        if len(values) == 1:
            value = values[0]
            reach = {total + value for total in reach}
        else:
            reach = {total + value for total in reach for value in values}
    return frozenset(reach)


def reaches(cards: Iterable[Card], scheme: PointScheme, total: int) -> bool:
    """Whether the player can elect values that make exactly `total`."""
    return total in totals(cards, scheme)


def best_high(cards: Iterable[Card], scheme: PointScheme, target: int | None = None) -> int:
    """The player's high total: the highest, or with `target` the closest to it.

    Equal distance on both sides of the target prefers the total below it.
    """
    reach = totals(cards, scheme)
    if target is None:
        return max(reach)
    return min(reach, key=lambda t: (abs(t - target), t > target))


def best_low(cards: Iterable[Card], scheme: PointScheme, target: int = 0) -> int:
    """The player's low total: the closest to `target` (0: the lowest).

    Equal distance on both sides prefers the total above the target (a low hand
    approaches its target from above).
    """
    reach = totals(cards, scheme)
    return min(reach, key=lambda t: (abs(t - target), t < target))


def exposed_total_for_betting(cards: Iterable[Card], scheme: PointScheme) -> int:
    """The exposed cards' total for deciding who bets first: every card at its highest
    value (Old Man 49er: "aces as 11"), so the order never depends on private intent."""
    return sum(max(scheme.values(card)) for card in cards)


def is_49(cards: Sequence[Card], scheme: PointScheme = OLD_MAN_49ER) -> bool:
    """Old Man 49er's jackpot: a five-card hand that can total exactly 49."""
    return len(cards) == 5 and reaches(cards, scheme, FORTY_NINE)
