"""Badugi as the table plays it (engine/games/badugi/rules.py): one deal per game on the stacks the
table gives it, one test per ruling of the seed and RULINGS.md."""

from __future__ import annotations

import json
import random

import pytest

from engine.cards import Card, parse_cards, standard_deck
from engine.game import TIMEOUT, Action, CardPick, Choice, IllegalAction
from engine.games import GAMES
from engine.games.badugi.rules import Badugi

NAMES = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay"]


def new(stacks: list[int], button: int = 0, seed: int = 1, **options: int) -> Badugi:
    return Badugi(NAMES[: len(stacks)], {"stacks": stacks, "button": button, **options},
                  random.Random(seed))


def rigged(hands: list[str], stock: str, stacks: list[int], button: int = 0) -> Badugi:
    """A deal with the hands and the top of the stock named (the stock's first card is the
    first draw's burn); the other cards follow in a fixed order."""
    game = new(stacks, button)
    named = [parse_cards(hand) for hand in hands]
    top = parse_cards(stock)
    used = {str(c) for c in [*top, *(c for hand in named for c in hand)]}
    game.hands = named
    game.stock = top + [c for c in standard_deck() if str(c) not in used]
    return game


def act(game: Badugi, *moves: str) -> None:
    """Apply betting moves (or "stand" / "draw:Ah 2c") for whoever is to act, in order."""
    for move in moves:
        (seat,) = game.to_act
        if move.startswith("draw:"):
            game.apply(seat, Action("draw", tuple(move[5:].split())))
        else:
            game.apply(seat, Action(move))


def test_registered_as_a_chip_game() -> None:
    assert GAMES["badugi"] is Badugi and Badugi.chip_game and Badugi.kind == "badugi"


def test_options_are_checked() -> None:
    with pytest.raises(ValueError, match="stacks"):
        Badugi(["Ann", "Bob"], {}, random.Random(1))
    with pytest.raises(ValueError, match="positive"):
        new([100, 0])
    with pytest.raises(ValueError, match="button"):
        new([100, 100], button=2)
    with pytest.raises(ValueError, match="unknown Badugi options: colour"):
        new([100, 100], colour=1)
    with pytest.raises(ValueError, match="small bet"):
        new([100, 100], small_bet=30)
    assert new([100, 100], buy_in=200).public_view().pot == 10  # the cash table's own option


def test_everyone_antes_and_gets_four_cards_one_at_a_time_from_the_dealers_left() -> None:
    seed = 5
    game = new([100, 100, 100], button=1, seed=seed)
    deck = list(standard_deck())
    random.Random(seed).shuffle(deck)
    assert game.hands[2] == deck[0:12:3] and game.hands[0] == deck[1:12:3]
    assert game.hands[1] == deck[2:12:3]
    view = game.public_view()
    assert view.stacks == (95, 95, 95) and view.pot == 15 and view.to_act == (2,)


def test_the_betting_prompt_shows_the_pot_and_the_amount_to_call() -> None:
    game = new([100, 100, 100])
    prompt = game.prompt(1)
    assert prompt is not None and prompt.text.startswith("Pot 15. Nothing to call.")
    assert [c.label for c in prompt.choices if isinstance(c, Choice)] == ["Check", "Bet 10"]
    act(game, "bet")
    prompt = game.prompt(2)
    assert prompt is not None and prompt.text.startswith("Pot 25. To call: 10.")
    labels = [c.label for c in prompt.choices if isinstance(c, Choice)]
    assert labels == ["Fold", "Call 10", "Raise to 20"]
    assert game.legal_actions(2) == [Action("fold"), Action("call"), Action("raise")]


def test_small_bets_before_the_second_draw_big_bets_after() -> None:
    game = new([500, 500])
    sizes = []
    for _round in range(4):
        act(game, "bet")
        sizes.append(game.public_view().bets[1])
        act(game, "call")
        if not game.is_over:
            act(game, "stand", "stand")
    assert sizes == [10, 10, 20, 20] and game.is_over


def test_a_bet_and_three_raises_a_round() -> None:
    game = new([500, 500])
    act(game, "bet", "raise", "raise", "raise")
    assert game.legal_actions(1) == [Action("fold"), Action("call")]
    with pytest.raises(IllegalAction, match="capped"):
        game.apply(1, Action("raise"))


def test_a_wrong_betting_word_is_refused_with_the_reason() -> None:
    game = new([100, 100])
    with pytest.raises(IllegalAction, match="no bet to fold to"):
        game.apply(1, Action("fold"))
    act(game, "bet")
    with pytest.raises(IllegalAction, match="call 10 or fold"):
        game.apply(0, Action("check"))
    with pytest.raises(IllegalAction, match="not your turn"):
        game.apply(1, Action("call"))


def test_a_draw_is_a_pick_of_0_to_4_cards_and_only_its_count_is_public() -> None:
    game = rigged(["Kc Kd Kh Ks", "Ac 2d 3h 4s"], "5c 6d 7h 8s 9c", [100, 100])
    act(game, "check", "check")
    assert game.phase == "draw" and game.to_act == {1}
    prompt = game.prompt(1)
    assert prompt is not None
    pick = prompt.choices[0]
    assert isinstance(pick, CardPick) and (pick.min_cards, pick.max_cards) == (0, 4)
    act(game, "stand")
    events = game.apply(0, Action("draw", ("Kc", "Kd", "Kh")))
    public = [e for e in events if e.is_public and e.kind == "draw"]
    private = [e for e in events if e.seat == 0]
    assert public[0].text == "Ann draws 3." and "K" not in public[0].text
    assert private[0].data["drawn"] == ["6d", "7h", "8s"]  # 5c was burned
    assert game.burned == parse_cards("5c")
    assert sorted(map(str, game.hands[0])) == ["6d", "7h", "8s", "Ks"]
    assert game.public_view().draws == ((3,), (0,))
    assert "6d" not in json.dumps(game.public_view().to_json())
    assert game.view(0).hand == ("6d", "7h", "8s", "Ks")


def test_the_discards_are_shuffled_into_a_new_stock_when_it_runs_out() -> None:
    game = new([500] * 6, seed=3)
    game.stock, game.discards = game.stock[:3], game.stock[3:]  # as if most were thrown
    act(game, *["check"] * 6)
    thrown = [str(c) for c in game.hands[1]]
    act(game, "draw:" + " ".join(thrown))
    assert game.reshuffles == 1
    assert not set(thrown) & {str(c) for c in game.hands[1]}  # never your own discards
    cards = [c for hand in game.hands for c in hand] + game.stock + game.discards
    assert sorted(map(str, cards)) == sorted(map(str, standard_deck())) and len(cards) == 52


def test_timeouts_check_when_possible_else_fold_and_stand_pat_in_a_draw() -> None:
    game = new([100, 100, 100])
    game.apply(1, TIMEOUT)
    assert game.public_view().last_actions[1] == "check"
    act(game, "bet")
    game.apply(0, TIMEOUT)
    assert game.public_view().folded == (True, False, False)
    act(game, "call")
    assert game.phase == "draw"
    hand = list(game.hands[1])
    game.apply(1, TIMEOUT)
    assert game.hands[1] == hand and game.public_view().draws[1] == (0,)


def test_a_lone_player_takes_the_pot_without_a_showdown() -> None:
    game = new([100, 100, 100])
    act(game, "bet", "fold", "fold")
    assert game.is_over and game.result is not None
    assert game.result.chips == (-5, 10, -5) and game.result.scores == (95, 110, 95)
    assert game.public_view().showdown == {"hands": {}, "awards": [
        {"index": 0, "amount": 15, "eligible": [1], "shares": {"1": 15}}], "lone": 1}


def test_the_best_badugi_takes_the_pot_and_a_badugi_beats_any_three_card_hand() -> None:
    game = rigged(["Ac 2c 3d 4h", "Kc Qd Jh Ts"], "", [100, 100])
    for _round in range(4):
        act(game, "check", "check")
        if not game.is_over:
            act(game, "stand", "stand")
    assert game.result is not None and game.result.chips == (-5, 5)
    showdown = game.public_view().showdown
    assert showdown is not None and showdown["descriptions"] == {
        "1": "4-card badugi, K-Q-J-T", "0": "3-card hand, 4-3-A"}


def test_a_short_stack_all_in_wins_only_the_main_pot_and_still_draws() -> None:
    # Bob (seat 1) has 7 chips behind his ante; Cid wins the side pot from Ann
    game = rigged(["Kc Kd Kh Ks", "Ac 2d 3h 4s", "5c 6d 7h 8s"], "", [200, 12, 200])
    act(game, "bet", "raise", "call")  # Bob all-in for 7 (half a bet: a full bet here)
    assert game.public_view().all_in == (False, True, False)
    assert game.phase == "draw" and game.to_act == {1}  # the all-in player draws too
    act(game, "stand", "stand", "stand")
    for _round in range(3):
        act(game, "check", "check")
        if not game.is_over:
            act(game, "stand", "stand", "stand")
    result = game.result
    assert result is not None and result.chips == (-22, 24, -2)
    awards = game.public_view().showdown["awards"]  # type: ignore[index]
    assert [(a["amount"], a["shares"]) for a in awards] == [(36, {"1": 36}), (20, {"2": 20})]


def test_betting_is_skipped_when_nobody_can_bet_and_the_draws_go_on() -> None:
    game = new([5, 5, 100])  # two players all-in on the ante
    assert game.phase == "draw" and game.public_view().to_call == 0
    for _draw in range(3):
        act(game, "stand", "stand", "stand")
    assert game.is_over and game.result is not None and sum(game.result.chips) == 0


def test_a_tie_splits_the_pot_with_odd_chips_from_the_dealers_left() -> None:
    game = rigged(["Ac 2d 3h 4s", "Ad 2c 3s 4h", "Kc Kd Kh Ks"], "", [100, 100, 100],
                  button=2)
    act(game, "bet", "call", "fold")  # 15 in antes + 20 = 35
    for _round in range(3):
        act(game, "stand", "stand", "check", "check")
    result = game.result
    assert result is not None and result.chips == (3, 2, -5)  # Ann, first left, gets 18


def test_result_places_follow_the_final_stacks() -> None:
    game = new([100, 50, 100])
    act(game, "bet", "fold", "fold")
    result = game.result
    assert result is not None
    assert result.scores == (95, 60, 95) and result.places == (1, 3, 1)
    assert result.winners == (1,) and sum(result.chips) == 0


def test_hands_stay_hidden_until_the_showdown() -> None:
    game = new([100, 100, 100])
    public = json.dumps(game.public_view().to_json())
    for seat in range(3):
        mine = game.view(seat)
        assert len(mine.hand) == 4 and mine.hand_value
        for card in game.hands[seat]:
            assert f'"{card}"' not in public
            for other in range(3):
                if other != seat:
                    assert f'"{card}"' not in json.dumps(game.view(other).to_json())


def test_the_snapshot_round_trips_mid_deal() -> None:
    game = new([100, 30, 100])
    act(game, "bet", "raise", "call", "call")
    again = Badugi.from_dict(json.loads(json.dumps(game.to_dict())))
    assert again.to_dict() == game.to_dict() and again.public_view() == game.public_view()


def test_the_ai_raises_a_good_badugi_and_stands_pat_with_it() -> None:
    game = rigged(["Kc Kd Kh Ks", "Ac 2d 3h 4s"], "", [100, 100])
    rng = random.Random(1)
    assert game.ai_action(1, rng) == Action("bet")
    act(game, "bet")
    assert game.ai_action(0, rng) == Action("fold")  # four kings: a 1-card hand
    act(game, "call")
    assert game.ai_action(1, rng) == Action("stand")
    act(game, "stand")
    assert game.ai_action(0, rng) == Action("draw", ("Kd", "Kh", "Ks"))


def test_the_ai_folds_rags_to_a_bet_on_the_last_round() -> None:
    game = rigged(["Kc Kd Kh Ks", "Ac 2d 3h 4s"], "", [100, 100])
    act(game, "check", "check")
    for _round in range(3):
        act(game, "stand", "stand")
        if _round < 2:
            act(game, "check", "check")
    act(game, "bet")
    assert game.ai_action(0, random.Random(1)) == Action("fold")


def test_the_ai_wins_chips_from_an_always_call_player() -> None:
    """Not a benchmark (bench/ has those): a check that the policy is not a losing one."""
    net = 0
    for deal in range(150):
        game = new([200, 200], button=deal % 2, seed=deal)
        rng = random.Random(deal)
        while not game.is_over:
            (seat,) = game.to_act
            if seat == 0 or game.phase == "draw":
                action = game.ai_action(seat, rng)
            else:
                names = [a.name for a in game.legal_actions(seat)]
                action = Action("call" if "call" in names else "check")
            game.apply(seat, action)
        assert game.result is not None
        net += game.result.chips[0]
    assert net > 0


def test_cards_are_conserved_through_a_deal() -> None:
    game = new([200, 23, 120, 9], seed=9)
    rng = random.Random(9)
    while not game.is_over:
        (seat,) = game.to_act
        game.apply(seat, game.ai_action(seat, rng))
        cards: list[Card] = [c for h in game.hands for c in h] + game.stock + game.discards
        assert len(set(map(str, cards))) == len(cards) <= 52
