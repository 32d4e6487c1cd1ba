"""kill -9 at each boundary of a step a player saw succeed: after the save, before anything
was sent; and in the middle of sending. After the restart every message of the step is in
the channel and the DMs exactly once, the game's end included. And `/table abort` while
Discord holds the board's post back still leaves a board that reads "aborted".

Sppoker at target 1: when both players declare poker, the last click reveals the hand and
ends the game, so one click's step holds a reveal, the game's end, the final board and
everyone's last letter. Poke: a deal's last card holds the deal's end, its picture, the next
deal's hands and prompts.
"""

from __future__ import annotations

from loopback.handles import ChannelHandle, UserHandle
from loopback.models import Message
from tests.e2e.conftest import World
from tests.e2e.helpers import AutoPlayer, channel_text, open_table, wait_dm_button

CHANNEL_POSTS = r"/channels/\d+/messages$"


def live(channel: ChannelHandle) -> list[Message]:
    return [m for m in channel.messages() if not m.deleted]


def reveals(channel: ChannelHandle) -> list[Message]:
    return [m for m in live(channel)
            if any(str(e.get("title", "")).startswith("Hand 1 revealed") for e in m.embeds)]


def endings(channel: ChannelHandle) -> list[Message]:
    return [m for m in live(channel) if "won the game" in m.text or "playoff" in m.text.lower()]


def last_letters(user: UserHandle) -> list[Message]:
    """The DMs that close the game for this player (the final view, no buttons)."""
    return [m for m in user.dms() if "revealed" in m.text.lower() or "won" in m.text]


async def both_declare_poker(world: World) -> tuple[UserHandle, UserHandle, ChannelHandle]:
    discord = world.discord
    alice, bob = discord.user("alice"), discord.user("bob")
    general = discord.channel("general")
    await open_table(discord, alice, general, "sppoker start target:1", [bob])
    await wait_dm_button(discord, alice, "Poker")
    await wait_dm_button(discord, bob, "Poker")
    await alice.click_dm(label="Poker")
    await discord.wait_for(lambda: "Alice has declared" in channel_text(general))
    return alice, bob, general


async def check_told_exactly_once(world: World, general: ChannelHandle,
                                  people: list[UserHandle]) -> None:
    discord = world.discord
    await discord.wait_for(lambda: endings(general), timeout=40,
                           message=lambda: f"the game's end was never told:\n"
                                           f"{channel_text(general)[-800:]}")
    await discord.wait_for(lambda: len(reveals(general)) >= 1, timeout=10)
    await world.bot.stop()  # whatever was still to send has had its chance
    assert len(reveals(general)) == 1, [m.text for m in reveals(general)]
    assert len(endings(general)) == 1, [m.text for m in endings(general)]
    texts = [m.text for m in live(general)]
    assert len(texts) == len(set(texts)) or all(
        texts.count(text) == 1 for text in texts if "won the game" in text)
    for person in people:
        dms = [m.text for m in person.dms()]
        assert len(dms) == len(set(dms)), f"{person.name} got a DM twice: {dms}"


async def test_kill_9_after_the_save_before_anything_is_sent(world: World) -> None:
    discord = world.discord
    alice, bob, general = await both_declare_poker(world)
    # Discord holds every new message back (a long 429), so nothing of the next step leaves.
    discord.fail_next("POST", CHANNEL_POSTS, 429, count=1000, retry_after=60)
    posted = len(live(general))
    answer = await bob.click_dm(label="Poker")
    assert not answer.ephemeral or "out of date" not in answer.text  # he saw it succeed
    await world.bot.kill()
    assert len(live(general)) == posted  # nothing of the step reached the channel
    discord.server.faults.clear()
    await world.bot.start()
    await check_told_exactly_once(world, general, [alice, bob])


async def test_kill_9_in_the_middle_of_sending(world: World) -> None:
    discord = world.discord
    alice, bob, general = await both_declare_poker(world)
    await bob.click_dm(label="Poker")
    await discord.wait_for(lambda: reveals(general), timeout=15)
    await world.bot.kill()  # the reveal is out; the rest of the step may not be
    await world.bot.start()
    await check_told_exactly_once(world, general, [alice, bob])


async def test_abort_while_the_board_post_is_held_leaves_an_aborted_board(world: World) -> None:
    discord = world.discord
    alice, bob = discord.user("alice"), discord.user("bob")
    general = discord.channel("general")
    discord.fail_next("POST", CHANNEL_POSTS, 429, count=1, retry_after=2)
    await open_table(discord, alice, general, "sppoker start target:1", [bob])
    aborted = await alice.slash(general, "table abort")
    assert "aborted" in aborted.message.text

    def boards() -> list[Message]:
        return [m for m in live(general) if m.button("Show my hand") is not None
                or "aborted" in m.text]

    await discord.wait_for(
        lambda: any("this table was aborted" in m.text for m in live(general)), timeout=20,
        message=lambda: f"no aborted board: {[m.text for m in live(general)]}")
    assert not [m for m in live(general) if "Waiting for" in m.text], \
        "a board still says the game is on"
    assert all(m.button("Show my hand") is None for m in boards()
               if "this table was aborted" in m.text)


# --- a Poke deal: its end is the one step that posts in the channel ----------------------


def deal_ends(channel: ChannelHandle) -> list[Message]:
    """The channel messages that close a deal (they carry the hands' picture)."""
    return [m for m in live(channel) if any(a.filename == "hands.png" for a in m.attachments)]


async def poke_table(world: World) -> tuple[AutoPlayer, ChannelHandle]:
    discord = world.discord
    alice, bob = discord.user("alice"), discord.user("bob")
    general = discord.channel("general")
    await open_table(discord, alice, general, "poke start", [bob])
    return AutoPlayer(discord, general, [alice, bob], seed=5), general


async def play_on_and_check_once(player: AutoPlayer, general: ChannelHandle) -> None:
    """The next deal is played through the same buttons; the killed deal's end was told
    exactly once, and so was the next one's."""
    await player.play(until=lambda: len(deal_ends(general)) >= 2 or player.winners())
    texts = [m.text for m in deal_ends(general)]
    assert len(texts) == len(set(texts)) >= 1, f"a deal's end was told twice: {texts}"


async def test_kill_9_after_a_poke_deal_is_saved_before_its_end_is_posted(world: World) -> None:
    discord = world.discord
    player, general = await poke_table(world)
    await discord.wait_for(lambda: player.board() is not None)
    # Ordinary moves edit the live board; only the deal's end posts a new channel message.
    # Discord holds that post back (a long 429), so the deal is saved and nothing of its end
    # is out when the bot is killed.
    held = 1000
    discord.fail_next("POST", rf"/channels/{general.id}/messages$", 429, count=held,
                      retry_after=60)
    await player.play(until=lambda: discord.server.faults.pending() < held)
    assert not deal_ends(general)
    await world.bot.kill()
    discord.server.faults.clear()
    await world.bot.start()
    await discord.wait_for(lambda: deal_ends(general), timeout=20)
    await play_on_and_check_once(player, general)


async def test_kill_9_while_a_poke_deal_end_is_being_sent(world: World) -> None:
    player, general = await poke_table(world)
    await player.play(until=lambda: deal_ends(general))
    await world.bot.kill()  # the deal's end is out; its board and letters may not be
    await world.bot.start()
    await play_on_and_check_once(player, general)
