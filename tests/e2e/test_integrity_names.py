"""Hostile display names through the real bot (issue 22, defect 5).

Two members choose names that are Discord syntax: Mallory is called `<@{Dave}> <@&2001>` (a
ping of Dave and of a role), Trudy `[Free](Https://Example.Org)` with a right-to-left
override (a masked link that reverses the line after it; the loopback shows a member's name
title-cased, as Discord's global names are free to be). They join a Sppoker table, play it
(Trudy runs out of time to declare, so the time-out is narrated with her name), and take
chips, so the chips board lists them. Everything the bot wrote must show those names as the
letters they are: no live mention, no link, no bidirectional control; and every message it
sent must say, in its `allowed_mentions`, that it pings nobody (nobody's DMs are closed here,
so the bot means no ping at all): not Dave, not the role, not everyone.

Before the fix the lobby and the board pinged Dave (the bot allowed user mentions and pasted
the name in), and the link showed in the lobby, the board, the narration and the chips board.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from loopback.models import Message
from tests.e2e.conftest import World
from tests.e2e.helpers import channel_text, wait_dm_button
from tests.support.autoplay import open_table

ROLE = 2001
BIDI = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c")
ESCAPED = re.compile(r"\\[^0-9A-Za-z\s]")  # Discord's escape: a backslash, then punctuation
MENTION = re.compile(r"<(@!?|@&|#|/)(\d*)[^<>]*>")


def embed_text(embed: dict[str, Any]) -> str:
    """An embed's words, as a reader sees them (its picture's attachment:// URL is none)."""
    parts = [embed.get("title"), embed.get("description"),
             (embed.get("footer") or {}).get("text")]
    for field in embed.get("fields") or []:
        parts += [field.get("name"), field.get("value")]
    return "\n".join(part for part in parts if part)


def versions(message: Message) -> Iterator[str]:
    """Everything a message ever showed: each earlier version, and what it shows now."""
    for version in message.history:
        yield "\n".join([version.content, *map(embed_text, version.embeds)])
    yield message.text


def trouble(text: str, channels: set[int], pinged: int | None = None) -> list[str]:
    """What in `text` Discord would render as a mention (but a channel of the bot's own, or
    the person the bot means to ping), a link or a bidirectional control."""
    found = [f"control U+{ord(c):04X}" for c in text if c in BIDI]
    rest = ESCAPED.sub("\x1a", text)  # an escaped character is a mark that is none
    found += [f"live mention {m[0]}" for m in MENTION.finditer(rest)
              if not (m[1] == "#" and m[2].isdigit() and int(m[2]) in channels)
              and m[0] != f"<@{pinged}>"]
    found += [f"live link {marker!r}" for marker in ("](", "://") if marker in rest.lower()]
    return found


def payloads(body: Any) -> Iterator[dict[str, Any]]:
    """Every message a request body carries (a message, an interaction's answer, an edit):
    the dicts with content or embeds, at any depth."""
    if isinstance(body, dict):
        if "content" in body or "embeds" in body:
            yield body
        for value in body.values():
            yield from payloads(value)
    elif isinstance(body, list):
        for item in body:
            yield from payloads(item)


async def test_hostile_display_names_are_shown_inert_and_ping_nobody(world: World) -> None:
    discord = world.discord
    alice, dave = discord.user("alice"), discord.user("dave")
    mallory = discord.add_user(f"<@{dave.id}> <@&{ROLE}>")
    trudy = discord.add_user("[free](https://example.org)\u202e")
    general = discord.channel("general")

    for member in (mallory, trudy):  # an account: the chips board lists them by name
        daily = await member.slash(general, "chips daily")
        assert "chips" in daily.text

    await open_table(discord, alice, general, "sppoker start target:1", [mallory, trudy])
    for member in (alice, mallory):
        await wait_dm_button(discord, member, "Poker")
        await member.click_dm(label="Poker")
    # Trudy never declares: the last declarer's 10 seconds run out and the channel says so.
    await discord.wait_for(lambda: "won" in channel_text(general), timeout=45,
                           message=lambda: "no winner told; the channel ends: "
                           + channel_text(general)[-600:])
    assert "ran out of time" in channel_text(general)

    board = (await alice.slash(general, "leaderboard game:chips")).message
    assert board is not None
    lines = board.embeds[0]["description"].splitlines()
    assert len(lines) >= 2, lines
    games = (await alice.slash(general, "leaderboard game:sppoker")).message
    assert games is not None and games.embeds

    # The names are there, as the letters they are (what Discord shows of the escapes).
    text = channel_text(general) + "\n" + "\n".join(lines)
    shown = re.sub(r"\\([^0-9A-Za-z\s])", r"\1", text).replace("@\u200b", "@")
    assert f"<@{dave.id}> <@&{ROLE}>" in shown and "[Free](Https://Example.Org)" in shown

    channels = {general.id}
    bad = [(m.id, version[:200], problems) for m in discord.messages(deleted=True)
           if m.author_id == discord.bot.id
           for version in versions(m) if (problems := trouble(version, channels))]
    assert not bad, bad[:5]

    pinged = []
    for record in discord.requests:
        for payload in payloads(record.body):
            allowed = payload.get("allowed_mentions")
            if allowed is None:  # Discord's default: every mention in the text pings
                allowed = {"parse": ["users", "roles", "everyone"]}
            if set(allowed.get("parse") or ()) or allowed.get("users") or allowed.get("roles"):
                pinged.append((record.method, record.path, allowed))
    assert not pinged, pinged[:5]


async def test_a_player_whose_dms_are_closed_is_pinged_by_id_and_nobody_else(
        world: World) -> None:
    """The one ping the bot means: a player it cannot DM is told in the channel. That
    message mentions them by their id and allows exactly them, even when their own name
    is a mention of someone else."""
    discord = world.discord
    alice, dave = discord.user("alice"), discord.user("dave")
    mallory = discord.add_user(f"<@{dave.id}> <@&{ROLE}>")
    mallory.close_dms()
    general = discord.channel("general")
    await open_table(discord, alice, general, "sppoker start target:1", [mallory])
    await discord.wait_for(lambda: "can't send you direct messages" in channel_text(general),
                           message=lambda: channel_text(general)[-600:])
    await alice.slash(general, "table abort")

    told = [m for m in general.messages(include_deleted=True)
            if "can't send you direct messages" in m.text]
    assert told and told[0].content.startswith(f"<@{mallory.id}>,")
    bad = [(version[:200], problems) for m in discord.messages(deleted=True)
           if m.author_id == discord.bot.id
           for version in versions(m) if (problems := trouble(version, {general.id},
                                                               pinged=mallory.id))]
    assert not bad, bad[:5]

    allowed = [payload.get("allowed_mentions") for record in discord.requests
               for payload in payloads(record.body)]
    assert None not in allowed  # Discord's default would ping whoever the text names
    assert all(not a.get("parse") and not a.get("roles") for a in allowed if a)
    users = [[int(user) for user in a["users"]] for a in allowed if a and a.get("users")]
    assert users and all(listed == [mallory.id] for listed in users), users
    # Every new message that names her pings her (an edit notifies nobody on Discord).
    posts = [payload for record in discord.requests
             if record.method == "POST" and re.fullmatch(r"/channels/\d+/messages", record.path)
             for payload in payloads(record.body)
             if f"<@{mallory.id}>" in (payload.get("content") or "")]
    assert posts and all([int(u) for u in p["allowed_mentions"].get("users") or ()]
                         == [mallory.id] for p in posts), posts
