"""Request bodies against Discord's own schemas: what Discord refuses, the loopback refuses,
with Discord's 400 / 50035 and its error tree; and the vendored schemas match the spec."""

from __future__ import annotations

import json
from typing import Any

import aiohttp
import discord
import pytest
from discord.http import Route

from loopback import LoopbackDiscord, schemas
from loopback.errors import FormErrors
from loopback.schemas import build
from tests.loopback.tiny_bot import TinyBot


def refusals(endpoint: str, payload: Any) -> dict[str, Any]:
    """The errors Discord would answer; and the fast compiled schema must agree with
    jsonschema's full reading about whether there are any (check_body trusts its yes)."""
    form = FormErrors()
    for error in schemas.validator(endpoint).iter_errors(payload):
        for path, code, message in schemas._explain(error):
            form.add(path, code, message)
    assert schemas.fast_accepts(endpoint, payload) == (not form.errors), payload
    fast = FormErrors()
    schemas.check_body(endpoint, payload, fast)
    assert fast.errors == form.errors
    return form.errors


def codes(errors: dict[str, Any], path: str) -> list[str]:
    node = errors
    for part in path.split("."):
        node = node[part]
    return [e["code"] for e in node["_errors"]]


def button(**extra: Any) -> dict[str, Any]:
    return {"type": 2, "style": 1, "label": "Go", "custom_id": "go", **extra}


def test_what_discord_py_sends_passes() -> None:
    view = discord.ui.View()
    view.add_item(discord.ui.Button(label="Join", custom_id="j", emoji="🂠"))
    view.add_item(discord.ui.Select(custom_id="s", options=[discord.SelectOption(label="a")]))
    embed = discord.Embed(title="Pot", description="12", colour=0x00FF00).add_field(
        name="a", value="b")
    payload = discord.http.handle_message_parameters(
        "hello", embed=embed, view=view, allowed_mentions=discord.AllowedMentions.none(),
        file=discord.File(__file__, filename="f.txt"),
    ).multipart
    body = json.loads(payload[0]["value"])
    for endpoint in ("message_create", "message_edit", "followup_create", "followup_edit"):
        assert refusals(endpoint, body) == {}, endpoint
    assert refusals("interaction_callback", {"type": 4, "data": body}) == {}
    assert refusals("interaction_callback", {"type": 5, "data": {"flags": 64}}) == {}
    assert refusals("interaction_callback", {"type": 6}) == {}
    assert refusals("dm_open", {"recipient_id": 1234567890123}) == {}  # an int: discord.py's way
    assert refusals("dm_open", {"recipient_id": "1234567890123"}) == {}


def test_modal_in_both_layouts_passes() -> None:
    labelled = discord.ui.Modal(title="Your word")
    labelled.add_item(discord.ui.Label(text="Word", component=discord.ui.TextInput(
        custom_id="w", max_length=7)))
    rowed = discord.ui.Modal(title="Your word")
    rowed.add_item(discord.ui.TextInput(label="Word", custom_id="w"))
    for modal in (labelled, rowed):
        assert refusals("interaction_callback", {"type": 9, "data": modal.to_dict()}) == {}


def test_wrong_values_get_discords_codes_at_their_paths() -> None:
    errors = refusals("message_create", {"tts": "yes", "embeds": [{"color": -1}],
                                         "components": [{"type": 1, "components": [
                                             button(style=9), button(custom_id="x" * 101)]}]})
    assert codes(errors, "tts") == ["BASE_TYPE_BOOLEAN"]
    assert codes(errors, "embeds.0.color") == ["NUMBER_TYPE_MIN"]
    assert codes(errors, "components.0.components.0.style") == ["BASE_TYPE_CHOICES"]
    assert codes(errors, "components.0.components.1.custom_id") == ["BASE_TYPE_MAX_LENGTH"]


def test_an_unknown_component_type_is_a_union_error() -> None:
    errors = refusals("message_create", {"components": [{"type": 99}]})
    assert codes(errors, "components.0.type") == ["UNION_TYPE_CHOICES"]
    assert "(1, " in errors["components"]["0"]["type"]["_errors"][0]["message"]


def test_missing_fields_are_required() -> None:
    errors = refusals("interaction_callback", {"type": 9, "data": {
        "title": "T", "components": [{"type": 18, "label": "Word",
                                      "component": {"type": 4, "style": 1}}]}})
    assert codes(errors, "data.custom_id") == ["BASE_TYPE_REQUIRED"]
    assert codes(errors, "data.components.0.component.custom_id") == ["BASE_TYPE_REQUIRED"]
    assert codes(refusals("interaction_callback", {"type": 12345}), "type") == [
        "UNION_TYPE_CHOICES"]


def test_modal_text_limits_from_the_schema() -> None:
    errors = refusals("interaction_callback", {"type": 9, "data": {
        "custom_id": "m", "title": "T" * 46, "components": [
            {"type": 18, "label": "L" * 46, "component": {"type": 4, "style": 1,
                                                          "custom_id": "w"}}]}})
    assert codes(errors, "data.title") == ["BASE_TYPE_MAX_LENGTH"]
    assert codes(errors, "data.components.0.label") == ["BASE_TYPE_MAX_LENGTH"]


def test_commands_overwrite() -> None:
    good = [{"name": "table", "description": "Tables", "type": 1, "options": [
        {"type": 1, "name": "status", "description": "Show it"}]}]
    assert refusals("guild_commands_overwrite", good) == {}
    errors = refusals("commands_overwrite", [{"name": "table", "description": "d" * 101}])
    assert codes(errors, "0.description") == ["BASE_TYPE_MAX_LENGTH"]


def test_every_route_the_loopback_validates_has_a_schema() -> None:
    assert sorted(set(schemas.ROUTES.values())) == schemas.endpoints()
    for endpoint in schemas.endpoints():
        schemas.validator(endpoint).check_schema(schemas.validator(endpoint).schema)


@pytest.mark.skipif(not build.DEFAULT_SPEC.exists(), reason="Discord's spec is not beside us")
def test_vendored_schemas_are_what_build_makes_of_the_spec() -> None:
    spec = json.loads(build.DEFAULT_SPEC.read_text())
    made = build._dump(build.build(spec, build._spec_commit(build.DEFAULT_SPEC)))
    assert made == build.OUTPUT.read_text(), "run: python -m loopback.schemas.build"


# --- through the real client -------------------------------------------------------------


def messages_route(loopback: LoopbackDiscord) -> Route:
    return Route("POST", "/channels/{channel_id}/messages",
                 channel_id=loopback.channel("general").id)


async def test_a_refused_body_is_400_50035_and_recorded(
    loopback: LoopbackDiscord, bot: TinyBot
) -> None:
    with pytest.raises(discord.HTTPException) as raised:
        await bot.http.request(messages_route(loopback), json={"content": "hi", "tts": "yes"})
    assert (raised.value.status, raised.value.code) == (400, 50035)
    assert "tts" in raised.value.text
    assert loopback.channel("general").messages() == []
    [rejected] = loopback.rejected()
    assert rejected.body == {"content": "hi", "tts": "yes"}
    assert rejected.details is not None and "tts" in rejected.details
    with pytest.raises(AssertionError, match=r"(?s)refused 1 request.*tts.*body"):
        loopback.assert_no_rejected()


async def test_multipart_bodies_are_checked_too(loopback: LoopbackDiscord, bot: TinyBot) -> None:
    channel = bot.get_channel(loopback.channel("general").id)
    assert isinstance(channel, discord.TextChannel)
    with pytest.raises(discord.HTTPException) as raised:
        await channel.send("x", file=discord.File(__file__, filename="f.txt"),
                           embed=discord.Embed(title="t", colour=0x1000000))
    assert raised.value.code == 50035 and "color" in raised.value.text


async def test_validation_can_be_turned_off() -> None:
    """Off, only the limits of limits.py remain: a wrongly typed field goes through."""
    async with LoopbackDiscord(validate=False, rate_limits=False) as loopback:
        url = f"{loopback.api_base}/channels/{loopback.channel('general').id}/messages"
        auth = {"Authorization": f"Bot {loopback.token}"}
        async with aiohttp.ClientSession(headers=auth) as http:
            async with http.post(url, json={"content": "hi", "tts": "yes"}) as answer:
                assert answer.status == 200
            async with http.post(url, json={"content": "x" * 2001}) as answer:
                assert answer.status == 400
        assert [m.content for m in loopback.channel("general").messages()] == ["hi"]


async def test_the_current_modal_layout_round_trip(
    loopback: LoopbackDiscord, bot: TinyBot
) -> None:
    """A Label (type 18) around the text input, opened and submitted as Discord does."""
    alice = loopback.user("alice")
    opened = await alice.slash("general", "label")
    assert opened.response == "modal" and alice.modal is not None
    assert alice.modal.components[0]["type"] == 18
    assert [f.custom_id for f in alice.modal.fields()] == ["word"]
    submitted = await alice.submit_modal({"Word": "zebra"})
    assert submitted.text == "alice labels zebra"
    loopback.assert_no_rejected()


async def test_no_request_of_the_tiny_bot_is_refused(
    loopback: LoopbackDiscord, bot: TinyBot
) -> None:
    """Everything the client library sends in the other tests' flows fits Discord's schemas."""
    alice = loopback.user("alice")
    await alice.slash("general", "lobby")
    await alice.click(label="Join")
    await alice.select(values=["Poker"], placeholder="Pick a game")
    await alice.slash("general", "ask")
    await alice.submit_modal(word="zebra")
    await alice.slash("general", "dmme")
    thinking = await alice.slash("general", "think secret:true")
    await thinking.wait_for_followup()
    loopback.assert_no_rejected()
    assert loopback.stats.requests["commands_sync"] == 2
