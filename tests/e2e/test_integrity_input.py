"""Hostile and careless input through the real bot: values Discord's own client would never
send (a crafted interaction carries any value), settings stored before they were checked, a
click forged from another server or channel, and a slash command the bot reaches late.

The bot must check every value itself and refuse a bad one privately, saying what it
accepts, with nothing changed; read a bad stored setting as its default; refuse a click on a
table of another server or channel; and acknowledge a command before Discord's 3 s run out,
however late it got to it. On the code before bot/core/validation.py every test here failed: a
`buy_in:-500` credited chips, the settings were stored, `/chips balance` and `/sppoker start`
crashed on them, a member of another server joined and cancelled the lobby, and a late
`/badugi start` was answered after its deadline instead of being deferred.

The crafted interactions go through the loopback's own delivery (`LoopbackDiscord._interact`,
the path every click and command takes) with a body built here, since the driver's `slash`
refuses values out of an option's range or choices, as Discord's client does.
"""

from __future__ import annotations

import secrets
from typing import Any

from loopback import LoopbackDiscord
from loopback.commands import build_data, parse_invocation
from loopback.handles import ChannelHandle, UserHandle
from loopback.interactions import interaction_payload
from loopback.models import APPLICATION_COMMAND, COMPONENT, Interaction, Message
from loopback.results import InteractionResult
from loopback.snowflake import DISCORD_EPOCH_MS
from tests.e2e.conftest import World
from tests.e2e.crafted import crafted_slash, plain
from tests.support.autoplay import lobby_message
from tests.support.rawdb import execute, fetch

BAD_SETTINGS: dict[str, Any] = {"starting_chips": -1000, "daily_chips": 0,
                                "dictionary": "../../etc/passwd", "lobby_minutes": 10**9}


async def forged_click(discord: LoopbackDiscord, user: UserHandle, channel: ChannelHandle,
                       message: Message, label: str) -> InteractionResult:
    """A click on `message`'s button `label` that says it came from `channel` (of this
    server or another): the message's own button, so discord.py dispatches it (it finds the
    custom_id among the clicked message's components), from a place it never is."""
    button = message.button(label)
    assert button is not None and button.custom_id is not None
    data = {"custom_id": button.custom_id, "component_type": 2}
    return await discord._interact(f"forged click {label!r}", user.user,
                                   discord.state.channels[channel.id], COMPONENT, data,
                                   message_id=message.id, timeout=None, check=True)


async def late_slash(discord: LoopbackDiscord, user: UserHandle, channel: ChannelHandle,
                     command: str, *, late_by: float = 2.5, **options: Any) -> InteractionResult:
    """`/command` that Discord made `late_by` seconds before the bot gets it (a gateway or a
    process far behind): its id, whose timestamp is when Discord made it, says so. Discord's
    3 s are counted here from the delivery, so only a bot that reads the id's age and
    defers at once answers it with a deferral; one that waits 2 s of its own answers with
    the message itself."""
    state = discord.state
    where = state.channels[channel.id]
    path, typed = parse_invocation(command)
    made = int((discord.clock.time() - late_by) * 1000) - DISCORD_EPOCH_MS
    interaction = Interaction(
        id=(made << 22) | secrets.randbelow(1 << 12), token=f"loopback-{secrets.token_urlsafe(32)}",
        type=APPLICATION_COMMAND, user_id=user.id, channel_id=where.id,
        guild_id=where.guild_id, created_at=discord.clock.time(),
        data=build_data(state, where, user.user, path, typed | options),
    )
    state.interactions[interaction.id] = interaction
    state.interaction_tokens[interaction.token] = interaction
    discord.gateway.dispatch("INTERACTION_CREATE", interaction_payload(state, interaction),
                             where.guild_id, 0)
    interaction.dispatched_at = discord.clock.time()
    state.notify()
    await discord._await_ack(interaction, discord.ack_timeout)
    result = InteractionResult(discord, interaction.id, f"/{command} (late)")
    assert result.acked and not result.late, f"{result} was not acknowledged in time"
    return result


async def balance(user: UserHandle, channel: ChannelHandle) -> int:
    answer = await user.slash(channel, "chips balance")
    return int(answer.text.split("**")[3])  # "**Name** has **N** chips in this server."


async def stored_settings(world: World) -> list[tuple[Any, ...]]:
    return await fetch(world.database, "SELECT key, value FROM guild_settings WHERE guild_id = ?",
                       (world.discord.state.guild.id,))


async def test_a_crafted_buy_in_is_refused_and_moves_no_chip(world: World) -> None:
    discord = world.discord
    bob, general = discord.user("bob"), discord.channel("general")
    assert await balance(bob, general) == 1000

    for options, accepted in (({"buy_in": -500}, "from 5 to 100000"),
                              ({"buy_in": 10**12}, "from 5 to 100000"),
                              ({"buy_in": "200"}, "from 5 to 100000"),
                              ({"min_buy_in": 0}, "from 1 to 100000"),
                              ({"ante": -1}, "from 1 to 1000")):
        refused = await crafted_slash(discord, bob, general, "reddog start", **options)
        assert refused.ephemeral, refused
        name = next(iter(options))
        assert f"**{name}**" in plain(refused) and accepted in plain(refused), refused.text

    status = await bob.slash(general, "table status")
    assert "No table is open" in status.text
    assert await balance(bob, general) == 1000
    # The bot stayed whole: a valid start still opens a lobby and takes the buy-in.
    await bob.slash(general, "reddog start buy_in:300")
    assert lobby_message(general) is not None
    assert await balance(bob, general) == 700


async def test_crafted_settings_are_refused_and_nothing_is_stored(world: World) -> None:
    discord = world.discord
    alice, general = discord.user("alice"), discord.channel("general")  # Manage Server

    for key, value in (*BAD_SETTINGS.items(), ("locale", "xx"), ("daily_chips", -5),
                       ("lobby_minutes", 0)):
        refused = await crafted_slash(discord, alice, general, "table settings",
                                      **{key: value})
        assert refused.ephemeral and f"**{key}**" in plain(refused), refused.text
        assert "Settings of this server" not in refused.text
    # One bad value among good ones: nothing is stored, the good ones neither.
    mixed = await crafted_slash(discord, alice, general, "table settings",
                                daily_chips=50, starting_chips=-1)
    assert "from 0 to 1000000" in plain(mixed), mixed.text

    assert await stored_settings(world) == []
    shown = await alice.slash(general, "table settings")
    assert "start with **1000** chips" in shown.text and "gives **100**" in shown.text
    assert "close after **10 minutes**" in shown.text and "passwd" not in shown.text


async def test_settings_stored_before_they_were_checked_read_as_their_defaults(
        world: World) -> None:
    discord = world.discord
    carol, dave = discord.user("carol"), discord.user("dave")
    general, games = discord.channel("general"), discord.channel("games")
    guild = discord.state.guild.id
    await execute(world.database, *[
        ("INSERT INTO guild_settings (guild_id, key, value, updated_at) VALUES (?, ?, ?, ?)",
         (guild, key, f'"{value}"' if isinstance(value, str) else str(value),
          "2024-01-01T00:00:00+00:00"))
        for key, value in BAD_SETTINGS.items()])

    first = await carol.slash(general, "chips balance")  # a new account: the starting grant
    assert "**1000** chips" in first.text, first.text
    daily = await carol.slash(general, "chips daily")
    assert "+100 chips" in daily.text and "**1100**" in daily.text, daily.text
    opened = await dave.slash(games, "sppoker start")
    assert not opened.ephemeral and opened.message is not None
    assert opened.message.button("Join") is not None, opened.text
    shown = await dave.slash(general, "table settings")
    assert "start with **1000** chips" in shown.text and "passwd" not in shown.text
    assert "close after **10 minutes**" in shown.text
    assert "the stored setting starting_chips=-1000 is not valid" in world.bot.log_text()


async def test_a_click_from_another_server_or_channel_changes_nothing(world: World) -> None:
    discord = world.discord
    bob, carol, dave = discord.user("bob"), discord.user("carol"), discord.user("dave")
    general, games = discord.channel("general"), discord.channel("games")
    await bob.slash(general, "reddog start")
    lobby = lobby_message(general)

    # Carol owns another server (Manage Server there, not here): her forged Join and Cancel
    # say they come from a channel of hers.
    (lounge,) = discord.add_guild("Elsewhere", ["lounge"])
    elsewhere = discord.state.channels[lounge.id].guild_id
    assert elsewhere is not None
    discord.state.guilds[elsewhere].owner_id = carol.id
    for label in ("Join", "Cancel"):
        forged = await forged_click(discord, carol, lounge, lobby, label)
        assert forged.ephemeral and "another server" in forged.text, forged
    # Dave, a member here, from another channel of this server.
    forged = await forged_click(discord, dave, games, lobby, "Join")
    assert forged.ephemeral and "another channel" in forged.text, forged

    after = discord.message(lobby.id)
    assert after.text == lobby.text and not after.deleted
    assert [b.label for b in after.buttons()] == [b.label for b in lobby.buttons()]
    status = await bob.slash(general, "table status")
    assert "Carol" not in status.text and "Dave" not in status.text and "Bob" in status.text
    # Nobody paid a buy-in here (a first balance opens with the server's 1000).
    assert await balance(carol, general) == 1000 and await balance(dave, general) == 1000
    # The lobby still works for a real click.
    await dave.click(lobby, label="Join")
    assert "Dave" in (await bob.slash(general, "table status")).text
    assert await balance(dave, general) == 800


async def test_a_slash_command_reached_late_is_deferred_then_answered(world: World) -> None:
    discord = world.discord
    bob, carol = discord.user("bob"), discord.user("carol")
    general, games = discord.channel("general"), discord.channel("games")

    opened = await late_slash(discord, bob, general, "badugi start")
    assert opened.response == "deferred_message", opened
    lobby = await opened.wait_for_message(lambda message: message.button("Join") is not None)
    assert not lobby.ephemeral and lobby_message(general).id == lobby.id
    await carol.click(lobby, label="Join")  # the lobby the bot remembered is that message
    assert "Carol" in (await bob.slash(general, "table status")).text

    # Refused after a public deferral: the "thinking…" placeholder goes, the refusal comes
    # to the person alone.
    again = await late_slash(discord, carol, general, "reddog start")
    assert again.response == "deferred_message", again
    refusal = await again.wait_for_followup()
    assert refusal.ephemeral and "already open" in refusal.text, refusal
    assert again.message is None or again.message.deleted
    # Private answers are deferred privately, public ones in public.
    for command in ("chips balance", "table settings", "table status", "leaderboard game:all"):
        private = await late_slash(discord, carol, games, command)
        assert private.response == "deferred_message", (command, private)
        shown = await private.wait_for_message()
        public = command.startswith("leaderboard")
        assert shown.ephemeral != public and (shown.text or shown.embeds), (command, shown)
