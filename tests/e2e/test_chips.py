"""Play money through the real bot: balances, the daily claim, grants by a manager, the
server's chip settings, and the chips leaderboard; the ledger adds up to every balance."""

from __future__ import annotations

from tests.e2e.conftest import World
from tests.support.rawdb import fetch


async def test_chips_commands_from_a_first_balance_to_the_leaderboard(world: World) -> None:
    discord = world.discord
    alice, bob, carol = discord.user("alice"), discord.user("bob"), discord.user("carol")
    general = discord.channel("general")

    first = await bob.slash(general, "chips balance")
    assert first.ephemeral and "**1000** chips" in first.text
    daily = await bob.slash(general, "chips daily")
    assert "+100 chips" in daily.text and "**1100**" in daily.text
    again = await bob.slash(general, "chips daily")
    assert "already" in again.text and "1100" in again.text

    refused = await bob.slash(general, "table settings starting_chips:500")
    assert refused.ephemeral and "Manage Server" in refused.text
    shown = await alice.slash(general, "table settings starting_chips:500 daily_chips:50")
    assert "start with **500** chips" in shown.text and "gives **50**" in shown.text
    carols = await carol.slash(general, "chips balance")
    assert "**500** chips" in carols.text

    not_allowed = await bob.slash(general, "chips grant user:carol amount:10")
    assert not_allowed.ephemeral and "Manage Server" in not_allowed.text
    granted = await alice.slash(general, "chips grant user:carol amount:25")
    assert "they now have 525" in granted.text
    too_much = await alice.slash(general, "chips grant user:carol amount:-9999")
    assert too_much.ephemeral and "at most" in too_much.text
    statement = await carol.slash(general, "chips balance")
    assert "+25` admin grant" in statement.text

    board = await alice.slash(general, "leaderboard game:chips")
    lines = board.message.embeds[0]["description"].splitlines()
    assert lines[:2] == ["1. Bob — 1100 chips", "2. Carol — 525 chips"]

    await world.bot.stop()
    rows = await fetch(
        world.database,
        "SELECT b.user_id, b.balance, (SELECT sum(delta) FROM chip_ledger l"
        " WHERE l.guild_id = b.guild_id AND l.user_id = b.user_id) FROM chip_balances b",
    )
    assert rows and all(balance == total for _, balance, total in rows)
