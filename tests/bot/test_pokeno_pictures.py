"""A Po-Ke-No round's end in the channel: every pyramid has its own section (a box), and each
box shows that pyramid's picture, not the first seat's in all of them (issue 23)."""

from __future__ import annotations

import io
import random

import discord

from bot.discord.painter import box_pictures
from bot.present.render import event_embed
from cogs.pokeno import POKENO, event_images
from engine.game import Event
from engine.games.pokeno.rules import Pokeno

NAMES = ["alice", "bob", "carol"]


def round_end(seed: int = 3) -> list[Event]:
    """The public events of the step that ends a three-seat game's first round (AI play)."""
    game = Pokeno(list(NAMES), {"first_dealer": 2}, random.Random(seed))
    rng = random.Random(seed)
    for _ in range(2_000):
        seat = min(game.to_act)
        events = game.apply(seat, game.ai_action(seat, rng))
        if any(event.kind == "deal_end" for event in events):
            return [event for event in events if event.seat is None]
    raise AssertionError("no round ended")


def test_each_pyramid_section_shows_its_own_pyramid() -> None:
    events = round_end()
    boxed = [event for event in events if event.kind in POKENO.embed_kinds]
    assert [event.kind for event in boxed] == ["reveal"] * 3 + ["deal_end"]
    files = [discord.File(io.BytesIO(data), filename=name)
             for name, data in event_images(events, NAMES)]
    embeds = [discord.Embed.from_dict(event_embed(event, None)) for event in boxed]

    box_pictures(embeds, files)

    shown = [embed.image.url for embed in embeds]
    assert shown == ["attachment://pyramid-1.png", "attachment://pyramid-2.png",
                     "attachment://pyramid-3.png", None]
    for name, embed in zip(NAMES, embeds, strict=False):
        assert (embed.title or "").startswith(f"{name}'s pyramid")


def test_pictures_past_the_boxes_stay_attachments_and_a_lone_box_keeps_its_picture() -> None:
    one = [discord.File(io.BytesIO(b"png"), filename="reveal.png")]
    lone = [discord.Embed(title="Hand 1 revealed")]
    box_pictures(lone, one)
    assert lone[0].image.url == "attachment://reveal.png"
    none = [discord.Embed(title="Alice chooses Spew")]
    box_pictures(none, [])
    assert none[0].image.url is None
