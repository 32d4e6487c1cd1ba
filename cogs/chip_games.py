"""The chip games: `/badugi`, `/reddog`, `/holdem-sppoker` and `/dealers-choice` (start,
rules), and their plug-ins.

How their tables read (the renderers these plug-ins declare, and the showdown picture) is
cogs/chip_renderers.py's; this module is the cog the bot loads for them.
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.core.validation import (
    ANTE,
    BIG_BLIND,
    FIXED_LIMIT,
    HOLDEM_STAKES,
    RED_DOG_ANTE,
    RED_DOG_BUY_IN,
    SMALL_BLIND,
    guild_setting,
)
from bot.discord.app import DealersChoiceBot
from bot.plugins import CatalogueDomain, GamePlugin
from bot.present import i18n
from bot.present.render import Renderer
from cogs.chip_renderers import (
    SHOWN,
    badugi_private,
    badugi_public,
    holdem_private,
    holdem_public,
    red_dog_private,
    red_dog_public,
    session_private,
    session_public,
    showdown_images,
)
from cogs.common import (
    DESCRIBE_ANTE,
    DESCRIBE_BIG_BET,
    DESCRIBE_DECLARE_SECONDS,
    DESCRIBE_DICTIONARY,
    DESCRIBE_LAST_SECONDS,
    DESCRIBE_SMALL_BET,
    BigBet,
    BuyIn,
    DealAnte,
    DeclareSeconds,
    Dictionary,
    LastSeconds,
    MinBuyIn,
    Option,
    SmallBet,
    TurnSeconds,
    send_rules,
    start_table,
)
from cogs.sppoker import default_dictionary
from engine.games.badugi.rules import Badugi
from engine.games.dealers_choice.rules import DealersChoice
from engine.games.holdem_sppoker.rules import HoldemSppoker
from engine.games.red_dog.rules import RedDog

# `test_options`: a chip game's table gives it stacks; the tests give short ones beside deep
# ones, so that all-ins and side pots happen in random play.
PLUGINS = (
    GamePlugin(game=Badugi, renderer=Renderer(private=badugi_private, public=badugi_public,
                                              images=showdown_images, image_kinds=SHOWN),
               extension=__name__, command="badugi",
               catalogue=CatalogueDomain("badugi", ("engine/games/badugi/*.py",), complete=True),
               test_options=lambda seats: {"stacks": [200, 23, 120, 9, 64, 41][:seats],
                                           "button": seats - 1}),
    GamePlugin(game=RedDog, renderer=Renderer(private=red_dog_private, public=red_dog_public),
               extension=__name__, command="reddog",
               catalogue=CatalogueDomain("red_dog", ("engine/games/red_dog/*.py",),
                                         complete=True),
               test_options=lambda seats: {"stacks": [20] * seats}),
    GamePlugin(game=HoldemSppoker,
               renderer=Renderer(private=holdem_private, public=holdem_public,
                                 images=showdown_images, image_kinds=SHOWN),
               extension=__name__, command="holdem-sppoker",
               catalogue=CatalogueDomain("holdem_sppoker", ("engine/games/holdem_sppoker/*.py",),
                                         complete=True),
               test_options=lambda seats: {"stacks": [150, 27, 90, 12, 64, 200, 45, 33][:seats],
                                           "button": seats - 1}),
    GamePlugin(game=DealersChoice,
               # The dealer's choice is posted, not only told on the board: it sets
               # what the deal is, and a board edit can be superseded before it is sent.
               renderer=Renderer(private=session_private, public=session_public,
                                 embed_kinds=frozenset({"choice"}),
                                 # A deal's showdown is pictured as at the game's own
                                 # table: the table's kind is the session's, not the deal's.
                                 images=showdown_images, image_kinds=SHOWN),
               extension=__name__, command="dealers-choice",
               catalogue=CatalogueDomain("dealers_choice", ("engine/games/dealers_choice/*.py",),
                                         complete=True),
               test_options=lambda seats: {"stacks": [30 + 7 * seat for seat in range(seats)]}),
)

BUY_IN = "Chips you bring to the table from your balance (default 200)"
MIN_BUY_IN = "The least a player short of the buy-in may sit down with (default: the buy-in)"


@app_commands.guild_only()
class BadugiCommands(commands.GroupCog, group_name="badugi",
                     group_description="Badugi: four cards, ace low, three draws (chips)"):
    def __init__(self, bot: DealersChoiceBot) -> None:
        self.bot = bot

    @app_commands.command(name="start", description="Open a Badugi cash table in this channel")
    @app_commands.describe(buy_in=BUY_IN, min_buy_in=MIN_BUY_IN, ante=DESCRIBE_ANTE,
                           small_bet=DESCRIBE_SMALL_BET, big_bet=DESCRIBE_BIG_BET)
    async def start(self, interaction: discord.Interaction,
                    buy_in: BuyIn | None = None,
                    min_buy_in: MinBuyIn | None = None,
                    ante: DealAnte | None = None,
                    small_bet: SmallBet | None = None,
                    big_bet: BigBet | None = None) -> None:
        await start_table(interaction, Badugi.kind, buy_in=buy_in, min_buy_in=min_buy_in,
                          ante=ante, small_bet=small_bet, big_bet=big_bet,
                          relations=FIXED_LIMIT)

    @app_commands.command(name="rules", description="How Badugi is played here")
    async def rules(self, interaction: discord.Interaction) -> None:
        await send_rules(interaction, Badugi.kind, Badugi.title)


@app_commands.guild_only()
class RedDogCommands(commands.GroupCog, group_name="reddog",
                     group_description="Red Dog: bet that your hand beats the next card (chips)"):
    def __init__(self, bot: DealersChoiceBot) -> None:
        self.bot = bot

    @app_commands.command(name="start", description="Open a Red Dog cash table in this channel")
    @app_commands.describe(buy_in=BUY_IN, min_buy_in=MIN_BUY_IN,
                           ante="Chips each player antes to the pot (default 1)",
                           turn_seconds="Seconds each player has to bet (default 60)")
    async def start(self, interaction: discord.Interaction,
                    buy_in: app_commands.Transform[int, Option(RED_DOG_BUY_IN)] | None = None,
                    min_buy_in: MinBuyIn | None = None,
                    ante: app_commands.Transform[int, Option(ANTE)] | None = None,
                    turn_seconds: TurnSeconds | None = None) -> None:
        await start_table(interaction, RedDog.kind, buy_in=buy_in,
                          min_buy_in=min_buy_in, ante=ante, turn_seconds=turn_seconds,
                          relations=RED_DOG_ANTE)

    @app_commands.command(name="rules", description="How Red Dog is played here")
    async def rules(self, interaction: discord.Interaction) -> None:
        await send_rules(interaction, RedDog.kind, RedDog.title)


@app_commands.guild_only()
class HoldemSppokerCommands(commands.GroupCog, group_name="holdem-sppoker",
                            group_description="Hold'em Sppoker: Texas Hold'em with the letter "
                            "deck; pots split between poker and spelling (chips)"):
    def __init__(self, bot: DealersChoiceBot) -> None:
        self.bot = bot

    @app_commands.command(name="start", description="Open a Hold'em Sppoker cash table here")
    @app_commands.describe(buy_in=BUY_IN, min_buy_in=MIN_BUY_IN,
                           small_blind="The small blind (default 5)",
                           big_blind="The big blind, no more than the small bet (default 10)",
                           small_bet=DESCRIBE_SMALL_BET, big_bet=DESCRIBE_BIG_BET,
                           dictionary=DESCRIBE_DICTIONARY,
                           declare_seconds=DESCRIBE_DECLARE_SECONDS,
                           last_seconds=DESCRIBE_LAST_SECONDS)
    async def start(self, interaction: discord.Interaction,
                    buy_in: BuyIn | None = None,
                    min_buy_in: MinBuyIn | None = None,
                    small_blind: app_commands.Transform[int, Option(SMALL_BLIND)] | None = None,
                    big_blind: app_commands.Transform[int, Option(BIG_BLIND)] | None = None,
                    small_bet: SmallBet | None = None,
                    big_bet: BigBet | None = None,
                    dictionary: Dictionary | None = None,
                    declare_seconds: DeclareSeconds | None = None,
                    last_seconds: LastSeconds | None = None) -> None:
        async def server_dictionary() -> dict[str, str]:
            """The dictionary Sppoker's `default_dictionary` picks for this server, the one
            `/table settings` names (read within the command's time; a stored value no
            longer installed reads as no choice)."""
            default = self.bot.settings.dictionary
            if interaction.guild_id is None:
                return {"language": default}
            store = self.bot.store
            chosen = await guild_setting(store, interaction.guild_id, "dictionary", None)
            locale = await i18n.load_guild_locale(store, interaction.guild_id)
            return {"language": default_dictionary(chosen, locale, default)}

        await start_table(interaction, HoldemSppoker.kind, buy_in=buy_in,
                          min_buy_in=min_buy_in, small_blind=small_blind, big_blind=big_blind,
                          small_bet=small_bet, big_bet=big_bet, language=dictionary,
                          declare_seconds=declare_seconds, last_seconds=last_seconds,
                          defaults=server_dictionary, relations=HOLDEM_STAKES)

    @app_commands.command(name="rules", description="How Hold'em Sppoker is played here")
    async def rules(self, interaction: discord.Interaction) -> None:
        await send_rules(interaction, HoldemSppoker.kind, HoldemSppoker.title)


@app_commands.guild_only()
class DealersChoiceCommands(commands.GroupCog, group_name="dealers-choice",
                            group_description="A chip session: each dealer picks the game"):
    def __init__(self, bot: DealersChoiceBot) -> None:
        self.bot = bot

    @app_commands.command(name="start", description="Open a Dealer's Choice table here")
    @app_commands.describe(buy_in=BUY_IN, min_buy_in=MIN_BUY_IN)
    async def start(self, interaction: discord.Interaction,
                    buy_in: BuyIn | None = None,
                    min_buy_in: MinBuyIn | None = None) -> None:
        await start_table(interaction, DealersChoice.kind, buy_in=buy_in, min_buy_in=min_buy_in)

    @app_commands.command(name="rules", description="How a Dealer's Choice session goes")
    async def rules(self, interaction: discord.Interaction) -> None:
        await send_rules(interaction, DealersChoice.kind, DealersChoice.title)


async def setup(bot: DealersChoiceBot) -> None:
    await bot.add_cog(BadugiCommands(bot))
    await bot.add_cog(RedDogCommands(bot))
    await bot.add_cog(HoldemSppokerCommands(bot))
    await bot.add_cog(DealersChoiceCommands(bot))
