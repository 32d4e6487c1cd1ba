"""Stakes and clocks set on `start`, through the real bot and the loopback Discord (issue 23:
the rules pages named `ante`, `small_bet`, `big_bet`, `declare_seconds`, `last_seconds` and
nobody could set them): each reaches the lobby, in words, and the game itself; a value the
bot refuses, alone or as a pair that does not go together, is answered privately with what
it accepts, and nothing is opened or charged."""

from __future__ import annotations

import asyncio
import re

from loopback.handles import ChannelHandle, UserHandle
from loopback.models import Message
from tests.e2e.conftest import World
from tests.e2e.crafted import crafted_slash, plain
from tests.e2e.helpers import channel_text
from tests.support.autoplay import lobby_message, open_table
from tests.support.rawdb import fetch_one

DEADLINE = re.compile(r"<t:(\d+):R>")


def versions(channel: ChannelHandle) -> list[tuple[str, float]]:
    """Every text the channel's messages showed, each with when it was shown."""
    shown = []
    for message in channel.messages(include_deleted=True):
        shown += [(version.content, version.at) for version in message.history]
        shown.append((message.content, message.edited_at or message.created_at))
    return shown


def options_line(lobby: Message) -> str:
    return next((line for line in lobby.content.splitlines() if line.startswith("Options: ")),
                "")


async def tables_open(world: World) -> int:
    (count,) = await fetch_one(world.database, "SELECT count(*) FROM table_snapshots")
    return int(count)


async def test_holdem_sppoker_blinds_bets_and_declaring_clocks_from_start(
        world: World) -> None:
    """Blinds 2/4, bets 4/8, 300 s to declare and 20 s for the last: the lobby lists them,
    the board plays them (a pot of 8 when both call the big blind and check), the table's
    declaring clock is 300 s (120 by default) and the last person is told 20 s."""
    discord, bot = world.discord, world.bot
    alice, bob = discord.user("alice"), discord.user("bob")
    general = discord.channel("general")
    await open_table(discord, alice, general,
                     "holdem-sppoker start buy_in:100 small_blind:2 big_blind:4 small_bet:4 "
                     "big_bet:8 declare_seconds:300 last_seconds:20", [bob], start=False)
    lobby = lobby_message(general)
    line = options_line(lobby)
    assert re.fullmatch(r"Options: English( \(United States\))? dictionary · blinds 2/4 · "
                        r"bets 4/8 · 300 s to declare · 20 s for the last to declare", line), \
        lobby.content
    await alice.click(lobby, label="Start")

    def waiting(user: UserHandle) -> Message | None:
        dms = [m for m in user.dms() if m.buttons()]
        return dms[-1] if dms else None

    declared: set[str] = set()
    while "Showdown" not in channel_text(general):
        await discord.wait_for(lambda: any(waiting(u) for u in (alice, bob))
                               or "Showdown" in channel_text(general), timeout=20)
        user = next((u for u in (alice, bob) if waiting(u) and u.name not in declared), None)
        prompt = waiting(user) if user is not None else None
        if user is None or prompt is None:
            await asyncio.sleep(0.05)  # let the bot's messages arrive
            continue
        labels = [b.label or "" for b in prompt.buttons()]
        if "Poker" not in labels:
            move = next(label for label in labels if label.startswith(("Check", "Call")))
            await user.click(prompt, label=move)
            continue
        if not declared:  # the first to declare: the table's clock is running for both
            await discord.wait_for(lambda: any(
                "have chosen" in text and DEADLINE.search(text)
                for text, _ in versions(general)), timeout=20)
        await user.click(prompt, label="Poker")
        declared.add(user.name)

    shown = versions(general)
    assert any("blinds 2/4, bets 4/8 · **pot 8**" in text for text, _ in shown), shown[-3:]
    # The table's clock, as the board showed it while both were declaring: 300 s from then
    # (less what the board's edit waited for), never the default 120.
    left = [int(match.group(1)) - at for text, at in shown if "0 of 2 have chosen" in text
            for match in [DEADLINE.search(text)] if match]
    assert left and 120 < max(left) <= 301, left
    last = [m for m in (alice.dms() + bob.dms())
            if "Everyone else has declared" in m.text
            or any("Everyone else has declared" in v.content for v in m.history)]
    assert last, "the last person was not told their seconds"
    told = " ".join([last[0].text, *(v.content for v in last[0].history)])
    assert "within 20 seconds" in told, told
    await bot.stop()


async def test_an_ante_and_bets_from_start_are_what_the_first_deal_plays(world: World) -> None:
    discord = world.discord
    alice, bob = discord.user("alice"), discord.user("bob")
    general = discord.channel("general")
    await open_table(discord, alice, general, "badugi start ante:3 small_bet:15 big_bet:30",
                     [bob], ai=1, start=False)
    lobby = lobby_message(general)
    assert options_line(lobby) == "Options: ante 3 · bets 15/30", lobby.content
    await alice.click(lobby, label="Start")
    await discord.wait_for(lambda: any("ante 3, bets 15/30 · **pot 9**" in text
                                       for text, _ in versions(general)), timeout=20)
    aborted = await alice.slash(general, "table abort")
    assert aborted.message is not None and "aborted" in aborted.message.text, aborted.text


async def test_refused_stakes_open_nothing_and_say_what_is_accepted(world: World) -> None:
    """A value out of its range (as a modified client sends it), a pair that does not go
    together (which Discord's client lets through: each is in its range) and a Red Dog ante
    above the buy-in: each answered privately, naming the options as the reader's Discord
    does, with no lobby, no table and no chip moved."""
    discord = world.discord
    alice = discord.user("alice")
    general = discord.channel("general")
    before = await alice.slash(general, "chips balance")

    out_of_range = await crafted_slash(discord, alice, general, "badugi start", ante=-1)
    assert out_of_range.ephemeral
    assert plain(out_of_range) == "**ante** takes a whole number from 0 to 1000; -1 is not one."
    apart = await alice.slash(general, "zero-to-55 start small_bet:30 big_bet:20")
    assert apart.ephemeral
    assert plain(apart) == ("**small_bet** (30) can't be more than **big_bet** (20): choose a "
                            "smaller small_bet or a larger big_bet."), apart.text
    alone = await alice.slash(general, "holdem-sppoker start big_blind:15")
    assert alone.ephemeral and "**big_blind** (15) can't be more than **small_bet** (10)" \
        in plain(alone), alone.text

    alice.user.locale = "sv-SE"  # a Swedish client names the options in Swedish
    swedish = await alice.slash(general, "reddog start ante:300")
    assert swedish.ephemeral
    assert plain(swedish) == ("**ante** (300) får inte vara mer än **insats** (200): sänk ante "
                              "eller höj insats."), swedish.text

    assert not [m for m in general.messages() if not m.ephemeral and m.buttons()]
    assert await tables_open(world) == 0
    alice.user.locale = "en-US"
    after = await alice.slash(general, "chips balance")
    assert after.text == before.text
    discord.assert_no_errors()
