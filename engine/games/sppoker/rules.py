"""Sppoker (seed 000): every card is both a poker card and a letter; players declare, sealed,
whether they play their poker hand, their spelling hand (a word from their letters), or both
("double down"), and compete only against those who declared the same kind.

The rules are those of RULINGS.md; where both the seed and the rulings are silent, the choice
made is written in docs/rules/sppoker.md and marked in this module where it is coded.

Life of a hand: `declare` (sealed; may be changed until the reveal) -> the reveal, once every
seat in play has declared or timed out -> phase "reveal" until `next_hand` (any seat, or the
table manager after its pause; a TIMEOUT in that phase does the same) -> the next deal.

The resolution is a pure function, `resolve`, so each ruling can be tested on its own:

>>> from engine.words import WordCheck
>>> alice = Entry(0, "Alice", "double", 900, "flush", WordCheck(True, "ZEBRA", ""))
>>> bob = Entry(1, "Bob", "spelling", 0, "", WordCheck(True, "ZEBRAS", ""))
>>> res = resolve([alice, bob])
>>> res.points, res.notes[0][-1]
({0: -2, 1: 1}, 'double down beaten on spelling by ZEBRAS (Bob): -2')
"""

from __future__ import annotations

import random
from collections.abc import Collection, Mapping, Sequence
from typing import Any, ClassVar

from engine.cards import Card, parse_cards, shuffled, sppoker_deck
from engine.declaring import TIMED_OUT, SealedDeclarations
from engine.evaluator import evaluate
from engine.game import (
    Action,
    Choice,
    Event,
    Game,
    GameResult,
    IllegalAction,
    Prompt,
    TextAsk,
    TimerSpec,
    places_from_scores,
    rng_from_json,
    rng_to_json,
)
from engine.games.registry import register
from engine.games.sppoker.ai import choose_declaration
from engine.games.sppoker.options import (
    DEFAULT_TARGETS,
    HAND_SIZE,
    SppokerOptions,
    word_tools,
)
from engine.games.sppoker.showdown import (
    Entry,
    resolve,
    spells_sppoker,
    sppoker_cards,
)
from engine.games.sppoker.views import SppokerSeatView, SppokerView
from engine.i18n import Msg, msg, msg_n
from engine.views import json_record
from engine.words import (
    Dictionary,
    WordCheck,
    WordFinder,
    hand_letters,
    validate_word,
)

__all__ = [
    "DECLARATIONS",
    "DEFAULT_TARGETS",
    "Sppoker",
]

DECLARATIONS = ("poker", "spelling", "double")
_ALIASES = {
    "poker": "poker",
    "spelling": "spelling",
    "spell": "spelling",
    "word": "spelling",
    "double": "double",
    "both": "double",
    "double_down": "double",
    "double down": "double",
    "doubledown": "double",
}
_KIND_NAMES = {"poker": msg("poker"), "spelling": msg("spelling"),
               "double": msg("double down")}


# --- the game -------------------------------------------------------------------------


class WordDeclarations(SealedDeclarations):
    """The declarations of the word games (Sppoker, Hold'em Sppoker): poker, spelling or
    both, where a spelling declaration whose word is invalid is not complete, and a seat
    whose clock runs out with it standing is revealed with it (`expired`): the word loses
    the spelling hand, not the whole hand."""

    expired: list[bool]

    def _check(self, seat: int) -> WordCheck:
        raise NotImplementedError

    def _standing_word(self, seat: int) -> str | None:
        if self.declarations[seat] not in ("spelling", "double"):
            return None
        return self._check(seat).word or msg("no word")

    def _reveal_as_it_stands(self, seat: int) -> None:
        self.expired[seat] = True


@register
class Sppoker(WordDeclarations, Game):
    """A game of Sppoker for 2 to 8 seats. See the module docstring for its life cycle.

    `dictionary` and `finder` may be injected (tests, simulations); by default they are the
    shared ones of `options.language`. They are not part of a snapshot: `from_dict` takes
    them the same way.
    """

    kind: ClassVar[str] = "sppoker"
    title: ClassVar[str] = "Sppoker"
    min_seats: ClassVar[int] = 2
    max_seats: ClassVar[int] = 8
    options_type: ClassVar[type] = SppokerOptions
    table_options: ClassVar[frozenset[str]] = frozenset({"ai_seats"})

    @classmethod
    def goal(cls, options: Mapping[str, Any], players: int) -> str:
        target = SppokerOptions.from_json(options).target_for(max(players, cls.min_seats))
        return msg_n("first to {n} point", "first to {n} points", target)

    def __init__(
        self,
        seats: Sequence[str],
        options: SppokerOptions | Mapping[str, Any] | None = None,
        rng: random.Random | None = None,
        *,
        dictionary: Dictionary | None = None,
        finder: WordFinder | None = None,
        _deal: bool = True,
    ) -> None:
        if not self.min_seats <= len(seats) <= self.max_seats:
            raise ValueError(f"Sppoker seats {self.min_seats} to {self.max_seats} players")
        if rng is None:
            raise TypeError("a game needs its own random.Random (seeded), for exact replays")
        if not isinstance(options, SppokerOptions):
            options = SppokerOptions.from_json(options)
        self.seats = tuple(seats)
        self.options = options
        self.rng = rng
        self._set_words(dictionary, finder)
        n = len(self.seats)
        self.target = options.target_for(n)
        self.scores = [0] * n
        self.hand_no = 0
        self.deck: list[Card] = []
        self.hands: list[list[Card]] = [[] for _ in range(n)]
        self.active: tuple[int, ...] = tuple(range(n))
        self.declarations: list[str | None] = [None] * n
        self.words: list[str | None] = [None] * n
        # A seat whose time ran out with a spelling declaration and an invalid word standing:
        # done, and revealed with that word (RULINGS), unlike a seat that never declared.
        self.expired: list[bool] = [False] * n
        self._checks: dict[tuple[int, int, str | None], WordCheck] = {}
        self.playoff: tuple[int, ...] | None = None
        self.last_reveal: dict[str, Any] | None = None
        self._phase = "declare"
        self._result: GameResult | None = None
        self._opening: list[Event] = []
        if _deal:
            self._opening = self._deal()

    def _set_words(self, dictionary: Dictionary | None, finder: WordFinder | None) -> None:
        self.dictionary, self.finder = word_tools(self.options.language, dictionary, finder)

    @classmethod
    def from_hands(
        cls,
        seats: Sequence[str],
        hands: Sequence[str | Sequence[Card]],
        options: SppokerOptions | Mapping[str, Any] | None = None,
        rng: random.Random | None = None,
        *,
        scores: Sequence[int] | None = None,
        dictionary: Dictionary | None = None,
        finder: WordFinder | None = None,
    ) -> Sppoker:
        """A game whose current hand is dealt as given ("Ah Kd 2c:A *E ..." per seat; the
        letters are filled in), the rest of the deck shuffled with `rng`. For tests and
        for replaying a real deal; `scores` sets the totals before this hand."""
        game = cls(
            seats,
            options,
            rng or random.Random(0),
            dictionary=dictionary,
            finder=finder,
            _deal=False,
        )
        dealt = [sppoker_cards(hand) for hand in hands]
        if len(dealt) != len(seats) or any(len(h) != HAND_SIZE for h in dealt):
            raise ValueError(f"give {HAND_SIZE} cards for each of the {len(seats)} seats")
        flat = [card for hand in dealt for card in hand]
        if len(set(flat)) != len(flat):
            raise ValueError("a card is dealt twice")
        if scores is not None:
            game.scores = list(scores)
        rest = [card for card in sppoker_deck() if card not in set(flat)]
        game._opening = game._deal(dealt=dealt, rest=shuffled(rest, game.rng))
        return game

    # --- the Game surface -------------------------------------------------------------

    @property
    def phase(self) -> str:
        return self._phase

    @property
    def to_act(self) -> frozenset[int]:
        if self._phase != "declare":
            return frozenset()
        return frozenset(self._awaited_declarers())

    # The sealed declarations' hooks (SealedDeclarations): the seats dealt in declare.
    def _declarers(self) -> Sequence[int]:
        return self.active

    def _ai_declarers(self) -> Collection[int]:
        return self.options.ai_seats

    def _declare_clocks(self) -> tuple[float, float]:
        return self.options.declare_seconds, self.options.last_seconds

    def _declare_timer_keys(self) -> tuple[str, str]:
        return f"declare-{self.hand_no}", f"last-{self.hand_no}-"

    def _is_done(self, seat: int) -> bool:
        """Whether a seat's declaration is complete. A spelling or double-down declaration
        whose word is invalid is not (RULINGS): the reveal waits for a valid word, or for the
        seat's time to run out with the invalid word standing."""
        declaration = self.declarations[seat]
        if declaration is None:
            return False
        if declaration in (TIMED_OUT, "poker") or self.expired[seat]:
            return True
        return self._check(seat).ok

    @property
    def is_over(self) -> bool:
        return self._phase == "over"

    @property
    def result(self) -> GameResult | None:
        return self._result

    def legal_actions(self, seat: int) -> list[Action]:
        if self._phase == "reveal":
            return [Action("next_hand")]
        if self._phase != "declare" or not self._can_declare(seat):
            return []
        return [
            Action("declare", ("poker",)),
            Action("declare", ("spelling", None)),
            Action("declare", ("double", None)),
            Action("word", (None,)),
        ]

    def prompt(self, seat: int) -> Prompt | None:
        if self._phase == "reveal":
            return Prompt(
                msg("Hand {n} is over.", n=self.hand_no),
                (Choice(msg("Next hand"), Action("next_hand"), "primary"),),
            )
        if self._phase != "declare" or not self._can_declare(seat):
            return None
        letters = hand_letters(self.hands[seat])
        placeholder = msg("letters: {letters}", letters=" ".join(letters))
        current = self.declarations[seat]
        if current is None:
            text = msg("Declare poker, spelling, or both (double down).")
        elif not self._is_done(seat):
            check = self._check(seat)
            why = msg("{word} is not valid — {reason}", word=check.word, reason=check.reason) \
                if check.word else msg("No word")
            text = msg("{why}: you have not declared yet. Send another word (Spelling or "
                       "Double down), or declare Poker.", why=why)
        else:
            text = msg("You declared {declaration}. You may change it until the reveal.",
                       declaration=self._shown(seat))
        word = msg("Your word")
        choices: list[Choice | TextAsk] = [
            Choice(msg("Poker"), Action("declare", ("poker",)), "primary"),
            TextAsk(msg("Spelling"), "declare", word, placeholder, 1, 20, ("spelling",)),
            TextAsk(msg("Double down"), "declare", word, placeholder, 1, 20, ("double",)),
        ]
        return Prompt(text, tuple(choices))

    def timers(self) -> list[TimerSpec]:
        if self._phase == "reveal":
            # Any seat's TIMEOUT in the reveal starts the next hand, so one seat suffices.
            return [
                TimerSpec(
                    f"reveal-{self.hand_no}",
                    self.options.reveal_seconds,
                    (self.active[0],),
                    warn=False,
                )
            ]
        if self._phase != "declare":
            return []
        return self._declaring_timers()

    def _check_turn(self, seat: int, action: Action) -> None:
        """Any seat may ask for the next hand, and declaring is checked seat by seat
        (`_check_can_declare`): there is no turn to check here."""

    def _step(self, seat: int, action: Action) -> list[Event]:
        name = action.name
        if name == "next_hand" or (name == "timeout" and self._phase == "reveal"):
            if self._phase != "reveal":
                raise IllegalAction(msg("the hand is still being declared"))
            return self._deal()
        if self._phase != "declare":
            raise IllegalAction(msg("there is nothing to {action} now", action=name))
        last_before = self._last_person()
        if name == "timeout":
            events = self._declaration_timeout(seat)
        elif name == "declare":
            events = self._declare(seat, action.args)
        elif name == "word":
            if len(action.args) != 1:
                raise IllegalAction(msg("give the word"))
            events = self._word(seat, action.args[0])
        else:
            raise IllegalAction(msg("Sppoker has no action {action}", action=repr(name)))
        return events + self._last_call_events(last_before) + self._maybe_reveal()

    # --- declaring --------------------------------------------------------------------

    def _can_declare(self, seat: int) -> bool:
        return (
            seat in self.active
            and self.declarations[seat] != TIMED_OUT
            and not self.expired[seat]
        )

    def _check_can_declare(self, seat: int) -> None:
        if seat not in self.active:
            raise IllegalAction(msg(
                "you are not playing this hand (only the playoff players are)"))
        if self.declarations[seat] == TIMED_OUT:
            raise IllegalAction(msg("your time ran out: you lose this hand"))
        if self.expired[seat]:
            raise IllegalAction(msg(
                "your time ran out: your hand is revealed with the word you gave"))

    def _declare(self, seat: int, args: Sequence[Any]) -> list[Event]:
        self._check_can_declare(seat)
        if not args or not isinstance(args[0], str):
            raise IllegalAction(msg("declare poker, spelling or double"))
        kind = _ALIASES.get(args[0].strip().lower())
        if kind is None:
            raise IllegalAction(msg("{text} is not a declaration: poker, spelling or double",
                                    text=repr(args[0])))
        if len(args) > 2:
            raise IllegalAction(msg("declare takes a kind and, for spelling, a word"))
        word = args[1] if len(args) == 2 else None
        if word is not None and not isinstance(word, str):
            raise IllegalAction(msg("the word must be text"))
        was_done = self._is_done(seat)
        before = (self.declarations[seat], self.words[seat])
        self.declarations[seat] = kind
        if word is not None:
            self.words[seat] = word.strip()
        if was_done and not self._is_done(seat):
            self._refuse_change(seat, before)
        events = self._declared_events(seat, was_done)
        if kind != "poker":
            events.append(self._word_event(seat))
        return events

    def _refuse_change(self, seat: int, before: tuple[str | None, str | None]) -> None:
        """A complete declaration is never replaced by an incomplete one: the channel has
        counted it, so it stays, and the player is told why the new word was refused."""
        check = self._check(seat)
        self.declarations[seat], self.words[seat] = before
        kept = self._shown(seat)
        if not check.word:
            raise IllegalAction(msg("A spelling hand needs a word. Your declaration stays "
                                    "{declaration}.", declaration=kept))
        raise IllegalAction(msg("{word} is not valid — {reason}. Your declaration stays "
                                "{declaration}.", word=check.word, reason=check.reason,
                                declaration=kept))

    def _shown(self, seat: int) -> str:
        kind = self.declarations[seat]
        assert kind in _KIND_NAMES
        shown = _KIND_NAMES[kind]
        if kind != "poker":
            word = self.words[seat]
            return msg("{declaration} with {word}", declaration=shown, word=word.upper()) \
                if word else msg("{declaration} (no word yet)", declaration=shown)
        return shown

    def _declared_events(self, seat: int, was_done: bool) -> list[Event]:
        """What a declaration tells: the channel only when it completes (an invalid word
        does not declare), the player privately when it completes or changes."""
        if not self._is_done(seat):
            return []
        kind = self.declarations[seat]
        events: list[Event] = []
        if not was_done:
            done = len(self.active) - len(self.to_act)
            events.append(
                Event(
                    msg("{name} has declared ({n} of {total}).", name=self.seats[seat], n=done,
                        total=len(self.active)),
                    kind="declared",
                    data={"seat": seat, "declared": done, "of": len(self.active)},
                )
            )
        told = msg("You changed your declaration to {declaration}.",
                   declaration=self._shown(seat)) if was_done else \
            msg("You declared {declaration}.", declaration=self._shown(seat))
        events.append(
            Event(
                told,
                seat=seat,
                kind="declaration",
                data={"declaration": kind, "word": self.words[seat], "changed": was_done},
            )
        )
        return events

    def _word(self, seat: int, text: Any) -> list[Event]:
        self._check_can_declare(seat)
        if not isinstance(text, str):
            raise IllegalAction(msg("the word must be text"))
        was_done = self._is_done(seat)
        before = (self.declarations[seat], self.words[seat])
        self.words[seat] = text.strip()
        if was_done and not self._is_done(seat):
            self._refuse_change(seat, before)
        event = self._word_event(seat)
        if self.declarations[seat] in (None, "poker"):
            event = Event(
                Msg.joined(" ", [event.text, msg(
                    "(It counts only if you declare spelling or double down.)")]),
                seat=seat,
                kind=event.kind,
                data=event.data,
            )
            return [event]
        return [*self._declared_events(seat, was_done), event]

    def _check(self, seat: int) -> WordCheck:
        key = (self.hand_no, seat, self.words[seat])
        check = self._checks.get(key)
        if check is None:
            if len(self._checks) > 64:
                self._checks.clear()
            check = validate_word(self.words[seat], self.hands[seat], self.dictionary,
                                  self.options.language)
            self._checks[key] = check
        return check

    def _word_event(self, seat: int) -> Event:
        check = self._check(seat)
        pending = self.declarations[seat] in ("spelling", "double") and not check.ok
        ask = msg("You have not declared yet: send another word, or declare poker.") \
            if pending else ""
        text: str
        if check.ok:
            text = msg("{word} is a valid word ({n} letters).", word=check.word,
                       n=len(check.word))
        elif not check.word:
            text = Msg.joined(" ", [msg("You have no word yet: a spelling hand needs a word."),
                                    ask])
        else:
            text = Msg.joined(" ", [msg("{word} is not valid — {reason}.", word=check.word,
                                        reason=check.reason), ask])
        return Event(
            text,
            seat=seat,
            kind="word_check",
            data={"ok": check.ok, "word": check.word, "reason": check.reason},
        )

    def _maybe_reveal(self) -> list[Event]:
        if self.to_act:
            return []
        return self._reveal()

    # --- the deal ---------------------------------------------------------------------

    def _deal(
        self, dealt: list[list[Card]] | None = None, rest: list[Card] | None = None
    ) -> list[Event]:
        """Deal a new hand to the seats in play and check for an instant SPPOKER win."""
        self.hand_no += 1
        n = len(self.seats)
        self.active = self.playoff or tuple(range(n))
        self.declarations = [None] * n
        self.words = [None] * n
        self.expired = [False] * n
        self.hands = [[] for _ in range(n)]
        if dealt is None:
            deck = shuffled(sppoker_deck(), self.rng)
            for _ in range(HAND_SIZE):
                for seat in self.active:
                    self.hands[seat].append(deck.pop())
            self.deck = deck
        else:
            for seat, cards in enumerate(dealt):
                self.hands[seat] = list(cards)
            self.deck = list(rest or [])
        self._phase = "declare"
        events = [
            Event(
                msg("Hand {n} (playoff): cards are dealt. Declare poker, spelling or double "
                    "down.", n=self.hand_no) if self.playoff else
                msg("Hand {n}: cards are dealt. Declare poker, spelling or double down.",
                    n=self.hand_no),
                kind="dealt",
                data={
                    "hand": self.hand_no,
                    "seats": list(self.active),
                    "playoff": self.playoff is not None,
                },
            )
        ]
        for seat in self.active:
            cards = self.hands[seat]
            events.append(
                Event(
                    msg("Your hand: {cards} — letters {letters}; poker: {hand}.",
                        cards=" ".join(c.label for c in cards), letters=hand_letters(cards),
                        hand=evaluate(cards).description),
                    seat=seat,
                    kind="hand",
                    data=self._hand_data(seat),
                )
            )
        for seat in self.active:
            if spells_sppoker(self.hands[seat]):
                return events + self._win(seat, "sppoker")
        return events

    def _hand_data(self, seat: int) -> dict[str, Any]:
        cards = self.hands[seat]
        if not cards:
            return {"cards": [], "labels": [], "letters": "", "poker": None, "poker_cards": []}
        value = evaluate(cards)
        return {
            "cards": [str(c) for c in cards],
            "labels": [c.label for c in cards],
            "letters": hand_letters(cards),
            "poker": value.description,
            "poker_cards": [c.label for c in value.cards],
        }

    # --- the reveal and scoring -------------------------------------------------------

    def _entry(self, seat: int) -> Entry:
        cards = self.hands[seat]
        value = evaluate(cards)
        decl = self.declarations[seat] or TIMED_OUT
        check = self._check(seat) if decl in ("spelling", "double") else None
        return Entry(seat, self.seats[seat], decl, value.strength, value.description, check)

    def _reveal(self) -> list[Event]:
        entries = [self._entry(seat) for seat in self.active]
        res = resolve(entries)
        for seat, points in res.points.items():
            self.scores[seat] += points
        players = []
        lines: list[str] = [msg("Hand {n} revealed (playoff):", n=self.hand_no) if self.playoff
                            else msg("Hand {n} revealed:", n=self.hand_no)]
        for e in entries:
            cards = self.hands[e.seat]
            longest = self.finder.best_words(hand_letters(cards), limit=3)
            word = e.word.word if e.word else (self.words[e.seat] or "").upper() or None
            points = res.points[e.seat]
            players.append(
                {
                    "seat": e.seat,
                    "name": e.name,
                    "declaration": e.declaration,
                    **self._hand_data(e.seat),
                    "word": word if e.plays_spelling else None,
                    "word_ok": e.word.ok if e.word else None,
                    "word_reason": e.word.reason if e.word else "",
                    "points": points,
                    "score": self.scores[e.seat],
                    "notes": res.notes[e.seat],
                    "longest": longest,
                }
            )
            decl = msg("no declaration") if e.declaration == TIMED_OUT \
                else _KIND_NAMES[e.declaration]
            said = f" {word}" if e.plays_spelling and word else ""
            why = Msg.joined("; ", res.notes[e.seat]) if res.notes[e.seat] \
                else msg("no points")
            best = ", ".join(longest) if longest else msg("none")
            lines.append(msg(
                "• {name} — {declaration}{word} — {hand} — {why} (score {score}; longest "
                "possible: {best})", name=e.name, declaration=decl, word=said, hand=e.poker_text,
                why=why, score=self.scores[e.seat], best=best))
        reveal = {
            "hand": self.hand_no,
            "playoff": self.playoff is not None,
            "players": players,
            "declarations": {str(e.seat): e.declaration for e in entries},
            "points": {str(s): p for s, p in res.points.items()},
            "scores": list(self.scores),
            "poker_winners": res.poker_winners,
            "spelling_winners": res.spelling_winners,
            "double_winner": res.double_winner,
        }
        self.last_reveal = reveal
        self._phase = "reveal"
        events = [Event(Msg.joined("\n", lines), kind="reveal", data=reveal)]
        return events + self._after_scoring()

    def _after_scoring(self) -> list[Event]:
        """The target check (RULINGS: highest at or above the target wins; a tie at the
        top plays sudden-death hands among the tied players only)."""
        if self.playoff is not None:
            contenders = list(self.playoff)
        else:
            contenders = [s for s in range(len(self.seats)) if self.scores[s] >= self.target]
            if not contenders:
                return []
        top = max(self.scores[s] for s in contenders)
        leaders = tuple(s for s in contenders if self.scores[s] == top)
        if len(leaders) == 1:
            return self._win(leaders[0], "playoff" if self.playoff else "target")
        # Unspecified by the rules: a playoff narrows to those still tied at the top.
        self.playoff = leaders
        names = ", ".join(self.seats[s] for s in leaders)
        return [
            Event(
                msg("{names} are tied at {score}: sudden-death playoff between them.",
                    names=names, score=top),
                kind="playoff",
                data={"seats": list(leaders), "score": top},
            )
        ]

    def _win(self, seat: int, reason: str) -> list[Event]:
        self._phase = "over"
        name = self.seats[seat]
        if reason == "sppoker":
            cards = self.hands[seat]
            summary = msg("{name} holds {cards}, which spells SPPOKER, and wins the game at "
                          "once!", name=name, cards=" ".join(c.label for c in cards))
        elif reason == "playoff":
            summary = msg("{name} wins the playoff with {n} points.", name=name,
                          n=self.scores[seat])
        else:
            summary = msg("{name} reaches {n} of {target} points and wins.", name=name,
                          n=self.scores[seat], target=self.target)
        others = [s for s in range(len(self.seats)) if s != seat]
        other_places = places_from_scores([self.scores[s] for s in others])
        places = [1] * len(self.seats)
        for s, place in zip(others, other_places, strict=True):
            places[s] = place + 1
        self._result = GameResult(tuple(self.scores), tuple(places), (seat,), summary)
        data: dict[str, Any] = {"winner": seat, "reason": reason, "scores": list(self.scores)}
        if reason == "sppoker":
            data |= {
                "cards": [str(c) for c in self.hands[seat]],
                "labels": [c.label for c in self.hands[seat]],
            }
        return [Event(summary, kind="game_over", data=data)]

    # --- views ------------------------------------------------------------------------

    def _common_view(self) -> dict[str, Any]:
        """The public fields, as keyword arguments: both views are built from them."""
        to_act = self.to_act
        declared = [s for s in self.active if s not in to_act]
        return {
            "kind": self.kind,
            "names": self.seats,
            "scores": tuple(self.scores),
            "phase": self._phase,
            "to_act": tuple(sorted(to_act)),
            "deal": self.hand_no,
            "result": self._result,
            "target": self.target,
            "active": self.active,
            "playoff": self.playoff or None,
            "declared_count": len(declared) if self._phase == "declare" else len(self.active),
            "last_reveal": json_record(self.last_reveal) if self._phase != "declare" else None,
        }

    def public_view(self) -> SppokerView:
        return SppokerView(**self._common_view())

    def view(self, seat: int) -> SppokerSeatView:
        data = self._hand_data(seat)
        return SppokerSeatView(
            **self._common_view(),
            seat=seat,
            hand=tuple(data["cards"]),
            labels=tuple(data["labels"]),
            letters=data["letters"],
            poker=data["poker"],
            poker_cards=tuple(data["poker_cards"]),
            declaration=self.declarations[seat],
            word=self.words[seat],
            word_check=self._check(seat) if self.words[seat] is not None else None,
        )

    # --- snapshots --------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "version": 1,
            "seats": list(self.seats),
            "options": self.options.to_json(),
            "rng": rng_to_json(self.rng),
            "scores": list(self.scores),
            "hand_no": self.hand_no,
            "deck": [str(c) for c in self.deck],
            "hands": [[str(c) for c in hand] for hand in self.hands],
            "active": list(self.active),
            "declarations": list(self.declarations),
            "words": list(self.words),
            "expired": list(self.expired),
            "playoff": list(self.playoff) if self.playoff is not None else None,
            "phase": self._phase,
            "last_reveal": self.last_reveal,
            "result": self._result.to_json() if self._result else None,
        }

    @classmethod
    def from_dict(
        cls,
        data: Mapping[str, Any],
        *,
        dictionary: Dictionary | None = None,
        finder: WordFinder | None = None,
    ) -> Sppoker:
        if data.get("kind") != cls.kind:
            raise ValueError(f"not a Sppoker snapshot: {data.get('kind')!r}")
        game = cls(
            data["seats"],
            SppokerOptions.from_json(data["options"]),
            rng_from_json(data["rng"]),
            dictionary=dictionary,
            finder=finder,
            _deal=False,
        )
        game.scores = list(data["scores"])
        game.hand_no = int(data["hand_no"])
        game.deck = parse_cards(data["deck"])
        game.hands = [parse_cards(hand) for hand in data["hands"]]
        game.active = tuple(data["active"])
        game.declarations = list(data["declarations"])
        game.words = list(data["words"])
        game.expired = list(data.get("expired") or [False] * len(game.seats))
        game.playoff = tuple(data["playoff"]) if data["playoff"] is not None else None
        game._phase = data["phase"]
        game.last_reveal = data["last_reveal"]
        game._result = GameResult.from_json(data["result"]) if data["result"] else None
        return game

    # --- AI ---------------------------------------------------------------------------

    def ai_action(self, seat: int, rng: random.Random) -> Action:
        """Declare from what `view(seat)` shows (own cards only), per `options.ai_skill`:
        0 picks by simple thresholds; 1 estimates by Monte Carlo its chance of beating every
        opponent on each kind; 2 also models which kind each opponent would declare and
        maximises expected points (double down: +4 against -2)."""
        if self._phase == "reveal":
            return Action("next_hand")
        if self._phase != "declare" or not self._can_declare(seat):
            raise IllegalAction(msg("nothing to decide now"))
        view = self.view(seat)
        cards = parse_cards(view.hand)
        opponents = len(view.active) - 1
        skill = self.options.skill_of(seat)
        if view.playoff and skill == 2:
            # In a playoff a point only helps when the others do not score too: taking the
            # kind nobody else contests would just keep the tie, so contest everything.
            skill = 1
        kind, word = choose_declaration(cards, opponents, self.finder, rng, skill=skill)
        if kind == "poker" or not validate_word(word, self.hands[seat], self.dictionary).ok:
            # A word the table's dictionary refuses would leave the AI undeclared forever.
            return Action("declare", ("poker",))
        return Action("declare", (kind, word))
