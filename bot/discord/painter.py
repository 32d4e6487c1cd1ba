"""The pictures of a message (cards, boards), drawn in a process of their own.

Drawing is pure CPU and holds the GIL: done on the bot's event loop, it kept clicks waiting
behind every hand drawn. It stands apart from the sender, which posts what this draws,
because it is a second process with its own start-up (the game plug-ins, a death signal tied
to the bot) and because the presenter draws through it too (the picture of a new hand,
attached to the answer of the click that dealt it).
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import io
import logging
import multiprocessing
import signal
from concurrent.futures import ProcessPoolExecutor

import discord

from bot.core.outbox import Picture
from bot.plugins import install_plugins
from bot.present import i18n
from bot.present.render import renderer_for

log = logging.getLogger(__name__)


def _painter_started() -> None:
    """The drawing process ends with the bot, even when the bot is killed (Linux), and
    draws with the same plug-ins."""
    with contextlib.suppress(Exception):
        ctypes.CDLL("libc.so.6").prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    install_plugins()


def draw(picture: Picture) -> list[tuple[str, bytes]]:
    """In the painter process: the pictures a message asks for, in the language the message
    was written in (a row written before messages said it: English)."""
    with i18n.using(picture.locale):
        return renderer_for(picture.kind).images(list(picture.events), list(picture.names))


class Painter:
    """The drawing process, started with the sender and shut down with it."""

    def __init__(self) -> None:
        self.pool = ProcessPoolExecutor(
            max_workers=1, mp_context=multiprocessing.get_context("spawn"),
            initializer=_painter_started,
        )

    async def files(self, picture: Picture | None) -> list[discord.File]:
        """Pictures are drawn off the event loop, and drawing failing never stops a message."""
        if picture is None:
            return []
        try:
            images = await asyncio.get_running_loop().run_in_executor(self.pool, draw, picture)
        except Exception:
            log.exception("drawing pictures failed")
            return []
        return [discord.File(io.BytesIO(data), filename=name) for name, data in images]

    def shutdown(self) -> None:
        """Stop drawing: what is queued is dropped, and the process is not waited for."""
        self.pool.shutdown(wait=False, cancel_futures=True)


def box_pictures(embeds: list[discord.Embed], files: list[discord.File]) -> None:
    """Each box shows its own picture. A renderer draws a step's pictures in the order of
    the boxed events they picture (at a Po-Ke-No round's end, each pyramid revealed, seat
    by seat), so the nth box holds the nth picture: every box showing the first one put
    alice's pyramid in bob's and carol's sections. A box past the pictures (the round's
    summary) shows none; a picture past the boxes stays an attachment below them."""
    for embed, file in zip(embeds, files, strict=False):
        embed.set_image(url=f"attachment://{file.filename}")
