"""The sign-up message's buttons: Join, Leave, Add AI and Start (the last two the
organiser's). `DynamicItem`s whose custom_id carries the tournament, so they work after any
restart; a click goes to the tournaments' cog (`SignupClicks`), and a refusal is answered to
the clicker alone (`refusing`)."""

from __future__ import annotations

import re
from typing import Any, Protocol, cast

import discord
from discord.ext import commands

from bot.discord.components import refusing
from bot.present.i18n import t
from engine.i18n import N_

__all__ = ["SIGNUP_OPS", "SignupButton", "SignupClicks", "signup_view"]

Button = discord.ui.Button[discord.ui.View]

SIGNUP_OPS = {
    "join": (N_("Join"), discord.ButtonStyle.success),
    "leave": (N_("Leave"), discord.ButtonStyle.secondary),
    "ai": (N_("Add AI"), discord.ButtonStyle.secondary),
    "start": (N_("Start"), discord.ButtonStyle.primary),
}


class SignupClicks(Protocol):
    """What the buttons need of the tournaments' cog."""

    async def signup_click(self, interaction: discord.Interaction, tournament_id: int,
                           op: str) -> None: ...


class SignupButton(discord.ui.DynamicItem[Button],
                   template=r"dc:tn:(?P<tournament>[0-9]+):(?P<op>[a-z]+)"):
    def __init__(self, tournament_id: int, op: str) -> None:
        label, style = SIGNUP_OPS[op]
        super().__init__(discord.ui.Button(label=t(label), style=style,
                                           custom_id=f"dc:tn:{tournament_id}:{op}"))
        self.tournament_id, self.op = tournament_id, op

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> SignupButton:
        op = match["op"] if match["op"] in SIGNUP_OPS else "join"
        return cls(int(match["tournament"]), op)

    async def callback(self, interaction: discord.Interaction) -> None:
        client = interaction.client
        if not isinstance(client, commands.bot.BotBase) or client.get_cog("Tournaments") is None:
            return
        cog = cast(SignupClicks, client.get_cog("Tournaments"))
        await refusing(interaction, cog.signup_click(interaction, self.tournament_id, self.op))


def signup_view(tournament_id: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for op in SIGNUP_OPS:
        view.add_item(SignupButton(tournament_id, op))
    return view
