"""The buttons of a saved message: the view an outbox body names, built into discord.py's.

A row's body names its view as data (`{"type": "board", "table": ...}`, or a seat's prompt
with its stamp), so that it can wait in the store and be built after a restart. Building it
is the sender's business (and the in-place edits' it makes), not the presenter's, which
answers interactions with views it builds itself from `bot.discord.components`; it stands
apart so that the sender needs nothing of the presenter.
"""

from __future__ import annotations

from typing import Any

import discord

from bot.core.outbox import prompt_from_json
from bot.discord import components
from bot.present import i18n


def build_view(spec: dict[str, Any] | None) -> discord.ui.View | None:
    """The view an outbox body names; built fresh, so it needs nothing from before a restart."""
    if not spec:
        return None
    with i18n.using(spec.get("locale")):
        return _build_view(spec)


def _build_view(spec: dict[str, Any]) -> discord.ui.View | None:
    if spec["type"] == "board":
        return components.board_view(spec["table"])
    if spec["type"] == "cash":
        return components.cash_view(spec["table"])
    if spec["type"] == "lobby":
        return components.lobby_view(spec["table"])
    if spec["type"] == "replay":
        return components.replay_view(spec["table"])
    prompt = prompt_from_json(spec["prompt"]) if spec.get("prompt") else None
    return components.prompt_view(spec["table"], spec["seat"], spec["stamp"], prompt)
