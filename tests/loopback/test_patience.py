"""The tests' patience (tests/support/patience.py): a wait goes on while the bot keeps
sending and gives up once it is quiet, and a deferred answer reads as the answer it became,
as the end-to-end tests read an answer given at once. With a discord.py bot that defers on
purpose, as the real bot does when it is busy."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import Any

import discord
import pytest
import yarl
from discord import app_commands

from loopback import LoopbackDiscord
from tests.support.patience import (
    PROGRESS_LIMIT,
    AnsweredDiscord,
    AnsweredResult,
    PatientDiscord,
    patient,
)


class Deferring(discord.Client):
    """Answers everything after a deferral, the ways bot/discord/presenter.py does when busy."""

    def __init__(self, guild_id: int) -> None:
        super().__init__(intents=discord.Intents.default(), guild_ready_timeout=0.05)
        self.guild_id = guild_id
        self.tree = app_commands.CommandTree(self)

        @self.tree.command(description="A lobby whose buttons answer late")
        async def lobby(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("Lobby: nobody", view=LateView())

        @self.tree.command(description="Deferred, then filled in")
        async def status(interaction: discord.Interaction) -> None:
            await interaction.response.defer(thinking=True, ephemeral=True)
            await asyncio.sleep(0.2)
            await interaction.followup.send("Nobody is playing", ephemeral=True)

        @self.tree.command(description="Deferred in public, then refused privately")
        async def start(interaction: discord.Interaction) -> None:
            await interaction.response.defer(thinking=True)
            await asyncio.sleep(0.2)
            await interaction.delete_original_response()
            await interaction.followup.send("A table is already open here", ephemeral=True)

    async def setup_hook(self) -> None:
        self.add_view(LateView())
        guild = discord.Object(self.guild_id)
        self.tree.copy_global_to(guild=guild)
        await self.tree.sync(guild=guild)


class LateView(discord.ui.View):
    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.button(label="Join", custom_id="late:join")
    async def join(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        await interaction.response.defer()
        await asyncio.sleep(0.2)  # the answer comes well after the click's acknowledgement
        await interaction.edit_original_response(content=f"Lobby: {interaction.user.name}")

    @discord.ui.button(label="Cancel", custom_id="late:cancel")
    async def cancel(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        await interaction.response.defer()
        await asyncio.sleep(0.2)
        await interaction.followup.send("Only the host can cancel", ephemeral=True)
        await interaction.followup.send("(and this is a second note)", ephemeral=True)

    @discord.ui.button(label="Pass", custom_id="late:pass")
    async def pass_(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        """Refused late; meanwhile the bot edits the clicked message on its own account
        (through the channel, not the click's token: as its sender does after a restart)."""
        await interaction.response.defer()
        assert interaction.message is not None
        await interaction.message.edit(content="Lobby: nobody (the board moved on)")
        await asyncio.sleep(0.2)
        await interaction.followup.send("It is not your turn", ephemeral=True)


@pytest.fixture
async def answered(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[AnsweredDiscord]:
    async with AnsweredDiscord(users=["alice", "bob"], channels=["general"]) as server:
        env = server.bot_env()
        monkeypatch.setattr(discord.http.Route, "BASE", env["DISCORD_API_BASE"])
        monkeypatch.setattr(discord.gateway.DiscordWebSocket, "DEFAULT_GATEWAY",
                            yarl.URL(env["DISCORD_GATEWAY_URL"]))
        client = Deferring(server.state.guild.id)
        task = asyncio.create_task(client.start(server.token))
        try:
            await server.wait_for_bot_ready()
            yield server
        finally:
            await client.close()
            with contextlib.suppress(Exception, asyncio.CancelledError):
                await asyncio.wait_for(task, patient(5))
            await asyncio.sleep(0.01)


async def test_a_deferred_click_answered_by_an_edit_reads_as_the_update(
        answered: AnsweredDiscord) -> None:
    alice = answered.user("alice")
    lobby = (await alice.slash("general", "lobby")).message
    assert lobby is not None
    joined = await alice.click(lobby, label="Join")
    assert isinstance(joined, AnsweredResult) and joined.deferred
    assert joined.response == "update_message" and joined.text == "Lobby: alice"
    assert joined.response_type == 6  # what Discord was told first: a deferred update


async def test_a_click_made_without_check_returns_at_its_acknowledgement(
        answered: AnsweredDiscord) -> None:
    """Its test watches the outcome itself (and may be holding back what the answer waits
    for): the deferral is what it reads first, the answer once it has come."""
    alice = answered.user("alice")
    lobby = (await alice.slash("general", "lobby")).message
    assert lobby is not None
    joined = await alice.click(lobby, label="Join", check=False)
    assert joined.response == "deferred_update"  # the bot's edit is 0.2 s away
    await answered.wait_for(lambda: isinstance(joined, AnsweredResult) and joined.answered)
    assert joined.response == "update_message" and joined.text == "Lobby: alice"


async def test_a_deferred_click_answered_by_a_followup_reads_as_that_message(
        answered: AnsweredDiscord) -> None:
    alice = answered.user("alice")
    lobby = (await alice.slash("general", "lobby")).message
    assert lobby is not None
    refused = await alice.click(lobby, label="Cancel")
    assert refused.response == "message" and refused.ephemeral
    assert refused.text == "Only the host can cancel"
    await refused.wait_for_followup()
    assert [m.text for m in refused.followups] == ["(and this is a second note)"]
    assert answered.message(lobby.id).text == "Lobby: nobody"  # the lobby is untouched


async def test_a_deferred_click_refused_after_another_edit_of_its_message_reads_as_refused(
        answered: AnsweredDiscord) -> None:
    """The clicked message edited by the bot's other business is not the click's answer
    (seen under load: a word modal submitted after a restart read as answered by the
    restart's edit of its DM, before the bot's refusal of the word came)."""
    alice = answered.user("alice")
    lobby = (await alice.slash("general", "lobby")).message
    assert lobby is not None
    refused = await alice.click(lobby, label="Pass")
    assert refused.response == "message" and refused.ephemeral
    assert refused.text == "It is not your turn"


async def test_a_deferred_command_reads_as_its_filled_placeholder_or_its_refusal(
        answered: AnsweredDiscord) -> None:
    alice = answered.user("alice")
    status = await alice.slash("general", "status")
    assert status.response == "message" and status.ephemeral
    assert status.text == "Nobody is playing" and status.message is not None
    assert not status.message.loading
    refused = await alice.slash("general", "start")
    assert refused.response == "message" and refused.ephemeral
    assert refused.text == "A table is already open here" and refused.followups == []


@pytest.fixture
def stand_in(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    """LoopbackDiscord.wait_for replaced by one that times out twice (the test says whether
    the bot sent something meanwhile), then finds its condition met: the timeouts asked."""
    asked: list[float] = []

    async def wait_for(self: LoopbackDiscord, predicate: Any, timeout: float = 10.0, *,
                       message: Any = None) -> Any:
        asked.append(timeout)
        if len(asked) <= 2:
            if self.sends_meanwhile:  # type: ignore[attr-defined]
                self.state.requests.append(None)  # type: ignore[arg-type]
            raise TimeoutError("condition not met")
        return "met"

    monkeypatch.setattr(LoopbackDiscord, "wait_for", wait_for)
    return asked


async def test_a_wait_goes_on_while_the_bot_sends_and_gives_up_once_it_is_quiet(
        stand_in: list[float]) -> None:
    sending = PatientDiscord()
    sending.sends_meanwhile = True  # type: ignore[attr-defined]
    assert await sending.wait_for(lambda: False, 2.0) == "met"
    assert stand_in == [patient(2.0)] * 3

    stand_in.clear()
    quiet = PatientDiscord()
    quiet.sends_meanwhile = False  # type: ignore[attr-defined]
    with pytest.raises(TimeoutError):
        await quiet.wait_for(lambda: False, 2.0)
    assert stand_in == [patient(2.0)]
    assert PROGRESS_LIMIT >= 2  # a bot that keeps sending is given more than one timeout
