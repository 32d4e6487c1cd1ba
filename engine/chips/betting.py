"""The betting kit every chip game shares: forced bets, fixed-limit rounds, pots, payouts.

Modelled on pokerkit (`pokerkit/state.py`): the betting structure is data (`Structure`), and
each operation's legality is stated once, in a `verify_X` that raises `IllegalAction` with a
message fit for the player; `can_X` asks it, `X` calls it before changing anything, and the
game's prompt and legal-action list ask `options(seat)`, which asks the same verifiers. A
game therefore never repeats a betting rule.

Public API (stable; the chip games build on it):

- `Structure(small_bet, big_bet, rounds, ante, blinds, max_raises)`: the table stakes.
  `bet_size(round_no)` is the small bet in rounds 0 .. rounds//2-1, the big bet after.
- `Betting(stacks, structure, button)`: one deal's chips. Seats are 0..n-1; `button` is the
  dealer. In order: `post_antes()`, then per round `start_round()` (posts the blinds in
  round 0), the actor's `fold` / `check_or_call` / `bet_or_raise` until `actor` is None,
  `end_round()` (uncalled chips go back); finally `settle(shares)` pays every pot.
  Reading: `actor`, `options(seat)`, `stacks`, `bets`, `committed`, `folded`, `live`,
  `pots()`, `pot_total`, `lone_player`, `order_from_button()`, `blind_seats()`, `net()`,
  `round_no`, `round_bet` (the bet to match: before the flop at least the big blind),
  `short_all_ins` (this round's all-ins of less than a full bet), `awards`
  (how the pots were paid), `to_json()` / `Betting.from_json()`. Shortcuts for the
  payout: `settle_lone_player()` and `settle_high(values)`. The verifiers: `verify_fold`,
  `verify_check_or_call`, `verify_bet_or_raise` (and `can_fold`, `can_check_or_call`,
  `can_bet_or_raise`).
- Beside it, `engine.chips.pots`: `Pot`, `PotAward` and the payout helpers, pure functions
  over pots and hand values: `split_evenly` (odd chips one
  each from the dealer's left), `best_seats`, `high_shares` (best hand takes the pot),
  `Declaration`, `resolve_declarations` and `declared_shares` (sealed high / low / both
  declarations resolved per pot; "both" must win both ways outright; a seat that declared
  nothing wins no part of any pot), `shared_by` (who shares a pot nobody wins).
- And `engine.chips.bet_prompts`: the betting buttons (`bet_choices`, `bet_names`) and
  why a refused one is refused (`why_not`).

The rules (RULINGS.md, chip games), as implemented here:

- Antes are posted before the deal; a short stack posts what it has and is all-in. With
  blinds, the two seats left of the button post them (heads-up: the button posts the small
  blind and acts first before the first draw or flop); the big blind counts as the round's
  bet, so the cap before the flop is 4 bets. A big blind posted short (all in for less) is
  still the round's bet: the others call the full big blind or raise to the next level (the
  short blind's side pot forms as usual), and heads-up the small blind still decides to call
  or fold. The big blind's option, when nobody raised, is check or raise, never "bet".
- A bet and `max_raises` raises per round. Fold is offered only when facing a bet. A raise is
  always to the last full level plus one bet; a short stack may go all-in for less.
- A short all-in bet or raise reopens the betting (and counts toward the cap) only when it is
  at least half a bet over the last full level; then it is the new full level. Otherwise the
  players who already acted may only call it (or fold), and the others may call it or
  complete to the last full level plus one bet.
- A raise that no other player could call any part of is not offered, and a player whom
  nobody can bet against (everyone else still in is all-in) is not asked to act unless they
  face a bet.
- Uncalled chips go back to their owner when a round ends, before pots are formed. Pots are
  layered by what the players still in put in: the main pot, then side pots each all-in
  player is not eligible for. A lone player left after folds takes every pot.
- Split pots: equal shares; odd chips one each, in seat order from the dealer's left.

>>> table = Betting([100, 100, 30], Structure(ante=5), button=0)
>>> [p.amount for p in table.post_antes()]
[5, 5, 5]
>>> table.start_round(); table.actor
[]
1
>>> table.options(1)
BetOptions(seat=1, fold=False, call=0, raise_to=10, facing=0, pot=15, round_bet=0)
>>> table.bet_or_raise(1), table.check_or_call(2), table.actor
(10, 10, 0)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.chips.pots import (
    Comparable,
    Pot,
    PotAward,
    high_shares,
)
from engine.game import IllegalAction
from engine.i18n import msg

__all__ = [
    "BetOptions",
    "Betting",
    "Forced",
    "Structure",
]


@dataclass(frozen=True)
class Structure:
    """The stakes of a fixed-limit table, as data, so a variant is configuration."""

    small_bet: int = 10
    big_bet: int = 20
    rounds: int = 4
    ante: int = 0
    blinds: tuple[int, ...] = ()  # (small, big), posted by the seats left of the button
    max_raises: int = 3

    def __post_init__(self) -> None:
        if not 0 < self.small_bet <= self.big_bet:
            raise ValueError("the bets must be positive, the small bet no bigger than the big")
        if self.rounds < 1 or self.max_raises < 0 or self.ante < 0:
            raise ValueError("a game needs a betting round, and no negative ante or raises")
        if len(self.blinds) not in (0, 2) or any(b < 0 for b in self.blinds):
            raise ValueError("blinds are a small and a big blind, or none")

    def bet_size(self, round_no: int) -> int:
        """The small bet in the first half of the rounds, the big bet in the last half."""
        return self.small_bet if round_no < self.rounds // 2 else self.big_bet

    @property
    def cap(self) -> int:
        """Full bets allowed per round: the bet and its raises."""
        return 1 + self.max_raises

    def to_json(self) -> dict[str, Any]:
        return {
            "small_bet": self.small_bet,
            "big_bet": self.big_bet,
            "rounds": self.rounds,
            "ante": self.ante,
            "blinds": list(self.blinds),
            "max_raises": self.max_raises,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Structure:
        return cls(
            int(data["small_bet"]),
            int(data["big_bet"]),
            int(data["rounds"]),
            int(data["ante"]),
            tuple(int(b) for b in data["blinds"]),
            int(data["max_raises"]),
        )


@dataclass(frozen=True)
class Forced:
    """A forced bet posted: an ante or a blind (`what`), all-in when the stack was short."""

    seat: int
    amount: int
    what: str
    all_in: bool


@dataclass(frozen=True)
class BetOptions:
    """What the actor may do now: fold (only when facing a bet), check (`call` 0) or call
    `call` chips (all-in when the stack is short), and bet or raise to `raise_to` (the seat's
    whole bet this round; None when not allowed). `facing` is the amount to call before any
    stack limit, `pot` every chip put in so far (current bets included), `round_bet` the bet
    every seat must match this round (0 while nobody has bet; the big blind before the flop,
    even one posted short)."""

    seat: int
    fold: bool
    call: int
    raise_to: int | None
    facing: int
    pot: int
    round_bet: int

    @property
    def is_bet(self) -> bool:
        """Nobody has bet this round: a raise is a bet. The big blind's option is not one
        (its blind is the bet, so it checks or raises) although it faces nothing."""
        return self.round_bet == 0


class Betting:
    """One deal's chips: stacks behind, what each seat put in, the current round's bets.

    Invariant: `sum(stacks) + sum(committed)` never changes (bets are part of `committed`),
    until `settle` pays the pots back into the stacks.
    """

    def __init__(self, stacks: Sequence[int], structure: Structure, button: int = 0) -> None:
        if len(stacks) < 2:
            raise ValueError("betting needs at least two seats")
        if any(int(s) <= 0 for s in stacks):
            raise ValueError("every seat needs chips to be dealt in")
        self.structure = structure
        self.n = len(stacks)
        self.button = button % self.n
        self.start_stacks = [int(s) for s in stacks]
        self.stacks = list(self.start_stacks)
        self.committed = [0] * self.n
        self.bets = [0] * self.n
        self.folded = [False] * self.n
        self.acted = [False] * self.n
        self.round_no = 0
        self.in_round = False
        self.level = 0  # the last full level of the round: a raise goes to level + bet
        self.count = 0  # full bets made this round (the bet, then raises), for the cap
        self.short_all_ins = 0  # all-in bets or raises of less than a full bet this round
        self.actor: int | None = None
        self.settled = False
        self.awards: list[PotAward] = []

    # --- reading ---------------------------------------------------------------------------
    def order_from_button(self) -> list[int]:
        """Every seat, from the dealer's left round to the dealer."""
        return [(self.button + k) % self.n for k in range(1, self.n + 1)]

    @property
    def live(self) -> list[int]:
        """The seats still in (not folded), in seat order."""
        return [s for s in range(self.n) if not self.folded[s]]

    @property
    def lone_player(self) -> int | None:
        """The only seat still in, when everyone else folded."""
        live = self.live
        return live[0] if len(live) == 1 else None

    @property
    def pot_total(self) -> int:
        return sum(self.committed)

    @property
    def bet_size(self) -> int:
        return self.structure.bet_size(self.round_no)

    def net(self) -> list[int]:
        """Each seat's chips won (or lost, negative) so far; sums to zero once settled."""
        return [now - start for now, start in zip(self.stacks, self.start_stacks, strict=True)]

    def pots(self) -> list[Pot]:
        """The main pot and side pots of the chips collected (the current round's bets are
        not in them until the round ends). Layers are cut at what each player still in put
        in, so an all-in player is eligible only for the layers they covered; folded
        players' chips sit in the layers they reached."""
        collected = [c - b for c, b in zip(self.committed, self.bets, strict=True)]
        live = self.live
        levels = sorted({collected[s] for s in live if collected[s] > 0})
        pots: list[Pot] = []
        previous = 0
        for level in levels:
            amount = sum(min(c, level) - min(c, previous) for c in collected)
            eligible = tuple(s for s in live if collected[s] >= level)
            pots.append(Pot(amount, eligible))
            previous = level
        beyond = sum(max(0, c - previous) for c in collected)
        if beyond and pots:  # only folded chips above every live player's (never, once
            last = pots[-1]  # uncalled chips are returned), so nothing is ever lost
            pots[-1] = Pot(last.amount + beyond, last.eligible)
        elif beyond:
            pots.append(Pot(beyond, tuple(live)))
        return pots

    # --- forced bets -----------------------------------------------------------------------
    def _put(self, seat: int, amount: int) -> int:
        amount = min(amount, self.stacks[seat])
        self.stacks[seat] -= amount
        self.committed[seat] += amount
        return amount

    def post_antes(self) -> list[Forced]:
        """Every seat antes (a short stack posts what it has), from the dealer's left."""
        ante = self.structure.ante
        if not ante:
            return []
        posted = []
        for seat in self.order_from_button():
            amount = self._put(seat, ante)
            posted.append(Forced(seat, amount, "ante", self.stacks[seat] == 0))
        return posted

    def blind_seats(self) -> tuple[int, int]:
        """(small blind, big blind): left of the button, or the button first heads-up."""
        if self.n == 2:
            return self.button, (self.button + 1) % self.n
        return (self.button + 1) % self.n, (self.button + 2) % self.n

    # --- rounds ----------------------------------------------------------------------------
    def start_round(self) -> list[Forced]:
        """Open the betting round `round_no` (blinds posted in round 0) and find the first
        actor; `actor` is None at once when nobody has a decision to make."""
        if self.in_round:
            raise IllegalAction(msg("The betting round is already open."))
        if self.round_no >= self.structure.rounds:
            raise IllegalAction(msg("Every betting round has been played."))
        self.in_round = True
        self.bets = [0] * self.n
        self.acted = [False] * self.n
        self.level = self.count = self.short_all_ins = 0
        posted: list[Forced] = []
        start = (self.button + 1) % self.n
        if self.round_no == 0 and self.structure.blinds:
            small_seat, big_seat = self.blind_seats()
            for seat, blind, what in (
                (small_seat, self.structure.blinds[0], "small blind"),
                (big_seat, self.structure.blinds[1], "big blind"),
            ):
                amount = self._put(seat, blind)
                self.bets[seat] += amount
                posted.append(Forced(seat, amount, what, self.stacks[seat] == 0))
            big, nominal = self.bets[big_seat], self.structure.blinds[1]
            if big < nominal and big < self.bet_size:
                self.short_all_ins += 1  # an all-in big blind is a short all-in bet
            # The big blind is the round's bet when it is a full (or half) bet, posted in full
            # or not (RULINGS.md: a big blind posted short is still the round's bet).
            if nominal > 0 and 2 * nominal >= self.bet_size:
                self.level, self.count = nominal, 1
            start = (big_seat + 1) % self.n
        self.actor = self._next_actor(start)
        return posted

    @property
    def round_bet(self) -> int:
        """The bet every seat must match this round: the biggest bet made, and before the
        flop at least the big blind, even when its seat could post only part of it (the
        others still call the full blind; what the short blind cannot match becomes a side
        pot when the round ends)."""
        high = max(self.bets)
        if self.in_round and self.round_no == 0 and self.structure.blinds:
            high = max(high, self.structure.blinds[1])
        return high

    def _someone_can_bet_against(self, seat: int) -> bool:
        return any(
            not self.folded[o] and self.stacks[o] > 0 for o in range(self.n) if o != seat
        )

    def _needs_action(self, seat: int) -> bool:
        if self.folded[seat] or self.stacks[seat] == 0:
            return False
        if self.bets[seat] < self.round_bet:
            return True
        return not self.acted[seat] and self._someone_can_bet_against(seat)

    def _next_actor(self, start: int) -> int | None:
        if len(self.live) < 2:
            return None
        for k in range(self.n):
            seat = (start + k) % self.n
            if self._needs_action(seat):
                return seat
        return None

    def end_round(self) -> list[tuple[int, int]]:
        """Close the round: uncalled chips go back to their owner (returned as (seat,
        amount)); the next round is then `round_no`."""
        if not self.in_round:
            raise IllegalAction(msg("No betting round is open."))
        if self.actor is not None:
            raise IllegalAction(msg("Seat {n} has still to act.", n=self.actor))
        self.in_round = False
        returned = self.return_uncalled()
        self.bets = [0] * self.n
        self.round_no += 1
        return returned

    def return_uncalled(self) -> list[tuple[int, int]]:
        """Chips nobody else matched go back to their owner."""
        top = max(range(self.n), key=lambda s: self.committed[s])
        others = max(self.committed[s] for s in range(self.n) if s != top)
        excess = self.committed[top] - others
        if excess <= 0:
            return []
        self.committed[top] -= excess
        self.bets[top] = max(0, self.bets[top] - excess)
        self.stacks[top] += excess
        return [(top, excess)]

    # --- the verifiers: legality stated once -------------------------------------------------
    def _verify_turn(self, seat: int) -> None:
        if self.settled or not self.in_round or self.actor is None:
            raise IllegalAction(msg("Nobody is betting now."))
        if seat != self.actor:
            raise IllegalAction(msg("It is not your turn to bet."))

    def verify_fold(self, seat: int) -> None:
        self._verify_turn(seat)
        if self.bets[seat] >= self.round_bet:
            raise IllegalAction(msg("There is no bet to fold to: check instead."))

    def verify_check_or_call(self, seat: int) -> int:
        """The chips a check (0) or call puts in: all-in when the stack is short."""
        self._verify_turn(seat)
        return min(self.stacks[seat], self.round_bet - self.bets[seat])

    def verify_bet_or_raise(self, seat: int) -> int:
        """The seat's whole bet this round after betting or raising: the last full level
        plus one bet, or all it has when that is less."""
        self._verify_turn(seat)
        high = self.round_bet
        if self.stacks[seat] <= high - self.bets[seat]:
            raise IllegalAction(msg("Calling takes all your chips: you cannot raise."))
        if self.count >= self.structure.cap:
            raise IllegalAction(msg("The betting is capped: a bet and {n} raises a round.",
                                    n=self.structure.max_raises))
        if self.acted[seat]:
            raise IllegalAction(msg(
                "Nobody has raised a full bet since you acted: you may call or fold."))
        if not any(
            not self.folded[o] and self.stacks[o] + self.bets[o] > high
            for o in range(self.n)
            if o != seat
        ):
            raise IllegalAction(msg("Nobody still in could call a raise: check or call."))
        to = self.level + self.bet_size
        if to <= high:  # a small blind bigger than the big blind's bet: raise from it
            to = high + self.bet_size
        return min(to, self.bets[seat] + self.stacks[seat])

    def can_fold(self, seat: int) -> bool:
        return _allowed(self.verify_fold, seat)

    def can_check_or_call(self, seat: int) -> bool:
        return _allowed(self.verify_check_or_call, seat)

    def can_bet_or_raise(self, seat: int) -> bool:
        return _allowed(self.verify_bet_or_raise, seat)

    def options(self, seat: int) -> BetOptions | None:
        """What `seat` may do now (None when it is not their turn), from the verifiers."""
        try:
            call = self.verify_check_or_call(seat)
        except IllegalAction:
            return None
        try:
            raise_to: int | None = self.verify_bet_or_raise(seat)
        except IllegalAction:
            raise_to = None
        high = self.round_bet
        return BetOptions(seat, self.can_fold(seat), call, raise_to, high - self.bets[seat],
                          self.pot_total, high)

    # --- the actions -------------------------------------------------------------------------
    def fold(self, seat: int) -> None:
        self.verify_fold(seat)
        self.folded[seat] = True
        self.acted[seat] = True
        self.actor = self._next_actor((seat + 1) % self.n)

    def check_or_call(self, seat: int) -> int:
        amount = self.verify_check_or_call(seat)
        self._put(seat, amount)
        self.bets[seat] += amount
        self.acted[seat] = True
        self.actor = self._next_actor((seat + 1) % self.n)
        return amount

    def bet_or_raise(self, seat: int) -> int:
        """Bet or raise; returns the seat's whole bet this round."""
        to = self.verify_bet_or_raise(seat)
        self._put(seat, to - self.bets[seat])
        self.bets[seat] = to
        size = self.bet_size
        if to < self.level + size:
            self.short_all_ins += 1
        if 2 * (to - self.level) >= size:  # a full bet, or an all-in of half a bet or more
            self.level = to
            self.count += 1
            self.acted = [False] * self.n
        self.acted[seat] = True
        self.actor = self._next_actor((seat + 1) % self.n)
        return to

    # --- payouts -----------------------------------------------------------------------------
    def settle(self, shares: Sequence[Mapping[int, int]]) -> list[PotAward]:
        """Pay every pot: `shares[k]` says who gets how much of pot k (only seats eligible
        for it, summing to it). Afterwards every chip is back in a stack."""
        if self.in_round:
            raise IllegalAction(msg("Close the betting round before paying the pots."))
        if self.settled:
            raise IllegalAction(msg("The pots have been paid."))
        pots = self.pots()
        if len(shares) != len(pots):
            raise ValueError(f"{len(pots)} pots to pay, {len(shares)} payouts given")
        for pot, share in zip(pots, shares, strict=True):
            if sum(share.values()) != pot.amount or any(v < 0 for v in share.values()):
                raise ValueError(f"a pot of {pot.amount} cannot be paid as {dict(share)}")
            if not set(share) <= set(pot.eligible):
                raise ValueError(f"only seats {pot.eligible} may win this pot")
        self.awards = []
        for index, (pot, share) in enumerate(zip(pots, shares, strict=True)):
            for seat, amount in share.items():
                self.stacks[seat] += amount
            clean = {seat: amount for seat, amount in sorted(share.items()) if amount}
            self.awards.append(PotAward(index, pot.amount, pot.eligible, clean))
        self.committed = [0] * self.n
        self.bets = [0] * self.n
        self.settled = True
        return list(self.awards)

    def settle_lone_player(self) -> list[PotAward]:
        """Everyone else folded: the last player takes every pot, no showdown."""
        lone = self.lone_player
        if lone is None:
            raise IllegalAction(msg("More than one player is still in."))
        return self.settle([{lone: pot.amount} for pot in self.pots()])

    def settle_high(self, values: Mapping[int, Comparable]) -> list[PotAward]:
        """Showdown for the best hand: each pot to its best eligible hand(s), split evenly."""
        order = self.order_from_button()
        return self.settle([high_shares(pot, values, order) for pot in self.pots()])

    # --- snapshots -------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        return {
            "structure": self.structure.to_json(),
            "button": self.button,
            "start_stacks": list(self.start_stacks),
            "stacks": list(self.stacks),
            "committed": list(self.committed),
            "bets": list(self.bets),
            "folded": list(self.folded),
            "acted": list(self.acted),
            "round_no": self.round_no,
            "in_round": self.in_round,
            "level": self.level,
            "count": self.count,
            "short_all_ins": self.short_all_ins,
            "actor": self.actor,
            "settled": self.settled,
            "awards": [award.to_json() for award in self.awards],
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Betting:
        table = cls(data["start_stacks"], Structure.from_json(data["structure"]), data["button"])
        table.stacks = [int(x) for x in data["stacks"]]
        table.committed = [int(x) for x in data["committed"]]
        table.bets = [int(x) for x in data["bets"]]
        table.folded = [bool(x) for x in data["folded"]]
        table.acted = [bool(x) for x in data["acted"]]
        table.round_no = int(data["round_no"])
        table.in_round = bool(data["in_round"])
        table.level = int(data["level"])
        table.count = int(data["count"])
        table.short_all_ins = int(data["short_all_ins"])
        nominal = table.structure.blinds[1] if table.structure.blinds else 0
        if (table.in_round and table.round_no == 0 and table.level < nominal
                and 2 * nominal >= table.bet_size):
            # Saved before a big blind posted short was the round's bet (its level was what
            # the seat could post): the round goes on from the full blind, as today's would.
            table.level, table.count = nominal, max(table.count, 1)
        table.actor = None if data["actor"] is None else int(data["actor"])
        table.settled = bool(data["settled"])
        table.awards = [
            PotAward(
                int(a["index"]),
                int(a["amount"]),
                tuple(a["eligible"]),
                {int(seat): int(amount) for seat, amount in a["shares"].items()},
            )
            for a in data["awards"]
        ]
        return table


def _allowed(verify: Any, seat: int) -> bool:
    try:
        verify(seat)
    except IllegalAction:
        return False
    return True
