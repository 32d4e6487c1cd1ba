"""Poängpoker: the exchange, trick play with follow suit and must-beat, the last trick and
the best hand, and the race to 13 — with the seed's worked example replayed move by move.
Deals are set up with the `stacked_deals` option, scores near the target with
`start_scores`."""

import random

import pytest

from engine.cards import parse_cards
from engine.evaluator import evaluate
from engine.game import TIMEOUT, Action, Choice, IllegalAction
from engine.games.poangpoker.hands import hand_points
from engine.games.poangpoker.rules import Poangpoker

ANNA, BO, CIA, DAN = range(4)


def new_game(names, hands, stock="", dealer=None) -> Poangpoker:
    dealer = len(names) - 1 if dealer is None else dealer
    options = {"first_dealer": dealer, "stacked_deals": [{"hands": hands, "stock": stock}]}
    return Poangpoker(names, options, random.Random(1))


def play(game, seat, card):
    return game.apply(seat, Action("play", (card,)))


def stand_all(game):
    while game.phase == "exchange":
        game.apply(next(iter(game.to_act)), Action("stand"))


def play_lowest(game):
    """Every seat plays its lowest legal card until the deal ends."""
    events = []
    deal = game.deal_no
    while not game.is_over and game.deal_no == deal:
        seat = next(iter(game.to_act))
        events += game.apply(seat, game.legal_actions(seat)[0])
    return events


# --- the worked example (Anna, Bo, Cia, Dan) ------------------------------------------------


def test_the_seeds_worked_example_move_by_move():
    # Dan deals, so Anna (left of the dealer) exchanges first and leads.
    game = Poangpoker(
        ["Anna", "Bo", "Cia", "Dan"],
        {
            "first_dealer": DAN,
            "stacked_deals": [
                {
                    "hands": [
                        "Qh Qs Qd Qc 7c",  # Anna: four queens and a seven
                        "Kh As Ac 5h 3d",  # Bo
                        "9h 2s 3c 8s 6d",  # Cia
                        "Th 4s 5c Td Jc",  # Dan
                    ]
                }
            ],
        },
        random.Random(1),
    )
    assert game.order == [ANNA, BO, CIA, DAN]
    stand_all(game)
    assert game.phase == "play" and game.to_act == {ANNA}

    # "Anna leads the queen of hearts and Bo plays the king of hearts ..."
    play(game, ANNA, "Qh")
    reasons = {c.label: c.disabled_reason for c in game.prompt(BO).choices}
    assert reasons["K♥"] is None
    assert reasons["5♥"] == "You must beat the Q♥ when you can: play K♥."
    with pytest.raises(IllegalAction, match="must beat the Q♥"):
        play(game, BO, "5h")
    play(game, BO, "Kh")
    # "... while Cia plays the nine of hearts and Dan the ten, as both lack a higher heart."
    assert [a.args for a in game.legal_actions(CIA)] == [("9h",)]
    play(game, CIA, "9h")
    assert [a.args for a in game.legal_actions(DAN)] == [("Th",)]
    events = play(game, DAN, "Th")
    # "Bo has the highest heart, the king, and wins the trick. So he leads the next one."
    trick = events[-1]
    assert trick.kind == "trick" and trick.data["winner"] == BO
    assert trick.text == "Trick 1: Anna Q♥, Bo K♥, Cia 9♥, Dan 10♥ — Bo wins."
    assert game.to_act == {BO}

    for moves in (
        [(BO, "As"), (CIA, "2s"), (DAN, "4s"), (ANNA, "Qs")],
        [(BO, "Ac"), (CIA, "3c"), (DAN, "5c"), (ANNA, "7c")],
        [(BO, "5h"), (CIA, "8s"), (DAN, "Jc"), (ANNA, "Qd")],  # void in hearts: anything
    ):
        for seat, card in moves:
            events = play(game, seat, card)
        assert events[-1].data["winner"] == BO

    # "In the last trick diamonds are led and Dan wins with the ten of diamonds: 2 points."
    play(game, BO, "3d")
    play(game, CIA, "6d")
    play(game, DAN, "Td")
    events = play(game, ANNA, "Qc")  # void in diamonds
    scores = [e for e in events if e.kind == "score"]
    assert scores[0].data == {
        "seat": DAN,
        "points": 2,
        "why": "the last trick",
        "scores": [0, 0, 0, 2],
    }
    # "Four queens and a seven ... gives 7 points if nobody has a better hand."
    assert scores[1].data["seat"] == ANNA and scores[1].data["points"] == 7
    assert scores[1].text == "Anna +7 for the best hand, four of a kind, queens (Anna 7)."
    assert game.scores == [7, 0, 0, 2]
    reveal = next(e for e in events if e.kind == "reveal")
    assert reveal.data["hands"][ANNA] == ["7c", "Qc", "Qd", "Qh", "Qs"]
    assert game.dealer == ANNA and game.deal_no == 2  # the deal passes to the left


# --- the exchange --------------------------------------------------------------------------


def test_the_seeds_exchange_example():
    # Q♥ 9♥ 2♠ 4♣ 7♦: put aside the 2♠ and 4♣ and get two new cards.
    game = new_game(["Anna", "Bo"], ["Qh 9h 2s 4c 7d", ""], stock="Ah Ad", dealer=BO)
    assert game.to_act == {ANNA}
    events = game.apply(ANNA, Action("exchange", ("2s", "4c")))
    assert events[0].text == "Anna exchanges 2 cards."
    assert game.hands[ANNA] == parse_cards("7d 9h Qh Ad Ah")
    assert events[1].seat == ANNA and "You threw 2♠ 4♣ and drew A♥ A♦." in events[1].text
    # "The cards put aside are not used again."
    assert parse_cards("2s 4c") == game.discards
    assert not set(parse_cards("2s 4c")) & set(game.stock)


def test_exchange_prompt_and_standing_pat():
    game = new_game(["Anna", "Bo"], ["Qh 9h 2s 4c 7d", ""], dealer=BO)
    prompt = game.prompt(ANNA)
    pick, stand = prompt.choices
    assert (pick.action_name, pick.min_cards, pick.max_cards) == ("exchange", 0, 5)
    assert stand.label == "Stand pat"
    game.apply(ANNA, Action("exchange", ()))  # nothing thrown is standing pat
    assert game.hands[ANNA] == parse_cards("2s 4c 7d 9h Qh") and game.to_act == {BO}
    game.apply(BO, TIMEOUT)  # a clock that runs out stands pat
    assert game.phase == "play"


def test_prompts_name_the_players_poker_hand():
    game = new_game(["Anna", "Bo"], ["Qh Qs 2s 4c 7d", "9h 9d 9s 3c 5c"], dealer=BO)
    exchange = game.prompt(ANNA)
    assert exchange is not None and exchange.text.startswith("Your poker hand: pair of queens.")
    game.apply(ANNA, Action("stand"))
    game.apply(BO, Action("stand"))
    lead = game.prompt(ANNA)
    assert lead is not None and "Your poker hand: pair of queens." in lead.text


def test_a_short_stock_limits_the_exchange_and_discards_never_return():
    game = Poangpoker([f"P{i}" for i in range(6)], {"first_dealer": 5}, random.Random(3))
    for seat in range(4):
        game.apply(seat, Action("exchange", tuple(str(c) for c in game.hands[seat])))
    assert len(game.stock) == 2 and game.exchange_limit() == 2
    assert "Only 2 cards are left in the stock." in game.prompt(4).text
    with pytest.raises(IllegalAction, match="throw at most 2"):
        game.apply(4, Action("exchange", tuple(str(c) for c in game.hands[4][:3])))
    game.apply(4, Action("exchange", tuple(str(c) for c in game.hands[4][:2])))
    assert game.exchange_limit() == 0 and len(game.discards) == 22


# --- trick play ------------------------------------------------------------------------------


def test_must_follow_suit_in_game():
    game = new_game(["Anna", "Bo"], ["Qh 2c 3c 4c 5c", "9h As Ks 2d 3d"], dealer=BO)
    stand_all(game)
    play(game, ANNA, "Qh")
    with pytest.raises(IllegalAction, match="must follow suit"):
        play(game, BO, "As")
    choices = {c.label: c.disabled_reason for c in game.prompt(BO).choices}
    assert choices["9♥"] is None and choices["A♠"] == "You must follow suit: play a ♥ (9♥)."
    play(game, BO, "9h")
    assert game.to_act == {ANNA}


# --- scoring ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("hand", "points"),
    [
        ("5h 6h 7h 8h 9h", 8),
        ("Ah Kh Qh Jh Th", 8),  # a royal is a straight flush in Poängpoker
        ("Tc Td Th Ts Ac", 7),
        ("5c 5d 5h Ks Kc", 6),
        ("2c 7c 9c Jc Kc", 5),
        ("4c 5d 6h 7s 8c", 4),
        ("Qc Qd Qh 3s 2c", 3),
        ("8c 8d Qh Qs 2c", 2),
        ("7c 7d Qh 3s 2c", 1),
        ("7c 9d Qh 3s 2c", 0),
    ],
)
def test_hand_table(hand, points):
    assert hand_points(evaluate(parse_cards(hand))) == points


def test_the_bigger_set_decides_between_full_houses():
    # "Three fours and two sevens beat three twos and two kings."
    game = new_game(["Anna", "Bo"], ["4c 4d 4h 7s 7c", "2c 2d 2h Ks Kc"], dealer=ANNA)
    assert game.order == [BO, ANNA]
    stand_all(game)
    events = play_lowest(game)
    hand = [e for e in events if e.kind == "score" and "best hand" in e.data.get("why", "")]
    assert hand[0].data["seat"] == ANNA and hand[0].data["points"] == 6


def test_an_exact_tie_goes_to_the_earlier_player_from_the_dealers_left():
    names = ["Anna", "Bo", "Cia"]
    hands = ["5c 6d 7h 8s 9c", "2c 4d Jh Qs Ac", "5d 6h 7s 8c 9d"]
    game = new_game(names, hands, dealer=ANNA)  # order: Bo, Cia, Anna
    stand_all(game)
    events = play_lowest(game)
    hand = next(e for e in events if e.kind == "score" and "best hand" in e.data.get("why", ""))
    assert hand.data["seat"] == CIA and hand.data["points"] == 4
    assert "an exact tie with Anna: the earlier in turn order scores" in hand.text


def test_last_trick_is_scored_first_and_the_first_to_13_wins_at_once():
    hands = ["Ah Kd Qc Js 3h", "9c 9d 9s 4c 5s"]
    options = {
        "first_dealer": BO,
        "start_scores": [12, 12],
        "stacked_deals": [{"hands": hands}],
    }
    game = Poangpoker(["Anna", "Bo"], options, random.Random(1))
    stand_all(game)
    for lead, answer in (("Kd", "9d"), ("Qc", "4c"), ("Js", "5s"), ("Ah", "9c"), ("3h", "9s")):
        play(game, ANNA, lead)
        events = play(game, BO, answer)
    assert game.is_over and game.scores == [14, 12]  # Bo's three nines are never scored
    assert game.result.winners == (ANNA,) and game.result.places == (1, 2)
    assert any(e.kind == "game_over" and e.data["winners"] == [ANNA] for e in events)


def test_when_the_last_trick_falls_short_the_hand_can_win():
    hands = ["Ah Kd Qc Js 3h", "9c 9d 9s 4c 5s"]
    options = {"first_dealer": BO, "start_scores": [10, 12], "stacked_deals": [{"hands": hands}]}
    game = Poangpoker(["Anna", "Bo"], options, random.Random(1))
    stand_all(game)
    for lead, answer in (("Kd", "9d"), ("Qc", "4c"), ("Js", "5s"), ("Ah", "9c"), ("3h", "9s")):
        play(game, ANNA, lead)
        play(game, BO, answer)
    assert game.scores == [12, 15] and game.result.winners == (BO,)


def test_views_show_only_the_own_hand_until_the_deal_ends():
    game = new_game(["Anna", "Bo"], ["Qh 2c 3c 4c 5c", "9h As Ks 2d 3d"], dealer=BO)
    public = game.public_view()
    assert not hasattr(public, "hand") and "As" not in str(public)
    assert game.view(ANNA).hand == ("2c", "3c", "4c", "5c", "Qh")
    assert "As" not in str(game.view(ANNA))


def test_choices_are_one_per_card():
    game = new_game(["Anna", "Bo"], ["Qh 2c 3c 4c 5c", "9h As Ks 2d 3d"], dealer=BO)
    stand_all(game)
    choices = game.prompt(ANNA).choices
    assert len(choices) == 5 and all(isinstance(c, Choice) for c in choices)
    assert all(c.disabled_reason is None for c in choices)


# --- table setup and the AI ----------------------------------------------------------------


def test_two_to_six_players_and_known_options_only():
    with pytest.raises(ValueError, match="2 to 6 players"):
        Poangpoker([f"P{i}" for i in range(7)], {}, random.Random(0))
    with pytest.raises(ValueError, match="unknown Poängpoker options: call"):
        Poangpoker(["Anna", "Bo"], {"call": True}, random.Random(0))


def test_ai_keeps_its_best_card_for_the_last_trick_and_ducks_cheaply():
    game = new_game(["Anna", "Bo"], ["Ah 2c 5d 7s 9s", "Kh 3c 4d 6s 8s"], dealer=BO)
    stand_all(game)
    # leading: the lowest card, never the ace of hearts (no heart can beat it)
    assert game.ai_action(ANNA, random.Random(0)) == Action("play", ("2c",))
    play(game, ANNA, "2c")
    # Bo must follow with the 3♣ (it beats the 2♣): forced
    assert game.ai_action(BO, random.Random(0)) == Action("play", ("3c",))


def test_ai_exchange_keeps_a_pair():
    game = new_game(["Anna", "Bo"], ["Kh Kd 7c 4s 2d", ""], dealer=BO)
    assert game.ai_action(ANNA, random.Random(0)) == Action("exchange", ("2d", "4s", "7c"))
