"""Hold'em Sppoker's AI: its equity by sampling the unseen cards for each kind it could
declare, then its declaration and its bets, from its own view."""

from __future__ import annotations

import random
from collections.abc import Sequence

from engine.cards import cards_from_json, sppoker_deck
from engine.chips.pots import Declaration, Pot, declared_shares
from engine.evaluator import strength_of_codes
from engine.game import (
    Action,
)
from engine.games.holdem_sppoker.layout import (
    BOARD,
    HOLE,
    KINDS,
    SIDES,
)
from engine.games.holdem_sppoker.views import HoldemSppokerSeatView
from engine.games.sppoker.ai import _reference
from engine.words import (
    Dictionary,
    WordFinder,
    hand_letters,
    validate_word,
    word_rank,
)

__all__ = ["SAMPLES", "holdem_sppoker_ai"]


SAMPLES = 24


def _unseen(view: HoldemSppokerSeatView) -> list[tuple[int, str]]:
    known = set(view.hand) | set(view.board)
    return [(c.code, c.letter or "") for c in sppoker_deck() if str(c) not in known]


def _equity(
    view: HoldemSppokerSeatView, finder: WordFinder, rng: random.Random, samples: int
) -> float:
    """Our expected share of the pot, by Monte Carlo over the unseen cards (the rest of the
    board and each opponent's hole cards). In each sample every player, us included, is
    modelled declaring the side its seven cards are relatively better at (Sppoker's reference
    distributions of 7-card hands), and the pot is resolved with the kit's own rules."""
    hole = [(c.code, c.letter or "") for c in cards_from_json(view.hand)]
    known_board = [(c.code, c.letter or "") for c in cards_from_json(view.board)]
    rivals = [s for s, f in enumerate(view.folded) if not f and s != view.seat]
    unseen = _unseen(view)
    missing = BOARD - len(view.board)
    ref = _reference(finder)
    seats = (view.seat, *rivals)
    pot = Pot(1000, seats)
    total = 0
    for _ in range(samples):
        drawn = rng.sample(unseen, missing + HOLE * len(rivals))
        common = known_board + drawn[:missing]
        poker: dict[int, int] = {}
        words: dict[int, tuple[int, int] | None] = {}
        declared: dict[int, Declaration] = {}
        for k, seat in enumerate(seats):
            own = hole if k == 0 else drawn[missing + HOLE * (k - 1) : missing + HOLE * k]
            cards = own + common
            poker[seat] = strength_of_codes([code for code, _ in cards])
            rank = finder.best_rank("".join(letter for _, letter in cards))
            words[seat] = rank if rank != (0, 0) else None
            prefers_poker = ref.poker_pct(poker[seat]) >= ref.word_pct(words[seat])
            declared[seat] = Declaration.HIGH if prefers_poker else Declaration.LOW
        total += declared_shares(pot, declared, poker, words, list(seats)).get(view.seat, 0)
    return total / (pot.amount * samples)


def _declaration(
    view: HoldemSppokerSeatView, finder: WordFinder, rng: random.Random, samples: int
) -> tuple[str, str | None]:
    """The declaration with the best expected share of the pot, estimated over the
    opponents' possible hole cards. Each opponent is modelled declaring the side its hand
    is relatively better at (Sppoker's reference distributions of 7-card hands), and each
    of our three choices is resolved with the kit's own pot rules."""
    cards = cards_from_json(view.hand + view.board)
    word = finder.best_word(hand_letters(cards))
    if word is None:
        return "poker", None
    my_poker = strength_of_codes([c.code for c in cards])
    my_word = word_rank(word)
    ref = _reference(finder)
    rivals = [s for s, f in enumerate(view.folded) if not f and s != view.seat]
    unseen = _unseen(view)
    board = [(c.code, c.letter or "") for c in cards_from_json(view.board)]
    me = view.seat
    seats = (me, *rivals)
    pot = Pot(1000, seats)
    totals = dict.fromkeys(KINDS, 0.0)
    for _ in range(samples):
        drawn = rng.sample(unseen, HOLE * len(rivals))
        poker: dict[int, int] = {me: my_poker}
        words: dict[int, tuple[int, int] | None] = {me: my_word}
        declared: dict[int, Declaration] = {}
        for k, seat in enumerate(rivals):
            theirs = drawn[HOLE * k : HOLE * k + HOLE] + board
            poker[seat] = strength_of_codes([code for code, _ in theirs])
            rank = finder.best_rank("".join(letter for _, letter in theirs))
            words[seat] = rank if rank != (0, 0) else None
            prefers_poker = ref.poker_pct(poker[seat]) >= ref.word_pct(words[seat])
            declared[seat] = Declaration.HIGH if prefers_poker else Declaration.LOW
        for kind in KINDS:
            declared[me] = SIDES[kind]
            shares = declared_shares(pot, declared, poker, words, list(seats))
            totals[kind] += shares.get(me, 0)
    kind = max(KINDS, key=lambda k: (totals[k], k == "poker"))
    return kind, (None if kind == "poker" else word)


def holdem_sppoker_ai(
    view: HoldemSppokerSeatView,
    legal: Sequence[Action],
    rng: random.Random,
    finder: WordFinder,
    dictionary: Dictionary,
    samples: int = SAMPLES,
) -> Action:
    """A Hold'em Sppoker player that sees only its own seat's view and the legal actions.

    Betting: its expected share of the pot (see `_equity`: its poker hand and the longest
    word its cards can make, by the longest-word finder, against the opponents' possible
    cards); it bets and raises when that share is well above an even one, calls when the
    pot odds pay, folds to a bet otherwise, and now and then bets a hand a little better than
    even (so that it is not read like a book). Declaring: the choice of the best
    expected share (see `_declaration`), with the finder's best word, checked by the table's
    dictionary (a refused word would leave it undeclared).
    """
    names = {action.name for action in legal}
    if view.phase == "declare":
        kind, word = _declaration(view, finder, rng, samples)
        cards = cards_from_json(view.hand + view.board)
        if kind == "poker" or not validate_word(word, cards, dictionary).ok:
            return Action("declare", ("poker",))
        return Action("declare", (kind, word))
    equity = _equity(view, finder, rng, samples)
    rivals = sum(1 for s, f in enumerate(view.folded) if not f and s != view.seat)
    fair = 1 / (rivals + 1)  # an even share of the pot
    aggressive = "bet" if "bet" in names else "raise" if "raise" in names else None
    if aggressive and equity > fair + 0.35 * (1 - fair):
        return Action(aggressive)
    if aggressive == "bet" and equity > fair + 0.15 * (1 - fair) and rng.random() < 0.3:
        return Action(aggressive)
    if "check" in names:
        return Action("check")
    if equity * (view.pot + view.to_call) >= view.to_call:  # the pot odds pay
        return Action("call")
    return Action("fold")
