"""Spew as the table plays it (engine/games/spew/rules.py): one deal per game on the stacks
the table gives it, one test per ruling of the seed and RULINGS.md, and a property over
random deals: chips are conserved, and no face-down card or sealed declaration reaches
anyone who may not see it before the rules show it."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cards import Card, parse_cards, standard_deck
from engine.game import TIMEOUT, Action, CardPick, Choice, Event, IllegalAction
from engine.games import GAMES
from engine.games.spew.hands import high_total, low_total, spew_layout
from engine.games.spew.rules import Spew

NAMES = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal"]
SPARE = "7s 8s 9s Ts 7h"  # spew cards of ranks nobody holds in the showdown tests


def new(stacks: list[int], button: int = 0, seed: int = 1, **options: object) -> Spew:
    return Spew(NAMES[: len(stacks)], {"stacks": stacks, "button": button, **options},
                random.Random(seed))


def rigged(hands: list[str], stock: str, stacks: list[int] | None = None, button: int = 0,
           **options: object) -> Spew:
    """A deal with the hands and the top of the stock named (draws, then spew cards, come
    from its top); the other cards follow in a fixed order."""
    game = new(stacks or [200] * len(hands), button, **options)
    named = [parse_cards(hand) for hand in hands]
    top = parse_cards(stock)
    used = {str(c) for c in [*top, *(c for hand in named for c in hand)]}
    game.hands = named
    game.stock = top + [c for c in standard_deck() if str(c) not in used]
    return game


def passive(game: Spew, until: str = "over", spews: int = 99) -> list[Event]:
    """Everyone checks (or calls) and stands pat until the phase `until`, or until `spews`
    spew cards are turned (or the end)."""
    events: list[Event] = []
    while not game.is_over and game.phase != until and len(game.spew_cards) < spews:
        (seat,) = game.to_act
        if game.phase == "draw":
            events += game.apply(seat, Action("stand"))
        else:
            names = {a.name for a in game.legal_actions(seat)}
            events += game.apply(seat, Action("check" if "check" in names else "call"))
    return events


def declare(game: Spew, *sides: str) -> list[Event]:
    """Declare for the seats still in, in seat order."""
    events: list[Event] = []
    for seat, side in zip(sorted(game.to_act), sides, strict=True):
        events += game.apply(seat, Action("declare", (side,)))
    return events


def test_registered_as_a_chip_game() -> None:
    assert GAMES["spew"] is Spew and Spew.chip_game and (Spew.min_seats, Spew.max_seats) == (2, 8)
    from engine.games.dealers_choice.rules import menu_for

    assert "spew" in menu_for(8) and "spew" in menu_for(2)


def test_options_are_checked() -> None:
    with pytest.raises(ValueError, match="stacks"):
        Spew(["Ann", "Bob"], {}, random.Random(1))
    with pytest.raises(ValueError, match="positive"):
        new([100, 0])
    with pytest.raises(ValueError, match="button"):
        new([100, 100], button=2)
    with pytest.raises(ValueError, match="unknown Spew options: colour"):
        new([100, 100], colour=1)
    with pytest.raises(ValueError, match="out_takes_low"):
        new([100, 100], out_takes_low="yes")
    game = new([100, 100], buy_in=200)  # a cash table's own option passes through
    assert game.public_view().pot == 10 and game.public_view().out_takes_low is False


def test_aces_count_to_the_players_advantage_separately_for_high_and_for_low() -> None:
    hand = parse_cards("Ac Ad 2c 2d 3h")
    assert (high_total(hand), low_total(hand)) == (29, 9)  # 11+11+2+2+3 and 1+1+2+2+3
    game = rigged(["Ac Ad 2c 2d 3h", "Ks 4s 5h 6h 3c", "4c 4d 5c 5d 6c"], SPARE)
    assert (game.view(0).high, game.view(0).low) == (29, 9)
    passive(game, "declare")
    declare(game, "both", "high", "low")
    # Ann's aces are 11 against Bob's 28 for high and 1 against Cid's 24 for low: she scoops.
    assert game.result is not None and game.result.chips == (10, -5, -5)
    assert game.showdown is not None and game.showdown["high"]["0"] == 29
    assert game.showdown["low"]["0"] == 9
    assert "Ann wins both ways (high 29, low 9)" in " ".join(game.showdown["lines"])


def test_the_deal_antes_then_five_cards_each_one_at_a_time_from_the_dealers_left() -> None:
    seed = 5
    game = new([100, 100, 100], button=1, seed=seed)
    deck = list(standard_deck())
    random.Random(seed).shuffle(deck)
    assert game.hands[2] == deck[0:15:3] and game.hands[0] == deck[1:15:3]
    view = game.public_view()
    assert view.stacks == (95, 95, 95) and view.pot == 15 and view.to_act == (2,)
    assert (view.max_draw, view.spew_total, view.rounds) == (3, 5, 7)


def test_a_draw_of_up_to_three_then_five_spew_cards_with_a_betting_round_after_each() -> None:
    game = rigged(["2c 3c 4c 5c 6c", "2d 3d 4d Kd Qd"], "Jh Jd Jc " + SPARE)
    passive(game, "draw")
    assert game.phase == "draw" and game.to_act == {1}  # the dealer's left first
    with pytest.raises(IllegalAction, match="at most 3"):
        game.apply(1, Action("draw", ("2d", "3d", "4d", "Kd")))
    pick = game.prompt(1).choices[0]  # type: ignore[union-attr]
    assert isinstance(pick, CardPick) and pick.max_cards == 3
    events = game.apply(1, Action("draw", ("2d", "3d", "4d")))
    assert game.hands[1] == parse_cards("Kd Qd Jh Jd Jc")
    assert [e.kind for e in events if e.seat is None] == ["draw"]
    assert "Jh" not in json.dumps([e.data for e in events if e.seat is None])
    game.apply(0, Action("stand"))
    assert game.phase == "bet" and game.public_view().draws == (0, 3)
    spews = []
    while game.phase == "bet":  # a bet and a call in every round: seven rounds in all
        (seat,) = game.to_act
        names = {a.name for a in game.legal_actions(seat)}
        events = game.apply(seat, Action("bet" if "bet" in names else "call"))
        spews += [e.data["card"] for e in events if e.kind == "spew"]
    assert spews == SPARE.split() and game.phase == "declare"
    assert game.public_view().pot == 2 * (5 + 2 * 10 + 4 * 20)  # the first round checked


def test_six_players_draw_two_at_most() -> None:
    assert spew_layout(6) == (5, 2, 5)
    game = new([100] * 6)
    passive(game, "draw")
    (seat,) = game.to_act
    with pytest.raises(IllegalAction, match="at most 2"):
        game.apply(seat, Action("draw", tuple(str(c) for c in game.hands[seat][:3])))
    assert max(len(a.args) for a in game.legal_actions(seat)) == 2


@pytest.mark.parametrize("players", [7, 8])
def test_seven_or_eight_players_hold_four_cards_draw_two_and_see_four_spew_cards(
    players: int,
) -> None:
    game = new([100] * players, seed=players)
    assert all(len(hand) == 4 for hand in game.hands)
    view = game.public_view()
    assert (view.max_draw, view.spew_total, view.rounds) == (2, 4, 6)
    passive(game, "draw")
    while game.phase == "draw":  # everyone draws two: eight players use the whole deck
        (seat,) = game.to_act
        game.apply(seat, Action("draw", tuple(str(c) for c in game.hands[seat][:2])))
    passive(game, "declare")
    assert len(game.spew_cards) == 4
    if players == 8:
        assert game.public_view().stock == 0


def test_a_spew_card_takes_every_card_of_its_rank_from_every_hand_face_up() -> None:
    game = rigged(["7c 7d 2c 3c 4c", "7h Kd Qd Jd 9d", "5s 5h 6s 6h 8c"], "Ks 2d 3d Th Tc")
    passive(game, spews=1)  # turned when the round after the draw closed
    assert game.spew_cards == parse_cards("Ks")
    assert game.hands[1] == parse_cards("7h Qd Jd 9d")
    view = game.public_view()
    assert view.spewed[1] == ("Kd",) and view.hand_sizes == (5, 4, 5)


def test_spew_events_are_public_and_say_what_each_hand_lost() -> None:
    game = rigged(["7c 7d 2c 3c 4c", "7h Kd Qd Jd 9d", "5s 5h 6s 6h 8c"], "7s 2d 3d Th Tc")
    events = passive(game, "declare")
    [first] = [e for e in events if e.kind == "spew" and e.data["number"] == 1]
    assert first.is_public and first.data["card"] == "7s"
    assert first.data["removed"] == {"0": ["7c", "7d"], "1": ["7h"]}
    assert "Bob spews 7♥; Ann spews 7♣ 7♦" in first.text  # from the dealer's left
    private = [e for e in events if e.kind == "hand" and "spewed" in e.data]
    assert {e.seat for e in private} == {0, 1}
    assert game.hands[0] == parse_cards("4c")  # 2c and 3c went with the 2 and the 3
    assert game.public_view().spewed[0] == ("7c", "7d", "2c", "3c")


def test_a_player_spewed_out_of_cards_is_out_of_the_pot() -> None:
    game = rigged(["2c 2d 3c 3d 4c", "Ks Kd Qc Qd Jh", "9c 9d 8s 8h 7c"], "2h 3h 4h Th Tc",
                  stacks=[200, 200, 200])
    game.apply(1, Action("bet"))
    game.apply(2, Action("call"))
    game.apply(0, Action("call"))  # Ann put 15 in, and is spewed out at the third spew card
    events = passive(game, "declare")
    [spew] = [e for e in events if e.kind == "spew" and e.data["out"]]
    assert spew.data["out"] == [0] and "Ann has no cards left and is out of the pot" in spew.text
    view = game.public_view()
    assert view.out == (True, False, False) and not view.folded[0]
    assert game.to_act == {1, 2}  # Ann does not declare
    declare(game, "high", "low")
    assert game.result is not None and game.result.chips == (-15, 8, 7)
    assert "Ann was spewed out of cards and is out of the pot" in " ".join(
        game.showdown["lines"])  # type: ignore[index]


def test_the_last_player_holding_cards_takes_the_pot() -> None:
    game = rigged(["2c 2d 3c 3d 4c", "Ks Kd Qc Qd Jh"], "2h 3h 4h Th Tc")
    passive(game)
    assert game.result is not None and game.result.chips == (-5, 5)
    assert game.showdown is not None and game.showdown["lone"] == 1
    assert len(game.spew_cards) == 3  # the deal ended with Ann's last card


def test_a_spew_card_emptying_every_hand_still_in_shares_the_pot() -> None:
    game = rigged(["2c 3c 4c 5c 6c", "2d 3d 4d 5d 6d"], "2h 3h 4h 5h 6h", stacks=[100, 100])
    passive(game)
    assert game.result is not None and game.result.chips == (0, 0)
    assert "Every hand still in is empty" in game.showdown["lines"][0]  # type: ignore[index]


def test_option_out_takes_half_the_pot_as_the_nut_low_and_the_rest_play_for_high() -> None:
    game = rigged(["2c 2d 3c 3d 4c", "Ks Kd Qc Qd Jh", "9c 9d 8s 8h 7c"], "2h 3h 4h Th Tc",
                  out_takes_low=True)
    game.apply(1, Action("bet"))
    game.apply(2, Action("call"))
    game.apply(0, Action("call"))  # the pot: 45
    events = passive(game, spews=3)
    [spew] = [e for e in events if e.kind == "spew" and e.data["out"]]
    assert "Ann has no cards left: the nut low, half the pot (22) is theirs" in spew.text
    assert game.public_view().nut_low == (0,) and game.public_view().stacks[0] == 185
    while not game.is_over:  # Bob bets every round after; Cid calls; nobody declares
        (seat,) = game.to_act
        names = {a.name for a in game.legal_actions(seat)}
        game.apply(seat, Action("bet" if "bet" in names else "call"))
        assert game.phase != "declare"
    # The main pot of 45: 22 to Ann, 23 to Bob's high (51 against 0 after the tens); the
    # side pot of Bob's and Cid's later bets to Bob.
    assert game.result is not None and game.result.chips[0] == 22 - 15
    assert sum(game.result.chips) == 0 and game.result.chips[1] > 0
    assert "low to Ann (no cards)" in " ".join(game.showdown["lines"])  # type: ignore[index]


def test_option_a_nut_low_left_alone_takes_every_pot() -> None:
    game = rigged(["2c 2d 3c 3d 4c", "4d 5c 5d 6c 6d"], "2h 3h 4h 5h 6h", out_takes_low=True)
    events = passive(game)
    assert [e.data["out"] for e in events if e.kind == "spew"] == [[], [], [0], [], [1]]
    assert game.result is not None and game.result.chips == (5, -5)
    assert game.result.scores == (205, 195)


def test_both_loses_on_a_tie_and_a_side_claimed_only_by_it_goes_to_the_other() -> None:
    game = rigged(["As Ks Qs Jd 3c", "Ah Kh Qh Jh 3d", "2c 2d 4h 5s 6d"], SPARE)
    passive(game, "declare")
    declare(game, "both", "high", "low")  # Ann ties Bob's 44 for high: she wins nothing
    assert game.result is not None and game.result.chips == (-5, 3, 2)
    lines = " ".join(game.showdown["lines"])  # type: ignore[index]
    assert "Ann declared both and did not win both outright, so wins nothing" in lines
    game = rigged(["As Ks Qs Jd 3c", "Ah Kh Qh Jh 3d", "2c 2d 4h 5s 6d"], SPARE)
    passive(game, "declare")
    declare(game, "both", "high", "high")  # nobody else went low: Bob takes it all
    assert game.result is not None and game.result.chips == (-5, 10, -5)


def test_odd_chips_go_to_high_then_one_each_from_the_dealers_left() -> None:
    # The pot of 15: 8 to high (Ann), 7 to the tied lows, Bob (the dealer's left) 4, Cid 3.
    game = rigged(["Ks Kd Qs Jd Tc", "2c 3c 4d 5s 6d", "2d 3d 4h 5h 6s"], "7s 8s 9s 7h 8h")
    passive(game, "declare")
    declare(game, "high", "low", "low")
    assert game.result is not None and game.result.chips == (3, -1, -2)
    # The dealer is Bob: Cid is his left, so Cid gets the odd low chip.
    game = rigged(["Ks Kd Qs Jd Tc", "2c 3c 4d 5s 6d", "2d 3d 4h 5h 6s"], "7s 8s 9s 7h 8h",
                  button=1)
    passive(game, "declare")
    declare(game, "high", "low", "low")
    assert game.result is not None and game.result.chips == (3, -2, -1)


def test_timeouts_check_else_fold_stand_pat_and_an_undeclared_hand_cannot_win() -> None:
    game = rigged(["Ks Kd Qs Jd Tc", "2c 3c 4d 5s 6d", "9d 9h 4h 5h 6s"], SPARE)
    game.apply(1, TIMEOUT)
    assert game.public_view().last_actions[1] == "check"
    game.apply(2, Action("bet"))
    game.apply(0, TIMEOUT)
    assert game.betting.folded[0]
    game.apply(1, Action("call"))
    game.apply(1, TIMEOUT)
    assert game.public_view().draws[1] == 0
    passive(game, "declare")
    assert game.to_act == {1, 2}
    game.apply(2, Action("declare", ("high",)))
    assert game.public_view().declared == (False, False, True)
    events = game.apply(1, TIMEOUT)  # Bob's low was better, but he never declared
    assert "Bob ran out of time and loses the hand." in [e.text for e in events]
    assert game.result is not None and game.result.chips == (-5, -15, 20)


def test_the_last_person_to_declare_is_told_privately_they_lose_the_hand_on_the_clock(
) -> None:
    """Issue 23, rule 3: one mechanism for every game with declarations (Sppoker's)."""
    game = rigged(["Ks Kd Qs Jd Tc", "2c 3c 4d 5s 6d", "9d 9h 4h 5h 6s"], SPARE)
    passive(game, "declare")
    events = game.apply(0, Action("declare", ("high",)))
    assert [e for e in events if e.kind == "last_call"] == []  # two people are still awaited
    events = game.apply(1, Action("declare", ("low",)))
    [call] = [e for e in events if e.kind == "last_call"]
    assert call.seat == 2 and call.text == (
        "Everyone else has declared: declare within 10 seconds, or you lose this hand.")
    assert {t.key: t.seconds for t in game.timers()} == {"spew-declare": 120,
                                                         "spew-last-2": 10}


def test_declarations_are_sealed_until_everyone_has_declared() -> None:
    game = rigged(["Ks Kd Qs Jd Tc", "2c 3c 4d 5s 6d", "9d 9h 4h 5h 6s"], SPARE,
                  ai_seats=[2])
    passive(game, "declare")
    prompt = game.prompt(0)
    assert prompt is not None
    assert [c.label for c in prompt.choices if isinstance(c, Choice)] == ["High", "Low", "Both"]
    events = game.apply(0, Action("declare", ("high",)))
    public = [e for e in events if e.is_public]
    assert [e.text for e in public] == ["Ann has declared (1 of 3)."]
    assert [e.data for e in events if e.seat == 0] == [{"declaration": "high"}]
    assert "high" not in json.dumps(game.public_view().to_json()).replace('"high":', "")
    assert game.view(0).declaration == "high" and game.view(1).declaration is None
    # Cid is an AI seat: Bob is the last person, whose short clock now runs.
    assert [t.seats for t in game.timers()] == [(1, 2), (1,)]
    with pytest.raises(IllegalAction, match="not your turn"):
        game.apply(0, Action("declare", ("low",)))  # a declaration is final
    declare(game, "low", "high")
    assert game.is_over and game.showdown is not None
    assert game.showdown["declarations"] == {"1": "low", "2": "high", "0": "high"}


def test_the_ai_leans_to_a_side_when_it_draws() -> None:
    game = rigged(["2c 3c 4d Ks Qd", "9c 9d Th Jh 4s"], SPARE)
    passive(game, "draw")
    (seat,) = game.to_act
    action = game.ai_action(seat, random.Random(1))
    assert action.name == "draw"
    thrown = {Card.__str__(c) for c in parse_cards(list(action.args))}
    assert thrown == ({"4s"} if seat == 1 else {"Ks", "Qd"})  # nines are fair for high


# --- the property ----------------------------------------------------------------------------

SIDES = ("high", "low", "both")


def _quoted(cards: list[Card]) -> set[str]:
    return {f'"{card}"' for card in cards}


def _hidden_check(game: Spew, events: list[Event], before_over: bool) -> None:
    """No public view or public event names a face-down card (in a hand, thrown, or still
    in the stock), and no seat sees another's hand, before the showdown."""
    stock_and_thrown = _quoted(game.stock) | _quoted(game.discards)
    public = json.dumps(game.public_view().to_json())
    hidden_always = [c for c in stock_and_thrown if c in public]
    assert not hidden_always, f"face-down cards in the public view: {hidden_always}"
    if before_over:
        for seat, hand in enumerate(game.hands):
            mine = _quoted(hand)
            assert not [c for c in mine if c in public]
            for other in range(len(game.seats)):
                if other != seat:
                    shown = json.dumps(game.view(other).to_json())
                    assert not [c for c in mine if c in shown]
    for event in events:
        if event.kind in ("deal_end", "game_over"):
            continue
        text = event.text + json.dumps(dict(event.data))
        for seat, hand in enumerate(game.hands):
            if event.seat != seat:
                leaked = [c for c in _quoted(hand) if c in text or c.strip('"') in
                          event.text.split()]
                assert not leaked, f"{event.kind} shows seat {seat}'s {leaked}"
        if event.seat is None:
            assert not [c for c in stock_and_thrown if c in text]


def _declarations_unseen(game: Spew, seat: int, action: Action, events: list[Event]) -> None:
    """Declaring another side would have shown the others exactly the same."""
    if action.name != "declare" or game.is_over:
        return
    for side in SIDES:
        other = Spew.from_dict(json.loads(json.dumps(game.to_dict())))
        other.declarations[seat] = side
        assert other.public_view() == game.public_view()
        for watcher in range(len(game.seats)):
            if watcher != seat:
                assert other.view(watcher) == game.view(watcher)
    assert all(e.seat == seat or action.args[0] not in e.text for e in events)


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    players=st.integers(2, 8),
    out_takes_low=st.booleans(),
    stacks=st.lists(st.integers(1, 150), min_size=8, max_size=8),
)
def test_chips_are_conserved_and_nothing_hidden_is_shown(
    seed: int, players: int, out_takes_low: bool, stacks: list[int]
) -> None:
    stacks = stacks[:players]
    game = Spew(NAMES[:players], {"stacks": stacks, "button": seed % players,
                                  "out_takes_low": out_takes_low}, random.Random(seed))
    rng = random.Random(seed)
    total = sum(stacks)
    _hidden_check(game, game.opening_events(), True)
    while not game.is_over:
        view = game.public_view()
        assert sum(view.stacks) + view.pot == total
        seat = rng.choice(sorted(game.to_act))
        roll = rng.random()
        if roll < 0.08:
            action = TIMEOUT
        elif roll < 0.5:
            action = game.ai_action(seat, rng)
        else:
            action = rng.choice(game.legal_actions(seat))
        events = game.apply(seat, action)
        _hidden_check(game, events, not game.is_over)
        if action.name == "declare":
            _declarations_unseen(game, seat, action, events)
    assert game.result is not None
    assert sum(game.result.chips) == 0 and sum(game.result.scores) == total
    assert list(game.result.scores) == [s + c for s, c in zip(stacks, game.result.chips,
                                                              strict=True)]
    assert game.public_view().pot == 0
