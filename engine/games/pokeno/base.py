"""What Pyramid Po-Ke-No and its solitaire share: boards of ten spaces, a turn of several
steps, the views, the prompt and the snapshot.

A turn is a list of tentative steps (place cards face down on a space, discard cards, and,
in the multiplayer game, call "full board"), any of which can be undone, until the player
ends the turn; only then do the steps take effect (the public sees them), and the draw
follows. So until "End turn" nothing public changes: `hands` and `boards` hold the state as
of the turn's start, and the acting seat's current hand and board are derived from them and
`pending`. `selection` is a convenience of the menus: cards picked, waiting for a space.

Actions (JSON-safe; cards as their texts, spaces by key such as "pair" or "royal_flush"):
`pick` (cards: add them to the selection; no cards: clear it), `place` (space, cards...),
`discard` (cards...), `undo`, `call` (multiplayer), `end`, and the clock's `timeout`.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Mapping, Sequence
from typing import Any

from engine.cards import Card, cards_from_json, cards_to_json, label_cards
from engine.game import (
    Action,
    CardPick,
    Choice,
    Event,
    Game,
    GameResult,
    IllegalAction,
    Prompt,
    rng_from_json,
    rng_to_json,
)
from engine.games.pokeno.hand import menu_texts, parse_picked, remove_cards, sort_cards
from engine.games.pokeno.scoring import SPACES, board_complete, space_index, space_name
from engine.games.pokeno.views import PokenoSeatView, PokenoView
from engine.i18n import Msg, msg, msg_n
from engine.views import json_record

__all__ = [
    "HAND_LIMIT",
    "PokenoBase",
]

HAND_LIMIT = 7
DRAW = 3

BUTTON_NAMES = (msg("Any two"), msg("One pair"), msg("Two pair"), msg("Three of a kind"),
                msg("Straight"), msg("Flush"), msg("Full house"), msg("Four of a kind"),
                msg("Straight flush"), msg("Royal flush"))


class PokenoBase(Game):
    """The shared machinery; subclasses deal, end turns and score."""

    hand_limit = HAND_LIMIT

    seats: tuple[str, ...]
    options: dict[str, Any]
    deck: list[Card]
    discards: list[Card]
    hands: list[list[Card]]
    boards: list[list[list[Card]]]
    scores: list[int]

    def _init_common(self, seats: Sequence[str], options: Mapping[str, Any] | None,
                     rng: random.Random | None) -> None:
        self.seats = tuple(seats)
        self.options = dict(options or {})
        self.rng = rng if rng is not None else random.Random()
        n = len(self.seats)
        self.deck, self.discards = [], []
        self.hands = [[] for _ in range(n)]
        self.boards = [[[] for _ in SPACES] for _ in range(n)]
        self.scores = [0] * n
        self.turn: int | None = None
        self.pending: list[dict[str, Any]] = []
        self.selection: list[Card] = []
        self.deal_no = 0
        self.dealer = 0
        self.step = 0
        self._phase = "turn"
        self._result: GameResult | None = None
        self.last_deal: dict[str, Any] | None = None

    # --- the shape every game has -------------------------------------------------------------
    @property
    def phase(self) -> str:
        return self._phase

    @property
    def to_act(self) -> frozenset[int]:
        if self._phase != "turn" or self.turn is None:
            return frozenset()
        return frozenset({self.turn})

    @property
    def is_over(self) -> bool:
        return self._phase == "over"

    @property
    def result(self) -> GameResult | None:
        return self._result

    # --- the turn in progress -----------------------------------------------------------------
    def current_hand(self, seat: int) -> list[Card]:
        if seat != self.turn:
            return list(self.hands[seat])
        used = [card for step in self.pending for card in step.get("cards", ())]
        return remove_cards(self.hands[seat], cards_from_json(used))

    def current_board(self, seat: int) -> list[list[Card]]:
        board = [list(cards) for cards in self.boards[seat]]
        if seat == self.turn:
            for step in self.pending:
                if step["op"] == "place":
                    board[step["space"]] += cards_from_json(step["cards"])
        return board

    def turn_called(self) -> bool:
        return any(step["op"] == "call" for step in self.pending)

    def played_count(self) -> int:
        """Cards placed or discarded so far this turn."""
        return sum(len(step.get("cards", ())) for step in self.pending)

    def draws_after(self, seat: int) -> int:
        """How many cards "End turn" would draw now (before the deck runs short)."""
        return max(0, min(DRAW, self.hand_limit - len(self.current_hand(seat))))

    # Hooks the two games fill in.
    def play_limit(self) -> int | None:
        """At most this many cards a turn (solitaire: exactly 3), or None."""
        return None

    def can_call(self, seat: int) -> bool:
        return False

    def why_not_end(self, seat: int) -> str | None:
        """Why "End turn" is refused now, or None."""
        return None

    def _end_turn(self, seat: int) -> list[Event]:
        raise NotImplementedError

    def _timeout(self, seat: int) -> list[Event]:
        raise NotImplementedError

    # --- actions ------------------------------------------------------------------------------
    def legal_actions(self, seat: int) -> list[Action]:
        """Single-card steps (several cards at once are the same steps in one action), undo,
        the call and the end of the turn."""
        if seat not in self.to_act:
            return []
        actions: list[Action] = []
        limit = self.play_limit()
        if limit is None or self.played_count() < limit:
            board = self.current_board(seat)
            for card in sort_cards(set(self.current_hand(seat))):
                for i, space in enumerate(SPACES):
                    if len(board[i]) < space.size:
                        actions.append(Action("place", (space.name.lower(), str(card))))
                actions.append(Action("discard", (str(card),)))
        if self.pending:
            actions.append(Action("undo"))
        if self.can_call(seat):
            actions.append(Action("call"))
        if self.why_not_end(seat) is None:
            actions.append(Action("end"))
        return actions

    def _step(self, seat: int, action: Action) -> list[Event]:
        name = action.name
        if name == "timeout":
            events = self._timeout(seat)
        elif name == "pick":
            events = self._pick(seat, action.args)
        elif name == "place":
            events = self._place(seat, action.args)
        elif name == "discard":
            events = self._discard(seat, action.args)
        elif name == "undo":
            events = self._undo(seat)
        elif name == "call":
            if not self.can_call(seat):
                raise IllegalAction(self.why_not_call(seat))
            self.pending.append({"op": "call"})
            events = [self.pyramid_event(seat, msg(
                "You will call **full board** when you end this turn."))]
        elif name == "end":
            reason = self.why_not_end(seat)
            if reason is not None:
                raise IllegalAction(reason)
            events = self._end_turn(seat)
        else:
            raise IllegalAction(msg("Place cards, discard, undo or end your turn."))
        self.step += 1
        return events

    def why_not_call(self, seat: int) -> str:
        return msg("Full board can be called only on your turn, once all ten spaces are "
                   "complete.")

    def _check_room(self, count: int) -> None:
        limit = self.play_limit()
        if limit is not None and self.played_count() + count > limit:
            left = limit - self.played_count()
            raise IllegalAction(msg("You play exactly {limit} cards a turn: {left} more now.",
                                    limit=limit, left=left))

    def _pick(self, seat: int, args: Sequence[Any]) -> list[Event]:
        if not args:
            self.selection = []
            return []
        hand = remove_cards(self.current_hand(seat), self.selection)
        picked = parse_picked(args, hand)
        self._check_room(len(self.selection) + len(picked))
        self.selection += picked
        return []

    def _place(self, seat: int, args: Sequence[Any]) -> list[Event]:
        if not args:
            raise IllegalAction(msg("Name a space and the cards to place on it."))
        try:
            index = space_index(args[0])
        except ValueError as error:
            raise IllegalAction(msg("{text} is not a space of the board.",
                                    text=repr(args[0]))) from error
        cards = parse_picked(args[1:], self.current_hand(seat))
        if not cards:
            raise IllegalAction(msg("Pick the cards to place first."))
        space = SPACES[index]
        have = len(self.current_board(seat)[index])
        if have + len(cards) > space.size:
            room = space.size - have
            raise IllegalAction(msg("The {space} space takes {size} cards: room for {room} "
                                    "more, not {n}.", space=space_name(space),
                                    size=space.size, room=room, n=len(cards)))
        self._check_room(len(cards))
        self.pending.append({"op": "place", "space": index, "cards": cards_to_json(cards)})
        self._unselect(cards)
        text = msg("Placed {cards} on {space} ({have}/{size}), face down.",
                   cards=label_cards(cards), space=space_name(space), have=have + len(cards),
                   size=space.size)
        return [self.pyramid_event(seat, text)]

    def _discard(self, seat: int, args: Sequence[Any]) -> list[Event]:
        cards = parse_picked(args, self.current_hand(seat))
        if not cards:
            raise IllegalAction(msg("Pick the cards to discard first."))
        self._check_room(len(cards))
        self.pending.append({"op": "discard", "cards": cards_to_json(cards)})
        self._unselect(cards)
        return [self.pyramid_event(seat, msg("Discarded {cards}.", cards=label_cards(cards)))]

    def _unselect(self, cards: Sequence[Card]) -> None:
        left = list(self.selection)
        for card in cards:
            if card in left:
                left.remove(card)
        self.selection = left

    def _undo(self, seat: int) -> list[Event]:
        if not self.pending:
            raise IllegalAction(msg("Nothing to undo this turn."))
        step = self.pending.pop()
        self.selection = []
        if step["op"] == "call":
            text = msg("Undone: the full board call.")
        elif step["op"] == "place":
            text = msg("Undone: {cards} back from {space}.",
                       cards=label_cards(cards_from_json(step["cards"])),
                       space=space_name(SPACES[step["space"]]))
        else:
            text = msg("Undone: the discard of {cards}.",
                       cards=label_cards(cards_from_json(step["cards"])))
        return [self.pyramid_event(seat, text)]

    def _commit(self, seat: int) -> tuple[list[tuple[int, int]], list[Card], bool]:
        """The turn's steps take effect: (space, count) placed, cards discarded, a call."""
        placed: list[tuple[int, int]] = []
        thrown: list[Card] = []
        called = False
        for step in self.pending:
            cards = cards_from_json(step.get("cards", ()))
            if step["op"] == "place":
                self.boards[seat][step["space"]] += cards
                placed.append((step["space"], len(cards)))
            elif step["op"] == "discard":
                thrown += cards
            else:
                called = True
            self.hands[seat] = remove_cards(self.hands[seat], cards)
        self.discards += thrown
        self.pending = []
        self.selection = []
        return placed, thrown, called

    def placed_text(self, seat: int, placed: Sequence[tuple[int, int]], thrown: int,
                    drawn: int | None = None) -> str:
        """The public account of a turn: how many cards went where (face down), how many
        were discarded (face down too: nobody may take them), never which."""
        counts: dict[int, int] = {}
        for index, count in placed:
            counts[index] = counts.get(index, 0) + count
        parts = []
        board = self.boards[seat]
        for index in sorted(counts):
            space = SPACES[index]
            parts.append(msg("{n} on {space} ({have}/{size})", n=counts[index],
                             space=space_name(space), have=len(board[index]),
                             size=space.size))
        name = self.seats[seat]
        total = sum(counts.values())
        what: list[str] = []
        if total:
            what.append(msg_n("placed {n} card face down: {spaces}",
                              "placed {n} cards face down: {spaces}", total,
                              spaces=Msg.joined(", ", parts)))
        if thrown:
            what.append(msg("discarded {n}", n=thrown))
        if not what:
            what.append(msg("passes"))
        if drawn:
            what.append(msg("draws {n}", n=drawn))
        return msg("{name} {what}.", name=name, what=Msg.joined("; ", what))

    # --- what the seat sees -------------------------------------------------------------------
    def pyramid_event(self, seat: int, text: str) -> Event:
        """A private event carrying the seat's board and hand, for its picture. `text` is
        the seat's news, kept in its log; "" for none (a picture of its board as its turn
        begins or ends: the prompt's one current line says so, where a log of "Your turn is
        over." / "Your turn." turn after turn pushed out what it drew)."""
        board = self.current_board(seat)
        fresh = self.fresh_indices(seat)
        data = {
            "board": [cards_to_json(cards) for cards in board],
            "fresh": [list(marks) for marks in fresh],
            "hand": cards_to_json(sort_cards(self.current_hand(seat))),
            "round": self.deal_no,
        }
        return Event(text, seat, "pyramid", data)

    def fresh_indices(self, seat: int) -> list[tuple[int, ...]]:
        committed = [len(cards) for cards in self.boards[seat]]
        board = self.current_board(seat)
        return [tuple(range(committed[i], len(board[i]))) for i in range(len(SPACES))]

    def _public_fields(self) -> dict[str, Any]:
        return {
            **self._view_header(self.scores, self.deal_no),
            "dealer": self.dealer,
            "turn": self.turn,
            "deck": len(self.deck),
            "discards": len(self.discards),
            "hand_sizes": tuple(len(hand) for hand in self.hands),
            "board_counts": tuple(tuple(len(cards) for cards in board) for board in self.boards),
            "last_deal": json_record(self.last_deal),
            **self._extra_public(),
        }

    def _extra_public(self) -> dict[str, Any]:
        return {}

    def public_view(self) -> PokenoView:
        return PokenoView(**self._public_fields())

    def view(self, seat: int) -> PokenoSeatView:
        mine = seat == self.turn and self._phase == "turn"
        return PokenoSeatView(
            **self._public_fields(),
            seat=seat,
            hand=tuple(cards_to_json(sort_cards(self.current_hand(seat)))),
            board=tuple(tuple(cards_to_json(cards)) for cards in self.current_board(seat)),
            fresh=tuple(self.fresh_indices(seat)),
            selection=tuple(cards_to_json(self.selection)) if mine else (),
            steps=tuple(dict(step) for step in self.pending) if mine else (),
            draws=self.draws_after(seat) if mine else 0,
            can_call=mine and self.can_call(seat),
            called=mine and self.turn_called(),
        )

    def prompt(self, seat: int) -> Prompt | None:
        if seat not in self.to_act:
            return None
        hand = sort_cards(self.current_hand(seat))
        board = self.current_board(seat)
        free = sort_cards(remove_cards(hand, self.selection))
        limit = self.play_limit()
        left = None if limit is None else limit - self.played_count()
        choices: list[Choice | CardPick] = []
        lines = [self.turn_heading(seat)]
        if self.selection:
            lines.append(msg("Selected: {cards} — now choose a space (or Discard).",
                             cards=label_cards(self.selection)))
        elif hand and left != 0:
            lines.append(msg("Pick cards in the menu, then a space for them (or Discard)."))
        if free and left != 0:
            room = len(free) if left is None else min(len(free), left - len(self.selection))
            if room > 0:
                word = msg("Add to the selection") if self.selection else msg("Pick cards")
                choices.append(CardPick(word, "pick", tuple(menu_texts(free)), 1, room,
                                        tuple(card.label for card in free)))
        if self.selection:
            n = len(self.selection)
            for i, space in enumerate(SPACES):
                have = len(board[i])
                if have + n <= space.size:
                    choices.append(Choice(msg("{space} {have}/{size}", space=BUTTON_NAMES[i],
                                              have=have, size=space.size),
                                          Action("place", (space.name.lower(),
                                                           *cards_to_json(self.selection))),
                                          "primary"))
            choices.append(Choice(msg("Discard"), Action("discard",
                                                    tuple(cards_to_json(self.selection))),
                                  "danger"))
            choices.append(Choice(msg("Clear selection"), Action("pick", ()), "secondary"))
        if self.pending:
            choices.append(Choice(msg("Undo"), Action("undo"), "secondary"))
        if self.can_call(seat):
            choices.append(Choice(msg("Full board!"), Action("call"), "success"))
        reason = self.why_not_end(seat)
        draws = self.draws_after(seat)
        label = msg("End turn (draw {n})", n=draws) if draws and self.draw_on_end() else \
            msg("End turn")
        # Not pressable until it can be: the heading says what is still to play.
        choices.append(Choice(label, Action("end"), "success", reason, locked=bool(reason)))
        return Prompt(Msg.joined("\n", lines), tuple(choices))

    def draw_on_end(self) -> bool:
        return True

    def turn_heading(self, seat: int) -> str:
        return msg("Your turn.")

    # --- snapshots ----------------------------------------------------------------------------
    _PLAIN: tuple[str, ...] = ("scores", "turn", "pending", "deal_no", "dealer", "step",
                               "last_deal")

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "kind": self.kind,
            "seats": list(self.seats),
            "options": dict(self.options),
            "rng": rng_to_json(self.rng),
            "phase": self._phase,
            "deck": cards_to_json(self.deck),
            "discards": cards_to_json(self.discards),
            "hands": [cards_to_json(hand) for hand in self.hands],
            "boards": [[cards_to_json(cards) for cards in board] for board in self.boards],
            "selection": cards_to_json(self.selection),
            "result": self._result.to_json() if self._result else None,
        }
        for name in self._PLAIN:
            data[name] = _copy(getattr(self, name))
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> PokenoBase:
        game = cls.__new__(cls)
        for name in cls._PLAIN:
            setattr(game, name, _copy(data[name]))
        game.seats = tuple(data["seats"])
        game.options = dict(data["options"])
        game.rng = rng_from_json(data["rng"])
        game._phase = data["phase"]
        game.deck = cards_from_json(data["deck"])
        game.discards = cards_from_json(data["discards"])
        game.hands = [cards_from_json(hand) for hand in data["hands"]]
        game.boards = [[cards_from_json(cards) for cards in board] for board in data["boards"]]
        game.selection = cards_from_json(data["selection"])
        game._result = GameResult.from_json(data["result"]) if data["result"] else None
        game._opening = []
        game._restore_extra(data)
        return game

    def _restore_extra(self, data: Mapping[str, Any]) -> None:
        pass

    def board_is_complete(self, seat: int) -> bool:
        return board_complete(self.current_board(seat))


def _copy(value: Any) -> Any:
    return copy.deepcopy(value)
