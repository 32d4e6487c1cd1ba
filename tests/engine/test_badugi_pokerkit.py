"""Badugi against pokerkit's `FixedLimitBadugi`: random hands played move by move through
both, from the same deck order, must end with the same stack for every player.

Each hand: 2 to 6 players with random stacks (many short, so that all-ins and side pots
happen), a random button, ante 5, bets 10/20, random legal actions (folds, calls, bets and
raises) and random draws of 0-4 cards. pokerkit is given our shuffled deck and deals from it
itself (hole cards one at a time from the dealer's left, one card burned before each draw's
replacements), so the two engines agree on every card only if they deal alike; the hands are
compared after every deal. Only when our stock runs out and the discards are reshuffled are
the cards named to pokerkit (its own reshuffle uses the global random generator).

Before every betting decision both engines must offer the same moves: folding or not, the
amount to check or call, the amount to bet or raise to (or none), and the stacks must agree.

Where this project's rulings differ from pokerkit's defaults, the test says so and compares
the rest:

- The odd chip. RULINGS.md: each pot is split as it was formed, and several odd chips go one
  each, in seat order from the dealer's left, among the tied players. pokerkit gives them all
  to the first of them, and forms its pots only after the showdown has mucked the losing
  hands, so a main pot and a side pot left with the same players are split as one (their
  odd chips may then cancel out). The expected pokerkit stacks are computed from our pots
  by pokerkit's rule, with the hands pokerkit kept at its showdown.
- A short all-in bet or raise (less than a full bet over the last full level). RULINGS.md:
  it reopens the betting and counts toward the cap when it is at least half a bet, and
  otherwise the next raise completes to the last full level plus one bet. pokerkit reopens
  only for a full bet (or short all-ins adding up to one), counts every all-in toward the
  cap, and raises from the all-in amount. So after a short all-in the engines may offer
  different raises; a hand where they do is counted as "ruled differently" and our engine
  plays it out alone (its chips are still checked for conservation). Everything else,
  including every hand where a short all-in changes nothing that follows, is compared.

The default run plays 1,500 hands from a fixed seed (about 5 s; DC_BADUGI_HANDS overrides):
some 1,400 compared to the end, 900 with side pots, splits, an odd chip moved and dozens of
reshuffles, every case the comparison exists for. `-m slow` plays 20,000 more from another
seed. pokerkit's automations deal with the antes, bet collection, the showdown and the
pushing and pulling of chips, which is its fast path.
"""

from __future__ import annotations

import os
import random
import warnings
from collections.abc import Sequence
from dataclasses import dataclass, field

import pytest
from pokerkit import Automation, FixedLimitBadugi, State
from pokerkit import Card as PKCard

from engine.cards import Card, parse_card, shuffled, standard_deck
from engine.chips.betting import BetOptions
from engine.game import Action, Event
from engine.games.badugi.rules import Badugi

HANDS = int(os.environ.get("DC_BADUGI_HANDS", "1500"))
ANTE, SMALL, BIG = 5, 10, 20
AUTOMATIONS = (
    Automation.ANTE_POSTING,
    Automation.BET_COLLECTION,
    Automation.BLIND_OR_STRADDLE_POSTING,
    Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
    Automation.HAND_KILLING,
    Automation.CHIPS_PUSHING,
    Automation.CHIPS_PULLING,
)
PK: dict[str, PKCard] = {str(c): next(iter(PKCard.parse(str(c)))) for c in standard_deck()}


@dataclass
class Tally:
    hands: int = 0
    compared: int = 0
    ruled_differently: int = 0
    constrained: int = 0
    odd_chips_moved: int = 0
    all_ins: int = 0
    side_pots: int = 0
    showdowns: int = 0
    splits: int = 0
    reshuffles: int = 0
    disagreements: list[str] = field(default_factory=list)


class Diverged(Exception):
    """The engines offer different moves after a short all-in, as their rulings differ."""


def random_stack(rng: random.Random) -> int:
    return rng.choice([rng.randint(1, 30), rng.randint(30, 120), rng.randint(120, 400)])


class Pair:
    """One hand in both engines; pokerkit's player i is our seat `order[i]` (pokerkit seats
    players from the dealer's left, the button last)."""

    def __init__(self, rng: random.Random, seed: int) -> None:
        n = rng.randint(2, 6)
        self.stacks = [random_stack(rng) for _ in range(n)]
        button = rng.randrange(n)
        options = {"stacks": self.stacks, "button": button}
        self.game = Badugi([f"P{s}" for s in range(n)], options, random.Random(seed))
        self.order = [(button + 1 + i) % n for i in range(n)]
        self.index = {seat: i for i, seat in enumerate(self.order)}
        self.state: State = FixedLimitBadugi.create_state(
            AUTOMATIONS, True, ANTE, 0, SMALL, BIG, [self.stacks[s] for s in self.order], n
        )
        deck = shuffled(standard_deck(), random.Random(seed))  # the game's own first shuffle
        self.state.deck_cards.clear()
        self.state.deck_cards.extend(PK[str(c)] for c in deck)
        self.pending: list[tuple[int, Card]] = []  # (seat, card) our engine dealt, in order
        for k in range(4):
            for seat in self.game.betting.order_from_button():
                self.pending.append((seat, self.game.hands[seat][k]))
        self.burns_done = 0
        self.constrained = False  # a raise was held back where the rulings differ

    def sync_dealing(self) -> None:
        """Let pokerkit deal what our engine dealt: burn, then hole cards in order."""
        state = self.state
        if state.can_burn_card():
            ours = self.game.burned[self.burns_done]
            self.burns_done += 1
            self._deal(ours, state.burn_card)
        while self.pending and state.hole_dealee_index is not None:
            seat, card = self.pending.pop(0)
            assert state.hole_dealee_index == self.index[seat], "dealt out of turn"
            self._deal(card, state.deal_hole)
        assert not self.pending or state.hole_dealee_index is None

    def _deal(self, ours: Card, operation: object) -> None:
        deal = operation  # burn_card or deal_hole: both take an optional card
        state = self.state
        if state.deck_cards and state.deck_cards[0] == PK[str(ours)]:
            deal()  # type: ignore[operator]  # pokerkit takes it from the shared deck order
        else:
            assert self.game.reshuffles, f"pokerkit's deck has {state.deck_cards[0]}, not {ours}"
            deal(PK[str(ours)])  # type: ignore[operator]

    def check_hands(self) -> None:
        for seat, i in self.index.items():
            if not self.game.betting.folded[seat]:
                ours = sorted(str(c) for c in self.game.hands[seat])
                theirs = sorted(repr(c) for c in self.state.hole_cards[i])
                assert ours == theirs, f"seat {seat}: {ours} != {theirs}"

    def pk_options(self) -> tuple[bool, int | None, int | None]:
        state = self.state
        return (
            state.can_fold(),
            state.checking_or_calling_amount,
            state.max_completion_betting_or_raising_to_amount,
        )


def ours(options: BetOptions) -> tuple[bool, int | None, int | None]:
    return options.fold, options.call, options.raise_to


def choose_bet(options: BetOptions, rng: random.Random) -> str:
    roll = rng.random()
    if options.fold and roll < 0.15:
        return "fold"
    if options.raise_to is not None and roll > 0.6:
        return "bet" if options.is_bet else "raise"
    return "check" if options.facing == 0 else "call"


def choose_draw(hand: Sequence[Card], rng: random.Random) -> list[Card]:
    size = rng.choice([0, 0, 1, 1, 2, 3, 4])
    return rng.sample(list(hand), size)


def drawn_cards(events: list[Event], seat: int) -> list[Card]:
    """The replacements our engine dealt `seat`, from its private event."""
    for event in events:
        if event.kind == "hand" and event.seat == seat and "drawn" in event.data:
            return [parse_card(text) for text in event.data["drawn"]]
    return []


def expected_pokerkit_stacks(game: Badugi, kept: set[int], tally: Tally) -> list[int]:
    """Our final stacks with pokerkit's way with odd chips: it forms the pots after the
    showdown's losing hands are mucked (`kept`: the seats whose hands it kept), so
    consecutive pots left with the same players merge into one, and each pot's odd chips go
    all to its first winner from the dealer's left. We split each pot as it was formed and
    give its odd chips one each from the dealer's left (RULINGS.md)."""
    order = game.betting.order_from_button()
    awards = game.betting.awards
    stacks = list(game.betting.stacks)
    for award in awards:
        for seat, amount in award.shares.items():
            stacks[seat] -= amount
    merged: list[tuple[frozenset[int], int, list[int]]] = []
    for award in awards:
        players = frozenset(award.eligible) & kept
        winners = sorted(award.shares, key=order.index)
        if len(winners) > 1:
            tally.splits += 1
        if merged and merged[-1][0] == players:
            assert merged[-1][2] == winners, "merged pots have the same winners"
            merged[-1] = (players, merged[-1][1] + award.amount, winners)
        else:
            merged.append((players, award.amount, winners))
    for _players, amount, winners in merged:
        share, odd = divmod(amount, len(winners))
        for seat in winners:
            stacks[seat] += share
        stacks[winners[0]] += odd
    if stacks != list(game.betting.stacks):
        tally.odd_chips_moved += 1
    return stacks


def play(pair: Pair, rng: random.Random, tally: Tally) -> None:
    game, state = pair.game, pair.state
    pair.sync_dealing()
    pair.check_hands()
    while not game.is_over:
        (seat,) = game.to_act
        i = pair.index[seat]
        if game.phase == "draw":
            assert state.stand_patter_or_discarder_index == i
            throw = choose_draw(game.hands[seat], rng)
            action = Action("draw", tuple(str(c) for c in throw)) if throw else Action("stand")
            events = game.apply(seat, action)
            pair.pending += [(seat, card) for card in drawn_cards(events, seat)]
            state.stand_pat_or_discard([PK[str(c)] for c in throw])
        else:
            options = game.betting.options(seat)
            assert options is not None
            theirs = pair.pk_options()
            raise_differs = ours(options)[:2] == theirs[:2] and ours(options)[2] != theirs[2]
            if state.actor_index != i or (ours(options) != theirs and not raise_differs):
                raise AssertionError(
                    f"seat {seat} (pokerkit {i}, actor {state.actor_index}): ours "
                    f"{ours(options)}, pokerkit {theirs}"
                )
            assert state.stacks == [game.betting.stacks[s] for s in pair.order]
            name = choose_bet(options, rng)
            if raise_differs:
                # only after a short all-in this round may the raises differ (the rulings
                # differ there); the player then folds or calls, which both rule alike
                assert game.betting.short_all_ins, "the raises differ without a short all-in"
                if name in ("bet", "raise"):
                    if rng.random() < 0.5:
                        raise Diverged
                    name = "call" if options.facing else "check"
                pair.constrained = True
            game.apply(seat, Action(name))
            if name == "fold":
                state.fold()
            elif name in ("check", "call"):
                state.check_or_call()
            else:
                state.complete_bet_or_raise_to()
        pair.sync_dealing()
        if state.actor_index is not None:
            pair.check_hands()  # pokerkit deals the replacements once everyone has thrown
    assert not state.status, "pokerkit's hand is still going"
    kept = {seat for seat, i in pair.index.items() if state.statuses[i]}
    expected = expected_pokerkit_stacks(game, kept, tally)
    assert list(state.stacks) == [expected[s] for s in pair.order]


def finish_alone(game: Badugi, rng: random.Random) -> None:
    while not game.is_over:
        (seat,) = game.to_act
        game.apply(seat, rng.choice(game.legal_actions(seat)))


def run(hands: int, seed: int) -> Tally:
    tally = Tally()
    rng = random.Random(seed)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for number in range(hands):
            pair = Pair(rng, seed * 1_000_003 + number)
            tally.hands += 1
            try:
                play(pair, rng, tally)
                tally.compared += 1
                tally.constrained += pair.constrained
            except Diverged:
                tally.ruled_differently += 1
                finish_alone(pair.game, rng)
            except AssertionError as error:
                tally.disagreements.append(f"hand {number}: {error}")
                finish_alone(pair.game, rng)
            game = pair.game
            result = game.result
            assert result is not None and sum(result.chips) == 0
            assert sum(result.scores) == sum(pair.stacks)
            tally.reshuffles += bool(game.reshuffles)
            pots = game.betting.awards
            tally.side_pots += len(pots) > 1
            tally.all_ins += any(s == 0 for s in game.betting.stacks) or len(pots) > 1
            tally.showdowns += bool(game.showdown and game.showdown["lone"] is None)
    return tally


def test_badugi_hands_end_with_the_same_stacks_as_pokerkit() -> None:
    check_against_pokerkit(HANDS, seed=11)


@pytest.mark.slow
def test_more_badugi_hands_end_with_the_same_stacks_as_pokerkit() -> None:
    check_against_pokerkit(20_000, seed=12)


def check_against_pokerkit(hands: int, seed: int) -> None:
    tally = run(hands, seed=seed)
    print(
        f"\n{tally.hands} hands: {tally.compared} compared to the end, "
        f"({tally.constrained} of them holding back a raise the rulings differ on), "
        f"{tally.ruled_differently} played on alone after such a raise, "
        f"{len(tally.disagreements)} disagreements; {tally.showdowns} showdowns, "
        f"{tally.side_pots} with side pots, {tally.splits} split pots, "
        f"{tally.odd_chips_moved} with odd chips moved, {tally.reshuffles} reshuffles"
    )
    assert not tally.disagreements, "\n".join(tally.disagreements[:10])
    assert tally.hands >= hands
    # the comparison is not vacuous: most hands are compared, and the cases that matter occur
    assert tally.compared >= 0.8 * tally.hands
    assert tally.side_pots > hands // 50 and tally.splits > 0 and tally.showdowns > hands // 4
    assert tally.odd_chips_moved > 0 and tally.reshuffles > 0


def test_a_three_way_split_shows_the_odd_chip_ruling_that_differs() -> None:
    """Three equal badugis share a pot of 20 (the antes): 6 each and 2 odd chips. We give
    them one each from the dealer's left (7, 7, 6); pokerkit gives both to the first (8, 6,
    6). Everything else about the hand agrees."""
    hands = ["Ac 2d 3h 4s", "Ad 2c 3s 4h", "Ah 2s 3c 4d", "Kc Kd Kh Ks"]
    game = Badugi(["Ann", "Bob", "Cid", "Dee"], {"stacks": [100] * 4, "button": 3},
                  random.Random(1))
    game.hands = [[parse_card(text) for text in hand.split()] for hand in hands]
    dealt = [game.hands[seat][k] for k in range(4) for seat in range(4)]
    game.stock = [c for c in standard_deck() if c not in dealt]
    state = FixedLimitBadugi.create_state(AUTOMATIONS, True, ANTE, 0, SMALL, BIG, [100] * 4, 4)
    state.deck_cards.clear()
    state.deck_cards.extend(PK[str(c)] for c in [*dealt, *game.stock])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        while state.status:
            if state.can_burn_card():
                state.burn_card()
            elif state.hole_dealee_index is not None:
                state.deal_hole()
            elif state.stand_patter_or_discarder_index is not None:
                state.stand_pat_or_discard()
            else:
                state.check_or_call()
    while not game.is_over:
        (seat,) = game.to_act
        game.apply(seat, Action("stand" if game.phase == "draw" else "check"))
    assert len(game.burned) == 3  # a burn before each draw, from the same deck
    assert list(state.stacks) == [103, 101, 101, 95]  # pokerkit: both odd chips to Ann
    assert game.betting.stacks == [102, 102, 101, 95]  # ours: one each, Ann then Bob
    tally = Tally()
    assert expected_pokerkit_stacks(game, {0, 1, 2}, tally) == list(state.stacks)
