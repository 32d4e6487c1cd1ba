"""The bot's adapter on the in-process Discord (`tests.support.fake_discord`): a real store
(SQLite in a temporary folder), table service, sender and presenter, wired as
`bot.discord.app.DealersChoiceBot.setup_hook` wires them, and the fake Discord in place of
discord.py's client. The fast tests of the sender and the presenter play tables on it.

Two things are in the test's hands rather than left to chance, so that a test says what
happens and when: the sender is woken only by `deliver` (the service's `wake` is recorded, not
acted on at once), and the clock that says whether a person answered "moments ago" (the
in-place prompts' `bot.discord.in_place.InPlace`) is `clock`, which only the test moves.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from pathlib import Path

import discord

from bot.core.service import TableService
from bot.core.table import Table, TableError
from bot.discord.components import (
    PERSISTENT_ITEMS,
    Host,
    ReplayPages,
)
from bot.discord.presenter import Presenter
from bot.discord.responses import refuse
from bot.discord.sender import Sender
from bot.discord.web_links import WebLinks
from bot.store import Store
from tests.support.fake_discord import (
    FakeChannel,
    FakeClient,
    FakeMessage,
    FakeUser,
)

GUILD, CHANNEL = 1, 100
ALICE, BOB = FakeUser(11, "Alice"), FakeUser(12, "Bob")


class Clock:
    """A clock that stands still until the test moves it."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


class Bot(FakeClient):
    """The fake Discord with the bot's parts on it: what the buttons reach through
    `interaction.client` (a `bot.discord.components.Host`: its presenter, and `refuse`, the
    one answer of a refusal), the store the reader's language is read from, and the sender
    the service's steps are delivered by."""

    store: Store
    service: TableService
    sender: Sender
    presenter: Presenter
    links: WebLinks

    def __init__(self) -> None:
        super().__init__()
        self.woken: list[str] = []
        self.clock = Clock()
        self.channel = self.text_channel(CHANNEL, GUILD)
        self.add_dynamic_items(*PERSISTENT_ITEMS)

    @property
    def replays(self) -> ReplayPages:
        raise LookupError("no replays here")

    async def refuse(self, interaction: discord.Interaction, error: TableError) -> None:
        await refuse(interaction, error)

    def new_sender(self) -> Sender:
        """A sender as the bot makes one (a new process's, after a restart)."""
        self.sender = Sender(self.as_bot(), self.store, self.service.dm_closed,
                             self.service.prompt_delivered, self.service.prompt_stamp,
                             clock=self.clock, links=self.links)
        if hasattr(self, "presenter"):
            self.presenter.sender = self.sender
        return self.sender

    async def deliver(self) -> None:
        """Send what the steps so far saved, as the sender does once woken, and what that
        saved in turn (a delivered prompt starts its clock: a step of its own)."""
        while self.woken:
            tables = dict.fromkeys(self.woken)
            self.woken.clear()
            for table_id in tables:
                self.sender.wake(table_id)
            await self.sender.drain()

    def dm(self, user: FakeUser) -> FakeChannel:
        return self.dm_channel(user.id)

    def prompt(self, user: FakeUser) -> FakeMessage:
        """The last message in this person's DMs that still has buttons."""
        return next(message for message in reversed(self.dm(user).shown) if message.items)

    @property
    def board(self) -> FakeMessage:
        """The table's live board in the channel (its message with "Show my hand")."""
        return next(message for message in reversed(self.channel.shown)
                    if "Show my hand" in message.labels)

    async def open_table(self, options: dict[str, object] | None = None) -> Table:
        """Alice opens a table of Guessing, Bob joins and Alice starts it, through the
        lobby's message and buttons; what the start saved is not yet delivered."""
        command = self.command(self.channel, ALICE, name="start")
        await self.presenter.open_table(command.as_interaction(), "guessing",
                                        options or {"target": 2, "seconds": 3600})
        assert command.original is not None
        await self.press(command.original, BOB, "Join")
        await self.press(command.original, ALICE, "Start")
        return next(iter(self.service.tables.values()))


# The buttons take this fake bot for the bot (mypy checks it is a `Host`, as app.py's is).
_BUTTONS_HOST: type[Host] = Bot


@contextlib.asynccontextmanager
async def running_bot(folder: Path) -> AsyncIterator[Bot]:
    """The bot on the fake Discord, its database in `folder` (Guessing must be among the
    games: `monkeypatch.setitem(GAMES, "guessing", Guessing)`)."""
    bot = Bot()
    bot.store = await Store.open(folder / "db.sqlite3")
    bot.links = WebLinks(bot.store, None)  # a test may give it a WEB_URL
    bot.service = TableService(bot.store, ai_pause=0.0, wake=bot.woken.append)
    bot.new_sender()
    bot.presenter = Presenter(bot.service, bot.sender)
    try:
        yield bot
    finally:
        await bot.service.close()
        await bot.sender.close()
        await bot.store.close()
