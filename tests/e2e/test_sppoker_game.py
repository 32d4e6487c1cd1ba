"""Sppoker through the real bot, as the issue asks: three users and an AI seat, an invalid
word, a user whose DMs are closed, a restart during declarations, and at every reveal a check
that the channel showed nothing hidden before it."""

from __future__ import annotations

import asyncio
import re

from loopback.handles import UserHandle
from loopback.models import Message
from tests.e2e.conftest import World
from tests.e2e.helpers import channel_text, open_table, wait_dm_button


def latest_prompt(user: UserHandle, label: str) -> Message | None:
    """The newest message (DM, or ephemeral for closed DMs) offering `label`."""
    for message in reversed(user.visible_messages()):
        if message.button(label) is not None:
            return message
    return None


def shown_hand(message: Message) -> list[str]:
    found = re.search(r"Your hand: (.+)", message.text)
    assert found, message.text
    return found.group(1).split()


async def test_two_players_play_sppoker_to_the_end(world: World) -> None:
    discord = world.discord
    alice, bob = discord.user("alice"), discord.user("bob")
    general = discord.channel("general")

    await open_table(discord, alice, general, "sppoker start target:1", [bob])
    alice_prompt = await wait_dm_button(discord, alice, "Poker")
    await wait_dm_button(discord, bob, "Spelling")
    assert "Your hand" in alice_prompt.text
    assert any(a.filename == "hand.png" for a in alice_prompt.attachments)

    await alice.click(alice_prompt, label="Poker")
    await bob.click_dm(label="Spelling")
    assert bob.modal is not None
    await bob.submit_modal({"Your word": "qqqq"})
    await discord.wait_for(lambda: "won" in channel_text(general), timeout=15)

    text = channel_text(general)
    assert "revealed" in text and "Alice" in text
    reveal = next(m for m in general.messages() if any(
        e.get("title", "").startswith("Hand 1 revealed") for e in m.embeds))
    assert reveal.embeds[0]["image"]["url"] == "attachment://reveal.png"
    assert [a.filename for a in reveal.attachments] == ["reveal.png"]
    assert "Alice — poker" in reveal.embeds[0]["description"]
    result = await alice.slash(general, "leaderboard game:sppoker")
    assert "1. Alice — 1 won of 1" in result.message.text.replace("*", "")
    stats = await bob.slash(general, "stats user:alice")
    assert "Sppoker" in stats.message.text and "played 1, won 1" in stats.message.text
    # Skill ratings: the winner above the loser, her rating moved up by the game.
    rated = await bob.slash(general, "leaderboard game:sppoker order:rating")
    board = rated.message.text.replace("*", "")
    assert "by rating" in board and "newcomers start at 1000" in board
    ranked = re.findall(r"(\d+)\. (\w+) — rating (\d+), (\d) won of 1", board)
    assert [(name, won) for _, name, _, won in ranked] == [("Alice", "1"), ("Bob", "0")]
    change = re.search(r"rating (\d+) \(\+(\d+) in the last game\)", stats.message.text)
    assert change and change.group(1) == ranked[0][2] and int(change.group(2)) > 0


async def play_out_the_playoff(world: World, dm_players: list[UserHandle],
                               closed_dms: UserHandle) -> None:
    """Sudden death among the tied only (the others sit out): whoever is asked declares
    poker, and the next hand is started, until someone wins."""
    general = world.discord.channel("general")
    for _ in range(200):
        if "won the game" in channel_text(general):
            return
        for player in dm_players:
            prompt = latest_prompt(player, "Poker")
            if prompt is not None:
                await player.click(prompt, label="Poker", check=False)
        shown = await closed_dms.click(general, label="Show my hand", check=False)
        if shown.message is not None and shown.message.button("Poker") is not None:
            await closed_dms.click(shown.message, label="Poker", check=False)
        for player in dm_players:
            next_hand = latest_prompt(player, "Next hand")
            if next_hand is not None:
                await player.click(next_hand, label="Next hand", check=False)
        await asyncio.sleep(0.3)
    raise AssertionError("the playoff never ended: " + channel_text(general)[-1500:])


async def test_three_users_and_an_ai_across_a_restart(world: World) -> None:
    discord, bot = world.discord, world.bot
    alice, bob, carol = discord.user("alice"), discord.user("bob"), discord.user("carol")
    general = discord.channel("general")
    carol.close_dms()
    await open_table(discord, alice, general, "sppoker start target:2", [bob, carol], ai=1)
    await discord.wait_for(lambda: "can't send you direct messages" in channel_text(general))

    for hand in range(1, 40):
        await discord.wait_for(
            lambda hand=hand: re.search(rf"Hand {hand}( \(playoff\))?: cards are dealt",
                                        channel_text(general))
            or "won the game" in channel_text(general), timeout=20)
        if "won the game" in channel_text(general):
            break
        if f"Hand {hand} (playoff)" in channel_text(general):
            await play_out_the_playoff(world, [alice, bob], carol)
            break
        alice_prompt = await wait_dm_button(discord, alice, "Double down")
        await discord.wait_for(lambda: latest_prompt(bob, "Poker") is not None)
        carol_view = await carol.click(general, label="Show my hand")
        hands = shown_hand(alice_prompt) + shown_hand(carol_view.message)
        bob_prompt = latest_prompt(bob, "Poker")
        assert bob_prompt is not None
        hands += shown_hand(bob_prompt)

        if hand == 1:
            await bob.click(bob_prompt, label="Spelling")
            told = await bob.submit_modal({"Your word": "xyzzy"})
            assert "⚠️" in told.message.text  # told privately, at once
            await alice.click(alice_prompt, label="Poker")
            await bot.restart()  # during declarations: Alice has declared, Bob not yet
            await discord.wait_for(lambda: "back exactly where it was" in channel_text(general))
            # An invalid word does not declare: the channel never counted Bob, who is
            # asked again and now declares poker.
            assert "Bob has declared" not in channel_text(general)
            await discord.wait_for(lambda: latest_prompt(bob, "Poker") is not None)
            again = latest_prompt(bob, "Poker")
            assert again is not None
            await bob.click(again, label="Poker")
            await discord.wait_for(lambda: "Bob has declared" in channel_text(general))
        else:
            await bob.click(bob_prompt, label="Poker")
            await alice.click(alice_prompt, label="Poker")
        before = channel_text(general)
        await carol.click(carol_view.message, label="Poker")  # the same ephemeral buttons

        await discord.wait_for(lambda hand=hand: f"Hand {hand} revealed" in
                               channel_text(general), timeout=20)
        leaked = [card for card in hands if card in before]
        assert not leaked, f"hand {hand}: {leaked} were shown before the reveal"
        if hand == 1:
            assert "XYZZY" not in channel_text(general)
        await discord.wait_for(lambda: "won the game" in channel_text(general)
                               or latest_prompt(alice, "Next hand") is not None)
        if "won the game" not in channel_text(general):
            next_hand = latest_prompt(alice, "Next hand")
            assert next_hand is not None
            await alice.click(next_hand, label="Next hand")
    await discord.wait_for(lambda: "won" in channel_text(general), timeout=20)
    board = await alice.slash(general, "leaderboard game:sppoker")
    assert "Alice" in board.message.text and "Carol" in board.message.text
