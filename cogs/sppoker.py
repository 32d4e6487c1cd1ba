"""Sppoker: `/sppoker start`, `/sppoker rules`, and how its hands and reveals look."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.images import Row, render_cards, render_rows
from bot.plugins import GamePlugin
from bot.render import Renderer
from cogs.common import send_rules, start_table
from engine.cards import parse_cards
from engine.game import Event
from engine.games.sppoker import Sppoker as SppokerGame
from engine.games.sppoker import SppokerSeatView, SppokerView
from engine.words import available_languages

KIND = "sppoker"
DECLARATIONS = {"poker": "poker", "spelling": "spelling", "double": "double down"}


def private_lines(view: SppokerSeatView) -> list[str]:
    lines = []
    if view.labels:
        lines.append("Your hand: " + "  ".join(view.labels))
        lines.append(f"Letters: **{' '.join(view.letters)}**")
        lines.append(f"Best poker hand: **{view.poker}** ({' '.join(view.poker_cards)})")
    declaration = view.declaration
    if declaration:
        word = view.word
        shown = DECLARATIONS.get(declaration, declaration)
        lines.append(f"Your declaration: **{shown}**" + (f" with **{word.upper()}**"
                                                         if word and declaration != "poker"
                                                         else ""))
        check = view.word_check
        if check and not check.ok and declaration != "poker":
            lines.append(f"⚠️ {check.reason}")
    lines.append(score_line(view))
    return lines


def score_line(view: SppokerView) -> str:
    scores = ", ".join(f"{name} {score}" for name, score in view.score_pairs())
    return f"Hand {view.deal} · target {view.target} · scores: {scores}"


def public_lines(view: SppokerView) -> list[str]:
    lines = [score_line(view)]
    if view.playoff:
        lines.append("Playoff: " + ", ".join(view.names[s] for s in view.playoff))
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
                caption=f"Your hand — {event.data['poker']}", highlight=highlight,
            )))
        elif event.kind == "reveal":
            rows = []
            for player in event.data["players"]:
                declared = DECLARATIONS.get(player["declaration"], player["declaration"])
                word = f" · {player['word'].upper()}" if player.get("word") else ""
                note = f"{declared}{word} · {player['poker']} · {player['points']:+d}"
                rows.append(Row(label=player["name"], cards=parse_cards(player["cards"]),
                                note=note, winner=player["points"] > 0))
            images.append(("reveal.png", render_rows(rows, title=f"Hand {event.data['hand']}")))
    return images


PLUGINS = (GamePlugin(
    game=SppokerGame,
    renderer=Renderer(private=private_lines, public=public_lines, images=event_images,
                      image_kinds=frozenset({"hand", "reveal"}),
                      embed_kinds=frozenset({"reveal"})),
    extension=__name__,
),)


def language_choices() -> list[app_commands.Choice[str]]:
    return [app_commands.Choice(name=lang, value=lang) for lang in available_languages()][:25]


@app_commands.guild_only()
class Sppoker(commands.GroupCog, group_name="sppoker",
              group_description="Sppoker: poker and spelling with sealed declarations"):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(name="start", description="Open a Sppoker table in this channel")
    @app_commands.describe(
        target="Points to win (default by player count: 12 for 2 players … 6 for 8)",
        seconds="Declaration time limit for the whole table, in seconds (default 120)",
        dictionary="Dictionary for words (default: the server's, see /table settings)",
        ai_skill="How well AI seats play: 0 casual, 1 good, 2 strong (default 2)",
    )
    @app_commands.choices(dictionary=language_choices())
    async def start(self, interaction: discord.Interaction,
                    target: app_commands.Range[int, 1, 99] | None = None,
                    seconds: app_commands.Range[int, 20, 600] | None = None,
                    dictionary: str | None = None,
                    ai_skill: app_commands.Range[int, 0, 2] | None = None) -> None:
        default = self.bot.settings.dictionary  # type: ignore[attr-defined]
        if interaction.guild_id is not None:
            store = self.bot.store  # type: ignore[attr-defined]
            default = await store.get_guild_setting(interaction.guild_id, "dictionary", default)
        language = dictionary or default
        await start_table(interaction, KIND, target=target, declare_seconds=seconds,
                          language=language, ai_skill=ai_skill)

    @app_commands.command(name="rules", description="How Sppoker is played here")
    async def rules(self, interaction: discord.Interaction) -> None:
        await send_rules(interaction, KIND, "Sppoker")


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Sppoker(bot))
