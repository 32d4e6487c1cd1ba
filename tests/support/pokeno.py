"""Po-Ke-No test setups: a seat given a chosen hand, so a rule can be tested on the cards it
is about."""

from __future__ import annotations

from engine.cards import parse_cards
from engine.games.pokeno.rules import Pokeno
from engine.games.pokeno.solitaire import PokenoSolitaire


def give(game: Pokeno | PokenoSolitaire, seat: int, hand: str) -> None:
    """Put these cards in the seat's hand, taking them from the deck (cards stay conserved)."""
    cards = parse_cards(hand)
    game.deck += game.hands[seat]
    for card in cards:
        game.deck.remove(card)
    game.hands[seat] = cards
