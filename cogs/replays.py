"""`/replay <game> [export]` and the **Replay** button on a game's final message: a finished
game stepped through move by move, every hand face up, or what one player knew at each step;
its notation file (engine/notation.py) attached on request.

Pages are ephemeral (stepping does not fill the channel) and their buttons carry the whole
page state in their custom_ids (table, frame, whose view), so they need nothing kept in
memory and keep working after a restart. Replayed games are kept in a small cache so that a
step forward costs one move, not the whole game again.
"""

from __future__ import annotations

import io
import logging
import re
from collections import OrderedDict
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.core.replays import (
    EVERYONE,
    PlayedGame,
    ReplayUnavailable,
    file_name,
    frame_text,
    load_notation,
    recent_games,
)
from bot.core.table import error_text
from bot.core.validation import EXPORT
from bot.discord.app import DealersChoiceBot, bot_of
from bot.discord.responses import Answer, deliver, in_time, update_clicked
from bot.present import i18n
from bot.present.i18n import render, t
from bot.present.inert import TEXT_LIMIT, clean, inert
from bot.store import Store
from cogs.common import Option
from engine.notation import Notation, NotationError, Replayer, write
from engine.replay import ReplayError

log = logging.getLogger(__name__)

CACHED = 16  # replayed games kept
MAX_OPTIONS = 25  # Discord's limit for a menu
Button = discord.ui.Button[discord.ui.View]
Select = discord.ui.Select[discord.ui.View]


class Replays(commands.Cog):
    def __init__(self, bot: DealersChoiceBot) -> None:
        self.bot = bot
        self._cache: OrderedDict[tuple[int, str], tuple[PlayedGame, Notation, Replayer]] = \
            OrderedDict()

    @property
    def store(self) -> Store:
        return self.bot.store

    async def replayer(self, guild_id: int, short_id: str
                       ) -> tuple[PlayedGame, Notation, Replayer]:
        key = (guild_id, short_id.strip().lstrip("#").lower())
        if key in self._cache:
            self._cache.move_to_end(key)
            return self._cache[key]
        game, notation = await load_notation(self.store, guild_id, short_id)
        entry = (game, notation, Replayer(notation))
        self._cache[key] = entry
        while len(self._cache) > CACHED:
            self._cache.popitem(last=False)
        return entry

    # --- pages --------------------------------------------------------------------------
    async def page(self, interaction: discord.Interaction, table_id: str, index: int,
                   who: int, *, new: bool) -> None:
        """Show frame `index` as `who` saw it: a new ephemeral reply, or this one edited.
        Replaying may read the game from the database: it runs under `in_time`."""
        page, found = await in_time(interaction, self._page(interaction, table_id, index, who))
        if new or not found:  # a refusal is the person's alone, never over the page
            await deliver(interaction, page)
        else:
            await update_clicked(interaction, page)

    async def _page(self, interaction: discord.Interaction, table_id: str, index: int,
                    who: int) -> tuple[Answer, bool]:
        """The page, and whether it is one (False: why there is none)."""
        await i18n.for_interaction(interaction)
        if interaction.guild_id is None:
            return Answer(t("Replays are of a server's games.")), False
        try:
            game, notation, replayer = await self.replayer(interaction.guild_id, table_id)
            frame = replayer.frame(index)
            chapters = replayer.chapters()
        except ReplayUnavailable as error:
            return Answer(render(error_text(error))), False
        except (NotationError, ReplayError) as error:
            log.warning("replay of %s failed: %s", table_id, error)
            # The error may quote a move, words typed by a player included: inert.
            why = inert(str(error), limit=TEXT_LIMIT, squeeze=False)
            return Answer(t("This game no longer replays with today's rules ({error}).",
                            error=why)), False
        content = frame_text(game, notation, frame, who)
        view = replay_view(game.table_id, frame.names, frame.index, len(replayer), who,
                           chapters)
        shown = "all" if who == EVERYONE else str(who)
        link = await self.bot.web_links.button(
            interaction.guild_id, f"/replay/{game.table_id}?step={frame.index}&as={shown}",
            row=3)
        if link is not None:  # this step on the server's web page, with its pictures
            view.add_item(link)
        return Answer(content, view=view), True

    async def export(self, interaction: discord.Interaction, table_id: str) -> None:
        await deliver(interaction, await in_time(interaction, self._export(interaction,
                                                                           table_id)))

    async def _export(self, interaction: discord.Interaction, table_id: str) -> Answer:
        await i18n.for_interaction(interaction)
        if interaction.guild_id is None:
            return Answer(t("Replays are of a server's games."))
        try:
            game, notation, _ = await self.replayer(interaction.guild_id, table_id)
        except ReplayUnavailable as error:
            return Answer(render(error_text(error)))
        data = io.BytesIO(write(notation).encode("utf-8"))
        return Answer(
            t("The notation of {title} `{table}` ({n} moves): `python -m engine replay` "
              "replays it in a terminal.", title=game.title, table=game.table_id,
              n=notation.moves),
            file=discord.File(data, filename=file_name(game)))

    # --- the command --------------------------------------------------------------------
    @app_commands.command(name="replay",
                          description="Step through a finished game, every hand face up")
    @app_commands.describe(game="The game's id (shown at its end and in /stats)",
                           export="Attach the game's notation file instead")
    @app_commands.guild_only()
    async def replay(self, interaction: discord.Interaction, game: str,
                     export: app_commands.Transform[bool, Option(EXPORT)] = False) -> None:
        if export:
            await self.export(interaction, game)
        else:
            await self.page(interaction, game, 0, EVERYONE, new=True)

    @replay.autocomplete("game")
    async def game_choices(self, interaction: discord.Interaction,
                           current: str) -> list[app_commands.Choice[str]]:
        if interaction.guild_id is None:
            return []
        games = await recent_games(self.store, interaction.guild_id, starting=current,
                                   limit=MAX_OPTIONS)
        return [app_commands.Choice(name=game.label()[:100], value=game.table_id)
                for game in games]


# --- components ---------------------------------------------------------------------------


def replays_of(interaction: discord.Interaction) -> Replays:
    cog = bot_of(interaction).get_cog("Replays")
    assert isinstance(cog, Replays)
    return cog


def _who(text: str) -> int:
    return EVERYONE if text == "a" else int(text)


def _who_id(who: int) -> str:
    return "a" if who == EVERYONE else str(who)


class StepButton(discord.ui.DynamicItem[Button],
                 template=r"dc:rp:(?P<table>[0-9a-f]+):(?P<index>\d+):(?P<who>a|\d+):"
                          r"(?P<tag>[a-z])"):
    """⏮ ◀ ▶ ⏭: the frame it leads to; the tag keeps two buttons to one frame distinct."""

    def __init__(self, table_id: str, index: int, who: int, tag: str, label: str = "…",
                 disabled: bool = False) -> None:
        super().__init__(discord.ui.Button(
            label=label, disabled=disabled, style=discord.ButtonStyle.secondary,
            custom_id=f"dc:rp:{table_id}:{index}:{_who_id(who)}:{tag}"))
        self.table_id, self.index, self.who = table_id, index, who

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> StepButton:
        return cls(match["table"], int(match["index"]), _who(match["who"]), match["tag"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await replays_of(interaction).page(interaction, self.table_id, self.index, self.who,
                                           new=False)


class WhoSelect(discord.ui.DynamicItem[Select],
                template=r"dc:rs:(?P<table>[0-9a-f]+):(?P<index>\d+)"):
    """Whose view: the table and every hand, or what one player knew."""

    def __init__(self, table_id: str, index: int, names: tuple[str, ...] = (),
                 who: int = EVERYONE) -> None:
        options = [discord.SelectOption(label=t("Every hand, face up"), value="a",
                                        default=who == EVERYONE)]
        options += [discord.SelectOption(label=t("What {name} knew", name=clean(name))[:100],
                                         value=str(seat),
                                         default=who == seat)
                    for seat, name in enumerate(names[:MAX_OPTIONS - 1])]
        super().__init__(discord.ui.Select(custom_id=f"dc:rs:{table_id}:{index}",
                                           options=options, row=1))
        self.table_id, self.index = table_id, index

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> WhoSelect:
        return cls(match["table"], int(match["index"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        data: dict[str, Any] = dict(interaction.data or {})
        values = [str(v) for v in data.get("values") or ["a"]]
        who = _who(values[0]) if values[0] == "a" or values[0].isdigit() else EVERYONE
        await replays_of(interaction).page(interaction, self.table_id, self.index, who,
                                           new=False)


class DealSelect(discord.ui.DynamicItem[Select],
                 template=r"dc:rd:(?P<table>[0-9a-f]+):(?P<who>a|\d+)"):
    """Jump to the start of a deal."""

    def __init__(self, table_id: str, who: int, chapters: list[int] | None = None,
                 current: int = 0) -> None:
        options = [discord.SelectOption(label="…", value="0")]
        if chapters:
            at = max(i for i, start in enumerate(chapters) if start <= current)
            first = max(0, min(at - MAX_OPTIONS // 2, len(chapters) - MAX_OPTIONS))
            options = [discord.SelectOption(label=t("Deal {n}", n=number + 1), value=str(start),
                                            default=number == at)
                       for number, start in enumerate(chapters)][first:first + MAX_OPTIONS]
        super().__init__(discord.ui.Select(custom_id=f"dc:rd:{table_id}:{_who_id(who)}",
                                           options=options, placeholder=t("Jump to a deal"),
                                           row=2))
        self.table_id, self.who = table_id, who

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> DealSelect:
        return cls(match["table"], _who(match["who"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        data: dict[str, Any] = dict(interaction.data or {})
        values = [str(v) for v in data.get("values") or ["0"]]
        index = int(values[0]) if values[0].isdigit() else 0
        await replays_of(interaction).page(interaction, self.table_id, index, self.who,
                                           new=False)


class ExportButton(discord.ui.DynamicItem[Button], template=r"dc:rx:(?P<table>[0-9a-f]+)"):
    def __init__(self, table_id: str) -> None:
        super().__init__(discord.ui.Button(label=t("Notation file"), emoji="📄",
                                           style=discord.ButtonStyle.secondary,
                                           custom_id=f"dc:rx:{table_id}"))
        self.table_id = table_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> ExportButton:
        return cls(match["table"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await replays_of(interaction).export(interaction, self.table_id)


def replay_view(table: str, names: tuple[str, ...], index: int, length: int, who: int,
                chapters: list[int]) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    last = length - 1
    for tag, label, target, disabled in (("f", "⏮", 0, index == 0),
                                         ("p", "◀", max(index - 1, 0), index == 0),
                                         ("n", "▶", min(index + 1, last), index >= last),
                                         ("l", "⏭", last, index >= last)):
        view.add_item(StepButton(table, target, who, tag, label, disabled))
    view.add_item(ExportButton(table))
    view.add_item(WhoSelect(table, index, names, who))
    if len(chapters) > 1:
        view.add_item(DealSelect(table, who, chapters, index))
    return view


async def setup(bot: DealersChoiceBot) -> None:
    bot.add_dynamic_items(StepButton, WhoSelect, DealSelect, ExportButton)
    await bot.add_cog(Replays(bot))
