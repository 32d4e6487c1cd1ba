"""A tiny discord.py bot that uses every feature the loopback must carry.

It is the unmodified client library doing real HTTP and websocket work, so a test that passes
against it shows the loopback speaks Discord well enough for the real bot.
"""

from __future__ import annotations

import asyncio
import io

import discord
from discord import app_commands
from discord.ext import commands


class LobbyView(discord.ui.View):
    """Buttons that edit their own message, a select, and a button that opens a modal."""

    def __init__(self) -> None:
        super().__init__(timeout=None)
        self.players: list[str] = []

    @discord.ui.button(label="Join", custom_id="lobby:join", style=discord.ButtonStyle.success)
    async def join(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        self.players.append(interaction.user.name)
        await interaction.response.edit_message(content=f"Lobby: {', '.join(self.players)}")

    @discord.ui.button(label="Start", custom_id="lobby:start")
    async def start(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        for item in self.children:
            item.disabled = True  # type: ignore[attr-defined]
        await interaction.response.edit_message(content="Game started", view=self)

    @discord.ui.button(label="Rename", custom_id="lobby:rename")
    async def rename(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        await interaction.response.send_modal(RenameModal())

    @discord.ui.select(custom_id="lobby:game", placeholder="Pick a game", options=[
        discord.SelectOption(label="Poker", value="poker"),
        discord.SelectOption(label="Spelling", value="spell"),
    ])
    async def game(self, interaction: discord.Interaction, select: discord.ui.Select) -> None:
        await interaction.response.send_message(f"You picked {select.values[0]}", ephemeral=True)


class WordModal(discord.ui.Modal, title="Your word"):
    word = discord.ui.TextInput(label="Word", custom_id="word", max_length=20)
    note = discord.ui.TextInput(label="Note", custom_id="note", required=False)

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"{interaction.user.name} says {self.word.value}")


class LabelModal(discord.ui.Modal, title="Your word"):
    """Discord's current modal layout: each input inside a Label (type 18), not a row."""

    word: discord.ui.Label[LabelModal] = discord.ui.Label(
        text="Word", description="Seven letters at most",
        component=discord.ui.TextInput(custom_id="word", max_length=7))

    async def on_submit(self, interaction: discord.Interaction) -> None:
        text = self.word.component.value  # type: ignore[attr-defined]
        await interaction.response.send_message(f"{interaction.user.name} labels {text}")


class RenameModal(discord.ui.Modal, title="Rename the lobby"):
    name = discord.ui.TextInput(label="Name", custom_id="name")

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.edit_message(content=f"Lobby {self.name.value}")


class DmView(discord.ui.View):
    """Persistent, so clicks on DM messages find it by custom_id."""

    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.button(label="Poker", custom_id="dm:poker")
    async def poker(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        await interaction.response.send_message("You chose poker")


table = app_commands.Group(name="table", description="Table commands")
sppoker = app_commands.Group(name="sppoker", description="Sppoker")
admin = app_commands.Group(name="admin", description="Admin")
config = app_commands.Group(name="config", description="Config", parent=admin)


@table.command(name="status", description="Show the table")
async def table_status(interaction: discord.Interaction) -> None:
    await interaction.response.send_message("Table is empty", ephemeral=True)


@sppoker.command(name="start", description="Start a game")
@app_commands.describe(target="Points to win")
async def sppoker_start(
    interaction: discord.Interaction, target: app_commands.Range[int, 1, 100]
) -> None:
    await interaction.response.send_message(f"Sppoker to {target}")


@config.command(name="set", description="Set a value")
async def config_set(interaction: discord.Interaction, key: str, value: str) -> None:
    await interaction.response.send_message(f"{key}={value}")


class TinyBot(commands.Bot):
    def __init__(self, guild_id: int) -> None:
        intents = discord.Intents.default()
        intents.message_content = True
        intents.members = True
        super().__init__(command_prefix="!", intents=intents, guild_ready_timeout=0.05,
                         help_command=None)
        self.guild_id = guild_id
        self.failures: list[Exception] = []
        self.events: list[str] = []
        self.seen: list[discord.Message] = []
        self.slow_started = asyncio.Event()
        self.release = asyncio.Event()
        self.interactions: list[discord.Interaction] = []
        self._add_commands()

    async def setup_hook(self) -> None:
        self.add_view(DmView())
        self.add_view(LobbyView())
        guild = discord.Object(self.guild_id)
        self.tree.copy_global_to(guild=guild)
        await self.tree.sync(guild=guild)
        await self.tree.sync()

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        """No 5 s pause before a re-IDENTIFY: the tests force one on purpose."""

    async def on_resumed(self) -> None:
        self.events.append("resumed")

    async def on_ready(self) -> None:
        self.events.append("ready")

    async def on_message(self, message: discord.Message) -> None:
        self.seen.append(message)

    async def on_member_join(self, member: discord.Member) -> None:
        self.events.append(f"join:{member.name}")

    def _add_commands(self) -> None:
        tree = self.tree
        for group in (table, sppoker, admin):
            tree.add_command(group)

        @tree.command(description="Repeat some text")
        async def echo(interaction: discord.Interaction, text: str, times: int = 1) -> None:
            self.interactions.append(interaction)
            await interaction.response.send_message(text * times)

        @tree.command(description="Open a lobby")
        async def lobby(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("Lobby: nobody", view=LobbyView())

        @tree.command(description="Ask for a word")
        async def ask(interaction: discord.Interaction) -> None:
            await interaction.response.send_modal(WordModal())

        @tree.command(description="Ask for a word, the current way")
        async def label(interaction: discord.Interaction) -> None:
            await interaction.response.send_modal(LabelModal())

        @tree.command(description="DM me my hand")
        async def dmme(interaction: discord.Interaction) -> None:
            try:
                await interaction.user.send(
                    "Your hand", view=DmView(),
                    file=discord.File(io.BytesIO(b"\x89PNG fake"), filename="hand.png"))
            except discord.Forbidden as error:
                self.failures.append(error)
                await interaction.response.send_message("Your DMs are closed", ephemeral=True)
                return
            await interaction.response.send_message("Sent you a DM", ephemeral=True)

        @tree.command(description="Answer when told to")
        async def slow(interaction: discord.Interaction) -> None:
            self.slow_started.set()
            await self.release.wait()
            try:
                await interaction.response.send_message("finally")
            except discord.NotFound as error:
                self.failures.append(error)

        @tree.command(description="Think, then answer")
        async def think(interaction: discord.Interaction, secret: bool = False) -> None:
            self.interactions.append(interaction)
            await interaction.response.defer(thinking=True, ephemeral=secret)
            await interaction.followup.send("done thinking")
            await interaction.followup.send("and one more", ephemeral=secret)

        @tree.command(description="Send a picture")
        async def picture(interaction: discord.Interaction) -> None:
            await interaction.response.send_message(
                "here", file=discord.File(io.BytesIO(b"GIF89a"), filename="card.gif"))

        @tree.command(description="Pick a player")
        async def poke(interaction: discord.Interaction, who: discord.Member,
                       where: discord.TextChannel | None = None) -> None:
            place = f" in {where.name}" if where else ""
            await interaction.response.send_message(f"poked {who.name}{place}")

        @tree.command(description="Only for admins")
        @app_commands.guild_only()
        @app_commands.default_permissions(manage_guild=True)
        async def reset(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("reset")

        @tree.command(description="Choose a mode")
        @app_commands.choices(mode=[app_commands.Choice(name="Fast", value="fast"),
                                    app_commands.Choice(name="Slow", value="slow")])
        async def mode(interaction: discord.Interaction, mode: app_commands.Choice[str]) -> None:
            await interaction.response.send_message(f"mode {mode.value}")

        @tree.command(description="Find a word")
        async def word(interaction: discord.Interaction, query: str) -> None:
            await interaction.response.send_message(query)

        @word.autocomplete("query")
        async def word_complete(
            interaction: discord.Interaction, current: str
        ) -> list[app_commands.Choice[str]]:
            words = ["zebra", "zero", "apple"]
            return [app_commands.Choice(name=w, value=w) for w in words if w.startswith(current)]


async def main() -> None:
    """Run as a separate process, pointed at the loopback only by environment variables."""
    import os

    import yarl

    discord.http.Route.BASE = os.environ["DISCORD_API_BASE"]
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(os.environ["DISCORD_GATEWAY_URL"])
    async with TinyBot(int(os.environ["LOOPBACK_GUILD_ID"])) as client:
        await client.start(os.environ["DISCORD_TOKEN"])


if __name__ == "__main__":
    asyncio.run(main())
