"""Hold'em Sppoker (the variation in seed 000): Texas Hold'em with the 56-card Sppoker deck,
where each pot is split between the best poker hand and the best word.

One `HoldemSppoker` game is ONE DEAL, the contract of every chip game (see badugi.py): the
table builds a game per deal from the stacks it carries (`stacks`, required) and the dealer
seat (`button`), and moves the stacks by `result.chips` when it ends.

The deal, as RULINGS.md rules it: blinds 5/10, two hole cards each (one at a time from the
dealer's left), a betting round, the flop (3 cards), a round, the turn, a round, the river, a
round; fixed limit 10/10/20/20 through the betting kit (engine/chips/betting.py): a bet and three
raises a round (the big blind is the first bet before the flop), all-ins and side pots, a
lone player left after folds takes everything unseen. A card is burned before each street.

Then the players still in declare, sealed and at once, with Sppoker's machinery
(engine/games/sppoker/rules.py, engine/words.py): poker, spelling or both, with a word for the
last two, made from the letters of their own seven cards (hole and board), each card once. An
invalid word does not declare: the player is told why and asked again; if their time runs out
with it standing, the hand is revealed with it and it loses spelling. A player whose time
runs out without a declaration has declared nothing and loses the hand, as in every game
with declarations (the clocks are Sppoker's `SealedDeclarations`). Poker is the best five
of the seven, SPPOKER cards wild.

Each pot is resolved among the players eligible for it by the kit's `declared_shares` with
poker as its "high" side and spelling as its "low" side: half to each side's winner(s), the
odd chip to poker; a side without a winner goes whole to the other's; "both" must be strictly
best on both sides or loses both; a pot nobody wins is shared by those in it who declared.

>>> from engine.words import WordFinder, WordListDictionary
>>> words = WordListDictionary(["tea", "at"])
>>> game = HoldemSppoker(["Ann", "Bob", "Cid"], {"stacks": [200, 200, 200]},
...                      random.Random(1), dictionary=words, finder=WordFinder(["tea"], words))
>>> game.phase, sorted(game.to_act), game.public_view().pot
('bet', [0], 15)
>>> [choice.label for choice in game.prompt(0).choices]
['Fold', 'Call 10', 'Raise to 20']
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from engine.cards import Card, cards_from_json, cards_to_json, label_cards, shuffled, sppoker_deck
from engine.chips.bet_prompts import bet_names
from engine.chips.betting import Betting, Structure
from engine.chips.deal import ChipDeal, check_stakes
from engine.chips.pots import Declaration, Pot, declared_shares, shared_by
from engine.chips.pots import resolve_declarations as resolve_pot
from engine.declaring import TIMED_OUT, TableDeclarations, declaring_options
from engine.evaluator import evaluate, strength_of_codes
from engine.game import (
    TIMEOUT,
    Action,
    Choice,
    Event,
    GameResult,
    IllegalAction,
    Prompt,
    TextAsk,
    TimerSpec,
    rng_from_json,
)
from engine.games.holdem_sppoker.ai import (
    holdem_sppoker_ai,
)
from engine.games.holdem_sppoker.layout import (
    BOARD,
    HOLE,
    ROUNDS,
    SIDES,
    STREET_CARDS,
    STREETS,
)
from engine.games.holdem_sppoker.views import HoldemSppokerSeatView, HoldemSppokerView
from engine.games.registry import register
from engine.games.sppoker.options import word_tools
from engine.games.sppoker.rules import _ALIASES, WordDeclarations
from engine.games.sppoker.showdown import sppoker_cards
from engine.i18n import Msg, msg, names_and
from engine.words import (
    Dictionary,
    WordCheck,
    WordFinder,
    hand_letters,
    validate_word,
    word_rank,
)

__all__ = [
    "HoldemSppoker",
]

STREET_DEALT = {"flop": msg("The flop: {cards}. Board: {board} (letters {letters}). Pot {pot}."),
                "turn": msg("The turn: {cards}. Board: {board} (letters {letters}). Pot {pot}."),
                "river": msg("The river: {cards}. Board: {board} (letters {letters}). Pot {pot}.")}
TURN_SECONDS = 60.0
DEFAULTS: dict[str, Any] = {
    "button": 0, "small_blind": 5, "big_blind": 10, "small_bet": 10, "big_bet": 20,
}
WORD_OPTIONS = ("language", "declare_seconds", "last_seconds", "ai_seats")
KIND_NAMES = {"poker": msg("poker"), "spelling": msg("spelling"), "double": msg("both")}


def _check_options(options: Mapping[str, Any], seats: int) -> dict[str, Any]:
    settings = check_stakes("Hold'em Sppoker", options, seats, DEFAULTS, WORD_OPTIONS)
    if not 0 < settings["small_blind"] <= settings["big_blind"] <= settings["small_bet"]:
        raise ValueError("the blinds must be positive, the small one no bigger than the big "
                         "one, and the big blind no bigger than the small bet")
    language = options.get("language", "en_US")
    if not isinstance(language, str) or not language:
        raise ValueError("language names a dictionary, such as en_US")
    return {**settings, "language": language, **declaring_options(options, seats)}


@register
class HoldemSppoker(WordDeclarations, TableDeclarations, ChipDeal):
    """One deal of fixed-limit Hold'em Sppoker. Options: `stacks` (required), `button` (0),
    `small_blind` (5), `big_blind` (10), `small_bet` (10), `big_bet` (20), `language`
    (en_US: the dictionary that judges words), `declare_seconds` (120: the whole table's
    declaration clock), `last_seconds` (10: the last person to declare); `ai_seats` is
    filled in by the table (AI seats count as declared for the last person's clock).

    `dictionary` and `finder` may be injected (tests, simulations), as for Sppoker; by
    default they are the shared ones of `language`. `deck` stacks the deck (the top first),
    for tests and for replaying a real deal: see `from_deal`.
    """

    kind: ClassVar[str] = "holdem_sppoker"
    title: ClassVar[str] = "Hold'em Sppoker"
    min_seats: ClassVar[int] = 2
    max_seats: ClassVar[int] = 8
    table_options: ClassVar[frozenset[str]] = frozenset({"ai_seats"})

    @classmethod
    def goal(cls, options: Mapping[str, Any], players: int) -> str:
        return msg("each pot split between the best poker hand and the best word; stacks "
                   "carry")

    def __init__(
        self,
        seats: Sequence[str],
        options: Mapping[str, Any] | None = None,
        rng: random.Random | None = None,
        *,
        dictionary: Dictionary | None = None,
        finder: WordFinder | None = None,
        deck: Sequence[Card] | None = None,
        _deal: bool = True,
    ) -> None:
        self._check_seat_count(len(seats))
        self.seats = tuple(seats)
        self.options = dict(options or {})
        settings = _check_options(self.options, len(seats))
        self.settings = settings
        self.rng = rng if rng is not None else random.Random()
        self._set_words(dictionary, finder)
        structure = Structure(
            small_bet=settings["small_bet"],
            big_bet=settings["big_bet"],
            rounds=ROUNDS,
            blinds=(settings["small_blind"], settings["big_blind"]),
        )
        self.betting = Betting(settings["stacks"], structure, settings["button"])
        n = len(seats)
        self.stock: list[Card] = list(deck) if deck is not None else shuffled(
            sppoker_deck(), self.rng)
        self.hands: list[list[Card]] = [[] for _ in range(n)]  # the hole cards
        self.board: list[Card] = []
        self.burned: list[Card] = []
        self.last_actions = [""] * n
        self.declarations: list[str | None] = [None] * n
        self.words: list[str | None] = [None] * n
        self.expired = [False] * n  # time ran out with an invalid word standing
        self._phase = "bet"
        self.step = 0
        self.showdown: dict[str, Any] | None = None
        self._result: GameResult | None = None
        self._opening: list[Event] = self._deal() if _deal else []

    def _set_words(self, dictionary: Dictionary | None, finder: WordFinder | None) -> None:
        self.dictionary, self.finder = word_tools(self.settings["language"], dictionary, finder)

    @classmethod
    def from_deal(
        cls,
        seats: Sequence[str],
        holes: Sequence[str],
        board: str,
        options: Mapping[str, Any],
        rng: random.Random | None = None,
        *,
        dictionary: Dictionary | None = None,
        finder: WordFinder | None = None,
    ) -> HoldemSppoker:
        """A deal whose hole cards ("Ah Kd" per seat, letters filled in) and board (five
        cards) are as given; the burns and the rest come from the shuffled remainder."""
        rng = rng or random.Random(0)
        hole_cards = [sppoker_cards(text) for text in holes]
        board_cards = sppoker_cards(board)
        if len(hole_cards) != len(seats) or any(len(h) != HOLE for h in hole_cards):
            raise ValueError(f"give {HOLE} hole cards for each of the {len(seats)} seats")
        if len(board_cards) != BOARD:
            raise ValueError(f"give the {BOARD} board cards")
        dealt = [c for hole in hole_cards for c in hole] + board_cards
        if len(set(dealt)) != len(dealt):
            raise ValueError("a card is dealt twice")
        rest = shuffled([c for c in sppoker_deck() if c not in set(dealt)], rng)
        button = int(options.get("button", 0)) % len(seats)
        order = [(button + k) % len(seats) for k in range(1, len(seats) + 1)]
        deck = [hole_cards[seat][r] for r in range(HOLE) for seat in order]
        deck += [rest.pop(), *board_cards[:3], rest.pop(), board_cards[3], rest.pop(),
                 board_cards[4], *rest]
        return cls(seats, options, rng, dictionary=dictionary, finder=finder, deck=deck)

    # --- the shape every game has ------------------------------------------------------------
    @property
    def to_act(self) -> frozenset[int]:
        if self._phase == "bet" and self.betting.actor is not None:
            return frozenset({self.betting.actor})
        if self._phase == "declare":
            return frozenset(self._awaited_declarers())
        return frozenset()

    def timers(self) -> list[TimerSpec]:
        if self.is_over:
            return []
        if self._phase == "bet":
            return [TimerSpec(f"holdem-sppoker-{self.step}", TURN_SECONDS,
                              tuple(sorted(self.to_act)))]
        return self._declaring_timers()

    # The sealed declarations' hooks (SealedDeclarations): the players still in declare.
    def _declarers(self) -> Sequence[int]:
        return self.betting.live

    def _declare_timer_keys(self) -> tuple[str, str]:
        return "holdem-sppoker-declare", "holdem-sppoker-last-"

    # --- dealing -----------------------------------------------------------------------------
    def _deal(self) -> list[Event]:
        b = self.betting
        posted = b.start_round()  # posts the blinds
        order = b.order_from_button()
        for _ in range(HOLE):
            for seat in order:
                self.hands[seat].append(self.stock.pop(0))
        small, big = posted
        told: list[str] = [msg(
            "Hold'em Sppoker: {name} deals. Blinds: {small} {small_n}, {big} {big_n}.",
            name=self.seats[self.button], small=self.seats[small.seat], small_n=small.amount,
            big=self.seats[big.seat], big_n=big.amount)]
        short = [self.seats[p.seat] for p in posted if p.all_in]
        if short:
            told.append(msg("All-in on the blind: {names}.", names=", ".join(short)))
        events = [Event(Msg.joined(" ", told), None, "deal",
                        {"button": self.button, **self._chips()})]
        for seat in range(self.n):
            events.append(self._hand_event(seat))
        return events + self._advance()

    def _cards_of(self, seat: int) -> list[Card]:
        """The seat's own cards and the board: what its poker hand and its word are made of."""
        return self.hands[seat] + self.board

    def _hand_text(self, seat: int) -> str:
        cards = self._cards_of(seat)
        hand, letters = label_cards(self.hands[seat]), hand_letters(cards)
        if not self.board:
            return msg("{cards} — letters {letters}", cards=hand, letters=letters)
        return msg("{cards} with the board {board} — letters {letters}; poker: {hand}",
                   cards=hand, board=label_cards(self.board), letters=letters,
                   hand=evaluate(cards).description)

    def _hand_event(self, seat: int) -> Event:
        data = {"hand": cards_to_json(self.hands[seat]), "board": cards_to_json(self.board),
                "letters": hand_letters(self._cards_of(seat))}
        return Event(msg("Your cards: {hand}.", hand=self._hand_text(seat)), seat, "hand", data)

    def _street(self) -> list[Event]:
        """Burn one, then deal the next street's board cards face up."""
        b = self.betting
        self.burned.append(self.stock.pop(0))
        new = [self.stock.pop(0) for _ in range(STREET_CARDS[b.round_no])]
        self.board += new
        street = STREETS[b.round_no]
        entry = STREET_DEALT[street]
        assert entry.msgid is not None
        text = msg(entry.msgid, cards=label_cards(new), board=label_cards(self.board),
                   letters=hand_letters(self.board), pot=b.pot_total)
        events = [Event(text, None, "board", {"street": street,
                                               "board": cards_to_json(self.board),
                                               "cards": cards_to_json(new), **self._chips()})]
        return events + [self._hand_event(seat) for seat in b.live]

    # --- the flow of the deal ------------------------------------------------------------------
    def _advance(self) -> list[Event]:
        """Move on while nobody has a betting decision: close finished rounds, deal the
        next street (all of them when everyone still in is all-in), end in a lone winner or
        in the declarations."""
        events: list[Event] = []
        b = self.betting
        while self._phase == "bet" and b.actor is None:
            events += self._end_betting_round()
            if b.lone_player is not None:
                return events + self._lone_winner(b.lone_player)
            if b.round_no >= ROUNDS:
                return events + self._start_declaring()
            events += self._street()
            b.start_round()
            self._clear_last_actions()
        return events

    def _clear_last_actions(self) -> None:
        self.last_actions = ["fold" if self.betting.folded[s] else "" for s in range(self.n)]

    def _start_declaring(self) -> list[Event]:
        self._phase = "declare"
        self._clear_last_actions()
        live = self.betting.live
        names = ", ".join(self.seats[s] for s in live)
        text = msg("The betting is over (pot {pot}). {names}: declare poker, spelling or both, "
                   "sealed. Nothing is shown until everyone has declared.",
                   pot=self.betting.pot_total, names=names)
        events = [Event(text, None, "declare_begins", {"seats": live, **self._chips()})]
        last = self._last_person()
        if last is not None:
            events.append(self._last_call(last))
        return events

    # --- actions -----------------------------------------------------------------------------
    def legal_actions(self, seat: int) -> list[Action]:
        if self._phase == "declare":
            if not self._can_declare(seat):
                return []
            return [Action("declare", ("poker",)), Action("declare", ("spelling", None)),
                    Action("declare", ("double", None))]
        if seat not in self.to_act:
            return []
        options = self.betting.options(seat)
        assert options is not None
        return [Action(name) for name in bet_names(options)]

    def _check_turn(self, seat: int, action: Action) -> None:
        """While declaring, every seat may act (a declaration is checked by its own rules);
        in a betting round, only the one to act."""
        if self._phase != "declare":
            super()._check_turn(seat, action)

    def _timeout_action(self, seat: int) -> Action:
        """A betting clock that runs out checks or folds; a declaring clock is handled by
        the declarations (`_apply_declaring`)."""
        return TIMEOUT if self._phase == "declare" else self._bet_timeout(seat)

    def _step(self, seat: int, action: Action) -> list[Event]:
        if self._phase == "declare":
            events = self._apply_declaring(seat, action)
        else:
            events = self._betting_action(seat, action)
        self.step += 1
        return events

    # --- declaring (Sppoker's sealed declarations) ---------------------------------------------
    def _can_declare(self, seat: int) -> bool:
        return (self._phase == "declare" and seat in self.betting.live
                and not self.expired[seat] and not self._declared_nothing(seat))

    def _is_done(self, seat: int) -> bool:
        """Complete: poker, or spelling/both with a valid word, or time ran out. An invalid
        word does not declare (Sppoker's ruling): the reveal waits for a valid one."""
        kind = self.declarations[seat]
        if kind is None:
            return False
        if kind in ("poker", TIMED_OUT) or self.expired[seat]:
            return True
        return self._check(seat).ok

    def _check(self, seat: int) -> WordCheck:
        return validate_word(self.words[seat], self._cards_of(seat), self.dictionary,
                             self.settings["language"])

    def _apply_declaring(self, seat: int, action: Action) -> list[Event]:
        if seat not in self.betting.live:
            raise IllegalAction(msg("You are not in this hand: only the players still in declare."))
        last_before = self._last_person()
        if action == TIMEOUT or action.name == "timeout":
            events = self._declaration_timeout(seat)
            self.last_actions[seat] = "no declaration" if self._declared_nothing(seat) else ""
        elif action.name == "declare":
            events = self._declare(seat, action.args)
        else:
            raise IllegalAction(msg("Declare poker, spelling (with a word) or both (with a word)."))
        events += self._last_call_events(last_before)
        if not self.to_act:
            events += self._showdown()
        return events

    def _declare(self, seat: int, args: Sequence[Any]) -> list[Event]:
        if self._declared_nothing(seat):
            raise IllegalAction(msg("Your time ran out: you lose this hand."))
        if self.expired[seat]:
            raise IllegalAction(msg("Your time ran out: your declaration stands as it was."))
        if not args or not isinstance(args[0], str) or len(args) > 2:
            raise IllegalAction(msg(
                "Declare poker, spelling or both (with a word for the last two)."))
        kind = _ALIASES.get(args[0].strip().lower())
        if kind is None:
            raise IllegalAction(msg("{text} is not a declaration: poker, spelling or both.",
                                    text=repr(args[0])))
        word = args[1] if len(args) == 2 else None
        if word is not None and not isinstance(word, str):
            raise IllegalAction(msg("The word must be text."))
        was_done = self._is_done(seat)
        before = (self.declarations[seat], self.words[seat])
        self.declarations[seat] = kind
        if word is not None:
            self.words[seat] = word.strip()
        if was_done and not self._is_done(seat):
            # A counted declaration is never replaced by an incomplete one.
            check = self._check(seat)
            self.declarations[seat], self.words[seat] = before
            if check.word:
                raise IllegalAction(msg(
                    "{word} is not valid — {reason}. Your declaration stays {declaration}.",
                    word=check.word, reason=check.reason, declaration=self._shown(seat)))
            raise IllegalAction(msg(
                "A spelling hand needs a word. Your declaration stays {declaration}.",
                declaration=self._shown(seat)))
        events: list[Event] = []
        if self._is_done(seat) and not was_done:
            done = sum(1 for s in self.betting.live if self._is_done(s))
            events.append(Event(
                msg("{name} has declared ({n} of {total}).", name=self.seats[seat], n=done,
                    total=len(self.betting.live)),
                None, "declared", {"seat": seat, "declared": done,
                                   "of": len(self.betting.live)}))
        if self._is_done(seat):
            if was_done:
                told = msg("You changed your declaration to {declaration}.",
                           declaration=self._shown(seat))
            else:
                told = msg("You declared {declaration}.", declaration=self._shown(seat))
            events.append(Event(told, seat, "declaration",
                                {"declaration": kind, "word": self.words[seat],
                                 "changed": was_done}))
        if kind != "poker":
            events.append(self._word_event(seat))
        return events

    def _shown(self, seat: int) -> str:
        kind = self.declarations[seat]
        assert kind is not None
        shown = KIND_NAMES[kind]
        if kind == "poker":
            return shown
        word = self.words[seat]
        if word:
            return msg("{declaration} with {word}", declaration=shown, word=word.upper())
        return msg("{declaration} (no word yet)", declaration=shown)

    def _word_event(self, seat: int) -> Event:
        check = self._check(seat)
        if check.ok:
            text: str = msg("{word} is a valid word ({n} letters).", word=check.word,
                            n=len(check.word))
        else:
            what = msg("{word} is not valid — {reason}.", word=check.word,
                       reason=check.reason) if check.word else \
                msg("You have no word yet: a spelling hand needs a word.")
            text = Msg.joined(" ", [what, msg(
                "You have not declared yet: send another word, or declare poker.")])
        return Event(text, seat, "word_check",
                     {"ok": check.ok, "word": check.word, "reason": check.reason})

    # --- the end of the deal -------------------------------------------------------------------
    def _lone_winner(self, seat: int) -> list[Event]:
        awards = self.betting.settle_lone_player()
        won = sum(a.amount for a in awards)
        text = msg("Everyone else folded: {name} takes the pot of {n} unseen.",
                   name=self.seats[seat], n=won)
        self.showdown = {"players": [], "board": cards_to_json(self.board),
                         "awards": [a.to_json() for a in awards], "pots": [], "lone": seat}
        return [Event(text, None, "deal_end", {**self.showdown, **self._chips()}), self._end()]

    def _values(self) -> tuple[dict[int, int], dict[int, tuple[int, int] | None]]:
        live = self.betting.live
        poker = {s: strength_of_codes([c.code for c in self._cards_of(s)]) for s in live}
        words: dict[int, tuple[int, int] | None] = {}
        for s in live:
            check = self._check(s)
            words[s] = word_rank(check.word) if check.ok else None
        return poker, words

    def _showdown(self) -> list[Event]:
        b = self.betting
        live = [s for s in b.order_from_button() if not b.folded[s]]
        # A seat whose time ran out before it declared has declared nothing: it loses the hand.
        declared = {s: SIDES[kind] for s in live if (kind := self.declarations[s]) in SIDES}
        poker, words = self._values()
        # Only a spelling or both declaration plays its word.
        low = {s: words[s] if declared.get(s) in (Declaration.LOW, Declaration.BOTH) else None
               for s in live}
        pots = b.pots()
        order = b.order_from_button()
        shares = [declared_shares(pot, declared, poker, low, order) for pot in pots]
        explained = [self._explain(k, pot, declared, poker, low, len(pots))
                     for k, pot in enumerate(pots)]
        awards = b.settle(shares)
        players = []
        lines = []
        for s in live:
            cards = self._cards_of(s)
            value = evaluate(cards)
            longest = self.finder.best_words(hand_letters(cards), limit=3)
            kind = self.declarations[s] or TIMED_OUT
            check = self._check(s) if kind in ("spelling", "double") else None
            players.append({
                "seat": s,
                "name": self.seats[s],
                "hand": cards_to_json(self.hands[s]),
                "labels": [c.label for c in self.hands[s]],
                "letters": hand_letters(cards),
                "declaration": kind,
                "timed_out": self._declared_nothing(s) or self.expired[s],
                "word": check.word if check else None,
                "word_ok": check.ok if check else None,
                "word_reason": check.reason if check else "",
                "poker": value.description,
                "poker_cards": [c.label for c in value.cards],
                "longest": longest,
                "won": sum(a.shares.get(s, 0) for a in awards),
            })
            said: list[str] = [KIND_NAMES.get(kind) or msg("no declaration")]
            if check:
                said.append(check.word or msg("(no word)"))
            if check and not check.ok:
                said.append(msg("(invalid: {reason})", reason=check.reason))
            if self._declared_nothing(s) or self.expired[s]:
                said.append(msg("(out of time)"))
            # The rules page promises the longest words each hand's letters could make.
            best = ", ".join(word.upper() for word in longest) if longest else msg("none")
            lines.append(msg("• {name}: {cards} — {said} — {hand} (longest possible: {best}).",
                             name=self.seats[s], cards=label_cards(self.hands[s]),
                             said=Msg.joined(" ", said), hand=value.description, best=best))
        for record, award in zip(explained, awards, strict=True):
            record["shares"] = {str(seat): amount for seat, amount in award.shares.items()}
        self.showdown = {
            "players": players,
            "board": cards_to_json(self.board),
            "awards": [a.to_json() for a in awards],
            "pots": explained,
            "lone": None,
        }
        text = Msg.joined("\n", [msg("Showdown. Board {board}.", board=label_cards(self.board)),
                                 *lines, *(p["text"] for p in explained)])
        return [Event(text, None, "deal_end", {**self.showdown, **self._chips()}), self._end()]

    def _explain(self, index: int, pot: Pot, declared: Mapping[int, Declaration],
                 poker: Mapping[int, int], low: Mapping[int, tuple[int, int] | None],
                 count: int) -> dict[str, Any]:
        """Who takes which side of one pot, and why, for the showdown."""
        outcome = resolve_pot(pot.eligible, declared, poker, low)
        label = msg("The pot") if count == 1 else (msg("The main pot") if index == 0 else
                                                     msg("Side pot {n}", n=index))

        def names(seats: Sequence[int]) -> str:
            return names_and([self.seats[seat] for seat in seats])

        parts = []
        for seat in outcome.failed:
            parts.append(msg("{name}'s both fails ({why}).", name=self.seats[seat],
                             why=self._why_both_fails(seat, pot, declared, poker, low)))
        if len(pot.eligible) == 1:
            parts.append(msg("{pot} of {n} goes back to {names}, the only one in it.",
                             pot=label, n=pot.amount, names=names(pot.eligible)))
        elif outcome.scoop is not None:
            parts.append(msg("{pot} of {n}: {name} wins both sides outright and takes it all.",
                             pot=label, n=pot.amount, name=self.seats[outcome.scoop]))
        elif outcome.high and outcome.low:
            spelling_half = pot.amount // 2
            halves = dict(pot=label, n=pot.amount, poker=pot.amount - spelling_half,
                          high=names(outcome.high), spelling=spelling_half,
                          low=names(outcome.low))
            if pot.amount % 2:
                parts.append(msg("{pot} of {n}: poker half {poker} to {high}, spelling half "
                                 "{spelling} to {low} (the odd chip goes to poker).", **halves))
            else:
                parts.append(msg("{pot} of {n}: poker half {poker} to {high}, spelling half "
                                 "{spelling} to {low}.", **halves))
        elif outcome.high:
            parts.append(msg("{pot} of {n}: nobody wins spelling, so all of it goes to the "
                             "poker side: {names}.", pot=label, n=pot.amount,
                             names=names(outcome.high)))
        elif outcome.low:
            parts.append(msg("{pot} of {n}: nobody wins poker, so all of it goes to the "
                             "spelling side: {names}.", pot=label, n=pot.amount,
                             names=names(outcome.low)))
        else:
            parts.append(msg("{pot} of {n}: nobody wins either side, so it is shared by "
                             "{names}.", pot=label, n=pot.amount,
                             names=names(shared_by(pot, declared))))
        return {"index": index, "amount": pot.amount, "eligible": list(pot.eligible),
                "poker": list(outcome.high), "spelling": list(outcome.low),
                "scoop": outcome.scoop, "failed": list(outcome.failed),
                "text": Msg.joined(" ", parts)}

    def _why_both_fails(self, seat: int, pot: Pot, declared: Mapping[int, Declaration],
                        poker: Mapping[int, int],
                        low: Mapping[int, tuple[int, int] | None]) -> str:
        mine = low.get(seat)
        if mine is None:
            return msg("no valid word")
        for other in pot.eligible:
            if other == seat or other not in declared:  # declared nothing: no rival
                continue
            if declared[other] != Declaration.LOW and poker[other] >= poker[seat]:
                if poker[other] == poker[seat]:
                    return msg("tied on poker by {name}", name=self.seats[other])
                return msg("beaten on poker by {name}", name=self.seats[other])
            theirs = low.get(other)
            if declared[other] != Declaration.HIGH and theirs is not None and theirs >= mine:
                if theirs == mine:
                    return msg("tied on spelling by {name}", name=self.seats[other])
                return msg("beaten on spelling by {name}", name=self.seats[other])
        return msg("another both wins")  # pragma: no cover - a scoop leaves nobody else a side

    def _end(self) -> Event:
        return self._close_deal()

    # --- what each seat is asked and sees -------------------------------------------------------
    def prompt(self, seat: int) -> Prompt | None:
        if self._phase == "declare":
            if not self._can_declare(seat):
                return None
            letters = hand_letters(self._cards_of(seat))
            kind = self.declarations[seat]
            if kind is None:
                text: str = msg("Declare poker, spelling or both (sealed).")
            elif not self._is_done(seat):
                # Why the word was refused is the seat's news just above (`_word_event`): the
                # prompt said it again, "… dictionary: HJEDS: you have not declared yet".
                text = msg("You have not declared yet: send another word, or declare poker.")
            else:
                text = msg("You declared {declaration}. You may change it until the reveal.",
                           declaration=self._shown(seat))
            text = Msg.joined(" ", [text, msg("Your cards: {hand}.", hand=self._hand_text(seat))])
            placeholder = msg("letters: {letters}", letters=" ".join(letters))
            word = msg("Your word")
            return Prompt(text, (
                Choice(msg("Poker"), Action("declare", ("poker",)), "primary"),
                TextAsk(msg("Spelling"), "declare", word, placeholder, 1, 20, ("spelling",)),
                TextAsk(msg("Both"), "declare", word, placeholder, 1, 20, ("double",)),
            ))
        if seat not in self.to_act:
            return None
        return self._bet_prompt(seat)

    def _public_fields(self) -> dict[str, Any]:
        b = self.betting
        structure = b.structure
        declaring = self._phase == "declare"
        street = min(b.round_no, ROUNDS - 1)
        return {
            **self._betting_fields(),
            "small_blind": structure.blinds[0],
            "big_blind": structure.blinds[1],
            "betting_round": street,
            "street": STREETS[street],
            "board": tuple(cards_to_json(self.board)),
            "board_labels": tuple(c.label for c in self.board),
            "declared": tuple(declaring and not b.folded[s] and self._is_done(s)
                              and not self._declared_nothing(s) for s in range(self.n)),
        }

    def public_view(self) -> HoldemSppokerView:
        return HoldemSppokerView(**self._public_fields())

    def view(self, seat: int) -> HoldemSppokerSeatView:
        cards = self._cards_of(seat)
        value = evaluate(cards) if len(cards) >= 5 else None
        declaration = self.declarations[seat]
        if declaration == TIMED_OUT:  # declared nothing: there is no declaration to show
            declaration = None
        word = self.words[seat]
        return HoldemSppokerSeatView(
            **self._public_fields(),
            seat=seat,
            hand=tuple(cards_to_json(self.hands[seat])),
            labels=tuple(c.label for c in self.hands[seat]),
            letters=hand_letters(cards),
            poker=value.description if value else None,
            poker_cards=tuple(c.label for c in value.cards) if value else (),
            declaration=declaration,
            word=word,
            word_check=self._check(seat) if word is not None else None,
        )

    # --- snapshots -----------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        return {
            **self._snapshot_fields(),
            "stock": cards_to_json(self.stock),
            "hands": [cards_to_json(h) for h in self.hands],
            "board": cards_to_json(self.board),
            "burned": cards_to_json(self.burned),
            "declarations": list(self.declarations),
            "words": list(self.words),
            "expired": list(self.expired),
        }

    @classmethod
    def from_dict(
        cls,
        data: Mapping[str, Any],
        *,
        dictionary: Dictionary | None = None,
        finder: WordFinder | None = None,
    ) -> HoldemSppoker:
        if data.get("kind") != cls.kind:
            raise ValueError(f"not a Hold'em Sppoker snapshot: {data.get('kind')!r}")
        game = cls(data["seats"], data["options"], rng_from_json(data["rng"]),
                   dictionary=dictionary, finder=finder, deck=[], _deal=False)
        game._restore_fields(data)
        game.stock = cards_from_json(data["stock"])
        game.hands = [cards_from_json(h) for h in data["hands"]]
        game.board = cards_from_json(data["board"])
        game.burned = cards_from_json(data["burned"])
        game.declarations = list(data["declarations"])
        game.words = list(data["words"])
        game.expired = [bool(x) for x in data["expired"]]
        # Saved before a timed-out seat declared nothing (it played poker, marked timed_out):
        # it has declared nothing now, as the rules read today.
        for seat, timed_out in enumerate(data.get("timed_out") or []):
            if timed_out:
                game.declarations[seat] = TIMED_OUT
        return game

    def ai_action(self, seat: int, rng: random.Random) -> Action:
        if seat not in self.to_act:
            raise IllegalAction(msg("Nothing to decide now."))
        return holdem_sppoker_ai(self.view(seat), self.legal_actions(seat), rng,
                                 self.finder, self.dictionary)
