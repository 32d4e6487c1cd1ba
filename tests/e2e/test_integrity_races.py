"""Commands that race, through the real bot: a Join in flight while the host cancels or an
admin aborts, three `start`s in one channel at the same instant, one member's chips spent at
two tables at once. Each must leave exactly one truth: the lobby closed and every chip back,
one table in the channel, never more chips than there were; and the same after a kill -9.

Each race is run a few times, since two clicks "at the same instant" interleave differently
each time; on the code before the command discipline (bot/core/service.py) every one of them
failed within its tries (lobbies came back, a second and third table opened, chips were
created).
"""

from __future__ import annotations

import asyncio
import functools

from loopback.handles import ChannelHandle, UserHandle
from loopback.models import Message
from tests.e2e.conftest import World
from tests.support.autoplay import lobby_message
from tests.support.rawdb import fetch

START = 1000  # every member's opening balance (the server's default)
TRIES = 3


def current(channel: ChannelHandle, message: Message) -> Message:
    return next(m for m in channel.messages(include_deleted=True) if m.id == message.id)


def live_buttons(channel: ChannelHandle, message: Message) -> list[str]:
    found = current(channel, message)
    if found.deleted:
        return []
    return [b.label or "" for b in found.buttons() if not b.disabled]


def closed(channel: ChannelHandle, lobby: Message) -> bool:
    return not live_buttons(channel, lobby)


async def balance(user: UserHandle, channel: ChannelHandle) -> int:
    answer = await user.slash(channel, "chips balance")
    text = answer.text
    return int(text.split("**")[3])  # "**Name** has **N** chips in this server."


async def no_table(user: UserHandle, channel: ChannelHandle) -> bool:
    status = await user.slash(channel, "table status")
    return "No table is open" in status.text


async def ledger_adds_up(world: World) -> None:
    rows = await fetch(
        world.database,
        "SELECT b.user_id, b.balance, (SELECT sum(delta) FROM chip_ledger l"
        " WHERE l.guild_id = b.guild_id AND l.user_id = b.user_id) FROM chip_balances b",
    )
    assert rows and all(balance == total for _, balance, total in rows), rows


async def test_a_join_racing_cancel_or_abort_never_brings_the_lobby_back(world: World) -> None:
    discord = world.discord
    alice, bob, carol = discord.user("alice"), discord.user("bob"), discord.user("carol")
    general = discord.channel("general")
    for attempt in range(2 * TRIES):
        await bob.slash(general, "reddog start buy_in:150")
        lobby = lobby_message(general)
        join = carol.click(lobby, label="Join", check=False)
        if attempt % 2 == 0:  # the host cancels while Carol's Join is in flight
            closing = bob.click(lobby, label="Cancel", check=False)
        else:  # an admin (Alice has Manage Server) aborts with /table abort
            closing = alice.slash(general, "table abort", check=False)
        await asyncio.gather(closing, join)  # the close first: Join arrives during its save
        await discord.wait_for(functools.partial(closed, general, lobby), timeout=30,
                               message=f"the lobby came back (try {attempt})")
        assert await no_table(alice, general)
        assert await balance(carol, general) == START, f"try {attempt}"
        assert await balance(bob, general) == START, f"try {attempt}"
        # Three answers later, whatever the order was, the buttons have not come back.
        assert not live_buttons(general, lobby), f"try {attempt}"

    await world.bot.restart()  # kill -9: the closed lobbies stay closed, nothing refunded twice
    assert await no_table(alice, general)
    assert await balance(carol, general) == START
    assert await balance(bob, general) == START
    await world.bot.stop()
    await ledger_adds_up(world)


async def test_three_starts_at_the_same_instant_open_one_table(world: World) -> None:
    discord = world.discord
    alice, bob, carol, dave = (discord.user(name) for name in ("alice", "bob", "carol", "dave"))
    general = discord.channel("general")
    for attempt in range(TRIES):
        answers = await asyncio.gather(*(
            person.slash(general, "reddog start buy_in:80", check=False)
            for person in (alice, bob, carol)))
        lobbies = [m for m in general.messages() if m.button("Join") is not None
                   and not m.button("Join").disabled]  # type: ignore[union-attr]
        assert len(lobbies) == 1, f"try {attempt}: {len(lobbies)} lobbies"
        refused = [a for a in answers if a.ephemeral]
        assert len(refused) == 2 and all("already open" in a.text for a in refused), \
            [a.text for a in answers]
        await dave.click(lobbies[0], label="Join")
        host = next(p for p, a in zip((alice, bob, carol), answers, strict=True)
                    if not a.ephemeral)
        await world.bot.restart()  # kill -9: the one table comes back, with its two seats
        status = await dave.slash(general, "table status")
        assert "Dave" in status.text and "No table" not in status.text
        await host.click(lobby_message(general), label="Cancel")
        for person in (alice, bob, carol, dave):
            assert await balance(person, general) == START, f"try {attempt}: {person.name}"
    await world.bot.stop()
    await ledger_adds_up(world)


async def test_chips_for_one_table_pay_for_one_table(world: World) -> None:
    discord = world.discord
    alice, bob, carol, dave = (discord.user(name) for name in ("alice", "bob", "carol", "dave"))
    general, games = discord.channel("general"), discord.channel("games")
    for attempt in range(TRIES):
        # Dave has 1000 and presses Join on two lobbies of 600 at once: one seats him.
        await bob.slash(general, "reddog start buy_in:600")
        await carol.slash(games, "badugi start buy_in:600")
        first, second = lobby_message(general), lobby_message(games)
        answers = await asyncio.gather(dave.click(first, label="Join", check=False),
                                       dave.click(second, label="Join", check=False))
        refusals = [a for a in answers if a.ephemeral]
        assert len(refusals) == 1, f"try {attempt}: {[a.text for a in answers]}"
        assert "chips" in refusals[0].text
        assert await balance(dave, general) == START - 600
        await bob.click(lobby_message(general), label="Cancel")
        await carol.click(lobby_message(games), label="Cancel")
        assert await balance(dave, general) == START, f"try {attempt}"

        # Alice opens two tables at once, each with her whole balance: one opens.
        opened = await asyncio.gather(alice.slash(general, "reddog start buy_in:1000",
                                                  check=False),
                                      alice.slash(games, "badugi start buy_in:1000",
                                                  check=False))
        assert sorted(a.ephemeral for a in opened) == [False, True], \
            f"try {attempt}: {[a.text for a in opened]}"
        refused_in = games if opened[1].ephemeral else general
        assert await no_table(alice, refused_in)
        assert await balance(alice, general) == 0
        await alice.slash(general if refused_in is games else games, "table abort")
        assert await balance(alice, general) == START, f"try {attempt}"
    await world.bot.stop()
    await ledger_adds_up(world)
