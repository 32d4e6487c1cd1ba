"""Pyramid Po-Ke-No and its solitaire: their commands and how their tables look.

The channel sees every pyramid face down (how many cards each space holds); a player's own
pyramid comes by DM, face up, as a picture with their hand. At a round's end every pyramid
is shown, each space with its verdict and points.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.core.validation import POKENO_TARGET, POKENO_TURN_SECONDS
from bot.plugins import CatalogueDomain, GamePlugin
from bot.present.i18n import render, t
from bot.present.images import Row, render_rows
from bot.present.render import Renderer, cards_text
from cogs.common import Option, send_rules, start_table
from engine.cards import parse_cards
from engine.game import Event
from engine.games import GAMES
from engine.games.pokeno.scoring import SPACES, space_title
from engine.games.pokeno.views import PokenoSeatView, PokenoView
from engine.views import GameView

SOLITAIRE = "pokeno_solitaire"


def row_names() -> list[str]:
    """The spaces' names at the head of the board's rows, in the current language."""
    return [render(space_title(space)) for space in SPACES]


def result_line(view: GameView) -> str | None:
    result = view.result
    return f"🏆 {render(result.summary)}" if result and result.summary else None


def counts_table(view: PokenoView) -> str:
    """Every pyramid face down: how many cards each space holds, per player."""
    names = [name[:7] for name in view.names]
    row_labels = row_names()
    placed, in_hand = t("Placed"), t("Cards in hand")
    width = max(len(name) for name in [*row_labels, placed, in_hand])
    head = " " * width + "".join(f" {name:>7}" for name in names)
    rows = [head]
    for i, space in enumerate(SPACES):
        cells = "".join(f" {f'{counts[i]}/{space.size}':>7}" for counts in view.board_counts)
        rows.append(f"{row_labels[i]:<{width}}{cells}")
    totals = "".join(f" {f'{sum(counts)}/40':>7}" for counts in view.board_counts)
    rows.append(f"{placed:<{width}}{totals}")
    hands = "".join(f" {size:>7}" for size in view.hand_sizes)
    rows.append(f"{in_hand:<{width}}{hands}")
    return "```\n" + "\n".join(rows) + "\n```"


def pokeno_public(view: PokenoView) -> list[str]:
    names = view.names
    scores = ", ".join(f"{n} {s}" for n, s in view.score_pairs())
    lines = [t("Round {n} · {name} dealt · deck {deck} · discards {discards} (face down) · "
               "reshuffles {reshuffles}/{limit}", n=view.deal, name=names[view.dealer],
               deck=view.deck, discards=view.discards, reshuffles=view.reshuffles,
               limit=view.reshuffle_limit),
             t("Scores (to {target}): {scores}", target=view.target, scores=scores)]
    if view.caller is not None:
        rest = ", ".join(names[s] for s in view.last_turns)
        if rest:
            lines.append(t("📣 {name} called **full board**: last turns for {names}.",
                           name=names[view.caller], names=rest))
        else:
            lines.append(t("📣 {name} called **full board**.", name=names[view.caller]))
    if not view.is_over:
        lines.append(t("The pyramids, face down (cards on each space):"))
        lines.append(counts_table(view))
    result = result_line(view)
    return [*lines, result] if result else lines


def solitaire_public(view: PokenoView) -> list[str]:
    placed = sum(view.board_counts[0])
    lines = [t("Solitaire · deck {deck} · placed {placed}/40 · discarded {discarded}",
               deck=view.deck, placed=placed, discarded=view.discarded)]
    result = result_line(view)
    return [*lines, result] if result else lines


def own_pyramid(view: PokenoSeatView) -> list[str]:
    """The seat's own board face up; ✚ marks the cards placed this turn (not yet final)."""
    lines = []
    row_labels = row_names()
    width = max(15, *(len(name) for name in row_labels))
    for i, space in enumerate(SPACES):
        cards = list(view.board[i]) if view.board else []
        fresh = set(view.fresh[i]) if view.fresh else set()
        shown = " ".join(cards_text([card]) + ("✚" if n in fresh else "")
                         for n, card in enumerate(cards)) or "—"
        lines.append(f"`{row_labels[i]:<{width}} {len(cards)}/{space.size}` {shown}")
    return lines


def private_lines(view: PokenoSeatView) -> list[str]:
    lines = []
    if view.hand or not view.is_over:
        # An empty hand (every card placed) reads "—", as an empty space does, not "Your hand:"
        lines.append(t("Your hand: {cards}", cards=cards_text(list(view.hand)) or "—"))
    if not view.is_over:
        if any(view.fresh):
            lines.append(t("Your pyramid (✚ placed this turn: Undo takes it back until you "
                           "end the turn):"))
        else:
            lines.append(t("Your pyramid:"))
        lines += own_pyramid(view)
    if view.kind == SOLITAIRE:
        return [*lines, *solitaire_public(view)]
    names = view.names
    others = ", ".join(f"{names[s]} {sum(view.board_counts[s])}/40"
                       for s in range(len(names)) if s != view.seat)
    scores = ", ".join(f"{n} {s}" for n, s in view.score_pairs())
    lines.append(t("Round {n} · deck {deck} · others placed: {others}", n=view.deal,
                   deck=view.deck, others=others))
    lines.append(t("Scores (to {target}): {scores}", target=view.target, scores=scores))
    if view.caller is not None:
        lines.append(t("📣 {name} called **full board**.", name=names[view.caller]))
    result = result_line(view)
    return [*lines, result] if result else lines


def _pyramid_picture(data: dict[str, Any]) -> bytes:
    rows = []
    row_labels = row_names()
    for i, space in enumerate(SPACES):
        cards = parse_cards(data["board"][i])
        fresh = data.get("fresh") or [[] for _ in SPACES]
        rows.append(Row(label=row_labels[i], cards=cards, note=f"{len(cards)}/{space.size}",
                        highlight=fresh[i], slots=space.size))
    hand = parse_cards(data.get("hand") or [])
    rows.append(Row(label=t("Your hand"), cards=hand, note=t("{n} cards", n=len(hand))))
    return render_rows(rows, title=t("Your pyramid (raised: placed this turn)"), fan=True)


def _reveal_picture(data: dict[str, Any], name: str) -> bytes:
    rows = []
    row_labels = row_names()
    for i, space in enumerate(SPACES):
        verdict = data["verdicts"][i]
        points = data["space_points"][i]
        mark = "✓" if verdict["correct"] else "✗"
        why = render(verdict["why"]).replace("🃏", t("joker"))
        note = f"{mark} {why}" + (f" · +{points}" if points else "")
        rows.append(Row(label=row_labels[i], cards=parse_cards(data["board"][i]), note=note,
                        slots=space.size, winner=points > 0))
    return render_rows(rows, title=t("{name}: {n} points", name=name, n=data["total"]),
                       fan=True)


def event_images(events: list[Event], names: list[str]) -> list[tuple[str, bytes]]:
    images: list[tuple[str, bytes]] = []
    pyramids = [event for event in events if event.kind == "pyramid"]
    if pyramids:  # several in one step (a draw, then a new round): the newest is the board
        images.append(("pyramid.png", _pyramid_picture(dict(pyramids[-1].data))))
    for event in events:
        if event.kind == "reveal" and event.data.get("board"):
            seat = int(event.data["seat"])
            name = names[seat] if seat < len(names) else t("Seat {n}", n=seat + 1)
            images.append((f"pyramid-{seat + 1}.png", _reveal_picture(dict(event.data), name)))
    return images


PICTURED = frozenset({"pyramid", "reveal"})
BOXED = frozenset({"reveal", "deal_end"})
POKENO = Renderer(private_lines, pokeno_public, event_images, PICTURED, BOXED)
SOLO = Renderer(private_lines, solitaire_public, event_images, PICTURED, frozenset({"reveal"}))
CATALOGUE = CatalogueDomain("pokeno", ("engine/games/pokeno/*.py", "cogs/pokeno.py"),
                            complete=True)
PLUGINS = (
    GamePlugin(game=GAMES["pokeno"], renderer=POKENO, extension=__name__, command="pokeno",
               catalogue=CATALOGUE, test_options=lambda seats: {"target": 60}),
    GamePlugin(game=GAMES[SOLITAIRE], renderer=SOLO, extension=__name__, catalogue=CATALOGUE),
)


@app_commands.guild_only()
class Pokeno(commands.GroupCog, group_name="pokeno",
             group_description="Pyramid Po-Ke-No: build ten poker hands face down; to 500"):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(name="start", description="Open a Pyramid Po-Ke-No table "
                                                    "(2-4 players, AI seats welcome)")
    @app_commands.describe(target="Points to win (default 500)",
                           turn_seconds="Seconds each player has for a turn (default 180)")
    async def start(self, interaction: discord.Interaction,
                    target: app_commands.Transform[int, Option(POKENO_TARGET)] | None = None,
                    turn_seconds: app_commands.Transform[int, Option(POKENO_TURN_SECONDS)]
                    | None = None) -> None:
        await start_table(interaction, "pokeno", target=target, turn_seconds=turn_seconds)

    @app_commands.command(name="solitaire",
                          description="Play your own Po-Ke-No solitaire here (one deck)")
    async def solitaire(self, interaction: discord.Interaction) -> None:
        await start_table(interaction, SOLITAIRE)

    @app_commands.command(name="rules", description="How Pyramid Po-Ke-No and its "
                                                    "solitaire are played here")
    async def rules(self, interaction: discord.Interaction) -> None:
        await send_rules(interaction, "pokeno", "Pyramid Po-Ke-No")


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Pokeno(bot))
