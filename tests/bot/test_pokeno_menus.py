"""What a Po-Ke-No player is offered and told in their DMs (issue 23): both copies of a card
held twice can be picked at once; the log keeps news, not "Your turn is over." / "Your turn."
turn after turn; the solitaire's End turn cannot be pressed before its three cards are played.
"""

from __future__ import annotations

import random

import discord
import pytest

from bot.core.outbox_json import prompt_from_json, prompt_to_json
from bot.core.outcomes import action_for
from bot.core.table import Table
from bot.core.table_text import private_text
from bot.discord.components import prompt_view
from bot.plugins import install_plugins
from engine.cards import parse_cards
from engine.game import Action, CardPick, Choice, Prompt
from engine.games.pokeno.rules import Pokeno
from engine.games.pokeno.solitaire import PokenoSolitaire
from tests.support.pokeno import give

USERS = (11, 12, 13)


def menu(prompt: Prompt | None) -> CardPick:
    assert prompt is not None
    return next(choice for choice in prompt.choices if isinstance(choice, CardPick))


def end_turn(prompt: Prompt | None) -> Choice:
    assert prompt is not None
    return next(choice for choice in prompt.choices
                if isinstance(choice, Choice) and choice.action == Action("end"))


def test_both_copies_of_a_card_held_twice_can_be_picked_at_once() -> None:
    game = Pokeno(["P0", "P1"], {"first_dealer": 1}, random.Random(1))
    give(game, 0, "Kd Kd 5h 6h 7h Jk Jk")
    pick = menu(game.prompt(0))
    assert len(pick.cards) == 7 == len(set(pick.cards))  # one choice a copy, all distinct
    assert pick.labels.count("K♦") == 2 and pick.labels.count("🃏") == 2
    assert pick.max_cards == 7
    kings = [value for value, label in zip(pick.cards, pick.labels, strict=True)
             if label == "K♦"]
    game.apply(0, action_for(pick, kings, None))  # as the bot reads the menu's answer
    assert game.selection == parse_cards("Kd Kd")
    game.apply(0, Action("place", ("pair", "Kd", "Kd")))
    assert game.current_board(0)[1] == parse_cards("Kd Kd")
    left = menu(game.prompt(0))
    assert "K♦" not in left.labels and left.labels.count("🃏") == 2


def test_the_dm_log_keeps_news_not_the_turn_passing_again_and_again() -> None:
    install_plugins()
    table = Table("t1", 10, 20, "pokeno", USERS[0], options={"first_dealer": 2})
    for user, name in zip(USERS, ("alice", "bob", "carol"), strict=True):
        table.join(user, name)
    table.start(USERS[0])  # the table keeps each seat's notes as it applies steps
    game = table.require_game()
    assert isinstance(game, Pokeno)
    for _ in range(9):  # alice throws a card and draws one; bob and carol pass
        seat = game.turn
        assert seat is not None
        action = Action("discard", (str(game.hands[seat][0]),)) if seat == 0 else Action("end")
        table.act(USERS[seat], seat, action)
        if seat == 0:
            table.act(USERS[0], 0, Action("end"))
        game = table.require_game()
        assert isinstance(game, Pokeno)
    notes = [str(note) for note in table.notes[1]]
    assert not [note for note in notes if "Your turn" in note], notes
    bob = private_text(table, 1, game.prompt(1))
    assert bob.count("Your turn") <= 1, bob
    alice = [str(note) for note in table.notes[0]]
    assert sum("You drew" in note for note in alice) == 3  # her news stays in view


@pytest.mark.parametrize("played", [0, 1, 2, 3])
def test_the_solitaires_end_turn_is_locked_until_three_cards_are_played(played: int) -> None:
    game = PokenoSolitaire(["Sol"], {}, random.Random(4))
    for card in list(game.hands[0])[:played]:
        game.apply(0, Action("discard", (str(card),)))
    prompt = game.prompt(0)
    end = end_turn(prompt)
    assert end.locked == (played < 3) and bool(end.disabled_reason) == (played < 3)
    again = prompt_from_json(prompt_to_json(prompt))  # as the outbox keeps it
    assert again == prompt
    view = prompt_view("ab12", 0, "0f", again)
    button = next(item for item in view.children if isinstance(item, discord.ui.DynamicItem)
                  and str(getattr(item.item, "label", "")).startswith("End turn"))
    assert isinstance(button.item, discord.ui.Button)
    assert button.item.disabled == (played < 3)
