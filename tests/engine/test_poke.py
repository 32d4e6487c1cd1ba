"""Poke: the draw and its doubling, trick play with sets, honours, the game at 20 and the
rubber. Deals are set up with the `stacked_deals` option (engine.tricks.deal)."""

import json
import random

import pytest

from engine.cards import Card, parse_cards
from engine.game import TIMEOUT, Action, CardPick, Choice, IllegalAction
from engine.games.poke.rules import Poke
from engine.games.poke.views import ScoreColumn

ANN, BOB = 0, 1
ALL_FIVE, GAME = 250, 100


def new_game(*deals: tuple[str, str, str], first_dealer: int = BOB) -> Poke:
    """Deals as (Ann's hand, Bob's hand, stock top)."""
    stacked = [{"hands": [ann, bob], "stock": stock} for ann, bob, stock in deals]
    options = {"first_dealer": first_dealer, "stacked_deals": stacked}
    return Poke(["Ann", "Bob"], options, random.Random(0))


def act(game: Poke, seat: int, name: str, cards: str = "") -> list:
    return game.apply(seat, Action(name, tuple(cards.split())))


def draw(game: Poke, seat: int, *throws: str) -> None:
    for cards in throws:
        act(game, seat, "draw", cards)


def play(game: Poke, *moves: str) -> list:
    """Moves as "A:Kh" or "B:Kh Kd" (A = Ann, B = Bob)."""
    events = []
    for move in moves:
        who, cards = move.split(":")
        events += act(game, {"A": ANN, "B": BOB}[who], "play", cards)
    return events


# --- the draw ------------------------------------------------------------------------------

DEAL_PLAIN = ("2c 3d 4h 5s 7c", "Ah Kd Qs Jc 9h", "8d 9d Tc 2h 3h")


def test_non_dealer_draws_first_then_the_dealer():
    game = new_game(DEAL_PLAIN)
    assert game.phase == "draw" and game.to_act == {ANN}
    act(game, ANN, "stand")
    assert game.to_act == {BOB}
    act(game, BOB, "stand")
    assert game.phase == "play" and game.to_act == {ANN}  # the non-dealer leads


def test_non_dealer_draws_double_then_redouble_the_dealers_tricks():
    game = new_game(DEAL_PLAIN)
    assert game.public_view().trick_values == (1, 1)
    draw(game, ANN, "7c")
    assert game.public_view().trick_values == (1, 2)
    assert game.to_act == {ANN}
    draw(game, ANN, "8d")
    assert game.public_view().trick_values == (1, 4)
    assert game.to_act == {BOB}  # two draws at most: the turn passes by itself
    assert game.hands[ANN] == parse_cards("2c 3d 4h 5s 9d")


def test_dealer_first_draw_is_free_second_doubles_third_redoubles():
    game = new_game(DEAL_PLAIN)
    act(game, ANN, "stand")
    draw(game, BOB, "9h")
    assert game.public_view().trick_values == (1, 1)
    draw(game, BOB, "Jc")
    assert game.public_view().trick_values == (2, 1)
    draw(game, BOB, "Qs")
    assert game.public_view().trick_values == (4, 1)
    assert game.phase == "play"


def test_the_prompt_states_what_a_draw_costs_before_it_is_made():
    game = new_game(DEAL_PLAIN)
    assert "Drawing doubles you: Bob's tricks will count 2 points each." in game.prompt(ANN).text
    pick = game.prompt(ANN).choices[0]
    assert isinstance(pick, CardPick) and pick.label == "Draw (doubles you)"
    assert (pick.min_cards, pick.max_cards) == (1, 3)
    draw(game, ANN, "7c")
    assert "redoubles you: Bob's tricks will count 4 points each" in game.prompt(ANN).text
    assert game.prompt(ANN).choices[1].label == "Keep this hand"
    draw(game, ANN, "8d")
    assert "first draw is free" in game.prompt(BOB).text
    assert game.prompt(BOB).choices[0].label == "Draw (free)"
    draw(game, BOB, "9h")
    assert "Drawing doubles you: Ann's tricks will count 2 points each." in game.prompt(BOB).text
    draw(game, BOB, "Jc")
    assert "redoubles you: Ann's tricks will count 4" in game.prompt(BOB).text


def test_a_draw_is_one_to_three_cards_from_the_hand():
    game = new_game(DEAL_PLAIN)
    with pytest.raises(IllegalAction, match="1 to 3 cards"):
        act(game, ANN, "draw", "2c 3d 4h 5s")
    with pytest.raises(IllegalAction, match="1 to 3 cards"):
        act(game, ANN, "draw")
    with pytest.raises(IllegalAction, match="don't hold"):
        act(game, ANN, "draw", "Ah")
    with pytest.raises(IllegalAction, match="not your turn"):
        act(game, BOB, "stand")
    assert game.draws == [0, 0]


def test_timeout_stands_pat():
    game = new_game(DEAL_PLAIN)
    game.apply(ANN, TIMEOUT)
    assert game.to_act == {BOB} and game.draws == [0, 0]


# --- trick play and scoring ------------------------------------------------------------------


def test_redoubled_dealer_takes_all_five_tricks_for_game():
    game = new_game(DEAL_PLAIN)
    draw(game, ANN, "7c", "8d")
    act(game, BOB, "stand")
    events = play(game, "A:9d", "B:Ah", "B:Kd", "A:5s", "B:Qs", "A:4h", "B:Jc", "A:3d")
    assert events[-1].text == "Trick 4: Bob J♣, Ann 3♦ — Bob takes it."
    events = play(game, "B:9h", "A:2c")
    end = next(e for e in events if e.kind == "deal_end")
    assert "Bob: 5 tricks x4 (Ann redoubled) = 20 below the line." in end.text
    assert "honours start at a pair" in end.text  # ace high beats nine high: no honours
    assert end.data["tricks_won"] == [0, 5]
    won = next(e for e in events if e.kind == "game_won")
    assert won.data["seat"] == BOB
    sheet = game.public_view()
    assert sheet.above == (0, ALL_FIVE + GAME) and sheet.games_won == (0, 1)
    assert sheet.below == (0, 0)  # a new game starts below the line
    assert game.dealer == ANN and game.to_act == {BOB}  # the dealer alternates


def test_sets_led_and_answered_and_a_clean_rubber():
    game = new_game(
        DEAL_PLAIN,
        ("2d 3h 5c 6s 8h", "Ac Ad As Kh Kc", "9c 9s Tc"),
    )
    draw(game, ANN, "7c", "8d")
    act(game, BOB, "stand")
    play(game, "A:9d", "B:Ah", "B:Kd", "A:5s", "B:Qs", "A:4h", "B:Jc", "A:3d", "B:9h", "A:2c")
    # deal 2: Ann deals; Bob stands, Ann draws three times (redoubled: Bob's tricks x4)
    act(game, BOB, "stand")
    draw(game, ANN, "8h", "9c", "9s")
    assert game.public_view().trick_values == (1, 4)
    prompt = game.prompt(BOB)
    labels = [c.label for c in prompt.choices]
    assert "Lead the three of aces" in labels and "Lead the pair of kings" in labels
    events = play(game, "B:As Ad Ac")
    assert events[-1].text == "Bob leads the three of aces (A♠ A♦ A♣)."
    answer = game.prompt(ANN)
    assert all(
        c.disabled_reason == "Three of a kind was led: play 3 cards."
        for c in answer.choices
        if isinstance(c, Choice)
    )
    pick = next(c for c in answer.choices if isinstance(c, CardPick))
    assert (pick.min_cards, pick.max_cards) == (3, 3)
    events = play(game, "A:2d 3h 5c")
    trick = next(e for e in events if e.kind == "trick")
    assert trick.text.startswith("Tricks 1-3: Bob the three of aces")
    assert trick.text.endswith("Bob takes all 3.") and trick.data["count"] == 3
    events = play(game, "B:Kh Kc", "A:6s Tc")
    end = next(e for e in events if e.kind == "deal_end")
    assert "Honours: Bob's full house, aces over kings beats Ann's" in end.text
    over = events[-1]
    assert over.kind == "game_over" and game.is_over
    # deal 1: 250 + 100; deal 2: 500 honours + 250 + 100 game + 750 rubber (2 games to 0)
    assert game.sheet.above_totals() == [0, 350 + 500 + 250 + 100 + 750]
    assert game.result.winners == (BOB,) and game.result.places == (2, 1)
    assert game.result.scores == (0, 1950)


def test_rubber_two_games_to_one_scores_500():
    game = new_game(
        DEAL_PLAIN,
        ("Ac Ad As Kh Kc", "2d 3h 5c 6s 8h", "9c Tc"),
        DEAL_PLAIN,
    )
    draw(game, ANN, "7c", "8d")
    act(game, BOB, "stand")
    play(game, "A:9d", "B:Ah", "B:Kd", "A:5s", "B:Qs", "A:4h", "B:Jc", "A:3d", "B:9h", "A:2c")
    # deal 2: Bob (non-dealer) redoubles himself, Ann takes every trick
    draw(game, BOB, "8h", "9c")
    act(game, ANN, "stand")
    events = play(game, "B:Tc", "A:Ac", "A:Ad As", "B:2d 3h", "A:Kh Kc", "B:5c 6s")
    assert next(e for e in events if e.kind == "game_won").data["seat"] == ANN
    assert game.sheet.games_won() == [1, 1]
    draw(game, ANN, "7c", "8d")
    act(game, BOB, "stand")
    events = play(
        game, "A:9d", "B:Ah", "B:Kd", "A:5s", "B:Qs", "A:4h", "B:Jc", "A:3d", "B:9h", "A:2c"
    )
    rubber = game.sheet.above[BOB][-1]
    assert rubber == {"points": 500, "why": "rubber"}
    assert game.sheet.above_totals() == [500 + 250 + 100, 350 + 250 + 100 + 500]
    assert game.result.winners == (BOB,)


def test_equal_totals_above_the_line_are_a_drawn_rubber():
    game = new_game(DEAL_PLAIN, ("Ac Ad As Kh Kc", "2d 3h 5c 6s 8h", "9c Tc"), DEAL_PLAIN)
    draw(game, ANN, "7c", "8d")
    act(game, BOB, "stand")
    play(game, "A:9d", "B:Ah", "B:Kd", "A:5s", "B:Qs", "A:4h", "B:Jc", "A:3d", "B:9h", "A:2c")
    draw(game, BOB, "8h", "9c")
    act(game, ANN, "stand")
    play(game, "B:Tc", "A:Ac", "A:Ad As", "B:2d 3h", "A:Kh Kc", "B:5c 6s")
    # restore a snapshot in which Ann holds 350 more above the line (e.g. earlier honours)
    data = game.to_dict()
    data["sheet"]["above"][ANN].append({"points": 350, "why": "honours"})
    game = Poke.from_dict(json.loads(json.dumps(data)))
    draw(game, ANN, "7c", "8d")
    act(game, BOB, "stand")
    events = play(
        game, "A:9d", "B:Ah", "B:Kd", "A:5s", "B:Qs", "A:4h", "B:Jc", "A:3d", "B:9h", "A:2c"
    )
    assert game.sheet.above_totals() == [1200, 1200]
    assert game.result.winners == () and game.result.places == (1, 1)
    assert "Drawn rubber" in events[-1].text


def test_a_tie_at_twenty_plays_on_until_it_breaks():
    redouble = ("Ah Kh Qh 2c 3c", "As Ks 7s 8s 9d", "4d 5d 2h 3h 6d")
    mirrored = ("As Ks 7s 8s 9d", "Ah Kh Qh 2c 3c", "4d 5d 2h 3h 6d")
    game = new_game(redouble, mirrored, ("Ac 2d 3d 4d 6h", "Kc 5s 6s 7d 9c", ""))
    draw(game, ANN, "3c", "4d")
    draw(game, BOB, "9d", "2h", "3h")
    assert game.public_view().trick_values == (4, 4)
    events = play(game, "A:Ah", "B:As")
    assert events[-1].text == "Trick 1: Ann A♥, Bob A♠ — Ann takes it."  # leader wins ties
    play(game, "A:Kh", "B:Ks", "A:Qh", "B:7s", "A:2c", "B:8s", "B:6d", "A:5d")
    assert game.sheet.below_totals() == [12, 8]
    draw(game, BOB, "3c", "4d")
    draw(game, ANN, "9d", "2h", "3h")
    events = play(
        game, "B:Ah", "A:As", "B:Kh", "A:Ks", "B:Qh", "A:7s", "B:2c", "A:8s", "A:6d", "B:5d"
    )
    assert any(e.kind == "game_tied" for e in events)
    assert game.sheet.below_totals() == [20, 20] and game.sheet.games_won() == [0, 0]
    act(game, ANN, "stand")
    act(game, BOB, "stand")
    events = play(
        game, "A:Ac", "B:5s", "A:6h", "B:6s", "A:4d", "B:7d", "B:9c", "A:3d", "B:Kc", "A:2d"
    )
    won = next(e for e in events if e.kind == "game_won")
    assert won.data["seat"] == BOB and won.data["games_won"] == [0, 1]
    assert "Bob wins game 1 (23 to 22)" in won.text


# --- honours ---------------------------------------------------------------------------------


def play_out_singles(game: Poke) -> list:
    """Both stand and play their cards highest first (suits are irrelevant)."""
    act(game, game.non_dealer, "stand")
    act(game, game.dealer, "stand")
    events = []
    while game.phase == "play" and game.deal_no == 1:
        seat = next(iter(game.to_act))
        events += act(game, seat, "play", str(max(game.hands[seat], key=lambda c: c.rank)))
    return events


def test_identical_hands_score_no_honours_and_all_five_tricks_score_250():
    game = new_game(("Ah Ad Kc Qs 9h", "As Ac Kd Qh 9c", ""))
    act(game, ANN, "stand")
    act(game, BOB, "stand")
    events = play(game, "A:Ah Ad", "B:As Ac", "A:Kc", "B:Kd", "A:Qs", "B:Qh", "A:9h", "B:9c")
    end = next(e for e in events if e.kind == "deal_end")
    assert "Both hold pair of aces: identical hands, no honours." in end.text
    assert "Ann took all five tricks: 250 above." in end.text
    assert game.sheet.above == [[{"points": 250, "why": "all five tricks"}], []]
    assert game.sheet.below_totals() == [5, 0]


def test_honours_go_to_the_strictly_better_hand_on_kickers():
    game = new_game(("Ah Ad Kc Qs 9h", "As Ac Qd Jh 9c", ""))
    end = next(e for e in play_out_singles(game) if e.kind == "deal_end")
    assert end.data["honours"] == {"seat": ANN, "points": 50}
    assert "Ann's pair of aces beats Bob's pair of aces: 50 above the line." in end.text


@pytest.mark.parametrize(
    ("hand", "points"),
    [
        ("Ah Kh Qh Jh Th", 1000),
        ("9h 8h 7h 6h 5h", 750),
        ("5c 4d 3h 2s Ac", 300),  # the wheel is a straight
        ("9c 9d 9h 9s 2c", 600),
        ("9c 9d 9h 2s 2c", 500),
        ("2c 7c 9c Jc Kc", 400),
        ("9c 9d 9h 3s 2c", 200),
        ("9c 9d 3h 3s 2c", 100),
    ],
)
def test_honours_table(hand, points):
    game = new_game((hand, "2d 3d 4c 6d 8s", ""))
    end = next(e for e in play_out_singles(game) if e.kind == "deal_end")
    assert end.data["honours"] == {"seat": ANN, "points": points}


# --- what is shown ---------------------------------------------------------------------------


def test_views_hide_the_other_hand_and_carry_the_scoresheet():
    game = new_game(DEAL_PLAIN)
    public = json.dumps(game.public_view().to_json())
    assert "Kd" not in public and "7c" not in public
    mine = game.view(ANN)
    assert mine.hand == ("2c", "3d", "4h", "5s", "7c") and "Kd" not in json.dumps(mine.to_json())
    assert mine.columns[0] == ScoreColumn("WE", ANN, "Ann")
    assert game.view(BOB).columns[0] == ScoreColumn("WE", BOB, "Bob")
    assert set(game.public_view().scoresheet) == {"above", "games"}


def test_follower_of_a_pair_is_offered_the_higher_pairs():
    game = new_game(("Jc Jd 2h 3h 4h", "Qc Qd Qh 5s 6s", ""))
    act(game, ANN, "stand")
    act(game, BOB, "stand")
    play(game, "A:Jc Jd")
    labels = [c.label for c in game.prompt(BOB).choices]
    assert "Beat with the pair of queens" in labels
    events = play(game, "B:Qc Qd")
    assert events[-1].data["winner"] == BOB and game.tricks_won == [0, 2]


def test_against_a_led_set_only_sets_of_its_size_are_offered():
    game = new_game(("Jc Jd 2h 3h 4h", "Qc Qd Qh 5s 6s", ""))
    act(game, ANN, "stand")
    act(game, BOB, "stand")
    play(game, "A:Jc Jd")
    prompt = game.prompt(BOB)
    assert prompt is not None
    # No single card: each would be refused ("A pair was led: play 2 cards.").
    assert [c.label for c in prompt.choices] == ["Beat with the pair of queens", "Give up 2 cards"]
    give_up = prompt.choices[-1]
    assert isinstance(give_up, CardPick) and (give_up.min_cards, give_up.max_cards) == (2, 2)
    for choice in prompt.choices[:-1]:
        assert isinstance(choice, Choice) and len(choice.action.args) == 2


def test_against_a_led_single_every_card_is_offered():
    game = new_game(("Jc Jd 2h 3h 4h", "Qc Qd Qh 5s 6s", ""))
    act(game, ANN, "stand")
    act(game, BOB, "stand")
    play(game, "A:2h")
    prompt = game.prompt(BOB)
    assert prompt is not None and [c.label for c in prompt.choices] == [
        card.label for card in sorted(game.hands[BOB], key=Card.sort_key)]


def test_snapshot_mid_deal_restores_everything():
    game = new_game(DEAL_PLAIN)
    draw(game, ANN, "7c")
    data = json.loads(json.dumps(game.to_dict()))
    copy = Poke.from_dict(data)
    assert json.loads(json.dumps(copy.to_dict())) == data
    assert copy.prompt(ANN) == game.prompt(ANN)


# --- table setup and the AI ----------------------------------------------------------------


def test_exactly_two_players_and_known_options_only():
    with pytest.raises(ValueError, match="exactly two"):
        Poke(["Ann", "Bob", "Cid"], {}, random.Random(0))
    with pytest.raises(ValueError, match="unknown Poke options: colour"):
        Poke(["Ann", "Bob"], {"colour": "red"}, random.Random(0))
    with pytest.raises(ValueError, match="first_dealer"):
        Poke(["Ann", "Bob"], {"first_dealer": 2}, random.Random(0))


def test_ai_leads_its_set_and_answers_cheaply():
    game = new_game(("Jc Jd 2h 3h 4h", "Qc Qd Qh 5s 6s", ""))
    act(game, ANN, "stand")
    act(game, BOB, "stand")
    assert game.ai_action(ANN, random.Random(0)) == Action("play", ("Jc", "Jd"))
    play(game, "A:Jc Jd")
    # two of the three queens beat the jacks
    answer = game.ai_action(BOB, random.Random(0))
    assert len(answer.args) == 2 and all(card.startswith("Q") for card in answer.args)


def test_ai_takes_the_free_draw_but_not_a_costly_one_with_a_good_hand():
    game = new_game(("Kc Kd 9h 9s 2c", "Ac Ad 7h 4s 2d", "3c 5c 6c"))
    assert game.ai_action(ANN, random.Random(0)) == Action("stand")  # two pair: no doubling
    act(game, ANN, "stand")
    assert game.ai_action(BOB, random.Random(0)) == Action("draw", ("2d", "4s", "7h"))
