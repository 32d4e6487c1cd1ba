"""Sppoker: `/sppoker start`, `/sppoker rules`, and how its hands and reveals look."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.core.validation import AI_SKILL, SPPOKER_TARGET, guild_setting
from bot.discord.app import DealersChoiceBot
from bot.plugins import CatalogueDomain, GamePlugin
from bot.present import i18n
from bot.present.i18n import render, t
from bot.present.images import Row, render_cards, render_rows
from bot.present.render import Renderer
from cogs.common import (
    DESCRIBE_DECLARE_SECONDS,
    DESCRIBE_DICTIONARY,
    DESCRIBE_LAST_SECONDS,
    DeclareSeconds,
    Dictionary,
    LastSeconds,
    Option,
    send_rules,
    start_table,
)
from engine.cards import parse_cards
from engine.game import Event
from engine.games.sppoker.rules import Sppoker as SppokerGame
from engine.games.sppoker.views import SppokerSeatView, SppokerView
from engine.i18n import N_
from engine.words import available_languages

KIND = "sppoker"
DECLARATIONS = {"poker": N_("poker"), "spelling": N_("spelling"), "double": N_("double down")}
# The dictionary a server's language suggests, when the server has not chosen one.
LOCALE_DICTIONARIES = {"sv": ("sv_SE", "sv_FI")}


def declared(declaration: str) -> str:
    return t(DECLARATIONS[declaration]) if declaration in DECLARATIONS else declaration


def default_dictionary(server_choice: str | None, locale: str, bot_default: str) -> str:
    """The words a Sppoker table plays with: the server's `dictionary` setting; else, for a
    server whose `locale` is Swedish, the Swedish dictionary when installed; else the bot's.

    >>> default_dictionary(None, "en", "en_US")
    'en_US'
    >>> default_dictionary("en_GB", "sv", "en_US")
    'en_GB'
    """
    if server_choice:
        return server_choice
    installed = set(available_languages()) if locale in LOCALE_DICTIONARIES else set()
    for tag in LOCALE_DICTIONARIES.get(locale, ()):
        if tag in installed:
            return tag
    return bot_default


def private_lines(view: SppokerSeatView) -> list[str]:
    lines = []
    if view.labels:
        lines.append(t("Your hand: {cards}", cards="  ".join(view.labels)))
        lines.append(t("Letters: **{letters}**", letters=" ".join(view.letters)))
        lines.append(t("Best poker hand: **{hand}** ({cards})", hand=render(view.poker),
                       cards=" ".join(view.poker_cards)))
    declaration = view.declaration
    if declaration:
        word = view.word
        if word and declaration != "poker":
            lines.append(t("Your declaration: **{declaration}** with **{word}**",
                           declaration=declared(declaration), word=word.upper()))
        else:
            lines.append(t("Your declaration: **{declaration}**",
                           declaration=declared(declaration)))
        check = view.word_check
        if check and not check.ok and declaration != "poker":
            lines.append(f"⚠️ {render(check.reason)}")
    lines.append(score_line(view))
    return lines


def score_line(view: SppokerView) -> str:
    scores = ", ".join(f"{name} {score}" for name, score in view.score_pairs())
    return t("Hand {n} · target {target} · scores: {scores}", n=view.deal, target=view.target,
             scores=scores)


def public_lines(view: SppokerView) -> list[str]:
    lines = [score_line(view)]
    if view.playoff:
        lines.append(t("Playoff: {names}", names=", ".join(view.names[s] for s in view.playoff)))
    return lines


def event_images(events: list[Event], names: list[str]) -> list[tuple[str, bytes]]:
    images = []
    for event in events:
        if event.kind == "hand":
            poker = set(event.data.get("poker_cards", []))
            labels = event.data["labels"]
            highlight = [i for i, label in enumerate(labels) if label in poker]
            images.append(("hand.png", render_cards(
                parse_cards(event.data["cards"]),
                caption=t("Your hand — {hand}", hand=render(event.data["poker"])),
                highlight=highlight,
            )))
        elif event.kind == "reveal":
            rows = []
            for player in event.data["players"]:
                word = f" · {player['word'].upper()}" if player.get("word") else ""
                note = (f"{declared(player['declaration'])}{word} · {render(player['poker'])}"
                        f" · {player['points']:+d}")
                rows.append(Row(label=player["name"], cards=parse_cards(player["cards"]),
                                note=note, winner=player["points"] > 0))
            images.append(("reveal.png", render_rows(rows, title=t("Hand {n}",
                                                                    n=event.data["hand"]))))
    return images


PLUGINS = (GamePlugin(
    game=SppokerGame,
    renderer=Renderer(private=private_lines, public=public_lines, images=event_images,
                      image_kinds=frozenset({"hand", "reveal"}),
                      embed_kinds=frozenset({"reveal"})),
    extension=__name__,
    command="sppoker",
    catalogue=CatalogueDomain("sppoker", ("engine/games/sppoker/*.py", "engine/words.py",
                                          "engine/declaring.py"), complete=True),
    test_options=lambda seats: {"target": 3, "ai_skill": 0},
),)


@app_commands.guild_only()
class Sppoker(commands.GroupCog, group_name="sppoker",
              group_description="Sppoker: poker and spelling with sealed declarations"):
    def __init__(self, bot: DealersChoiceBot) -> None:
        self.bot = bot

    @app_commands.command(name="start", description="Open a Sppoker table in this channel")
    @app_commands.describe(
        target="Points to win (default by player count: 12 for 2 players … 6 for 8)",
        declare_seconds=DESCRIBE_DECLARE_SECONDS,
        last_seconds=DESCRIBE_LAST_SECONDS,
        dictionary=DESCRIBE_DICTIONARY,
        ai_skill="How well AI seats play: 0 casual, 1 good, 2 strong (default 2)",
    )
    async def start(self, interaction: discord.Interaction,
                    target: app_commands.Transform[int, Option(SPPOKER_TARGET)] | None = None,
                    declare_seconds: DeclareSeconds | None = None,
                    last_seconds: LastSeconds | None = None,
                    dictionary: Dictionary | None = None,
                    ai_skill: app_commands.Transform[int, Option(AI_SKILL)] | None = None,
                    ) -> None:
        async def server_dictionary() -> dict[str, str]:
            """The dictionary `default_dictionary` picks for this server (read within the
            command's time; a stored choice that is no longer installed, or never was, reads
            as no choice)."""
            default = self.bot.settings.dictionary
            if interaction.guild_id is None:
                return {"language": default}
            store = self.bot.store
            chosen = await guild_setting(store, interaction.guild_id, "dictionary", None)
            locale = await i18n.load_guild_locale(store, interaction.guild_id)
            return {"language": default_dictionary(chosen, locale, default)}

        await start_table(interaction, KIND, target=target, declare_seconds=declare_seconds,
                          last_seconds=last_seconds, language=dictionary, ai_skill=ai_skill,
                          defaults=server_dictionary)

    @app_commands.command(name="rules", description="How Sppoker is played here")
    async def rules(self, interaction: discord.Interaction) -> None:
        await send_rules(interaction, KIND, N_("Sppoker"))


async def setup(bot: DealersChoiceBot) -> None:
    await bot.add_cog(Sppoker(bot))
