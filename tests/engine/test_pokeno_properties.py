"""Po-Ke-No invariants over random play (hypothesis): every card is in exactly one place
(hands, boards, deck, discards) at every step, tentative steps included; no space ever
holds more cards than its count; the public view never shows a board's cards."""

from __future__ import annotations

import json
import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cards import pokeno_deck
from engine.game import TIMEOUT, Action, IllegalAction
from engine.games.pokeno.base import PokenoBase
from engine.games.pokeno.rules import Pokeno
from engine.games.pokeno.scoring import SPACES
from engine.games.pokeno.solitaire import PokenoSolitaire


def everything(game: PokenoBase) -> Counter[str]:
    cards = [*game.deck, *game.discards]
    cards += [c for hand in game.hands for c in hand]
    cards += [c for board in game.boards for cards in board for c in cards]
    return Counter(map(str, cards))


def check(game: PokenoBase, full: Counter[str]) -> None:
    assert everything(game) == full
    for seat in range(len(game.seats)):
        current = game.current_board(seat)
        assert all(len(current[i]) <= space.size for i, space in enumerate(SPACES))
        used = Counter(map(str, game.current_hand(seat)))
        used += Counter(str(c) for cards in current for c in cards)
        committed = Counter(map(str, game.hands[seat]))
        committed += Counter(str(c) for cards in game.boards[seat] for c in cards)
        assert used <= committed  # the turn's steps only move the seat's own cards
    public = json.dumps(game.public_view().to_json().get("board_counts"))
    assert all(ch in "[], 0123456789" for ch in public)


def random_step(game: PokenoBase, seat: int, rng: random.Random) -> Action:
    roll = rng.random()
    if roll < 0.03:
        return TIMEOUT
    if roll < 0.1:
        hand = game.current_hand(seat)
        return Action("pick", tuple(str(c) for c in rng.sample(hand, min(len(hand), 2))))
    if roll < 0.15:
        return Action("place", (rng.choice(SPACES).name.lower(),
                                *(str(c) for c in game.current_hand(seat)[:3])))
    if roll < 0.55:
        return game.ai_action(seat, rng)
    return rng.choice(game.legal_actions(seat))


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32), seats=st.integers(2, 4))
def test_cards_are_conserved_and_spaces_never_overfill(seed: int, seats: int) -> None:
    # Target 60: whole games of two to six deals (with 120, twice the deals and four times
    # the time, each deal checked the same way).
    game = Pokeno([f"P{n}" for n in range(seats)], {"target": 60}, random.Random(seed))
    full = Counter(map(str, pokeno_deck(2)))
    rng = random.Random(seed)
    for _ in range(1500):
        if game.is_over:
            break
        check(game, full)
        seat = next(iter(game.to_act))
        try:
            game.apply(seat, random_step(game, seat, rng))
        except IllegalAction:
            continue
    check(game, full)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_solitaire_conserves_its_one_deck(seed: int) -> None:
    game = PokenoSolitaire(["Sol"], {}, random.Random(seed))
    full = Counter(map(str, pokeno_deck(1)))
    rng = random.Random(seed)
    while not game.is_over:
        check(game, full)
        try:
            game.apply(0, random_step(game, 0, rng))
        except IllegalAction:
            continue
    check(game, full)
    assert game.result is not None
    kept = len(game.hands[0]) + len(game.deck)
    assert game.discarded == len(game.discards)
    assert game.result.scores[0] % 10 == sum(
        s.points for s in SPACES if game.last_deal and
        game.last_deal["verdicts"][0][SPACES.index(s)]["correct"]) % 10
    assert kept >= 0
