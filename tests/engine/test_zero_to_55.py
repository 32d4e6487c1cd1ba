"""Zero to 55's rulings (RULINGS.md, docs/rules/zero_to_55.md), one test each, and the
properties every deal keeps: chips conserved, nothing face down or sealed ever public."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cards import parse_cards
from engine.game import TIMEOUT, Action, CardPick, IllegalAction
from engine.games import GAMES
from engine.games.dealers_choice.rules import menu_for
from engine.games.zero_to_55.rules import ZeroTo55
from tests.support.reveal import check_everyone, finish, play_randomly, rig


def new(seats: int = 3, seed: int = 1, **options: object) -> ZeroTo55:
    stacks = options.pop("stacks", [200] * seats)
    return ZeroTo55([f"P{s}" for s in range(seats)], {"stacks": stacks, **options},
                    random.Random(seed))


def to_draw(game: ZeroTo55) -> None:
    check_everyone(game)
    assert game.phase == "draw"


def test_registered_as_a_chip_game_offered_in_dealers_choice() -> None:
    assert GAMES["zero_to_55"] is ZeroTo55 and ZeroTo55.chip_game
    assert "zero_to_55" in menu_for(2) and "zero_to_55" in menu_for(7)


def test_faces_aces_and_the_ace_of_spades_to_the_players_advantage() -> None:
    game = new()
    best = parse_cards("Ah Ac Ad As Kc")  # the seed's best high: 11+11+11+12+10
    assert (game.high_total(best), game.low_total(best)) == (55, 4)
    faces = parse_cards("Kh Qd Jc Ks Qh")  # the seed's best low: 0, or 50 going high
    assert (game.high_total(faces), game.low_total(faces)) == (50, 0)
    assert game.high_total(parse_cards("Ad 2c 3c 4c 5c")) == 25
    assert game.high_total(parse_cards("As 2c 3c 4c 5c")) == 26  # the ace of spades is 12
    assert game.low_total(parse_cards("As 2c 3c 4c 5c")) == 15


def test_the_seeds_examples_go_high_with_50_and_low_with_5() -> None:
    game = new(2)
    rig(game, {0: "Kh Qd Jc Ks 10h", 1: "Qh Jd Ac Ad 3c"})
    finish(game, {0: "high", 1: "low"})
    assert game.showdown is not None
    assert game.showdown["high"]["0"] == 50 and game.showdown["low"]["1"] == 5
    assert game.result is not None and game.result.chips == (0, 0)  # 10: 5 high, 5 low


def test_a_betting_round_before_the_draw_and_after_each_of_four_reveals() -> None:
    game = new()
    assert game.phase == "bet" and game.betting.round_no == 0
    rig(game, {0: "Kh Qd Jc Ks 10h", 1: "Qh Jd Ac Ad 3c", 2: "2c 3d 4h 5s 6c"})
    assert game.public_view().reveals == 1 and game.phase == "bet"
    for reveal in (2, 3, 4):
        check_everyone(game)
        assert game.public_view().reveals == reveal
    check_everyone(game)
    assert game.phase == "declare" and game.public_view().hidden == (1, 1, 1)
    for seat in range(3):
        events = game.apply(seat, Action("declare", ("high",)))
    # no betting after the declarations: the last card and the showdown at once
    assert game.is_over and [e.kind for e in events][-4:] == [
        "declarations", "reveal", "deal_end", "game_over"]


@pytest.mark.parametrize(("seats", "limit"), [(2, 4), (5, 4), (6, 3), (7, 3)])
def test_draw_limit_by_player_count(seats: int, limit: int) -> None:
    game = new(seats)
    to_draw(game)
    [seat] = game.to_act
    pick = game.prompt(seat).choices[0]  # type: ignore[union-attr]
    assert isinstance(pick, CardPick) and pick.max_cards == limit
    assert game.public_view().draw_limit == limit
    too_many = tuple(str(c) for c in game.hands[seat][: limit + 1])
    with pytest.raises(IllegalAction, match=f"at most {limit}"):
        game.apply(seat, Action("draw", too_many))
    game.apply(seat, Action("draw", too_many[:limit]))


def test_the_draw_is_free_by_default() -> None:
    game = new()
    to_draw(game)
    [seat] = game.to_act
    stack = game.betting.stacks[seat]
    game.apply(seat, Action("draw", tuple(str(c) for c in game.hands[seat][:3])))
    assert game.betting.stacks[seat] == stack and game.public_view().fees == (0, 0, 0)


def test_the_fee_option_charges_per_card_into_the_main_pot() -> None:
    game = new(2, draw_fee=5, stacks=[200, 12])
    to_draw(game)  # antes 5: seat 1 has 7 left, enough for one card
    assert game.to_act == frozenset({1})
    with pytest.raises(IllegalAction, match="pays for 1 cards"):
        game.apply(1, Action("draw", tuple(str(c) for c in game.hands[1][:2])))
    game.apply(1, Action("draw", (str(game.hands[1][0]),)))
    game.apply(0, Action("draw", tuple(str(c) for c in game.hands[0][:3])))
    view = game.public_view()
    assert view.fees == (15, 5) and view.stacks == (180, 2) and view.pot == 30
    for seat, text in {0: "Kh Qd Jc Ks 10h", 1: "2c 3d 4h 5s 6c"}.items():
        game.hands[seat] = parse_cards(text)
    for seat in sorted(game.to_act):
        game.apply(seat, Action("order", tuple(str(c) for c in game.hands[seat])))
    finish(game, {0: "low", 1: "low"})  # seat 0 low 0 takes the pot and the fees
    assert game.result is not None and game.result.chips == (10, -10)
    assert game.result.scores == (210, 2)


def test_both_loses_everything_on_a_tie() -> None:
    game = new(3)
    rig(game, {0: "Ah Ac Ad As Kc", 1: "Kh Qd Jc Ks Qh", 2: "Kd Qs Jd Js Qc"})
    # seat 0: 55 high, 4 low; seats 1 and 2 tie at 0 low and 50 high
    finish(game, {0: "both", 1: "high", 2: "low"})
    # seat 0 wins high outright but loses low: loses both; high to seat 1, low to seat 2
    assert game.result is not None and game.result.chips == (-5, 3, 2)
    game = new(2)
    rig(game, {0: "Ah Ac Ad 9s Kc", 1: "Kh Qd Jc 9c Qh"})
    finish(game, {0: "both", 1: "both"})  # both fail: nobody wins a side, the pot is shared
    assert game.result is not None and game.result.chips == (0, 0)


def test_both_wins_both_outright_and_scoops() -> None:
    game = new(3)
    rig(game, {0: "Kh Qd Jc Ks 10h", 1: "5c 5d 6h 6s 7c", 2: "2c 3d 8h 8s 9c"})
    finish(game, {0: "both", 1: "high", 2: "low"})  # 50 against 29, 0 against 30
    assert game.result is not None and game.result.chips == (10, -5, -5)


def test_the_order_is_fixed_once_and_timeouts() -> None:
    game = new()
    first = game.betting.actor
    assert first is not None
    game.apply(first, TIMEOUT)  # nothing to call: checks
    assert game.public_view().last_actions[first] == "check"
    while game.phase == "bet":
        [seat] = game.to_act
        game.apply(seat, TIMEOUT)
    while game.phase == "draw":
        [seat] = game.to_act
        game.apply(seat, TIMEOUT)  # stands pat
        assert game.public_view().drawn[seat] == 0
    held = list(game.hands[1])
    game.apply(1, Action("pick", (str(held[2]),)))
    game.apply(1, TIMEOUT)  # the card picked first, the rest as held
    assert game.hands[1] == [held[2], held[0], held[1], held[3], held[4]]
    with pytest.raises(IllegalAction, match="cannot change"):
        game.apply(1, Action("reset"))
    game.apply(0, TIMEOUT)
    game.apply(2, TIMEOUT)
    assert game.public_view().exposed[1] == (str(held[2]),)


def test_a_declaration_left_to_the_clock_loses_the_hand() -> None:
    """Issue 23, rule 3, its example: pot 60, P0's clock runs out, P1 declares low: P1
    takes all 60, though P0's 50 was the best high (the clock declared it high before, and
    it took 30)."""
    game = new(2, ante=30)
    rig(game, {0: "Kh Qd Jc Ks 10h", 1: "Qh Jd Ac Ad 3c"})
    while game.phase != "declare":
        check_everyone(game)
    assert game.pot == 60
    game.apply(1, Action("declare", ("low",)))
    events = game.apply(0, TIMEOUT)
    [timeout] = [e for e in events if e.kind == "timeout"]
    assert timeout.is_public and timeout.text == "P0 ran out of time and loses the hand."
    assert game.is_over and game.result is not None and game.result.chips == (-30, 30)
    assert game.showdown is not None
    assert game.showdown["declarations"] == {"0": "timeout", "1": "low"}
    assert "P0: K♥ Q♦ J♣ K♠ 10♥, high 50, low 10, did not declare." in game.showdown["lines"]


def test_the_last_person_to_declare_has_ten_seconds_told_privately() -> None:
    """Issue 23, rule 3: Sppoker's clock in every game with declarations; the AI seat
    counts as declared, so when P0 has declared, P1 is the last person."""
    game = new(3, ai_seats=[2])
    assert "ai_seats" in ZeroTo55.table_options
    rig(game, {0: "Kh Qd Jc Ks 10h", 1: "Qh Jd Ac Ad 3c", 2: "2c 3d 4h 5s 6c"})
    while game.phase != "declare":
        check_everyone(game)
    assert [(t.seconds, t.seats) for t in game.timers()] == [(120, (0, 1, 2))]
    events = game.apply(0, Action("declare", ("high",)))
    [call] = [e for e in events if e.kind == "last_call"]
    assert call.seat == 1 and not call.is_public
    assert call.text == ("Everyone else has declared: declare within 10 seconds, or you lose "
                         "this hand.")
    assert [(t.seconds, t.seats) for t in game.timers()] == [(120, (1, 2)), (10, (1,))]
    game.apply(1, TIMEOUT)
    game.apply(2, Action("declare", ("low",)))
    assert game.is_over and game.result is not None and game.result.chips[1] == -5


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32), seats=st.integers(2, 7), fee=st.sampled_from([0, 0, 5]))
def test_chips_conserved_and_nothing_face_down_or_sealed_is_ever_public(
    seed: int, seats: int, fee: int
) -> None:
    stacks = [random.Random(seed).randint(3, 150) for _ in range(seats)]
    game = new(seats, seed, stacks=stacks, button=seed % seats, draw_fee=fee)
    play_randomly(game, seed)
