"""Badugi (seed 001): four cards, ace low, three draws and four fixed-limit betting rounds.

One `Badugi` game is ONE DEAL, the contract of every chip game: the table service builds a
game per deal from the stacks it carries (`stacks`, required) and the dealer seat (`button`),
and moves the stacks by `result.chips` (each seat's net, summing to zero) when it ends.
`result.scores` are the final stacks and the places follow them.

The deal, as RULINGS.md rules it: every seat antes (5), four cards each one at a time from
the dealer's left, a betting round (small bet), then three times: a draw of 0-4 cards in
turn from the dealer's left (one card burned before the first replacement; the discards are
shuffled into a new stock if it runs out), then a betting round (small bet after the first
draw, big bet after the second and third). Betting is the betting kit's (engine/chips/betting.py):
a bet and three raises a round, all-ins and side pots, uncalled chips returned, a lone player
left after folds takes the pot without a showdown. A player all-in still draws. At the
showdown each pot goes to the best Badugi hand eligible for it (engine/games/badugi/hand.py), split
evenly on a tie with odd chips one each from the dealer's left.

Six seats at most: the seed plays up to eight but advises six, since so much drawing would
otherwise keep reshuffling the discards.

>>> game = Badugi(["Ann", "Bob", "Cid"], {"stacks": [200, 200, 200]}, random.Random(1))
>>> game.phase, sorted(game.to_act), game.public_view().pot
('bet', [1], 15)
>>> [choice.label for choice in game.prompt(1).choices]
['Check', 'Bet 10']
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from itertools import combinations
from typing import Any

from engine.cards import Card, cards_from_json, cards_to_json, label_cards, shuffled, standard_deck
from engine.chips.bet_prompts import bet_names
from engine.chips.betting import Betting, Structure
from engine.chips.deal import (
    STAKES,
    check_stakes,
)
from engine.chips.draw import DrawDeal
from engine.chips.pots import Pot, PotAward
from engine.game import (
    Action,
    CardPick,
    Choice,
    Event,
    GameResult,
    Prompt,
    TimerSpec,
)
from engine.games.badugi.ai import badugi_ai
from engine.games.badugi.hand import (
    BADUGI_SIZE,
    BadugiHand,
    badugi_hand,
    badugi_order,
)
from engine.games.badugi.views import DRAWS, BadugiSeatView, BadugiView
from engine.games.registry import register
from engine.i18n import Msg, msg, names_and

__all__ = [
    "Badugi",
]

ROUNDS = DRAWS + 1
TURN_SECONDS = 60.0
OPTIONS = ("stacks", *STAKES)
DRAW_STARTS = (msg("The first draw (pot {pot}): draw 0-4 cards in turn."),
               msg("The second draw (pot {pot}): draw 0-4 cards in turn."),
               msg("The third draw (pot {pot}): draw 0-4 cards in turn."))
DRAW_PROMPTS = (
    msg("The first draw: your hand is {hand}. Pick the cards to throw (0-4), or stand pat."),
    msg("The second draw: your hand is {hand}. Pick the cards to throw (0-4), or stand pat."),
    msg("The third draw: your hand is {hand}. Pick the cards to throw (0-4), or stand pat."),
)


def _again(entry: Msg, **params: Any) -> Msg:
    """A catalogue entry of a table above, filled in."""
    assert entry.msgid is not None
    return msg(entry.msgid, **params)


@register
class Badugi(DrawDeal):
    """One deal of fixed-limit Badugi. Options: `stacks` (required), `button` (0),
    `small_bet` (10), `big_bet` (20), `ante` (5)."""

    kind = "badugi"
    title = "Badugi"
    min_seats = 2
    max_seats = 6

    @classmethod
    def goal(cls, options: Mapping[str, Any], players: int) -> str:
        return "the best Badugi hand takes the pot; stacks carry from deal to deal"

    def __init__(
        self,
        seats: Sequence[str],
        options: Mapping[str, Any] | None = None,
        rng: random.Random | None = None,
    ) -> None:
        self._check_seat_count(len(seats))
        self.seats = tuple(seats)
        self.options = dict(options or {})
        settings = check_stakes(self.title, self.options, len(seats))
        self.rng = rng if rng is not None else random.Random()
        structure = Structure(
            small_bet=settings["small_bet"],
            big_bet=settings["big_bet"],
            rounds=ROUNDS,
            ante=settings["ante"],
        )
        self.betting = Betting(settings["stacks"], structure, settings["button"])
        n = len(seats)
        self.stock: list[Card] = shuffled(standard_deck(), self.rng)
        self.hands: list[list[Card]] = [[] for _ in range(n)]
        self.discards: list[Card] = []
        self.burned: list[Card] = []
        self.draws: list[list[int]] = [[] for _ in range(n)]
        self.last_actions = [""] * n
        self._phase = "bet"
        self.draw_no = 0
        self.drawer: int | None = None
        self.step = 0
        self.reshuffles = 0
        self.showdown: dict[str, Any] | None = None
        self._result: GameResult | None = None
        self._opening = self._deal()

    # --- the shape every game has ------------------------------------------------------------
    @property
    def to_act(self) -> frozenset[int]:
        if self._phase == "bet" and self.betting.actor is not None:
            return frozenset({self.betting.actor})
        if self._phase == "draw" and self.drawer is not None:
            return frozenset({self.drawer})
        return frozenset()

    def timers(self) -> list[TimerSpec]:
        if self.is_over:
            return []
        return [TimerSpec(f"badugi-{self.step}", TURN_SECONDS, tuple(sorted(self.to_act)))]

    # --- dealing -----------------------------------------------------------------------------
    def _deal(self) -> list[Event]:
        told = self._deal_hands(BADUGI_SIZE, msg("Badugi: {name} deals.",
                                                  name=self.seats[self.button]))
        events = [Event(Msg.joined(" ", told), None, "deal",
                        {"button": self.button, **self._chips()})]
        for seat in range(self.n):
            events.append(self._hand_event(seat, msg("Your hand: {hand}.",
                                                     hand=self._hand_text(seat))))
        self.betting.start_round()
        return events + self._advance()

    def _hand_text(self, seat: int) -> str:
        hand = self.hands[seat]
        return msg("{cards} ({hand})", cards=label_cards(badugi_order(hand)),
                   hand=badugi_hand(hand).description)

    def _hand_event(self, seat: int, text: str, **extra: Any) -> Event:
        data = {"hand": cards_to_json(badugi_order(self.hands[seat])), **extra}
        return Event(text, seat, "hand", data)

    # --- the flow of the deal ------------------------------------------------------------------
    def _advance(self) -> list[Event]:
        """Move on while nobody has a decision: close finished rounds, skip rounds where
        nobody can bet, start draws, and end the deal."""
        events: list[Event] = []
        b = self.betting
        while True:
            if self._phase == "draw":
                if self.drawer is not None:
                    return events
                b.start_round()
                self._phase = "bet"
                self._clear_last_actions()
                continue
            if self._phase != "bet" or b.actor is not None:
                return events
            events += self._end_betting_round()
            if b.lone_player is not None:
                return events + self._lone_winner(b.lone_player)
            if b.round_no >= ROUNDS:
                return events + self._showdown()
            events += self._start_draw()

    def _clear_last_actions(self) -> None:
        """A new step of the deal: the board shows its moves, and who folded."""
        self.last_actions = [
            "fold" if self.betting.folded[s] else "" for s in range(self.n)
        ]

    def _start_draw(self) -> list[Event]:
        self._phase = "draw"
        self._clear_last_actions()
        self.draw_no += 1
        burn = self._take(1)
        self.burned += burn
        self.discards += burn
        live = [s for s in self.betting.order_from_button() if not self.betting.folded[s]]
        self.drawer = live[0]
        # A seat's count for this draw is written when it draws: until then its board line
        # shows its earlier draws only, never a "drew 0" it has not chosen.
        pot = self.betting.pot_total
        text = _again(DRAW_STARTS[self.draw_no - 1], pot=pot)
        return [Event(text, None, "draw_begins", {"draw": self.draw_no, **self._chips()})]

    def _next_drawer(self, seat: int) -> int | None:
        order = self.betting.order_from_button()
        after = order[order.index(seat) + 1 :]
        return next((s for s in after if not self.betting.folded[s]), None)

    # --- actions -----------------------------------------------------------------------------
    def legal_actions(self, seat: int) -> list[Action]:
        if seat not in self.to_act:
            return []
        if self._phase == "draw":
            hand = badugi_order(self.hands[seat])
            actions = [Action("stand")]
            for size in range(1, BADUGI_SIZE + 1):
                actions += [
                    Action("draw", tuple(cards_to_json(c))) for c in combinations(hand, size)
                ]
            return actions
        options = self.betting.options(seat)
        assert options is not None
        return [Action(name) for name in bet_names(options)]

    def _step(self, seat: int, action: Action) -> list[Event]:
        if self._phase == "draw":
            events = self._draw_step(seat, action)
        else:
            events = self._betting_action(seat, action)
        self.step += 1
        return events

    def _record_draw(self, seat: int, count: int) -> None:
        """This draw's count for the seat (a snapshot from before counts were written at the
        draw may already hold a 0 for it: that one is replaced)."""
        if len(self.draws[seat]) >= self.draw_no:
            self.draws[seat][self.draw_no - 1] = count
        else:
            self.draws[seat].append(count)

    def _draw(self, seat: int, thrown: list[Card]) -> list[Event]:
        name = self.seats[seat]
        if not thrown:
            self._record_draw(seat, 0)
            self.last_actions[seat] = "stand pat"
            events = [Event(msg("{name} stands pat.", name=name), None, "draw",
                            {"seat": seat, "count": 0})]
        else:
            before = self.reshuffles
            new = self._exchange(seat, thrown)
            count = len(thrown)
            self._record_draw(seat, count)
            self.last_actions[seat] = f"draw {count}"
            text: str = msg("{name} draws {n}.", name=name, n=count)
            if self.reshuffles > before:
                text = Msg.joined(" ", [text, msg(
                    "The stock ran out: the discards were shuffled into a new one.")])
            events = [
                Event(text, None, "draw", {"seat": seat, "count": count}),
                self._hand_event(
                    seat,
                    msg("You threw {thrown} and drew {drawn}: {hand}.",
                        thrown=label_cards(thrown), drawn=label_cards(new),
                        hand=self._hand_text(seat)),
                    thrown=cards_to_json(thrown),
                    drawn=cards_to_json(new),
                ),
            ]
        self.drawer = self._next_drawer(seat)
        return events + self._advance()

    # --- the end of the deal -------------------------------------------------------------------
    def _lone_winner(self, seat: int) -> list[Event]:
        awards = self.betting.settle_lone_player()
        won = sum(a.amount for a in awards)
        text = msg("Everyone else folded: {name} takes the pot of {n} unseen.",
                   name=self.seats[seat], n=won)
        self.showdown = {"hands": {}, "awards": [a.to_json() for a in awards], "lone": seat}
        return [Event(text, None, "deal_end", {**self.showdown, **self._chips()}), self._end()]

    def _showdown(self) -> list[Event]:
        b = self.betting
        live = [s for s in b.order_from_button() if not b.folded[s]]
        hands = {s: badugi_hand(self.hands[s]) for s in live}
        lines: list[str] = [
            msg("{name}: {cards}, {hand}.", name=self.seats[s],
                cards=label_cards(badugi_order(self.hands[s])), hand=hands[s].description)
            for s in live
        ]
        pots = b.pots()
        awards = b.settle_high({s: hand.strength for s, hand in hands.items()})
        for pot, award in zip(pots, awards, strict=True):
            lines.append(self._explain(pot, award, hands, len(pots)))
        self.showdown = {
            "hands": {str(s): cards_to_json(badugi_order(self.hands[s])) for s in live},
            "descriptions": {str(s): hands[s].description for s in live},
            "awards": [a.to_json() for a in awards],
            "lone": None,
        }
        text = Msg.joined(" ", [msg("Showdown."), *lines])
        return [Event(text, None, "deal_end", {**self.showdown, **self._chips()}), self._end()]

    def _explain(
        self, pot: Pot, award: PotAward, hands: Mapping[int, BadugiHand], count: int
    ) -> str:
        label = msg("The pot") if count == 1 else (
            msg("The main pot") if award.index == 0 else msg("Side pot {n}", n=award.index))
        winners = list(award.shares)
        together = names_and([self.seats[s] for s in winners])
        if len(pot.eligible) == 1:
            return msg("{pot} of {n} goes back to {names}, the only one in it.", pot=label,
                       n=pot.amount, names=together)
        why = hands[winners[0]].description
        if len(winners) == 1:
            return msg("{pot} of {n} to {names} with {hand}.", pot=label, n=pot.amount,
                       names=together, hand=why)
        parts = ", ".join(f"{self.seats[s]} {award.shares[s]}" for s in winners)
        if len(set(award.shares.values())) > 1:
            return msg("{pot} of {n} is split, {hand} each: {shares} (odd chips from the "
                       "dealer's left).", pot=label, n=pot.amount, hand=why, shares=parts)
        return msg("{pot} of {n} is split, {hand} each: {shares}.", pot=label, n=pot.amount,
                   hand=why, shares=parts)

    def _end(self) -> Event:
        self.drawer = None
        return self._close_deal()

    # --- what each seat is asked and sees -------------------------------------------------------
    def prompt(self, seat: int) -> Prompt | None:
        if seat not in self.to_act:
            return None
        if self._phase == "draw":
            hand = badugi_order(self.hands[seat])
            text = _again(DRAW_PROMPTS[self.draw_no - 1], hand=self._hand_text(seat))
            pick = CardPick(
                msg("Throw cards"),
                "draw",
                tuple(cards_to_json(hand)),
                0,
                BADUGI_SIZE,
                tuple(c.label for c in hand),
            )
            return Prompt(text, (pick, Choice(msg("Stand pat"), Action("stand"), "primary")))
        return self._bet_prompt(seat)

    def _public_fields(self) -> dict[str, Any]:
        return {
            **self._betting_fields(),
            "ante": self.betting.structure.ante,
            "draw_no": self.draw_no,
            "draws": tuple(tuple(d) for d in self.draws),
            "hand_sizes": tuple(len(h) for h in self.hands),
            "stock": len(self.stock),
        }

    def public_view(self) -> BadugiView:
        return BadugiView(**self._public_fields())

    def view(self, seat: int) -> BadugiSeatView:
        hand = self.hands[seat]
        return BadugiSeatView(
            **self._public_fields(),
            seat=seat,
            hand=tuple(cards_to_json(badugi_order(hand))),
            hand_value=badugi_hand(hand).description if hand else "",
        )

    # --- snapshots -----------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        return {
            **self._snapshot_fields(),
            "stock": cards_to_json(self.stock),
            "hands": [cards_to_json(h) for h in self.hands],
            "discards": cards_to_json(self.discards),
            "burned": cards_to_json(self.burned),
            "draws": [list(d) for d in self.draws],
            "draw_no": self.draw_no,
            "drawer": self.drawer,
            "reshuffles": self.reshuffles,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Badugi:
        game = cls.__new__(cls)
        game.seats = tuple(data["seats"])
        game.options = dict(data["options"])
        game._restore_fields(data)
        game.stock = cards_from_json(data["stock"])
        game.hands = [cards_from_json(h) for h in data["hands"]]
        game.discards = cards_from_json(data["discards"])
        game.burned = cards_from_json(data["burned"])
        game.draws = [list(d) for d in data["draws"]]
        game.draw_no = data["draw_no"]
        game.drawer = data["drawer"]
        game.reshuffles = data["reshuffles"]
        game._opening = []
        return game

    def ai_action(self, seat: int, rng: random.Random) -> Action:
        return badugi_ai(self.view(seat), self.legal_actions(seat), rng)
