"""Prompt views respect Discord's layout: at most 5 rows of 5, a menu alone in its row, and
custom_ids that carry table, seat and prompt."""

from __future__ import annotations

import discord

from bot.discord.components import ChoiceButton, PickSelect, prompt_view
from engine.game import Action, CardPick, Choice, Prompt, TextAsk


def test_buttons_then_menus_each_on_its_own_row() -> None:
    cards = ("Ah", "Kd", "7c", "7s", "2h")
    prompt = Prompt("Draw?", (
        CardPick("Cards to throw", "draw", cards, 1, 3),
        Choice("Stand pat", Action("stand"), "primary"),
        *(Choice(card, Action("play", (card,))) for card in cards),
        TextAsk("Spelling", "declare", "Your word"),
    ))
    view = prompt_view("ab12", 1, "cafe", prompt)
    rows: dict[int, list[discord.ui.Item]] = {}
    for item in view.children:
        rows.setdefault(item.row if not isinstance(item, PickSelect) else item.item.row,
                        []).append(item)
    assert len(view.children) == 8
    assert all(len(items) <= 5 for items in rows.values()) and max(rows) <= 4
    menus = [item for item in view.children if isinstance(item, PickSelect)]
    assert len(menus) == 1 and len(rows[menus[0].item.row]) == 1
    ids = [item.custom_id for item in view.children if isinstance(item, ChoiceButton)]
    assert ids[0] == "dc:c:ab12:1:cafe:1" and all(len(i) <= 100 for i in ids)
    assert view.to_components()  # discord.py accepts the layout


def test_no_prompt_no_components() -> None:
    assert prompt_view("ab12", 0, "-", None).children == []
