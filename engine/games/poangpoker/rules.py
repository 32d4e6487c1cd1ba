"""Poängpoker and its richer variant Chicago: exchange for the best poker hand, then play
five tricks for the last one.

Both games share the whole deal (five cards each, exchanges in turn from the dealer's left,
five tricks, then the last trick and the best hand score), so one base class runs them and
the two subclasses set what differs: the number of exchanges (1 or 3; Chicago calls them
buys, "köp"), must-beat in trick play (Poängpoker only), last-trick points (2 or 5), the
target (13 or 52), and Chicago's extras: interim hand scoring after buys 1 and 2, no buying
at 42 or more (köpstopp), the Chicago call (+15 for all five tricks, else -15), and the
royal straight flush that wins at once.

Points are awarded one at a time in the order of the rules, and the first player to reach
the target wins at once; so even when several players would pass the target in one deal,
the one scored first wins.

>>> game = Poangpoker(["Anna", "Bo", "Cia", "Dan"], {"first_dealer": 3}, random.Random(4))
>>> game.phase, sorted(game.to_act)
('exchange', [0])
"""

from __future__ import annotations

import copy
import random
from collections.abc import Mapping, Sequence
from itertools import combinations
from typing import Any, ClassVar

from engine.cards import Card, cards_from_json, cards_to_json, label_cards
from engine.evaluator import Category, HandValue, evaluate
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
from engine.games.poangpoker.ai import points_ai
from engine.games.poangpoker.hands import (
    _combination,
    hand_points,
    shown_cards,
)
from engine.games.poangpoker.views import PointsSeatView, PointsView
from engine.games.registry import register
from engine.i18n import Msg, msg, msg_n
from engine.tricks.deal import (
    HAND_SIZE,
    check_options,
    deal,
    order_from,
    played_tricks,
    trick_from_json,
    trick_plays,
    trick_to_json,
)
from engine.tricks.play import CHICAGO, POANGPOKER, TrickRules, legal_plays, trick_winner
from engine.tricks.play import why_illegal as trick_why_illegal
from engine.views import json_record

__all__ = [
    "Chicago",
    "Poangpoker",
    "PointsPoker",
]

CALL_POINTS = 15
# The exchanges by name: "the first buy" (Chicago's köp) or "the exchange" (Poängpoker's
# byte), and the same at the start of a sentence; whole entries, so each language words them.
ROUND_NAMES = {
    ("exchange", 1): msg("the first exchange"), ("exchange", 2): msg("the second exchange"),
    ("exchange", 3): msg("the third exchange"), ("buy", 1): msg("the first buy"),
    ("buy", 2): msg("the second buy"), ("buy", 3): msg("the third buy"),
}
ROUND_TITLES = {
    ("exchange", 1): msg("The first exchange"), ("exchange", 2): msg("The second exchange"),
    ("exchange", 3): msg("The third exchange"), ("buy", 1): msg("The first buy"),
    ("buy", 2): msg("The second buy"), ("buy", 3): msg("The third buy"),
}


def _and(names: Sequence[str]) -> str:
    if len(names) == 1:
        return names[0]
    return msg("{names} and {last}", names=", ".join(names[:-1]), last=names[-1])


class PointsPoker(Game):
    """The deal both games share. Options: `first_dealer` (default drawn by the rng),
    `turn_seconds` (default 120), `start_scores` (default all 0; a handicap, and the test
    hook for positions near the target), `stacked_deals` (test hook, see
    engine.tricks.deal); Chicago adds `call` (default True)."""

    min_seats = 2
    max_seats = 6
    public_actions: ClassVar[frozenset[str]] = frozenset({"play"})  # to a trick, face up
    exchanges: ClassVar[int]
    last_trick_points: ClassVar[int]
    target: ClassVar[int]
    trick_rules: ClassVar[TrickRules]
    exchange_word: ClassVar[str] = "exchange"
    reuse_discards: ClassVar[bool] = False
    royal_wins: ClassVar[bool] = False
    kopstopp: ClassVar[int | None] = None

    @classmethod
    def goal(cls, options: Mapping[str, Any], players: int) -> str:
        return msg("first to {n} points", n=cls.target)
    option_names: ClassVar[tuple[str, ...]] = (
        "first_dealer",
        "turn_seconds",
        "start_scores",
        "stacked_deals",
    )

    def __init__(
        self,
        seats: Sequence[str],
        options: Mapping[str, Any] | None = None,
        rng: random.Random | None = None,
    ) -> None:
        if not self.min_seats <= len(seats) <= self.max_seats:
            raise ValueError(f"{self.title} is for {self.min_seats} to {self.max_seats} players")
        self.seats = tuple(seats)
        self.options = dict(options or {})
        check_options(self.title, self.options, self.option_names, len(seats))
        self.rng = rng if rng is not None else random.Random()
        self.turn_seconds = float(self.options.get("turn_seconds") or 120)
        self.call_enabled = self._call_option()
        first = self.options.get("first_dealer")
        n = len(self.seats)
        self.dealer = int(first) % n if first is not None else self.rng.randrange(n)
        start = self.options.get("start_scores") or [0] * n
        if len(start) != n:
            raise ValueError("start_scores needs one score per player")
        self.scores = [int(score) for score in start]
        self.deal_no = 0
        self.step = 0
        self.stacked_used = 0
        self._phase = "exchange"
        self._result: GameResult | None = None
        self.winner: int | None = None
        self.hands: list[list[Card]] = [[] for _ in self.seats]
        self.final_hands: list[list[Card]] = [[] for _ in self.seats]
        self.thrown: list[list[Card]] = [[] for _ in self.seats]
        self.stock: list[Card] = []
        self.discards: list[Card] = []
        self.exchange_round = 1
        self.queue: list[int] = []
        self.exchanged: list[list[int | None]] = []
        self.caller: int | None = None
        self.leader = 0
        self.trick: list[tuple[int, tuple[Card, ...]]] = []
        self.tricks: list[dict[str, Any]] = []
        self.tricks_won = [0] * n
        self.shown: list[dict[str, Any]] = []
        self.last_deal: dict[str, Any] | None = None
        self._opening = self._start_deal()

    def _call_option(self) -> bool:
        return False

    # --- the shape every game has ---------------------------------------------------------
    @property
    def phase(self) -> str:
        return self._phase

    @property
    def to_act(self) -> frozenset[int]:
        if self._phase in ("exchange", "call"):
            return frozenset(self.queue[:1])
        if self._phase == "play":
            return frozenset({(self.leader + len(self.trick)) % len(self.seats)})
        return frozenset()

    @property
    def is_over(self) -> bool:
        return self._phase == "over"

    @property
    def result(self) -> GameResult | None:
        return self._result

    @property
    def order(self) -> list[int]:
        """Turn order this deal: from the dealer's left round to the dealer."""
        return order_from(self.dealer, len(self.seats))

    def timers(self) -> list[TimerSpec]:
        if self.is_over:
            return []
        return [
            TimerSpec(f"{self.kind}-{self.step}", self.turn_seconds, tuple(sorted(self.to_act)))
        ]

    def exchange_limit(self) -> int:
        """How many cards may be thrown now. Poängpoker never reuses discards (the seed: the
        cards put aside are not used again), so a short stock limits the exchange."""
        if self.reuse_discards:
            return HAND_SIZE
        return min(HAND_SIZE, len(self.stock))

    # --- actions ----------------------------------------------------------------------------
    def legal_actions(self, seat: int) -> list[Action]:
        if seat not in self.to_act:
            return []
        hand = sorted(self.hands[seat], key=Card.sort_key)
        if self._phase == "exchange":
            actions = [Action("stand")]
            for size in range(1, self.exchange_limit() + 1):
                actions += [
                    Action("exchange", tuple(cards_to_json(c))) for c in combinations(hand, size)
                ]
            return actions
        if self._phase == "call":
            return [Action("call"), Action("pass")]
        plays = legal_plays(hand, self.trick, self.trick_rules)
        return [Action("play", tuple(cards_to_json(p))) for p in plays]

    def _step(self, seat: int, action: Action) -> list[Event]:
        name = action.name
        if self._phase == "exchange" and name in ("exchange", "stand"):
            events = self._exchange(seat, action.args if name == "exchange" else ())
        elif self._phase == "call" and name in ("call", "pass"):
            events = self._call(seat, name == "call")
        elif self._phase == "play" and name == "play":
            events = self._play(seat, action.args)
        else:
            wanted = {
                "exchange": msg("Buy 0-5 cards or stand pat.") if self.exchange_word == "buy"
                else msg("Exchange 0-5 cards or stand pat."),
                "call": msg("Call Chicago or pass."),
                "play": msg("Play a card."),
            }
            raise IllegalAction(wanted.get(self._phase) or msg("That is not possible now."))
        self.step += 1
        return events

    def _timeout_action(self, seat: int) -> Action:
        """A clock that runs out stands pat, declines the call, or plays the lowest legal
        card."""
        if self._phase == "exchange":
            return Action("stand")
        if self._phase == "call":
            return Action("pass")
        hand = sorted(self.hands[seat], key=lambda c: (c.rank or 0, c.suit or 0))
        plays = legal_plays(hand, self.trick, self.trick_rules)
        low = min(plays, key=lambda p: (p[0].rank or 0, p[0].suit or 0))
        return Action("play", tuple(cards_to_json(low)))

    # --- exchanges ----------------------------------------------------------------------------
    def _round_name(self) -> str:
        if self.exchanges == 1:
            return msg("the exchange")
        return ROUND_NAMES[self.exchange_word, self.exchange_round]

    def _round_title(self) -> str:
        """The round's name at the start of a sentence."""
        if self.exchanges == 1:
            return msg("The exchange")
        return ROUND_TITLES[self.exchange_word, self.exchange_round]

    def _begin_exchange_round(self) -> list[Event]:
        self.exchanged.append([None] * len(self.seats))
        self.queue = []
        events: list[Event] = []
        for seat in self.order:
            if self.kopstopp is not None and self.scores[seat] >= self.kopstopp:
                text = msg(
                    "{name} has {points} points ({limit} or more) and may not buy (köpstopp).",
                    name=self.seats[seat], points=self.scores[seat], limit=self.kopstopp)
                events.append(
                    Event(text, None, "kopstopp", {"seat": seat, "scores": list(self.scores)})
                )
            else:
                self.queue.append(seat)
        if not self.queue:
            events += self._end_exchange_round()
        return events

    def _exchange(self, seat: int, args: Sequence[Any]) -> list[Event]:
        thrown = parse_action_cards(args, self.hands[seat])
        limit = self.exchange_limit()
        if len(thrown) > limit:
            raise IllegalAction(msg("Only {n} cards are left in the stock: throw at most {n}.",
                                    n=limit))
        events: list[Event] = []
        if len(thrown) > len(self.stock):
            self.stock += self.rng.sample(self.discards, len(self.discards))
            self.discards = []
            self.thrown = [[] for _ in self.seats]  # back in play: no longer known to be out
            text = msg("The stock has run out: the discards are shuffled to make a new stock.")
            events.append(Event(text, None, "reshuffle", {"stock": len(self.stock)}))
        new, self.stock = self.stock[: len(thrown)], self.stock[len(thrown) :]
        self.hands[seat] = sorted(
            [c for c in self.hands[seat] if c not in thrown] + new, key=Card.sort_key
        )
        self.discards += thrown
        self.thrown[seat] += thrown
        self.exchanged[-1][seat] = len(thrown)
        name, n = self.seats[seat], len(thrown)
        if not n:
            told = msg("{name} stands pat.", name=name)
        elif self.exchange_word == "buy":
            told = msg_n("{name} buys {n} card.", "{name} buys {n} cards.", n, name=name)
        else:
            told = msg_n("{name} exchanges {n} card.", "{name} exchanges {n} cards.", n,
                         name=name)
        data = {"seat": seat, "count": n, "round": self.exchange_round}
        events.append(Event(told, None, "exchange", data))
        if n:
            events.append(
                Event(
                    msg("You threw {thrown} and drew {drawn}. Your hand: {hand}.",
                        thrown=label_cards(thrown), drawn=label_cards(new),
                        hand=label_cards(self.hands[seat])),
                    seat,
                    "hand",
                    {
                        "thrown": cards_to_json(thrown),
                        "drawn": cards_to_json(new),
                        "hand": cards_to_json(self.hands[seat]),
                    },
                )
            )
        self.queue.pop(0)
        if not self.queue:
            events += self._end_exchange_round()
        return events

    def _end_exchange_round(self) -> list[Event]:
        if self.exchange_round < self.exchanges:
            events = self._interim_scoring()
            if self.is_over:
                return events
            self.exchange_round += 1
            return events + self._begin_exchange_round()
        self.final_hands = [list(hand) for hand in self.hands]
        if self.call_enabled:
            self._phase = "call"
            self.queue = list(self.order)
            text = msg(
                "Before the first lead, anyone may call Chicago, in turn from the dealer's left.")
            return [Event(text, None, "call_round", {"order": self.queue})]
        return self._begin_play(self.order[0])

    def _best_hand(self, hands: Sequence[Sequence[Card]]) -> tuple[int, HandValue, list[HandValue]]:
        """The best hand now and its seat; an exact tie goes to the earlier player in turn
        order from the dealer's left."""
        values = [evaluate(hand) for hand in hands]
        best = self.order[0]
        for seat in self.order[1:]:
            if values[seat].strength > values[best].strength:
                best = seat
        return best, values[best], values

    def _interim_scoring(self) -> list[Event]:
        seat, value, values = self._best_hand(self.hands)
        if value.category == Category.HIGH_CARD:
            text = msg("After {round} nobody holds a pair or better: no points.",
                       round=self._round_name())
            return [Event(text, None, "interim", {"round": self.exchange_round, "seat": None})]
        key = _combination(self.hands[seat], value)
        full = any(
            _combination(self.hands[s], values[s]) == key
            for s in range(len(self.seats))
            if s != seat
        )
        shown = shown_cards(self.hands[seat], value, full)
        points = hand_points(value, self.royal_wins)
        record = {
            "round": self.exchange_round,
            "seat": seat,
            "cards": cards_to_json(shown),
            "description": value.description,
            "points": points,
        }
        self.shown.append(record)
        text = msg("After {round}, {name} has the best hand: {hand}, showing {cards}.",
                   round=self._round_name(), name=self.seats[seat], hand=value.description,
                   cards=label_cards(shown))
        why = self._hand_why(seat, value, values)
        return [Event(text, None, "interim", dict(record)), *self._award(seat, points, value, why)]

    def _hand_why(self, seat: int, value: HandValue, values: Sequence[HandValue]) -> str:
        """Why this hand scores: it is the best, or it ties and comes first in turn order."""
        tied = [s for s in self.order if s != seat and values[s].strength == value.strength]
        if tied:
            return msg("the best hand, {hand} (an exact tie with {others}: the earlier in turn "
                       "order scores)", hand=value.description,
                       others=_and([self.seats[s] for s in tied]))
        return msg("the best hand, {hand}", hand=value.description)

    # --- the call -------------------------------------------------------------------------------
    def _call(self, seat: int, calls: bool) -> list[Event]:
        if calls:
            self.caller = seat
            text = msg("{name} calls Chicago: they lead and must take all five tricks "
                       "(+{points}, or -{points}).", name=self.seats[seat], points=CALL_POINTS)
            return [Event(text, None, "call", {"seat": seat}), *self._begin_play(seat)]
        self.queue.pop(0)
        events = [Event(msg("{name} does not call.", name=self.seats[seat]), None, "pass",
                        {"seat": seat})]
        if not self.queue:
            events += self._begin_play(self.order[0])
        return events

    # --- trick play -------------------------------------------------------------------------------
    def _begin_play(self, leader: int) -> list[Event]:
        self._phase = "play"
        self.queue = []
        self.leader = leader
        text = msg("Trick play: {name} leads.", name=self.seats[leader])
        return [Event(text, None, "play_begins", {"leader": leader, "caller": self.caller})]

    def why_illegal(self, seat: int, card: Card) -> str | None:
        """Why `seat` may not play `card` now (shown on the disabled button), or None."""
        return trick_why_illegal(self.hands[seat], self.trick, self.trick_rules, (card,))

    def _play(self, seat: int, args: Sequence[Any]) -> list[Event]:
        cards = tuple(parse_action_cards(args, self.hands[seat]))
        reason = trick_why_illegal(self.hands[seat], self.trick, self.trick_rules, cards)
        if reason is not None:
            raise IllegalAction(reason)
        self.hands[seat] = [c for c in self.hands[seat] if c not in cards]
        self.trick.append((seat, cards))
        told = msg("{name} leads {card}.", name=self.seats[seat], card=cards[0].label) \
            if len(self.trick) == 1 else \
            msg("{name} plays {card}.", name=self.seats[seat], card=cards[0].label)
        events = [
            Event(
                told,
                None,
                "play",
                {"seat": seat, "cards": cards_to_json(cards)},
            )
        ]
        if len(self.trick) < len(self.seats):
            return events
        return events + self._finish_trick()

    def _finish_trick(self) -> list[Event]:
        winner = trick_winner(self.trick, self.trick_rules)
        number = len(self.tricks) + 1
        self.tricks_won[winner] += 1
        record = {"plays": trick_to_json(self.trick), "winner": winner, "count": 1}
        self.tricks.append(record)
        played = ", ".join(f"{self.seats[s]} {play[0].label}" for s, play in self.trick)
        text = msg("Trick {n}: {plays} — {name} wins.", n=number, plays=played,
                   name=self.seats[winner])
        data = {**record, "trick": number, "tricks_won": list(self.tricks_won)}
        events = [Event(text, None, "trick", data)]
        self.trick = []
        self.leader = winner
        if self.caller is not None and winner != self.caller and number < HAND_SIZE:
            # RULINGS: once the caller loses a trick the call has failed and play stops.
            caller = self.seats[self.caller]
            text = msg("{name} has lost a trick: Chicago has failed, and play stops.",
                       name=caller)
            events.append(Event(text, None, "call_failed", {"seat": self.caller,
                                                            "trick": number}))
            return events + self._end_deal(winner)
        if number == HAND_SIZE:
            events += self._end_deal(winner)
        return events

    # --- scoring -------------------------------------------------------------------------------
    def _award(
        self, seat: int, points: int, value: HandValue | None = None, why: str = ""
    ) -> list[Event]:
        """Score one award and end the game at once if it reaches the target (or is a
        royal straight flush in Chicago)."""
        self.scores[seat] += points
        name = self.seats[seat]
        why = why or (value.description if value else "")
        sign = f"+{points}" if points >= 0 else str(points)
        text = msg("{name} {points} for {why} ({name} {score}).", name=name, points=sign,
                   why=why, score=self.scores[seat])
        data = {"seat": seat, "points": points, "why": why, "scores": list(self.scores)}
        events = [Event(text, None, "score", data)]
        royal = self.royal_wins and value is not None and value.is_royal
        if royal or (points > 0 and self.scores[seat] >= self.target):
            events.append(self._finish(seat, royal))
        return events

    def _finish(self, seat: int, royal: bool) -> Event:
        self._phase = "over"
        self.queue = []
        self.winner = seat
        scores = tuple(self.scores)
        others = [s for s in range(len(self.seats)) if s != seat]
        places = [1] * len(self.seats)
        for s in others:
            places[s] = 2 + sum(scores[o] > scores[s] for o in others)
        summary = msg("{name} wins with a royal straight flush.", name=self.seats[seat]) \
            if royal else msg("{name} wins with {n} points.", name=self.seats[seat],
                              n=scores[seat])
        self._result = GameResult(scores, tuple(places), (seat,), summary)
        standings = ", ".join(f"{self.seats[s]} {scores[s]}" for s in range(len(scores)))
        text = msg("{summary} Final scores: {scores}.", summary=summary, scores=standings)
        return Event(text, None, "game_over", {"winners": [seat], "scores": list(scores)})

    def _end_deal(self, last_winner: int) -> list[Event]:
        events: list[Event] = []
        if self.caller is not None:
            made = self.tricks_won[self.caller] == HAND_SIZE
            why = msg("Chicago made") if made else msg("Chicago failed")
            events += self._award(self.caller, CALL_POINTS if made else -CALL_POINTS, why=why)
        else:
            events += self._award(last_winner, self.last_trick_points,
                                  why=msg("the last trick"))
        seat, value, values = self._best_hand(self.final_hands)
        hands = [cards_to_json(sorted(h, key=Card.sort_key)) for h in self.final_hands]
        descriptions = [v.description for v in values]
        reveal = Msg.joined("; ", [
            msg("{name} {cards} ({hand})", name=self.seats[s],
                cards=label_cards(self.final_hands[s]), hand=descriptions[s])
            for s in self.order
        ])
        events.append(
            Event(
                msg("Hands: {hands}.", hands=reveal), None, "reveal",
                {"hands": hands, "descriptions": descriptions}
            )
        )
        points = hand_points(value, self.royal_wins)
        if not self.is_over:
            if points:
                events += self._award(seat, points, value, self._hand_why(seat, value, values))
            else:
                text = msg("Nobody holds a pair or better: no points for the hand.")
                events.append(Event(text, None, "score", {"seat": None, "points": 0}))
        self.last_deal = {
            "deal": self.deal_no,
            "hands": hands,
            "descriptions": descriptions,
            "best": seat,
            "last_trick": last_winner,
            "caller": self.caller,
            "tricks_won": list(self.tricks_won),
            "scores": list(self.scores),
        }
        if self.is_over:
            # The deal's end before the game's: "Deal 7 is over" after "Ann wins" read as if
            # play went on; the final scores follow, so they are not told twice.
            text = msg("Deal {n} is over.", n=self.deal_no)
            end = [event for event in events if event.kind == "game_over"]
            events = [event for event in events if event.kind != "game_over"]
            events += [Event(text, None, "deal_end", dict(self.last_deal)), *end]
            return events
        scores = ", ".join(f"{self.seats[s]} {self.scores[s]}" for s in range(len(self.seats)))
        text = msg("Deal {n} is over. Scores: {scores}.", n=self.deal_no, scores=scores)
        events.append(Event(text, None, "deal_end", dict(self.last_deal)))
        self.dealer = (self.dealer + 1) % len(self.seats)
        return events + self._start_deal()

    # --- dealing ------------------------------------------------------------------------------
    def _start_deal(self) -> list[Event]:
        self.deal_no += 1
        stacked_list = self.options.get("stacked_deals") or []
        stacked = None
        if self.stacked_used < len(stacked_list):
            stacked = stacked_list[self.stacked_used]
            self.stacked_used += 1
        hands, self.stock = deal(self.rng, self.order, stacked)
        n = len(self.seats)
        self.hands = [sorted(hands[s], key=Card.sort_key) for s in range(n)]
        self.final_hands = [[] for _ in range(n)]
        self.thrown = [[] for _ in range(n)]
        self.discards = []
        self.exchange_round = 1
        self.exchanged = []
        self.caller = None
        self.trick, self.tricks, self.tricks_won = [], [], [0] * n
        self.shown = []
        self._phase = "exchange"
        first = self.seats[self.order[0]]
        text = msg("Deal {n}: {dealer} deals; {first} is first.", n=self.deal_no,
                   dealer=self.seats[self.dealer], first=first)
        events = [
            Event(
                text,
                None,
                "deal",
                {"deal": self.deal_no, "dealer": self.dealer, "scores": list(self.scores)},
            )
        ]
        for seat in range(n):
            events.append(
                Event(
                    msg("Your hand: {cards}.", cards=label_cards(self.hands[seat])),
                    seat,
                    "hand",
                    {"hand": cards_to_json(self.hands[seat])},
                )
            )
        return events + self._begin_exchange_round()

    # --- what each seat is asked and sees -----------------------------------------------------
    def prompt(self, seat: int) -> Prompt | None:
        if seat not in self.to_act:
            return None
        hand = sorted(self.hands[seat], key=Card.sort_key)
        if self._phase == "exchange":
            limit = self.exchange_limit()
            text = msg("Your poker hand: {hand}. {round}: throw 0-{n} cards for new ones.",
                       hand=evaluate(hand).description, round=self._round_title(), n=limit)
            if limit < HAND_SIZE:
                text = Msg.joined(" ", [text, msg("Only {n} cards are left in the stock.",
                                                  n=limit)])
            pick = CardPick(
                msg("Throw and draw"),
                "exchange",
                tuple(cards_to_json(hand)),
                0,
                limit,
                tuple(c.label for c in hand),
            )
            return Prompt(text, (pick, Choice(msg("Stand pat"), Action("stand"), "primary")))
        scored = msg("Your poker hand: {hand}.",
                     hand=evaluate(self.final_hands[seat]).description)
        if self._phase == "call":
            text = msg("{hand} Call Chicago? You would lead, and score +{points} for taking all "
                       "five tricks or -{points} otherwise; the last trick scores nothing.",
                       hand=scored, points=CALL_POINTS)
            return Prompt(
                text,
                (
                    Choice(msg("Call Chicago"), Action("call"), "danger"),
                    Choice(msg("No call"), Action("pass"), "secondary"),
                ),
            )
        choices = tuple(
            Choice(
                card.label, Action("play", (str(card),)), "secondary", self.why_illegal(seat, card)
            )
            for card in hand
        )
        if self.trick:
            led = ", ".join(f"{self.seats[s]} {p[0].label}" for s, p in self.trick)
            text = msg("Trick {n} so far: {plays}.", n=len(self.tricks) + 1, plays=led)
        else:
            text = msg("Lead to trick {n}.", n=len(self.tricks) + 1)
        return Prompt(Msg.joined(" ", [text, scored]), choices)

    def _public_fields(self) -> dict[str, Any]:
        """The public fields, as keyword arguments: both views are built from them."""
        kopstopp = self.kopstopp
        return {
            **self._view_header(self.scores, self.deal_no),
            "dealer": self.dealer,
            "stock": len(self.stock),
            "hand_sizes": tuple(len(h) for h in self.hands),
            "leader": self.leader,
            "trick": trick_plays(self.trick),
            "tricks": played_tricks(self.tricks),
            "tricks_won": tuple(self.tricks_won),
            "last_deal": json_record(self.last_deal),
            "order": tuple(self.order),
            "target": self.target,
            "exchange_round": self.exchange_round,
            "exchanges": self.exchanges,
            "exchanged": tuple(tuple(r) for r in self.exchanged),
            "kopstopp": tuple(
                s
                for s in range(len(self.seats))
                if kopstopp is not None and self.scores[s] >= kopstopp
            ),
            "call_enabled": self.call_enabled,
            "caller": self.caller,
            "shown": tuple(json_record(s) or {} for s in self.shown),
        }

    def public_view(self) -> PointsView:
        return PointsView(**self._public_fields())

    def view(self, seat: int) -> PointsSeatView:
        return PointsSeatView(
            **self._public_fields(),
            seat=seat,
            hand=tuple(cards_to_json(sorted(self.hands[seat], key=Card.sort_key))),
            thrown=tuple(cards_to_json(self.thrown[seat])),
            exchange_limit=self.exchange_limit(),
        )

    # --- snapshots ----------------------------------------------------------------------------
    _PLAIN = (
        "turn_seconds",
        "call_enabled",
        "dealer",
        "scores",
        "deal_no",
        "step",
        "stacked_used",
        "winner",
        "exchange_round",
        "queue",
        "exchanged",
        "caller",
        "leader",
        "tricks",
        "tricks_won",
        "shown",
        "last_deal",
    )

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "kind": self.kind,
            "seats": list(self.seats),
            "options": dict(self.options),
            "rng": rng_to_json(self.rng),
            "phase": self._phase,
            "hands": [cards_to_json(h) for h in self.hands],
            "final_hands": [cards_to_json(h) for h in self.final_hands],
            "thrown": [cards_to_json(h) for h in self.thrown],
            "stock": cards_to_json(self.stock),
            "discards": cards_to_json(self.discards),
            "trick": trick_to_json(self.trick),
            "result": self._result.to_json() if self._result else None,
        }
        for name in self._PLAIN:
            data[name] = copy.deepcopy(getattr(self, name))
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> PointsPoker:
        game = cls.__new__(cls)
        for name in cls._PLAIN:
            setattr(game, name, copy.deepcopy(data[name]))
        game.seats = tuple(data["seats"])
        game.options = dict(data["options"])
        game.rng = rng_from_json(data["rng"])
        game._phase = data["phase"]
        game.hands = [cards_from_json(h) for h in data["hands"]]
        game.final_hands = [cards_from_json(h) for h in data["final_hands"]]
        game.thrown = [cards_from_json(h) for h in data["thrown"]]
        game.stock = cards_from_json(data["stock"])
        game.discards = cards_from_json(data["discards"])
        game.trick = trick_from_json(data["trick"])
        game._result = GameResult.from_json(data["result"]) if data["result"] else None
        game._opening = []
        return game

    def ai_action(self, seat: int, rng: random.Random) -> Action:
        return points_ai(self.view(seat), rng)


@register
class Poangpoker(PointsPoker):
    """Poängpoker: one exchange, follow suit and beat when able, last trick 2, target 13."""

    kind = "poangpoker"
    title = "Poängpoker"
    exchanges = 1
    last_trick_points = 2
    target = 13
    trick_rules = POANGPOKER


@register
class Chicago(PointsPoker):
    """Chicago: three buys with interim hand scoring, follow suit without beating, last trick
    5, target 52, köpstopp at 42, the Chicago call, and the royal straight flush."""

    kind = "chicago"
    title = "Chicago"
    exchanges = 3
    last_trick_points = 5
    target = 52
    trick_rules = CHICAGO
    exchange_word = "buy"
    reuse_discards = True
    royal_wins = True
    kopstopp = 42
    option_names = (*PointsPoker.option_names, "call")

    def _call_option(self) -> bool:
        value = self.options.get("call", True)
        if isinstance(value, str):
            return value.strip().lower() not in ("0", "false", "off", "no")
        return bool(value)
