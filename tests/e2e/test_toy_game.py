"""A game from outside the repository, through the real bot (issue 24, "One package per
game"): Toy High Card (docs/examples/toy-high-card) is installed as a distribution in a temporary
folder, which is on the bot process's PYTHONPATH and nowhere else, and the bot finds it by its
entry point alone. `/help` lists it, it is played to its end by a person and an AI seat, its
rules page is shown, and with the server in Swedish its sentences come from its own catalogue.

It runs on SQLite only: its subject is the plug-in, which knows no database."""

from __future__ import annotations

import os
import re
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from loopback.driver import describe_rejection
from loopback.process import BotProcess
from tests.e2e.conftest import CALL_REPORT, World, loopback_options
from tests.e2e.helpers import channel_text
from tests.support.autoplay import SWEDISH, AutoPlayer, open_table
from tests.support.patience import AnsweredDiscord
from tests.support.toy import write_distribution

pytestmark = pytest.mark.e2e


@pytest.fixture
async def toy_world(tmp_path: Path, request: pytest.FixtureRequest) -> AsyncIterator[World]:
    """`world` (tests/e2e/conftest.py) with Toy High Card installed for the bot alone."""
    site = write_distribution(tmp_path / "site")
    python_path = os.pathsep.join(filter(None, [str(site), os.environ.get("PYTHONPATH")]))
    database = tmp_path / "bot.sqlite3"
    async with AnsweredDiscord(users=["alice", "bob"], channels=["general"],
                               **loopback_options(request)) as discord:
        bot = BotProcess(discord, database, log_path=tmp_path / "bot.log",
                         extra_env={"AI_DELAY": "0.05", "PYTHONPATH": python_path})
        await bot.start()
        try:
            yield World(discord, bot, database)
        finally:
            await bot.stop()
            report: pytest.TestReport | None = request.node.stash.get(CALL_REPORT, None)
            if report is None or report.failed:
                print(bot.log_tail(120))
                for rejected in discord.rejected():
                    print(describe_rejection(rejected))
        discord.assert_no_rejected()


async def test_a_game_from_an_entry_point_is_played_translated_and_documented(
        toy_world: World) -> None:
    discord = toy_world.discord
    alice, bob = discord.user("alice"), discord.user("bob")
    general = discord.channel("general")
    assert "toy" in {command["name"] for command in discord.state.commands[None]}
    shown = await bob.slash(general, "help")
    assert "**Toy High Card** (2–4 players) — Toy High Card: one card" in shown.text, shown.text
    assert "Play: `/toy start`. Rules: `/toy rules`" in shown.text, shown.text

    rules = await bob.slash(general, "toy rules")
    assert rules.ephemeral and "Toy High Card" in rules.text, rules.text[:200]
    assert "Keep or swap" in rules.text and "The highest rank wins" in rules.text

    # A whole game: Alice and an AI seat, each keeping or swapping once.
    await open_table(discord, alice, general, "toy start", [], ai=1)
    player = AutoPlayer(discord, general, [alice], seed=3)
    await player.play()
    text = channel_text(general)
    assert player.winners(), text[-500:]
    assert "Toy High Card" in text and "The cards: " in text and "Highest card: " in text
    assert len(re.findall(r"(?:keeps|swaps) their card\.", text)) == 2, text[-800:]
    assert [move.what for move in player.moves] in (["plays Keep"], ["plays Swap"])

    # In Swedish: the server's channel, and Alice's and Bob's Discord (their DMs, Bob's page).
    shown = await alice.slash(general, "table settings locale:sv")
    assert "speaks **Swedish**" in shown.text, shown.text  # Alice's own Discord: English
    alice.user.locale = bob.user.locale = "sv-SE"
    rules = await bob.slash(general, "toy rules")
    assert "Högsta kortet (leksak)" in rules.text and "Behåll eller byt" in rules.text, \
        rules.text[:200]

    before = len(text)
    await open_table(discord, alice, general, "toy start", [], ai=1, words=SWEDISH)
    player = AutoPlayer(discord, general, [alice], seed=4, words=SWEDISH)
    await player.play()
    swedish = channel_text(general)[before:]
    assert player.winners(), swedish[-500:]
    assert "Högsta kortet (leksak)" in swedish and "Korten: " in swedish, swedish[-800:]
    assert len(re.findall(r"(?:behåller|byter) sitt kort\.", swedish)) == 2, swedish[-800:]
    assert "their card" not in swedish and "The cards" not in swedish
    assert [move.what for move in player.moves] in (["plays Behåll"], ["plays Byt"])
    discord.assert_no_errors()
