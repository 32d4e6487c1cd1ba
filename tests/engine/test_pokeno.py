"""Pyramid Po-Ke-No and its solitaire: every ruling of RULINGS.md (seed 003), the turn of
tentative steps, and the AI's "full board" call."""

from __future__ import annotations

import random

import pytest

from engine.cards import Card, parse_cards, pokeno_deck
from engine.game import TIMEOUT, Action, IllegalAction
from engine.games import GAMES
from engine.games.pokeno.ai import feasible, pokeno_ai
from engine.games.pokeno.rules import Pokeno
from engine.games.pokeno.scoring import SPACES, score_round, solitaire_score, verdict
from engine.games.pokeno.solitaire import PokenoSolitaire
from engine.games.pokeno.spaces import Space
from tests.support.pokeno import give

KEYS = [space.name.lower() for space in SPACES]


def board_of(**spaces: str) -> list[list[Card]]:
    """A board from texts by space key; missing spaces are empty."""
    return [parse_cards(spaces.get(key, "")) for key in KEYS]


CORRECT = dict(
    no_pair="Ah Kd", pair="Qc Qd", two_pair="Jc Jd 9h 9s", three_of_a_kind="8c 8d 8h",
    straight="5c 6d 7h 8s 9c", flush="2h 5h 9h Jh Kh", full_house="4c 4d 4h Tc Td",
    four_of_a_kind="3c 3d 3h 3s", straight_flush="5s 6s 7s 8s 9s",
    royal_flush="Th Jh Qh Kh Ah",
)


def new_game(seats: int = 2, seed: int = 1, **options: object) -> Pokeno:
    return Pokeno([f"P{n}" for n in range(seats)], {"first_dealer": seats - 1, **options},
                  random.Random(seed))


# --- spaces: correct exactly, with and without jokers ----------------------------------------


@pytest.mark.parametrize(("space", "cards", "correct", "why"), [
    (Space.TWO_PAIR, "9c 9d 9h 9s", False, "four of a kind (nines), not two pair"),
    (Space.TWO_PAIR, "9c 9d Jk Jk", True, "two pair"),
    (Space.FULL_HOUSE, "Kc Kd Kh Ks Kc", False, "five of a kind, kings, not full house"),
    (Space.FULL_HOUSE, "Kc Kd Kh Jk Jk", True, "full house"),
    (Space.STRAIGHT, "5h 6h 7h 8h 9h", False, "straight flush, nine high, not straight"),
    (Space.FLUSH, "5h 6h 7h 8h 9h", False, "not flush"),
    (Space.STRAIGHT, "5h 6h Jk 8h 9h", True, "straight, nine high"),
    (Space.FLUSH, "5h 6h Jk 8h 9h", True, "flush"),
    (Space.NO_PAIR, "Ah Ad", False, "pair of aces, not any two cards"),
    (Space.NO_PAIR, "Ah Jk", True, "no pair"),
    (Space.NO_PAIR, "Jk Jk", True, "no pair"),
    (Space.PAIR, "Kc Jk", True, "pair of kings"),
    (Space.ROYAL_FLUSH, "Th Jh Qh Kh Ah", True, "royal flush"),
    (Space.ROYAL_FLUSH, "Th Jh Qh Kh Jk", False, "must be natural"),
    (Space.ROYAL_FLUSH, "9h Th Jh Qh Kh", False, "not a royal flush"),
    (Space.STRAIGHT_FLUSH, "Th Jh Qh Kh Jk", True, "royal flush"),
    (Space.STRAIGHT_FLUSH, "Th Jh Qh Kh Ah", True, "royal flush"),
    (Space.FOUR_OF_A_KIND, "7c 7d 7h Jk", True, "four of a kind"),
    (Space.THREE_OF_A_KIND, "7c 7d 8h", False, "pair of sevens, not three of a kind"),
    (Space.STRAIGHT, "5c 6d 7h", False, "incomplete (only 3 of 5 cards)"),
    (Space.FLUSH, "", False, "incomplete (empty)"),
])
def test_a_space_is_correct_only_when_it_reads_exactly_as_its_category(
        space: Space, cards: str, correct: bool, why: str) -> None:
    found = verdict(space, parse_cards(cards))
    assert found.correct is correct
    assert why in found.why


def test_a_royal_in_the_straight_flush_space_is_its_best_hand() -> None:
    royal = verdict(Space.STRAIGHT_FLUSH, parse_cards("Th Jh Qh Kh Ah"))
    king_high = verdict(Space.STRAIGHT_FLUSH, parse_cards("9s Ts Js Qs Ks"))
    with_joker = verdict(Space.STRAIGHT_FLUSH, parse_cards("Tc Jc Qc Kc Jk"))
    assert royal.strength == with_joker.strength
    assert royal.strength is not None and king_high.strength is not None
    assert royal.strength > king_high.strength


# --- scoring a round --------------------------------------------------------------------------


def test_the_strongest_correct_space_scores_and_ties_split_rounded_down() -> None:
    a = board_of(pair="Kc Kd", no_pair="Ah Kh", flush="2h 5h 9h Jh Kh", straight="5c 6d 7h 8s")
    b = board_of(pair="Kh Jk", no_pair="Ac Kc", flush="2c 5c 9c Jc Kc")
    c = board_of(pair="Qh Qd", no_pair="Ad Kd", flush="2s 5s 9s Js Ks")
    score = score_round([a, b, c], None)
    pair, no_pair, flush = (KEYS.index(k) for k in ("pair", "no_pair", "flush"))
    assert [row[pair] for row in score.space_points] == [2, 2, 0]  # 5 // 2, queens lose
    assert [row[no_pair] for row in score.space_points] == [1, 1, 1]  # 3 // 3
    assert [row[flush] for row in score.space_points] == [5, 5, 5]  # 15 // 3
    assert score.totals == (8, 8, 6)
    assert "incomplete" in score.verdicts[0][KEYS.index("straight")].why


def test_an_incorrect_space_scores_nothing_even_alone() -> None:
    a = board_of(two_pair="9c 9d 9h 9s")
    b = board_of()
    assert score_round([a, b], None).totals == (0, 0)


def test_the_caller_scores_25_for_ten_correct_spaces_even_when_beaten() -> None:
    a = board_of(**CORRECT)
    b = board_of(pair="Ac Ad")  # beats a's pair of queens
    score = score_round([a, b], caller=0)
    assert score.bonus == 25
    assert score.totals[0] == sum(s.points for s in SPACES) - 5 + 25
    assert score.space_points[0][KEYS.index("pair")] == 0


def test_the_caller_loses_25_when_a_space_is_wrong() -> None:
    a = board_of(**{**CORRECT, "two_pair": "9c 9d 9h 9s"})
    score = score_round([a, board_of()], caller=0)
    assert score.bonus == -25
    assert score.totals[0] == sum(s.points for s in SPACES) - 7 - 25


def test_solitaire_score_counts_spaces_kept_and_discarded_cards() -> None:
    board = board_of(pair="Qc Qd", no_pair="Ah Ad", flush="2h 5h 9h Jh Kh")
    score, verdicts = solitaire_score(board, kept=6, discarded=4)
    assert score == 5 + 15 + 60 - 40
    assert not verdicts[KEYS.index("no_pair")].correct


# --- the turn ---------------------------------------------------------------------------------


def test_placements_are_tentative_private_and_undoable_until_end_turn() -> None:
    game = new_game()
    seat = game.turn
    assert seat == 0
    give(game, 0, "Kc Kd 5h 6h 7h 8h Jk")
    game.apply(0, Action("place", ("pair", "Kc", "Kd")))
    game.apply(0, Action("discard", ("Jk",)))
    assert game.public_view().board_counts[0] == (0,) * 10  # nothing public yet
    assert game.public_view().hand_sizes[0] == 7
    mine = game.view(0)
    assert mine.board[1] == ("Kc", "Kd") and mine.fresh[1] == (0, 1)
    assert "Kc" not in mine.hand and len(mine.hand) == 4
    assert "Kc" not in str(game.view(1).to_json()) or "Kc" in game.hands[1]
    game.apply(0, Action("undo"))
    assert "Jk" in game.view(0).hand
    with pytest.raises(IllegalAction, match="room for 0 more"):
        game.apply(0, Action("place", ("pair", "5h")))
    with pytest.raises(IllegalAction, match="don't hold"):
        game.apply(0, Action("place", ("flush", "Ah")))
    game.apply(0, Action("end"))
    assert game.public_view().board_counts[0][1] == 2
    assert len(game.hands[0]) == 5 + 2  # drew up to seven, three at most
    assert game.turn == 1


def test_the_hand_limit_is_seven_and_a_draw_three_at_most() -> None:
    game = new_game()
    game.apply(0, Action("end"))  # passing with seven cards draws nothing
    assert len(game.hands[0]) == 7
    game.apply(1, Action("discard", tuple(map(str, game.hands[1][:5]))))
    game.apply(1, Action("end"))
    assert len(game.hands[1]) == 5


def test_menus_offer_only_spaces_with_room_and_full_board_only_when_complete() -> None:
    game = new_game()
    give(game, 0, "Kc Kd Kh 5h 6h 7h 8h")
    game.boards[0][KEYS.index("pair")] = parse_cards("2c 2d")
    game.boards[0][KEYS.index("two_pair")] = parse_cards("3c 3d 4c")
    game.deck = [c for c in game.deck if c not in parse_cards("2c 2d 3c 3d 4c")] + []
    game.apply(0, Action("pick", ("Kc", "Kd")))
    prompt = game.prompt(0)
    assert prompt is not None
    labels = [getattr(choice, "label", "") for choice in prompt.choices]
    assert not any(label.startswith("One pair") for label in labels)
    assert not any(label.startswith("Two pair") for label in labels)  # room for one only
    assert any(label.startswith("Three of a kind 0/3") for label in labels)
    assert "Full board!" not in labels
    assert Action("call") not in game.legal_actions(0)
    with pytest.raises(IllegalAction, match="ten spaces"):
        game.apply(0, Action("call"))


def take(game: Pokeno, card: Card) -> None:
    """Take a card out of play for a test board: from the deck, or swapped out of a hand."""
    if card in game.deck:
        game.deck.remove(card)
        return
    for hand in game.hands:
        if card in hand:
            hand.remove(card)
            hand.append(game.deck.pop())
            return
    raise AssertionError(f"{card} is nowhere")


def complete_board(game: Pokeno, seat: int, spaces: dict[str, str]) -> None:
    """Fill a seat's board (conserving cards)."""
    for i, key in enumerate(KEYS):
        cards = parse_cards(spaces[key])
        for card in cards:
            take(game, card)
        game.boards[seat][i] = cards


def test_full_board_gives_every_other_player_one_last_turn_then_scores() -> None:
    game = new_game(3)
    complete_board(game, 0, CORRECT)
    assert game.can_call(0)
    game.apply(0, Action("call"))
    game.apply(0, Action("undo"))
    assert not game.turn_called()
    game.apply(0, Action("call"))
    events = game.apply(0, Action("end"))
    assert any(e.kind == "call" for e in events)
    assert game.caller == 0 and game.turn == 1 and game.last_turns == [1, 2]
    assert Action("call") not in game.legal_actions(1)
    game.apply(1, Action("end"))
    assert game.turn == 2
    events = game.apply(2, Action("end"))
    kinds = [e.kind for e in events]
    assert "reveal" in kinds and "deal_end" in kinds
    assert game.scores[0] == sum(s.points for s in SPACES) + 25
    assert game.deal_no == 2 and game.caller is None  # the next round is dealt


def test_a_wrong_call_costs_25() -> None:
    game = new_game(2)
    complete_board(game, 0, {**CORRECT, "four_of_a_kind": "3c 3d 3h 2s"})
    game.apply(0, Action("call"))
    game.apply(0, Action("end"))
    game.apply(1, Action("end"))
    assert game.scores[0] == sum(s.points for s in SPACES) - 30 - 25


def test_an_empty_deck_reshuffles_the_discards_as_many_times_as_there_are_players() -> None:
    game = new_game(2)
    game.discards, game.deck = game.deck[:10], []
    game.apply(0, Action("discard", (str(game.hands[0][0]),)))
    events = game.apply(0, Action("end"))
    assert [e.kind for e in events].count("reshuffle") == 1
    assert game.reshuffles == 1 and len(game.deck) == 11 - 1 and len(game.hands[0]) == 7
    game.discards += game.deck  # the next reshuffle is the last one allowed for two
    game.deck = []
    game.apply(1, Action("discard", (str(game.hands[1][0]),)))
    game.apply(1, Action("end"))
    assert game.reshuffles == 2
    game.discards += game.deck
    game.deck = []
    round_before = game.deal_no
    game.apply(0, Action("discard", (str(game.hands[0][0]),)))
    events = game.apply(0, Action("end"))
    kinds = [e.kind for e in events]
    assert "deck_out" in kinds and "reshuffle" not in kinds and "deal_end" in kinds
    assert game.deal_no == round_before + 1


def test_the_round_ends_at_once_in_the_middle_of_a_draw() -> None:
    game = new_game(2)
    game.reshuffles = 2
    keep = game.deck[:1]
    game.discards += game.deck[1:]
    game.deck = keep
    game.apply(0, Action("discard", tuple(map(str, game.hands[0][:3]))))
    events = game.apply(0, Action("end"))
    texts = [e.text for e in events]
    assert any("draws 1" in text for text in texts)
    assert any(e.kind == "deck_out" for e in events) and game.deal_no == 2


def test_a_player_who_needs_no_card_does_not_end_the_round_on_an_empty_deck() -> None:
    game = new_game(2)
    game.reshuffles = 2
    game.discards += game.deck
    game.deck = []
    game.apply(0, Action("end"))  # seven cards: nothing to draw
    assert game.deal_no == 1 and game.turn == 1


def test_a_round_without_a_call_has_no_bonus_and_a_stalled_round_ends() -> None:
    game = new_game(2)
    complete_board(game, 0, CORRECT)
    game.apply(0, Action("end"))
    events = game.apply(1, Action("end"))
    assert any(e.kind == "stall" for e in events)
    assert game.scores[0] == sum(s.points for s in SPACES)  # no +25 without a call


OTHER = dict(  # as strong as CORRECT, space by space, from the other cards (jokers too)
    no_pair="As Kc", pair="Qh Qs", two_pair="Js Js 9c Jk", three_of_a_kind="8c 8d Jk",
    straight="5d 6c 7d Jk 9d", flush="2d 5d 9d Jd Kd", full_house="4s 4h 4d Ts Th",
    four_of_a_kind="3c 3d 3h 3s", straight_flush="5h 6h 7h 8h Jk",
    royal_flush="Tc Jc Qc Kc Ac",
)


def test_the_game_ends_at_the_target_with_the_highest_total_and_a_tie_plays_on() -> None:
    game = new_game(2, target=100)
    complete_board(game, 0, CORRECT)
    complete_board(game, 1, {**OTHER, "royal_flush": "2c Tc Jc Qc Kc"})
    game.apply(0, Action("call"))
    game.apply(0, Action("end"))
    game.apply(1, Action("end"))
    assert game.is_over and game.result is not None
    assert game.result.winners == (0,)
    tie = new_game(2, target=90)
    complete_board(tie, 0, CORRECT)
    complete_board(tie, 1, OTHER)
    tie.apply(0, Action("end"))
    tie.apply(1, Action("end"))  # a stall: equal boards, no call
    assert not tie.is_over and tie.scores[0] == tie.scores[1] == 97  # every space split
    assert tie.deal_no == 2


def test_a_timeout_ends_the_turn_as_it_stands() -> None:
    game = new_game(2)
    card = str(game.hands[0][0])
    game.apply(0, Action("place", ("flush", card)))
    game.apply(0, TIMEOUT)
    assert game.boards[0][KEYS.index("flush")] == parse_cards(card) and game.turn == 1


def test_the_same_seed_and_actions_give_the_same_game() -> None:
    def play(seed: int) -> dict[str, object]:
        game = new_game(3, seed)
        rng = random.Random(seed)
        for _ in range(300):
            if game.is_over:
                break
            seat = next(iter(game.to_act))
            game.apply(seat, game.ai_action(seat, rng))
        return game.to_dict()

    assert play(4) == play(4)
    assert play(4) != play(5)


def test_cards_are_conserved_in_a_whole_game() -> None:
    game = new_game(4, 9, target=150)
    rng = random.Random(3)
    while not game.is_over:
        seat = next(iter(game.to_act))
        game.apply(seat, game.ai_action(seat, rng))
        held = [c for h in game.hands for c in h] + [c for b in game.boards for s in b for c in s]
        assert sorted(map(str, held + game.deck + game.discards)) == \
            sorted(map(str, pokeno_deck(2)))


# --- the AI ---------------------------------------------------------------------------------------


def test_the_ai_calls_full_board_only_when_every_space_is_correct() -> None:
    game = new_game(2)
    complete_board(game, 0, CORRECT)
    assert pokeno_ai(game.view(0)) == Action("call")
    wrong = new_game(2)
    complete_board(wrong, 0, {**CORRECT, "two_pair": "9c 9d 9h 9s"})
    assert pokeno_ai(wrong.view(0)) != Action("call")


def test_the_ai_builds_only_spaces_it_can_still_make_correct() -> None:
    assert feasible(Space.TWO_PAIR, parse_cards("9c 9d 9h")) is False
    assert feasible(Space.ROYAL_FLUSH, parse_cards("Th Jk")) is False
    assert feasible(Space.STRAIGHT, parse_cards("5c 9d")) is True
    assert feasible(Space.STRAIGHT, parse_cards("5c Td")) is False
    game = new_game(2)
    give(game, 0, "Kc Kd Kh Ks 2c 7d Jk")
    action = pokeno_ai(game.view(0))
    assert action.name == "place" and action.args[0] == "four_of_a_kind"


# --- solitaire --------------------------------------------------------------------------------


def solitaire(seed: int = 2) -> PokenoSolitaire:
    return PokenoSolitaire(["Sol"], {}, random.Random(seed))


def test_solitaire_plays_exactly_three_cards_a_turn_then_draws_three() -> None:
    game = solitaire()
    assert len(game.deck) == 47 and sum(c.is_joker for c in game.deck + game.hands[0]) == 2
    hand = list(map(str, game.hands[0]))
    with pytest.raises(IllegalAction, match="exactly 3"):
        game.apply(0, Action("end"))
    game.apply(0, Action("place", ("flush", hand[0], hand[1])))
    with pytest.raises(IllegalAction, match="exactly 3 cards a turn: 1 more"):
        game.apply(0, Action("discard", (hand[2], hand[3])))
    game.apply(0, Action("discard", (hand[2],)))
    assert Action("end") in game.legal_actions(0)
    assert not [a for a in game.legal_actions(0) if a.name in ("place", "discard")]
    game.apply(0, Action("end"))
    assert len(game.hands[0]) == 7 and len(game.deck) == 44 and game.discarded == 1


def test_solitaire_ends_right_after_the_draw_that_empties_the_deck() -> None:
    game = solitaire()
    turns = 0
    while not game.is_over:
        hand = list(map(str, game.hands[0]))
        game.apply(0, Action("discard", tuple(hand[:3])))
        game.apply(0, Action("end"))
        turns += 1
    assert turns == 16  # 47 cards: fifteen draws of three, then the last two
    assert game.result is not None
    assert game.result.scores == (10 * 6 - 10 * 48,)
    assert game.result.winners == (0,)  # a solitaire played to its end counts as won


ONE_DECK = dict(
    no_pair="4c 6c", pair="Ac Ad", two_pair="Qc Qd Kc Kd", three_of_a_kind="Jc Jd Jh",
    straight="5c 6d 7c 8c 9c", flush="2s 5s 7s 8s 9s", full_house="2c 2d 2h Tc Td",
    four_of_a_kind="3c 3d 3h 3s", straight_flush="4h 5h 6h 7h 8h", royal_flush="Ts Js Qs Ks",
)


def test_solitaire_ends_on_a_complete_board_and_counts_the_deck() -> None:
    game = solitaire()
    game.boards[0] = board_of(**ONE_DECK)
    on_board = [card for cards in game.boards[0] for card in cards]
    rest = [c for c in pokeno_deck(1) if c not in on_board and str(c) != "As"]
    game.hands[0], game.deck = [parse_cards("As")[0], *rest[:6]], rest[6:]
    game.apply(0, Action("place", ("royal_flush", "As")))
    game.apply(0, Action("end"))  # fewer than three: the board is complete
    assert game.is_over and game.result is not None
    kept = 6 + len(rest) - 6
    assert game.result.scores == (sum(s.points for s in SPACES) + 10 * kept,)
    assert game.last_deal is not None and game.last_deal["perfect"]


def test_solitaire_ai_plays_whole_games_and_scores_better_than_random() -> None:
    ai, rand = [], []
    for seed in range(6):
        for policy, out in (("ai", ai), ("random", rand)):
            game = solitaire(seed)
            rng = random.Random(seed)
            while not game.is_over:
                legal = game.legal_actions(0)
                action = game.ai_action(0, rng) if policy == "ai" else rng.choice(legal)
                game.apply(0, action)
            assert game.result is not None
            out.append(game.result.scores[0])
    assert sum(ai) > sum(rand)


def test_both_games_are_registered() -> None:
    assert GAMES["pokeno"] is Pokeno and GAMES["pokeno_solitaire"] is PokenoSolitaire
