"""Pyramid Po-Ke-No (seed 003, RULINGS.md), 2 to 4 players: rounds to 500.

Two decks with two jokers each (108 cards), seven cards each. On a turn a player places any
number of cards face down on the spaces of their board (never beyond a space's count),
discards any number, may call "full board" once all ten spaces are complete, and ends the
turn by drawing up to three from the deck (hand limit seven). The steps stay tentative,
private and undoable until "End turn" (see engine.games.pokeno.base).

After a call every other player has one last turn, then the round is scored. When a player
must draw and the deck is empty, the discards are shuffled into a new deck, at most as many
times as there are players; when that is not possible the round ends at once, even in the
middle of the draw. Decisions where the texts are silent (docs/rules/pokeno.md): discards
go face down; the draw is always the full one the hand limit allows; a round in which a
whole turn of the table passes without anyone placing, discarding or drawing a card ends as
if the deck had run out (nothing else would ever end it); the first player moves one seat
to the left each round; the game ends when a round leaves someone at the target or more,
the highest total winning (a tie at the top plays another round).

>>> game = Pokeno(["Ann", "Bob"], {"first_dealer": 1}, random.Random(3))
>>> game.phase, sorted(game.to_act), [len(h) for h in game.hands], len(game.deck)
('turn', [0], [7, 7], 94)
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from engine.cards import cards_to_json, label_cards, pokeno_deck, shuffled
from engine.game import Action, Event, GameResult, TimerSpec, places_from_scores
from engine.games.pokeno.ai import pokeno_ai
from engine.games.pokeno.base import HAND_LIMIT, PokenoBase
from engine.games.pokeno.hand import sort_cards
from engine.games.pokeno.scoring import SPACES, score_round, space_title
from engine.games.registry import register
from engine.i18n import Msg, msg, msg_n, names_and

__all__ = ["Pokeno"]

TARGET = 500
TURN_SECONDS = 180
OPTIONS = ("target", "turn_seconds", "first_dealer")


def check_options(options: Mapping[str, Any], seats: int) -> None:
    unknown = sorted(set(options) - set(OPTIONS))
    if unknown:
        raise ValueError(f"unknown Pyramid Po-Ke-No options: {', '.join(unknown)}")
    target = options.get("target")
    if target is not None and not (isinstance(target, int) and target > 0):
        raise ValueError("target must be a positive number of points")
    seconds = options.get("turn_seconds")
    if seconds is not None and not (isinstance(seconds, int | float) and seconds > 0):
        raise ValueError("turn_seconds must be a positive number of seconds")
    first = options.get("first_dealer")
    if first is not None and not (isinstance(first, int) and 0 <= first < seats):
        raise ValueError(f"first_dealer must be a seat number from 0 to {seats - 1}")


@register
class Pokeno(PokenoBase):
    """The multiplayer game. Options: `target` (500), `turn_seconds` (180), `first_dealer`
    (drawn by the rng)."""

    kind = "pokeno"
    title = "Pyramid Po-Ke-No"
    min_seats = 2
    max_seats = 4

    @classmethod
    def goal(cls, options: Mapping[str, Any], players: int) -> str:
        return msg_n("first to {n} point", "first to {n} points",
                     int(options.get("target") or TARGET))

    def __init__(self, seats: Sequence[str], options: Mapping[str, Any] | None = None,
                 rng: random.Random | None = None) -> None:
        if not self.min_seats <= len(seats) <= self.max_seats:
            raise ValueError(f"{self.title} is for {self.min_seats} to {self.max_seats} players")
        self._init_common(seats, options, rng)
        check_options(self.options, len(self.seats))
        self.target = int(self.options.get("target") or TARGET)
        self.turn_seconds = float(self.options.get("turn_seconds") or TURN_SECONDS)
        first = self.options.get("first_dealer")
        n = len(self.seats)
        self.dealer = int(first) if first is not None else self.rng.randrange(n)
        self.caller: int | None = None
        self.last_turns: list[int] = []
        self.reshuffles = 0
        self.idle = 0
        self.turns = 0
        self._opening = self._start_round()

    @property
    def reshuffle_limit(self) -> int:
        return len(self.seats)

    def timers(self) -> list[TimerSpec]:
        if self.is_over or self.turn is None:
            return []
        # One clock a turn, whatever its number of steps (its key changes only at End turn).
        return [TimerSpec(f"{self.kind}-{self.turns}", self.turn_seconds, (self.turn,))]

    # --- hooks ---------------------------------------------------------------------------------
    def can_call(self, seat: int) -> bool:
        return (seat == self.turn and self.caller is None and not self.turn_called()
                and self.board_is_complete(seat))

    def why_not_call(self, seat: int) -> str:
        if self.caller is not None:
            return msg("{name} has already called full board this round.",
                       name=self.seats[self.caller])
        if self.turn_called():
            return msg("You have already called full board this turn.")
        return msg("Full board can be called only once all ten spaces are complete.")

    def _timeout(self, seat: int) -> list[Event]:
        """A clock that runs out ends the turn as it stands (what is placed stays placed)."""
        self.selection = []
        name = self.seats[seat]
        return [Event(msg("{name}'s time ran out: their turn ends as it stands.", name=name),
                      None,
                      "timeout", {"seat": seat}), *self._end_turn(seat)]

    def turn_heading(self, seat: int) -> str:
        text = msg("Round {n} — your turn. Deck {deck}.", n=self.deal_no, deck=len(self.deck))
        if self.caller is not None:
            return Msg.joined(" ", [text, msg("**Last turn**: {name} called full board.",
                                              name=self.seats[self.caller])])
        return text

    def _extra_public(self) -> dict[str, Any]:
        return {
            "target": self.target,
            "reshuffles": self.reshuffles,
            "reshuffle_limit": self.reshuffle_limit,
            "caller": self.caller,
            "last_turns": tuple(self.last_turns),
        }

    # --- rounds --------------------------------------------------------------------------------
    def _start_round(self) -> list[Event]:
        n = len(self.seats)
        self.deal_no += 1
        self.deck = shuffled(pokeno_deck(2), self.rng)
        self.discards = []
        self.boards = [[[] for _ in SPACES] for _ in range(n)]
        self.hands = [[] for _ in range(n)]
        order = [(self.dealer + 1 + i) % n for i in range(n)]
        for _ in range(HAND_LIMIT):
            for seat in order:
                self.hands[seat].append(self.deck.pop(0))
        self.hands = [sort_cards(hand) for hand in self.hands]
        self.caller, self.last_turns = None, []
        self.reshuffles, self.idle = 0, 0
        self.pending, self.selection = [], []
        self.turn = order[0]
        self._phase = "turn"
        first = self.seats[self.turn]
        text = msg("Round {n}: {name} deals seven cards each; {first} plays first.",
                   n=self.deal_no, name=self.seats[self.dealer], first=first)
        events = [Event(text, None, "deal", {"deal": self.deal_no, "dealer": self.dealer,
                                             "scores": list(self.scores)})]
        for seat in range(n):
            events.append(self.pyramid_event(
                seat, msg("Round {n}: your seven cards are dealt.", n=self.deal_no)))
        return events

    def _end_turn(self, seat: int) -> list[Event]:
        placed, thrown, called = self._commit(seat)
        self.turns += 1
        events: list[Event] = []
        if called:
            self.caller = seat
            n = len(self.seats)
            self.last_turns = [(seat + i) % n for i in range(1, n)]
        drawn, short = self._draw(seat)
        text = self.placed_text(seat, placed, len(thrown), len(drawn))
        data = {"seat": seat, "placed": [list(p) for p in placed], "discarded": len(thrown),
                "drawn": len(drawn), "counts": [len(c) for c in self.boards[seat]]}
        events.append(Event(text, None, "turn", data))
        if called:
            events.append(Event(
                msg("📣 {name} calls **full board**! Everyone else has one last turn.",
                    name=self.seats[seat]),
                None, "call", {"seat": seat}))
        events += short
        if self._phase == "round_over":
            return events + self._end_round("deck")
        # Drawing nothing is no news: "Nothing is needed from you" says the turn is over.
        mine = msg("You drew {cards}.", cards=label_cards(drawn)) if drawn else ""
        events.append(self.pyramid_event(seat, mine))
        if placed or thrown or drawn or called:
            self.idle = 0
        else:
            self.idle += 1
        if self.caller is not None:
            if seat != self.caller and self.last_turns and self.last_turns[0] == seat:
                self.last_turns.pop(0)
            if not self.last_turns:
                return events + self._end_round("call")
            self.turn = self.last_turns[0]
        elif self.idle >= len(self.seats):
            events.append(Event(msg("A whole turn of the table passed with no card placed, "
                                    "discarded or drawn: the round ends."), None, "stall", {}))
            return events + self._end_round("stall")
        else:
            self.turn = (seat + 1) % len(self.seats)
        events.append(self.pyramid_event(self.turn, ""))  # the prompt says "Your turn."
        return events

    def _draw(self, seat: int) -> tuple[list[Any], list[Event]]:
        """Draw up to the hand limit, three at most; reshuffle the discards when the deck is
        empty and the limit allows, else end the round at once (phase "round_over")."""
        need = max(0, min(3, HAND_LIMIT - len(self.hands[seat])))
        drawn = []
        events: list[Event] = []
        for _ in range(need):
            if not self.deck:
                if self.reshuffles < self.reshuffle_limit and self.discards:
                    self.reshuffles += 1
                    self.deck = shuffled(self.discards, self.rng)
                    self.discards = []
                    events.append(Event(
                        msg("The deck is empty: the discards are shuffled into a new deck "
                            "({n} of {limit} reshuffles).", n=self.reshuffles,
                            limit=self.reshuffle_limit),
                        None, "reshuffle", {"reshuffles": self.reshuffles,
                                            "deck": len(self.deck)}))
                else:
                    why = msg("no discards to reshuffle") if not self.discards else \
                        msg("all {n} reshuffles are used", n=self.reshuffle_limit)
                    events.append(Event(
                        msg("{name} must draw and cannot: the deck is empty and {why}. The "
                            "round ends at once.", name=self.seats[seat], why=why),
                        None, "deck_out", {"seat": seat}))
                    self._phase = "round_over"
                    break
            drawn.append(self.deck.pop(0))
        self.hands[seat] = sort_cards(self.hands[seat] + drawn)
        return drawn, events

    def _end_round(self, reason: str) -> list[Event]:
        self.turn = None
        self._phase = "round_over"
        score = score_round(self.boards, self.caller)
        for seat, points in enumerate(score.totals):
            self.scores[seat] += points
        events: list[Event] = []
        boards = [[cards_to_json(cards) for cards in board] for board in self.boards]
        for seat, name in enumerate(self.seats):
            lines: list[str] = [msg("{name}'s pyramid: {n} points this round", name=name,
                                    n=score.totals[seat])]
            for i, space in enumerate(SPACES):
                v = score.verdicts[seat][i]
                points = score.space_points[seat][i]
                mark = "✅" if v.correct else "❌"
                line = msg("{mark} {space}: {why}", mark=mark, space=space_title(space),
                           why=v.why)
                if points:
                    line = msg("{line} — **+{n}**", line=line, n=points)
                elif v.correct:
                    line = msg("{line} — beaten", line=line)
                lines.append(line)
            if score.caller == seat:
                sign = f"+{score.bonus}" if score.bonus > 0 else str(score.bonus)
                if score.bonus > 0:
                    lines.append(msg("📣 Full board called, all ten correct: **{sign}**",
                                     sign=sign))
                else:
                    lines.append(msg("📣 Full board called, not all ten correct: **{sign}**",
                                     sign=sign))
            events.append(Event(Msg.joined("\n", lines), None, "reveal", {
                "seat": seat, "board": boards[seat],
                "verdicts": score.to_json()["verdicts"][seat],
                "space_points": list(score.space_points[seat]),
                "bonus": score.bonus if score.caller == seat else 0,
                "total": score.totals[seat]}))
        why = {"call": msg("{name} called full board and the last turns are played",
                           name=self.seats[self.caller]) if self.caller is not None else "",
               "deck": msg("a player had to draw and could not"),
               "stall": msg("nobody moved a card for a whole turn of the table")}[reason]
        self.last_deal = {"deal": self.deal_no, "reason": reason, "boards": boards,
                          "scores": list(self.scores), **score.to_json()}
        totals = ", ".join(f"{n} {t:+d}" for n, t in zip(self.seats, score.totals, strict=True))
        standings = ", ".join(f"{n} {s}" for n, s in zip(self.seats, self.scores, strict=True))
        events.append(Event(msg("Round {n} is over: {why}.\nThis round: {totals}.\n"
                                "Totals (to {target}): {standings}.", n=self.deal_no, why=why,
                                totals=totals, target=self.target, standings=standings),
                            None, "deal_end", dict(self.last_deal)))
        top = max(self.scores)
        leaders = [seat for seat, s in enumerate(self.scores) if s == top]
        if top >= self.target and len(leaders) == 1:
            return [*events, self._finish(leaders[0])]
        if top >= self.target:
            names = names_and([self.seats[s] for s in leaders])
            events.append(Event(msg("{names} tie at the top with {n}: another round decides.",
                                    names=names, n=top),
                                None, "tie", {"seats": leaders}))
        self.dealer = (self.dealer + 1) % len(self.seats)
        return events + self._start_round()

    def _finish(self, winner: int) -> Event:
        self._phase = "over"
        self.turn = None
        scores = tuple(self.scores)
        summary = msg("{name} wins with {n} points.", name=self.seats[winner], n=scores[winner])
        self._result = GameResult(scores, places_from_scores(scores), (winner,), summary)
        standings = ", ".join(f"{n} {s}" for n, s in zip(self.seats, scores, strict=True))
        return Event(Msg.joined(" ", [summary, msg("Final scores: {standings}.",
                                                   standings=standings)]), None, "game_over",
                     {"winners": [winner], "scores": list(scores)})

    # --- snapshots and the AI ----------------------------------------------------------------
    _PLAIN = (*PokenoBase._PLAIN, "caller", "last_turns", "reshuffles", "idle", "turns",
              "target", "turn_seconds")

    def ai_action(self, seat: int, rng: random.Random) -> Action:
        return pokeno_ai(self.view(seat))
