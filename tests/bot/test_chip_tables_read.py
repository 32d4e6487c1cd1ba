"""The chip tables as a newcomer reads them (issue 23, "What a newcomer reads"): each line a
board, a DM or the narration shows, checked on games played by their own code. Every test
here failed before its fix: a counter past its end, a folded seat counted as having chosen, a
timed-out seat counted as declared, "drew 0" for a seat that has not drawn, a sentence opened
in lower case, bold inside bold, a hand said twice, Sppoker's internal "double", a showdown
without the longest words, a Dealer's Choice deal that never names its game, and a cash
table's end without what each player won or lost."""

from __future__ import annotations

import random

import pytest

from bot.core import narration
from bot.core.outbox import Edit, Post
from bot.core.table import Seat, Table
from bot.core.table_text import board_text, private_text, waiting_line
from bot.present.images import Row
from bot.present.render import bold_lines
from cogs import chip_renderers
from cogs.chip_renderers import badugi_public, holdem_private
from cogs.high_low_games import spew_public
from engine.cards import parse_cards, standard_deck
from engine.game import TIMEOUT, Action, Event, Game
from engine.games.badugi.rules import Badugi
from engine.games.dealers_choice.rules import DealersChoice
from engine.games.holdem_sppoker.rules import HoldemSppoker
from engine.games.red_dog.rules import RedDog
from engine.games.spew.rules import Spew
from engine.words import WordFinder, WordListDictionary

NAMES = ["Ann", "Bob", "Cid", "Dee"]
USER = 1_000


pytestmark = pytest.mark.usefixtures("game_renderers")  # the games' own renderers


def table_for(game: Game, kind: str, stacks: list[int], ai: frozenset[int] = frozenset(),
              ) -> Table:
    """A cash table playing `game`, its first deal dealt from `stacks`."""
    seats = [Seat(name, None if seat in ai else USER + seat)
             for seat, name in enumerate(game.seats)]
    table = Table("read01", 1, 2, kind, USER, seats=seats)
    table.game, table.status = game, "playing"
    table.stacks, table.bought, table.deal_stacks = list(stacks), list(stacks), list(stacks)
    table.deals = 1
    return table


def step(game: Game, fold: int | None = None) -> list[Event]:
    """One move of whoever is to act first: with `fold` named, seat 0 bets and `fold` folds
    at their first chance; everyone else checks or calls, and stands pat in a draw."""
    seat = min(game.to_act)
    names = {action.name for action in game.legal_actions(seat)}
    if "stand" in names:
        return game.apply(seat, Action("stand"))
    if fold is not None and seat == fold and "fold" in names:
        return game.apply(seat, Action("fold"))
    if fold is not None and seat == 0 and "bet" in names:
        return game.apply(seat, Action("bet"))
    return game.apply(seat, Action("check" if "check" in names else "call"))


# --- Spew ----------------------------------------------------------------------------------


def spew(stacks: list[int], hands: list[str], stock: str) -> Spew:
    game = Spew(NAMES[: len(stacks)], {"stacks": stacks, "button": 0}, random.Random(1))
    named = [parse_cards(hand) for hand in hands]
    top = parse_cards(stock)
    used = {str(c) for c in [*top, *(c for hand in named for c in hand)]}
    game.hands = named
    game.stock = top + [c for c in standard_deck() if str(c) not in used]
    return game


THREE = ["Ks Kd Qs Jd Tc", "2c 3c 4d 5s 6d", "9d 9h 4h 5h 6s"]


def to_declare(game: Spew, fold: int | None = None) -> list[Event]:
    events: list[Event] = []
    while game.phase != "declare":
        events += step(game, fold)
    return events


def test_a_spew_card_nobody_holds_is_told_in_a_sentence_of_its_own() -> None:
    events = to_declare(spew([200] * 3, THREE, "7s 8s 9s Ts 7h"))
    [first] = [e for e in events if e.kind == "spew" and e.data["number"] == 1]
    assert first.text == "Spew card 1 of 5: 7♠. Nobody holds sevens."


def test_the_spew_board_stops_counting_rounds_once_they_are_all_played() -> None:
    game = spew([200] * 3, THREE, "7s 8s 9s Ts 7h")
    to_declare(game)
    [header, *_] = spew_public(game.public_view())
    assert "round" not in header and header.startswith("Declare · ante")


def test_a_seat_whose_clock_ran_out_is_not_counted_as_having_declared() -> None:
    game = spew([200] * 3, THREE, "7s 8s 9s Ts 7h")
    to_declare(game)
    game.apply(0, TIMEOUT)
    events = game.apply(1, Action("declare", ("low",)))
    [said] = [e for e in events if e.kind == "declared"]
    assert said.text == "Bob has declared (1 of 2)."


def test_a_folded_seat_is_not_counted_among_those_who_have_chosen() -> None:
    game = spew([200] * 4, [*THREE, "Ah Kh 8c 8d 3h"], "7s 8s 9s Ts 7h")
    to_declare(game, fold=3)
    table = table_for(game, "spew", [200] * 4, ai=frozenset({3}))
    assert game.public_view().folded[3]
    game.apply(0, Action("declare", ("high",)))
    assert waiting_line(table).startswith("1 of 3 have chosen; waiting for 2")


# --- Badugi --------------------------------------------------------------------------------


def test_badugi_shows_no_draw_for_a_seat_that_has_not_drawn_yet() -> None:
    game = Badugi(NAMES[:3], {"stacks": [100] * 3, "button": 0}, random.Random(1))
    while game.phase != "draw":
        step(game)
    first = min(game.to_act)
    game.apply(first, Action("stand"))
    stacks = next(line for line in badugi_public(game.public_view()) if "Stacks" in line)
    drew = [part for part in stacks.split(" · ") if "drew" in part]
    assert drew == [part for part in stacks.split(" · ") if part.startswith(NAMES[first])]
    assert game.public_view().draws[first] == (0,)


def test_badugis_last_view_counts_no_fifth_betting_round_and_no_empty_pot() -> None:
    game = Badugi(NAMES[:2], {"stacks": [100] * 2, "button": 0}, random.Random(1))
    while not game.is_over:
        step(game)
    [header, *_] = badugi_public(game.public_view())
    assert header.startswith("Deal over · ante")
    assert "Betting round" not in header and "pot" not in header


# --- Red Dog -------------------------------------------------------------------------------


def test_red_dogs_dm_says_the_hand_once_and_its_prompt_stays_bold() -> None:
    game = RedDog(NAMES[:3], {"stacks": [30, 30, 30]}, random.Random(1))
    table = table_for(game, "red_dog", [30, 30, 30])
    seat = min(game.to_act)
    text = private_text(table, seat, game.prompt(seat))
    assert text.count("Your hand") == 1 + text.count("Your hand wins")
    prompt_lines = text.split("\n\n")[-1].split("\n")
    assert all(line.startswith("**") and line.endswith("**") and line.count("**") == 2
               for line in prompt_lines if line)


def test_bold_lines_keep_a_lines_own_bold_and_never_span_a_line_break() -> None:
    assert bold_lines("Pot **5**; you have 3.\nBet or pass.\n") == \
        "Pot **5**; you have 3.\n**Bet or pass.**\n"


# --- Hold'em Sppoker -----------------------------------------------------------------------

WORDS = ["chest", "depth", "heat", "hue", "the", "pet", "pest", "tee"]
DICTIONARY = WordListDictionary(WORDS)
FINDER = WordFinder(WORDS, DICTIONARY)


def holdem() -> HoldemSppoker:
    return HoldemSppoker.from_deal(NAMES[:2], ("Ks Kh", "As 3c"), "Kc Kd 4c 9h 2d",
                                   {"stacks": [200, 200]}, random.Random(5),
                                   dictionary=DICTIONARY, finder=FINDER)


def to_declaring(game: HoldemSppoker) -> None:
    while game.phase == "bet":
        step(game)


def test_holdem_sppoker_names_a_both_declaration_as_the_button_does() -> None:
    game = holdem()
    to_declaring(game)
    game.apply(1, Action("declare", ("double", "chest")))
    lines = holdem_private(game.view(1))
    assert "Your declaration: **both** with **CHEST**" in lines
    assert not any("double" in line for line in lines)


def test_holdem_sppokers_showdown_prints_the_longest_words_as_its_rules_page_promises(
) -> None:
    game = holdem()
    to_declaring(game)
    game.apply(0, Action("declare", ("poker", None)))
    events = game.apply(1, Action("declare", ("spelling", "chest")))
    [end] = [e for e in events if e.kind == "deal_end"]
    assert "(longest possible: CHEST" in str(end.text)
    assert all("longest possible" in line for line in str(end.text).split("\n")
               if line.startswith("•"))


# --- Dealer's Choice and the cash table ----------------------------------------------------


def test_a_dealers_choice_deal_names_its_game_on_the_board_and_in_the_dms() -> None:
    game = DealersChoice(NAMES[:3], {"stacks": [100] * 3}, random.Random(1))
    game.apply(0, Action("choose", ("spew",)))
    table = table_for(game, "dealers_choice", [100] * 3)
    assert board_text(table).startswith("**Dealer's Choice · Spew** — ")
    assert private_text(table, 1, game.prompt(1)).startswith("**Dealer's Choice · Spew** in ")
    [warned, *_] = narration.warning(table, [min(game.to_act)], 1.7e9)
    assert isinstance(warned, Post)
    assert "your time at Dealer's Choice · Spew runs out" in warned.content


def test_a_cash_tables_end_says_what_each_player_won_or_lost() -> None:
    game = Badugi(NAMES[:3], {"stacks": [100] * 3, "button": 0}, random.Random(1))
    table = table_for(game, "badugi", [100] * 3)
    table.stacks, table.deals = [130, 80, 90], 3  # between deals: two before this one
    while not game.is_over:
        step(game)
    table.stacks = [130, 80, 90]
    [post, *_] = narration.closed(table, "Ann ended the table.", tell_channel=True)
    assert isinstance(post, Post)
    assert "The 3 deals played to the end stand; each player's chips won or lost: " \
        "Ann +30 · Bob -20 · Cid -10." in post.content


def test_an_aborted_cash_table_says_its_finished_deals_stand() -> None:
    game = Badugi(NAMES[:3], {"stacks": [100] * 3, "button": 0}, random.Random(1))
    table = table_for(game, "badugi", [110, 90, 100])
    table.bought, table.deals = [100, 100, 100], 2  # the second deal is under way
    bodies = narration.closed(table, "this table was aborted.", tell_channel=False)
    [board] = [body for body in bodies if isinstance(body, Edit)]
    text = board.content
    assert "The deal played to the end stands; each player's chips won or lost: " \
        "Ann +10 · Bob -10 · Cid +0." in text
    assert "The deal under way counts as never dealt" in text


# --- showdown pictures ---------------------------------------------------------------------


def pictured_rows(events: list[Event], names: list[str],
                  monkeypatch: pytest.MonkeyPatch) -> list[Row]:
    """The rows a deal's showdown picture is drawn from (drawn by bot.present.images)."""
    drawn: list[Row] = []

    def capture(rows: list[Row], **_: object) -> bytes:
        drawn.extend(rows)
        return b""

    monkeypatch.setattr(chip_renderers, "render_rows", capture)
    assert chip_renderers.showdown_images(events, names)
    return drawn


def test_a_spew_showdown_picture_says_each_declaration_total_and_who_won_what(
        monkeypatch: pytest.MonkeyPatch) -> None:
    game = spew([200] * 3, THREE, "7s 8s 9s Ts 7h")
    to_declare(game)
    game.apply(0, Action("declare", ("high",)))
    game.apply(1, Action("declare", ("low",)))
    events = game.apply(2, TIMEOUT)
    [end] = [e for e in events if e.kind == "deal_end"]
    rows = {row.label: row for row in pictured_rows([end], NAMES[:3], monkeypatch)}
    won = {seat: chip_renderers.won_by(end.data, seat) for seat in range(3)}
    assert won[0] > 0 and won[1] > 0 and won[2] == 0
    assert rows["Ann"].winner and rows["Bob"].winner and not rows["Cid"].winner
    assert rows["Ann"].note is not None and "declared high" in rows["Ann"].note
    assert f"won {won[0]}" in rows["Ann"].note and "high " in rows["Ann"].note
    assert rows["Cid"].note is not None and "no declaration" in rows["Cid"].note


def test_a_holdem_sppoker_showdown_picture_says_the_word_and_the_declaration(
        monkeypatch: pytest.MonkeyPatch) -> None:
    game = holdem()
    to_declaring(game)
    game.apply(0, Action("declare", ("poker", None)))
    events = game.apply(1, Action("declare", ("spelling", "chest")))
    [end] = [e for e in events if e.kind == "deal_end"]
    rows = {row.label: row for row in pictured_rows([end], NAMES[:2], monkeypatch)}
    assert rows["Bob"].note is not None and "declared spelling · CHEST · won" in rows["Bob"].note
    assert rows["Ann"].note is not None and "declared poker · won" in rows["Ann"].note
