"""The two error handlers (issue 24, "A typed bot"): the command tree's (`bot.discord.tree.Tree`)
and the buttons' (`bot.discord.components.refusing`). The presenter lets the table service's refusal
(`TableError`) go; these answer it to the person alone, in their language, and log anything else as
discord.py logs an error no handler took."""

from __future__ import annotations

from typing import Any

import discord
import pytest

from bot.core import validation
from bot.core.table import TableError
from bot.core.validation import InvalidValue
from bot.discord.components import LobbyButton, lobby_view, refusing
from bot.discord.tree import Refused, Tree, refused_answer
from bot.present import i18n
from engine.i18n import msg
from tests.support.fake_discord import FakeClient, FakeInteraction, FakeMessage, FakeUser

NOTHING_NEEDED = msg("Nothing is needed from you right now.")  # in the Swedish catalogue
ALICE = FakeUser(7, "Alice")


def answered(interaction: FakeInteraction) -> list[tuple[bool, str | None]]:
    """What the interaction was answered with: each answer's privacy and text."""
    return [(request.ephemeral, request.content) for request in interaction.requests]


def abort(client: FakeClient | None = None) -> FakeInteraction:
    """`/abort`, used in a server's channel."""
    client = client or FakeClient()
    return client.command(client.text_channel(100, 1), ALICE, name="abort")


@pytest.fixture
def tree() -> Tree:
    return Tree(discord.Client(intents=discord.Intents.none()))


async def test_the_trees_handler_answers_a_refusal_privately_in_the_readers_language(
    tree: Tree,
) -> None:
    command = abort()
    assert command.command is not None
    error = discord.app_commands.CommandInvokeError(command.command, TableError(NOTHING_NEEDED))
    with i18n.using("sv"):  # as the command's `i18n.for_interaction` left it
        await tree.on_error(command.as_interaction(), error)
    assert answered(command) == [(True, "Inget behövs från dig just nu.")]


async def test_the_trees_handler_answers_a_refused_value_with_what_the_option_accepts(
    tree: Tree,
) -> None:
    with pytest.raises(InvalidValue) as refused:
        validation.BUY_IN.check(-1)
    command = abort()
    await tree.on_error(command.as_interaction(), Refused(refused.value))
    assert answered(command) == [(True, refused_answer(refused.value).content)]


async def test_the_trees_handler_logs_any_other_error_and_answers_nothing(
    tree: Tree, caplog: pytest.LogCaptureFixture,
) -> None:
    command = abort()
    assert command.command is not None
    error = discord.app_commands.CommandInvokeError(command.command, RuntimeError("boom"))
    with caplog.at_level("ERROR", logger="bot.discord.tree"):
        await tree.on_error(command.as_interaction(), error)
    assert "Ignoring exception in command 'abort'" in caplog.text and command.requests == []


class Presenter:
    """A presenter whose service refuses every click."""

    async def lobby_action(self, interaction: Any, table_id: str, op: str) -> None:
        raise TableError(NOTHING_NEEDED)


class Host(FakeClient):
    """The bot as the buttons see it (`interaction.client`): what it was asked to refuse is
    recorded."""

    def __init__(self) -> None:
        super().__init__()
        self.presenter = Presenter()
        self.refused: list[tuple[object, str]] = []
        self.add_dynamic_items(LobbyButton)

    async def refuse(self, interaction: object, error: TableError) -> None:
        self.refused.append((interaction, str(error)))


def lobby(host: Host) -> FakeMessage:
    """A table's lobby message, with its buttons."""
    return host.text_channel(100, 1).add(
        {"content": "lobby", "components": lobby_view("ab12").to_components()}, [])


async def test_a_buttons_refusal_goes_to_the_one_handler() -> None:
    host = Host()
    click = await host.press(lobby(host), ALICE, "Join")
    assert host.refused == [(click, str(NOTHING_NEEDED))]
    assert click.requests == []  # the handler answers it (here: only recorded)


async def test_any_other_error_of_a_click_goes_on_to_discord_py() -> None:
    async def broken() -> None:
        raise RuntimeError("boom")

    host = Host()
    click = host.click(lobby(host), ALICE, "Join")
    with pytest.raises(RuntimeError, match="boom"):
        await refusing(click.as_interaction(), broken())
    assert host.refused == []
