"""Old Man 49er's rulings (RULINGS.md, docs/rules/old_man_49er.md), one test each, and the
properties every deal keeps: chips conserved, nothing face down or sealed ever public."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cards import parse_cards
from engine.game import TIMEOUT, Action, Choice, IllegalAction
from engine.games import GAMES
from engine.games.dealers_choice.rules import menu_for
from engine.games.old_man_49er.rules import OldMan49er
from tests.support.reveal import check_everyone, finish, play_randomly, rig


def new(seats: int = 3, seed: int = 1, **options: object) -> OldMan49er:
    stacks = options.pop("stacks", [200] * seats)
    return OldMan49er([f"P{s}" for s in range(seats)], {"stacks": stacks, **options},
                      random.Random(seed))


def test_registered_as_a_chip_game_offered_in_dealers_choice() -> None:
    assert GAMES["old_man_49er"] is OldMan49er and OldMan49er.chip_game
    assert "old_man_49er" in menu_for(2) and "old_man_49er" in menu_for(7)
    assert "old_man_49er" not in menu_for(8)


def test_card_values_aces_to_the_players_advantage_for_each_side() -> None:
    game = new()
    hand = parse_cards("Ah Ad 9c 9d Kh")
    assert game.high_total(hand) == 40  # both aces 11, the king 0
    assert game.low_total(hand) == 20  # both aces 1
    assert game.high_total(parse_cards("Jc Qd Ks 2h 10c")) == 12


def test_one_draw_of_up_to_four_then_the_order() -> None:
    game = new()
    assert game.phase == "draw"
    [seat] = game.to_act
    prompt = game.prompt(seat)
    assert prompt is not None and prompt.choices[0].max_cards == 4  # type: ignore[union-attr]
    five = tuple(str(c) for c in game.hands[seat])
    with pytest.raises(IllegalAction, match="at most 4"):
        game.apply(seat, Action("draw", five))
    game.apply(seat, Action("draw", five[:4]))
    assert game.public_view().drawn[seat] == 4
    while game.phase == "draw":
        [seat] = game.to_act
        game.apply(seat, Action("stand"))
    assert game.phase == "order" and game.to_act == frozenset({0, 1, 2})


def test_the_reveal_order_is_picked_with_reset_and_confirmed_once() -> None:
    game = new(seed=2)
    while game.phase == "draw":
        [seat] = game.to_act
        game.apply(seat, Action("stand"))
    hand = list(game.hands[0])
    prompt = game.prompt(0)
    assert prompt is not None and "cannot change" in prompt.text
    labels = [c.label for c in prompt.choices if isinstance(c, Choice)]
    assert labels == [c.label for c in hand] + ["Reset", "Confirm"]
    confirm = prompt.choices[-1]
    assert isinstance(confirm, Choice) and confirm.disabled_reason
    game.apply(0, Action("pick", (str(hand[3]),)))
    game.apply(0, Action("reset"))
    assert game.view(0).picked == ()
    for card in (hand[4], hand[2], hand[0], hand[1]):
        game.apply(0, Action("pick", (str(card),)))
    assert game.view(0).picked == tuple(str(c) for c in (hand[4], hand[2], hand[0], hand[1],
                                                         hand[3]))  # the last one follows
    assert not game.view(1).picked and game.public_view().ordered == (False, False, False)
    game.apply(0, Action("confirm"))
    assert game.public_view().ordered == (True, False, False)
    assert game.hands[0] == [hand[4], hand[2], hand[0], hand[1], hand[3]]
    for action in (Action("reset"), Action("pick", (str(hand[0]),)),
                   Action("order", tuple(str(c) for c in hand))):
        with pytest.raises(IllegalAction, match="cannot change"):
            game.apply(0, action)
    for seat in (1, 2):
        game.apply(seat, TIMEOUT)  # a timeout keeps the cards as held
    assert game.phase == "bet"
    assert game.hands[0] == [hand[4], hand[2], hand[0], hand[1], hand[3]]


def test_reveals_are_simultaneous_and_show_every_exposed_card_and_total() -> None:
    game = new()
    rig(game, {0: "Ah 2c 3d 4s 5h", 1: "Kd 9c 9d Qs Jc", 2: "Ac As 10h 10d 10c"})
    events = check_everyone(game)
    [reveal] = [e for e in events if e.kind == "reveal"]
    assert reveal.is_public
    assert reveal.data["cards"] == {"0": "Ah", "1": "Kd", "2": "Ac"}
    assert reveal.data["totals"] == {"0": [1, 11], "1": [0, 0], "2": [1, 11]}
    assert game.public_view().exposed == (("Ah",), ("Kd",), ("Ac",))
    assert game.public_view().hidden == (4, 4, 4)


def test_the_highest_exposed_total_leads_aces_as_eleven_ties_from_the_dealers_left() -> None:
    game = new(4, button=0)
    events = rig(game, {0: "9h 2c 3d 4s 5h", 1: "Kd 9c 9d Qs Jc", 2: "Ac As 10h 10d 10c",
                        3: "Ad 8s 7s 6s 5s"})
    assert game.lead == 1  # nothing shown: from the dealer's left
    check_everyone(game)
    # shown: 9, K (0), A (11), A (11): the aces tie at 11, seat 2 is nearer the dealer's left
    assert game.lead == 2 and game.to_act == frozenset({2})
    assert events


def test_exactly_49_takes_the_whole_pot_whatever_was_declared() -> None:
    game = new()
    rig(game, {0: "Ah 9c 9d 10s 10h", 1: "Kd Qc Jd Ks Qs", 2: "Ac As Ad 2h 10d"})
    finish(game, {0: "low", 1: "low", 2: "high"})
    assert game.result is not None and game.result.chips == (10, -5, -5)
    assert game.showdown is not None and game.showdown["jackpots"] == [0]


def test_several_at_49_split_the_pot() -> None:
    game = new(3, button=2)
    rig(game, {0: "Ah 9c 9d 10s 10h", 1: "As 9h 9s 10c 10d", 2: "Kd Qc Jd Ks Qs"})
    finish(game, {0: "high", 1: "low", 2: "low"})
    assert game.result is not None and game.result.chips == (3, 2, -5)  # odd chip: 0 first


def test_the_pot_splits_high_and_low_odd_chip_to_high() -> None:
    game = new(3, ante=5)
    rig(game, {0: "Ah As 10s 10h 9d", 1: "Kd Qc Jd Ks 2s", 2: "5c 5d 6h 6s 7c"})
    finish(game, {0: "high", 1: "low", 2: "high"})
    assert game.result is not None and game.result.chips == (3, 2, -5)  # 15: 8 high, 7 low


def test_both_must_win_both_ways_a_tie_loses_both() -> None:
    game = new(3)
    rig(game, {0: "Kh Qh Jh 2s Ad", 1: "Kd Qc Jd Ks 3s", 2: "Ac 2c Kc 10h 10c"})
    # seat 0: low 3 (ace 1), high 13; seat 2: low 23 high 33; seat 1 low 3 ties seat 0
    finish(game, {0: "both", 1: "low", 2: "high"})
    assert game.result is not None
    assert game.result.chips == (-5, 2, 3)  # seat 0's failed both: low to 1, high to 2
    assert game.showdown is not None and "lost both" in " ".join(game.showdown["lines"])


def test_both_wins_both_outright_and_scoops() -> None:
    game = new(2)
    rig(game, {0: "Ac As 10s 10h 9d", 1: "5c 5d 6h 6s 7c"})
    finish(game, {0: "both", 1: "high"})
    assert game.result is not None and game.result.chips == (5, -5)


def test_declarations_are_sealed_until_everyone_has_declared() -> None:
    game = new()
    rig(game, {0: "Ah 2c 3d 4s 5h", 1: "Kd 9c 9d Qs Jc", 2: "Ac As 10h 10d 10c"})
    while game.phase != "declare":
        check_everyone(game)
    events = game.apply(0, Action("declare", ("low",)))
    assert [e.kind for e in events if e.is_public] == ["declared"]
    assert game.public_view().declarations is None and game.view(1).declarations is None
    assert game.view(0).declaration == "low" and game.public_view().declared[0]
    game.apply(1, Action("declare", ("high",)))
    events = game.apply(2, TIMEOUT)  # declares nothing: the seat loses the hand
    [shown] = [e for e in events if e.kind == "declarations"]
    assert shown.text == "The declarations: P1 high, P2 did not declare, P0 low."
    assert game.public_view().declarations == ("low", "high", None)
    assert game.phase == "bet" and game.betting.round_no == 4  # the final betting round


def test_a_declaration_left_to_the_clock_loses_the_hand_even_with_49() -> None:
    """Issue 23, rule 3: P0's exactly 49 would take everything whatever it declared, but it
    declared nothing: P1, who declared, takes the pot."""
    game = new(2)
    rig(game, {0: "10c 10d 10h 9s 10s", 1: "2c 3d 4h 5s 6c"})
    assert game.jackpot(game.cards_of(0))
    while game.phase != "declare":
        check_everyone(game)
    game.apply(1, Action("declare", ("low",)))
    game.apply(0, TIMEOUT)
    finish(game, {})
    assert game.result is not None and game.result.chips == (-5, 5)
    assert game.showdown is not None and game.showdown["jackpots"] == []


def test_betting_timeouts_check_else_fold_and_the_draw_stands_pat() -> None:
    game = new()
    [seat] = game.to_act
    game.apply(seat, TIMEOUT)
    assert game.public_view().drawn[seat] == 0
    while game.phase != "bet":
        for s in sorted(game.to_act):
            game.apply(s, TIMEOUT)
    first = game.betting.actor
    assert first is not None
    game.apply(first, TIMEOUT)
    assert game.public_view().last_actions[first] == "check"
    second = game.betting.actor
    assert second is not None
    game.apply(second, Action("bet"))
    third = game.betting.actor
    assert third is not None
    game.apply(third, TIMEOUT)
    assert game.betting.folded[third]


def test_a_lone_player_takes_the_pot_unseen() -> None:
    game = new(2)
    rig(game, {0: "Ah 2c 3d 4s 5h", 1: "Kd 9c 9d Qs Jc"})
    actor = game.betting.actor
    assert actor is not None
    game.apply(actor, Action("bet"))
    other = game.betting.actor
    assert other is not None
    events = game.apply(other, Action("fold"))
    assert game.is_over and game.result is not None and sum(game.result.chips) == 0
    assert "unseen" in events[-2].text


def test_snapshot_round_trip_mid_order() -> None:
    game = new()
    while game.phase == "draw":
        [seat] = game.to_act
        game.apply(seat, Action("stand"))
    game.apply(0, Action("pick", (str(game.hands[0][2]),)))
    again = OldMan49er.from_dict(game.to_dict())
    assert again.to_dict() == game.to_dict() and again.view(0) == game.view(0)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32), seats=st.integers(2, 7))
def test_chips_conserved_and_nothing_face_down_or_sealed_is_ever_public(
    seed: int, seats: int
) -> None:
    stacks = [random.Random(seed).randint(3, 150) for _ in range(seats)]
    play_randomly(new(seats, seed, stacks=stacks, button=seed % seats), seed)
