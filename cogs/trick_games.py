"""Poke, Poängpoker and Chicago: their commands and how their tables look.

Command names are ASCII (`/poangpoker`); the Swedish name is in the descriptions.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.core.validation import CHICAGO_CALL
from bot.plugins import CatalogueDomain, GamePlugin
from bot.present.i18n import render, t
from bot.present.images import Row, render_cards, render_rows
from bot.present.render import Renderer, cards_text
from cogs.common import Option, TurnSeconds, send_rules, start_table
from engine.cards import parse_cards
from engine.game import Event
from engine.games import GAMES
from engine.games.poangpoker.views import PointsView
from engine.games.poke.scoring import Scoresheet
from engine.games.poke.views import PokeView
from engine.i18n import N_
from engine.tricks.deal import TrickSeatView, TrickView
from engine.views import GameView, SeatView

PHASES = {"draw": N_("drawing"), "exchange": N_("exchanging"), "call": N_("Chicago calls"),
          "play": N_("playing tricks"), "over": N_("game over")}


def phase_name(view: GameView) -> str:
    return t(PHASES[view.phase]) if view.phase in PHASES else view.phase


def trick_line(view: TrickView) -> str | None:
    names = view.names
    trick = view.trick
    if not trick:
        return None
    plays = ", ".join(f"{names[seat]} {cards_text(list(cards))}" for seat, cards in trick)
    return t("Trick so far: {plays}", plays=plays)


def tricks_won_line(view: TrickView) -> str | None:
    won = view.tricks_won
    if not won or not any(won):
        return None
    names = view.names
    return t("Tricks won: {tricks}",
             tricks=", ".join(f"{n} {w}" for n, w in zip(names, won, strict=True)))


def result_line(view: GameView) -> str | None:
    """The outcome, on the board and in every player's last view: the closing message
    scrolls away, and a DM otherwise ends on a scoresheet without saying who won."""
    result = view.result
    return f"🏆 {render(result.summary)}" if result and result.summary else None


def poke_public(view: PokeView) -> list[str]:
    names = view.names
    we = view.seat if isinstance(view, SeatView) else 0
    sheet = Scoresheet.from_json(view.scoresheet).render(names, we, {
        "we": t("WE"), "they": t("THEY"), "above": t("above"), "game": t("game {n}", n="{n}"),
        "won by": t("won by {side}", side="{side}")})
    lines = [t("Deal {n} · dealer {dealer} · {phase}", n=view.deal, dealer=names[view.dealer],
               phase=phase_name(view)),
             t("Trick values: {values}", values=", ".join(
                 f"{n} ×{v}" for n, v in zip(names, view.trick_values, strict=True)))]
    lines += [line for line in (trick_line(view), tricks_won_line(view)) if line]
    lines.append(f"```\n{sheet}\n```")
    result = result_line(view)
    return [*lines, result] if result else lines


def points_public(view: PointsView) -> list[str]:
    names = view.names
    scores = ", ".join(f"{n} {s}" for n, s in view.score_pairs())
    lines = [t("Deal {n} · dealer {dealer} · {phase}", n=view.deal, dealer=names[view.dealer],
               phase=phase_name(view)),
             t("Scores (to {target}): {scores}", target=view.target, scores=scores)]
    if view.caller is not None:
        lines.append(t("📣 {name} called Chicago.", name=names[view.caller]))
    lines += [line for line in (trick_line(view), tricks_won_line(view), result_line(view))
              if line]
    return lines


def private_lines(public: Any) -> Any:
    def lines(view: TrickSeatView) -> list[str]:
        # Once the last card is played there is no hand to show ("Your hand: " and nothing).
        hand = [t("Your hand: {cards}", cards=cards_text(list(view.hand)))] if view.hand else []
        return [*hand, *public(view)]
    return lines


def event_images(events: list[Event], names: list[str]) -> list[tuple[str, bytes]]:
    images = []
    # Poängpoker and Chicago send the hands twice at a deal's end (the reveal, then the
    # deal_end record); one picture of them is enough.
    revealed = any(event.kind == "reveal" and event.data.get("hands") for event in events)
    for event in events:
        if event.kind == "hand" and event.data.get("hand"):
            images.append(("hand.png", render_cards(parse_cards(event.data["hand"]),
                                                    caption=t("Your hand"))))
        elif (event.kind == "reveal" or (event.kind == "deal_end" and not revealed)) and (
            event.data.get("hands")
        ):
            descriptions = event.data.get("descriptions") or []
            rows = []
            for seat, cards in enumerate(event.data["hands"]):
                note = render(descriptions[seat]) if seat < len(descriptions) else None
                rows.append(Row(label=names[seat], cards=parse_cards(cards), note=note))
            images.append(("hands.png", render_rows(rows, title=t("The hands"))))
    return images


PICTURED = frozenset({"hand", "deal_end", "reveal"})
POKE = Renderer(private_lines(poke_public), poke_public, event_images, PICTURED)
POINTS = Renderer(private_lines(points_public), points_public, event_images, PICTURED)
POINTS_CATALOGUE = CatalogueDomain("poangpoker", ("engine/games/poangpoker/*.py",
                                                  "engine/tricks/deal.py"), complete=True)
PLUGINS = (
    GamePlugin(game=GAMES["poke"], renderer=POKE, extension=__name__, command="poke",
               catalogue=CatalogueDomain("poke", ("engine/games/poke/*.py",), complete=True)),
    GamePlugin(game=GAMES["poangpoker"], renderer=POINTS, extension=__name__,
               command="poangpoker", catalogue=POINTS_CATALOGUE),
    # Chicago from 40 points in the tests: random calls fail, and a game from 0 can take
    # thousands of steps.
    GamePlugin(game=GAMES["chicago"], renderer=POINTS, extension=__name__,
               command="chicago", catalogue=POINTS_CATALOGUE,
               test_options=lambda seats: {"start_scores": [40] * seats}),
)

TURN_SECONDS = "Seconds each player has to act (default 120)"


@app_commands.guild_only()
class Poke(commands.GroupCog, group_name="poke",
           group_description="Poke: Sid Sackson's two-player trick-taking poker"):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(name="start", description="Open a Poke table (2 players)")
    @app_commands.describe(turn_seconds=TURN_SECONDS)
    async def start(self, interaction: discord.Interaction,
                    turn_seconds: TurnSeconds | None = None) -> None:
        await start_table(interaction, "poke", turn_seconds=turn_seconds)

    @app_commands.command(name="rules", description="How Poke is played here")
    async def rules(self, interaction: discord.Interaction) -> None:
        await send_rules(interaction, "poke", N_("Poke"))


@app_commands.guild_only()
class Poangpoker(commands.GroupCog, group_name="poangpoker",
                 group_description="Poängpoker: exchange, five tricks, best hand; first to 13"):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(name="start", description="Open a Poängpoker table (2-6 players)")
    @app_commands.describe(turn_seconds=TURN_SECONDS)
    async def start(self, interaction: discord.Interaction,
                    turn_seconds: TurnSeconds | None = None) -> None:
        await start_table(interaction, "poangpoker", turn_seconds=turn_seconds)

    @app_commands.command(name="rules", description="How Poängpoker is played here")
    async def rules(self, interaction: discord.Interaction) -> None:
        await send_rules(interaction, "poangpoker", N_("Poängpoker"))


@app_commands.guild_only()
class Chicago(commands.GroupCog, group_name="chicago",
              group_description="Chicago (Poängpoker variant): three exchanges, first to 52"):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(name="start", description="Open a Chicago table (2-6 players)")
    @app_commands.describe(turn_seconds=TURN_SECONDS,
                           call="Allow the Chicago call (+15/-15), on by default")
    async def start(self, interaction: discord.Interaction,
                    turn_seconds: TurnSeconds | None = None,
                    call: app_commands.Transform[bool, Option(CHICAGO_CALL)] | None = None) -> None:
        await start_table(interaction, "chicago", turn_seconds=turn_seconds, call=call)

    @app_commands.command(name="rules", description="How Chicago is played here")
    async def rules(self, interaction: discord.Interaction) -> None:
        await send_rules(interaction, "poangpoker", N_("Poängpoker and Chicago"))


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Poke(bot))
    await bot.add_cog(Poangpoker(bot))
    await bot.add_cog(Chicago(bot))
