"""Sppoker through the real bot: lobby to a finished game, recorded for the leaderboard."""

from __future__ import annotations

from tests.e2e.conftest import World
from tests.e2e.helpers import channel_text, open_table, wait_dm_button


async def test_two_players_play_sppoker_to_the_end(world: World) -> None:
    discord = world.discord
    alice, bob = discord.user("alice"), discord.user("bob")
    general = discord.channel("general")

    await open_table(discord, alice, general, "sppoker start target:1", [bob])
    alice_prompt = await wait_dm_button(discord, alice, "Poker")
    await wait_dm_button(discord, bob, "Spelling")
    assert "Your hand" in alice_prompt.text

    await alice.click(alice_prompt, label="Poker")
    await bob.click_dm(label="Spelling")
    assert bob.modal is not None
    await bob.submit_modal({"Your word": "qqqq"})
    await discord.wait_for(lambda: "won" in channel_text(general), timeout=15)

    text = channel_text(general)
    assert "revealed" in text
    result = await alice.slash(general, "leaderboard game:sppoker")
    assert "1. Alice — 1 won of 1" in result.message.text.replace("*", "")

