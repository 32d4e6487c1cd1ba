"""A replay's "What bob knew" shows only what bob saw at that step, in every game: no card
another seat held then (its hand, its face-down Po-Ke-No pyramid), whether in another seat's
news (`🔒 alice: Your hand: …`), in another's move (a sealed declaration, cards placed face
down) or anywhere else on the page. The checks are the conformance suite's (tests/
test_conformance.py, tests/engine/test_hidden_information.py): random play of every registered game
to its end, every step looked at, a step that reveals by the rules (a showdown, a new deal
dealing the old deal's cards again) left out."""

from __future__ import annotations

import random
import re
from datetime import UTC, datetime

import pytest

from bot.core.replays import EVERYONE, PlayedGame, frame_text
from bot.plugins import install_plugins
from bot.present.i18n import render
from bot.present.render import cards_text
from engine.game import IllegalAction
from engine.games import GAMES
from engine.notation import Notation, Replayer
from engine.replay import LoggedAction, build
from tests.support.leaks import REVEALING_EVENTS, deal_number, revealed
from tests.support.play import awaited, engine_kinds, extras, names, options_for, random_action

SEED = 5
MAX_STEPS = 400
CASES = [(kind, seats) for kind in engine_kinds()
         for seats in sorted({GAMES[kind].min_seats, min(GAMES[kind].max_seats, 4)})]
# Text around a card on a page: punctuation a sentence puts next to it, markdown.
_AROUND = re.compile(r"[\s,.;:!?()\[\]*`_|>›🔒]+")


@pytest.fixture(autouse=True, scope="module")
def renderers() -> None:
    """Pages are drawn with each game's renderer, as the bot installs them."""
    install_plugins()


def held(game: object) -> list[set[str]]:
    """Each seat's hidden cards as a page writes them: its hand, and in Po-Ke-No its
    face-down pyramid too."""
    hands: list[set[str]] = [{card.label for card in hand}
                             for hand in game.hands]  # type: ignore[attr-defined]
    for seat, board in enumerate(getattr(game, "boards", None) or []):
        hands[seat] |= {card.label for cards in board for card in cards}
    return hands


def words(text: str) -> set[str]:
    return set(_AROUND.split(text)) - {""}


def page_leaks(text: str, hands: list[set[str]], who: int,
               known: set[str]) -> dict[int, list[str]]:
    """The cards of other seats on `who`'s page. A card `who` holds too is no leak (with two
    decks, Po-Ke-No's players may both hold one), nor one `who` was shown this deal
    (`known`: what the rules showed everyone, Chicago's best hand after a buy; its own news,
    a copy of a card it discarded)."""
    tokens = words(text)
    found = {}
    for seat, cards in enumerate(hands):
        if seat != who:
            shown = sorted(card for card in cards - hands[who] - known if card in tokens)
            if shown:
                found[seat] = shown
    return found


def played(kind: str, seats: int) -> tuple[list[LoggedAction], Notation]:
    """A random game of `kind` to its end, as the conformance suite plays it, and its
    notation."""
    options = options_for(kind, seats)
    game = build(GAMES[kind], names(seats), options, SEED, **extras(GAMES[kind]))
    rng, ai_rng = random.Random(SEED), random.Random(-SEED)
    log: list[LoggedAction] = []
    for _ in range(MAX_STEPS):
        if game.is_over:
            break
        seat = rng.choice(awaited(game))
        action = random_action(game, seat, rng, ai_rng)
        try:
            game.apply(seat, action)
        except IllegalAction:
            continue
        log.append(LoggedAction(seat, action))
    notation = Notation.single(kind, names(seats), options, SEED, log,
                               tags={"Table": "0123abcd"})
    return log, notation


def record(kind: str, seats: int) -> PlayedGame:
    moment = datetime(2026, 11, 30, tzinfo=UTC)
    return PlayedGame(1, "0123abcd", kind, "finished", moment, moment, options_for(kind, seats),
                      SEED, tuple(names(seats)), (None,) * seats)


@pytest.mark.parametrize(("kind", "seats"), CASES)
def test_what_a_player_knew_shows_no_card_another_seat_held(kind: str, seats: int) -> None:
    log, notation = played(kind, seats)
    replayer = Replayer(notation, **extras(GAMES[kind]))
    game = build(GAMES[kind], names(seats), options_for(kind, seats), SEED,
                 **extras(GAMES[kind]))
    record_ = record(kind, seats)
    checked = 0
    told: list[set[str]] = [set() for _ in range(seats)]  # each seat's own news, all game
    shown: set[str] = set()  # what the rules showed everyone this deal
    for index in range(len(replayer)):
        frame = replayer.frame(index)
        deal = deal_number(game)
        if index:
            game.apply(log[index - 1].seat, log[index - 1].action)
        if deal_number(game) != deal:
            shown = set()
        for event in frame.events:
            if event.seat is not None:
                told[event.seat] |= words(render(event.text))
            elif event.kind in REVEALING_EVENTS:
                shown |= words(render(event.text))
        if revealed(game) or (index and deal_number(game) != deal):
            continue  # the rules show the cards, or a new deal deals the old one's again
        hands = held(game)
        for who in range(seats):
            text = frame_text(record_, notation, frame, who)
            leaked = page_leaks(text, hands, who, told[who] | shown)
            assert not leaked, (f"step {index}: {names(seats)[who]}'s page shows "
                                f"{leaked}:\n{text}")
            checked += 1
        # The every-hand page shows them all, as this reading of a page finds them.
        everyone = words(frame_text(record_, notation, frame, EVERYONE))
        assert words(cards_text(list(frame.views[0].hand))) <= everyone
    assert checked


def test_another_seats_hidden_move_shows_without_its_arguments() -> None:
    """Sppoker: bob's page names alice's sealed declaration, never what she declared; her
    own page shows it whole."""
    _, notation = played("sppoker", 2)
    replayer = Replayer(notation, **extras(GAMES["sppoker"]))
    record_ = record("sppoker", 2)
    for index in range(1, len(replayer)):
        frame = replayer.frame(index)
        assert frame.move is not None
        if frame.move.action.name == "declare" and frame.move.action.args:
            mover, other = frame.move.seat, 1 - frame.move.seat
            assert not frame.move_public
            theirs = frame_text(record_, notation, frame, other)
            own = frame_text(record_, notation, frame, mover)
            assert f"**P{mover}**: declare ?" in theirs
            assert f"**P{mover}**: declare {frame.move.action.args[0]}" in own
            return
    pytest.fail("nobody declared")

