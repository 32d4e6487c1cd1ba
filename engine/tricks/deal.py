"""Plumbing shared by the draw-then-play-tricks games (Poke, Poängpoker, Chicago).

Dealing (with the stacked-deal test hook), card lists in snapshots and action arguments,
turn order, and the draw heuristic the AI players share. Nothing here knows one game's
scoring.

Test hook: the option `stacked_deals` is a list of deals used in order, one per deal, each
`{"hands": ["Ah Kh Qh Jh Th", "", ...], "stock": "2c 3c"}`: hands by seat index ("" or a
missing entry: random cards), then the top of the stock, top card first. Cards not named
are shuffled (by the game's rng) below the named stock. Once the list is used up, deals
are random again. It lets tests and replays set up exact hands without touching state.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.cards import Card, cards_from_json, cards_to_json, parse_cards, standard_deck
from engine.evaluator import Category, evaluate
from engine.views import GameView, JSONRecord, PlayedTrick, SeatView, TrickPlays

__all__ = [
    "HAND_SIZE",
    "TrickSeatView",
    "TrickView",
    "check_options",
    "choose_discards",
    "deal",
    "order_from",
    "played_tricks",
    "trick_from_json",
    "trick_plays",
    "trick_to_json",
]

HAND_SIZE = 5


def check_options(title: str, options: Mapping[str, Any], known: Iterable[str], seats: int) -> None:
    """Refuse options a game does not have, or values it cannot use, with a message for the
    table host (the table manager shows a ValueError as it is)."""
    unknown = sorted(set(options) - set(known))
    if unknown:
        raise ValueError(f"unknown {title} options: {', '.join(unknown)}")
    first = options.get("first_dealer")
    if first is not None and not (isinstance(first, int) and 0 <= first < seats):
        raise ValueError(f"first_dealer must be a seat number from 0 to {seats - 1}")
    seconds = options.get("turn_seconds")
    if seconds is not None and not (isinstance(seconds, int | float) and seconds > 0):
        raise ValueError("turn_seconds must be a positive number of seconds")
    stacked = options.get("stacked_deals")
    if stacked is not None and not isinstance(stacked, list):
        raise ValueError("stacked_deals must be a list of deals")


@dataclass(frozen=True, kw_only=True)
class TrickView(GameView):
    """What the trick games show alike: the deal (`dealer`, cards left in the `stock`, each
    hand's size), the trick in progress and those played this deal, and `last_deal`, the
    record of the previous deal's end (its hands included: the rules showed them)."""

    dealer: int
    stock: int
    hand_sizes: tuple[int, ...]
    leader: int
    trick: TrickPlays = ()
    tricks: tuple[PlayedTrick, ...] = ()
    tricks_won: tuple[int, ...] = ()
    last_deal: JSONRecord | None = None


@dataclass(frozen=True, kw_only=True)
class TrickSeatView(TrickView, SeatView):
    """A seat's own view adds the cards it threw away this deal (nobody else saw them)."""

    thrown: tuple[str, ...] = ()


def trick_plays(trick: Sequence[tuple[int, Sequence[Card]]]) -> TrickPlays:
    return tuple((seat, tuple(str(card) for card in play)) for seat, play in trick)


def played_tricks(records: Iterable[Mapping[str, Any]]) -> tuple[PlayedTrick, ...]:
    return tuple(PlayedTrick.from_json(record) for record in records)


def trick_to_json(trick: Sequence[tuple[int, Sequence[Card]]]) -> list[list[Any]]:
    return [[seat, cards_to_json(play)] for seat, play in trick]


def trick_from_json(data: Iterable[Sequence[Any]]) -> list[tuple[int, tuple[Card, ...]]]:
    return [(int(seat), tuple(cards_from_json(play))) for seat, play in data]


def order_from(dealer: int, seats: int) -> list[int]:
    """Turn order: from the dealer's left (the next seat) round to the dealer.

    >>> order_from(2, 4)
    [3, 0, 1, 2]
    """
    return [(dealer + 1 + i) % seats for i in range(seats)]


def deal(
    rng: random.Random, order: Sequence[int], stacked: Mapping[str, Any] | None = None
) -> tuple[dict[int, list[Card]], list[Card]]:
    """Five cards to each seat of `order` and the stock (top first).

    A random deal goes one card at a time round the table, as at a real one; a stacked
    deal (the test hook) places the named cards and shuffles only the rest.
    """
    if stacked is None:
        deck = standard_deck()
        rng.shuffle(deck)
        hands = {
            seat: deck[i : len(order) * HAND_SIZE : len(order)] for i, seat in enumerate(order)
        }
        return hands, deck[len(order) * HAND_SIZE :]
    named_hands = list(stacked.get("hands", []))
    wanted: dict[int, list[Card]] = {}
    for seat in order:
        text = named_hands[seat] if seat < len(named_hands) else ""
        cards = parse_cards(text or "")
        if cards and len(cards) != HAND_SIZE:
            raise ValueError(f"a stacked hand has {HAND_SIZE} cards, not {len(cards)}")
        wanted[seat] = cards
    top = parse_cards(stacked.get("stock", "") or "")
    named = [card for cards in wanted.values() for card in cards] + top
    if len(set(named)) != len(named):
        raise ValueError("a stacked deal names a card twice")
    taken = set(named)
    rest = [card for card in standard_deck() if card not in taken]
    rng.shuffle(rest)
    for seat in order:
        if not wanted[seat]:
            wanted[seat], rest = rest[:HAND_SIZE], rest[HAND_SIZE:]
    return wanted, top + rest


# --- the AI's draw ------------------------------------------------------------------------


def _flush_draw(hand: Sequence[Card]) -> list[Card] | None:
    """The odd card out of a four-card flush draw."""
    suits = Counter(card.suit for card in hand)
    suit, count = suits.most_common(1)[0]
    if count == 4:
        return [card for card in hand if card.suit != suit]
    return None


def _straight_draw(hand: Sequence[Card]) -> list[Card] | None:
    """The odd card out of four ranks that are four in a row (open at both ends, or
    ace-low/high: any run of four); gutshots are too thin to throw a card for."""
    ranks = {card.rank for card in hand}
    low_ranks = ranks | ({1} if 14 in ranks else set())
    for low in range(1, 12):
        run = set(range(low, low + 4))
        if run <= low_ranks:
            keep = {14 if r == 1 else r for r in run}
            odd = [card for card in hand if card.rank not in keep]
            if len(odd) == 1:
                return odd
    return None


def choose_discards(hand: Sequence[Card], max_discards: int) -> list[Card]:
    """The cards a sensible player throws to improve a five-card poker hand.

    Made hands of a straight or better stand; sets keep their set and throw the rest;
    four to a flush or an open straight throw the odd card; otherwise the high cards stay.
    At most `max_discards` are thrown (the lowest ones when the plan wants more).

    >>> from engine.cards import format_cards, parse_cards
    >>> format_cards(choose_discards(parse_cards("Kh Kd 7c 4s 2d"), 3))
    '2d 4s 7c'
    >>> format_cards(choose_discards(parse_cards("Ah 9h 6h 2h Kc"), 5))
    'Kc'
    >>> choose_discards(parse_cards("9c Tc Jd Qs Kh"), 5)
    []
    """
    value = evaluate(hand)
    category = value.category
    counts = Counter(card.rank for card in hand)
    throw: list[Card]
    if category >= Category.STRAIGHT or category == Category.FOUR_OF_A_KIND:
        throw = []
    elif category in (Category.THREE_OF_A_KIND, Category.TWO_PAIR):
        throw = [card for card in hand if counts[card.rank] == 1]
    elif category == Category.PAIR:
        pair_rank = next(rank for rank, n in counts.items() if n == 2)
        flush = _flush_draw(hand)
        if flush is not None and (pair_rank or 0) < 10:
            throw = flush
        else:
            throw = [card for card in hand if card.rank != pair_rank]
    else:
        draw = _flush_draw(hand) or _straight_draw(hand)
        if draw is not None:
            throw = draw
        else:
            by_rank = sorted(hand, key=Card.sort_key, reverse=True)
            keep = [card for card in by_rank[:2] if (card.rank or 0) >= 12] or by_rank[:1]
            throw = [card for card in hand if card not in keep]
    throw.sort(key=Card.sort_key)
    return throw[:max_discards]
