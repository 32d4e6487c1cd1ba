"""Replays through the real bot: a finished Sppoker game and a finished Chicago game are
stepped through from the Replay button of their final message to their last move (◀ ▶, a jump
to a deal, whose view), every hand face up, each page an ephemeral reply edited in place so
the channel sees none of it; `/replay <id> export:True` attaches the notation, which reads
back and rebuilds the game."""

from __future__ import annotations

import re

import pytest

from engine.notation import Replayer, parse
from loopback import LoopbackDiscord
from loopback.handles import ChannelHandle, UserHandle
from loopback.models import Message
from tests.e2e.cash_tables import cash_board, deals_done, next_deal
from tests.e2e.conftest import World
from tests.e2e.helpers import AutoPlayer, channel_text, open_table, wait_dm_button
from tests.support.autoplay import HAND_LINE

REPLAY_ID = re.compile(r"/replay game:(?P<id>[0-9a-f]+)")


def final_message(channel: ChannelHandle) -> Message:
    for message in reversed(channel.messages()):
        if message.button("Replay") is not None:
            return message
    raise AssertionError("no final message with a Replay button: "
                         + channel_text(channel)[-800:])


async def step_through(discord: LoopbackDiscord, user: UserHandle,
                       channel: ChannelHandle) -> tuple[str, list[str]]:
    """From the final message's Replay button to the last move by ▶; the game's id and
    every page's text. Each step edits the one ephemeral page; the channel gets nothing."""
    final = final_message(channel)
    found = REPLAY_ID.search(final.text)
    assert found, final.text
    public_before = len(channel.messages(include_deleted=True))
    opened = await user.click(final, label="Replay")
    page = opened.message
    assert page is not None and page.ephemeral and opened.response == "message"
    assert "as dealt" in page.text.lower() and "Every hand, face up" in page.text
    pages = [page.text]
    while (forward := page.button("▶")) is not None and not forward.disabled:
        stepped = await user.click(page, label="▶")
        assert stepped.response == "update_message", stepped.text
        assert stepped.message is not None and stepped.message.id == page.id
        page = stepped.message
        pages.append(page.text)
    assert "🏁" in page.text, page.text
    back = await user.click(page, label="◀")
    assert back.message is not None and back.message.text == pages[-2]
    assert len(channel.messages(include_deleted=True)) == public_before
    assert not any(m.ephemeral for m in channel.messages(include_deleted=True))
    return found["id"], pages


async def export(user: UserHandle, channel: ChannelHandle, kind: str, game_id: str) -> str:
    answer = await user.slash(channel, f"replay game:{game_id} export:True")
    message = await answer.wait_for_message()
    assert message.ephemeral
    attachment = message.attachment(f"{kind}-{game_id}.txt")
    assert attachment is not None, message.attachments
    return attachment.data.decode("utf-8")


async def test_a_finished_sppoker_game_replays_move_by_move(world: World) -> None:
    discord = world.discord
    alice, bob = discord.user("alice"), discord.user("bob")
    general = discord.channel("general")
    await open_table(discord, alice, general, "sppoker start target:1", [bob])
    alice_prompt = await wait_dm_button(discord, alice, "Poker")
    bob_prompt = await wait_dm_button(discord, bob, "Poker")
    hands = {name: HAND_LINE.search(prompt.text) for name, prompt
             in (("Alice", alice_prompt), ("Bob", bob_prompt))}
    await alice.click(alice_prompt, label="Poker")
    await bob.click(bob_prompt, label="Poker")
    await discord.wait_for(lambda: "won the game" in channel_text(general)
                           or "playoff" in channel_text(general), timeout=20)
    if "won the game" not in channel_text(general):
        pytest.skip("a tied hand went to a playoff")  # equal poker hands: vanishingly rare

    game_id, pages = await step_through(discord, carol := discord.user("carol"), general)
    first = pages[0]
    for name, found in hands.items():  # every hand face up from the start
        assert found is not None
        cards = " ".join(found["cards"].split())
        assert f"{name}: {cards}" in first, (name, cards, first)
    assert len(pages) == 3  # as dealt, Alice's declaration, Bob's
    assert "**Alice**: declare poker" in pages[1] and "revealed" in pages[2]

    page = carol.ephemerals(general)[-1]
    knew = await carol.select(page, custom_id=page.selects()[0].custom_id,
                              values=["What Alice knew"])
    assert knew.message is not None and "What Alice knew" in knew.message.text
    assert "Every hand" not in knew.message.text

    stats = await alice.slash(general, "stats")
    assert game_id in (stats.message.text if stats.message else "")
    text = await export(bob, general, "sppoker", game_id)
    notation = parse(text)
    assert notation.game == "sppoker" and notation.names == ("Alice", "Bob")
    assert notation.tags["Table"] == game_id and notation.moves == 2
    assert len(Replayer(notation)) == len(pages)
    missing = await alice.slash(general, "replay game:ffffffff")
    assert "No finished game" in missing.text and missing.ephemeral
    discord.assert_no_errors()


@pytest.mark.loopback(rate_limits=False)
async def test_a_finished_chicago_game_replays_move_by_move(world: World) -> None:
    discord = world.discord
    alice, bob = discord.user("alice"), discord.user("bob")
    games = discord.channel("games")
    await open_table(discord, alice, games, "chicago start", [bob])
    player = AutoPlayer(discord, games, [alice, bob], seed=31)
    await player.play()

    game_id, pages = await step_through(discord, bob, games)
    assert len(pages) >= len(player.moves) + 1  # every move the players made, and more
    deals = {int(found) for page in pages
             for found in re.findall(r"^Deal (\d+) · ", page, re.MULTILINE)}
    assert len(deals) > 1 and min(deals) == 1

    page = bob.ephemerals(games)[-1]
    jump = next(select for select in page.selects() if select.placeholder == "Jump to a deal")
    second = await bob.select(page, custom_id=jump.custom_id, values=["Deal 2"])
    assert second.message is not None
    assert second.message.text.split("\n")[1].startswith("Deal 2 · move ")
    assert "Every hand, face up" in second.message.text

    text = await export(alice, games, "chicago", game_id)
    notation = parse(text)
    assert notation.names == ("Alice", "Bob") and len(Replayer(notation)) == len(pages)
    discord.assert_no_errors()


async def test_a_dealers_choice_session_replays_each_deal_on_its_seats_and_stacks(
        world: World) -> None:
    """Two deals, Carol sitting down between them; after End, the replay's deals are the
    session's, each on the seats and stacks it was dealt on."""
    discord = world.discord
    alice, bob, carol = discord.user("alice"), discord.user("bob"), discord.user("carol")
    general = discord.channel("general")
    await open_table(discord, alice, general, "dealers-choice start buy_in:60", [bob])
    player = AutoPlayer(discord, general, [alice, bob], seed=7)
    prompt = await wait_dm_button(discord, alice, "Red Dog")
    await alice.click(prompt, label="Red Dog")
    await player.play(until=lambda: deals_done(general) >= 1)
    await discord.wait_for(lambda: cash_board(general) is not None, timeout=20)
    board = cash_board(general)
    assert board is not None
    await carol.click(board, label="Join")
    player = AutoPlayer(discord, general, [alice, bob, carol], seed=8)
    await next_deal(world, general, [alice, bob, carol])
    prompt = await wait_dm_button(discord, bob, "Badugi")
    await bob.click(prompt, label="Badugi")
    await player.play(until=lambda: deals_done(general) >= 2)
    await discord.wait_for(lambda: cash_board(general) is not None, timeout=20)
    board = cash_board(general)
    assert board is not None
    await alice.click(board, label="End")
    await discord.wait_for(lambda: any(m.button("Replay") for m in general.messages()))

    final = final_message(general)
    assert "Alice ended the table" in final.text
    opened = await carol.click(final, label="Replay")
    page = opened.message
    assert page is not None and "Deal 1 of 2 · as dealt" in page.text
    jump = next(select for select in page.selects() if select.placeholder == "Jump to a deal")
    second = await carol.select(page, custom_id=jump.custom_id, values=["Deal 2"])
    page = second.message
    assert page is not None and "Deal 2 of 2 · as dealt" in page.text
    assert "Carol:" in page.text and "Bob chooses" not in page.text
    stepped = await carol.click(page, label="▶")
    assert stepped.message is not None and "**Bob**: choose badugi" in stepped.message.text
    last = await carol.click(stepped.message, label="⏭")
    assert last.message is not None and "🏁" in last.message.text

    game_id = REPLAY_ID.search(final.text)
    assert game_id is not None
    notation = parse(await export(alice, general, "dealers_choice", game_id["id"]))
    one, two = notation.deals
    assert one.names == ("Alice", "Bob") and two.names == ("Alice", "Bob", "Carol")
    assert one.options["stacks"] == [60, 60] and sum(two.options["stacks"]) == 180
    assert two.options["stacks"][2] == 60 and two.options["button"] == 1
    assert one.moves[0].action.args == ("red_dog",)
    discord.assert_no_errors()
