"""Red Dog as RULINGS.md and docs/rules/red_dog.md rule it: one test per ruling (the ante,
the bet limits, a bet won from and lost to the pot, rounds without an ante while the pot
holds chips, the empty pot, broke players and the endings the rules page decides), then
properties over random games: chips conserved, the pot never negative, no hand card in a
view or event before the rules show it.

Hands and the next cards are set through the snapshot (`rigged`), the same way a restored
table would carry them, so the game runs its own code on them."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cards import Card, parse_card, parse_cards, standard_deck
from engine.game import TIMEOUT, Action, Choice, Event, IllegalAction
from engine.games import GAMES
from engine.games.red_dog.ai import red_dog_ai
from engine.games.red_dog.odds import beats, bet_sizes, odds, winning_card
from engine.games.red_dog.rules import RedDog

NAMES = ["Ann", "Bob", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ida", "Jo"]
SEED_HAND = "Kc Qd Qs 8h 3d"  # the seed's example


def new(stacks: list[int], seed: int = 1, **options: Any) -> RedDog:
    return RedDog(NAMES[: len(stacks)], {"stacks": stacks, **options}, random.Random(seed))


def rigged(game: RedDog, hands: dict[int, str], stock: str = "") -> RedDog:
    """The game with these hands (by seat) and these cards next on the stock; every other
    card of the deck follows in the game's own order."""
    data = game.to_dict()
    named = {seat: parse_cards(text) for seat, text in hands.items()}
    top = parse_cards(stock)
    used = {card for cards in named.values() for card in cards} | set(top)
    for seat, cards in named.items():
        data["hands"][seat] = [str(c) for c in sorted(cards, key=Card.sort_key)]
    kept = [c for hand in data["hands"] for c in hand]
    rest = [str(c) for c in standard_deck() if c not in used and str(c) not in kept]
    data["stock"] = [str(c) for c in top] + rest
    return RedDog.from_dict(json.loads(json.dumps(data)))


def bet(n: int) -> Action:
    return Action("bet", (n,))


PASS = Action("pass")


def total(game: RedDog) -> int:
    return sum(game.stacks) + game.pot


# --- setting up -------------------------------------------------------------------------------


def test_red_dog_is_a_registered_chip_game() -> None:
    assert GAMES["red_dog"] is RedDog and RedDog.chip_game
    assert (RedDog.min_seats, RedDog.max_seats) == (2, 10)


def test_everyone_antes_once_into_the_pot_default_one_chip() -> None:
    game = new([20, 20, 20])
    assert game.pot == 3 and game.stacks == [19, 19, 19]
    bigger = new([20, 20, 20], ante=5)
    assert bigger.pot == 15 and bigger.stacks == [15, 15, 15]
    assert bigger.public_view().ante == 5


def test_the_first_bettor_sits_left_of_the_button() -> None:
    assert new([20, 20, 20]).to_act == {1}
    assert new([20, 20, 20], button=2).to_act == {0}
    assert new([20, 20, 20], button=2).public_view().order == (0, 1, 2)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"stacks": [10, 10], "limit": 5}, "unknown Red Dog options: limit"),
        ({}, "stacks must list the chips"),
        ({"stacks": [10]}, "stacks must list the chips"),
        ({"stacks": [10, -1]}, "whole numbers"),
        ({"stacks": [10, True]}, "whole numbers"),
        ({"stacks": [10, 10], "ante": 0}, "ante must be"),
        ({"stacks": [10, 10], "button": 2}, "button must be"),
        ({"stacks": [10, 10], "turn_seconds": 0}, "turn_seconds"),
        ({"stacks": [10, 0], "ante": 1}, "two players who can pay the ante"),
        ({"stacks": [10, 4], "ante": 5}, "two players who can pay the ante"),
    ],
)
def test_options_are_checked(options: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        RedDog(["Ann", "Bob"], options, random.Random(1))


def test_a_stack_below_the_ante_sits_the_game_out() -> None:
    game = new([10, 3, 10], ante=5)
    assert game.players == [0, 2] and game.pot == 10 and game.stacks == [5, 3, 5]
    assert game.hands[1] == [] and game.public_view().order == (2, 0)
    while not game.is_over:
        [seat] = game.to_act
        assert seat != 1
        game.apply(seat, bet(1))
    assert game.result is not None and game.result.chips[1] == 0 and game.stacks[1] == 3


def test_five_cards_each_and_four_with_more_than_eight_players() -> None:
    assert {len(h) for h in new([20] * 8).hands} == {5}
    assert {len(h) for h in new([20] * 9).hands} == {4}
    ten = new([20] * 10)
    assert {len(h) for h in ten.hands} == {4} and len(ten.stock) == 12


# --- bets ---------------------------------------------------------------------------------


def test_a_bet_is_one_chip_up_to_the_pot_and_the_stack() -> None:
    game = rigged(new([20, 20, 20]), {})
    assert game.pot == 3 and game.max_bet(1) == 3
    assert game.legal_actions(1) == [PASS, bet(1), bet(2), bet(3)]
    assert game.legal_actions(0) == [] and game.max_bet(0) == 0
    before = game.to_dict()
    for action, message in [
        (bet(0), "smallest bet is 1"),
        (bet(4), "more than the pot: it holds 3"),
        (Action("bet", ("two",)), "whole number"),
        (Action("bet", (1.5,)), "whole number"),
        (Action("bet", ()), "whole number"),
        (Action("raise", (2,)), "or pass"),
        (Action("pass", (1,)), "no amount"),
    ]:
        with pytest.raises(IllegalAction, match=message):
            game.apply(1, action)
    with pytest.raises(IllegalAction, match="not your turn"):
        game.apply(0, bet(1))
    assert game.to_dict() == before


def test_no_bet_exceeds_the_bettors_stack() -> None:
    game = new([3, 40, 40], button=2)  # seat 0 bets first with 2 chips against a pot of 3
    assert game.to_act == {0} and game.pot == 3 and game.stacks[0] == 2
    assert game.max_bet(0) == 2
    with pytest.raises(IllegalAction, match="only 2 chips"):
        game.apply(0, bet(3))
    labels = [c.label for c in game.prompt(0).choices]  # type: ignore[union-attr]
    assert labels == ["Pass", "Bet 1", "Bet 2 (all in)"]


def test_the_seeds_example_wins_with_a_higher_card_of_the_suit() -> None:
    hand = parse_cards(SEED_HAND)
    wins = ["2c", "Qc", "2d", "Jd", "2s", "Js", "2h", "7h"]
    losses = ["Ac", "Kd", "Ad", "Ks", "As", "9h", "Ah", "8h"]
    assert all(beats(hand, parse_card(c)) for c in wins)
    assert not any(beats(hand, parse_card(c)) for c in losses)
    assert winning_card(hand, parse_card("5d")) == parse_card("Qd")
    assert winning_card(hand, parse_card("2d")) == parse_card("3d")  # the lowest that wins
    assert odds(hand) == (36, 47)


def test_a_won_bet_is_paid_from_the_pot() -> None:
    game = new([20, 20, 20], ante=2)  # pot 6
    game = rigged(game, {1: SEED_HAND}, stock="Jd")
    events = game.apply(1, bet(4))
    assert game.stacks[1] == 18 + 4 and game.pot == 2
    [reveal] = [e for e in events if e.kind == "reveal"]
    assert reveal.is_public and reveal.data["won"] and reveal.data["by"] == "Qd"
    assert "J♦" in reveal.text and "takes 4 from the pot" in reveal.text
    assert game.public_view().turns[0].hand == ("3d", "8h", "Qd", "Qs", "Kc")


def test_a_lost_bet_goes_into_the_pot() -> None:
    game = rigged(new([20, 20, 20], ante=2), {1: SEED_HAND}, stock="9h")
    events = game.apply(1, bet(5))
    assert game.stacks[1] == 18 - 5 and game.pot == 11
    [reveal] = [e for e in events if e.kind == "reveal"]
    assert not reveal.data["won"] and "go into the pot" in reveal.text


def test_aces_are_high_an_ace_turned_is_never_beaten() -> None:
    game = rigged(new([20, 20]), {1: "Kh Kd Ks Kc Qh"}, stock="Ah")
    game.apply(1, bet(1))
    assert game.pot == 3
    game = rigged(new([20, 20]), {1: "Ah 2c 2d 2s 3c"}, stock="Kh")
    game.apply(1, bet(2))
    assert game.pot == 0


def test_each_bet_is_settled_before_the_next_player_bets() -> None:
    game = rigged(new([20, 20, 20], ante=2), {1: SEED_HAND, 2: "2c 2d 2h 2s 3c"}, "9h Kc")
    game.apply(1, bet(6))  # loses: the pot is now 12
    assert game.to_act == {2} and game.max_bet(2) == 12
    game.apply(2, bet(12))  # loses too
    assert game.pot == 24 and game.to_act == {0} and game.max_bet(0) == 18


# --- rounds and the end of the game -------------------------------------------------------


def test_a_new_round_is_dealt_without_an_ante_while_the_pot_holds_chips() -> None:
    game = rigged(new([20, 20, 20]), {1: SEED_HAND}, stock="9h")
    old_hands = [list(h) for h in game.hands]
    game.apply(1, bet(2))  # lost: pot 5
    game.apply(2, PASS)
    events = game.apply(0, PASS)
    assert game.round_no == 2 and game.pot == 5
    assert game.stacks == [19, 17, 19]  # no new ante
    assert game.dealer == 1 and game.to_act == {2}  # the deal passed to the left
    assert game.hands != old_hands and all(len(game.hands[s]) == 5 for s in range(3))
    assert [e.kind for e in events].count("deal") == 1
    assert {e.seat for e in events if e.kind == "hand"} == {0, 1, 2}
    view = game.public_view()
    assert view.deal == 2 and view.turns == ()
    assert view.last_deal is not None and view.last_deal["round"] == 1


def test_an_empty_pot_ends_the_game_at_once_even_mid_round() -> None:
    game = rigged(new([20, 20, 20]), {1: SEED_HAND}, stock="5d")
    events = game.apply(1, bet(3))
    assert game.is_over and game.pot == 0 and not game.to_act
    assert game.result is not None
    assert game.result.chips == (-1, 2, -1) and sum(game.result.chips) == 0
    assert game.result.scores == (19, 22, 19) and game.result.places == (2, 1, 2)
    assert game.result.winners == (1,)
    assert events[-1].kind == "game_over" and "The pot is empty." in events[-1].text
    assert game.timers() == [] and game.prompt(2) is None
    with pytest.raises(IllegalAction, match="over"):
        game.apply(2, PASS)


def test_a_round_nobody_bets_in_ends_the_game_sharing_the_pot() -> None:
    game = rigged(new([20, 20, 20], ante=2), {1: SEED_HAND}, stock="9h")
    game.apply(1, bet(1))  # lost: pot 7
    game.apply(2, PASS)
    game.apply(0, PASS)
    assert game.round_no == 2 and game.dealer == 1  # round 2: seat 2 bets first
    for seat in (2, 0, 1):
        game.apply(seat, PASS)
    assert game.is_over and game.pot == 0
    # 7 chips among 3 players: 2 each, the odd chip to the first left of the dealer (seat 2)
    assert game.stacks == [18 + 2, 17 + 2, 18 + 3]
    assert game.result is not None and game.result.chips == (0, -1, 1)


def test_a_session_deal_of_five_rounds_shares_what_is_left() -> None:
    game = new([20, 20, 20], max_rounds=2)  # a session sets 5; 2 is enough to see it
    for _round in (1, 2):
        first, *others = game.order
        game = rigged(game, {first: "2c 2d 2h 2s 3c"}, stock="Kc")
        game.apply(first, bet(1))  # lost: the pot grows by 1
        for seat in others:
            game.apply(seat, PASS)
    assert game.is_over and game.round_no == 2 and game.pot == 0
    # seats 1 and 2 each lost a chip; the 5 in the pot are shared 2, 2, 1 from the left of
    # round 2's dealer (seat 1): seat 2, seat 0, then seat 1
    assert game.stacks == [19 + 2, 18 + 1, 18 + 2]
    assert game.result is not None and "2 rounds" in game.result.summary
    with pytest.raises(ValueError, match="max_rounds"):
        new([20, 20], max_rounds=0)


def test_a_broke_player_is_dealt_no_more() -> None:
    game = rigged(new([4, 20, 20], button=2), {0: "2c 2d 2h 2s 3c"}, stock="Kc")
    game.apply(0, bet(3))  # all of seat 0's chips
    assert game.stacks[0] == 0
    game.apply(1, PASS)
    game.apply(2, bet(1))  # the pot of 6 cannot empty
    assert game.round_no == 2 and 0 not in game.order and game.hands[0] == []
    assert game.public_view().hand_sizes[0] == 0 and game.stacks[0] == 0


def test_when_nobody_has_chips_left_the_game_ends_sharing_the_pot() -> None:
    game = rigged(new([3, 3]), {1: "2c 2d 2h 2s 3c", 0: "4d 3d 3h 3s 4c"}, stock="Kc Kd")
    game.apply(1, bet(2))  # loses all: pot 4
    assert game.stacks == [2, 0] and game.to_act == {0}
    events = game.apply(0, bet(2))  # loses all: pot 6, nobody has chips
    assert game.is_over and game.stacks == [3, 3] and game.pot == 0
    assert game.result is not None and game.result.chips == (0, 0)
    assert "Nobody has chips left" in events[-1].text and events[-1].data["shares"] == [3, 3]


def test_odd_chips_of_a_pot_nobody_can_bet_go_from_the_left_of_the_last_rounds_dealer(
) -> None:
    """Issue 23, rule 4: stacks 2 / 3 / 3, ante 1, dealer 0. Round 1 (dealt by seat 0):
    Bob loses a chip. Round 2 (dealt by Bob): everyone loses all they have, so nobody can
    bet: the 8 chips are shared 3, 3, 2, the odd chips from the left of round 2's dealer
    (Cy, then Ann), not from the left of a round 3 nobody dealt (Ann, then Bob)."""
    low = "2c 2d 2h 2s 3c"
    game = rigged(new([2, 3, 3], ante=1, button=0), {1: low}, stock="Ac")
    game.apply(1, bet(1))  # loses: pot 4
    game.apply(2, PASS)
    game.apply(0, PASS)
    assert game.round_no == 2 and game.dealer == 1 and game.order == [2, 0, 1]
    game = rigged(game, {2: low, 0: "4c 4d 4h 4s 5c", 1: "6c 6d 6h 6s 7c"}, stock="Ac Ad Ah")
    game.apply(2, bet(2))
    game.apply(0, bet(1))
    events = game.apply(1, bet(1))  # pot 8, and nobody has a chip left
    assert game.is_over and game.pot == 0 and game.dealer == 1
    assert game.stacks == [3, 2, 3]
    assert "Nobody has chips left" in events[-1].text and events[-1].data["shares"] == [3, 2, 3]


def test_players_who_ante_their_whole_stack_get_it_back_at_once() -> None:
    game = RedDog(["Ann", "Bob"], {"stacks": (2, 2), "ante": 2}, random.Random(1))
    assert game.is_over and game.round_no == 0 and not game.to_act
    assert game.stacks == [2, 2] and game.result is not None
    assert game.result.chips == (0, 0) and game.result.winners == ()
    assert game.options["stacks"] == [2, 2]  # JSON-safe, as the snapshot stores it
    [event] = [e for e in game.opening_events() if e.kind == "game_over"]
    assert "Nobody has chips left" in event.text


def test_the_winner_is_who_won_the_most_chips_places_go_by_final_stack() -> None:
    game = rigged(new([10, 50, 20]), {1: "2c 2d 2h 2s 3c", 2: SEED_HAND}, stock="Kc 5d")
    game.apply(1, bet(3))  # loses: pot 6
    game.apply(2, bet(6))  # wins: the pot is empty
    assert game.result is not None
    assert game.result.chips == (-1, -4, 5) and game.result.winners == (2,)
    assert game.result.scores == (9, 46, 25) and game.result.places == (3, 1, 2)
    assert game.result.summary.startswith("The pot is empty. Final stacks: Ann 9 (-1)")


def test_a_timeout_passes_and_risks_nothing() -> None:
    game = new([20, 20, 20])
    before = list(game.stacks), game.pot
    events = game.apply(1, TIMEOUT)
    assert (list(game.stacks), game.pot) == before and game.to_act == {2}
    assert [e.kind for e in events] == ["timeout", "pass"]
    assert game.public_view().turns[0].bet == 0 and game.public_view().turns[0].hand == ()


def test_a_lone_player_with_chips_plays_on_against_the_pot() -> None:
    game = rigged(new([2, 20], button=1), {0: "2c 2d 2h 2s 3c"}, stock="Kc")
    game.apply(0, bet(1))  # seat 0 is broke
    game.apply(1, PASS)
    assert not game.is_over and game.order == [1] and game.to_act == {1}


# --- what players are shown -----------------------------------------------------------------


def test_the_prompt_shows_the_pot_and_the_odds_and_offers_buttons_within_the_limits() -> None:
    game = rigged(new([30, 100, 100]), {1: SEED_HAND})
    game.pot, game.stacks = 40, [29, 99, 99]
    prompt = game.prompt(1)
    assert prompt is not None and game.prompt(0) is None
    # The hand is the seat view's (shown above the prompt), said once; the prompt is shown
    # bold as a whole, so it has no bold of its own.
    assert "40 chips" in prompt.text and "**" not in prompt.text
    assert "Your hand:" not in prompt.text and game.view(1).hand
    assert "36 of the 47" in prompt.text
    choices = [c for c in prompt.choices if isinstance(c, Choice)]
    assert [c.label for c in choices] == [
        "Pass", "Bet 1", "Bet 10 (¼ pot)", "Bet 20 (½ pot)", "Bet 40 (the pot)"]
    for choice in choices:
        game.legal_actions(1).index(choice.action)  # every button is a legal action
    assert bet_sizes(40, 29) == [1, 10, 20, 29]


def test_a_passers_hand_is_never_shown_and_a_bettors_is_shown_once_turned() -> None:
    game = rigged(new([20, 20, 20]), {1: SEED_HAND, 2: "Ah Ad As Ac Kh"}, stock="5d")
    game.apply(1, PASS)
    public = json.dumps(game.public_view().to_json())
    assert all(f'"{c}"' not in public for c in SEED_HAND.split())
    events = game.apply(2, bet(1))
    public = json.dumps(game.public_view().to_json())
    assert all(f'"{c}"' in public for c in ["Ah", "Ad", "As", "Ac", "Kh"])
    assert all(f'"{c}"' not in public for c in SEED_HAND.split())
    assert game.view(2).hand == tuple(str(c) for c in parse_cards("Kh Ac Ad Ah As"))
    assert any(e.kind == "reveal" for e in events)


def test_the_seat_view_counts_the_cards_seen_this_round() -> None:
    game = rigged(new([20, 20, 20]), {1: "Ah Ad As Ac Kh", 2: SEED_HAND}, stock="2h")
    assert (game.view(2).beats, game.view(2).unseen) == (36, 47)
    game.apply(1, bet(1))  # shows five cards and turns the 2h
    view = game.view(2)
    # 6 cards seen: of them the 2h was one this hand beats (the aces and Kh never were)
    assert view.unseen == 41 and view.beats == 36 - 1
    assert view.to_json()["beats"] == 35


# --- the AI ---------------------------------------------------------------------------------


def test_the_ai_passes_a_weak_hand_and_bets_more_on_a_stronger_one() -> None:
    rng = random.Random(0)
    weak = rigged(new([100, 100, 100]), {1: "2c 3c 4d 5h 6s"})
    weak.pot = 40
    assert red_dog_ai(weak.view(1), rng) == PASS
    fair = rigged(new([100, 100, 100]), {1: SEED_HAND})  # 36/47: bets about half the pot
    fair.pot = 40
    strong = rigged(new([100, 100, 100]), {1: "Ac Ad Ah As Kc"})  # 47 of 47
    strong.pot = 40
    fair_bet = red_dog_ai(fair.view(1), rng)
    strong_bet = red_dog_ai(strong.view(1), rng)
    assert fair_bet.name == strong_bet.name == "bet"
    assert 1 <= fair_bet.args[0] < strong_bet.args[0] == 40


def test_the_ai_never_risks_more_than_its_kelly_share_of_its_stack() -> None:
    game = rigged(new([100, 100, 100]), {1: SEED_HAND})
    game.pot, game.stacks = 200, [99, 10, 99]
    action = red_dog_ai(game.view(1), random.Random(0))
    assert action.name == "bet" and action.args[0] <= 10 * (2 * 36 / 47 - 1) + 1


# --- properties over random games -----------------------------------------------------------


def play_checked(game: RedDog, rng: random.Random, max_steps: int = 3000) -> None:
    """Random play (AI, listed actions, timeouts) with the invariants checked at each step."""
    chips = total(game)
    for _ in range(max_steps):
        if game.is_over:
            break
        assert total(game) == chips and game.pot >= 1 and min(game.stacks) >= 0
        check_hidden(game)
        [seat] = game.to_act
        roll = rng.random()
        if roll < 0.1:
            action = TIMEOUT
        elif roll < 0.6:
            action = game.ai_action(seat, rng)
        else:
            action = rng.choice(game.legal_actions(seat))
        round_before = game.round_no
        events = game.apply(seat, action)
        if game.round_no == round_before and not game.is_over:
            check_events(game, events)
    assert game.is_over and game.pot == 0 and sum(game.stacks) == chips
    result = game.result
    assert result is not None and sum(result.chips) == 0
    assert list(result.scores) == game.stacks
    assert [b + c for b, c in zip(game.brought, result.chips, strict=True)] == game.stacks


def held(game: RedDog) -> list[set[str]]:
    return [{f'"{card}"' for card in hand} for hand in game.hands]


def current(view_json: dict[str, Any]) -> str:
    return json.dumps({k: v for k, v in view_json.items() if k != "last_deal"})


def check_hidden(game: RedDog) -> None:
    public = current(game.public_view().to_json())
    hands = held(game)
    views = [current(game.view(seat).to_json()) for seat in range(len(hands))]
    for seat, cards in enumerate(hands):
        assert not [c for c in cards if c in public], f"seat {seat}'s cards are public"
        for other, seen in enumerate(views):
            if other != seat:
                assert not [c for c in cards if c in seen], f"seat {other} sees seat {seat}'s"


def check_events(game: RedDog, events: list[Event]) -> None:
    for seat, cards in enumerate(held(game)):
        for event in events:
            if event.seat != seat:
                shown = json.dumps(dict(event.data)) + event.text
                labels = {parse_card(c.strip('"')).label for c in cards}
                assert not [c for c in cards if c in shown], f"{event.kind} shows seat {seat}'s"
                assert not [lab for lab in labels if lab in event.text.split()]


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    stacks=st.lists(st.integers(0, 40), min_size=2, max_size=10),
    ante=st.integers(1, 5),
    button=st.integers(0, 9),
    rounds=st.none() | st.integers(1, 6),
)
def test_chips_are_conserved_the_pot_is_never_negative_and_no_hand_leaks(
    seed: int, stacks: list[int], ante: int, button: int, rounds: int | None
) -> None:
    if sum(s >= ante for s in stacks) < 2:
        stacks = [*stacks[:-2], ante, ante + 3]
    game = new(stacks, seed, ante=ante, button=button % len(stacks), max_rounds=rounds)
    play_checked(game, random.Random(seed))


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 10))
def test_a_snapshot_mid_game_plays_on_exactly_like_the_game(seed: int, players: int) -> None:
    game = new([30] * players, seed)
    rng = random.Random(seed)
    for _ in range(rng.randrange(1, 30)):
        if game.is_over:
            break
        [seat] = game.to_act
        game.apply(seat, game.ai_action(seat, rng) if rng.random() < 0.5 else bet(1))
    again = RedDog.from_dict(json.loads(json.dumps(game.to_dict())))
    assert again.public_view() == game.public_view()
    while not game.is_over:
        [seat] = game.to_act
        action = game.ai_action(seat, rng)
        assert again.apply(seat, action) == game.apply(seat, action)
    assert again.to_dict() == game.to_dict()
