"""Pyramid Po-Ke-No through the real bot, by its buttons and menus, at Discord's pace.

Two people and an AI play a game to its end across a kill -9, while a watch makes sure the
channel never shows a face-down card: no card ever appears in a public message's text, and
the only public pictures and card-bearing boxes are the pyramids revealed at a round's end.
Then two people play their own solitaires side by side in one channel.
"""

from __future__ import annotations

import asyncio
import re
from typing import Any

from loopback import LoopbackDiscord
from loopback.handles import ChannelHandle, UserHandle
from loopback.models import Message
from tests.e2e.conftest import World
from tests.e2e.helpers import AutoPlayer, channel_text, open_table, settle
from tests.support.autoplay import PRIVATE_MARK

CARD = re.compile(r"(?:10|[2-9JQKA])[♣♦♥♠]|🃏")
RESTARTED = "back exactly where it was"
REVEAL_TITLE = re.compile(r"pyramid: -?\d+ points this round|pyramid scores")


class FaceDownWatch:
    """Fails the moment the channel shows a card outside a round's reveal: in any version of
    any public message's text, in a box that is not a revealed pyramid, or as a picture that
    is not one. Each version of a message is checked once."""

    def __init__(self, discord: LoopbackDiscord, channel: ChannelHandle) -> None:
        self.discord, self.channel = discord, channel
        self.checks = 0
        self.seen: dict[int, int] = {}  # message id: versions checked
        self.reveals: set[int] = set()

    def check(self, *_: object) -> None:
        self.checks += 1
        for message in list(self.discord.state.messages.values()):
            if message.channel_id != self.channel.id or message.visible_to is not None:
                continue
            versions = [*message.history, message]
            done = self.seen.get(message.id, 0)
            if done == len(versions) and done:
                continue
            # The current message is checked again until a newer version replaces it.
            for version in versions[max(done - 1, 0):]:
                self.check_version(version)
            self.seen[message.id] = len(versions)
            if any(REVEAL_TITLE.search(str(e.get("title"))) for e in message.embeds):
                self.reveals.add(message.id)

    @staticmethod
    def check_version(version: Any) -> None:
        shown = CARD.findall(version.content)
        assert not shown, f"the channel shows {shown}: {version.content[:600]!r}"
        revealed = [e for e in version.embeds if REVEAL_TITLE.search(str(e.get("title")))]
        boxed = [e for e in version.embeds if e not in revealed and
                 CARD.search(f"{e.get('title')}\n{e.get('description')}")]
        assert not boxed, f"cards in a box that is no reveal: {boxed}"
        names = [attachment.filename for attachment in version.attachments]
        assert "pyramid.png" not in names, "a private pyramid was posted"
        if names:
            assert all(name.startswith("pyramid-") for name in names), names
            assert revealed, "a picture of the pyramids without the reveal"
        # Each pyramid's box shows its own pyramid (issue 23: all showed the first seat's).
        shown = [str((e.get("image") or {}).get("url")) for e in revealed]
        assert shown == [f"attachment://{name}" for name in names[:len(revealed)]], shown


def moves_done(player: AutoPlayer, count: int) -> bool:
    return player.winners() is not None or (len(player.moves) >= count
                                            and bool(player.pending()))


async def test_pokeno_two_people_and_an_ai_across_a_kill_9(world: World) -> None:
    discord, bot = world.discord, world.bot
    alice, bob = discord.user("alice"), discord.user("bob")
    general = discord.channel("general")
    await open_table(discord, alice, general, "pokeno start target:60", [bob], ai=1)
    player = AutoPlayer(discord, general, [alice, bob], seed=13)
    watch = FaceDownWatch(discord, general)
    player.on_move.append(watch.check)

    await player.play(until=lambda: moves_done(player, 12))
    await settle(discord, world.database)  # every prompt of before the kill is out
    last_before_kill = max(discord.state.messages)
    before = len(player.moves)
    await bot.restart()  # kill -9, then start again
    await discord.wait_for(lambda: RESTARTED in channel_text(general),
                           message="#general was not told the table is back")

    await player.play()

    watch.check()
    assert watch.reveals, "no round was revealed"
    first_after = player.moves[before:][:1]
    assert all(move.message_id <= last_before_kill for move in first_after), (
        "the first answer after the kill was not to a prompt shown before it")
    text = channel_text(general)
    assert "placed" in text and "face down" in text
    assert "Round 1 is over" in text
    for user in (alice, bob):  # each got their own pyramid, as a picture, by DM
        assert any(a.filename == "pyramid.png" for m in user.dms() for a in m.attachments)
    answer = await alice.slash(general, "leaderboard game:pokeno")
    board = answer.message.text.replace("*", "") if answer.message else ""
    assert "Alice" in board and "Bob" in board
    discord.assert_no_errors()


SO_FAR = re.compile(r"\((?P<played>\d) so far\)")
SPACE_BUTTON = re.compile(r" \d/\d$")


def newest_prompt(user: UserHandle) -> Message | None:
    for message in reversed(user.dms()):
        if PRIVATE_MARK in message.content:
            return message if message.selects() or message.buttons() else None
    return None


async def play_solitaire(discord: LoopbackDiscord, user: UserHandle) -> int:
    """A quick, plain player: each turn picks three cards at once, puts them on the first
    space with room (or discards them), and ends the turn. The number of clicks."""
    await discord.wait_for(lambda: newest_prompt(user) is not None,
                           message=f"{user.name} never got a solitaire prompt")
    message = newest_prompt(user)
    clicks = 0
    while message is not None and (message.buttons() or message.selects()):
        buttons = [b for b in message.buttons() if not b.disabled and b.label]
        end = next((b for b in buttons if str(b.label).startswith("End turn")), None)
        spaces = [b for b in buttons if SPACE_BUTTON.search(str(b.label))]
        discard = next((b for b in buttons if b.label == "Discard"), None)
        found = SO_FAR.search(message.content)
        played = int(found["played"]) if found else 0
        if spaces or discard is not None:
            target = spaces[0] if spaces else discard
            assert target is not None
            result = await user.click(message, custom_id=target.custom_id)
        elif played >= 3 or not message.selects():
            assert end is not None
            result = await user.click(message, custom_id=end.custom_id)
        else:
            menu = message.selects()[0]
            count = max(1, min(3 - played, menu.max_values))
            result = await user.select(message, custom_id=menu.custom_id,
                                       values=[o.value for o in menu.options[:count]])
        clicks += 1
        assert result.response == "update_message", (result.text, message.content)
        message = result.message
        assert clicks < 400, "the solitaire did not end"
    return clicks


async def test_two_people_play_their_own_solitaires_at_once_in_one_channel(
        world: World) -> None:
    discord = world.discord
    alice, bob = discord.user("alice"), discord.user("bob")
    general = discord.channel("general")
    await alice.slash(general, "pokeno solitaire")
    await bob.slash(general, "pokeno solitaire")
    again = await alice.slash(general, "pokeno solitaire")
    assert again.text and "Your own table" in again.text
    watch = FaceDownWatch(discord, general)

    clicks = await asyncio.gather(play_solitaire(discord, alice), play_solitaire(discord, bob))

    assert all(count > 16 for count in clicks)
    for name in ("Alice", "Bob"):
        await discord.wait_for(lambda name=name: f"🏆 **{name}** won" in channel_text(general),
                               message=f"{name}'s solitaire did not end in the channel")
    watch.check()
    text = channel_text(general)
    assert "Alice's pyramid scores" in text and "Bob's pyramid scores" in text
    answer = await alice.slash(general, "leaderboard game:pokeno_solitaire")
    board = answer.message.text.replace("*", "") if answer.message else ""
    assert "Alice" in board and "Bob" in board
    stats = await bob.slash(general, "stats")
    assert stats.message is not None and "best score" in stats.message.text
    discord.assert_no_errors()
