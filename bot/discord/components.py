"""Buttons, menus and modals whose custom_ids carry the table (and seat) they belong to.

They are `DynamicItem`s: discord.py rebuilds them from the custom_id of any click, so every
button keeps working after a restart. Their callbacks only parse the id and hand the
interaction to the table manager; no rule of any game lives here.

They reach the bot as a `Host`, the little of it they need (bot.discord.app's `DealersChoiceBot` is
one), so this module needs nothing of the presenter that builds its views. A table's refusal
(`TableError`) raised by a click is answered in one place, `refusing`: discord.py only logs
what a dynamic item's callback raises (no view's `on_error` sees it).
"""

from __future__ import annotations

import re
from collections.abc import Awaitable
from typing import Any, Protocol, cast, runtime_checkable

import discord

from bot.core.table import TableError
from bot.present.i18n import t
from engine.game import CardPick, Choice, Prompt, TextAsk
from engine.i18n import N_

Button = discord.ui.Button[discord.ui.View]
Select = discord.ui.Select[discord.ui.View]

LOBBY_OPS = {
    "join": (N_("Join"), discord.ButtonStyle.success),
    "leave": (N_("Leave"), discord.ButtonStyle.secondary),
    "ai": (N_("Add AI"), discord.ButtonStyle.secondary),
    "start": (N_("Start"), discord.ButtonStyle.primary),
    "cancel": (N_("Cancel"), discord.ButtonStyle.danger),
}
_STYLES = {
    "primary": discord.ButtonStyle.primary,
    "secondary": discord.ButtonStyle.secondary,
    "success": discord.ButtonStyle.success,
    "danger": discord.ButtonStyle.danger,
}


class Clicks(Protocol):
    """What the buttons, menus and word modals ask of the presenter (bot.discord.presenter's
    `Presenter`). Each may raise `TableError`: the service's refusal, for `refusing`."""

    async def lobby_action(self, interaction: discord.Interaction, table_id: str,
                           op: str) -> None: ...

    async def cash_action(self, interaction: discord.Interaction, table_id: str,
                          op: str) -> None: ...

    async def show_hand(self, interaction: discord.Interaction, table_id: str) -> None: ...

    async def answer(self, interaction: discord.Interaction, table_id: str, seat: int,
                     stamp: str, index: int, *, values: list[str] | None = None,
                     text: str | None = None) -> None: ...


@runtime_checkable
class ReplayPages(Protocol):
    """What the Replay button asks of the replays' cog (cogs/replays.py's `Replays`)."""

    async def page(self, interaction: discord.Interaction, table_id: str, index: int,
                   who: int, *, new: bool) -> None: ...


class Host(Protocol):
    """The bot as its buttons see it (bot.discord.app's `DealersChoiceBot`, checked there)."""

    @property
    def presenter(self) -> Clicks: ...

    @property
    def replays(self) -> ReplayPages: ...

    async def refuse(self, interaction: discord.Interaction, error: TableError) -> None:
        """Answer the service's refusal to the person alone (bot.discord.responses' `refuse`)."""


def host(interaction: discord.Interaction) -> Host:
    """The bot a click reached. discord.py types `interaction.client` as the bare
    `discord.Client`; these buttons are registered by one client only, bot.discord.app's
    `DealersChoiceBot`, which is a `Host`."""
    return cast(Host, interaction.client)


async def refusing(interaction: discord.Interaction, work: Awaitable[object]) -> None:
    """The one error handler of the buttons, menus and word modals: `work` (the presenter
    answering the click) runs, and a refusal it raises (`TableError`: not your turn, that
    choice is out of date) is answered to the clicker alone, in the language the click set.
    Anything else goes on to discord.py, which logs it (bot.discord.app's `on_interaction` uses this
    for the word modals too)."""
    try:
        await work
    except TableError as error:
        await host(interaction).refuse(interaction, error)


class LobbyButton(
    discord.ui.DynamicItem[Button], template=r"dc:l:(?P<table>[0-9a-f]+):(?P<op>[a-z]+)"
):
    def __init__(self, table_id: str, op: str) -> None:
        label, style = LOBBY_OPS[op]
        super().__init__(
            discord.ui.Button(label=t(label), style=style, custom_id=f"dc:l:{table_id}:{op}")
        )
        self.table_id, self.op = table_id, op

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> LobbyButton:
        op = match["op"] if match["op"] in LOBBY_OPS else "join"
        return cls(match["table"], op)

    async def callback(self, interaction: discord.Interaction) -> None:
        await refusing(interaction, host(interaction).presenter.lobby_action(
            interaction, self.table_id, self.op))


CASH_OPS = {
    "deal": (N_("Next deal"), discord.ButtonStyle.primary),
    "join": (N_("Join"), discord.ButtonStyle.success),
    "rebuy": (N_("Rebuy"), discord.ButtonStyle.secondary),
    "leave": (N_("Leave"), discord.ButtonStyle.secondary),
    "end": (N_("End"), discord.ButtonStyle.danger),
}


class CashButton(
    discord.ui.DynamicItem[Button], template=r"dc:k:(?P<table>[0-9a-f]+):(?P<op>[a-z]+)"
):
    """A chip table's buttons between deals."""

    def __init__(self, table_id: str, op: str) -> None:
        label, style = CASH_OPS[op]
        super().__init__(
            discord.ui.Button(label=t(label), style=style, custom_id=f"dc:k:{table_id}:{op}")
        )
        self.table_id, self.op = table_id, op

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> CashButton:
        op = match["op"] if match["op"] in CASH_OPS else "deal"
        return cls(match["table"], op)

    async def callback(self, interaction: discord.Interaction) -> None:
        await refusing(interaction, host(interaction).presenter.cash_action(
            interaction, self.table_id, self.op))


class ShowHandButton(
    discord.ui.DynamicItem[Button], template=r"dc:h:(?P<table>[0-9a-f]+)"
):
    def __init__(self, table_id: str) -> None:
        super().__init__(
            discord.ui.Button(
                label=t("Show my hand"), style=discord.ButtonStyle.secondary, emoji="🂠",
                custom_id=f"dc:h:{table_id}",
            )
        )
        self.table_id = table_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ShowHandButton:
        return cls(match["table"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await refusing(interaction, host(interaction).presenter.show_hand(
            interaction, self.table_id))


_ACT = r"(?P<table>[0-9a-f]+):(?P<seat>\d+):(?P<stamp>[0-9a-f-]+):(?P<index>\d+)"


class ChoiceButton(discord.ui.DynamicItem[Button], template=r"dc:c:" + _ACT):
    """A button of a seat's prompt: a plain choice, or one that opens a text modal."""

    def __init__(self, table_id: str, seat: int, stamp: str, index: int, label: str = "…",
                 style: discord.ButtonStyle = discord.ButtonStyle.secondary,
                 disabled: bool = False) -> None:
        super().__init__(
            discord.ui.Button(
                label=label[:80], style=style, disabled=disabled,
                custom_id=f"dc:c:{table_id}:{seat}:{stamp}:{index}",
            )
        )
        self.table_id, self.seat, self.stamp, self.index = table_id, seat, stamp, index

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ChoiceButton:
        return cls(match["table"], int(match["seat"]), match["stamp"], int(match["index"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await refusing(interaction, host(interaction).presenter.answer(
            interaction, self.table_id, self.seat, self.stamp, self.index))


class PickSelect(discord.ui.DynamicItem[Select], template=r"dc:p:" + _ACT):
    """A menu of cards of a seat's prompt (what to throw, what to play)."""

    def __init__(self, table_id: str, seat: int, stamp: str, index: int,
                 pick: CardPick | None = None) -> None:
        options = [discord.SelectOption(label="…", value="-")]
        low, high, placeholder = 1, 1, None
        if pick is not None:
            labels = pick.labels or pick.cards
            options = [
                discord.SelectOption(label=label[:100], value=value)
                for value, label in zip(pick.cards, labels, strict=True)
            ][:25]
            low = min(pick.min_cards, len(options))
            high = max(1, min(pick.max_cards, len(options)))
            placeholder = pick.label[:150]
        super().__init__(
            discord.ui.Select(
                custom_id=f"dc:p:{table_id}:{seat}:{stamp}:{index}",
                options=options, min_values=low, max_values=high, placeholder=placeholder,
            )
        )
        self.table_id, self.seat, self.stamp, self.index = table_id, seat, stamp, index

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> PickSelect:
        return cls(match["table"], int(match["seat"]), match["stamp"], int(match["index"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        data: dict[str, Any] = dict(interaction.data or {})
        values = [str(value) for value in data.get("values") or []]
        await refusing(interaction, host(interaction).presenter.answer(
            interaction, self.table_id, self.seat, self.stamp, self.index, values=values))


class TextModal(discord.ui.Modal):
    """The text a prompt asks for (a word). Submitting goes through the same checks.

    The field sits in a Label, Discord's current modal layout: a text input in an action row
    (with its own label) is deprecated. The submitted value still lands in `self.text`.
    """

    def __init__(self, table_id: str, seat: int, stamp: str, index: int, ask: TextAsk) -> None:
        super().__init__(title=ask.label[:45], custom_id=f"dc:m:{table_id}:{seat}:{stamp}:{index}")
        self.ids = (table_id, seat, stamp, index)
        self.text: discord.ui.TextInput[TextModal] = discord.ui.TextInput(
            placeholder=ask.placeholder[:100] or None,
            min_length=ask.min_length, max_length=ask.max_length,
        )
        self.add_item(discord.ui.Label(text=ask.field_label[:45], component=self.text))

    async def on_submit(self, interaction: discord.Interaction) -> None:
        table_id, seat, stamp, index = self.ids
        await refusing(interaction, host(interaction).presenter.answer(
            interaction, table_id, seat, stamp, index, text=self.text.value))


class ReplayButton(discord.ui.DynamicItem[Button], template=r"dc:r:(?P<table>[0-9a-f]+)"):
    """On a game's final message: its replay, to whoever presses it (cogs/replays.py)."""

    def __init__(self, table_id: str) -> None:
        super().__init__(
            discord.ui.Button(label=t("Replay"), style=discord.ButtonStyle.secondary, emoji="🎞️",
                              custom_id=f"dc:r:{table_id}")
        )
        self.table_id = table_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ReplayButton:
        return cls(match["table"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await host(interaction).replays.page(interaction, self.table_id, 0, -1, new=True)


def replay_view(table_id: str) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(ReplayButton(table_id))
    return view


def lobby_view(table_id: str) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for op in LOBBY_OPS:
        view.add_item(LobbyButton(table_id, op))
    return view


def board_view(table_id: str) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(ShowHandButton(table_id))
    return view


def cash_view(table_id: str) -> discord.ui.View:
    view = board_view(table_id)
    for op in CASH_OPS:
        view.add_item(CashButton(table_id, op))
    return view


def prompt_view(table_id: str, seat: int, stamp: str, prompt: Prompt | None) -> discord.ui.View:
    """The components of a seat's prompt: at most 5 rows of 5, menus on rows of their own."""
    view = discord.ui.View(timeout=None)
    if prompt is None:
        return view
    buttons: list[discord.ui.Item[Any]] = []
    selects: list[discord.ui.Item[Any]] = []
    for index, choice in enumerate(prompt.choices):
        if isinstance(choice, CardPick):
            selects.append(PickSelect(table_id, seat, stamp, index, choice))
        elif isinstance(choice, TextAsk):
            buttons.append(ChoiceButton(table_id, seat, stamp, index, choice.label,
                                        discord.ButtonStyle.primary))
        elif isinstance(choice, Choice):
            style = _STYLES[choice.style]
            if choice.disabled_reason:
                style = discord.ButtonStyle.secondary
            buttons.append(ChoiceButton(table_id, seat, stamp, index, choice.label, style,
                                        disabled=choice.locked))
    selects = selects[:4]  # a menu takes a whole row; keep one row for buttons
    button_rows = min(5 - len(selects), -(-len(buttons) // 5))
    for position, item in enumerate(buttons[: button_rows * 5]):
        item.row = position // 5
        view.add_item(item)
    for offset, item in enumerate(selects):
        item.row = button_rows + offset
        view.add_item(item)
    return view


PERSISTENT_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (
    LobbyButton, ShowHandButton, ChoiceButton, PickSelect, CashButton, ReplayButton)
"""Every button and menu a click can reach after a restart: the client registers these
(`add_dynamic_items`), and discord.py rebuilds each from its custom id."""
