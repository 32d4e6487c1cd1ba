"""The chip games through the real bot: cash tables that carry stacks from deal to deal.

Badugi with three people and an AI seat on short stacks (so all-ins and side pots come),
killed -9 during a betting round; Red Dog until its pot is empty; after each, the ledger adds
up to every balance and no chip was made or lost.
"""

from __future__ import annotations

import asyncio
import re

from engine.words import get_finder
from loopback.handles import ChannelHandle, UserHandle
from loopback.models import Message
from tests.e2e.cash_tables import cash_board, deal_overs, deals_done, next_deal
from tests.e2e.conftest import World
from tests.e2e.helpers import AutoPlayer, channel_text, open_table, wait_dm_button
from tests.support.rawdb import fetch, fetch_one

STARTING = 1000


async def check_ledger(world: World, people: list[UserHandle]) -> None:
    """Every balance is its ledger's sum, and no table is left holding anyone's chips."""
    rows = await fetch(
        world.database,
        "SELECT b.user_id, b.balance, (SELECT sum(delta) FROM chip_ledger l"
        " WHERE l.guild_id = b.guild_id AND l.user_id = b.user_id) FROM chip_balances b",
    )
    (open_tables,) = await fetch_one(world.database, "SELECT count(*) FROM table_snapshots")
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
    # Nobody folds while anything else is accepted: on 30-chip stacks with 10/20 bets the
    # stacks run out within a deal or two, and all-ins of different sizes make side pots.
    player = AutoPlayer(discord, general, people, seed=3, last_resort=("Fold",))

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
    assert any(a.filename == "showdown.png" for m in general.messages()
               for a in m.attachments), "no showdown picture"

    await discord.wait_for(lambda: cash_board(general) is not None, timeout=20)
    board = cash_board(general)
    assert board is not None
    ended = await alice.click(board, label="End")
    assert "everyone's chips went back" in ended.text
    await bot.stop()
    await check_ledger(world, people)


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
    await check_ledger(world, people)


def choices_made(channel: ChannelHandle) -> int:
    """Dealers' choices told: "Bob chooses Red Dog", not "Bob deals and chooses the game"."""
    text = channel_text(channel)
    return text.count(" chooses ") - text.count(" deals and chooses the game")


async def test_a_dealers_choice_session_of_three_deals_with_a_player_joining(
        world: World) -> None:
    discord, bot = world.discord, world.bot
    alice, bob, carol = discord.user("alice"), discord.user("bob"), discord.user("carol")
    general = discord.channel("general")
    await open_table(discord, alice, general, "dealers-choice start buy_in:60", [bob], ai=1)
    player = AutoPlayer(discord, general, [alice, bob], seed=4)

    async def dealer_chooses(dealer: UserHandle, game: str) -> None:
        prompt = await wait_dm_button(discord, dealer, game)
        offered = {button.label for button in prompt.buttons()}
        assert {"Badugi", "Red Dog", "Hold'em Sppoker", "Spew", "Old Man 49er",
                "Zero to 55"} <= offered, offered  # every chip game for this many players
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

    await next_deal(world, general, [alice, bob, carol])  # the AI deals and picks at random
    await discord.wait_for(lambda: choices_made(general) >= 3, timeout=20)
    await player.play(until=lambda: deals_done(general) >= 3)
    # Each choice is a message of its own, still there (not only a board line edited away).
    text = "\n".join(message.text for message in general.messages())
    assert "Alice chooses Badugi" in text and "Bob chooses Red Dog" in text
    # The third deal is the next seat's: the AI's, or Carol's if the AI went broke and left.
    assert "AI 1 chooses" in text or "Carol chooses" in text

    await discord.wait_for(lambda: cash_board(general) is not None, timeout=20)
    board = cash_board(general)
    assert board is not None
    await alice.click(board, label="End")
    await bot.stop()
    await check_ledger(world, [alice, bob, carol])


async def test_old_man_49er_across_a_kill_9_after_the_reveal_orders_are_fixed(
        world: World) -> None:
    """Nothing face down and no declaration reaches the channel before the rules show it:
    every public message is checked against the cards each person holds face down."""
    discord, bot = world.discord, world.bot
    alice, bob = discord.user("alice"), discord.user("bob")
    people = [alice, bob]
    general = discord.channel("general")
    await open_table(discord, alice, general, "old-man-49er start buy_in:100", [bob], ai=1)
    player = AutoPlayer(discord, general, people, seed=7)
    checks = []

    def no_face_down_card_is_public(_move: object) -> None:
        public = "\n".join(m.text for m in general.messages())
        board = player.board()
        for person in people:
            views = [m.text for m in person.dms() if "Your cards: " in m.text]
            if not views or board is None:
                continue
            cards = views[-1].split("Your cards: ")[1].split(" — ")[0].split()
            row = next((line for line in board.content.splitlines()
                        if line.startswith(person.name.title() + " ")), "")
            exposed = row.split(": ", 1)[1].split(" + ")[0].split() if ": " in row else []
            down = [card for card in cards if card not in exposed]
            leaked = [card for card in down if card in public]
            assert not leaked, f"{person.name}'s face-down {leaked} in the channel"
            checks.append(person.name)
        # Sealed declarations: the board says who has declared, and which side only once all
        # have (never some sides while others are still to declare).
        rows = [line for line in (board.content if board else "").splitlines()
                if " down" in line]  # the seats' rows
        text = "\n".join(rows)
        sides = re.findall(r"declared (?:high|low|both)", text)
        waiting = re.findall(r"declared(?! (?:high|low|both))", text)
        assert not (sides and waiting), text

    player.on_move.append(no_face_down_card_is_public)

    def orders_fixed() -> bool:
        """Every order is fixed (seen on any version of the board: the deal may even be over
        already, when everyone but one folds at once)."""
        return cash_board(general) is not None or any(
            text.count("order fixed") >= 3 for m in general.messages(include_deleted=True)
            for text in [m.text, *(v.content for v in m.history)])

    await player.play(until=orders_fixed)
    await bot.restart()
    await discord.wait_for(lambda: "back exactly where it was" in channel_text(general))
    await player.play(until=lambda: cash_board(general) is not None)  # the deal is over
    assert len(checks) > 10  # the watch looked at every move

    await discord.wait_for(lambda: cash_board(general) is not None, timeout=20)
    board = cash_board(general)
    assert board is not None
    await alice.click(board, label="End")
    await bot.stop()
    await check_ledger(world, people)


async def test_spew_with_people_and_an_ai_to_the_end_of_a_deal(world: World) -> None:
    discord, bot = world.discord, world.bot
    alice, bob = discord.user("alice"), discord.user("bob")
    people = [alice, bob]
    general = discord.channel("general")
    await open_table(discord, alice, general, "spew start buy_in:100", [bob], ai=1)
    player = AutoPlayer(discord, general, people, seed=8)
    await player.play(until=lambda: cash_board(general) is not None)
    text = channel_text(general)
    assert "Deal over:" in text
    board = cash_board(general)
    assert board is not None
    await alice.click(board, label="End")
    await bot.stop()
    await check_ledger(world, people)


async def test_zero_to_55_with_people_and_an_ai_to_the_end_of_a_deal(world: World) -> None:
    discord, bot = world.discord, world.bot
    alice, bob = discord.user("alice"), discord.user("bob")
    people = [alice, bob]
    general = discord.channel("general")
    await open_table(discord, alice, general, "zero-to-55 start buy_in:100 draw_fee:1", [bob],
                     ai=1)
    player = AutoPlayer(discord, general, people, seed=12)
    await player.play(until=lambda: cash_board(general) is not None)
    assert "Deal over:" in channel_text(general)
    board = cash_board(general)
    assert board is not None
    await alice.click(board, label="End")
    await bot.stop()
    await check_ledger(world, people)


async def test_holdem_sppoker_with_a_pot_split_between_poker_and_spelling(
        world: World) -> None:
    """Alice declares poker, Bob spelling with the longest word of his seven cards: each
    wins their side, so the pot is split between them (odd chip to poker)."""
    discord, bot = world.discord, world.bot
    alice, bob = discord.user("alice"), discord.user("bob")
    general = discord.channel("general")
    await open_table(discord, alice, general, "holdem-sppoker start buy_in:100", [bob])

    def waiting(user: UserHandle) -> Message | None:
        dms = [m for m in user.dms() if m.buttons()]
        return dms[-1] if dms else None

    declared: set[str] = set()
    while "Showdown" not in channel_text(general):
        await discord.wait_for(lambda: "Showdown" in channel_text(general)
                               or any(waiting(u) for u in (alice, bob)), timeout=20)
        user = next((u for u in (alice, bob) if waiting(u) and u.name not in declared), None)
        prompt = waiting(user) if user is not None else None
        if user is None or prompt is None:
            await asyncio.sleep(0.05)  # let the bot's messages arrive
            continue
        labels = [b.label for b in prompt.buttons()]
        if "Poker" not in labels:
            move = next(label for label in labels if label.startswith(("Check", "Call")))
            await user.click(prompt, label=move)
        elif user is alice:
            await user.click(prompt, label="Poker")
            declared.add(user.name)
        else:
            letters = re.search(r"letters \*\*(\w+)\*\*", prompt.text)
            assert letters, prompt.text
            word = get_finder("en_US").best_word(letters.group(1).lower())
            assert word, f"no word in {letters.group(1)}"
            clicked = await user.click(prompt, label="Spelling")
            if user.modal is None:  # the prompt changed meanwhile: read it again
                assert clicked.ephemeral, clicked.text
                await asyncio.sleep(0.05)
                continue
            await user.submit_modal({"Your word": word})
            declared.add(user.name)
    text = channel_text(general)
    assert "poker half" in text and "to Alice, spelling half" in text and "to Bob" in text
    await discord.wait_for(lambda: cash_board(general) is not None, timeout=20)
    board = cash_board(general)
    assert board is not None
    await alice.click(board, label="End")
    await bot.stop()
    await check_ledger(world, [alice, bob])
