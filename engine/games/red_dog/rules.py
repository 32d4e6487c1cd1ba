"""Red Dog (seed 001, ruled in RULINGS.md): each player bets against the pot that they hold a
higher card of the suit of the next card turned.

A game is one pot's life. Everyone who can pays the ante once; then rounds are dealt while
the pot holds chips, without a new ante: five cards each (four with more than eight
players), and in turn from the dealer's left each player passes or bets 1 up to the pot as
it stands (never more than their stack). Each bet is settled at once: the next card of the
stock is turned for that bettor, and a higher card of its suit in their hand (aces high)
wins the bet from the pot; otherwise the bet goes into the pot. The game ends when the pot
is empty.

Where the texts are silent this module rules as docs/rules/red_dog.md says, in short:

- a bettor's hand is shown to everyone once their card is turned (win or lose); a player
  who passes throws in unseen;
- the deal passes to the left each round, so the first bet against a fresh pot rotates;
- a player whose stack is below the ante sits the game out; a player left without chips is
  dealt no more cards (they cannot bet);
- a round in which nobody bets ends the game, and so does one after which nobody has chips
  left: either way the pot is shared equally among the players of the game, odd chips one
  each from the left of the dealer of the last round played (the Dealer's Choice ruling for
  a Red Dog pot left over; the end is found before the deal passes), so
  that a table whose players all walk away still ends and every chip has an owner;
- a clock that runs out passes, the one answer that risks nothing.

The pot is a ledger of its own (the stacks and one number): bets here are paid from the pot
and into it one at a time, which the betting kit's pots (layered by what players commit,
paid out once at a showdown) do not model, nor its rule that a short stack antes what it
has. The share-out of a pot left over is the kit's `split_evenly`, the odd-chip rule of
every chip game.

Options: `stacks` (required, the chips each seat brings), `button` (the first dealer,
default seat 0), `ante` (default 1), `turn_seconds` (the betting clock, default 60) and
`max_rounds` (default none: a Dealer's Choice session sets 5, after which, RULINGS.md says,
what is left in the pot is shared as above).

>>> game = RedDog(["Ann", "Bob", "Cy"], {"stacks": [20, 20, 20]}, random.Random(3))
>>> game.pot, game.stacks, sorted(game.to_act)
(3, [19, 19, 19], [1])
>>> [choice.label for choice in game.prompt(1).choices]
['Pass', 'Bet 1', 'Bet 3 (the pot)']
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from engine.cards import Card, label_cards
from engine.chips.deal import check_stakes
from engine.chips.pots import split_evenly
from engine.game import (
    TIMEOUT,
    Action,
    Choice,
    Event,
    Game,
    GameResult,
    IllegalAction,
    Prompt,
    TimerSpec,
    places_from_scores,
    rng_from_json,
    rng_to_json,
)
from engine.games.red_dog.ai import red_dog_ai
from engine.games.red_dog.odds import (
    DECK,
    PASS,
    _cards,
    _chips,
    _names,
    _sorted,
    _texts,
    bet_sizes,
    odds,
    winning_card,
)
from engine.games.red_dog.views import RedDogSeatView, RedDogTurn, RedDogView
from engine.games.registry import register
from engine.i18n import Msg, msg, msg_n
from engine.views import json_record

__all__ = [
    "DEFAULT_ANTE",
    "RedDog",
]

DEFAULT_ANTE = 1
DEFAULT_TURN_SECONDS = 60.0
FULL_HAND, SHORT_HAND = 5, 4
SHORT_HAND_ABOVE = 8  # more players than this get four cards each


# --- the game ---------------------------------------------------------------------------------


def _check_options(
    options: Mapping[str, Any], seats: int
) -> tuple[list[int], int, int, float, int | None]:
    """The options, checked, with a message for the table host (shown as it is). The
    stacks, button and ante are checked as every chip game's (`check_stakes`)."""
    stakes = check_stakes("Red Dog", options, seats, {"button": 0, "ante": DEFAULT_ANTE},
                          ("turn_seconds", "max_rounds"), least_stack=0)
    stacks, button, ante = stakes["stacks"], stakes["button"], stakes["ante"]
    if ante < 1:
        raise ValueError("ante must be a whole number of chips, 1 or more")
    seconds = options.get("turn_seconds")
    if seconds is not None and not (isinstance(seconds, int | float) and seconds > 0):
        raise ValueError("turn_seconds must be a positive number of seconds")
    rounds = options.get("max_rounds")
    if rounds is not None and not (
        isinstance(rounds, int) and not isinstance(rounds, bool) and rounds >= 1
    ):
        raise ValueError("max_rounds must be a number of rounds, 1 or more")
    if sum(stack >= ante for stack in stacks) < 2:
        raise ValueError(f"Red Dog needs two players who can pay the ante of {_chips(ante)}")
    return list(stacks), button, ante, float(seconds or DEFAULT_TURN_SECONDS), rounds


def _from_left_of(dealer: int, seats: int) -> list[int]:
    return [(dealer + 1 + i) % seats for i in range(seats)]


@register
class RedDog(Game):
    """A game of Red Dog for 2 to 10 seats: one pot, from the ante until it is empty.
    See the module docstring for the rules and rulings."""

    kind = "red_dog"
    title = "Red Dog"
    min_seats = 2
    max_seats = 10
    chip_game: ClassVar[bool] = True
    public_actions: ClassVar[frozenset[str]] = frozenset({"bet"})  # its size is announced

    def __init__(
        self,
        seats: Sequence[str],
        options: Mapping[str, Any] | None = None,
        rng: random.Random | None = None,
    ) -> None:
        if not self.min_seats <= len(seats) <= self.max_seats:
            raise ValueError("Red Dog is played by 2 to 10 players")
        self.seats = tuple(seats)
        self.options = dict(options or {})
        stacks, self.button, self.ante, self.turn_seconds, self.max_rounds = _check_options(
            self.options, len(self.seats)
        )
        self.options["stacks"] = list(stacks)  # a tuple would not survive the JSON snapshot
        self.rng = rng if rng is not None else random.Random()
        self.brought = list(stacks)
        self.stacks = list(stacks)
        self.pot = 0
        n = len(self.seats)
        self.players = [s for s in range(n) if stacks[s] >= self.ante]
        self.dealer = self.button
        self.round_no = 0
        self.step = 0
        self.hands: list[list[Card]] = [[] for _ in range(n)]
        self.shown: list[list[Card]] = [[] for _ in range(n)]
        self.stock: list[Card] = []
        self.order: list[int] = []
        self.turn = 0
        self.turns: list[dict[str, Any]] = []
        self.last_deal: dict[str, Any] | None = None
        self._phase = "bet"
        self._result: GameResult | None = None
        self._opening = self._ante() + self._deal()

    # --- the shape every game has -------------------------------------------------------------
    @property
    def phase(self) -> str:
        return self._phase

    @property
    def to_act(self) -> frozenset[int]:
        if self._phase != "bet":
            return frozenset()
        return frozenset({self.order[self.turn]})

    @property
    def is_over(self) -> bool:
        return self._phase == "over"

    @property
    def result(self) -> GameResult | None:
        return self._result

    def timers(self) -> list[TimerSpec]:
        if self.is_over:
            return []
        return [TimerSpec(f"red_dog-{self.step}", self.turn_seconds, tuple(sorted(self.to_act)))]

    def max_bet(self, seat: int) -> int:
        """The most `seat` may bet now: the pot as it stands, and no more than its stack."""
        return min(self.pot, self.stacks[seat]) if seat in self.to_act else 0

    def seen_by(self, seat: int) -> list[Card]:
        """The cards `seat` knows are not the next one: the turned cards and shown hands of
        this round (its own hand is counted apart)."""
        seen: list[Card] = []
        for turn in self.turns:
            if turn["bet"] and turn["seat"] != seat:
                seen += _cards([turn["card"], *turn["hand"]])
            elif turn["bet"]:
                seen += _cards([turn["card"]])
        return seen

    def own_cards(self, seat: int) -> list[Card]:
        """`seat`'s hand this round, whether still hidden or already shown."""
        return _sorted(self.hands[seat] or self.shown[seat])

    # --- actions ------------------------------------------------------------------------------
    def legal_actions(self, seat: int) -> list[Action]:
        if seat not in self.to_act:
            return []
        return [PASS] + [Action("bet", (n,)) for n in range(1, self.max_bet(seat) + 1)]

    def _step(self, seat: int, action: Action) -> list[Event]:
        if action == TIMEOUT:
            events = [Event(msg("{name}'s time ran out.", name=self.seats[seat]), None,
                            "timeout", {"seat": seat})]
            events += self._pass(seat)
        elif action.name == "pass":
            if action.args:
                raise IllegalAction(msg("Passing takes no amount."))
            events = self._pass(seat)
        elif action.name == "bet":
            events = self._bet(seat, self._amount(seat, action.args))
        else:
            raise IllegalAction(msg("Bet 1 to {n} chips against the pot, or pass.",
                                    n=self.max_bet(seat)))
        self.step += 1
        return events

    def _amount(self, seat: int, args: Sequence[Any]) -> int:
        """The bet asked for, if the rules allow it: 1 up to the pot, within the stack."""
        raw = args[0] if len(args) == 1 else None
        if isinstance(raw, str) and raw.strip().isdigit():
            raw = int(raw.strip())
        if not isinstance(raw, int) or isinstance(raw, bool):
            raise IllegalAction(msg("A bet is a whole number of chips."))
        if raw < 1:
            raise IllegalAction(msg("The smallest bet is 1 chip."))
        if raw > self.pot:
            raise IllegalAction(msg_n("You may not bet more than the pot: it holds {n} chip.",
                                      "You may not bet more than the pot: it holds {n} chips.",
                                      self.pot))
        if raw > self.stacks[seat]:
            raise IllegalAction(msg_n("You have only {n} chip to bet.",
                                      "You have only {n} chips to bet.", self.stacks[seat]))
        return raw

    def _pass(self, seat: int) -> list[Event]:
        self.turns.append({"seat": seat, "bet": 0})
        events = [Event(msg("{name} passes.", name=self.seats[seat]), None, "pass",
                        {"seat": seat})]
        return events + self._next_turn()

    def _bet(self, seat: int, amount: int) -> list[Event]:
        name, hand = self.seats[seat], _sorted(self.hands[seat])
        card = self.stock.pop(0)
        by = winning_card(hand, card)
        pot_before = self.pot
        if by is not None:
            self.stacks[seat] += amount
            self.pot -= amount
        else:
            self.stacks[seat] -= amount
            self.pot += amount
        # The hand is shown now: it leaves the hidden hands for the record of the round.
        self.hands[seat], self.shown[seat] = [], hand
        turn = {
            "seat": seat,
            "bet": amount,
            "card": str(card),
            "hand": _texts(hand),
            "won": by is not None,
            "by": str(by) if by is not None else "",
            "pot": self.pot,
        }
        self.turns.append(turn)
        bets = msg_n("{name} bets {n} chip against the pot of {pot}.",
                     "{name} bets {n} chips against the pot of {pot}.", amount, name=name,
                     pot=pot_before)
        suit = card.label[-1]
        shown: Msg
        if by is not None:
            shown = msg("The next card is **{card}**; {name} shows {hand} and wins with {by}: "
                        "{name} takes {n} from the pot (the pot holds {pot}).",
                        card=card.label, name=name, hand=label_cards(hand), by=by.label,
                        n=amount, pot=self.pot)
        else:
            shown = msg_n("The next card is **{card}**; {name} shows {hand}: no higher {suit}, "
                          "so the {n} chip goes into the pot (the pot holds {pot}).",
                          "The next card is **{card}**; {name} shows {hand}: no higher {suit}, "
                          "so the {n} chips go into the pot (the pot holds {pot}).",
                          amount, card=card.label, name=name, hand=label_cards(hand),
                          suit=suit, pot=self.pot)
        text = Msg.joined(" ", [bets, shown])
        data = {**turn, "stacks": list(self.stacks)}
        return [Event(text, None, "reveal", data), *self._next_turn()]

    def _next_turn(self) -> list[Event]:
        if self.pot == 0:
            return self._finish(msg("The pot is empty."))
        self.turn += 1
        if self.turn < len(self.order):
            return []
        return self._end_round()

    # --- rounds -------------------------------------------------------------------------------
    def _ante(self) -> list[Event]:
        for seat in self.players:
            self.stacks[seat] -= self.ante
            self.pot += self.ante
        told: list[str] = [msg_n("{names} ante {n} chip each: the pot holds {pot}.",
                                 "{names} ante {n} chips each: the pot holds {pot}.", self.ante,
                                 names=_names(self.seats, self.players), pot=self.pot)]
        out = [s for s in range(len(self.seats)) if s not in self.players]
        if out:
            told.append(msg("{names} cannot pay the ante and sit this game out.",
                            names=_names(self.seats, out)))
        text = Msg.joined(" ", told)
        data = {"ante": self.ante, "players": list(self.players), "pot": self.pot}
        return [Event(text, None, "ante", {**data, "stacks": list(self.stacks)})]

    def _deal(self) -> list[Event]:
        seats = len(self.seats)
        order = [
            s for s in _from_left_of(self.dealer, seats) if s in self.players and self.stacks[s]
        ]
        if not order:  # everyone anted all they had: no round can be dealt at all
            return self._finish(msg("Nobody has chips left to bet."))
        self.round_no += 1
        self.order = order
        size = SHORT_HAND if len(self.order) > SHORT_HAND_ABOVE else FULL_HAND
        deck = list(DECK)
        self.rng.shuffle(deck)
        self.hands = [[] for _ in range(seats)]
        self.shown = [[] for _ in range(seats)]
        for _ in range(size):
            for seat in self.order:
                self.hands[seat].append(deck.pop(0))
        self.hands = [_sorted(hand) for hand in self.hands]
        self.stock, self.turn, self.turns = deck, 0, []
        first = self.seats[self.order[0]]
        text = msg_n("Round {round}: {dealer} deals {size} cards each; the pot holds {n} chip. "
                     "{first} bets first.",
                     "Round {round}: {dealer} deals {size} cards each; the pot holds {n} chips. "
                     "{first} bets first.", self.pot, round=self.round_no,
                     dealer=self.seats[self.dealer], size=size, first=first)
        data = {
            "round": self.round_no,
            "dealer": self.dealer,
            "order": list(self.order),
            "pot": self.pot,
            "stacks": list(self.stacks),
        }
        events = [Event(text, None, "deal", data)]
        for seat in self.order:
            hand = self.hands[seat]
            events.append(
                Event(msg("Your hand: {hand}.", hand=label_cards(hand)), seat, "hand",
                      {"hand": _texts(hand)})
            )
        return events

    def _end_round(self) -> list[Event]:
        self.last_deal = {
            "round": self.round_no,
            "dealer": self.dealer,
            "turns": [dict(turn) for turn in self.turns],
            "pot": self.pot,
        }
        if not any(turn["bet"] for turn in self.turns):
            return self._finish(msg("Nobody bet in round {n}.", n=self.round_no))
        if self.max_rounds is not None and self.round_no >= self.max_rounds:
            return self._finish(msg("The {n} rounds of this game have been played.",
                                    n=self.round_no))
        if not any(self.stacks[s] for s in self.players):
            # Found before the deal passes: the odd chips go from the left of the dealer of
            # this round, the last one played, not of a round nobody deals.
            return self._finish(msg("Nobody has chips left to bet."))
        # The deal passes to the left, among the players of the game.
        later = [s for s in self.players if s > self.dealer]
        self.dealer = later[0] if later else self.players[0]
        return self._deal()

    def _finish(self, why: str) -> list[Event]:
        """End the game: a pot left over is shared equally among the players of the game,
        odd chips one each from the left of the dealer of the last round played."""
        self._phase = "over"
        shares = [0] * len(self.seats)
        if self.pot:
            order = _from_left_of(self.dealer, len(self.seats))
            for seat, share in split_evenly(self.pot, self.players, order).items():
                shares[seat] = share
                self.stacks[seat] += share
            self.pot = 0
        chips = tuple(now - then for now, then in zip(self.stacks, self.brought, strict=True))
        scores = tuple(self.stacks)
        # Places go by the final stack; the winners are those who won the most chips (none
        # when nobody came out ahead), which differs when the seats brought unequal stacks.
        places = places_from_scores(scores)
        best = max(chips)
        winners = tuple(s for s, net in enumerate(chips) if net == best > 0)
        lines = ", ".join(
            f"{self.seats[s]} {self.stacks[s]} ({chips[s]:+d})" for s in range(len(self.seats))
        )
        final = msg("Final stacks: {stacks}.", stacks=lines)
        told: list[str] = [why]
        if any(shares):
            shared = ", ".join(f"{self.seats[s]} {shares[s]}" for s in self.players)
            told.append(msg_n("The {n} chip left in the pot are shared: {shares}.",
                              "The {n} chips left in the pot are shared: {shares}.",
                              sum(shares), shares=shared))
        summary = Msg.joined(" ", [why, final])
        self._result = GameResult(scores, places, winners, summary, chips)
        data = {"stacks": list(self.stacks), "chips": list(chips), "shares": shares}
        return [Event(Msg.joined(" ", [*told, final]), None, "game_over", data)]

    # --- what each seat is asked and sees -----------------------------------------------------
    def prompt(self, seat: int) -> Prompt | None:
        if seat not in self.to_act:
            return None
        most, hand = self.max_bet(seat), self.own_cards(seat)
        wins, unseen = odds(hand, self.seen_by(seat))
        # No bold of its own (the prompt is shown bold: bold inside it would undo that) and
        # no hand: the seat's view above the prompt shows it.
        text = Msg.joined("\n", [
            msg_n("The pot holds {n} chip; you have {stack}.",
                  "The pot holds {n} chips; you have {stack}.", self.pot,
                  stack=self.stacks[seat]),
            msg("Bet 1 to {most} that you hold a higher card of the next card's suit, or pass. "
                "Your hand wins against {wins} of the {unseen} cards you have not seen "
                "({percent}%).", most=most, wins=wins, unseen=unseen,
                percent=round(100 * wins / unseen)),
        ])
        choices: list[Choice] = [Choice(msg("Pass"), PASS, "secondary")]
        for size in bet_sizes(self.pot, most):
            if size == self.pot:
                label = msg("Bet {n} (the pot)", n=size)
            elif size == most:
                label = msg("Bet {n} (all in)", n=size)
            elif size > 1 and size == self.pot // 2:
                label = msg("Bet {n} (½ pot)", n=size)
            elif size > 1 and size == self.pot // 4:
                label = msg("Bet {n} (¼ pot)", n=size)
            else:
                label = msg("Bet {n}", n=size)
            big = size == most and size > 1
            choices.append(Choice(label, Action("bet", (size,)), "danger" if big else "primary"))
        return Prompt(text, tuple(choices))

    def _public_fields(self) -> dict[str, Any]:
        to_act = tuple(sorted(self.to_act))
        return {
            "kind": self.kind,
            "names": self.seats,
            "scores": tuple(self.stacks),
            "phase": self._phase,
            "to_act": to_act,
            "deal": self.round_no,
            "result": self._result,
            "pot": self.pot,
            "stacks": tuple(self.stacks),
            "brought": tuple(self.brought),
            "ante": self.ante,
            "button": self.button,
            "dealer": self.dealer,
            "players": tuple(self.players),
            "order": tuple(self.order),
            "hand_sizes": tuple(len(hand) for hand in self.hands),
            "turns": tuple(RedDogTurn.from_json(turn) for turn in self.turns),
            "max_bet": self.max_bet(to_act[0]) if to_act else 0,
            "stock": len(self.stock),
            "last_deal": json_record(self.last_deal),
        }

    def public_view(self) -> RedDogView:
        return RedDogView(**self._public_fields())

    def view(self, seat: int) -> RedDogSeatView:
        hand = self.own_cards(seat)
        wins, unseen = odds(hand, self.seen_by(seat)) if hand else (0, 0)
        return RedDogSeatView(
            **self._public_fields(),
            seat=seat,
            hand=tuple(_texts(hand)),
            beats=wins,
            unseen=unseen,
        )

    # --- snapshots ----------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "seats": list(self.seats),
            "options": dict(self.options),
            "rng": rng_to_json(self.rng),
            "button": self.button,
            "ante": self.ante,
            "turn_seconds": self.turn_seconds,
            "max_rounds": self.max_rounds,
            "brought": list(self.brought),
            "stacks": list(self.stacks),
            "pot": self.pot,
            "players": list(self.players),
            "dealer": self.dealer,
            "round_no": self.round_no,
            "step": self.step,
            "hands": [_texts(hand) for hand in self.hands],
            "shown": [_texts(hand) for hand in self.shown],
            "stock": _texts(self.stock),
            "order": list(self.order),
            "turn": self.turn,
            "turns": [dict(turn) for turn in self.turns],
            "last_deal": self.last_deal,
            "phase": self._phase,
            "result": self._result.to_json() if self._result else None,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> RedDog:
        game = cls.__new__(cls)
        game.seats = tuple(data["seats"])
        game.options = dict(data["options"])
        game.rng = rng_from_json(data["rng"])
        game.button = int(data["button"])
        game.ante = int(data["ante"])
        game.turn_seconds = float(data["turn_seconds"])
        game.max_rounds = data.get("max_rounds")
        game.brought = list(data["brought"])
        game.stacks = list(data["stacks"])
        game.pot = int(data["pot"])
        game.players = list(data["players"])
        game.dealer = int(data["dealer"])
        game.round_no = int(data["round_no"])
        game.step = int(data["step"])
        game.hands = [_cards(hand) for hand in data["hands"]]
        game.shown = [_cards(hand) for hand in data["shown"]]
        game.stock = _cards(data["stock"])
        game.order = list(data["order"])
        game.turn = int(data["turn"])
        game.turns = [dict(turn) for turn in data["turns"]]
        game.last_deal = data["last_deal"]
        game._phase = data["phase"]
        game._result = GameResult.from_json(data["result"]) if data["result"] else None
        game._opening = []
        return game

    def ai_action(self, seat: int, rng: random.Random) -> Action:
        return red_dog_ai(self.view(seat), rng)
