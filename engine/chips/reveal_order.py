"""The machinery Old Man 49er and Zero to 55 share (seed 001): five cards, one draw, a private
reveal order fixed once, simultaneous reveals with fixed-limit betting, a sealed high / low /
both declaration, and a showdown of point totals.

Both games are one deal per game on the table's stacks, the chip-game contract of Badugi:
options `stacks` (required), `button` (0), `small_bet` (10), `big_bet` (20), `ante` (5),
the declaring clocks `declare_seconds` (120) and `last_seconds` (10), and `ai_seats`;
`result.chips` is each seat's net (summing to zero) and `result.scores` the final stacks.
A game differs from the other only in data and a few hooks: its `schedule` (the order of its
steps), its point scheme, how many cards may be drawn, the fee per card drawn, and whether a
hand takes the pot whatever was declared (Old Man 49er's 49).

Why the steps are a schedule: the seed puts Old Man 49er's betting *before* each reveal and
Zero to 55's *after* it, and only Zero to 55 bets before the draw; a tuple of step names says
that once, and one loop (`_advance`) runs either.

The rulings common to both (RULINGS.md, and docs/rules/ for the ones we chose):

- The reveal order is chosen in private, by picking the five cards first to last (with a
  reset), and confirmed once; it never changes afterwards. Everybody orders at once; a
  timeout keeps the cards picked so far in front, the rest in the order they are held.
- A reveal turns every live player's next card at the same moment: one public event with
  every player's exposed cards and the totals they can make (lowest and highest).
- Each betting round is led by the highest exposed total, every card at its highest value
  (aces 11, Zero to 55's faces 10 and A♠ 12); equal totals and the round before any reveal
  start from the dealer's left.
- Declarations are sealed (only "has declared" is public) and shown together once every
  live player has declared, with Sppoker's clocks (`SealedDeclarations`): the whole table's
  `declare_seconds` (120), and the last person's `last_seconds` (10, AI seats counting as
  declared), told privately. A player whose clock runs out has declared nothing and loses
  the hand: no part of any pot, not even with Old Man 49er's 49.
- Each side of a pot is resolved by the kit's `declared_shares` (both must win both ways
  outright; odd chips to high). The fee per card drawn (Zero to 55's option) is dead money
  paid with the main pot: the kit has no dead money, so the fees are kept here and added to
  the main pot's winners after the kit has paid its pots.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from itertools import combinations
from typing import Any, ClassVar

from engine.cards import Card, cards_from_json, cards_to_json, label_cards, shuffled, standard_deck
from engine.chips.bet_prompts import bet_names
from engine.chips.betting import Betting, Structure
from engine.chips.deal import STAKES, check_stakes
from engine.chips.draw import DrawDeal
from engine.chips.points import PointScheme, best_high, best_low, exposed_total_for_betting, totals
from engine.chips.pots import (
    Declaration,
    Pot,
    declared_shares,
    resolve_declarations,
    shared_by,
    split_evenly,
)
from engine.chips.reveal_views import RevealSeatView, RevealView
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
    parse_action_cards,
)
from engine.i18n import Msg, msg, names_and

__all__ = [
    "RevealGame",
]

HAND_SIZE = 5
TURN_SECONDS = 60.0
ORDER_SECONDS = 120.0
SIDES = tuple(d.value for d in Declaration)
SIDE_WORDS = {"high": msg("high"), "low": msg("low"), "both": msg("both")}
SIDE_LABELS = {"high": msg("High"), "low": msg("Low"), "both": msg("Both")}


class RevealGame(TableDeclarations, DrawDeal):
    """One deal of a reveal-order game; subclasses give the data and the hooks below.
    Options beside the stakes: `declare_seconds` (120), `last_seconds` (10); `ai_seats` is
    filled in by the table (AI seats count as declared for the last person's clock)."""

    min_seats = 2
    max_seats = 7
    table_options: ClassVar[frozenset[str]] = frozenset({"ai_seats"})
    scheme: ClassVar[PointScheme]
    schedule: ClassVar[tuple[str, ...]]
    extra_options: ClassVar[Mapping[str, int]] = {}

    # --- the hooks -------------------------------------------------------------------------
    def draw_limit(self) -> int:
        return 4

    @property
    def draw_fee(self) -> int:
        return 0

    def high_total(self, cards: Sequence[Card]) -> int:
        return best_high(cards, self.scheme)

    def low_total(self, cards: Sequence[Card]) -> int:
        return best_low(cards, self.scheme)

    def jackpot(self, cards: Sequence[Card]) -> bool:
        """Whether the hand takes every pot it is in whatever was declared."""
        return False

    # --- building --------------------------------------------------------------------------
    def __init__(
        self,
        seats: Sequence[str],
        options: Mapping[str, Any] | None = None,
        rng: random.Random | None = None,
    ) -> None:
        self._check_seat_count(len(seats))
        self.seats = tuple(seats)
        self.options = dict(options or {})
        settings = self._check_options()
        self.settings = settings
        self.rng = rng if rng is not None else random.Random()
        structure = Structure(
            small_bet=settings["small_bet"],
            big_bet=settings["big_bet"],
            rounds=self.schedule.count("bet"),
            ante=settings["ante"],
        )
        self.betting = Betting(settings["stacks"], structure, settings["button"])
        n = len(seats)
        self.stock: list[Card] = shuffled(standard_deck(), self.rng)
        self.hands: list[list[Card]] = [[] for _ in range(n)]  # face down only
        self.exposed: list[list[Card]] = [[] for _ in range(n)]
        self.discards: list[Card] = []
        self.drawn: list[int | None] = [None] * n
        self.fees = [0] * n
        self.picked: list[list[Card]] = [[] for _ in range(n)]
        self.order_fixed = [False] * n
        self.declarations: list[str | None] = [None] * n
        self.declarations_shown = False
        self.last_actions = [""] * n
        self.stage = -1
        self._phase = "deal"
        self.drawer: int | None = None
        self.lead: int | None = None
        self.reveals = 0
        self.step = 0
        self.showdown: dict[str, Any] | None = None
        self._result: GameResult | None = None
        self._opening = self._deal()

    def _check_options(self) -> dict[str, Any]:
        stakes = {**STAKES, **self.extra_options}
        seats = len(self.seats)
        settings = check_stakes(self.title, self.options, seats, stakes,
                                ("declare_seconds", "last_seconds", "ai_seats"))
        return {**settings, **declaring_options(self.options, seats)}

    def live(self) -> list[int]:
        """The seats still in, from the dealer's left."""
        return [s for s in self.betting.order_from_button() if not self.betting.folded[s]]

    @property
    def to_act(self) -> frozenset[int]:
        if self._phase == "bet" and self.betting.actor is not None:
            return frozenset({self.betting.actor})
        if self._phase == "draw" and self.drawer is not None:
            return frozenset({self.drawer})
        if self._phase == "order":
            return frozenset(s for s in self.live() if not self.order_fixed[s])
        if self._phase == "declare":
            return frozenset(self._awaited_declarers())
        return frozenset()

    def timers(self) -> list[TimerSpec]:
        if self.is_over or not self.to_act:
            return []
        if self._phase == "declare":
            return self._declaring_timers()
        if self._phase == "order":
            key = f"{self.kind}-order-{self.stage}"
            return [TimerSpec(key, ORDER_SECONDS, tuple(sorted(self.to_act)))]
        return [TimerSpec(f"{self.kind}-{self.step}", TURN_SECONDS, tuple(sorted(self.to_act)))]

    # The sealed declarations' hooks (SealedDeclarations): the players still in declare.
    def _declarers(self) -> Sequence[int]:
        return self.live()

    def _declare_timer_keys(self) -> tuple[str, str]:
        return f"{self.kind}-declare-{self.stage}", f"{self.kind}-last-{self.stage}-"

    def cards_of(self, seat: int) -> list[Card]:
        return self.exposed[seat] + self.hands[seat]

    # --- dealing and the flow ----------------------------------------------------------------
    def _deal(self) -> list[Event]:
        told = self._deal_hands(HAND_SIZE, msg("{game}: {name} deals.", game=self.title,
                                               name=self.seats[self.button]))
        events = [Event(Msg.joined(" ", told), None, "deal",
                        {"button": self.button, **self._chips()})]
        for seat in range(self.n):
            events.append(self._hand_event(seat, msg("Your cards: {hand}.",
                                                     hand=self._hand_text(seat))))
        return events + self._advance()

    @property
    def pot(self) -> int:
        return self.betting.pot_total + sum(self.fees)

    def _chips(self) -> dict[str, Any]:
        return {**super()._chips(), "fees": list(self.fees)}

    def _values_text(self, cards: Sequence[Card]) -> str:
        return msg("high {high}, low {low}", high=self.high_total(cards),
                   low=self.low_total(cards))

    def _hand_text(self, seat: int) -> str:
        cards = self.cards_of(seat)
        return msg("{cards} ({values})", cards=label_cards(cards),
                   values=self._values_text(cards))

    def _hand_event(self, seat: int, text: str, **extra: Any) -> Event:
        data = {"hand": cards_to_json(self.hands[seat]), **extra}
        return Event(text, seat, "hand", data)

    def _waiting(self) -> bool:
        return bool(self.to_act) or self.is_over

    def _advance(self) -> list[Event]:
        """Run the schedule while nobody has a decision to make."""
        events: list[Event] = []
        while not self._waiting():
            events += self._close_step()
            if self.is_over:
                break
            events += self._open_next()
        return events

    def _close_step(self) -> list[Event]:
        events: list[Event] = []
        b = self.betting
        if self._phase == "bet":
            events += self._end_betting_round()
            if b.lone_player is not None:
                events += self._lone_winner(b.lone_player)
        elif self._phase == "declare":
            self.declarations_shown = True
            said = Msg.joined(", ", [
                msg("{name} {side}", name=self.seats[s], side=SIDE_WORDS[side])
                if (side := self.declarations[s] or "") in SIDE_WORDS else
                msg("{name} did not declare", name=self.seats[s]) for s in self.live()])
            data = {"declarations": list(self.declarations)}
            events.append(Event(msg("The declarations: {said}.", said=said), None,
                                "declarations", data))
        return events

    def _open_next(self) -> list[Event]:
        self.stage += 1
        self._clear_last_actions()
        if self.stage >= len(self.schedule):
            return self._showdown()
        step = self.schedule[self.stage]
        if step == "bet":
            return self._open_betting()
        if step == "draw":
            return self._open_draw()
        if step == "order":
            self._phase = "order"
            text = msg(
                "Everyone now fixes the order in which their cards will be turned, in private. "
                "Once confirmed it cannot change."
            )
            return [Event(text, None, "order_begins", {})]
        if step == "declare":
            self._phase = "declare"
            text = msg("Declare high, low or both, sealed: the declarations are shown together.")
            return [Event(text, None, "declare_begins", {})]
        self._phase = "turning"  # passes at once: nobody is asked anything
        return self._reveal()

    def _clear_last_actions(self) -> None:
        self.last_actions = ["fold" if self.betting.folded[s] else "" for s in range(self.n)]

    def _open_betting(self) -> list[Event]:
        b = self.betting
        self._phase = "bet"
        b.start_round()
        live = self.live()
        lead = max(live, key=lambda s: (
            exposed_total_for_betting(self.exposed[s], self.scheme), -live.index(s)))
        self.lead = lead
        if b.actor is not None:
            # The kit starts every round from the dealer's left; these games start from the
            # highest exposed total, so the first actor is found again from that seat.
            b.actor = b._next_actor(lead)
        shown = self.reveals and exposed_total_for_betting(self.exposed[lead], self.scheme)
        if shown:
            text = msg("Betting round {round} (pot {pot}): {name} leads (highest showing, "
                       "{shown}).", round=b.round_no + 1, pot=self.pot, name=self.seats[lead],
                       shown=shown)
        else:
            text = msg("Betting round {round} (pot {pot}): {name} leads.", round=b.round_no + 1,
                       pot=self.pot, name=self.seats[lead])
        return [Event(text, None, "bet_begins", {"round": b.round_no, "lead": lead,
                                                   **self._chips()})]

    def _open_draw(self) -> list[Event]:
        self._phase = "draw"
        live = self.live()
        self.drawer = live[0]
        if self.draw_fee:
            text = msg("The draw: up to {n} cards, {fee} a card, in turn from the dealer's left.",
                       n=self.draw_limit(), fee=self.draw_fee)
        else:
            text = msg("The draw: up to {n} cards, in turn from the dealer's left.",
                       n=self.draw_limit())
        return [Event(text, None, "draw_begins", {"limit": self.draw_limit(),
                                                    "fee": self.draw_fee, **self._chips()})]

    def _totals_pair(self, cards: Sequence[Card]) -> tuple[int, int]:
        reach = totals(cards, self.scheme)
        return min(reach), max(reach)

    def _reveal(self) -> list[Event]:
        """Every live player's next card, all at once: one public event."""
        self.reveals += 1
        turned: dict[int, Card] = {}
        for seat in self.live():
            if self.hands[seat]:
                card = self.hands[seat].pop(0)
                self.exposed[seat].append(card)
                turned[seat] = card
        parts: list[str] = []
        for seat, card in turned.items():
            low, high = self._totals_pair(self.exposed[seat])
            span = str(low) if low == high else msg("{low} to {high}", low=low, high=high)
            parts.append(msg("{name} {card} ({cards}: {span})", name=self.seats[seat],
                             card=card.label, cards=label_cards(self.exposed[seat]), span=span))
        turns = Msg.joined("; ", parts)
        if self.reveals == HAND_SIZE:
            text = msg("Reveal {n} (the last card): {turns}.", n=self.reveals, turns=turns)
        else:
            text = msg("Reveal {n}: {turns}.", n=self.reveals, turns=turns)
        data = {
            "reveal": self.reveals,
            "cards": {str(s): str(c) for s, c in turned.items()},
            "exposed": {str(s): cards_to_json(self.exposed[s]) for s in turned},
            "totals": {str(s): list(self._totals_pair(self.exposed[s])) for s in turned},
        }
        return [Event(text, None, "reveal", data)]

    # --- actions -------------------------------------------------------------------------------
    def _affordable(self, seat: int) -> int:
        """How many cards the seat may draw: the limit, or what its stack pays for."""
        limit = min(self.draw_limit(), len(self.hands[seat]))
        if self.draw_fee:
            limit = min(limit, self.betting.stacks[seat] // self.draw_fee)
        return limit

    def legal_actions(self, seat: int) -> list[Action]:
        if seat not in self.to_act:
            return []
        if self._phase == "draw":
            actions = [Action("stand")]
            for size in range(1, self._affordable(seat) + 1):
                actions += [Action("draw", tuple(cards_to_json(c)))
                            for c in combinations(self.hands[seat], size)]
            return actions
        if self._phase == "order":
            rest = [c for c in self.hands[seat] if c not in self.picked[seat]]
            actions = [Action("pick", (str(c),)) for c in rest]
            if self.picked[seat]:
                actions.append(Action("reset"))
            if not rest:
                actions.append(Action("confirm"))
            return actions
        if self._phase == "declare":
            return [Action("declare", (side,)) for side in SIDES]
        options = self.betting.options(seat)
        assert options is not None
        return [Action(name) for name in bet_names(options)]

    def _check_turn(self, seat: int, action: Action) -> None:
        if seat not in self.to_act and self._phase == "order" and self.order_fixed[seat]:
            raise IllegalAction(msg("Your order is fixed: it cannot change now."))
        super()._check_turn(seat, action)

    def _step(self, seat: int, action: Action) -> list[Event]:
        if action == TIMEOUT:  # only while declaring: see `_timeout_action`
            last_before = self._last_person()
            events = self._declaration_timeout(seat)
            self.last_actions[seat] = "no declaration"
            self.step += 1
            return events + self._last_call_events(last_before) + self._advance()
        if self._phase == "draw":
            events = self._draw_step(seat, action)
        elif self._phase == "order":
            events = self._order(seat, action)
        elif self._phase == "declare":
            events = self._declare(seat, action)
        else:
            events = self._betting_action(seat, action)
        self.step += 1
        return events

    def _timeout_action(self, seat: int) -> Action:
        """The clock ran out: check, else fold; stand pat; keep the order picked so far with
        the other cards after it as held. (A declaration left to the clock is none: the
        timeout itself, see `SealedDeclarations`.)"""
        if self._phase == "declare":
            return TIMEOUT
        if self._phase == "order":
            rest = [c for c in self.hands[seat] if c not in self.picked[seat]]
            return Action("order", tuple(cards_to_json(self.picked[seat] + rest)))
        return super()._timeout_action(seat)

    def single_side(self, cards: Sequence[Card]) -> str:
        """The side a hand is nearer to winning: high when its high total is nearer the top
        of what five cards can make than its low total is to 0."""
        top = HAND_SIZE * max(max(self.scheme.values(c)) for c in standard_deck())
        return "high" if self.high_total(cards) + self.low_total(cards) >= top else "low"

    def _muck(self, seat: int) -> None:
        super()._muck(seat)
        self.picked[seat] = []

    def _draw(self, seat: int, thrown: list[Card]) -> list[Event]:
        who = self.seats[seat]
        count = len(thrown)
        if count > self._affordable(seat):
            if count > self.draw_limit():
                raise IllegalAction(msg("You may draw at most {n} cards.", n=self.draw_limit()))
            raise IllegalAction(msg("Your stack pays for {n} cards at most ({fee} a card).",
                                    n=self._affordable(seat), fee=self.draw_fee))
        self.drawn[seat] = count
        if not thrown:
            self.last_actions[seat] = "stand pat"
            events = [Event(msg("{name} stands pat.", name=who), None, "draw",
                            {"seat": seat, "count": 0})]
        else:
            fee = count * self.draw_fee
            if fee:
                self.betting.stacks[seat] -= fee
                self.fees[seat] += fee
            new = self._exchange(seat, thrown)
            self.last_actions[seat] = f"draw {count}"
            text = msg("{name} draws {n} and pays {fee}.", name=who, n=count, fee=fee) if fee \
                else msg("{name} draws {n}.", name=who, n=count)
            events = [
                Event(text, None, "draw", {"seat": seat, "count": count, "fee": fee,
                                           **self._chips()}),
                self._hand_event(seat, msg("You threw {thrown} and drew {drawn}: {hand}.",
                                           thrown=label_cards(thrown), drawn=label_cards(new),
                                           hand=self._hand_text(seat)),
                                 thrown=cards_to_json(thrown), drawn=cards_to_json(new)),
            ]
        live = self.live()
        after = live[live.index(seat) + 1:]
        self.drawer = after[0] if after else None
        return events + self._advance()

    def _order(self, seat: int, action: Action) -> list[Event]:
        hand = self.hands[seat]
        picked = self.picked[seat]
        if action.name == "reset":
            if not picked:
                raise IllegalAction(msg("You have not picked any card yet."))
            self.picked[seat] = []
            return [Event(msg("Order cleared: pick your cards again, first to last."), seat,
                          "order_pick", {"picked": []})]
        if action.name == "pick":
            [card] = _one_card(action.args, hand)
            if card in picked:
                raise IllegalAction(msg("You already picked {card}.", card=card.label))
            picked.append(card)
            rest = [c for c in hand if c not in picked]
            if len(rest) == 1:
                picked.append(rest[0])  # the last card has only one place left
            # No words, so no note in the seat's log: its view ("Reveal order so far") and
            # prompt ("picked: …") show the order, where a note a card made the DM say it
            # three times and grow a line with every card.
            return [Event("", seat, "order_pick", {"picked": cards_to_json(picked)})]
        if action.name == "confirm":
            if len(picked) != len(hand):
                raise IllegalAction(msg("Pick all your cards in order first."))
            return self._fix_order(seat, list(picked))
        if action.name == "order":
            cards = parse_action_cards(action.args, hand)
            if len(cards) != len(hand):
                raise IllegalAction(msg("Give all {n} cards, first to last.", n=len(hand)))
            return self._fix_order(seat, cards)
        raise IllegalAction(msg(
            "Pick your cards in the order they will be turned, then confirm."))

    def _fix_order(self, seat: int, cards: list[Card]) -> list[Event]:
        self.hands[seat] = cards
        self.picked[seat] = list(cards)
        self.order_fixed[seat] = True
        self.last_actions[seat] = "ordered"
        events = [
            Event(msg("Your order is fixed: {cards}. It cannot change now.",
                      cards=label_cards(cards)), seat, "order", {"order": cards_to_json(cards)}),
            Event(msg("{name} has fixed their order.", name=self.seats[seat]), None, "ordered",
                  {"seat": seat}),
        ]
        return events + self._advance()

    def _declare(self, seat: int, action: Action) -> list[Event]:
        if action.name != "declare" or len(action.args) != 1 or action.args[0] not in SIDES:
            raise IllegalAction(msg("Declare high, low or both."))
        side = str(action.args[0])
        last_before = self._last_person()
        self.declarations[seat] = side
        self.last_actions[seat] = "declared"
        events = [
            Event(msg("You declared {side}. It stays sealed until everyone has declared.",
                      side=SIDE_WORDS[side]), seat, "declared_private", {"declaration": side}),
            Event(msg("{name} has declared.", name=self.seats[seat]), None, "declared",
                  {"seat": seat}),
        ]
        return events + self._last_call_events(last_before) + self._advance()

    # --- the end ---------------------------------------------------------------------------------
    def _fee_pot(self, pots: Sequence[Pot]) -> Pot | None:
        total = sum(self.fees)
        if not total:
            return None
        eligible = pots[0].eligible if pots else tuple(self.betting.live)
        return Pot(total, eligible)

    def _pay_fees(self, fee_pot: Pot | None, shares: Mapping[int, int]) -> dict[str, Any] | None:
        if fee_pot is None:
            return None
        for seat, amount in shares.items():
            self.betting.stacks[seat] += amount
        self.fees = [0] * self.n
        return {"amount": fee_pot.amount, "eligible": list(fee_pot.eligible),
                "shares": {str(s): a for s, a in sorted(shares.items()) if a}}

    def _lone_winner(self, seat: int) -> list[Event]:
        b = self.betting
        fee_pot = self._fee_pot(b.pots())
        awards = b.settle_lone_player()
        fees = self._pay_fees(fee_pot, {seat: fee_pot.amount} if fee_pot else {})
        won = sum(a.amount for a in awards) + (fee_pot.amount if fee_pot else 0)
        text = msg("Everyone else folded: {name} takes the pot of {n} unseen.",
                   name=self.seats[seat], n=won)
        self.showdown = {"hands": {}, "awards": [a.to_json() for a in awards], "fees": fees,
                         "lone": seat, "lines": [text]}
        return [Event(text, None, "deal_end", {**self.showdown, **self._chips()}), self._end()]

    def _showdown(self) -> list[Event]:
        self._phase = "showdown"
        events = self._reveal() if any(self.hands[s] for s in self.live()) else []
        b = self.betting
        live = self.live()
        order = b.order_from_button()
        full = {s: self.cards_of(s) for s in live}
        high = {s: self.high_total(full[s]) for s in live}
        low = {s: self.low_total(full[s]) for s in live}
        # A player whose clock ran out declared nothing: no part of any pot, 49 or not.
        declared = {s: Declaration(d) for s in live if (d := self.declarations[s]) in SIDES}
        jackpots = [s for s in live if s in declared and self.jackpot(full[s])]
        ranks_low = {s: -v for s, v in low.items()}
        lines: list[str] = []
        for s in live:
            shown = {"name": self.seats[s], "cards": label_cards(full[s]), "high": high[s],
                     "low": low[s]}
            if s not in declared:
                lines.append(msg("{name}: {cards}, high {high}, low {low}, did not declare.",
                                 **shown))
                continue
            shown["side"] = SIDE_WORDS[declared[s].value]
            lines.append(
                msg("{name}: {cards}, declared {side}, high {high}, low {low} — exactly 49!",
                    **shown) if s in jackpots else
                msg("{name}: {cards}, declared {side}, high {high}, low {low}.", **shown))

        def pay(pot: Pot) -> tuple[dict[int, int], str]:
            hits = [s for s in pot.eligible if s in jackpots]
            if hits:
                names = names_and([self.seats[s] for s in hits])
                return split_evenly(pot.amount, hits, order), msg("{names} with exactly 49",
                                                                  names=names)
            outcome = resolve_declarations(pot.eligible, declared, high, ranks_low)
            shares = declared_shares(pot, declared, high, ranks_low, order)
            parts: list[str] = []
            if outcome.scoop is not None:
                parts.append(msg("{name} wins both ways", name=self.seats[outcome.scoop]))
            else:
                if outcome.high:
                    parts.append(msg("high to {names} ({total})",
                                     names=names_and([self.seats[s] for s in outcome.high]),
                                     total=high[outcome.high[0]]))
                if outcome.low:
                    parts.append(msg("low to {names} ({total})",
                                     names=names_and([self.seats[s] for s in outcome.low]),
                                     total=low[outcome.low[0]]))
                if not parts and shared_by(pot, declared) == pot.eligible:
                    parts.append(msg("nobody won a side: shared by everyone in it"))
                elif not parts:
                    parts.append(msg("nobody won a side: shared by those in it who declared"))
            for s in outcome.failed:
                parts.append(msg("{name} went both ways and lost both", name=self.seats[s]))
            return shares, Msg.joined("; ", parts)

        pots = b.pots()
        fee_pot = self._fee_pot(pots)
        paid = [pay(pot) for pot in pots]
        awards = b.settle([shares for shares, _ in paid])
        fee_record = None
        if fee_pot is not None:
            fee_shares, why = pay(fee_pot)
            fee_record = self._pay_fees(fee_pot, fee_shares)
            paid.append((fee_shares, why))
        for index, (shares, why) in enumerate(paid):
            label = (msg("The draw fees") if index == len(pots) else
                     msg("The pot") if len(pots) == 1 else
                     msg("The main pot") if index == 0 else msg("Side pot {n}", n=index))
            amount = sum(shares.values())
            who = ", ".join(f"{self.seats[s]} {a}" for s, a in sorted(shares.items()) if a)
            lines.append(msg("{pot} of {n}: {parts} ({shares}).", pot=label, n=amount, parts=why,
                             shares=who))
        self.showdown = {
            "hands": {str(s): cards_to_json(full[s]) for s in live},
            "high": {str(s): high[s] for s in live},
            "low": {str(s): low[s] for s in live},
            "declarations": {str(s): declared[s].value if s in declared else TIMED_OUT
                             for s in live},
            "jackpots": jackpots,
            "awards": [a.to_json() for a in awards],
            "fees": fee_record,
            "lone": None,
            "lines": lines,
        }
        text = Msg.joined(" ", [msg("Showdown."), *lines])
        events.append(Event(text, None, "deal_end", {**self.showdown, **self._chips()}))
        return [*events, self._end()]

    def _end(self) -> Event:
        self.drawer = None
        return self._close_deal()

    # --- prompts and views ---------------------------------------------------------------
    def prompt(self, seat: int) -> Prompt | None:
        if seat not in self.to_act:
            return None
        if self._phase == "draw":
            most = self._affordable(seat)
            if self.draw_fee:
                text = msg("The draw: your cards are {hand}. Pick up to {n} cards to throw ({fee} "
                           "chips a card), or stand pat.", hand=self._hand_text(seat), n=most,
                           fee=self.draw_fee)
            else:
                text = msg("The draw: your cards are {hand}. Pick up to {n} cards to throw, or "
                           "stand pat.", hand=self._hand_text(seat), n=most)
            hand = self.hands[seat]
            choices: list[Choice | CardPick] = []
            if most:
                choices.append(CardPick(msg("Throw cards"), "draw", tuple(cards_to_json(hand)), 1,
                                        most, tuple(c.label for c in hand)))
            choices.append(Choice(msg("Stand pat"), Action("stand"), "primary"))
            return Prompt(text, tuple(choices))
        if self._phase == "order":
            hand, picked = self.hands[seat], self.picked[seat]
            so_far = label_cards(picked) if picked else msg("nothing yet")
            text = msg("Stack your cards in the order they will be turned, first to last "
                       "(picked: {cards}). Once you confirm, the order cannot change.",
                       cards=so_far)
            choices = [Choice(c.label, Action("pick", (str(c),)), "primary")
                       for c in hand if c not in picked]
            choices.append(Choice(msg("Reset"), Action("reset"), "danger",
                                  None if picked else msg("Nothing picked yet.")))
            complete = len(picked) == len(hand)
            choices.append(Choice(msg("Confirm"), Action("confirm"), "success",
                                  None if complete else msg("Pick all your cards first.")))
            return Prompt(text, tuple(choices))
        if self._phase == "declare":
            text = msg("Your cards: {hand}. Declare high, low or both (both must win both ways "
                       "outright). Sealed until everyone has declared.",
                       hand=self._hand_text(seat))
            return Prompt(text, tuple(Choice(SIDE_LABELS[side], Action("declare", (side,)),
                                             "primary") for side in SIDES))
        return self._bet_prompt(seat)

    def _public_fields(self) -> dict[str, Any]:
        return {
            **self._betting_fields(),
            "ante": self.betting.structure.ante,
            "draw_limit": self.draw_limit(),
            "draw_fee": self.draw_fee,
            "fees": tuple(self.fees),
            "drawn": tuple(self.drawn),
            "exposed": tuple(tuple(cards_to_json(e)) for e in self.exposed),
            "exposed_totals": tuple(self._totals_pair(e) for e in self.exposed),
            "hidden": tuple(len(h) for h in self.hands),
            "reveals": self.reveals,
            "lead": self.lead,
            "ordered": tuple(self.order_fixed),
            "declared": tuple(d is not None and d != TIMED_OUT for d in self.declarations),
            "declarations": tuple(None if d == TIMED_OUT else d for d in self.declarations)
            if self.declarations_shown else None,
        }

    def public_view(self) -> RevealView:
        return RevealView(**self._public_fields())

    def view(self, seat: int) -> RevealSeatView:
        cards = self.cards_of(seat)
        return RevealSeatView(
            **self._public_fields(),
            seat=seat,
            hand=tuple(cards_to_json(self.hands[seat])),
            cards=tuple(cards_to_json(cards)),
            picked=tuple(cards_to_json(self.picked[seat])),
            order_fixed=self.order_fixed[seat],
            declaration=None if self._declared_nothing(seat) else self.declarations[seat],
            high_total=self.high_total(cards) if cards else 0,
            low_total=self.low_total(cards) if cards else 0,
        )

    # --- snapshots -------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        return {
            **self._snapshot_fields(),
            "stock": cards_to_json(self.stock),
            "hands": [cards_to_json(h) for h in self.hands],
            "exposed": [cards_to_json(e) for e in self.exposed],
            "discards": cards_to_json(self.discards),
            "drawn": list(self.drawn),
            "fees": list(self.fees),
            "picked": [cards_to_json(p) for p in self.picked],
            "order_fixed": list(self.order_fixed),
            "declarations": list(self.declarations),
            "declarations_shown": self.declarations_shown,
            "stage": self.stage,
            "drawer": self.drawer,
            "lead": self.lead,
            "reveals": self.reveals,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> RevealGame:
        game = cls.__new__(cls)
        game.seats = tuple(data["seats"])
        game.options = dict(data["options"])
        game.settings = game._check_options()
        game._restore_fields(data)
        game.stock = cards_from_json(data["stock"])
        game.hands = [cards_from_json(h) for h in data["hands"]]
        game.exposed = [cards_from_json(e) for e in data["exposed"]]
        game.discards = cards_from_json(data["discards"])
        game.drawn = list(data["drawn"])
        game.fees = [int(f) for f in data["fees"]]
        game.picked = [cards_from_json(p) for p in data["picked"]]
        game.order_fixed = [bool(x) for x in data["order_fixed"]]
        game.declarations = list(data["declarations"])
        game.declarations_shown = bool(data["declarations_shown"])
        game.stage = int(data["stage"])
        game.drawer = data["drawer"]
        game.lead = data["lead"]
        game.reveals = int(data["reveals"])
        game._opening = []
        return game


def _one_card(args: Sequence[Any], hand: Sequence[Card]) -> list[Card]:
    if len(args) != 1:
        raise IllegalAction(msg("Pick one card."))
    return parse_action_cards(args, hand)
