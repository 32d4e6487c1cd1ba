"""Poke (Sid Sackson, 1946): draw poker for honours, then the hand played out as tricks.

Two players. Each deal: the non-dealer draws (each draw of 1-3 cards doubles, then
redoubles, the value of the dealer's tricks), then the dealer (first draw free, second
doubles, third redoubles); then five tricks where a pair, three or four of a kind may be
led as that many tricks at once. Tricks score below the line, the strictly better poker
hand scores honours above it. 20 below the line wins a game; two games win the rubber,
and the rubber goes to the player with more points above the line.

Draw order (the seed says the non-dealer "finalizes" their hand before the dealer draws):
the non-dealer makes all of their draws first, then the dealer makes all of theirs; there
is no alternation.

>>> game = Poke(["Ann", "Bob"], {"first_dealer": 1}, random.Random(7))
>>> game.phase, sorted(game.to_act)
('draw', [0])
>>> "doubles you" in game.prompt(0).text
True
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from itertools import combinations
from typing import Any, ClassVar

from engine.cards import Card, cards_from_json, cards_to_json, label_cards
from engine.evaluator import Category, evaluate
from engine.game import (
    Action,
    CardPick,
    Choice,
    Event,
    Game,
    GameResult,
    IllegalAction,
    Prompt,
    TimerSpec,
    parse_action_cards,
    rng_from_json,
    rng_to_json,
)
from engine.games.poke.scoring import (
    ALL_TRICKS_BONUS,
    GAME_BONUS,
    GAME_POINTS,
    RUBBER_BONUS_CLEAN,
    RUBBER_BONUS_CLOSE,
    Scoresheet,
    honours_for,
)
from engine.games.poke.views import PokeSeatView, PokeView, ScoreColumn
from engine.games.registry import register
from engine.i18n import Msg, msg, msg_n
from engine.tricks.deal import (
    HAND_SIZE,
    check_options,
    choose_discards,
    deal,
    played_tricks,
    trick_from_json,
    trick_plays,
    trick_to_json,
)
from engine.tricks.play import (
    POKE,
    Play,
    describe_play,
    is_set,
    legal_plays,
    set_words,
    trick_winner,
    why_illegal,
)
from engine.views import json_record

__all__ = [
    "Poke",
    "poke_ai",
]

DRAW_MIN, DRAW_MAX = 1, 3
OPTIONS = ("first_dealer", "turn_seconds", "stacked_deals")


@register
class Poke(Game):
    """Poke for two players; options: `first_dealer` (seat, default drawn by the rng),
    `turn_seconds` (default 120), `stacked_deals` (test hook, see engine.tricks.deal)."""

    kind = "poke"
    title = "Poke"
    min_seats = 2
    max_seats = 2
    public_actions: ClassVar[frozenset[str]] = frozenset({"play"})  # to a trick, face up

    @classmethod
    def goal(cls, options: Mapping[str, Any], players: int) -> str:
        return "a rubber: the first to win two games of 20 points below the line"
    trick_rules = POKE

    def __init__(
        self,
        seats: Sequence[str],
        options: Mapping[str, Any] | None = None,
        rng: random.Random | None = None,
    ) -> None:
        if len(seats) != 2:
            raise ValueError("Poke is played by exactly two players")
        self.seats = tuple(seats)
        self.options = dict(options or {})
        check_options(self.title, self.options, OPTIONS, 2)
        self.rng = rng if rng is not None else random.Random()
        self.turn_seconds = float(self.options.get("turn_seconds") or 120)
        first = self.options.get("first_dealer")
        self.dealer = int(first) % 2 if first is not None else self.rng.randrange(2)
        self.deal_no = 0
        self.step = 0
        self.stacked_used = 0
        self.sheet = Scoresheet()
        self._phase = "draw"
        self._result: GameResult | None = None
        self.hands: list[list[Card]] = [[], []]
        self.final_hands: list[list[Card]] = [[], []]
        self.thrown: list[list[Card]] = [[], []]
        self.stock: list[Card] = []
        self.draws = [0, 0]
        self.drawer = 0
        self.leader = 0
        self.trick: list[tuple[int, Play]] = []
        self.tricks: list[dict[str, Any]] = []
        self.tricks_won = [0, 0]
        self.last_deal: dict[str, Any] | None = None
        self._opening = self._start_deal()

    # --- the shape every game has ---------------------------------------------------------
    @property
    def phase(self) -> str:
        return self._phase

    @property
    def non_dealer(self) -> int:
        return 1 - self.dealer

    @property
    def to_act(self) -> frozenset[int]:
        if self._phase == "draw":
            return frozenset({self.drawer})
        if self._phase == "play":
            return frozenset({self.leader if not self.trick else 1 - self.leader})
        return frozenset()

    @property
    def is_over(self) -> bool:
        return self._phase == "over"

    @property
    def result(self) -> GameResult | None:
        return self._result

    def timers(self) -> list[TimerSpec]:
        if self.is_over:
            return []
        return [TimerSpec(f"poke-{self.step}", self.turn_seconds, tuple(sorted(self.to_act)))]

    # --- doubling ---------------------------------------------------------------------------
    def max_draws(self, seat: int) -> int:
        return 3 if seat == self.dealer else 2

    def penalties(self, seat: int) -> int:
        """How often `seat` has doubled itself: every non-dealer draw, dealer draws after the
        first (the dealer's first draw is free)."""
        return self.draws[seat] if seat != self.dealer else max(0, self.draws[seat] - 1)

    def multiplier(self, seat: int) -> int:
        """Points per trick for `seat`: doubled and redoubled by the opponent's draws."""
        return 1 << self.penalties(1 - seat)

    def penalties_after_draw(self, seat: int) -> int:
        """What `penalties(seat)` would be after one more draw."""
        free = seat == self.dealer and self.draws[seat] == 0
        return self.penalties(seat) + (0 if free else 1)

    def draw_consequence(self, seat: int) -> str:
        """What one more draw would cost `seat`, told before the draw is confirmed."""
        other = self.seats[1 - seat]
        after = self.penalties_after_draw(seat)
        if after == self.penalties(seat):
            return msg("Your first draw is free: it doubles nobody.")
        if after == 1:
            return msg("Drawing doubles you: {name}'s tricks will count {n} points each.",
                       name=other, n=2**after)
        return msg("Drawing redoubles you: {name}'s tricks will count {n} points each.",
                   name=other, n=2**after)

    # --- actions ----------------------------------------------------------------------------
    def legal_actions(self, seat: int) -> list[Action]:
        if seat not in self.to_act:
            return []
        hand = sorted(self.hands[seat], key=Card.sort_key)
        if self._phase == "draw":
            actions = [Action("stand")]
            for size in range(DRAW_MIN, min(DRAW_MAX, len(self.stock)) + 1):
                actions += [
                    Action("draw", tuple(cards_to_json(c))) for c in combinations(hand, size)
                ]
            return actions
        return [
            Action("play", tuple(cards_to_json(p))) for p in legal_plays(hand, self.trick, POKE)
        ]

    def _step(self, seat: int, action: Action) -> list[Event]:
        if self._phase == "draw":
            if action.name == "stand":
                events = self._stand(seat)
            elif action.name == "draw":
                events = self._draw(seat, action.args)
            else:
                raise IllegalAction(msg("Draw 1-3 cards or stand pat."))
        elif action.name == "play":
            events = self._play(seat, action.args)
        else:
            raise IllegalAction(msg("Play a card (or lead a set)."))
        self.step += 1
        return events

    def _timeout_action(self, seat: int) -> Action:
        """A clock that runs out stands pat, or plays the lowest cards allowed."""
        if self._phase == "draw":
            return Action("stand")
        hand = sorted(self.hands[seat], key=Card.sort_key)
        size = len(self.trick[0][1]) if self.trick else 1
        return Action("play", tuple(cards_to_json(hand[:size])))

    def _draw(self, seat: int, args: Sequence[Any]) -> list[Event]:
        if self.draws[seat] >= self.max_draws(seat):
            raise IllegalAction(msg("You have no draws left."))
        thrown = parse_action_cards(args, self.hands[seat])
        if not DRAW_MIN <= len(thrown) <= DRAW_MAX:
            raise IllegalAction(msg("A draw is 1 to 3 cards (or stand pat)."))
        if len(thrown) > len(self.stock):
            raise IllegalAction(msg("Only {n} cards are left to draw.", n=len(self.stock)))
        consequence = self.draw_consequence(seat)
        new, self.stock = self.stock[: len(thrown)], self.stock[len(thrown) :]
        self.hands[seat] = [c for c in self.hands[seat] if c not in thrown] + new
        self.thrown[seat] += thrown
        self.draws[seat] += 1
        name, n = self.seats[seat], len(thrown)
        status = {0: msg("free draw"), 1: msg("doubled"),
                  2: msg("redoubled")}[self.penalties(seat)]
        text: str = msg_n("{name} draws {n} card ({status}).", "{name} draws {n} cards ({status}).",
                          n, name=name, status=status)
        if self.penalties(seat):
            text = Msg.joined(" ", [text, msg("{name}'s tricks count {n} each.",
                                              name=self.seats[1 - seat],
                                              n=self.multiplier(1 - seat))])
        events = [
            Event(
                text,
                None,
                "draw",
                {
                    "seat": seat,
                    "count": n,
                    "draws": list(self.draws),
                    "trick_values": [self.multiplier(0), self.multiplier(1)],
                },
            ),
            Event(
                msg("You threw {thrown} and drew {drawn}. {consequence}",
                    thrown=label_cards(thrown), drawn=label_cards(new), consequence=consequence),
                seat,
                "hand",
                {
                    "thrown": cards_to_json(thrown),
                    "drawn": cards_to_json(new),
                    "hand": cards_to_json(self.hands[seat]),
                },
            ),
        ]
        if self.draws[seat] >= self.max_draws(seat):
            events += self._next_drawer(seat)
        return events

    def _stand(self, seat: int) -> list[Event]:
        told = msg("{name} stands pat.", name=self.seats[seat]) if self.draws[seat] == 0 \
            else msg("{name} keeps that hand.", name=self.seats[seat])
        events = [Event(told, None, "stand", {"seat": seat})]
        return events + self._next_drawer(seat)

    def _next_drawer(self, seat: int) -> list[Event]:
        if seat == self.non_dealer:
            self.drawer = self.dealer
            return []
        self._phase = "play"
        self.leader = self.non_dealer
        self.final_hands = [list(hand) for hand in self.hands]
        values = [self.multiplier(0), self.multiplier(1)]
        text = msg("Trick play: {name} leads. Tricks count {first} {a}, {second} {b} each.",
                   name=self.seats[self.leader], first=self.seats[0], a=values[0],
                   second=self.seats[1], b=values[1])
        return [Event(text, None, "play_begins", {"leader": self.leader, "trick_values": values})]

    def _play(self, seat: int, args: Sequence[Any]) -> list[Event]:
        cards = tuple(parse_action_cards(args, self.hands[seat]))
        reason = why_illegal(self.hands[seat], self.trick, POKE, cards)
        if reason is not None:
            raise IllegalAction(reason)
        self.hands[seat] = [c for c in self.hands[seat] if c not in cards]
        self.trick.append((seat, cards))
        told = msg("{name} leads {play}.", name=self.seats[seat], play=describe_play(cards)) \
            if len(self.trick) == 1 else \
            msg("{name} plays {play}.", name=self.seats[seat], play=describe_play(cards))
        events = [
            Event(
                told,
                None,
                "play",
                {"seat": seat, "cards": cards_to_json(cards)},
            )
        ]
        if len(self.trick) < 2:
            return events
        return events + self._finish_trick()

    def _finish_trick(self) -> list[Event]:
        winner = trick_winner(self.trick, POKE)
        count = len(self.trick[0][1])
        first = sum(trick["count"] for trick in self.tricks) + 1
        self.tricks_won[winner] += count
        record = {"plays": trick_to_json(self.trick), "winner": winner, "count": count}
        self.tricks.append(record)
        (lead_seat, led), (_, answer) = self.trick
        plays = dict(leader=self.seats[lead_seat], led=describe_play(led),
                     other=self.seats[1 - lead_seat], answer=describe_play(answer),
                     name=self.seats[winner])
        text = msg("Trick {n}: {leader} {led}, {other} {answer} — {name} takes it.", n=first,
                   **plays) if count == 1 else \
            msg("Tricks {n}-{last}: {leader} {led}, {other} {answer} — {name} takes all "
                "{count}.", n=first, last=first + count - 1, count=count, **plays)
        events = [Event(text, None, "trick", {**record, "tricks_won": list(self.tricks_won)})]
        self.trick = []
        self.leader = winner
        if not self.hands[0]:
            events += self._end_deal()
        return events

    # --- scoring ----------------------------------------------------------------------------
    def _end_deal(self) -> list[Event]:
        names = self.seats
        lines: list[str] = [msg("Deal {n} is over.", n=self.deal_no)]
        for seat in (0, 1):
            won, per = self.tricks_won[seat], self.multiplier(seat)
            if won:
                why = msg_n("{n} trick", "{n} tricks", won)
                if per > 1:
                    why = msg("{tricks} x{per} ({name} doubled)", tricks=why, per=per,
                              name=names[1 - seat]) if per == 2 else \
                        msg("{tricks} x{per} ({name} redoubled)", tricks=why, per=per,
                            name=names[1 - seat])
                self.sheet.add_below(seat, won * per, why)
                lines.append(msg("{name}: {why} = {n} below the line.", name=names[seat],
                                 why=why, n=won * per))
        values = [evaluate(hand) for hand in self.final_hands]
        honours: dict[str, Any] | None = None
        if values[0].strength == values[1].strength:
            lines.append(msg("Both hold {hand}: identical hands, no honours.",
                             hand=values[0].description))
        else:
            best = 0 if values[0].strength > values[1].strength else 1
            points = honours_for(values[best])
            desc = msg("{name}'s {hand} beats {other}'s {other_hand}", name=names[best],
                       hand=values[best].description, other=names[1 - best],
                       other_hand=values[1 - best].description)
            if points:
                self.sheet.add_above(best, points, msg("honours: {hand}",
                                                       hand=values[best].description))
                lines.append(msg("Honours: {beats}: {n} above the line.", beats=desc,
                                 n=points))
                honours = {"seat": best, "points": points}
            else:
                lines.append(msg("{beats}, but honours start at a pair: none scored.",
                                 beats=desc))
        for seat in (0, 1):
            if self.tricks_won[seat] == HAND_SIZE:
                self.sheet.add_above(seat, ALL_TRICKS_BONUS, msg("all five tricks"))
                lines.append(msg("{name} took all five tricks: {n} above.", name=names[seat],
                                 n=ALL_TRICKS_BONUS))
        self.last_deal = {
            "deal": self.deal_no,
            "hands": [cards_to_json(h) for h in self.final_hands],
            "descriptions": [v.description for v in values],
            "tricks_won": list(self.tricks_won),
            "trick_values": [self.multiplier(0), self.multiplier(1)],
            "draws": list(self.draws),
            "honours": honours,
        }
        events = [Event(Msg.joined(" ", lines), None, "deal_end",
                        {**self.last_deal, **self._scores()})]
        events += self._check_game()
        if not self.is_over:
            self.dealer = 1 - self.dealer
            events += self._start_deal()
        return events

    def _scores(self) -> dict[str, Any]:
        return {
            "above": self.sheet.above_totals(),
            "below": self.sheet.below_totals(),
            "games_won": self.sheet.games_won(),
            "scoresheet": self.sheet.to_json(),
        }

    def _check_game(self) -> list[Event]:
        below = self.sheet.below_totals()
        if max(below) < GAME_POINTS:
            return []
        if below[0] == below[1]:
            text = msg("Tied at {n} below the line: the game plays on until the tie breaks.",
                       n=below[0])
            return [Event(text, None, "game_tied", self._scores())]
        winner = 0 if below[0] > below[1] else 1
        self.sheet.add_above(winner, GAME_BONUS, msg("game"))
        self.sheet.games[-1]["winner"] = winner
        won = self.sheet.games_won()
        number = len(self.sheet.games)
        text = msg("{name} wins game {n} ({score} to {other}): {bonus} above the line.",
                   name=self.seats[winner], n=number, score=below[winner],
                   other=below[1 - winner], bonus=GAME_BONUS)
        events = [Event(text, None, "game_won", {"seat": winner, **self._scores()})]
        if won[winner] < 2:
            self.sheet.games.append({"below": [[], []], "winner": None})
            return events
        bonus = RUBBER_BONUS_CLOSE if won[1 - winner] else RUBBER_BONUS_CLEAN
        self.sheet.add_above(winner, bonus, msg("rubber"))
        events.append(self._finish(winner, bonus))
        return events

    def _finish(self, rubber_winner: int, bonus: int) -> Event:
        self._phase = "over"
        above = self.sheet.above_totals()
        names = self.seats
        if above[0] == above[1]:
            winners: tuple[int, ...] = ()
            summary = msg("Drawn rubber: {n} points each above the line.", n=above[0])
        else:
            best = 0 if above[0] > above[1] else 1
            winners = (best,)
            summary = msg("{name} wins the rubber, {score} to {other}.", name=names[best],
                          score=above[best], other=above[1 - best])
        text = msg("{name} completes the rubber: {bonus} rubber bonus. Above the line: {first} "
                   "{a}, {second} {b}. {summary}", name=names[rubber_winner], bonus=bonus,
                   first=names[0], a=above[0], second=names[1], b=above[1], summary=summary)
        places = (1, 1) if not winners else tuple(1 if s in winners else 2 for s in (0, 1))
        self._result = GameResult(tuple(above), places, winners, summary)
        return Event(text, None, "game_over", {"winners": list(winners), **self._scores()})

    # --- dealing ------------------------------------------------------------------------------
    def _start_deal(self) -> list[Event]:
        self.deal_no += 1
        stacked_list = self.options.get("stacked_deals") or []
        stacked = None
        if self.stacked_used < len(stacked_list):
            stacked = stacked_list[self.stacked_used]
            self.stacked_used += 1
        hands, self.stock = deal(self.rng, [self.non_dealer, self.dealer], stacked)
        self.hands = [sorted(hands[s], key=Card.sort_key) for s in (0, 1)]
        self.thrown = [[], []]
        self.final_hands = [[], []]
        self.draws = [0, 0]
        self.drawer = self.non_dealer
        self.trick, self.tricks, self.tricks_won = [], [], [0, 0]
        self._phase = "draw"
        text = msg("Deal {n}: {dealer} deals; {first} draws first.", n=self.deal_no,
                   dealer=self.seats[self.dealer], first=self.seats[self.non_dealer])
        events = [Event(text, None, "deal", {"deal": self.deal_no, "dealer": self.dealer})]
        for seat in (0, 1):
            events.append(
                Event(
                    msg("Your hand: {cards}.", cards=label_cards(self.hands[seat])),
                    seat,
                    "hand",
                    {"hand": cards_to_json(self.hands[seat])},
                )
            )
        return events

    # --- what each seat is asked and sees -----------------------------------------------------
    def prompt(self, seat: int) -> Prompt | None:
        if seat not in self.to_act:
            return None
        hand = sorted(self.hands[seat], key=Card.sort_key)
        if self._phase == "draw":
            return self._draw_prompt(seat, hand)
        return self._play_prompt(seat, hand)

    def _draw_prompt(self, seat: int, hand: list[Card]) -> Prompt:
        left = self.max_draws(seat) - self.draws[seat]
        consequence = self.draw_consequence(seat)
        status = {0: msg("not doubled"), 1: msg("doubled"),
                  2: msg("redoubled")}[self.penalties(seat)]
        text = msg_n("You may draw 1-3 cards ({n} draw left; you are {status}). {consequence}",
                     "You may draw 1-3 cards ({n} draws left; you are {status}). {consequence}",
                     left, status=status, consequence=consequence)
        after = self.penalties_after_draw(seat)
        pick_label = {0: msg("Draw (free)"), 1: msg("Draw (doubles you)")}.get(after) \
            or msg("Draw (redoubles you)")
        pick = CardPick(
            pick_label,
            "draw",
            tuple(cards_to_json(hand)),
            DRAW_MIN,
            min(DRAW_MAX, len(self.stock)),
            tuple(c.label for c in hand),
        )
        stand = msg("Stand pat") if self.draws[seat] == 0 else msg("Keep this hand")
        return Prompt(text, (pick, Choice(stand, Action("stand"), "primary")))

    def _play_prompt(self, seat: int, hand: list[Card]) -> Prompt:
        choices: list[Choice | CardPick] = []
        if not self.trick or len(self.trick[0][1]) == 1:
            # Against a led set a single card is never playable: only sets of its size are
            # offered then (below), never buttons that would each be refused.
            for card in hand:
                reason = why_illegal(hand, self.trick, POKE, (card,))
                choices.append(
                    Choice(card.label, Action("play", (str(card),)), "secondary", reason)
                )
        by_rank = Counter(card.rank for card in hand)
        if not self.trick:
            has_set = max(by_rank.values()) > 1
            lead: str = msg("Lead a card, or a pair or bigger set.") if has_set \
                else msg("Lead a card.")
            for rank, count in sorted(by_rank.items(), key=lambda kv: kv[0] or 0):
                same = [c for c in hand if c.rank == rank]
                for size in range(2, count + 1):
                    play = tuple(same[:size])
                    label = msg("Lead {set}", set=set_words(play))
                    choices.append(
                        Choice(label, Action("play", tuple(cards_to_json(play))), "primary")
                    )
            return Prompt(lead, tuple(choices))
        led = self.trick[0][1]
        text: str = msg("{name} led {play}.", name=self.seats[1 - seat], play=describe_play(led))
        if len(led) > 1:
            led_rank = led[0].rank or 0
            text = Msg.joined(" ", [text, msg("Beat it with a higher set of {n} or give up {n} "
                                              "cards.", n=len(led))])
            for rank, count in sorted(by_rank.items(), key=lambda kv: kv[0] or 0):
                if count >= len(led) and (rank or 0) > led_rank:
                    play = tuple(c for c in hand if c.rank == rank)[: len(led)]
                    label = msg("Beat with {set}", set=set_words(play))
                    choices.append(
                        Choice(label, Action("play", tuple(cards_to_json(play))), "primary")
                    )
            choices.append(
                CardPick(
                    msg("Give up {n} cards", n=len(led)),
                    "play",
                    tuple(cards_to_json(hand)),
                    len(led),
                    len(led),
                    tuple(c.label for c in hand),
                )
            )
        return Prompt(text, tuple(choices))

    def _public_fields(self, we: int) -> dict[str, Any]:
        """The public fields, as keyword arguments, with seat `we` in the WE column."""
        above = self.sheet.above_totals()
        return {
            **self._view_header(above, self.deal_no),
            "dealer": self.dealer,
            "stock": len(self.stock),
            "hand_sizes": tuple(len(h) for h in self.hands),
            "leader": self.leader,
            "trick": trick_plays(self.trick),
            "tricks": played_tricks(self.tricks),
            "tricks_won": tuple(self.tricks_won),
            "last_deal": json_record(self.last_deal),
            "draws": tuple(self.draws),
            "trick_values": (self.multiplier(0), self.multiplier(1)),
            "columns": (
                ScoreColumn("WE", we, self.seats[we]),
                ScoreColumn("THEY", 1 - we, self.seats[1 - we]),
            ),
            "above": tuple(above),
            "below": tuple(self.sheet.below_totals()),
            "games_won": tuple(self.sheet.games_won()),
            "scoresheet": self.sheet.to_json(),
        }

    def public_view(self) -> PokeView:
        return PokeView(**self._public_fields(0))

    def view(self, seat: int) -> PokeSeatView:
        return PokeSeatView(
            **self._public_fields(seat),
            seat=seat,
            hand=tuple(cards_to_json(sorted(self.hands[seat], key=Card.sort_key))),
            thrown=tuple(cards_to_json(self.thrown[seat])),
        )

    # --- snapshots ----------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "seats": list(self.seats),
            "options": dict(self.options),
            "rng": rng_to_json(self.rng),
            "turn_seconds": self.turn_seconds,
            "dealer": self.dealer,
            "deal_no": self.deal_no,
            "step": self.step,
            "stacked_used": self.stacked_used,
            "phase": self._phase,
            "hands": [cards_to_json(h) for h in self.hands],
            "final_hands": [cards_to_json(h) for h in self.final_hands],
            "thrown": [cards_to_json(h) for h in self.thrown],
            "stock": cards_to_json(self.stock),
            "draws": list(self.draws),
            "drawer": self.drawer,
            "leader": self.leader,
            "trick": trick_to_json(self.trick),
            "tricks": [dict(t) for t in self.tricks],
            "tricks_won": list(self.tricks_won),
            "sheet": self.sheet.to_json(),
            "last_deal": self.last_deal,
            "result": self._result.to_json() if self._result else None,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Poke:
        game = cls.__new__(cls)
        game.seats = tuple(data["seats"])
        game.options = dict(data["options"])
        game.rng = rng_from_json(data["rng"])
        game.turn_seconds = float(data["turn_seconds"])
        game.dealer = data["dealer"]
        game.deal_no = data["deal_no"]
        game.step = data["step"]
        game.stacked_used = data["stacked_used"]
        game._phase = data["phase"]
        game.hands = [cards_from_json(h) for h in data["hands"]]
        game.final_hands = [cards_from_json(h) for h in data["final_hands"]]
        game.thrown = [cards_from_json(h) for h in data["thrown"]]
        game.stock = cards_from_json(data["stock"])
        game.draws = list(data["draws"])
        game.drawer = data["drawer"]
        game.leader = data["leader"]
        game.trick = trick_from_json(data["trick"])
        game.tricks = [dict(t) for t in data["tricks"]]
        game.tricks_won = list(data["tricks_won"])
        game.sheet = Scoresheet.from_json(data["sheet"])
        game.last_deal = data["last_deal"]
        game._result = GameResult.from_json(data["result"]) if data["result"] else None
        game._opening = []
        return game

    def ai_action(self, seat: int, rng: random.Random) -> Action:
        return poke_ai(self.view(seat), rng)


# --- the AI -------------------------------------------------------------------------------


def poke_ai(view: PokeSeatView, rng: random.Random) -> Action:
    """A Poke player that sees only `view` (its own seat's view).

    Draws: the dealer's free draw is always taken unless the hand is a straight or better;
    a draw that doubles is worth it only with nothing (high card) or, once, a low pair for
    the non-dealer, since a doubled opponent reaches game twice as fast and a game is worth
    a bonus plus a step to the rubber. Play: lead sets first (a set falls only to a higher
    set of the same size, which is rare), then the highest single; follow by winning as
    cheaply as possible, or by throwing the lowest cards that are not part of a set.
    """
    del rng  # the policy is deterministic; the parameter keeps the common signature
    seat = view.seat
    hand = cards_from_json(view.hand)
    if view.phase == "draw":
        return _ai_draw(view, seat, hand)
    trick = trick_from_json(view.trick)
    return Action("play", tuple(cards_to_json(_ai_play(hand, trick))))


def _ai_draw(view: PokeSeatView, seat: int, hand: list[Card]) -> Action:
    throw = choose_discards(hand, DRAW_MAX)
    if not throw:
        return Action("stand")
    category = evaluate(hand).category
    draws, is_dealer = view.draws[seat], view.dealer == seat
    if is_dealer and draws == 0:
        worth_it = True  # free
    elif draws == 0:  # the non-dealer's first draw doubles
        worth_it = category == Category.HIGH_CARD or (
            category == Category.PAIR and _pair_rank(hand) < 10
        )
    elif is_dealer and draws == 1:  # the dealer's second draw doubles
        worth_it = category == Category.HIGH_CARD
    else:  # a redouble is never worth it
        worth_it = False
    return Action("draw", tuple(cards_to_json(throw))) if worth_it else Action("stand")


def _pair_rank(hand: Sequence[Card]) -> int:
    counts = Counter(card.rank for card in hand)
    return max((rank or 0) for rank, n in counts.items() if n >= 2)


def _ai_play(hand: list[Card], trick: list[tuple[int, Play]]) -> Play:
    hand = sorted(hand, key=Card.sort_key)
    counts = Counter(card.rank for card in hand)
    if not trick:
        sets = [
            p for p in legal_plays(hand, [], POKE) if len(p) > 1 and len(p) == counts[p[0].rank]
        ]
        if sets:
            return max(sets, key=lambda p: (len(p), p[0].rank or 0))
        return (hand[-1],)
    led = trick[0][1]
    size, led_rank = len(led), led[0].rank or 0
    winners = [
        p for p in legal_plays(hand, trick, POKE) if is_set(p) and (p[0].rank or 0) > led_rank
    ]
    if winners:
        return min(winners, key=lambda p: (counts[p[0].rank] > size, p[0].rank or 0))
    spare = sorted(hand, key=lambda c: (counts[c.rank] > 1, c.rank or 0))
    return tuple(sorted(spare[:size], key=Card.sort_key))
