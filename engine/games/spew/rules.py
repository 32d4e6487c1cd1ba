"""Spew (seed 001): point totals, one draw, spew cards that strip ranks from every hand, and a
sealed high / low / both declaration at the end.

One `Spew` game is ONE DEAL, the contract of every chip game (as Badugi): the table builds a
game per deal from the stacks it carries (`stacks`, required) and the dealer seat (`button`),
and moves the stacks by `result.chips` (each seat's net, summing to zero) when it ends;
`result.scores` are the final stacks.

The deal, as RULINGS.md rules it: every seat antes (5); five cards each (four with seven or
eight players), one at a time from the dealer's left; a betting round; one draw of up to
three cards (two with six players or more) in turn from the dealer's left; a betting round;
then five spew cards (four with seven or eight players) turned face up one at a time, each
taking every card of its rank out of every hand still in (shown to everyone as it happens),
with a betting round after each. A player left with no cards is out of the pot; with the
option `out_takes_low` they instead take half of every pot they are in as the nut low, play
no further, and the rest play for high only. Then the players still in declare, sealed and
together, high, low or both, and each pot is resolved by the betting kit
(`engine.chips.betting.declared_shares`): half to the highest total among high declarers, half to
the lowest among low declarers, "both" must win both outright.

Totals (`engine.chips.points.SPEW`): 2-10 as ranked, J/Q/K 10, each ace 1 or 11 to the player's
advantage, valued separately for high and for low. No burn card: eight players using every
draw and four spew cards need exactly the 52 cards.

>>> game = Spew(["Ann", "Bob", "Cid"], {"stacks": [200, 200, 200]}, random.Random(1))
>>> game.phase, sorted(game.to_act), game.public_view().pot
('bet', [1], 15)
>>> [choice.label for choice in game.prompt(1).choices]
['Check', 'Bet 10']
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from itertools import combinations
from typing import Any, ClassVar

from engine.cards import (
    Card,
    cards_from_json,
    cards_to_json,
    label_cards,
    rank_word,
    shuffled,
    standard_deck,
)
from engine.chips.bet_prompts import bet_names
from engine.chips.betting import Betting, Structure
from engine.chips.deal import (
    STAKES,
    check_stakes,
)
from engine.chips.draw import DrawDeal
from engine.chips.pots import (
    Declaration,
    Pot,
    PotAward,
    best_seats,
    declared_shares,
    resolve_declarations,
    split_evenly,
)
from engine.declaring import TIMED_OUT, TableDeclarations, declaring_options
from engine.game import (
    TIMEOUT,
    Action,
    CardPick,
    Choice,
    Event,
    GameResult,
    IllegalAction,
    Prompt,
    TimerSpec,
)
from engine.games.registry import register
from engine.games.spew.ai import spew_ai
from engine.games.spew.hands import high_total, low_total, spew_layout, spew_order
from engine.games.spew.views import SpewSeatView, SpewView
from engine.i18n import Msg, msg, names_and

__all__ = [
    "Spew",
]

TURN_SECONDS = 60.0
SIDES = {"high": Declaration.HIGH, "low": Declaration.LOW, "both": Declaration.BOTH}
SIDE_WORDS = {"high": msg("high"), "low": msg("low"), "both": msg("both")}


def _check_options(options: Mapping[str, Any], seats: int) -> dict[str, Any]:
    settings = check_stakes("Spew", options, seats, STAKES,
                            {"out_takes_low", "declare_seconds", "last_seconds", "ai_seats"})
    out_takes_low = options.get("out_takes_low", False)
    if not isinstance(out_takes_low, bool):
        raise ValueError("out_takes_low is on (true) or off (false)")
    return {**settings, "out_takes_low": out_takes_low, **declaring_options(options, seats)}


@register
class Spew(TableDeclarations, DrawDeal):
    """One deal of fixed-limit Spew. Options: `stacks` (required), `button` (0), `small_bet`
    (10), `big_bet` (20), `ante` (5), `out_takes_low` (off), `declare_seconds` (120) and
    `last_seconds` (10); `ai_seats` is filled in by the table."""

    kind = "spew"
    title = "Spew"
    min_seats = 2
    max_seats = 8
    table_options: ClassVar[frozenset[str]] = frozenset({"ai_seats"})

    @classmethod
    def goal(cls, options: Mapping[str, Any], players: int) -> str:
        return msg("highest and lowest totals split each pot; stacks carry from deal to deal")

    def __init__(
        self,
        seats: Sequence[str],
        options: Mapping[str, Any] | None = None,
        rng: random.Random | None = None,
    ) -> None:
        self._check_seat_count(len(seats))
        self.seats = tuple(seats)
        self.options = dict(options or {})
        self.settings = _check_options(self.options, len(seats))
        self.rng = rng if rng is not None else random.Random()
        n = len(seats)
        self.hole, self.max_draw, self.spew_total = spew_layout(n)
        structure = Structure(
            small_bet=self.settings["small_bet"],
            big_bet=self.settings["big_bet"],
            rounds=2 + self.spew_total,
            ante=self.settings["ante"],
        )
        self.betting = Betting(self.settings["stacks"], structure, self.settings["button"])
        self.stock: list[Card] = shuffled(standard_deck(), self.rng)
        self.hands: list[list[Card]] = [[] for _ in range(n)]
        self.discards: list[Card] = []
        self.draws: list[int | None] = [None] * n
        self.spew_cards: list[Card] = []
        self.spewed: list[list[Card]] = [[] for _ in range(n)]
        self.out = [False] * n
        self.nut_low: list[int] = []
        self.held_back = [0] * n  # a nut low's stack, kept out of the kit's betting
        self.declarations: list[str | None] = [None] * n
        self.last_actions = [""] * n
        self._phase = "bet"
        self.drawer: int | None = None
        self.step = 0
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
        if self._phase == "declare":
            return frozenset(self._awaited_declarers())
        return frozenset()

    def timers(self) -> list[TimerSpec]:
        if self.is_over:
            return []
        if self._phase != "declare":
            return [TimerSpec(f"spew-{self.step}", TURN_SECONDS, tuple(sorted(self.to_act)))]
        return self._declaring_timers()

    # The sealed declarations' hooks (SealedDeclarations): the hands still in declare.
    def _declarers(self) -> Sequence[int]:
        return self._contenders()

    def _declare_timer_keys(self) -> tuple[str, str]:
        return "spew-declare", "spew-last-"

    # --- dealing -----------------------------------------------------------------------------
    def _deal(self) -> list[Event]:
        told = self._deal_hands(self.hole, msg("Spew: {name} deals {n} cards each.",
                                               name=self.seats[self.button], n=self.hole))
        data = {"button": self.button, "hole": self.hole, "max_draw": self.max_draw,
                "spew_total": self.spew_total, **self._chips()}
        events = [Event(Msg.joined(" ", told), None, "deal", data)]
        for seat in range(self.n):
            events.append(self._hand_event(seat, msg("Your hand: {hand}.",
                                                     hand=self._hand_text(seat))))
        self.betting.start_round()
        return events + self._advance()

    def _hand_text(self, seat: int) -> str:
        hand = self.hands[seat]
        if not hand:
            return msg("no cards")
        return msg("{cards} (high {high}, low {low})", cards=label_cards(spew_order(hand)),
                   high=high_total(hand), low=low_total(hand))

    def _hand_event(self, seat: int, text: str, **extra: Any) -> Event:
        hand = self.hands[seat]
        data = {"hand": cards_to_json(spew_order(hand)), "high": high_total(hand),
                "low": low_total(hand), **extra}
        return Event(text, seat, "hand", data)

    def _stacks_behind(self) -> list[int]:
        return [s + h for s, h in zip(self.betting.stacks, self.held_back, strict=True)]

    def _contenders(self) -> list[int]:
        """The seats still playing for the pots with cards: not folded, not spewed out."""
        b = self.betting
        return [s for s in b.order_from_button() if not b.folded[s] and not self.out[s]]

    # --- the flow of the deal ------------------------------------------------------------------
    def _advance(self) -> list[Event]:
        """Move on while nobody has a decision: close finished rounds, start the draw, turn
        spew cards, skip rounds where nobody can bet, and end the deal."""
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
            if b.round_no == 1:
                events += self._start_draw()
                continue
            if b.round_no >= b.structure.rounds or not self._contenders():
                return events + self._start_declaring()
            events += self._spew()
            if self._phase == "over":
                return events
            if b.lone_player is not None:
                return events + self._lone_winner(b.lone_player)
            b.start_round()
            self._clear_last_actions()

    def _clear_last_actions(self) -> None:
        self.last_actions = [
            "fold" if self.betting.folded[s] and not self.out[s] else
            ("out" if self.out[s] else "") for s in range(self.n)
        ]

    def _start_draw(self) -> list[Event]:
        self._phase = "draw"
        self._clear_last_actions()
        live = self._contenders()
        self.drawer = live[0]
        pot = self.betting.pot_total
        text = msg("The draw (pot {pot}): throw up to {n} cards in turn, or stand pat.", pot=pot,
                   n=self.max_draw)
        return [Event(text, None, "draw_begins", {"max_draw": self.max_draw, **self._chips()})]

    def _next_drawer(self, seat: int) -> int | None:
        order = self._contenders()
        after = order[order.index(seat) + 1 :]
        return after[0] if after else None

    def _spew(self) -> list[Event]:
        """Turn the next spew card: every card of its rank leaves every hand still in, face
        up. A player left with no cards is out of the pot, or (option) the nut low."""
        b = self.betting
        card = self._take(1)[0]
        self.spew_cards.append(card)
        removed: dict[int, list[Card]] = {}
        for seat in self._contenders():
            gone = [c for c in self.hands[seat] if c.rank == card.rank]
            if gone:
                self.hands[seat] = [c for c in self.hands[seat] if c.rank != card.rank]
                self.spewed[seat] += gone
                removed[seat] = gone
        emptied = [s for s in removed if not self.hands[s]]
        number = len(self.spew_cards)
        words = rank_word(card.rank or 0, plural=True)
        spews: str
        if removed:
            spews = Msg.joined("; ", [msg("{name} spews {cards}", name=self.seats[s],
                                          cards=label_cards(c)) for s, c in removed.items()])
        else:
            spews = msg("Nobody holds {ranks}", ranks=words)
        text: str = msg("Spew card {number} of {total}: {card}. {spews}.", number=number,
                        total=self.spew_total, card=card.label, spews=spews)
        data: dict[str, Any] = {
            "card": str(card),
            "number": number,
            "removed": {str(s): cards_to_json(c) for s, c in removed.items()},
            "out": emptied,
        }
        events: list[Event] = []
        takes_low = bool(self.settings["out_takes_low"]) and not self.nut_low
        if emptied and len(emptied) == len(self._contenders()) and not self.settings[
                "out_takes_low"]:
            # Nobody left holding a card: nobody can be "out" of a pot that must be paid.
            data["out"] = []
            events.append(Event(text, None, "spew", {**data, **self._chips()}))
            return events + self._everyone_spewed_out(emptied)
        for seat in emptied:
            self.out[seat] = True
            if takes_low:
                self.held_back[seat] = b.stacks[seat]
                b.stacks[seat] = 0
                self.nut_low.append(seat)
                won = sum(p.amount // 2 for p in b.pots() if seat in p.eligible)
                text = Msg.joined(" ", [text, msg(
                    "{name} has no cards left: the nut low, half the pot ({n}) is theirs, and "
                    "the rest play for high only.", name=self.seats[seat], n=won)])
            else:
                b.folded[seat] = True  # the kit folds only on a turn: out of every pot
                text = Msg.joined(" ", [text, msg(
                    "{name} has no cards left and is out of the pot.", name=self.seats[seat])])
        self._clear_last_actions()
        events.append(Event(text, None, "spew", {**data, **self._chips()}))
        for seat, cards in removed.items():
            events.append(self._hand_event(
                seat, msg("You spew {cards}: {hand}.", cards=label_cards(cards),
                          hand=self._hand_text(seat)),
                spewed=cards_to_json(cards)))
        return events

    def _everyone_spewed_out(self, emptied: Sequence[int]) -> list[Event]:
        """One spew card emptied every hand still in: each pot is shared by its players."""
        b = self.betting
        order = b.order_from_button()
        awards = b.settle([split_evenly(p.amount, p.eligible, order) for p in b.pots()])
        text = msg("Every hand still in is empty ({names}): each pot is shared by its players.",
                   names=names_and([self.seats[s] for s in emptied]))
        self.showdown = {"hands": {}, "awards": [a.to_json() for a in awards], "lone": None,
                         "lines": [text], "declarations": {}}
        return [Event(text, None, "deal_end", {**self.showdown, **self._chips()}), self._end()]

    def _start_declaring(self) -> list[Event]:
        live = self._contenders()
        if self.nut_low or len(live) < 2:
            # High only (the nut low holds the low), or one hand left: nothing to declare.
            return self._showdown()
        self._phase = "declare"
        self._clear_last_actions()
        names = ", ".join(self.seats[s] for s in live)
        text = msg("Declare, sealed: high, low or both ({names}). Nothing is shown until all "
                   "have.", names=names)
        return [Event(text, None, "declare_begins", {"seats": live})]

    # --- actions -----------------------------------------------------------------------------
    def legal_actions(self, seat: int) -> list[Action]:
        if seat not in self.to_act:
            return []
        if self._phase == "declare":
            return [Action("declare", (side,)) for side in SIDES]
        if self._phase == "draw":
            hand = spew_order(self.hands[seat])
            actions = [Action("stand")]
            for size in range(1, min(self.max_draw, len(hand)) + 1):
                actions += [
                    Action("draw", tuple(cards_to_json(c))) for c in combinations(hand, size)
                ]
            return actions
        options = self.betting.options(seat)
        assert options is not None
        return [Action(name) for name in bet_names(options)]

    def _step(self, seat: int, action: Action) -> list[Event]:
        last_before = self._last_person()
        if action == TIMEOUT:  # only while declaring: see `_timeout_action`
            events = self._declaration_timeout(seat)
            self.last_actions[seat] = "no declaration"
            self.step += 1
            return events + self._after_declaring(last_before)
        if self._phase == "declare":
            if action.name != "declare" or len(action.args) != 1:
                raise IllegalAction(msg("Declare high, low or both."))
            side = str(action.args[0]).strip().lower()
            if side not in SIDES:
                raise IllegalAction(msg("{side} is not a side: high, low or both.",
                                        side=repr(action.args[0])))
            events = self._declare(seat, side)
            self.step += 1
            return events + self._after_declaring(last_before)
        if self._phase == "draw":
            events = self._draw_step(seat, action, most=self.max_draw)
        else:
            events = self._betting_action(seat, action)
        self.step += 1
        return events

    def _timeout_action(self, seat: int) -> Action:
        """The clock ran out: while declaring, the timeout itself (a declaration left to the
        clock is none: `_step`); otherwise as in every draw game (`DrawDeal`)."""
        return TIMEOUT if self._phase == "declare" else super()._timeout_action(seat)

    def _draw(self, seat: int, thrown: list[Card]) -> list[Event]:
        who = self.seats[seat]
        if not thrown:
            self.draws[seat] = 0
            self.last_actions[seat] = "stand pat"
            events = [Event(msg("{name} stands pat.", name=who), None, "draw",
                            {"seat": seat, "count": 0})]
        else:
            new = self._exchange(seat, thrown)
            count = len(thrown)
            self.draws[seat] = count
            self.last_actions[seat] = f"draw {count}"
            events = [
                Event(msg("{name} draws {n}.", name=who, n=count), None, "draw",
                      {"seat": seat, "count": count}),
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

    # --- declaring -----------------------------------------------------------------------------
    def _declare(self, seat: int, side: str) -> list[Event]:
        self.declarations[seat] = side
        self.last_actions[seat] = "declared"
        # A seat whose clock ran out has declared nothing and never will: it is neither
        # counted as declared nor among those still to declare.
        live = [s for s in self._contenders() if self.declarations[s] != TIMED_OUT]
        done = sum(1 for s in live if self.declarations[s] is not None)
        public = Event(
            msg("{name} has declared ({done} of {total}).", name=self.seats[seat], done=done,
                total=len(live)),
            None,
            "declared",
            {"seat": seat, "declared": done, "of": len(live)},
        )
        private = Event(msg("You declared {side}. It is sealed until everyone has declared.",
                            side=SIDE_WORDS[side]), seat, "declaration", {"declaration": side})
        return [public, private]

    def _after_declaring(self, last_before: int | None) -> list[Event]:
        if self.to_act:
            return self._last_call_events(last_before)
        return self._showdown()

    # --- the end of the deal -------------------------------------------------------------------
    def _lone_winner(self, seat: int) -> list[Event]:
        awards = self.betting.settle_lone_player()
        won = sum(a.amount for a in awards)
        text = msg("Everyone else folded or was spewed out: {name} takes the pot of {n} unseen.",
                   name=self.seats[seat], n=won)
        self.showdown = {"hands": {}, "awards": [a.to_json() for a in awards], "lone": seat,
                         "lines": [text], "declarations": {}}
        return [Event(text, None, "deal_end", {**self.showdown, **self._chips()}), self._end()]

    def _showdown(self) -> list[Event]:
        b = self.betting
        live = self._contenders()
        highs = {s: high_total(self.hands[s]) for s in live}
        lows = {s: low_total(self.hands[s]) for s in live}
        lines: list[str] = []
        for s in live:
            shown = {"name": self.seats[s], "cards": label_cards(spew_order(self.hands[s])),
                     "high": highs[s], "low": lows[s]}
            declared = self.declarations[s]
            if declared == TIMED_OUT:
                line = msg("{name}: {cards}, high {high}, low {low}, did not declare.", **shown)
            elif declared is not None:
                line = msg("{name}: {cards}, high {high}, low {low}, declared {side}.",
                           side=SIDE_WORDS[declared], **shown)
            else:
                line = msg("{name}: {cards}, high {high}, low {low}.", **shown)
            lines.append(line)
        for s in range(self.n):
            if self.out[s] and s not in self.nut_low:
                lines.append(msg("{name} was spewed out of cards and is out of the pot.",
                                 name=self.seats[s]))
        pots = b.pots()
        order = b.order_from_button()
        if self.nut_low:
            shares = [self._high_only_shares(p, highs, order) for p in pots]
        else:
            sides = {s: SIDES[d] for s in live if (d := self.declarations[s]) in SIDES}
            low_values = {s: -v for s, v in lows.items()}
            shares = [declared_shares(p, sides, highs, low_values, order) for p in pots]
        awards = b.settle(shares)
        for pot, award in zip(pots, awards, strict=True):
            lines.append(self._explain(pot, award, len(pots), highs, lows))
        self.showdown = {
            "hands": {str(s): cards_to_json(spew_order(self.hands[s])) for s in live},
            "high": {str(s): highs[s] for s in live},
            "low": {str(s): lows[s] for s in live},
            "declarations": {str(s): self.declarations[s] for s in live},
            "nut_low": list(self.nut_low),
            "out": [s for s in range(self.n) if self.out[s]],
            "awards": [a.to_json() for a in awards],
            "lone": None,
            "lines": lines,
        }
        text = Msg.joined(" ", [msg("Showdown."), *lines])
        return [Event(text, None, "deal_end", {**self.showdown, **self._chips()}), self._end()]

    def _high_only_shares(
        self, pot: Pot, highs: Mapping[int, int], order: Sequence[int]
    ) -> dict[int, int]:
        """A pot once a nut low was spewed out (option): half to the nut low(s) in it, the
        rest to its highest total; a side without a player goes to the other."""
        low = [s for s in pot.eligible if s in self.nut_low]
        high = best_seats(highs, [s for s in pot.eligible if s not in self.nut_low])
        if low and high:
            shares = split_evenly(pot.amount - pot.amount // 2, high, order)
            for seat, amount in split_evenly(pot.amount // 2, low, order).items():
                shares[seat] = shares.get(seat, 0) + amount
            return shares
        return split_evenly(pot.amount, high or low or list(pot.eligible), order)

    def _explain(self, pot: Pot, award: PotAward, count: int, highs: Mapping[int, int],
                 lows: Mapping[int, int]) -> str:
        label = msg("The pot") if count == 1 else (
            msg("The main pot") if award.index == 0 else msg("Side pot {n}", n=award.index))
        names = names_and([self.seats[s] for s in award.shares])
        if len(pot.eligible) == 1:
            return msg("{pot} of {n} goes back to {names}, the only one in it.", pot=label,
                       n=pot.amount, names=names)

        def who(seats: Sequence[int], values: Mapping[int, int]) -> str:
            return names_and([f"{self.seats[s]} ({values[s]})" for s in seats])

        parts: list[str] = []
        if self.nut_low:
            low = [s for s in pot.eligible if s in self.nut_low]
            high = best_seats(highs, [s for s in pot.eligible if s not in self.nut_low])
            if high:
                parts.append(msg("high to {names}", names=who(high, highs)))
            if low:
                parts.append(msg("low to {names} (no cards)",
                                 names=names_and([self.seats[s] for s in low])))
            return msg("{pot} of {n}: {parts}.", pot=label, n=pot.amount,
                       parts=Msg.joined(", ", parts))
        declared = {s: SIDES[d] for s in pot.eligible
                    if (d := self.declarations[s]) in SIDES}
        outcome = resolve_declarations(pot.eligible, declared, highs,
                                       {s: -v for s, v in lows.items()})
        if outcome.scoop is not None:
            s = outcome.scoop
            parts.append(msg("{name} wins both ways (high {high}, low {low}) and takes it all",
                             name=self.seats[s], high=highs[s], low=lows[s]))
        else:
            if outcome.high:
                parts.append(msg("high to {names}", names=who(outcome.high, highs)))
            if outcome.low:
                parts.append(msg("low to {names}", names=who(outcome.low, lows)))
            if not outcome.high and not outcome.low:
                parts.append(msg("nobody wins a side: shared by its players"))
            elif not outcome.high or not outcome.low:
                parts.append(msg("the other side has no winner"))
        for s in outcome.failed:
            parts.append(msg("{name} declared both and did not win both outright, so wins "
                             "nothing", name=self.seats[s]))
        shares = ", ".join(f"{self.seats[s]} {a}" for s, a in award.shares.items())
        return msg("{pot} of {n}: {parts} ({shares}).", pot=label, n=pot.amount,
                   parts=Msg.joined("; ", parts), shares=shares)

    def _end(self) -> Event:
        self.drawer = None
        for seat in self.nut_low:  # a nut low's stack comes back from behind the kit
            self.betting.stacks[seat] += self.held_back[seat]
            self.held_back[seat] = 0
        return self._close_deal()

    # --- what each seat is asked and sees -------------------------------------------------------
    def prompt(self, seat: int) -> Prompt | None:
        if seat not in self.to_act:
            return None
        if self._phase == "declare":
            text = msg("Your hand: {hand}. Declare, sealed: high (highest total), low (lowest), "
                       "or both (you must win both outright, or you win nothing). A "
                       "declaration is final.", hand=self._hand_text(seat))
            return Prompt(text, (
                Choice(msg("High"), Action("declare", ("high",)), "primary"),
                Choice(msg("Low"), Action("declare", ("low",)), "primary"),
                Choice(msg("Both"), Action("declare", ("both",)), "danger"),
            ))
        if self._phase == "draw":
            hand = spew_order(self.hands[seat])
            text = msg("The draw: your hand is {hand}. Pick the cards to throw (0-{n}), or stand "
                       "pat.", hand=self._hand_text(seat), n=self.max_draw)
            pick = CardPick(msg("Throw cards"), "draw", tuple(cards_to_json(hand)), 0,
                            min(self.max_draw, len(hand)), tuple(c.label for c in hand))
            return Prompt(text, (pick, Choice(msg("Stand pat"), Action("stand"), "primary")))
        return self._bet_prompt(seat)

    def _public_fields(self) -> dict[str, Any]:
        b = self.betting
        return {
            **self._betting_fields(),
            "ante": b.structure.ante,
            "rounds": b.structure.rounds,
            "max_draw": self.max_draw,
            "spew_total": self.spew_total,
            "out_takes_low": bool(self.settings["out_takes_low"]),
            # a seat spewed out of cards is out, not folded, and never all-in
            "folded": tuple(b.folded[s] and not self.out[s] for s in range(self.n)),
            "all_in": tuple(not b.folded[s] and b.stacks[s] == 0 and not b.settled
                            and not self.out[s] for s in range(self.n)),
            "draws": tuple(self.draws),
            "hand_sizes": tuple(len(h) for h in self.hands),
            "stock": len(self.stock),
            "spew_cards": tuple(cards_to_json(self.spew_cards)),
            "spewed": tuple(tuple(cards_to_json(c)) for c in self.spewed),
            "out": tuple(self.out),
            "nut_low": tuple(self.nut_low),
            "declared": tuple(d is not None and d != TIMED_OUT for d in self.declarations),
        }

    def public_view(self) -> SpewView:
        return SpewView(**self._public_fields())

    def view(self, seat: int) -> SpewSeatView:
        hand = self.hands[seat]
        return SpewSeatView(
            **self._public_fields(),
            seat=seat,
            hand=tuple(cards_to_json(spew_order(hand))),
            high=high_total(hand),
            low=low_total(hand),
            declaration=None if self._declared_nothing(seat) else self.declarations[seat],
        )

    # --- snapshots -----------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        return {
            **self._snapshot_fields(),
            "stock": cards_to_json(self.stock),
            "hands": [cards_to_json(h) for h in self.hands],
            "discards": cards_to_json(self.discards),
            "draws": list(self.draws),
            "spew_cards": cards_to_json(self.spew_cards),
            "spewed": [cards_to_json(c) for c in self.spewed],
            "out": list(self.out),
            "nut_low": list(self.nut_low),
            "held_back": list(self.held_back),
            "declarations": list(self.declarations),
            "drawer": self.drawer,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Spew:
        game = cls.__new__(cls)
        game.seats = tuple(data["seats"])
        game.options = dict(data["options"])
        game.settings = _check_options(game.options, len(game.seats))
        game.hole, game.max_draw, game.spew_total = spew_layout(len(game.seats))
        game._restore_fields(data)
        game.stock = cards_from_json(data["stock"])
        game.hands = [cards_from_json(h) for h in data["hands"]]
        game.discards = cards_from_json(data["discards"])
        game.draws = [None if d is None else int(d) for d in data["draws"]]
        game.spew_cards = cards_from_json(data["spew_cards"])
        game.spewed = [cards_from_json(c) for c in data["spewed"]]
        game.out = [bool(x) for x in data["out"]]
        game.nut_low = [int(x) for x in data["nut_low"]]
        game.held_back = [int(x) for x in data["held_back"]]
        # Saved before one mark for a declaration left to the clock ("none" then).
        game.declarations = [TIMED_OUT if d == "none" else d for d in data["declarations"]]
        game.drawer = data["drawer"]
        game._opening = []
        return game

    def ai_action(self, seat: int, rng: random.Random) -> Action:
        return spew_ai(self.view(seat), self.legal_actions(seat), rng)
