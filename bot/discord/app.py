"""The bot: a `commands.AutoShardedBot` whose `setup_hook` opens the store, takes its shards'
leases (bot.discord.shards), restores their unfinished tables, registers the buttons that must
survive restarts, loads the cogs and syncs the commands.

What the cogs use of it (its settings, store, bank, presenter) are typed attributes of
`DealersChoiceBot`; a cog gets the bot in `setup`, a module-level helper from an interaction
through `bot_of`. Errors have one handler for the commands (bot.discord.tree) and one for the
buttons (bot.discord.components' `refusing`)."""

from __future__ import annotations

import asyncio
import logging
import os
from typing import Any, cast

import discord
from discord.ext import commands

from bot.collector import settle_garbage_collector
from bot.core.chips import Bank
from bot.core.service import TableService
from bot.core.table import TableError
from bot.discord.board_pace import BoardPace
from bot.discord.components import (
    PERSISTENT_ITEMS,
    Host,
    ReplayPages,
    refusing,
)
from bot.discord.global_pace import GlobalPace, pace_requests, share_of_limit
from bot.discord.in_flight import InFlight
from bot.discord.presenter import Presenter
from bot.discord.responses import deliver, refusal, refuse
from bot.discord.routing import InteractionRouter
from bot.discord.sender import Sender
from bot.discord.shards import LeaseKeeper, ShardPlan
from bot.discord.translator import Translator
from bot.discord.tree import Tree
from bot.discord.web_links import WebLinks
from bot.plugins import GamePlugin, install_plugins
from bot.present import i18n
from bot.settings import Settings
from bot.store import Store
from bot.wordlists import install as install_word_lists
from engine.i18n import msg
from engine.words import get_finder

log = logging.getLogger(__name__)

# The games' own cogs come with their plug-ins (bot.plugins).
EXIT_LEASE_LOST = 70
ANSWERED_WITH_A_MESSAGE = (discord.InteractionType.application_command,
                           discord.InteractionType.component,
                           discord.InteractionType.modal_submit)
EXTENSIONS = ("cogs.tables", "cogs.leaderboards", "cogs.chips", "cogs.replays", "cogs.help",
              "cogs.tournaments")


def _sharding(settings: Settings) -> dict[str, Any]:
    """SHARD_COUNT/SHARD_IDS: this process runs those shards (bot.discord.shards); without them it
    runs as many as Discord recommends, all here."""
    options: dict[str, Any] = {}
    if settings.shard_count is not None:
        options["shard_count"] = settings.shard_count
    if settings.shard_ids is not None:
        options["shard_ids"] = list(settings.shard_ids)
    return options


class DealersChoiceBot(commands.AutoShardedBot):
    """The bot, and what its cogs and buttons reach through it, each made in `setup_hook`."""

    settings: Settings
    store: Store
    bank: Bank
    tables: TableService
    sender: Sender
    presenter: Presenter
    plugins: dict[str, GamePlugin]
    shard_plan: ShardPlan
    leases: LeaseKeeper
    web_links: WebLinks

    def __init__(self, settings: Settings, **options: Any) -> None:
        # The bot uses no voice: discord.py's warnings that PyNaCl and davey are missing are
        # noise, printed before the bot's own first sentence.
        discord.VoiceClient.warn_nacl = False
        discord.VoiceClient.warn_dave = False
        intents = discord.Intents.none()
        intents.guilds = True
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            help_command=None,
            # Nothing pings unless a message names whom, by id (bot.discord.sender: a body's
            # `pings`):
            # a mention in a name or a typed word must never notify anyone (bot/present/inert.py).
            allowed_mentions=discord.AllowedMentions.none(),
            tree_cls=Tree,  # one error handler for every command
            **_sharding(settings),
            **options,
        )
        self.settings = settings
        # Commands and clicks under way, which a stop waits for (bot.discord.in_flight).
        self.in_flight = InFlight(self._connection.parsers, self._refuse_while_stopping)
        self.in_flight.install()
        self._resumed = False

    @property
    def replays(self) -> ReplayPages:
        """The replays' cog (cogs/replays.py, loaded by `setup_hook`): the Replay button's."""
        cog = self.get_cog("Replays")
        if not isinstance(cog, ReplayPages):
            raise LookupError("the Replays cog is not loaded")
        return cog

    async def refuse(self, interaction: discord.Interaction, error: TableError) -> None:
        """A click's refusal, for the buttons' one error handler (bot.discord.components)."""
        await refuse(interaction, error)

    async def setup_hook(self) -> None:
        # The word finder's lists come from the installed dictionaries, cached in the data
        # directory; the default language's is made now, so the first deal does not wait.
        install_word_lists(self.settings.data_dir)
        # The message catalogues (data/locale), and the slash commands' Swedish names,
        # descriptions and choices from them (sent to Discord with the commands at sync).
        i18n.load()
        await self.tree.set_translator(Translator())
        await asyncio.to_thread(get_finder, self.settings.dictionary)
        self.plugins = install_plugins()
        self.store = await Store.open(self.settings.database)
        # No table is restored before this process holds its shards' leases.
        self.shard_plan = ShardPlan.of(self.settings.shard_count, self.settings.shard_ids)
        # This process's share of Discord's global limit, so its own messages never meet a
        # global 429 (which would also hold up everything else it sends).
        pace = GlobalPace(share_of_limit(
            self.settings.global_rate_limit, len(self.shard_plan.ids), self.shard_plan.count))
        pace_requests(self.http, pace)
        self.leases = LeaseKeeper(self.store, self.shard_plan, on_lost=self._lease_lost)
        await self.leases.acquire()
        self.bank = Bank(self.store)
        self.web_links = WebLinks(self.store, self.settings.web_url)
        self.tables = TableService(self.store, ai_pause=self.settings.ai_delay,
                                   wake=lambda table_id: self.sender.wake(table_id))
        self.sender = Sender(self, self.store, self.tables.dm_closed,
                             self.tables.prompt_delivered, self.tables.prompt_stamp,
                             links=self.web_links, boards=BoardPace(pace))
        self.presenter = Presenter(self.tables, self.sender)
        await self.tables.restore(owns=self.shard_plan.owns)
        settle_garbage_collector()
        if len(self.shard_plan.ids) < self.shard_plan.count:
            # Other processes run the other shards: DM clicks on their tables reach shard 0.
            await InteractionRouter(self.store, self.shard_plan, self._connection.parsers,
                                    lambda table_id: table_id in self.tables.tables,
                                    track=self.in_flight.track).start()
        self.add_dynamic_items(*PERSISTENT_ITEMS)
        games = dict.fromkeys(plugin.extension for plugin in self.plugins.values())
        for extension in (*EXTENSIONS, *games):
            await self.load_extension(extension)
        if self.settings.dev_guild:
            guild = discord.Object(self.settings.dev_guild)
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)
        else:
            await self.tree.sync()

    def _lease_lost(self, shard: int) -> None:
        """Another process drives shard `shard`'s tables now (or may at any moment): this one
        must not touch them again, so it stops at once; what it saved is all there is."""
        log.critical("lost the lease of shard %d: stopping now", shard)
        logging.shutdown()
        os._exit(EXIT_LEASE_LOST)

    async def on_ready(self) -> None:
        log.info("ready as %s in %d server(s)", self.user, len(self.guilds))
        if not self._resumed:
            self._resumed = True
            await self.sender.start(owns=self.shard_plan.owns)  # saved but unsent before a crash
            await self.tables.resume()

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        if interaction.type == discord.InteractionType.modal_submit:
            # A word modal's answer, refused as a button's is (its TextModal was stopped).
            await refusing(interaction, self.presenter.on_modal_submit(interaction))

    async def _refuse_while_stopping(self, data: dict[str, Any]) -> None:
        """An interaction that arrives once the bot is stopping: the person is told to try
        again, and nothing is done (the process it would run in is about to end)."""
        interaction: discord.Interaction = discord.Interaction(
            data=cast(Any, data), state=self._connection)
        if interaction.type not in ANSWERED_WITH_A_MESSAGE:
            return  # an autocomplete's answer is choices: none is offered
        await i18n.for_interaction(interaction)
        await deliver(interaction, refusal(msg(
            "Dealer's Choice is restarting: nothing was done. Try again in a minute.")))

    async def close(self) -> None:
        # The commands and clicks under way finish first: closing the store under them would
        # cut their work in two (bot.discord.in_flight).
        await self.in_flight.drain()
        if hasattr(self, "tables"):
            await self.tables.close()
        if hasattr(self, "sender"):
            await self.sender.close()
        if hasattr(self, "leases"):
            await self.leases.release()
        if hasattr(self, "store"):
            await self.store.close()
        await super().close()


def bot_of(interaction: discord.Interaction) -> DealersChoiceBot:
    """The bot an interaction reached, typed. discord.py types `interaction.client` as the
    bare `discord.Client`; every interaction this process gets is its DealersChoiceBot's."""
    return cast(DealersChoiceBot, interaction.client)


# The buttons reach the bot as a `Host` (bot.discord.components): mypy checks this bot is one.
_BUTTONS_HOST: type[Host] = DealersChoiceBot
