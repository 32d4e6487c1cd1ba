"""Slash commands, buttons, selects, modals and deferrals, end to end with the real client."""

from __future__ import annotations

import asyncio

import aiohttp
import discord
import pytest

from loopback import (
    BadOption,
    CommandNotFound,
    ComponentNotFound,
    InteractionFailed,
    LoopbackDiscord,
    ModalNotOpen,
)
from tests.loopback.tiny_bot import TinyBot
from tests.support.patience import patient


async def test_slash_with_options_answers_publicly(loopback: LoopbackDiscord, bot: TinyBot) -> None:
    alice = loopback.user("alice")
    result = await alice.slash("general", "echo text:hi", times=3)
    assert (result.response, result.text, result.ephemeral) == ("message", "hihihi", False)
    general = loopback.channel("general")
    assert general.last_message is not None and general.last_message.content == "hihihi"
    assert result.message is not None and result.message.type == 20
    assert bot.interactions[-1].user.id == alice.id
    loopback.assert_no_errors()


async def test_subcommands_and_groups(loopback: LoopbackDiscord, bot: TinyBot) -> None:
    alice = loopback.user("alice")
    assert (await alice.slash("general", "sppoker start target:10")).text == "Sppoker to 10"
    assert (await alice.slash("general", "sppoker start", target=7)).text == "Sppoker to 7"
    assert (await alice.slash("general", "admin config set key:ante value:5")).text == "ante=5"


async def test_users_channels_and_choices_as_options(
    loopback: LoopbackDiscord, bot: TinyBot
) -> None:
    alice = loopback.user("alice")
    assert (await alice.slash("general", "poke who:bob where:poker")).text == "poked bob in poker"
    assert (await alice.slash("general", "poke", who=loopback.user("bob"))).text == "poked bob"
    assert (await alice.slash("general", "mode mode:Fast")).text == "mode fast"


async def test_what_the_discord_client_would_refuse(
    loopback: LoopbackDiscord, bot: TinyBot
) -> None:
    alice, bob = loopback.user("alice"), loopback.user("bob")
    with pytest.raises(BadOption, match="between 1 and 100"):
        await alice.slash("general", "sppoker start target:101")
    with pytest.raises(BadOption, match="required"):
        await alice.slash("general", "sppoker start")
    with pytest.raises(BadOption, match="integer"):
        await alice.slash("general", "sppoker start target:ten")
    with pytest.raises(CommandNotFound, match="needs a subcommand"):
        await alice.slash("general", "sppoker")
    with pytest.raises(CommandNotFound, match="not registered"):
        await alice.slash("general", "nosuch")
    with pytest.raises(CommandNotFound, match="permissions"):
        await bob.slash("general", "reset")  # bob is no admin; alice owns the guild
    assert (await alice.slash("general", "reset")).text == "reset"


async def test_autocomplete(loopback: LoopbackDiscord, bot: TinyBot) -> None:
    choices = await loopback.user("alice").autocomplete("general", "word", "query", "ze")
    assert [c["value"] for c in choices] == ["zebra", "zero"]


async def test_ephemeral_replies_are_seen_by_one_user(
    loopback: LoopbackDiscord, bot: TinyBot
) -> None:
    alice, bob = loopback.user("alice"), loopback.user("bob")
    result = await alice.slash("general", "table status")
    assert result.ephemeral and result.text == "Table is empty"
    assert [m.content for m in alice.ephemerals()] == ["Table is empty"]
    assert alice.ephemerals("general") == alice.ephemerals()
    assert bob.ephemerals() == []
    assert loopback.channel("general").messages() == []
    assert [m.content for m in alice.visible_messages("general")] == ["Table is empty"]
    assert bob.visible_messages("general") == []


async def test_buttons_edit_their_message(loopback: LoopbackDiscord, bot: TinyBot) -> None:
    alice, bob = loopback.user("alice"), loopback.user("bob")
    lobby = (await alice.slash("general", "lobby")).message
    assert lobby is not None and [b.label for b in lobby.buttons()] == ["Join", "Start", "Rename"]

    clicked = await alice.click(label="Join")
    assert clicked.response == "update_message" and clicked.text == "Lobby: alice"
    await bob.click(lobby, custom_id="lobby:join")
    now = loopback.message(lobby.id)
    assert now.content == "Lobby: alice, bob"
    assert [v.content for v in now.history] == ["Lobby: nobody", "Lobby: alice"]
    assert lobby.content == "Lobby: nobody"  # handed-out messages are copies

    await alice.click(loopback.channel("general"), label="Start")
    assert all(b.disabled for b in loopback.message(lobby.id).buttons())
    with pytest.raises(ComponentNotFound, match="disabled"):
        await bob.click(label="Join")
    with pytest.raises(ComponentNotFound, match="no button"):
        await bob.click(label="Fold")


async def test_select_menus(loopback: LoopbackDiscord, bot: TinyBot) -> None:
    alice = loopback.user("alice")
    await alice.slash("general", "lobby")
    picked = await alice.select(values=["Spelling"], placeholder="Pick a game")
    assert picked.ephemeral and picked.text == "You picked spell"
    with pytest.raises(BadOption, match="not an option"):
        await alice.select(values=["Chess"])
    with pytest.raises(BadOption, match="takes 1 to 1"):
        await alice.select(values=["poker", "spell"])


async def test_modal_round_trip(loopback: LoopbackDiscord, bot: TinyBot) -> None:
    alice = loopback.user("alice")
    with pytest.raises(ModalNotOpen):
        await alice.submit_modal(word="x")
    opened = await alice.slash("general", "ask")
    assert opened.response == "modal" and alice.modal is not None
    assert [(f.custom_id, f.required) for f in alice.modal.fields()] == [
        ("word", True), ("note", False)]
    with pytest.raises(BadOption, match="required"):
        await alice.submit_modal(note="forgot the word")
    with pytest.raises(BadOption, match="long"):
        await alice.submit_modal(word="z" * 21)
    submitted = await alice.submit_modal({"Word": "zebra"})  # by label works too
    assert submitted.text == "alice says zebra"
    assert alice.modal is None


async def test_modal_opened_from_a_button_can_edit_that_message(
    loopback: LoopbackDiscord, bot: TinyBot
) -> None:
    alice = loopback.user("alice")
    lobby = (await alice.slash("general", "lobby")).message
    assert lobby is not None
    await alice.click(lobby, label="Rename")
    result = await alice.submit_modal(name="Shark tank")
    assert result.response == "update_message"
    assert loopback.message(lobby.id).content == "Lobby Shark tank"


async def test_deferred_replies_are_filled_by_the_first_followup(
    loopback: LoopbackDiscord, bot: TinyBot
) -> None:
    alice, bob = loopback.user("alice"), loopback.user("bob")
    result = await alice.slash("general", "think")
    assert result.response == "deferred_message"
    done = await result.wait_for_message()
    assert done.content == "done thinking" and not done.loading
    extra = await result.wait_for_followup()
    assert extra.content == "and one more" and extra.id != done.id

    secret = await bob.slash("general", "think secret:true")
    await secret.wait_for_followup()
    assert [m.content for m in bob.ephemerals()] == ["done thinking", "and one more"]
    assert [m.content for m in loopback.channel("general").messages()] == [
        "done thinking", "and one more"]


async def test_attachments_in_an_interaction_response(
    loopback: LoopbackDiscord, bot: TinyBot
) -> None:
    result = await loopback.user("alice").slash("general", "picture")
    assert result.message is not None
    attachment = result.message.attachment("card.gif")
    assert attachment is not None and attachment.data == b"GIF89a"
    async with aiohttp.ClientSession() as session, session.get(attachment.url) as response:
        assert await response.read() == b"GIF89a"


async def test_a_late_acknowledgement_fails_as_on_discord(
    loopback: LoopbackDiscord, bot: TinyBot
) -> None:
    alice = loopback.user("alice")
    pending = asyncio.create_task(alice.slash("general", "slow", check=False))
    await asyncio.wait_for(bot.slow_started.wait(), patient(5))
    loopback.advance_time(3.5)
    bot.release.set()
    result = await pending  # returns at once: the server clock says it is too late already
    await loopback.wait_for(lambda: result.late)
    assert not result.acked
    assert [(e.status, e.code) for e in result.errors] == [(404, 10062)]
    await loopback.wait_for(lambda: bot.failures)
    assert isinstance(bot.failures[0], discord.NotFound) and bot.failures[0].code == 10062
    assert loopback.errors()[-1].code == 10062


async def test_an_unanswered_interaction_raises(loopback: LoopbackDiscord, bot: TinyBot) -> None:
    alice = loopback.user("alice")
    with pytest.raises(InteractionFailed, match="not acknowledged in time"):
        await alice.slash("general", "slow", timeout=0.2)
    # Without a timeout the driver gives up when Discord would: 3 s on the server clock.
    pending = asyncio.create_task(alice.slash("general", "slow"))
    await asyncio.sleep(0.05)
    loopback.advance_time(4)
    with pytest.raises(InteractionFailed, match="not acknowledged in time"):
        await asyncio.wait_for(pending, patient(1))
    bot.release.set()


async def test_tokens_expire_after_fifteen_minutes(
    loopback: LoopbackDiscord, bot: TinyBot
) -> None:
    await loopback.user("alice").slash("general", "echo text:x")
    interaction = bot.interactions[-1]
    await interaction.followup.send("still valid")
    loopback.advance_time(15 * 60 + 1)
    with pytest.raises(discord.HTTPException) as raised:
        await interaction.followup.send("too late")
    assert (raised.value.status, raised.value.code) == (401, 50027)


async def test_an_interaction_is_acknowledged_once(loopback: LoopbackDiscord, bot: TinyBot) -> None:
    result = await loopback.user("alice").slash("general", "echo text:x")
    record = loopback.state.interactions[result.id]
    url = f"{loopback.api_base}/interactions/{record.id}/{record.token}/callback"
    async with aiohttp.ClientSession() as session:
        async with session.post(url, json={"type": 4, "data": {"content": "again"}}) as response:
            assert response.status == 400
            assert (await response.json())["code"] == 40060
        async with session.post(url.replace(record.token, "forged"), json={"type": 6}) as response:
            assert response.status == 404


async def test_slash_commands_and_buttons_in_dms(loopback: LoopbackDiscord, bot: TinyBot) -> None:
    alice = loopback.user("alice")
    reply = await alice.slash("dm", "echo text:private")
    assert reply.text == "private" and [m.content for m in alice.dms()] == ["private"]
    with pytest.raises(CommandNotFound):
        await alice.slash("dm", "reset")  # guild_only()

    sent = await alice.slash("general", "dmme")
    assert sent.ephemeral and sent.text == "Sent you a DM"
    hand = alice.last_dm
    assert hand is not None and hand.content == "Your hand"
    assert hand.attachment("hand.png") is not None
    assert hand.attachment("hand.png").data == b"\x89PNG fake"  # type: ignore[union-attr]
    chosen = await alice.click_dm(label="Poker")
    assert chosen.text == "You chose poker"
    assert alice.last_dm is not None and alice.last_dm.content == "You chose poker"
    assert loopback.user("bob").dms() == []
    with pytest.raises(ComponentNotFound):
        await loopback.user("bob").click_dm(label="Poker")


async def test_closed_dms_surface_as_forbidden(loopback: LoopbackDiscord, bot: TinyBot) -> None:
    alice = loopback.user("alice")
    alice.close_dms()
    result = await alice.slash("general", "dmme")
    assert result.text == "Your DMs are closed" and alice.dms() == []
    error = bot.failures[-1]
    assert isinstance(error, discord.Forbidden) and error.code == 50007
    loopback.assert_no_errors(50007)
    alice.open_dms()
    assert (await alice.slash("general", "dmme")).text == "Sent you a DM"


async def test_simultaneous_clicks_are_all_delivered(
    loopback: LoopbackDiscord, bot: TinyBot
) -> None:
    names = ["carol", "dave", "erin", "frank"]
    users = [loopback.add_user(n) for n in names]
    lobby = (await loopback.user("alice").slash("general", "lobby")).message
    assert lobby is not None
    results = await asyncio.gather(*(u.click(lobby, label="Join") for u in users))
    assert all(r.response == "update_message" for r in results)
    final = loopback.message(lobby.id).content
    assert sorted(final.removeprefix("Lobby: ").split(", ")) == names
