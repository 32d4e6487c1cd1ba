"""What the closing sandbox play-through of issue 23 found reading wrong (a Dealer's Choice
session, Po-Ke-No and a Swedish Hold'em Sppoker table played as a newcomer would), each
checked on games played by their own code. Every test here failed before its fix: a Dealer's
Choice showdown without the picture the same deal has at its own table, the last deal's
private news in the next dealer's DM, a broke player told in English at a Swedish table, a
DM saying the hand and the call twice, the reveal order told three times and read as "Your
reveal order is fixed: 2♦" once cards were turned, and a finished deal's "pot 0"."""

from __future__ import annotations

import random
import sys
from dataclasses import replace

import pytest

from bot.core import cash_table, narration
from bot.core.outbox import Post
from bot.core.table import Seat, Table
from bot.core.table_text import private_text
from bot.present import i18n, render
from bot.present.i18n import render as render_text
from bot.present.images import Row
from bot.present.render import cards_text
from cogs.chip_renderers import holdem_public
from cogs.high_low_games import reveal_private, spew_public
from cogs.pokeno import private_lines
from cogs.tables import language_name
from engine.game import Action, Event, Game
from engine.games import GAMES
from engine.games.badugi.rules import Badugi
from engine.games.dealers_choice.rules import DealersChoice
from engine.games.holdem_sppoker.rules import HoldemSppoker
from engine.games.old_man_49er.rules import OldMan49er
from engine.games.pokeno.views import PokenoSeatView
from engine.games.red_dog.rules import RedDog
from engine.games.spew.rules import Spew
from engine.words import WordFinder, WordListDictionary
from loopback.sandbox.render import plain

NAMES = ["Ann", "Bob", "Cid"]
USER = 1_000


pytestmark = pytest.mark.usefixtures("game_renderers")  # the games' own renderers


def table_for(game: Game, kind: str, stacks: list[int], locale: str = "en") -> Table:
    """A cash table of people playing `game`, its first deal dealt from `stacks`."""
    seats = [Seat(name, USER + seat) for seat, name in enumerate(game.seats)]
    table = Table("play23", 1, 2, kind, USER, seats=seats, locale=locale)
    table.game, table.status = game, "playing"
    table.stacks, table.bought, table.deal_stacks = list(stacks), list(stacks), list(stacks)
    table.deals = 1
    return table


def step(game: Game) -> list[Event]:
    """One move of whoever acts first: check or call, stand pat, declare high, and fix the
    order of the cards as they are held."""
    seat = min(game.to_act)
    names = {action.name for action in game.legal_actions(seat)}
    for name, args in (("stand", ()), ("check", ()), ("call", ()), ("declare", ("high",))):
        if name in names:
            return game.apply(seat, Action(name, args))
    if game.phase == "order":
        hand = [str(card) for card in game.view(seat).hand]
        return game.apply(seat, Action("order", tuple(hand)))
    raise AssertionError(f"no plain move among {sorted(names)}")


def play_out(game: Game, table: Table | None = None) -> list[Event]:
    events: list[Event] = []
    while not game.is_over:
        told = step(game)
        if table is not None:
            table.record(told)
        events += told
    return events


# --- Dealer's Choice -----------------------------------------------------------------------


def test_a_dealers_choice_showdown_has_the_picture_the_game_has_at_its_own_table(
        monkeypatch: pytest.MonkeyPatch) -> None:
    game = DealersChoice(NAMES, {"stacks": [100] * 3}, random.Random(1))
    game.apply(0, Action("choose", ("badugi",)))
    table = table_for(game, "dealers_choice", [100] * 3)
    events = play_out(game)
    assert any(event.kind == "deal_end" for event in events)
    [post, *_] = narration.public_events(table, events)
    assert isinstance(post, Post) and post.picture is not None
    assert post.picture.kind == "dealers_choice"
    drawn: list[Row] = []

    def capture(rows: list[Row], **_: object) -> bytes:
        drawn.extend(rows)
        return b""

    images = render.renderer_for("dealers_choice").images
    # Patched where the installed renderer's function lives: a test that loads the cogs again
    # (tests/bot/test_help.py) leaves a newer module in sys.modules than the one imported here.
    monkeypatch.setattr(sys.modules[images.__module__], "render_rows", capture)
    assert images([e for e in events if e.seat is None], NAMES)
    assert len(drawn) == 3  # the three hands shown down


def test_the_next_dealer_choosing_reads_no_news_of_the_last_deal() -> None:
    game = DealersChoice(NAMES, {"stacks": [100] * 3}, random.Random(1))
    game.apply(0, Action("choose", ("spew",)))
    table = table_for(game, "dealers_choice", [100] * 3)
    play_out(game, table)
    assert any("You declared high" in note for note in table.notes.get(1, []))
    cash_table.settle_deal(table)
    cash_table.next_deal(table, USER)
    chooser = min(table.require_game().to_act)
    text = private_text(table, chooser, table.require_game().prompt(chooser))
    assert "choose the game of this deal" in text
    assert "declared" not in text and "›" not in text


def test_a_player_without_chips_is_told_so_in_the_tables_language() -> None:
    game = Badugi(NAMES, {"stacks": [10, 100, 100], "button": 0}, random.Random(1))
    table = table_for(game, "badugi", [10, 100, 100], locale="sv")
    play_out(game)
    result = game.result
    assert result is not None
    game._result = replace(result, chips=(-10, 10, 0))  # the deal that took Ann's last 10
    [broke] = cash_table.settle_deal(table)
    assert render_text(broke.text, "sv") == \
        "Ann kan inte spela vidare utan marker: köp in igen eller lämna."


# --- what a seat reads in its DM -----------------------------------------------------------


@pytest.mark.parametrize("kind", ["badugi", "spew", "old_man_49er"])
def test_a_betting_prompt_says_the_hand_and_the_call_once(kind: str) -> None:
    classes: dict[str, type[Badugi | Spew | OldMan49er]] = {
        "badugi": Badugi, "spew": Spew, "old_man_49er": OldMan49er}
    game = classes[kind](NAMES, {"stacks": [100] * 3, "button": 0}, random.Random(3))
    table = table_for(game, kind, [100] * 3)
    while game.phase != "bet" or "bet" not in {a.name for a in game.legal_actions(
            min(game.to_act))}:
        step(game)
    first = min(game.to_act)
    game.apply(first, Action("bet"))
    seat = min(game.to_act)
    text = private_text(table, seat, game.prompt(seat))
    hand_word = "Your cards" if kind == "old_man_49er" else "Your hand"
    assert text.count(hand_word) == 1, text
    assert text.count("To call: 10") == 1, text


def old_man(seed: int = 2) -> tuple[OldMan49er, Table]:
    game = OldMan49er(NAMES, {"stacks": [100] * 3, "button": 0}, random.Random(seed))
    return game, table_for(game, "old_man_49er", [100] * 3)


def test_picking_a_reveal_order_is_told_once_not_a_line_a_card() -> None:
    game, table = old_man()
    while game.phase != "order":
        step(game)
    seat = min(game.to_act)
    first, second, *_ = game.view(seat).hand
    for card in (first, second):
        table.record(game.apply(seat, Action("pick", (card,))))
    text = private_text(table, seat, game.prompt(seat))
    assert "Order so far" not in text and "›" not in text  # no note a card
    assert f"Reveal order so far: {cards_text([first, second])}" in text
    assert f"(picked: {cards_text([first, second])})" in text


def test_once_cards_are_turned_the_dm_names_those_still_to_turn_and_at_the_end_none() -> None:
    game, _ = old_man()
    while game.view(0).reveals < 1:
        step(game)
    view = game.view(0)
    lines = reveal_private(view)
    assert not any(line.startswith("Your reveal order is fixed") for line in lines)
    assert f"Still to turn, in this order: {cards_text(list(view.hand))}" in lines
    play_out(game)
    final = "\n".join(reveal_private(game.view(0)))
    assert "reveal order" not in final and "Still to turn" not in final
    assert "0 down" not in final
    assert "Deal over · ante 5, bets 10/20" in final.split("\n")
    assert "pot 0" not in final


def test_a_finished_spew_deal_shows_no_empty_pot() -> None:
    game = Spew(NAMES, {"stacks": [100] * 3, "button": 0}, random.Random(4))
    play_out(game)
    [header, *_] = spew_public(game.public_view())
    assert header == "Deal over · ante 5, bets 10/20"


# --- Po-Ke-No -------------------------------------------------------------------------------


def test_a_pokeno_hand_with_every_card_placed_reads_as_an_empty_space_does() -> None:
    game = GAMES["pokeno"](NAMES, {}, random.Random(1))
    dealt = game.view(0)
    assert isinstance(dealt, PokenoSeatView) and dealt.hand
    view = replace(dealt, hand=())
    assert "Your hand: —" in private_lines(view)


# --- /table settings -------------------------------------------------------------------------


@pytest.mark.parametrize(("reader", "server", "named"), [
    ("sv", "sv", "svenska"), ("en", "sv", "Swedish"), ("sv", "en", "engelska"),
    ("en", "en", "English")])
def test_table_settings_names_the_servers_language_as_its_reader_says_it(
        reader: str, server: str, named: str) -> None:
    with i18n.using(reader):
        assert language_name(server) == named


# --- the sandbox -------------------------------------------------------------------------------


def test_the_sandbox_words_a_relative_time_in_its_readers_client_language() -> None:
    # Discord's client says "om 10 minuter" to a Swedish reader: the lobby's Swedish
    # sentence read "Den här lobbyn stänger in 10 minutes" in the sandbox.
    text = "Den här lobbyn stänger <t:1600:R> om ingen startar den."
    assert plain(text, now=1_000, locale="sv-SE") == \
        "Den här lobbyn stänger om 10 minuter om ingen startar den."
    assert plain("Closes <t:1600:R>.", now=1_000) == "Closes in 10 minutes."


# --- Hold'em Sppoker in Swedish ------------------------------------------------------------------


def test_a_swedish_holdem_board_names_its_streets_as_the_swedish_narration_does() -> None:
    # The board said "Flop" (and "Preflop") above the narration's "Floppen: …".
    words = WordListDictionary(["hej"])
    game = HoldemSppoker(NAMES, {"stacks": [200] * 3}, random.Random(1), dictionary=words,
                         finder=WordFinder(["hej"], words))
    with i18n.using("sv"):
        assert holdem_public(game.public_view())[0].startswith("Före floppen · mörkar 5/10")
        while game.public_view().street == "preflop":
            step(game)
        assert holdem_public(game.public_view())[0].startswith("Flopp · mörkar 5/10")


def test_a_refused_word_is_not_shown_as_a_declaration_nor_its_reason_three_times() -> None:
    # The DM read "Din deklaration: båda med HJEDS", "⚠️ finns inte i ordlistan sv_SE: HJEDS",
    # the note "HJEDS är inte giltigt — …", then the prompt "HJEDS är inte giltigt — …: du
    # har inte deklarerat än".
    words = WordListDictionary(["chest", "the"])
    game = HoldemSppoker.from_deal(NAMES[:2], ("Ks Kh", "As 3c"), "Kc Kd 4c 9h 2d",
                                   {"stacks": [200, 200]}, random.Random(5),
                                   dictionary=words, finder=WordFinder(["chest", "the"], words))
    while game.phase == "bet":
        step(game)
    table = table_for(game, "holdem_sppoker", [200, 200])
    table.record(game.apply(1, Action("declare", ("double", "hjeds"))))
    text = private_text(table, 1, game.prompt(1))
    assert "Your declaration" not in text and "⚠️" not in text
    assert text.count("HJEDS is not valid") == 1  # the news; the prompt asks again
    assert "**You have not declared yet: send another word, or declare poker." in text
    table.record(game.apply(1, Action("declare", ("double", "the"))))
    assert "Your declaration: **both** with **THE**" in private_text(table, 1, game.prompt(1))


# --- Red Dog ---------------------------------------------------------------------------------


def test_red_dogs_odds_are_said_once_at_ones_turn_and_not_after_the_deal() -> None:
    game = RedDog(NAMES, {"stacks": [30, 30, 30]}, random.Random(1))
    table = table_for(game, "red_dog", [30, 30, 30])
    seat = min(game.to_act)
    waiting = next(s for s in range(3) if s != seat)
    assert "unseen cards would win for you" in private_text(table, waiting, None)
    mine = private_text(table, seat, game.prompt(seat))
    assert "unseen cards would win for you" not in mine and "cards you have not seen" in mine
    while not game.is_over:
        seat = min(game.to_act)
        game.apply(seat, Action("pass"))
    assert "would win for you" not in private_text(table, seat, None)
