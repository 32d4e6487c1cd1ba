"""The high-low chip games: `/old-man-49er`, `/zero-to-55` and `/spew` (start, rules), and
how their tables read: exposed cards and the totals they can make, spew cards and what they
took, the pot and side pots, stacks, bets, and who has fixed an order or declared (never what).
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.core.validation import DRAW_FEE, FIXED_LIMIT, OUT_TAKES_LOW
from bot.plugins import CatalogueDomain, GamePlugin
from bot.present.i18n import t
from bot.present.render import Renderer, cards_text
from cogs.chip_games import BUY_IN, MIN_BUY_IN
from cogs.chip_renderers import SHOWN, pots_line, seat_state, showdown_images
from cogs.common import (
    DESCRIBE_ANTE,
    DESCRIBE_BIG_BET,
    DESCRIBE_DECLARE_SECONDS,
    DESCRIBE_LAST_SECONDS,
    DESCRIBE_SMALL_BET,
    BigBet,
    BuyIn,
    DealAnte,
    DeclareSeconds,
    LastSeconds,
    MinBuyIn,
    Option,
    SmallBet,
    send_rules,
    start_table,
)
from engine.chips.reveal_views import RevealSeatView, RevealView
from engine.games.old_man_49er.rules import OldMan49er
from engine.games.spew.rules import Spew
from engine.games.spew.views import SpewSeatView, SpewView
from engine.games.zero_to_55.rules import ZeroTo55
from engine.i18n import N_

PHASES = {"bet": N_("Bet"), "deal": N_("Deal"), "declare": N_("Declare"), "draw": N_("Draw"),
          "order": N_("Order"), "over": N_("Over"), "showdown": N_("Showdown"),
          "turning": N_("Turning")}
SIDES = {"high": N_("high"), "low": N_("low"), "both": N_("both")}


def phase_title(phase: str) -> str:
    return t(PHASES[phase]) if phase in PHASES else phase.capitalize()


def side_name(side: str) -> str:
    return t(SIDES[side]) if side in SIDES else side


def _totals(low: int, high: int) -> str:
    return str(low) if low == high else t("{low} or {high}", low=low, high=high)


def reveal_public(view: RevealView) -> list[str]:
    if view.is_over:  # the pot is paid out: "Over · reveals 5 · pot 0" told nothing
        lines = [t("Deal over · ante {ante}, bets {small}/{big}", ante=view.ante,
                   small=view.small_bet, big=view.big_bet)]
    else:
        lines = [t("{phase} · reveals {n} · ante {ante}, bets {small}/{big} · **pot {pot}**",
                   phase=phase_title(view.phase), n=view.reveals, ante=view.ante,
                   small=view.small_bet, big=view.big_bet, pot=view.pot)]
    lines += pots_line(view.pots)
    for seat, name in enumerate(view.names):
        shown = cards_text(list(view.exposed[seat])) if view.exposed[seat] else "—"
        total = _totals(*view.exposed_totals[seat]) if view.exposed[seat] else ""
        state = seat_state(view.folded[seat], view.all_in[seat])
        bet = t(", bet {n}", n=view.bets[seat]) if view.bets[seat] else ""
        marks = []
        if view.ordered[seat]:
            marks.append(t("order fixed"))
        if view.declared[seat] and view.declarations is None:
            marks.append(t("declared"))
        if view.declarations is not None and view.declarations[seat]:
            side = side_name(str(view.declarations[seat]))
            marks.append(t("declared {side}", side=side))
        extra = f" · {', '.join(marks)}" if marks else ""
        # No "+ 0 down" once every card is turned (or a folded hand is thrown away).
        down = " + " + t("{n} down", n=view.hidden[seat]) if view.hidden[seat] else ""
        lines.append(f"{name} {view.stacks[seat]}{bet}{state}: {shown}"
                     f"{f' = {total}' if total else ''}{down}{extra}")
    return lines


def reveal_private(view: RevealSeatView) -> list[str]:
    lines = [t("Your cards: {cards} — high {high}, low {low}",
               cards=cards_text(list(view.cards)), high=view.high_total, low=view.low_total)]
    if view.picked and not view.order_fixed:
        lines.append(t("Reveal order so far: {cards}", cards=cards_text(list(view.picked))))
    # The hand is the cards still face down: once some are turned, they are what is left
    # to turn (not "your order is fixed: 2♦"), and nothing once all are.
    if view.order_fixed and len(view.hand) == len(view.cards):
        lines.append(t("Your reveal order is fixed: {cards}",
                       cards=cards_text(list(view.hand))))
    elif view.order_fixed and view.hand:
        lines.append(t("Still to turn, in this order: {cards}",
                       cards=cards_text(list(view.hand))))
    if view.declaration:
        lines.append(t("Your declaration: **{declaration}**",
                       declaration=side_name(view.declaration)))
    return lines + reveal_public(view)


def spew_public(view: SpewView) -> list[str]:
    if view.is_over:  # the pot is paid out: "Over · pot 0" told nothing
        lines = [t("Deal over · ante {ante}, bets {small}/{big}", ante=view.ante,
                   small=view.small_bet, big=view.big_bet)]
    elif view.betting_round < view.rounds:
        lines = [t("{phase} · round {n} of {rounds} · ante {ante}, bets {small}/{big} · "
                   "**pot {pot}**", phase=phase_title(view.phase), n=view.betting_round + 1,
                   rounds=view.rounds, ante=view.ante, small=view.small_bet, big=view.big_bet,
                   pot=view.pot)]
    else:  # every betting round is played: declaring, or the deal is over
        lines = [t("{phase} · ante {ante}, bets {small}/{big} · **pot {pot}**",
                   phase=phase_title(view.phase), ante=view.ante, small=view.small_bet,
                   big=view.big_bet, pot=view.pot)]
    if view.spew_cards:
        lines.append(t("Spew cards ({n} of {total}): {cards}", n=len(view.spew_cards),
                       total=view.spew_total, cards=cards_text(list(view.spew_cards))))
    lines += pots_line(view.pots)
    for seat, name in enumerate(view.names):
        state = t(" (out of cards)") if view.out[seat] else \
            seat_state(view.folded[seat], view.all_in[seat])
        bet = t(", bet {n}", n=view.bets[seat]) if view.bets[seat] else ""
        drew = t(", drew {n}", n=view.draws[seat]) if view.draws[seat] is not None else ""
        spewed = cards_text(list(view.spewed[seat]))
        lost = t(", spewed {cards}", cards=spewed) if view.spewed[seat] else ""
        sealed = t(" · declared") if view.declared[seat] else ""
        cards = t("{n} cards", n=view.hand_sizes[seat])
        lines.append(f"{name} {view.stacks[seat]}{bet}{state}: {cards}{drew}{lost}{sealed}")
    return lines


def spew_private(view: SpewSeatView) -> list[str]:
    lines = [t("Your hand: {cards} — high {high}, low {low}", cards=cards_text(list(view.hand)),
               high=view.high, low=view.low)]
    if view.declaration:
        lines.append(t("Your declaration: **{declaration}**",
                       declaration=side_name(view.declaration)))
    return lines + spew_public(view)


REVEAL = Renderer(private=reveal_private, public=reveal_public, images=showdown_images,
                  image_kinds=SHOWN)
REVEAL_CATALOGUE = CatalogueDomain(
    "reveal_order", ("engine/chips/reveal_order.py", "engine/chips/reveal_views.py",
                     "engine/chips/reveal_ai.py", "engine/games/old_man_49er/*.py",
                     "engine/games/zero_to_55/*.py", "engine/chips/points.py"), complete=True)
# `test_options`: a chip game's table gives it stacks; the tests give short ones beside deep
# ones, so that all-ins and side pots happen in random play.
PLUGINS = (
    GamePlugin(game=OldMan49er, renderer=REVEAL, extension=__name__, command="old-man-49er",
               catalogue=REVEAL_CATALOGUE,
               test_options=lambda seats: {"stacks": [150, 31, 90, 12, 64, 47, 200][:seats]}),
    GamePlugin(game=ZeroTo55, renderer=REVEAL, extension=__name__, command="zero-to-55",
               catalogue=REVEAL_CATALOGUE,
               test_options=lambda seats: {"stacks": [120, 40, 200, 14, 75, 33, 9][:seats],
                                           "button": seats - 1, "draw_fee": 2 * (seats % 2)}),
    GamePlugin(game=Spew, renderer=Renderer(private=spew_private, public=spew_public,
                                            images=showdown_images, image_kinds=SHOWN),
               extension=__name__, command="spew",
               catalogue=CatalogueDomain("spew", ("engine/games/spew/*.py",), complete=True),
               test_options=lambda seats: {"stacks": [200, 23, 120, 9, 64, 41, 150, 17][:seats],
                                           "button": seats - 1}),
)


# The options every high-low game's start takes, as its command describes them.
STAKES_AND_CLOCKS = {"buy_in": BUY_IN, "min_buy_in": MIN_BUY_IN, "ante": DESCRIBE_ANTE,
                     "small_bet": DESCRIBE_SMALL_BET, "big_bet": DESCRIBE_BIG_BET,
                     "declare_seconds": DESCRIBE_DECLARE_SECONDS,
                     "last_seconds": DESCRIBE_LAST_SECONDS}


@app_commands.guild_only()
class OldMan49erCommands(commands.GroupCog, group_name="old-man-49er",
                         group_description="Old Man 49er: reveal one by one; 49 takes all (chips)"):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(name="start", description="Open an Old Man 49er cash table here")
    @app_commands.describe(**STAKES_AND_CLOCKS)
    async def start(self, interaction: discord.Interaction,
                    buy_in: BuyIn | None = None,
                    min_buy_in: MinBuyIn | None = None,
                    ante: DealAnte | None = None,
                    small_bet: SmallBet | None = None,
                    big_bet: BigBet | None = None,
                    declare_seconds: DeclareSeconds | None = None,
                    last_seconds: LastSeconds | None = None) -> None:
        await start_table(interaction, OldMan49er.kind, buy_in=buy_in, min_buy_in=min_buy_in,
                          ante=ante, small_bet=small_bet, big_bet=big_bet,
                          declare_seconds=declare_seconds, last_seconds=last_seconds,
                          relations=FIXED_LIMIT)

    @app_commands.command(name="rules", description="How Old Man 49er is played here")
    async def rules(self, interaction: discord.Interaction) -> None:
        await send_rules(interaction, OldMan49er.kind, OldMan49er.title)


@app_commands.guild_only()
class SpewCommands(commands.GroupCog, group_name="spew",
                   group_description="Spew: spew cards strip ranks from every hand (chips)"):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(name="start", description="Open a Spew cash table here")
    @app_commands.describe(**STAKES_AND_CLOCKS,
                           out_takes_low="A player spewed out of cards holds the nut low "
                           "instead of going out (off by default)")
    async def start(self, interaction: discord.Interaction,
                    buy_in: BuyIn | None = None,
                    min_buy_in: MinBuyIn | None = None,
                    ante: DealAnte | None = None,
                    small_bet: SmallBet | None = None,
                    big_bet: BigBet | None = None,
                    declare_seconds: DeclareSeconds | None = None,
                    last_seconds: LastSeconds | None = None,
                    out_takes_low: app_commands.Transform[bool, Option(OUT_TAKES_LOW)]
                    | None = None) -> None:
        await start_table(interaction, Spew.kind, buy_in=buy_in, min_buy_in=min_buy_in,
                          ante=ante, small_bet=small_bet, big_bet=big_bet,
                          declare_seconds=declare_seconds, last_seconds=last_seconds,
                          out_takes_low=out_takes_low, relations=FIXED_LIMIT)

    @app_commands.command(name="rules", description="How Spew is played here")
    async def rules(self, interaction: discord.Interaction) -> None:
        await send_rules(interaction, Spew.kind, Spew.title)


@app_commands.guild_only()
class ZeroTo55Commands(commands.GroupCog, group_name="zero-to-55",
                       group_description="Zero to 55: closest to 0 or to 55 wins (chips)"):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(name="start", description="Open a Zero to 55 cash table here")
    @app_commands.describe(**STAKES_AND_CLOCKS,
                           draw_fee="Chips per card drawn (default 0: free)")
    async def start(self, interaction: discord.Interaction,
                    buy_in: BuyIn | None = None,
                    min_buy_in: MinBuyIn | None = None,
                    ante: DealAnte | None = None,
                    small_bet: SmallBet | None = None,
                    big_bet: BigBet | None = None,
                    declare_seconds: DeclareSeconds | None = None,
                    last_seconds: LastSeconds | None = None,
                    draw_fee: app_commands.Transform[int, Option(DRAW_FEE)] | None = None) -> None:
        await start_table(interaction, ZeroTo55.kind, buy_in=buy_in,
                          min_buy_in=min_buy_in, ante=ante, small_bet=small_bet,
                          big_bet=big_bet, declare_seconds=declare_seconds,
                          last_seconds=last_seconds, draw_fee=draw_fee, relations=FIXED_LIMIT)

    @app_commands.command(name="rules", description="How Zero to 55 is played here")
    async def rules(self, interaction: discord.Interaction) -> None:
        await send_rules(interaction, ZeroTo55.kind, ZeroTo55.title)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(OldMan49erCommands(bot))
    await bot.add_cog(ZeroTo55Commands(bot))
    await bot.add_cog(SpewCommands(bot))
