"""Poängpoker's and Chicago's AI: exchanges, the call and the card to play, from a seat's
own view."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from engine.cards import Card, cards_from_json, cards_to_json, standard_deck
from engine.game import Action
from engine.games.poangpoker.views import PointsSeatView
from engine.tricks.deal import (
    HAND_SIZE,
    choose_discards,
    trick_from_json,
)
from engine.tricks.play import CHICAGO, POANGPOKER, TrickRules, best_play, legal_plays, trick_winner

__all__ = ["points_ai", "should_call", "sure_winners"]


def points_ai(view: PointsSeatView, rng: random.Random) -> Action:
    """A Poängpoker/Chicago player that sees only `view` (its own seat's view).

    Exchanges keep made hands and draw to pairs, sets, flushes and straights. In trick play
    only the last trick scores, so the AI keeps its likeliest last-trick winner (the card
    with the fewest unseen higher cards of its suit) and spends the others cheaply; with two
    cards left it tries to take the fourth trick, since leading the last one lets it choose
    the suit. It calls Chicago only with five sure winners (or, heads-up, four and a queen
    or better), and against a call it takes any trick it can from the caller.
    """
    del rng  # deterministic; the parameter keeps the common signature
    seat = view.seat
    hand = cards_from_json(view.hand)
    if view.phase == "exchange":
        throw = choose_discards(hand, view.exchange_limit)
        return Action("exchange", tuple(cards_to_json(throw))) if throw else Action("stand")
    if view.phase == "call":
        return Action("call") if should_call(hand, len(view.names)) else Action("pass")
    rules = CHICAGO if view.kind == "chicago" else POANGPOKER
    trick = trick_from_json(view.trick)
    card = _ai_card(view, seat, hand, trick, rules)
    return Action("play", (str(card),))


def sure_winners(hand: Sequence[Card]) -> list[Card]:
    """Cards that win whenever led in order: in each suit, the unbroken run down from the ace."""
    sure: list[Card] = []
    for card in hand:
        ranks = {c.rank for c in hand if c.suit == card.suit}
        if all(r in ranks for r in range(card.rank or 0, 15)):
            sure.append(card)
    return sure


def should_call(hand: Sequence[Card], players: int) -> bool:
    """Call Chicago only with (nearly) certain tricks: -15 hurts as much as +15 helps.

    >>> from engine.cards import parse_cards
    >>> should_call(parse_cards("Ah Kh Qh As Ad"), 4), should_call(parse_cards("Ah Kh 9c 2s 4d"), 2)
    (True, False)
    """
    sure = sure_winners(hand)
    if len(sure) >= HAND_SIZE:
        return True
    rest = [card for card in hand if card not in sure]
    return players == 2 and len(rest) == 1 and (rest[0].rank or 0) >= 12


def _ai_card(
    view: PointsSeatView, seat: int, hand: list[Card], trick: list[Any], rules: TrickRules
) -> Card:
    legal = [play[0] for play in legal_plays(hand, trick, rules)]
    if len(legal) == 1:
        return legal[0]
    seen = set(hand) | set(cards_from_json(view.thrown))
    for record in view.tricks:
        for _, play in record.plays:
            seen.update(cards_from_json(play))
    for _, play in trick:
        seen.update(play)
    unseen = [card for card in standard_deck() if card not in seen]

    def higher_unseen(card: Card) -> int:
        return sum(1 for c in unseen if c.suit == card.suit and (c.rank or 0) > (card.rank or 0))

    def strength(card: Card) -> tuple[int, int]:
        return (-higher_unseen(card), card.rank or 0)

    def low(cards: Sequence[Card]) -> Card:
        return min(cards, key=lambda c: (c.rank or 0, higher_unseen(c)))

    def winning(cards: Sequence[Card]) -> list[Card]:
        return [c for c in cards if trick_winner([*trick, (seat, (c,))], rules) == seat]

    caller = view.caller
    if caller == seat:
        if not trick:
            return max(legal, key=strength)
        wins = winning(legal)
        return low(wins) if wins else low(legal)
    if caller is not None:
        if trick and best_play(trick, rules)[0] == caller:
            wins = winning(legal)
            if wins:
                return max(wins, key=strength)
        return low(legal)
    keeper = max(hand, key=strength)
    spare = [c for c in legal if c != keeper] or legal
    if len(hand) == 2:
        wins = winning(spare) if trick else [c for c in spare if higher_unseen(c) == 0]
        if wins:
            return low(wins)
    return low(spare)
