"""`/leaderboard <game>` (paginated, four orderings) and `/stats [user]`, from recorded results.

The page buttons carry the whole page state in their custom_id, so they keep working after a
restart and need nothing kept in memory.
"""

from __future__ import annotations

import re
from typing import Any, cast

import discord
from discord import app_commands
from discord.ext import commands

from bot.bank import Bank
from bot.store import LeaderboardOrder, Store
from engine.games import GAMES

PAGE_SIZE = 10
ORDERS = {"wins": "Wins", "games": "Games", "points": "Points", "win_rate": "Win rate"}


def store_of(interaction: discord.Interaction) -> Store:
    store: Store = interaction.client.store  # type: ignore[attr-defined]
    return store


def game_title(kind: str) -> str:
    return GAMES[kind].title if kind in GAMES else "All games"


async def leaderboard_page(
    store: Store, guild_id: int, kind: str, order: str, page: int
) -> tuple[discord.Embed, discord.ui.View]:
    """One page of a server's leaderboard, with buttons to page and to change the order.
    The all-games board has no points (each game counts its own kind), so neither a points
    column nor a Points order: asked for, it is ordered by wins."""
    game_kind = None if kind == "all" else kind
    orders = {key: label for key, label in ORDERS.items() if game_kind or key != "points"}
    order = order if order in orders else "wins"
    ranked: LeaderboardOrder = cast(LeaderboardOrder, order)
    size = await store.leaderboard_size(guild_id, game_kind)
    pages = max(1, -(-size // PAGE_SIZE))
    page = min(max(page, 0), pages - 1)
    rows = await store.leaderboard(guild_id, game_kind, ranked, PAGE_SIZE, page * PAGE_SIZE)
    embed = discord.Embed(
        title=f"🏆 {game_title(kind)} — by {ORDERS[order].lower()}",
        colour=discord.Colour.gold(),
    )
    if rows:
        embed.description = "\n".join(
            f"**{row.rank}.** {row.display_name} — {row.wins} won of {row.games}, "
            + ("" if row.points is None else f"{row.points} points, ")
            + f"{row.win_rate:.0%}"
            for row in rows
        )
    else:
        embed.description = "No finished games yet. Start one and be the first!"
    footer = f"Page {page + 1} of {pages} · finished games only"
    if game_kind is None:
        footer += " · points are per game: choose a game to see them"
    embed.set_footer(text=footer)
    view = discord.ui.View(timeout=None)
    view.add_item(PageButton(kind, order, page - 1, "◀ Previous", disabled=page == 0))
    view.add_item(PageButton(kind, order, page + 1, "Next ▶", disabled=page >= pages - 1))
    for key, label in orders.items():
        view.add_item(PageButton(kind, key, 0, label, disabled=key == order, row=1))
    return embed, view


class PageButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"dc:lb:(?P<kind>[a-z0-9_]+):(?P<order>[a-z_]+):(?P<page>\d+)(?::(?P<tag>[a-z]))?",
):
    def __init__(self, kind: str, order: str, page: int, label: str = "…",
                 disabled: bool = False, row: int | None = None) -> None:
        # The tag keeps two buttons of one view distinct when they point at the same page.
        tag = "n" if label.startswith("Next") else "p" if label.startswith("◀") else "o"
        super().__init__(
            discord.ui.Button(
                label=label, disabled=disabled, row=row, style=discord.ButtonStyle.secondary,
                custom_id=f"dc:lb:{kind}:{order}:{max(page, 0)}:{tag}",
            )
        )
        self.kind, self.order, self.page = kind, order, max(page, 0)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> PageButton:
        order = match["order"] if match["order"] in ORDERS else "wins"
        return cls(match["kind"], order, int(match["page"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        if interaction.guild_id is None:
            return
        embed, view = await leaderboard_page(
            store_of(interaction), interaction.guild_id, self.kind, self.order, self.page
        )
        await interaction.response.edit_message(embed=embed, view=view)


def game_choices() -> list[app_commands.Choice[str]]:
    choices = [app_commands.Choice(name=cls.title, value=kind) for kind, cls in GAMES.items()
               if not cls.chip_game]  # a chip game's players are ranked by their chips
    return [app_commands.Choice(name="All games", value="all"),
            app_commands.Choice(name="Chips", value="chips"), *choices][:25]


@app_commands.guild_only()
class Leaderboards(commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(name="leaderboard", description="This server's best players")
    @app_commands.describe(game="Which game", order="Rank by wins, games, points or win rate")
    @app_commands.choices(
        game=game_choices(),
        order=[app_commands.Choice(name=label, value=key) for key, label in ORDERS.items()],
    )
    async def leaderboard(self, interaction: discord.Interaction, game: str,
                          order: str = "wins") -> None:
        assert interaction.guild_id is not None
        if game == "chips":
            bank: Bank = self.bot.bank  # type: ignore[attr-defined]
            lines = await bank.richest(interaction.guild_id)
            embed = discord.Embed(title="🪙 Chips — the richest players",
                                  colour=discord.Colour.gold(),
                                  description="\n".join(lines) or "Nobody has chips yet: "
                                  "`/chips daily` starts an account.")
            await interaction.response.send_message(embed=embed)
            return
        embed, view = await leaderboard_page(
            store_of(interaction), interaction.guild_id, game, order, 0
        )
        await interaction.response.send_message(embed=embed, view=view)

    @app_commands.command(name="stats", description="A player's record in this server")
    @app_commands.describe(user="Whose record (yours if left out)")
    async def stats(self, interaction: discord.Interaction,
                    user: discord.User | None = None) -> None:
        assert interaction.guild_id is not None
        target = user or interaction.user
        stats = await store_of(interaction).player_stats(interaction.guild_id, target.id)
        embed = discord.Embed(title=f"📊 {target.display_name}", colour=discord.Colour.blue())
        if not stats:
            embed.description = "No finished games in this server yet."
        for kind, record in sorted(stats.items()):
            best = "—" if record.best_score is None else str(record.best_score)
            embed.add_field(
                name=game_title(kind),
                value=(f"played {record.played}, won {record.won}, best score {best}\n"
                       f"last played <t:{int(record.last_played.timestamp())}:R>"),
                inline=False,
            )
        await interaction.response.send_message(embed=embed)


async def setup(bot: commands.Bot) -> None:
    bot.add_dynamic_items(PageButton)
    await bot.add_cog(Leaderboards(bot))
