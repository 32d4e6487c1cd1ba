"""`/leaderboard <game>` (paginated, up to six orderings) and `/stats [user]`, from recorded results
and skill ratings (`bot.store.skill`).

The page buttons carry the whole page state in their custom_id, so they keep working after a
restart and need nothing kept in memory.
"""

from __future__ import annotations

import re
from typing import Any, cast

import discord
from discord import app_commands
from discord.ext import commands

from bot.core.replays import recent_games
from bot.core.validation import OneOf
from bot.discord.app import DealersChoiceBot, bot_of
from bot.discord.responses import Answer, answer_in_time, in_time, update_clicked
from bot.discord.web_links import WebLinks
from bot.present import i18n
from bot.present.i18n import t, t_n
from bot.present.inert import inert
from bot.store import LeaderboardOrder, LeaderboardRow, Store
from bot.store.skill import BASE, SCALE, RatingRow
from cogs.common import Option
from engine.games import GAMES
from engine.i18n import N_

PAGE_SIZE = 10
ORDERS = {"wins": N_("Wins"), "games": N_("Games"), "points": N_("Points"),
          "win_rate": N_("Win rate"), "rating": N_("Rating"), "best": N_("Best score")}
BY_ORDER = {"wins": N_("by wins"), "games": N_("by games"), "points": N_("by points"),
            "win_rate": N_("by win rate"), "rating": N_("by rating"),
            "best": N_("by best score")}
PER_GAME = frozenset({"points", "rating", "best"})  # orders the all-games board cannot have


def store_of(interaction: discord.Interaction) -> Store:
    return bot_of(interaction).store


def game_title(kind: str) -> str:
    return GAMES[kind].title if kind in GAMES else t("All games")


def is_solitaire(kind: str) -> bool:
    """A one-person game: its board is a record of best scores, and nobody is rated (a
    rating needs opponents)."""
    return kind in GAMES and GAMES[kind].max_seats == 1


def orders_for(kind: str) -> dict[str, str]:
    """The orders a board offers (one row of five buttons). A solitaire's board is its best
    scores only: a solitaire played to its end counts as won, so wins, a win rate ("1 won of
    1, 100%") or a sum of scores would rank nothing but how often one played."""
    if kind not in GAMES:
        return {key: label for key, label in ORDERS.items() if key not in PER_GAME}
    if is_solitaire(kind):
        return {"best": ORDERS["best"]}
    return {key: label for key, label in ORDERS.items() if key != "best"}


def leaderboard_line(row: LeaderboardRow, solitaire: bool = False) -> str:
    if solitaire:  # a best score, and how many games it is the best of
        return t_n("**{rank}.** {name} — best {best} ({n} game)",
                   "**{rank}.** {name} — best {best} ({n} games)", row.games, rank=row.rank,
                   name=inert(row.display_name), best=row.best if row.best is not None
                   else "—")
    best = "" if row.best is None else t("best {n}, ", n=row.best)
    points = "" if row.points is None else t("{n} points, ", n=row.points)
    return t("**{rank}.** {name} — {wins} won of {games}, {points}{best}{rate}", rank=row.rank,
             name=inert(row.display_name), wins=row.wins, games=row.games, points=points,
             best=best,
             rate=f"{row.win_rate:.0%}")


async def leaderboard_page(
    store: Store, guild_id: int, kind: str, order: str, page: int,
    links: WebLinks | None = None,
) -> tuple[discord.Embed, discord.ui.View]:
    """One page of a server's leaderboard, with buttons to page and to change the order.
    The all-games board has no points and no ratings (each game counts and rates its own
    way), so neither their columns nor their orders: asked for, it is ordered by wins.
    In the server's language (the board is public)."""
    with i18n.using(await i18n.load_guild_locale(store, guild_id)):
        return await _leaderboard_page(store, guild_id, kind, order, page,
                                       links or WebLinks(store, None))


async def _leaderboard_page(
    store: Store, guild_id: int, kind: str, order: str, page: int, links: WebLinks
) -> tuple[discord.Embed, discord.ui.View]:
    game_kind = None if kind == "all" else kind
    orders = orders_for(kind)
    order = order if order in orders else "best" if is_solitaire(kind) else "wins"
    if order == "rating" and game_kind is not None:
        size = await store.rating_board_size(guild_id, game_kind)
    else:
        size = await store.leaderboard_size(guild_id, game_kind)
    pages = max(1, -(-size // PAGE_SIZE))
    page = min(max(page, 0), pages - 1)
    embed = discord.Embed(
        title=f"🏆 {game_title(kind)} — {t(BY_ORDER[order])}",
        colour=discord.Colour.gold(),
    )
    footer = t("Page {n} of {pages} · finished games only", n=page + 1, pages=pages)
    if order == "rating" and game_kind is not None:
        rated = await store.rating_board(guild_id, game_kind, PAGE_SIZE, page * PAGE_SIZE)
        embed.description = "\n".join(rating_line(row) for row in rated) or None
        footer += await rating_footer(store, guild_id, game_kind)
    else:
        ranked: LeaderboardOrder = cast(LeaderboardOrder, order)
        rows = await store.leaderboard(guild_id, game_kind, ranked, PAGE_SIZE, page * PAGE_SIZE)
        embed.description = "\n".join(leaderboard_line(row, is_solitaire(kind))
                                      for row in rows) or None
    if embed.description is None:
        embed.description = t("No finished games yet. Start one and be the first!")
    if game_kind is None:
        footer += t(" · points are per game: choose a game to see them")
    embed.set_footer(text=footer)
    view = discord.ui.View(timeout=None)
    view.add_item(PageButton(kind, order, page - 1, t("◀ Previous"), disabled=page == 0,
                             tag="p"))
    view.add_item(PageButton(kind, order, page + 1, t("Next ▶"), disabled=page >= pages - 1,
                             tag="n"))
    for key, label in orders.items() if len(orders) > 1 else ():  # no choice, no buttons
        view.add_item(PageButton(kind, key, 0, t(label), disabled=key == order, row=1))
    link = await links.button(guild_id, f"/leaderboard/{kind}?order={order}&page={page + 1}",
                              row=0)
    if link is not None:  # the whole board, on the server's web page
        view.add_item(link)
    return embed, view


def rating_line(row: RatingRow) -> str:
    """A rated person: the conservative rating first (it orders the board), wins beside."""
    return t("**{rank}.** {name} — rating {rating}, {wins} won of {games}", rank=row.rank,
             name=inert(row.display_name), rating=row.skill.shown, wins=row.wins,
             games=row.games)


async def rating_footer(store: Store, guild_id: int, kind: str) -> str:
    """What the number means, and the AI levels' ratings to measure oneself against."""
    levels = await store.ai_ratings(guild_id, kind)
    scale, base = f"{SCALE:g}", f"{BASE:g}"
    text = t(" · rating = conservative skill (mu − 3σ) × {scale} + {base}; newcomers start at "
             "{base}", scale=scale, base=base)
    for level, skill in levels.items():
        text += t(" · AI ({level}) {rating}", level=level, rating=skill.shown)
    return text


async def default_order(store: Store, guild_id: int, kind: str) -> str:
    """By rating once someone has played a few rated games of this game here, else by wins
    (see `Store.rating_is_default`); a solitaire's board is its best scores."""
    if is_solitaire(kind):
        return "best"
    if kind in GAMES and await store.rating_is_default(guild_id, kind):
        return "rating"
    return "wins"


class PageButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"dc:lb:(?P<kind>[a-z0-9_]+):(?P<order>[a-z_]+):(?P<page>\d+)(?::(?P<tag>[a-z]))?",
):
    def __init__(self, kind: str, order: str, page: int, label: str = "…",
                 disabled: bool = False, row: int | None = None, tag: str = "o") -> None:
        # The tag keeps two buttons of one view distinct when they point at the same page.
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
        bot = bot_of(interaction)
        embed, view = await in_time(interaction, leaderboard_page(
            bot.store, interaction.guild_id, self.kind, self.order, self.page, bot.web_links
        ))
        await update_clicked(interaction, Answer(embeds=(embed,), view=view))


def boards() -> dict[str, str]:
    """Every game (a chip game's board ranks its sessions: wins, net chips as points, and
    ratings by net chips), besides all games together and the richest players: the boards
    `/leaderboard game:` offers, by the name its menu shows."""
    return {"all": "All games", "chips": "Chips",
            **{kind: cls.title for kind, cls in GAMES.items()}}


BOARD = OneOf("game", boards)
ORDER = OneOf("order", lambda: ORDERS)


@app_commands.guild_only()
class Leaderboards(commands.Cog):
    def __init__(self, bot: DealersChoiceBot) -> None:
        self.bot = bot

    @app_commands.command(name="leaderboard", description="This server's best players")
    @app_commands.describe(game="Which game",
                           order="Wins, games, points, win rate, skill rating or best score "
                                 "(by default: rating once someone played a few games; a "
                                 "solitaire's best score)")
    async def leaderboard(self, interaction: discord.Interaction,
                          game: app_commands.Transform[str, Option(BOARD)],
                          order: app_commands.Transform[str, Option(ORDER)] | None = None,
                          ) -> None:
        assert interaction.guild_id is not None
        guild_id = interaction.guild_id

        async def work() -> Answer:
            await i18n.for_interaction(interaction, private=False)  # the board is public
            if game == "chips":
                bank = self.bot.bank
                lines = await bank.richest(guild_id)
                embed = discord.Embed(title=t("🪙 Chips — the richest players"),
                                      colour=discord.Colour.gold(),
                                      description="\n".join(lines) or t(
                                          "Nobody has chips yet: `/chips daily` starts an "
                                          "account."))
                link = await self.bot.web_links.button(guild_id, "/leaderboard/chips")
                return Answer(embeds=(embed,), view=_linked(link), ephemeral=False)
            store = store_of(interaction)
            chosen = order or await default_order(store, guild_id, game)
            embed, view = await leaderboard_page(store, guild_id, game, chosen, 0,
                                                 self.bot.web_links)
            return Answer(embeds=(embed,), view=view, ephemeral=False)

        await answer_in_time(interaction, work(), ephemeral=False)

    @app_commands.command(name="stats", description="A player's record in this server")
    @app_commands.describe(user="Whose record (yours if left out)")
    async def stats(self, interaction: discord.Interaction,
                    user: discord.User | None = None) -> None:
        assert interaction.guild_id is not None
        await answer_in_time(interaction, self._stats(interaction, interaction.guild_id, user),
                             ephemeral=False)

    async def _stats(self, interaction: discord.Interaction, guild_id: int,
                     user: discord.User | None) -> Answer:
        """The record, built in full before it is sent (see `answer_in_time`)."""
        await i18n.for_interaction(interaction, private=False)  # the record is public
        target = user or interaction.user
        store = store_of(interaction)
        stats = await store.player_stats(guild_id, target.id)
        ratings = await store.player_ratings(guild_id, target.id)
        embed = discord.Embed(title=f"📊 {inert(target.display_name)}",
                              colour=discord.Colour.blue())
        if not stats:
            embed.description = t("No finished games in this server yet.")
        for kind, record in sorted(stats.items()):
            best = "—" if record.best_score is None else str(record.best_score)
            rating = ratings.get(kind)
            rated = "" if rating is None else t(
                "rating {rating} ({change} in the last game)", rating=rating.skill.shown,
                change=f"{rating.last_change:+d}") + "\n"
            when = f"<t:{int(record.last_played.timestamp())}:R>"
            embed.add_field(
                name=game_title(kind),
                value=t("played {played}, won {won}, best score {best}", played=record.played,
                        won=record.won, best=best) + "\n"
                + rated + t("last played {when}", when=when),
                inline=False,
            )
        replays = await recent_games(store, guild_id, user_id=target.id, limit=3)
        if replays:
            aborted = t(" (aborted)")
            embed.add_field(name=t("Last games — `/replay <id>` steps through one"),
                            inline=False,
                            value="\n".join(f"`{game.table_id}` {game.title}"
                                            + (aborted if game.status != "finished" else "")
                                            + f" <t:{int(game.finished_at.timestamp())}:R>"
                                            for game in replays))
        link = await self.bot.web_links.button(guild_id, f"/player/{target.id}")
        return Answer(embeds=(embed,), view=_linked(link), ephemeral=False)


def _linked(link: discord.ui.Button[discord.ui.View] | None) -> discord.ui.View | None:
    """A view holding only the web page's link button, or None without one."""
    if link is None:
        return None
    view = discord.ui.View(timeout=None)
    view.add_item(link)
    return view


async def setup(bot: DealersChoiceBot) -> None:
    bot.add_dynamic_items(PageButton)
    await bot.add_cog(Leaderboards(bot))
