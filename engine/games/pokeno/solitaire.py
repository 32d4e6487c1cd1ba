"""Pyramid Po-Ke-No solitaire (seed 003, RULINGS.md): one deck with two jokers (54 cards),
seven cards in hand; each turn exactly three cards go to spaces or to the discard, then
three are drawn (fewer when the deck runs short). The game ends right after the draw that
empties the deck, or as soon as a turn completes the board (that turn may then hold fewer
than three cards, and no draw follows). Score: the points of the correct spaces, +10 per
card in hand or left in the deck, -10 per card discarded.

Decisions where the texts are silent (docs/rules/pokeno_solitaire.md): there is no clock
(nobody waits for a one-person table); every game counts as played to its end (a win, for
the records): what matters is the score, and the best one is the player's record.

>>> game = PokenoSolitaire(["Ann"], {}, random.Random(5))
>>> len(game.hands[0]), len(game.deck), game.prompt(0) is not None
(7, 47, True)
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from engine.cards import cards_to_json, label_cards, pokeno_deck, shuffled
from engine.game import Action, Event, GameResult
from engine.games.pokeno.ai import pokeno_ai
from engine.games.pokeno.base import HAND_LIMIT, PokenoBase
from engine.games.pokeno.hand import sort_cards
from engine.games.pokeno.scoring import SPACES, solitaire_score, space_title
from engine.games.registry import register
from engine.i18n import Msg, msg

__all__ = ["PLAYS", "PokenoSolitaire"]

PLAYS = 3


@register
class PokenoSolitaire(PokenoBase):
    kind = "pokeno_solitaire"
    title = "Po-Ke-No Solitaire"
    min_seats = 1
    max_seats = 1

    @classmethod
    def goal(cls, options: Mapping[str, Any], players: int) -> str:
        return msg("as many points as you can: correct spaces, +10 a card kept, -10 a card "
                   "discarded")

    def __init__(self, seats: Sequence[str], options: Mapping[str, Any] | None = None,
                 rng: random.Random | None = None) -> None:
        if len(seats) != 1:
            raise ValueError("Po-Ke-No Solitaire is for one player")
        self._init_common(seats, options, rng)
        unknown = sorted(self.options)
        if unknown:
            raise ValueError(f"unknown Po-Ke-No Solitaire options: {', '.join(unknown)}")
        self.discarded = 0
        self.deal_no = 1
        self.deck = shuffled(pokeno_deck(1), self.rng)
        self.hands = [sort_cards(self.deck[:HAND_LIMIT])]
        self.deck = self.deck[HAND_LIMIT:]
        self.turn = 0
        self._opening = [
            Event(msg("A solitaire pyramid is dealt: seven cards, 47 in the deck."), None,
                  "deal", {"deal": 1}),
            self.pyramid_event(0, msg("Your hand: {cards}.", cards=label_cards(self.hands[0]))),
        ]

    # --- hooks ---------------------------------------------------------------------------------
    def play_limit(self) -> int | None:
        return PLAYS

    def draws_after(self, seat: int) -> int:
        return min(PLAYS, len(self.deck)) if not self.board_is_complete(seat) else 0

    def why_not_end(self, seat: int) -> str | None:
        played = self.played_count()
        if played == PLAYS or self.board_is_complete(seat):
            return None
        return msg("Play exactly {n} cards a turn (to spaces or the discard): {left} more.",
                   n=PLAYS, left=PLAYS - played)

    def turn_heading(self, seat: int) -> str:
        played = self.played_count()
        if self.board_is_complete(seat):
            return msg("Your board is complete: **End turn** ends the game (no draw; every "
                       "card in your hand and the deck scores +10).")
        return msg("Play exactly {n} cards ({played} so far), then end the turn. Deck {deck}, "
                   "discarded {discarded}.", n=PLAYS, played=played, deck=len(self.deck),
                   discarded=self.discarded)

    def _extra_public(self) -> dict[str, Any]:
        return {"discarded": self.discarded}

    def _timeout(self, seat: int) -> list[Event]:
        """No clock runs for a solitaire; if one did, its turn would be played by the AI."""
        self.selection = []
        events: list[Event] = []
        for _ in range(2 * PLAYS):
            if self.why_not_end(seat) is None:
                break
            action = pokeno_ai(self.view(seat))
            if action.name in ("end", "undo", "call"):
                hand = self.current_hand(seat)
                action = Action("discard", (str(hand[0]),))
            events += self.apply(seat, action)
        return events + self._end_turn(seat)

    def _end_turn(self, seat: int) -> list[Event]:
        placed, thrown, _ = self._commit(seat)
        self.discarded += len(thrown)
        counts: dict[int, int] = {}
        for index, count in placed:
            counts[index] = counts.get(index, 0) + count
        events = [Event(self.placed_text(seat, placed, len(thrown)), None, "turn",
                        {"placed": [list(p) for p in placed], "discarded": len(thrown)})]
        if self.board_is_complete(seat):
            return events + self._finish(msg("The board is complete."))
        drawn = self.deck[:PLAYS]
        self.deck = self.deck[PLAYS:]
        self.hands[seat] = sort_cards(self.hands[seat] + drawn)
        if not self.deck:
            events.append(self.pyramid_event(seat, msg("You drew {cards}, the last of the deck.",
                                                       cards=label_cards(drawn))))
            return events + self._finish(msg("The last {n} cards of the deck are drawn.",
                                             n=len(drawn)))
        events.append(self.pyramid_event(seat, msg("You drew {cards}.",
                                                   cards=label_cards(drawn))))
        return events

    def _finish(self, why: str) -> list[Event]:
        self.turn = None
        self._phase = "over"
        board = self.boards[0]
        kept = len(self.hands[0]) + len(self.deck)
        score, verdicts = solitaire_score(board, kept, self.discarded)
        self.scores = [score]
        lines: list[str] = [Msg.joined(" ", [why, msg("{name}'s pyramid scores **{n}**",
                                                       name=self.seats[0], n=score)])]
        for i, space in enumerate(SPACES):
            v = verdicts[i]
            line = msg("{mark} {space}: {why}", mark="✅" if v.correct else "❌",
                       space=space_title(space), why=v.why)
            if v.correct:
                line = msg("{line} — **+{n}**", line=line, n=space.points)
            lines.append(line)
        spaces = sum(space.points for space, v in zip(SPACES, verdicts, strict=True)
                     if v.correct)
        thrown = msg("discarded {n} × 10 = -{points}", n=self.discarded,
                     points=10 * self.discarded) if self.discarded else msg("nothing discarded")
        lines.append(msg("Spaces {spaces}, cards kept {kept} × 10 = +{points}, {thrown}.",
                         spaces=spaces, kept=kept, points=10 * kept, thrown=thrown))
        perfect = all(v.correct for v in verdicts)
        record: dict[str, Any] = {"deal": 1, "boards": [[cards_to_json(c) for c in board]],
                  "verdicts": [[{"correct": v.correct, "why": v.why} for v in verdicts]],
                  "space_points": [[s.points if v.correct else 0
                                    for s, v in zip(SPACES, verdicts, strict=True)]],
                  "kept": kept, "discarded": self.discarded, "score": score,
                  "scores": [score], "perfect": perfect}
        self.last_deal = record
        summary = msg("{name} scores {n} with a perfect pyramid.", name=self.seats[0],
                      n=score) if perfect else msg("{name} scores {n}.", name=self.seats[0],
                                                   n=score)
        self._result = GameResult((score,), (1,), (0,), summary)
        return [
            Event(Msg.joined("\n", lines), None, "reveal", {
                "seat": 0, "board": record["boards"][0], "verdicts": record["verdicts"][0],
                "space_points": record["space_points"][0], "bonus": 0, "total": score}),
            Event(summary, None, "game_over", {"winners": list(self._result.winners),
                                               "scores": [score]}),
        ]

    _PLAIN = (*PokenoBase._PLAIN, "discarded")

    def ai_action(self, seat: int, rng: random.Random) -> Action:
        return pokeno_ai(self.view(seat))
