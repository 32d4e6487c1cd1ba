"""Toy High Card's plug-in: everything the bot needs of the game beside its rules (game.py).

Its distribution names this module in the entry-point group `dealers_choice.games`
(pyproject.toml), so a bot with the distribution installed loads `PLUGINS`, then this module
as an extension (its `setup`): `/toy start` and `/toy rules`. Its catalogue and its rules
pages live in this package (`locale/`, `rules/`), not in the bot's folders.
"""

from __future__ import annotations

from pathlib import Path

import discord
from discord import app_commands
from discord.ext import commands

from bot.plugins import CatalogueDomain, GamePlugin
from bot.present.i18n import t
from bot.present.render import Renderer, cards_text
from cogs.common import send_rules, start_table
from engine.i18n import N_
from toy_high_card.game import ToyHighCard, ToySeatView, ToyView

HERE = Path(__file__).resolve().parent
CHOSEN = {"keep": N_("kept"), "swap": N_("swapped")}


def public_lines(view: ToyView) -> list[str]:
    """One line a seat: what it chose (or that it is choosing), and its card once shown."""
    lines = []
    for seat, name in enumerate(view.names):
        choice = view.chosen[seat]
        state = t(CHOSEN[choice]) if choice in CHOSEN else t("choosing")
        card = view.shown[seat]
        lines.append(t("{name}: {state}", name=name, state=state)
                     + (f" · {cards_text(card)}" if card else ""))
    return lines


def private_lines(view: ToySeatView) -> list[str]:
    return [t("Your hand: {cards}", cards=cards_text(list(view.hand))), *public_lines(view)]


@app_commands.guild_only()
class Toy(commands.GroupCog, group_name="toy",
          group_description="Toy High Card: one card, keep or swap it, highest wins"):
    @app_commands.command(name="start", description="Open a Toy High Card table (2-4 players)")
    async def start(self, interaction: discord.Interaction) -> None:
        await start_table(interaction, ToyHighCard.kind)

    @app_commands.command(name="rules", description="How Toy High Card is played")
    async def rules(self, interaction: discord.Interaction) -> None:
        await send_rules(interaction, ToyHighCard.kind, N_("Toy High Card"))


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Toy())


PLUGINS = (GamePlugin(
    game=ToyHighCard,
    renderer=Renderer(private=private_lines, public=public_lines),
    extension=__name__,
    command="toy",
    catalogue=CatalogueDomain("toy_high_card", ("*.py",), root=HERE, locale="locale",
                              complete=True),
    rules_dir=HERE / "rules",
),)
