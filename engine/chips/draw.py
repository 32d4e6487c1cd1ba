"""The draw round every draw game shares (Badugi, Spew, Old Man 49er, Zero to 55): the
stock and its discards, a folded hand mucked, the draw step's two moves (stand pat, or
throw cards and draw as many) and what a clock that runs out does.

A `DrawDeal` is a `ChipDeal` whose hands are drawn to from one shuffled stock. The stock is
stated once here because its rule is easy to get subtly wrong in a copy: when it runs out
mid-draw, the discards are shuffled into a new stock, but never the cards the drawer has
just thrown (they are not back in play until the draw is done), and every reshuffle is
counted (`reshuffles`), so a game can tell the table and a test can see it happened.

The games keep what differs: Badugi's burn card and draw counts, the reveal-order games'
fee per card, Spew's limit on how many cards may be drawn.
"""

from __future__ import annotations

import abc
from collections.abc import Sequence

from engine.cards import Card, shuffled
from engine.chips.deal import ChipDeal
from engine.game import Action, Event, IllegalAction, parse_action_cards
from engine.i18n import msg

__all__ = ["DrawDeal"]


class DrawDeal(ChipDeal):
    """A chip deal with a stock, discards and a draw step (see the module's docstring).
    Subclasses build `stock`, `hands` and `discards` and implement `_draw`."""

    stock: list[Card]
    discards: list[Card]
    hands: list[list[Card]]
    reshuffles: int = 0
    """How many times the discards became a new stock this deal."""

    def _take(self, count: int, keep_out: Sequence[Card] = ()) -> list[Card]:
        """The next `count` cards of the stock; when it runs out, the discards (but not
        `keep_out`, the cards the drawer just threw) are shuffled into a new stock."""
        cards: list[Card] = []
        while len(cards) < count:
            if not self.stock:
                pool = [c for c in self.discards if c not in keep_out]
                if not pool:
                    raise AssertionError("no cards left to deal")  # pragma: no cover
                self.discards = [c for c in self.discards if c in keep_out]
                self.stock = shuffled(pool, self.rng)
                self.reshuffles += 1
            cards.append(self.stock.pop(0))
        return cards

    def _deal_hands(self, size: int, dealing: str) -> list[str]:
        """Post the antes and deal `size` cards to each seat, one at a time from the
        button's left; what the table is told, in order: `dealing` (who deals what), the
        antes and who went all-in on them."""
        posted = self.betting.post_antes()
        order = self.betting.order_from_button()
        for _ in range(size):
            for seat in order:
                self.hands[seat] += self._take(1)
        told = [dealing]
        ante = self.betting.structure.ante
        if ante:
            told.append(msg("Antes {n}: the pot is {pot}.", n=ante, pot=self.pot))
        short = [self.seats[p.seat] for p in posted if p.all_in]
        if short:
            told.append(msg("All-in on the ante: {names}.", names=", ".join(short)))
        return told

    def _exchange(self, seat: int, thrown: Sequence[Card]) -> list[Card]:
        """Replace `thrown` in the seat's hand with as many cards from the stock (the new
        ones after the kept ones) and discard them; the new cards are returned."""
        kept = [c for c in self.hands[seat] if c not in thrown]
        new = self._take(len(thrown), keep_out=thrown)
        self.discards += thrown
        self.hands[seat] = kept + new
        return new

    def _muck(self, seat: int) -> None:
        """A seat folded: its cards go to the discards unseen (a reshuffle may deal them)."""
        self.discards += self.hands[seat]
        self.hands[seat] = []

    def _draw_step(self, seat: int, action: Action, most: int | None = None) -> list[Event]:
        """The draw's two moves: `stand` (pat), or `draw` with the cards thrown, at most
        `most` of them when the game limits it."""
        if action.name == "stand":
            return self._draw(seat, [])
        if action.name == "draw":
            thrown = parse_action_cards(action.args, self.hands[seat])
            if most is not None and len(thrown) > most:
                raise IllegalAction(msg("You may draw at most {n} cards.", n=most))
            return self._draw(seat, thrown)
        raise IllegalAction(msg("It is the draw: pick the cards to throw, or stand pat."))

    @abc.abstractmethod
    def _draw(self, seat: int, thrown: list[Card]) -> list[Event]:
        """The seat stands pat (nothing thrown) or draws; told, then the deal goes on."""

    def _timeout_action(self, seat: int) -> Action:
        """The clock ran out: in the draw, stand pat; in a betting round, check or fold."""
        return Action("stand") if self._phase == "draw" else self._bet_timeout(seat)
