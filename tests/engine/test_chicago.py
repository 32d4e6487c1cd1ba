"""Chicago: three buys with interim hand scoring, köpstopp at 42, the Chicago call, trick
play without must-beat, the royal straight flush, and points scored in order so that the
first to 52 wins. Deals are set up with `stacked_deals`, scores near the target with
`start_scores`."""

import random

import pytest

from engine.cards import parse_cards
from engine.game import TIMEOUT, Action, IllegalAction
from engine.games.poangpoker.rules import Chicago

A, B, C = 0, 1, 2


def chicago(hands, stock="", dealer=None, start=None, **options) -> Chicago:
    names = ["Ann", "Bob", "Cid"][: len(hands)]
    dealer = len(hands) - 1 if dealer is None else dealer
    opts = {"first_dealer": dealer, "stacked_deals": [{"hands": hands, "stock": stock}]}
    if start is not None:
        opts["start_scores"] = start
    return Chicago(names, opts | options, random.Random(2))


def stand(game, rounds=3):
    """Everyone stands pat through `rounds` buys."""
    target = game.exchange_round + rounds
    events = []
    while game.phase == "exchange" and game.exchange_round < target:
        events += game.apply(next(iter(game.to_act)), Action("stand"))
    return events


def everyone_passes(game):
    events = []
    while game.phase == "call":
        events += game.apply(next(iter(game.to_act)), Action("pass"))
    return events


def play(game, *moves):
    events = []
    for seat, card in moves:
        events += game.apply(seat, Action("play", (card,)))
    return events


def play_lowest(game):
    events = []
    deal = game.deal_no
    while not game.is_over and game.deal_no == deal:
        seat = next(iter(game.to_act))
        events += game.apply(seat, game.legal_actions(seat)[0])
    return events


def scores_of(events):
    return [(e.data["seat"], e.data["points"], e.data["why"]) for e in events if e.kind == "score"]


# --- interim scoring --------------------------------------------------------------------------


def test_hands_score_after_buys_one_and_two_and_a_kept_hand_scores_again():
    game = chicago(["Kh Ks 7d 7c 2s", "Ah Qd 9c 5h 3s"])
    events = stand(game, rounds=1)
    interim = next(e for e in events if e.kind == "interim")
    assert interim.text == (
        "After the first buy, Ann has the best hand: two pair, kings and sevens, "
        "showing 7♣ 7♦ K♥ K♠."
    )
    assert game.scores == [2, 0] and game.exchange_round == 2
    stand(game, rounds=1)
    assert game.scores == [4, 0] and game.exchange_round == 3
    events = stand(game, rounds=1)
    assert not any(e.kind == "interim" for e in events)  # the third buy leads to the tricks
    assert game.phase == "call" and game.scores == [4, 0]


def test_interim_scoring_shows_only_what_is_needed():
    game = chicago(["Kh Ks 7d 7c 2s", "Ah Qd 9c 5h 3s"])
    stand(game, rounds=1)
    public = str(game.public_view())
    assert game.public_view().shown[0]["cards"] == ["7c", "7d", "Kh", "Ks"]
    assert "2s" not in public and "Ah" not in public  # the kicker and the loser stay hidden


def test_interim_scoring_shows_the_whole_hand_when_kickers_decide():
    game = chicago(["Kh Ks 9d 7c 2s", "Kd Kc 8h 5h 3s"])
    stand(game, rounds=1)
    assert game.public_view().shown[0]["cards"] == ["2s", "7c", "9d", "Kh", "Ks"]
    game = chicago(["Kh Ks 9d 7c 2s", "Ad Ac 8h 5h 3s"])
    stand(game, rounds=1)
    assert game.public_view().shown[0]["cards"] == ["Ac", "Ad"]  # a higher pair is enough


def test_no_points_without_a_pair():
    game = chicago(["Kh Qs 9d 7c 2s", "Ad Jc 8h 5h 3s"])
    events = stand(game, rounds=1)
    interim = next(e for e in events if e.kind == "interim")
    assert interim.text == "After the first buy nobody holds a pair or better: no points."
    assert game.scores == [0, 0] and game.public_view().shown == ()


# --- köpstopp ----------------------------------------------------------------------------------


def test_no_buying_at_42_judged_at_each_buy():
    game = chicago(["2c 5d 7h 9s Jc", "Ah Ad 4c 6s 8d"], start=[42, 41])
    assert game.to_act == {B}  # Ann (42) is skipped
    assert game.public_view().kopstopp == (A,)
    prompt_events = game.apply(B, Action("stand"))
    # Bob's aces score after the first buy: 42 now, so he may not buy in the second
    stops = [e.data["seat"] for e in prompt_events if e.kind == "kopstopp"]
    assert stops == [A, B, A, B]  # second and third buy: both stopped
    assert game.scores == [42, 43]  # interim after buys 1 and 2 (the kept pair scores again)
    assert game.phase == "call"


def test_a_stopped_player_cannot_buy():
    game = chicago(["2c 5d 7h 9s Jc", "Ah Ad 4c 6s 8d"], start=[42, 0])
    with pytest.raises(IllegalAction, match="not your turn"):
        game.apply(A, Action("exchange", ("2c",)))


# --- the call ----------------------------------------------------------------------------------


def test_chicago_made_scores_15_and_the_last_trick_nothing():
    game = chicago(["As Ks Qs Ah Kh", "2c 3c 4d 5d 7h"])
    stand(game)
    assert game.scores == [4, 0]
    prompt = game.prompt(A)
    assert [c.label for c in prompt.choices] == ["Call Chicago", "No call"]
    assert "+15" in prompt.text and "-15" in prompt.text
    events = game.apply(A, Action("call"))
    assert game.phase == "play" and game.caller == A and game.to_act == {A}
    assert events[0].kind == "call"
    events = play(
        game,
        (A, "As"),
        (B, "2c"),
        (A, "Ks"),
        (B, "3c"),
        (A, "Qs"),
        (B, "4d"),
        (A, "Ah"),
        (B, "7h"),
        (A, "Kh"),
    )
    events = play(game, (B, "5d"))
    assert scores_of(events) == [
        (A, 15, "Chicago made"),
        (A, 2, "the best hand, two pair, aces and kings"),
    ]
    assert game.scores == [21, 0]


def test_chicago_failed_scores_minus_15_and_scores_may_go_negative():
    # Ann deals: the order is Bob, Cid, Ann. Bob passes, Cid calls first, Ann is never asked.
    hands = ["Ac Kd Qh Js 9c", "8c 8d 6h 6s Tc", "2c 3d 4h 5s 7c"]
    game = chicago(hands, dealer=A)
    stand(game)
    assert game.scores == [0, 4, 0]
    game.apply(B, Action("pass"))
    game.apply(C, Action("call"))
    assert game.phase == "play" and game.to_act == {C}  # the caller leads
    events = play_lowest(game)
    assert (C, -15, "Chicago failed") in scores_of(events)
    assert not any(why == "the last trick" for _, _, why in scores_of(events))
    assert game.scores == [0, 6, -15]


def test_play_stops_once_the_caller_loses_a_trick():
    # Ann deals: Bob leads nothing; Cid calls and leads 2c, which Ann takes with the Ac.
    hands = ["Ac Kd Qh Js 9c", "8c 8d 6h 6s Tc", "2c 3d 4h 5s 7c"]
    game = chicago(hands, dealer=A)
    stand(game)
    game.apply(B, Action("pass"))
    game.apply(C, Action("call"))
    events = play(game, (C, "2c"), (A, "Ac"), (B, "8c"))
    kinds = [e.kind for e in events]
    assert "call_failed" in kinds and kinds.index("call_failed") < kinds.index("deal_end")
    assert len([e for e in events if e.kind == "trick"]) == 1  # no more tricks are played
    assert scores_of(events) == [
        (C, -15, "Chicago failed"),
        (B, 2, "the best hand, two pair, eights and sixes"),
    ]
    assert game.deal_no == 2  # the next deal has begun


def test_a_caller_who_keeps_winning_plays_on():
    game = chicago(["As Ks Qs Ah Kh", "2c 3c 4d 5d 7h"])
    stand(game)
    game.apply(A, Action("call"))
    events = play(game, (A, "As"), (B, "2c"), (A, "Ks"), (B, "3c"))
    assert not any(e.kind in ("call_failed", "deal_end") for e in events)
    assert game.phase == "play" and game.to_act == {A}


def test_prompts_name_the_players_poker_hand():
    game = chicago(["As Ks Qs Ah Kh", "2c 3c 4d 5d 7h"])
    prompt = game.prompt(A)
    assert prompt is not None
    assert prompt.text.startswith("Your poker hand: two pair, aces and kings. The first")
    stand(game)
    call = game.prompt(A)
    assert call is not None and "Your poker hand: two pair, aces and kings." in call.text
    game.apply(A, Action("pass"))
    game.apply(B, Action("pass"))
    lead = game.prompt(A)
    assert lead is not None and lead.text.endswith("Your poker hand: two pair, aces and kings.")
    play(game, (A, "As"))
    follow = game.prompt(B)
    assert follow is not None and "Your poker hand: high card" in follow.text


def test_a_player_at_42_or_more_may_still_call():
    game = chicago(["As Ks Qs Ah Kh", "2c 3c 4d 5d 7h"], start=[45, 0])
    stand(game)
    assert game.phase == "call" and game.to_act == {A}
    assert Action("call") in game.legal_actions(A)
    game.apply(A, Action("call"))
    assert game.caller == A


def test_without_a_call_the_player_left_of_the_dealer_leads():
    game = chicago(["As Ks Qs Ah Kh", "2c 3c 4d 5d 7h"], dealer=A)
    stand(game)
    everyone_passes(game)
    assert game.phase == "play" and game.to_act == {B}


def test_the_call_can_be_switched_off():
    game = chicago(["As Ks Qs Ah Kh", "2c 3c 4d 5d 7h"], call=False)
    stand(game)
    assert game.phase == "play" and game.public_view().call_enabled is False


def test_call_timeout_passes():
    game = chicago(["As Ks Qs Ah Kh", "2c 3c 4d 5d 7h"])
    stand(game)
    game.apply(A, TIMEOUT)
    assert game.phase == "call" and game.to_act == {B} and game.caller is None


# --- trick play --------------------------------------------------------------------------------


def test_follow_suit_but_no_obligation_to_beat():
    game = chicago(["Qh 2c 3c 4c 5c", "9h Kh Ks 2d 3d"], call=False)
    stand(game)
    play(game, (A, "Qh"))
    reasons = {c.label: c.disabled_reason for c in game.prompt(B).choices}
    assert reasons["9♥"] is None and reasons["K♥"] is None
    assert reasons["K♠"] == "You must follow suit: play a ♥ (9♥ or K♥)."


def test_last_trick_scores_5():
    game = chicago(["Qh 2c 3c 4c 5c", "9h Kh Ks 2d 3d"], call=False)
    stand(game)
    events = play_lowest(game)
    assert any(points == 5 and why == "the last trick" for _, points, why in scores_of(events))


# --- winning ------------------------------------------------------------------------------


def test_a_royal_straight_flush_wins_at_once_whatever_the_scores():
    game = chicago(["Ah Kh Qh Jh Th", "2c 3c 4d 5d 7h"], start=[-20, 50])
    events = stand(game, rounds=1)
    assert game.is_over and game.scores == [32, 50]
    assert game.result.winners == (A,) and game.result.places == (1, 2)
    assert events[-1].text.startswith("Ann wins with a royal straight flush.")


def test_a_royal_straight_flush_after_the_tricks_wins_too():
    game = chicago(["Ah Kh Qh Jh 2c", "3c 4d 6s 8s 9d"], stock="Th")
    stand(game, rounds=2)
    assert game.scores == [0, 0]
    game.apply(A, Action("exchange", ("2c",)))
    game.apply(B, Action("stand"))
    everyone_passes(game)
    events = play_lowest(game)
    assert game.is_over and game.result.winners == (A,)
    assert (A, 52, "the best hand, royal flush") in scores_of(events)


def test_an_interim_hand_can_reach_52_before_any_trick():
    game = chicago(["Ah Ad 4c 6s 8d", "2c 5d 7h 9s Jc"], start=[51, 0])
    stand(game, rounds=1)
    assert game.is_over and game.scores == [52, 0] and game.result.winners == (A,)


def test_several_could_pass_52_in_one_deal_and_the_first_scored_wins():
    # Ann (51) and Bob (47) may not buy; Cid's two pair wins both interim scorings, then
    # he breaks it. Bob's last trick (52) is scored before Ann's pair of twos (also 52).
    hands = ["2c 2d 5h 7s 9c", "Kh Qh 8h 6s 3d", "Jc Jd Tc Ts 4h"]
    game = chicago(hands, stock="3c 5c 6d 8d", start=[51, 47, 0])
    assert game.order == [A, B, C] and game.to_act == {C}
    stand(game, rounds=2)
    assert game.scores == [51, 47, 4]
    game.apply(C, Action("exchange", ("Jc", "Jd", "Tc", "Ts")))
    everyone_passes(game)
    events = play(
        game,
        (A, "9c"),
        (B, "3d"),
        (C, "5c"),
        (A, "7s"),
        (B, "6s"),
        (C, "3c"),
        (A, "5h"),
        (B, "8h"),
        (C, "4h"),
        (B, "Qh"),
        (C, "6d"),
        (A, "2c"),
        (B, "Kh"),
        (C, "8d"),
        (A, "2d"),
    )
    assert scores_of(events) == [(B, 5, "the last trick")]
    assert game.is_over and game.result.winners == (B,) and game.scores == [51, 52, 4]
    assert game.result.places == (2, 1, 3)
    assert any(e.kind == "reveal" for e in events)  # the hands are still shown


def test_the_last_trick_comes_before_a_royal_straight_flush_in_the_final_hand():
    game = chicago(["Ah Kh Qh Jh 2c", "Ac Kc 9d 7s 3s"], stock="Th", dealer=A, start=[0, 47])
    assert game.to_act == {A}  # Bob (47) may not buy
    stand(game, rounds=2)
    game.apply(A, Action("exchange", ("2c",)))
    everyone_passes(game)
    assert game.to_act == {B}
    events = play(
        game,
        (B, "Ac"),
        (A, "Th"),
        (B, "Kc"),
        (A, "Jh"),
        (B, "9d"),
        (A, "Qh"),
        (B, "7s"),
        (A, "Kh"),
        (B, "3s"),
        (A, "Ah"),
    )
    assert scores_of(events) == [(B, 5, "the last trick")]
    assert game.result.winners == (B,)


# --- the stock ---------------------------------------------------------------------------------


def test_when_the_stock_runs_out_the_discards_are_reshuffled():
    game = Chicago([f"P{i}" for i in range(6)], {"first_dealer": 5}, random.Random(5))
    for seat in range(4):
        game.apply(seat, Action("exchange", tuple(str(c) for c in game.hands[seat])))
    assert len(game.stock) == 2
    thrown = list(game.hands[4])
    events = game.apply(4, Action("exchange", tuple(str(c) for c in thrown)))
    assert events[0].kind == "reshuffle"
    assert not set(thrown) & set(game.hands[4])  # one's own discards never come straight back
    every = [c for h in game.hands for c in h] + game.stock + game.discards
    assert len(every) == 52 and len(set(every)) == 52
    assert parse_cards(" ".join(str(c) for c in thrown)) == game.discards


# --- the AI ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("hand", "players", "calls"),
    [
        ("As Ks Qs Ah Kh", 4, True),  # five sure winners
        ("As Ks Qs Ah 2c", 4, False),
        ("As Ks Qs Ah Qc", 2, True),  # heads-up: four sure winners and a queen
        ("As Ks Qs Ah Qc", 3, False),
        ("Ah Kh 9c 2s 4d", 2, False),
    ],
)
def test_ai_calls_only_with_a_strong_hand(hand, players, calls):
    from engine.games.poangpoker.ai import should_call

    assert should_call(parse_cards(hand), players) is calls


def test_ai_against_a_call_takes_a_trick_from_the_caller():
    game = chicago(["As Ks Qs Ah 2c", "Ac 3c 4d 5d 7h"])
    stand(game)
    game.apply(A, Action("call"))
    play(game, (A, "2c"))
    assert game.ai_action(B, random.Random(0)) == Action("play", ("Ac",))


def test_ai_ducks_cheaply_and_keeps_its_high_card():
    game = chicago(["5h 2c 3d 4s 6c", "Kh 3h 9c 8d 7s"], call=False)
    stand(game)
    play(game, (A, "5h"))
    assert game.ai_action(B, random.Random(0)) == Action("play", ("3h",))
