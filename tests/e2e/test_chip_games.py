"""The chip games through the real bot: cash tables that carry stacks from deal to deal.

Badugi with three people and an AI seat on short stacks (so all-ins and side pots come),
killed -9 during a betting round; Red Dog until its pot is empty; after each, the ledger adds
up to every balance and no chip was made or lost.
"""

from __future__ import annotations

import sqlite3

from loopback.handles import ChannelHandle, UserHandle
from loopback.models import Message
from tests.e2e.conftest import World
from tests.e2e.helpers import AutoPlayer, channel_text, open_table, wait_dm_button

STARTING = 1000


def deal_overs(channel: ChannelHandle) -> list[Message]:
    return [m for m in channel.messages() if not m.deleted and "Deal over:" in m.text]


def cash_board(channel: ChannelHandle) -> Message | None:
    """The board between deals: the newest message with a Next deal button."""
    for message in reversed(channel.messages()):
        if not message.deleted and message.button("Next deal") is not None:
            return message
    return None


async def next_deal(world: World, channel: ChannelHandle, people: list[UserHandle]) -> None:
    """Press Next deal; whoever is out of chips rebuys first, as the bot asks."""
    discord = world.discord
    await discord.wait_for(lambda: cash_board(channel) is not None, timeout=20)
    board = cash_board(channel)
    assert board is not None
    answer = await people[0].click(board, label="Next deal")
    if "must rebuy" in answer.text:
        for person in people:
            if person.name.title() in answer.text:
                await person.click(board, label="Rebuy")
        answer = await people[0].click(board, label="Next deal")
    assert "is dealt" in answer.text, answer.text


def check_ledger(world: World, people: list[UserHandle]) -> None:
    """Every balance is its ledger's sum, and no table is left holding anyone's chips."""
    with sqlite3.connect(world.database) as db:
        rows = db.execute(
            "SELECT b.user_id, b.balance, (SELECT sum(delta) FROM chip_ledger l"
            " WHERE l.guild_id = b.guild_id AND l.user_id = b.user_id) FROM chip_balances b"
        ).fetchall()
        open_tables = db.execute("SELECT count(*) FROM table_snapshots").fetchone()[0]
    assert len(rows) == len(people)
    assert all(balance == total for _, balance, total in rows), rows
    assert open_tables == 0


async def test_badugi_three_people_and_an_ai_with_side_pots_across_a_kill_9(
        world: World) -> None:
    discord, bot = world.discord, world.bot
    alice, bob, carol = discord.user("alice"), discord.user("bob"), discord.user("carol")
    people = [alice, bob, carol]
    general = discord.channel("general")
    await open_table(discord, alice, general, "badugi start buy_in:30", [bob, carol], ai=1)
    player = AutoPlayer(discord, general, people, seed=3)

    await player.play(until=lambda: len(deal_overs(general)) >= 1)
    await next_deal(world, general, people)
    moves = len(player.moves)
    await player.play(until=lambda: len(player.moves) >= moves + 2
                      or len(deal_overs(general)) >= 2)
    await bot.restart()  # kill -9 in the middle of deal 2's betting
    await discord.wait_for(lambda: "back exactly where it was" in channel_text(general))
    await player.play(until=lambda: len(deal_overs(general)) >= 2)
    deals = 2
    while "Side pot" not in channel_text(general) and deals < 12:
        await next_deal(world, general, people)
        deals += 1
        await player.play(until=lambda deals=deals: len(deal_overs(general)) >= deals)
    assert "Side pot" in channel_text(general), "no all-in made a side pot in 12 deals"
    assert len(deal_overs(general)) == deals  # each deal's end told once

    await discord.wait_for(lambda: cash_board(general) is not None, timeout=20)
    board = cash_board(general)
    assert board is not None
    ended = await alice.click(board, label="End")
    assert "everyone's chips went back" in ended.text
    await bot.stop()
    check_ledger(world, people)


async def test_red_dog_until_the_pot_is_empty(world: World) -> None:
    discord, bot = world.discord, world.bot
    alice, bob = discord.user("alice"), discord.user("bob")
    people = [alice, bob]
    general = discord.channel("general")
    await open_table(discord, alice, general, "reddog start buy_in:50 ante:2", [bob], ai=1)
    player = AutoPlayer(discord, general, people, seed=9)

    def pots_over() -> list[Message]:
        return [m for m in general.messages() if "Final stacks" in m.text]

    games = 1
    await player.play(until=lambda: pots_over())
    # A pot can also end shared (a round nobody bets in); play on until one is emptied.
    while "The pot is empty." not in channel_text(general) and games < 10:
        await next_deal(world, general, people)
        games += 1
        await player.play(until=lambda games=games: len(pots_over()) >= games)
    assert "The pot is empty." in channel_text(general)
    await discord.wait_for(lambda: cash_board(general) is not None, timeout=20)
    board = cash_board(general)
    assert board is not None
    await alice.click(board, label="End")
    await bot.stop()
    check_ledger(world, people)


def deals_done(channel: ChannelHandle) -> int:
    """Deals told finished: a Badugi deal's end or a Red Dog pot's final stacks."""
    return sum(1 for m in channel.messages()
               if not m.deleted and ("Deal over:" in m.text or "Final stacks" in m.text))


async def test_a_dealers_choice_session_of_three_deals_with_a_player_joining(
        world: World) -> None:
    discord, bot = world.discord, world.bot
    alice, bob, carol = discord.user("alice"), discord.user("bob"), discord.user("carol")
    general = discord.channel("general")
    await open_table(discord, alice, general, "dealers-choice start buy_in:60", [bob], ai=1)
    player = AutoPlayer(discord, general, [alice, bob], seed=4)

    async def dealer_chooses(dealer: UserHandle, game: str) -> None:
        prompt = await wait_dm_button(discord, dealer, game)
        await dealer.click(prompt, label=game)
        await discord.wait_for(lambda: f"chooses {game}" in channel_text(general))

    await dealer_chooses(alice, "Badugi")  # the first dealer is the host's seat
    await player.play(until=lambda: deals_done(general) >= 1)

    await discord.wait_for(lambda: cash_board(general) is not None, timeout=20)
    board = cash_board(general)
    assert board is not None
    joined = await carol.click(board, label="Join")
    assert "sat down with 60 chips" in joined.text
    player = AutoPlayer(discord, general, [alice, bob, carol], seed=5)
    await next_deal(world, general, [alice, bob, carol])
    await dealer_chooses(bob, "Red Dog")  # the deal has passed to the left
    await player.play(until=lambda: deals_done(general) >= 2)

    await next_deal(world, general, [alice, bob, carol])  # the AI deals: it picks at random
    await discord.wait_for(lambda: channel_text(general).count(" chooses ") >= 3, timeout=20)
    await player.play(until=lambda: deals_done(general) >= 3)
    text = channel_text(general)
    assert "Alice chooses Badugi" in text and "Bob chooses Red Dog" in text
    assert "AI 1 chooses" in text

    await discord.wait_for(lambda: cash_board(general) is not None, timeout=20)
    board = cash_board(general)
    assert board is not None
    await alice.click(board, label="End")
    await bot.stop()
    check_ledger(world, [alice, bob, carol])
