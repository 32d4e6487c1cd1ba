"""`/chips audit` through the real bot: a manager sees the server's books add up while a cash
table holds two buy-ins (a member's and an AI seat's, from the house) and after its lobby is
cancelled; anyone else is refused privately."""

from __future__ import annotations

from tests.e2e.conftest import World
from tests.e2e.helpers import lobby_message, open_table


async def test_a_manager_audits_the_chips_of_an_open_and_a_cancelled_cash_table(
        world: World) -> None:
    discord = world.discord
    alice, bob = discord.user("alice"), discord.user("bob")
    general = discord.channel("general")
    await open_table(discord, alice, general, "badugi start buy_in:30", [bob], ai=1,
                     start=False)

    refused = await bob.slash(general, "chips audit")
    assert refused.ephemeral and "Manage Server" in refused.text

    audit = await alice.slash(general, "chips audit")
    assert audit.ephemeral, audit.text
    assert "every account adds up" in audit.text, audit.text
    # Alice and Bob bought in 30 each from 1000; the AI seat's 30 came from the house.
    assert ("Members hold **1940** chips and open tables **90**; the house has issued "
            "**2030**.") in audit.text
    assert "1 open table holds exactly what its seats hold." in audit.text

    cancelled = await alice.click(lobby_message(general), label="Cancel")
    assert "cancelled" in cancelled.text, cancelled.text
    audit = await alice.slash(general, "chips audit")
    assert "every account adds up" in audit.text, audit.text
    assert ("Members hold **2000** chips and open tables **0**; the house has issued "
            "**2000**.") in audit.text
