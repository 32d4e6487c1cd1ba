"""The buttons of a saved message: the view an outbox message names, built into discord.py's.

A row's message names its view as data (`bot.core.outbox.ViewSpec`: a table's buttons, or a seat's
prompt with its stamp), so that it can wait in the store and be built after a restart. Building it
is the sender's business (and the in-place edits' it makes), not the presenter's, which answers
interactions with views it builds itself from `bot.discord.components`; it stands apart so that the
sender needs nothing of the presenter. """

from __future__ import annotations

import discord

from bot.core.outbox import PromptButtons, ViewSpec
from bot.discord import components
from bot.discord.web_links import link_button
from bot.present import i18n


def build_view(view: ViewSpec | None, *, link: str | None = None) -> discord.ui.View | None:
    """The view an outbox message names (`bot.core.outbox.ViewSpec`); built fresh, so it
    needs nothing from before a restart. `link`: the page of it on the server's web page
    (`bot.discord.web_links`), as a link button beside its own."""
    if view is None:
        return None
    with i18n.using(view.locale):
        built = _build_view(view)
        if link is not None:
            built.add_item(link_button(link))
        return built


def _build_view(view: ViewSpec) -> discord.ui.View:
    if isinstance(view, PromptButtons):
        return components.prompt_view(view.table, view.seat, view.stamp, view.prompt)
    builders = {"board": components.board_view, "cash": components.cash_view,
                "lobby": components.lobby_view, "replay": components.replay_view}
    return builders[view.kind](view.table)
