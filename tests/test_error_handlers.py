"""The two error handlers (issue 24, "A typed bot"): the command tree's (`bot.discord.tree.Tree`)
and the buttons' (`bot.discord.components.refusing`). The presenter lets the table service's refusal
(`TableError`) go; these answer it to the person alone, in their language, and log anything else as
discord.py logs an error no handler took."""

from __future__ import annotations

from typing import Any

import discord
import pytest
from discord import app_commands

from bot.core import validation
from bot.core.table import TableError
from bot.core.validation import InvalidValue
from bot.discord.components import LobbyButton, refusing
from bot.discord.tree import Refused, Tree, refused_answer
from bot.present import i18n
from engine.i18n import msg

NOTHING_NEEDED = msg("Nothing is needed from you right now.")  # in the Swedish catalogue


class Response:
    def __init__(self, sent: list[tuple[bool, str | None]]) -> None:
        self.sent = sent
        self.done = False

    def is_done(self) -> bool:
        return self.done

    async def send_message(self, *, ephemeral: bool = False, **extras: Any) -> Any:
        self.sent.append((ephemeral, extras.get("content")))
        self.done = True

        class Callback:
            message_id = 1

        return Callback()


class User:
    id = 7
    locale = "en-US"


async def abort(interaction: discord.Interaction) -> None:
    """A command for the interaction to name (its callback never runs here)."""


class Interaction:
    """A slash command or a click, answered by recording what it was answered with."""

    type = discord.InteractionType.application_command
    guild_id = None
    locale = "en-US"

    def __init__(self, client: object = None) -> None:
        self.sent: list[tuple[bool, str | None]] = []
        self.response = Response(self.sent)
        self.created_at = discord.utils.utcnow()
        self.extras: dict[str, Any] = {}
        self.user = User()
        self.client = client
        self.command = app_commands.Command(name="abort", description="End the table",
                                            callback=abort)


@pytest.fixture
def tree() -> Tree:
    return Tree(discord.Client(intents=discord.Intents.none()))


async def test_the_trees_handler_answers_a_refusal_privately_in_the_readers_language(
    tree: Tree,
) -> None:
    command = Interaction()
    error = app_commands.CommandInvokeError(command.command, TableError(NOTHING_NEEDED))
    with i18n.using("sv"):  # as the command's `i18n.for_interaction` left it
        await tree.on_error(command, error)  # type: ignore[arg-type]
    assert command.sent == [(True, "Inget behövs från dig just nu.")]


async def test_the_trees_handler_answers_a_refused_value_with_what_the_option_accepts(
    tree: Tree,
) -> None:
    with pytest.raises(InvalidValue) as refused:
        validation.BUY_IN.check(-1)
    command = Interaction()
    await tree.on_error(command, Refused(refused.value))  # type: ignore[arg-type]
    assert command.sent == [(True, refused_answer(refused.value).content)]


async def test_the_trees_handler_logs_any_other_error_and_answers_nothing(
    tree: Tree, caplog: pytest.LogCaptureFixture,
) -> None:
    command = Interaction()
    error = app_commands.CommandInvokeError(command.command, RuntimeError("boom"))
    with caplog.at_level("ERROR", logger="bot.discord.tree"):
        await tree.on_error(command, error)  # type: ignore[arg-type]
    assert "Ignoring exception in command 'abort'" in caplog.text and command.sent == []


class Presenter:
    """A presenter whose service refuses every click."""

    async def lobby_action(self, interaction: Any, table_id: str, op: str) -> None:
        raise TableError(NOTHING_NEEDED)


class Host:
    """The bot as the buttons see it: what it was asked to refuse is recorded."""

    def __init__(self) -> None:
        self.presenter = Presenter()
        self.refused: list[tuple[object, str]] = []

    async def refuse(self, interaction: object, error: TableError) -> None:
        self.refused.append((interaction, str(error)))


async def test_a_buttons_refusal_goes_to_the_one_handler() -> None:
    host = Host()
    click = Interaction(host)
    await LobbyButton("ab12", "join").callback(click)  # type: ignore[arg-type]
    assert host.refused == [(click, str(NOTHING_NEEDED))]


async def test_any_other_error_of_a_click_goes_on_to_discord_py() -> None:
    async def broken() -> None:
        raise RuntimeError("boom")

    host = Host()
    with pytest.raises(RuntimeError, match="boom"):
        await refusing(Interaction(host), broken())  # type: ignore[arg-type]
    assert host.refused == []
