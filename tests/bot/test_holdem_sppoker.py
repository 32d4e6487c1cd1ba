"""Hold'em Sppoker rules: one test (at least) per ruling of RULINGS.md (Hold'em Sppoker, the
chip games' betting details, Sppoker's word rules), on deals set card by card with
`HoldemSppoker.from_deal` and words judged by a small injected word list, so every outcome
here is decided by the rules alone. Then properties over random play: chips are conserved,
and no hole card or sealed declaration is ever shown before the showdown.
"""

from __future__ import annotations

import json
import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.game import TIMEOUT, Action, Event, IllegalAction, TextAsk
from engine.games import GAMES
from engine.games.holdem_sppoker.rules import HoldemSppoker
from engine.words import WordFinder, WordListDictionary

# Board letters H P E T E, a pair of kings on the board.
KINGS = "Kc Kd 4c 9h 2d"
QUADS = "Ks Kh"  # U E: four kings; words HUE, THE, PET
CHEST = "As 3c"  # C S: pair of kings; CHEST
HEAT = "5c 6c"  # A I: pair of kings; HEAT
DEPTH = "Qs Qd"  # D E: two pair; DEPTH (beats CHEST: same length, D later than C)
# A royal flush on the board: every poker hand ties. Board letters F S D U C.
ROYAL = "Ts Js Qs Ks As"
CADS = "2c 3d"  # A V: CADS
FUNDS = "4h 5h"  # W N: FUNDS
SCUD = "6d 7c"  # J L: SCUD
CUBS = "8d 9c"  # Z B: CUBS

WORDS = ["chest", "depth", "heat", "hue", "the", "pet", "pest", "tee",
         "cads", "funds", "fund", "scud", "cubs", "cud", "dub"]
DICTIONARY = WordListDictionary(WORDS)
FINDER = WordFinder(WORDS, DICTIONARY)
NAMES = ("Ann", "Bob", "Cy", "Di")


def deal(*holes: str, board: str = KINGS, stacks: list[int] | None = None,
         **options: Any) -> HoldemSppoker:
    opts = {"stacks": stacks or [200] * len(holes), **options}
    return HoldemSppoker.from_deal(NAMES[: len(holes)], holes, board, opts, random.Random(5),
                                   dictionary=DICTIONARY, finder=FINDER)


def act(game: HoldemSppoker, name: str) -> list[Event]:
    [seat] = game.to_act
    return game.apply(seat, Action(name))


def call_down(game: HoldemSppoker) -> list[Event]:
    """Everyone checks, or calls, until the betting is over."""
    events: list[Event] = []
    while game.phase == "bet":
        [seat] = game.to_act
        names = {a.name for a in game.legal_actions(seat)}
        events += game.apply(seat, Action("check" if "check" in names else "call"))
    return events


def declare(game: HoldemSppoker, *declarations: tuple[str, ...]) -> list[Event]:
    """Seat k declares declarations[k] (None: the seat is out of the hand)."""
    events: list[Event] = []
    for seat, declaration in enumerate(declarations):
        if declaration is not None:
            events += game.apply(seat, Action("declare", declaration))
    return events


def pot_records(game: HoldemSppoker) -> list[dict[str, Any]]:
    assert game.showdown is not None
    return list(game.showdown["pots"])


# --- the deal: deck, seats, blinds --------------------------------------------------------


def test_registered_a_chip_game_of_two_to_eight_on_the_56_card_deck() -> None:
    assert GAMES["holdem_sppoker"] is HoldemSppoker and HoldemSppoker.chip_game
    game = HoldemSppoker([f"P{k}" for k in range(8)], {"stacks": [100] * 8},
                         random.Random(3), dictionary=DICTIONARY, finder=FINDER)
    assert all(len(hand) == 2 for hand in game.hands)
    assert len(game.stock) == 56 - 16
    for count in (1, 9):
        try:
            HoldemSppoker(["P"] * count, {"stacks": [100] * count}, random.Random(1),
                          dictionary=DICTIONARY, finder=FINDER)
        except ValueError:
            continue
        raise AssertionError(f"{count} players were seated")


def test_blinds_five_and_ten_left_of_the_button_and_the_big_blind_is_the_first_bet() -> None:
    game = deal(QUADS, CHEST, HEAT)  # button 0: Bob small blind, Cy big blind
    view = game.public_view()
    assert view.bets == (0, 5, 10) and view.pot == 15 and game.to_act == {0}
    assert [c.label for c in game.prompt(0).choices] == ["Fold", "Call 10", "Raise to 20"]
    act(game, "raise"), act(game, "raise"), act(game, "raise")  # 20, 30, 40: capped
    assert game.public_view().bets == (20, 30, 40)
    assert [a.name for a in game.legal_actions(0)] == ["fold", "call"]


def test_heads_up_the_button_posts_the_small_blind_acts_first_then_last() -> None:
    game = deal(QUADS, CHEST, button=1)
    assert game.public_view().bets == (10, 5) and game.to_act == {1}
    act(game, "call")
    act(game, "check")
    assert game.public_view().street == "flop" and game.to_act == {0}


def test_a_big_blind_posted_short_is_still_the_bet_to_call_or_raise() -> None:
    """Issue 23, rule 1: Cy's big blind is all in for 6; Ann calls the full 10 or raises to
    20, and the 4 chips Cy could not cover make a side pot between Ann and Bob."""
    game = deal(QUADS, CHEST, HEAT, stacks=[100, 100, 6])
    assert game.public_view().bets == (0, 5, 6) and game.to_act == {0}
    assert [c.label for c in game.prompt(0).choices] == ["Fold", "Call 10", "Raise to 20"]
    act(game, "call")
    assert [c.label for c in game.prompt(1).choices] == ["Fold", "Call 5", "Raise to 20"]
    act(game, "call")
    view = game.public_view()
    assert view.street == "flop" and [(p.amount, p.eligible) for p in view.pots] == [
        (18, (0, 1, 2)), (8, (0, 1))]


def test_heads_up_the_small_blind_must_still_call_or_fold_a_big_blind_posted_short() -> None:
    """Issue 23, rule 1: stacks 200 / 1; the small blind is asked, and folding gives the
    big blind the chip it could match."""
    game = deal(QUADS, CHEST, stacks=[200, 1])
    assert game.to_act == {0} and game.phase == "bet"
    assert [c.label for c in game.prompt(0).choices] == ["Fold", "Call 5"]
    act(game, "fold")
    assert game.result is not None and list(game.result.chips) == [-1, 1]
    calling = deal(QUADS, CHEST, stacks=[200, 1])
    act(calling, "call")
    assert calling.phase == "declare"  # nobody can bet any more: the board is dealt out


def test_the_big_blinds_option_is_check_or_raise_to_twenty() -> None:
    """Issue 23, rule 2: everyone called the big blind; Cy may check or raise, never bet."""
    game = deal(QUADS, CHEST, HEAT)
    act(game, "call"), act(game, "call")
    assert game.to_act == {2}
    assert [c.label for c in game.prompt(2).choices] == ["Check", "Raise to 20"]
    assert [a.name for a in game.legal_actions(2)] == ["check", "raise"]
    events = act(game, "raise")
    assert events[0].text.startswith("Cy raises to 20.")
    assert game.public_view().bets == (10, 10, 20) and game.to_act == {0}


def test_a_bet_sent_for_the_big_blinds_option_before_it_was_named_a_raise_raises() -> None:
    """A replayed log, or a button sent before the option was named a raise, said "bet"."""
    game = deal(QUADS, CHEST, HEAT)
    act(game, "call"), act(game, "call")
    act(game, "bet")
    assert game.public_view().bets == (10, 10, 20) and game.last_actions[2] == "raise to 20"


def test_the_betting_rounds_flop_turn_river_with_the_big_bet_on_turn_and_river() -> None:
    game = deal(QUADS, CHEST)  # heads-up, button 0 (small blind)
    act(game, "call"), act(game, "check")
    expected = {"flop": ("Kc", "Kd", "4c"), "turn": ("9h",), "river": ("2d",)}
    board: tuple[str, ...] = ()
    for street, bet in (("flop", 10), ("turn", 20), ("river", 20)):
        view = game.public_view()
        board += expected[street]
        assert view.street == street
        assert tuple(c.split(":")[0] for c in view.board) == board
        assert game.to_act == {1}, "after the flop the big blind acts first"
        act(game, "bet")
        assert game.public_view().bets == (0, bet)
        act(game, "call")
    assert game.phase == "declare" and game.to_act == {0, 1}
    assert game.public_view().committed == (60, 60)  # 10, 10, 20, 20
    assert len(game.burned) == 3 and not set(game.burned) & set(game.board)


# --- the split between the poker side and the spelling side --------------------------------


def test_each_pot_is_split_evenly_between_the_poker_and_the_spelling_winner() -> None:
    game = deal(QUADS, CHEST, DEPTH)
    call_down(game)  # a pot of 30
    declare(game, ("poker",), ("spelling", "chest"), ("spelling", "depth"))
    assert game.is_over and game.result is not None
    assert list(game.result.chips) == [5, -10, 5]  # 15 each, back from 10 put in
    [pot] = pot_records(game)
    assert pot["poker"] == [0] and pot["spelling"] == [2]  # DEPTH beats CHEST: D after C
    assert "poker half 15 to Ann, spelling half 15 to Cy" in pot["text"]


def test_a_declarer_competes_only_with_the_same_side() -> None:
    game = deal(QUADS, CHEST, DEPTH)
    call_down(game)
    declare(game, ("spelling", "hue"), ("poker",), ("spelling", "depth"))
    # Bob's pair of kings is the worst poker hand but the only poker declarer.
    assert game.result is not None and list(game.result.chips) == [-10, 5, 5]


def test_the_odd_chip_goes_to_the_poker_side() -> None:
    game = deal(QUADS, HEAT, CHEST)  # button 0: Bob's small blind folds, a pot of 25
    act(game, "call"), act(game, "fold")
    call_down(game)
    declare(game, ("poker",), None, ("spelling", "chest"))
    assert game.result is not None and list(game.result.chips) == [3, -5, 2]  # 13 and 12
    assert "(the odd chip goes to poker)" in pot_records(game)[0]["text"]


def test_odd_chips_between_tied_winners_go_from_the_dealers_left() -> None:
    game = deal(CADS, FUNDS, SCUD, board=ROYAL)  # the board's royal flush: poker ties
    call_down(game)  # 30: poker half 15 between Ann and Bob, spelling 15 to Cy
    declare(game, ("poker",), ("poker",), ("spelling", "scud"))
    assert game.result is not None
    assert list(game.result.chips) == [-3, -2, 5]  # Bob, left of the dealer, gets the 8


def test_a_side_nobody_declared_goes_whole_to_the_other_sides_winner() -> None:
    game = deal(QUADS, CHEST, DEPTH)
    call_down(game)
    declare(game, ("poker",), ("poker",), ("poker",))
    assert game.result is not None and list(game.result.chips) == [20, -10, -10]
    assert "nobody wins spelling" in pot_records(game)[0]["text"]
    game = deal(QUADS, CHEST, DEPTH)
    call_down(game)
    declare(game, ("spelling", "hue"), ("spelling", "chest"), ("spelling", "depth"))
    assert game.result is not None and list(game.result.chips) == [-10, -10, 20]


# --- both ---------------------------------------------------------------------------------


def test_both_wins_both_sides_outright_and_takes_the_whole_pot() -> None:
    game = deal(QUADS, CHEST, HEAT)
    call_down(game)
    declare(game, ("both", "hue"), ("poker",), ("poker",))
    assert game.result is not None and list(game.result.chips) == [20, -10, -10]
    assert pot_records(game)[0]["scoop"] == 0


def test_both_loses_both_sides_when_beaten_on_one() -> None:
    game = deal(QUADS, CHEST)
    call_down(game)
    declare(game, ("both", "hue"), ("spelling", "chest"))
    # Ann's quads beat everyone, but CHEST beats HUE: Ann loses both, and the poker side,
    # claimed only by her losing "both", goes with the rest to Bob.
    assert game.result is not None and list(game.result.chips) == [-10, 10]
    [pot] = pot_records(game)
    assert pot["failed"] == [0] and pot["poker"] == [] and pot["spelling"] == [1]
    assert "Ann's both fails (beaten on spelling by Bob)" in pot["text"]


def test_both_loses_both_sides_on_a_tie() -> None:
    game = deal(FUNDS, CADS, SCUD, board=ROYAL)  # poker ties all round
    call_down(game)
    declare(game, ("both", "funds"), ("poker",), ("spelling", "scud"))
    assert game.result is not None and list(game.result.chips) == [-10, 5, 5]
    assert "Ann's both fails (tied on poker by Bob)" in pot_records(game)[0]["text"]


# --- side pots ----------------------------------------------------------------------------


def test_side_pots_are_split_among_the_players_eligible_for_each() -> None:
    # Cy, the big blind, has 15: all-in for 15 of a raise to 20. Main pot 45, side pot 10.
    game = deal(QUADS, HEAT, CHEST, stacks=[200, 200, 15])
    act(game, "raise"), act(game, "call"), act(game, "call")
    assert game.public_view().all_in == (False, False, True)
    call_down(game)
    pots = game.public_view().pots
    assert [(p.amount, p.eligible) for p in pots] == [(45, (0, 1, 2)), (10, (0, 1))]
    declare(game, ("poker",), ("spelling", "heat"), ("spelling", "chest"))
    main, side = pot_records(game)
    assert main["shares"] == {"0": 23, "2": 22}  # CHEST beats HEAT; the odd chip to poker
    assert side["shares"] == {"0": 5, "1": 5}  # HEAT is the best word Cy is not in for
    assert game.result is not None and list(game.result.chips) == [8, -15, 7]


# --- the words: Sppoker's rules and its invalid-word ruling -------------------------------


def test_an_invalid_word_does_not_declare_and_the_player_is_told_why_privately() -> None:
    game = deal(QUADS, CHEST)
    call_down(game)
    events = game.apply(1, Action("declare", ("spelling", "chests")))
    assert [e.kind for e in events] == ["word_check"] and events[0].seat == 1
    assert "not valid" in events[0].text and "S" in events[0].data["reason"]
    assert game.to_act == {0, 1} and game.public_view().declared == (False, False)
    # Why is the event's (the DM's note); the prompt asks again, without saying it twice.
    assert "not declared yet" in game.prompt(1).text
    events = game.apply(1, Action("declare", ("spelling", "chest")))
    assert [(e.kind, e.seat) for e in events] == [
        ("declared", None), ("declaration", 1), ("word_check", 1), ("last_call", 0)]
    with_word = [c for c in game.prompt(1).choices if isinstance(c, TextAsk)]
    assert [c.label for c in with_word] == ["Spelling", "Both"]
    # A counted declaration is never replaced by an invalid one.
    try:
        game.apply(1, Action("declare", ("both", "the-")))
    except IllegalAction as refusal:
        assert "Your declaration stays spelling with CHEST" in str(refusal)
    else:
        raise AssertionError("an invalid word replaced a declaration")


def test_time_running_out_on_an_invalid_word_reveals_it_and_it_loses_spelling() -> None:
    game = deal(QUADS, CHEST, HEAT)
    call_down(game)
    game.apply(0, Action("declare", ("poker",)))
    game.apply(2, Action("declare", ("spelling", "heat")))
    game.apply(1, Action("declare", ("both", "chests")))
    assert game.to_act == {1}
    game.apply(1, TIMEOUT)
    assert game.is_over and game.result is not None
    # Bob's "both" stands with an invalid word: it loses both; HEAT takes spelling.
    assert list(game.result.chips) == [5, -10, 5]
    assert game.showdown is not None
    bob = next(p for p in game.showdown["players"] if p["seat"] == 1)
    assert bob["declaration"] == "double" and bob["word"] == "CHESTS" and not bob["word_ok"]
    assert "no valid word" in pot_records(game)[0]["text"]


def test_two_invalid_words_do_not_tie_and_a_pot_nobody_wins_is_shared() -> None:
    game = deal(QUADS, CHEST)
    call_down(game)
    game.apply(0, Action("declare", ("spelling", "zz")))
    game.apply(1, Action("declare", ("spelling", "xyz")))
    game.apply(0, TIMEOUT), game.apply(1, TIMEOUT)
    assert game.result is not None and list(game.result.chips) == [0, 0]
    assert "nobody wins either side" in pot_records(game)[0]["text"]


def test_a_word_uses_the_letters_of_the_players_own_seven_cards_only() -> None:
    game = deal(QUADS, CHEST)
    call_down(game)
    events = game.apply(0, Action("declare", ("spelling", "chest")))  # Bob's C and S
    assert not events[0].data["ok"] and "letters not in your hand" in events[0].text
    assert game.view(0).letters == "UEHPETE"


# --- timeouts and the declaration clocks ---------------------------------------------------


def test_a_betting_timeout_checks_if_it_can_and_otherwise_folds() -> None:
    game = deal(QUADS, CHEST, HEAT)
    events = game.apply(0, TIMEOUT)  # facing the big blind
    assert game.public_view().folded == (True, False, False) and "folds" in events[0].text
    game.apply(1, Action("call"))
    events = game.apply(2, TIMEOUT)  # the big blind, nothing to call
    assert "checks" in events[0].text and game.public_view().street == "flop"


def test_a_declaration_left_to_the_clock_loses_the_hand_and_nothing_else_is_told() -> None:
    """Issue 23, rule 3: Ann's four kings never declared; Bob's CHEST takes the whole pot
    (Ann played poker for half of it before)."""
    game = deal(QUADS, CHEST)
    call_down(game)
    game.apply(1, Action("declare", ("spelling", "chest")))
    [event] = game.apply(0, TIMEOUT)[:1]
    assert event.is_public and "poker" not in event.text and "loses the hand" in event.text
    assert game.result is not None and list(game.result.chips) == [-10, 10]
    assert pot_records(game)[0]["poker"] == [] and pot_records(game)[0]["spelling"] == [1]
    assert game.showdown is not None
    ann = next(p for p in game.showdown["players"] if p["seat"] == 0)
    assert ann["timed_out"] and ann["won"] == 0


def test_a_pot_of_players_who_all_left_their_declaration_to_the_clock_is_theirs() -> None:
    """Every chip has an owner: nobody in the pot declared, so it is shared among them."""
    game = deal(QUADS, CHEST)
    call_down(game)
    game.apply(0, TIMEOUT), game.apply(1, TIMEOUT)
    assert game.result is not None and list(game.result.chips) == [0, 0]


def test_the_last_person_to_declare_gets_the_short_clock_ai_seats_counting_as_declared() -> None:
    game = deal(QUADS, CHEST, HEAT, ai_seats=[2], last_seconds=10)
    call_down(game)
    assert [t.seconds for t in game.timers()] == [120]
    events = game.apply(0, Action("declare", ("poker",)))
    [call] = [e for e in events if e.kind == "last_call"]
    assert call.seat == 1 and "10 seconds" in call.text and "lose this hand" in call.text
    assert {t.key: t.seats for t in game.timers()}["holdem-sppoker-last-1"] == (1,)


def test_everyone_else_folding_takes_the_pot_unseen() -> None:
    game = deal(QUADS, CHEST, HEAT)
    act(game, "fold")
    events = act(game, "fold")
    assert game.is_over and game.result is not None and list(game.result.chips) == [0, -5, 5]
    shown = " ".join(e.text + json.dumps(dict(e.data)) for e in events if e.is_public)
    assert "5c" not in shown and "6c" not in shown  # Cy's cards stay hidden


def test_a_snapshot_restores_the_deal_mid_declaration() -> None:
    game = deal(QUADS, CHEST)
    call_down(game)
    game.apply(1, Action("declare", ("spelling", "chest")))
    again = HoldemSppoker.from_dict(json.loads(json.dumps(game.to_dict())),
                                    dictionary=DICTIONARY, finder=FINDER)
    assert again.to_dict() == game.to_dict() and again.view(1) == game.view(1)
    again.apply(0, Action("declare", ("poker",)))
    assert again.result is not None and list(again.result.chips) == [0, 0]


# --- the AI -------------------------------------------------------------------------------


def test_the_ai_declares_by_its_chances() -> None:
    game = deal(QUADS, CHEST)
    call_down(game)
    rng = random.Random(1)
    assert game.ai_action(0, rng) == Action("declare", ("poker",))  # four kings
    assert game.ai_action(1, rng) == Action("declare", ("spelling", "CHEST"))


def test_the_ai_raises_a_strong_hand_and_folds_nothing_to_a_bet() -> None:
    game = deal(CHEST, QUADS, button=0)  # heads-up: Ann's small blind acts first
    act(game, "call"), act(game, "check")  # the flop: Kc Kd 4c
    assert game.ai_action(1, random.Random(2)) == Action("bet")  # four kings
    game.apply(1, Action("bet"))
    # Ann's pair of kings (on the board) against a bet: CHEST is still likely, so she calls.
    assert game.ai_action(0, random.Random(2)).name in ("call", "raise")


# --- properties over random play ---------------------------------------------------------


def _public_text(events: list[Event], but_seat: int | None = None) -> str:
    return " ".join(e.text + json.dumps(dict(e.data)) for e in events
                    if e.seat is None or e.seat != but_seat)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32), seats=st.integers(2, 8), short=st.booleans())
def test_chips_are_conserved_and_nothing_hidden_leaks(seed: int, seats: int,
                                                      short: bool) -> None:
    rng = random.Random(seed)
    stacks = [rng.choice([12, 30, 200]) if short else 200 for _ in range(seats)]
    game = HoldemSppoker([f"P{k}" for k in range(seats)], {"stacks": stacks,
                         "button": rng.randrange(seats)}, random.Random(seed),
                         dictionary=DICTIONARY, finder=FINDER)
    total = sum(stacks)
    for _step in range(400):
        if game.is_over:
            break
        b = game.betting
        assert sum(b.stacks) + sum(b.committed) == total
        holes = [{f'"{card}"' for card in hand} for hand in game.hands]
        public = json.dumps(game.public_view().to_json())
        views = [json.dumps(game.view(s).to_json()) for s in range(seats)]
        for holder, cards in enumerate(holes):
            assert not [c for c in cards if c in public]
            assert not [c for other in range(seats) if other != holder
                        for c in cards if c in views[other]]
        seat = rng.choice(sorted(game.to_act))
        if game.phase == "declare":
            _check_sealed(game, seat, rng)
        action = rng.choice([TIMEOUT, game.ai_action(seat, rng),
                             *game.legal_actions(seat)])
        if None in action.args:
            action = Action(action.name, (action.args[0], rng.choice([*WORDS, "zq", ""])))
        try:
            events = game.apply(seat, action)
        except IllegalAction:
            continue
        if game.is_over:
            break
        for holder, cards in enumerate(holes):
            shown = _public_text(events, but_seat=holder)
            assert not [c for c in cards if c in shown or c.strip('"') in shown.split()]
    assert game.is_over and game.result is not None
    assert sum(game.result.chips) == 0 and sum(game.betting.stacks) == total
    assert [s - c for s, c in zip(game.result.scores, game.result.chips, strict=True)] == stacks


def _check_sealed(game: HoldemSppoker, seat: int, rng: random.Random) -> None:
    """Whatever a seat declares, the others see the same thing until the showdown."""
    word = FINDER.best_word(game.view(seat).letters)
    if word is None:
        return
    seen = []
    public = []
    for declaration in (("poker",), ("spelling", word), ("both", word)):
        copy = HoldemSppoker.from_dict(game.to_dict(), dictionary=DICTIONARY, finder=FINDER)
        events = copy.apply(seat, Action("declare", declaration))
        if copy.is_over:
            return  # the showdown reveals it, as the rules say
        others = [s for s in range(len(game.seats)) if s != seat]
        seen.append((_public_text([e for e in events if e.seat != seat]),
                     copy.public_view(), [copy.view(s) for s in others]))
        public.append(_public_text([e for e in events if e.seat is None]))
    # The same for the others whether the seat declared poker or a word: nothing of the word
    # reached them. (The word itself may still stand in another seat's own private news: a
    # seat's standing word, told to it alone, can be the same word spelt from the board.)
    assert seen[0] == seen[1] == seen[2]
    assert word not in public[1]


def test_the_rules_page_states_the_rulings() -> None:
    from cogs.common import RULES_DIR

    page = " ".join((RULES_DIR / "holdem_sppoker.md").read_text(encoding="utf-8").split())
    for ruling in ("the **odd chip goes to poker**", "goes **whole to the other side's winner(s)",
                   "**Both** must win **both sides outright**", "you lose the hand",
                   "**An invalid word does not declare**", "with an **invalid word standing**"):
        assert ruling in page
