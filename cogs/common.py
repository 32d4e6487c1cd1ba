"""What every cog does the same way: its options checked, a table opened, the rules shown.

Every slash option with a range or a fixed set of values is declared in `bot/core/validation.py`
and annotated here as an `Option` (`app_commands.Transform[int, Option(BUY_IN)]`): Discord's
schema (min and max, choices) comes from that declaration, and every value that arrives is
checked against it again, since a crafted interaction can carry any value. A refused value
never reaches the command: the command tree's error handler (bot.discord.tree) answers it privately
with what the option accepts.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Mapping
from pathlib import Path
from typing import Any

import discord
from discord import app_commands

from bot import plugins
from bot.core import validation
from bot.core.validation import Bound, Flag, InvalidValue, NoMoreThan, OneOf, checked_relations
from bot.discord.app import bot_of
from bot.discord.responses import Answer, answer_in_time, deliver, in_time
from bot.discord.tree import Refused, refused_answer
from bot.present import i18n
from bot.present.i18n import t

log = logging.getLogger(__name__)

MAX_CHOICES = 25  # Discord's limit for an option's choices


class Option(app_commands.Transformer):
    """A declared option (`bot/core/validation.py`) as Discord sees it and as the bot checks it:
    the type, range and choices of the command's schema are read from the declaration, and
    `transform` (which discord.py runs on every value that arrives, before the command)
    checks the value against the same declaration."""

    def __init__(self, check: Bound | OneOf | Flag) -> None:
        self.check = check

    @property
    def type(self) -> discord.AppCommandOptionType:
        if isinstance(self.check, Bound):
            return discord.AppCommandOptionType.integer
        if isinstance(self.check, Flag):
            return discord.AppCommandOptionType.boolean
        return discord.AppCommandOptionType.string

    @property
    def min_value(self) -> int | None:
        return self.check.low if isinstance(self.check, Bound) else None

    @property
    def max_value(self) -> int | None:
        return self.check.high if isinstance(self.check, Bound) else None

    @property
    def choices(self) -> list[app_commands.Choice[int | float | str]] | None:
        """A fixed set's values as a menu (Discord shows at most 25: a value past them can
        still be typed by a client that knows it, and is checked like any other)."""
        if not isinstance(self.check, OneOf):
            return None
        return [app_commands.Choice[int | float | str](name=name, value=value)
                for value, name in self.check.values().items()][:MAX_CHOICES]

    async def transform(self, interaction: discord.Interaction, value: Any, /) -> Any:
        try:
            return self.check.check(value)
        except InvalidValue as error:
            raise Refused(error) from error


# The options the games' start commands share, each its declaration as an annotation.
BuyIn = app_commands.Transform[int, Option(validation.BUY_IN)]
MinBuyIn = app_commands.Transform[int, Option(validation.MIN_BUY_IN)]
TurnSeconds = app_commands.Transform[int, Option(validation.TURN_SECONDS)]
Dictionary = app_commands.Transform[str, Option(validation.DICTIONARY)]
DealAnte = app_commands.Transform[int, Option(validation.DEAL_ANTE)]
SmallBet = app_commands.Transform[int, Option(validation.SMALL_BET)]
BigBet = app_commands.Transform[int, Option(validation.BIG_BET)]
DeclareSeconds = app_commands.Transform[int, Option(validation.DECLARE_SECONDS)]
LastSeconds = app_commands.Transform[int, Option(validation.LAST_SECONDS)]

# What the start commands say of the options several games share (the defaults are the
# engines': engine/chips/deal.py STAKES, engine/games/sppoker/rules.py's declaring clocks).
DESCRIBE_ANTE = "Chips each player antes every deal (default 5; 0: no ante)"
DESCRIBE_SMALL_BET = "Bets and raises in the early rounds (default 10)"
DESCRIBE_BIG_BET = "Bets and raises in the late rounds (default 20)"
DESCRIBE_DECLARE_SECONDS = "Seconds the whole table has to declare (default 120)"
DESCRIBE_LAST_SECONDS = "Seconds the last person to declare has (default 10)"
DESCRIBE_DICTIONARY = "Dictionary for words (default: the server's, see /table settings)"


RULES_DIR = plugins.RULES_DIR  # the built-in games' pages; a plug-in may keep its own


def rules_path(kind: str, locale: str) -> Path:
    """A game's rules page in `locale` when there is one, else the English page, from the
    folder its plug-in declares (`GamePlugin.rules_dir`; docs/rules for the built-in games)."""
    folder = plugins.rules_folder(kind)
    translated = folder / locale / f"{kind}.md"
    if locale != i18n.DEFAULT_LOCALE and translated.exists():
        return translated
    return folder / f"{kind}.md"
EMBED_DESCRIPTION_LIMIT = 4096


async def start_table(
    interaction: discord.Interaction, kind: str, *,
    defaults: Callable[[], Awaitable[Mapping[str, Any]]] | None = None,
    relations: tuple[NoMoreThan, ...] = (), **options: Any,
) -> None:
    """`/<game> start`: the presenter opens the table (`defaults` fills the options left out,
    read within the command's time). Each value was checked on arrival (`Option`); the
    pairs that must go together (`relations`, declared in bot/core/validation.py) are checked
    here, and a refused pair is answered privately, as a refused value is, opening nothing."""
    try:
        checked_relations(options, relations)
    except InvalidValue as error:
        invalid = error

        async def refusal() -> Answer:
            await i18n.for_interaction(interaction)
            return refused_answer(invalid)

        log.info("refused /%s start from %s: %s", kind, interaction.user.id, invalid)
        await answer_in_time(interaction, refusal())
        return
    await bot_of(interaction).presenter.open_table(interaction, kind, options,
                                                   defaults=defaults)


EMBED_TOTAL_LIMIT = 6000  # characters in all the embeds of one message
EMBEDS_PER_MESSAGE = 10


def rules_embeds(text: str, title: str) -> list[list[discord.Embed]]:
    """A rules page as Discord shows it well, in messages of embeds: one embed per `##`
    section with the heading as its title (the page's own `# title` line is dropped, the
    first embed carries `title`, so the title appears once), `###` headings as bold lines,
    and sections too long for one embed split between paragraphs, never inside a code block.
    The pages are written for this: no hard line breaks inside paragraphs, tables as code
    blocks (Discord renders neither pipe tables nor headings in embeds)."""
    lines = text.splitlines()
    if lines and lines[0].startswith("# "):
        lines = lines[1:]
    sections: list[tuple[str, list[str]]] = [(title, [])]
    for line in lines:
        if line.startswith("## "):
            sections.append((line[3:].strip(), []))
        elif line.startswith("### "):
            sections[-1][1].append(f"**{line[4:].strip()}**")
        else:
            sections[-1][1].append(line)
    embeds: list[discord.Embed] = []
    for heading, body in sections:
        for number, chunk in enumerate(_chunks(body, EMBED_DESCRIPTION_LIMIT)):
            embeds.append(discord.Embed(title=heading[:256] if number == 0 else None,
                                        description=chunk, colour=discord.Colour.dark_green()))
    batches: list[list[discord.Embed]] = [[]]
    for embed in embeds:
        size = sum(len(e.description or "") + len(e.title or "") for e in batches[-1])
        grown = size + len(embed.description or "") + len(embed.title or "")
        if batches[-1] and (grown > EMBED_TOTAL_LIMIT or len(batches[-1]) == EMBEDS_PER_MESSAGE):
            batches.append([])
        batches[-1].append(embed)
    return [batch for batch in batches if batch]


def _chunks(body: list[str], limit: int) -> list[str]:
    """A section's text in pieces of at most `limit` characters, cut at blank lines outside
    code blocks (a paragraph longer than the limit, which no page has, is cut where it must)."""
    paragraphs: list[str] = []
    current: list[str] = []
    fenced = False
    for line in body:
        if line.strip().startswith("```"):
            fenced = not fenced
        if not line.strip() and not fenced:
            if current:
                paragraphs.append("\n".join(current))
            current = []
        else:
            current.append(line)
    if current:
        paragraphs.append("\n".join(current))
    chunks: list[str] = []
    for paragraph in paragraphs:
        pieces = [paragraph[i : i + limit] for i in range(0, len(paragraph), limit)] or [""]
        for piece in pieces:
            if chunks and len(chunks[-1]) + 2 + len(piece) <= limit:
                chunks[-1] += "\n\n" + piece
            else:
                chunks.append(piece)
    return [chunk for chunk in chunks if chunk.strip()] or ["—"]


async def send_rules(interaction: discord.Interaction, kind: str, title: str) -> None:
    """The whole rules page, privately, laid out for Discord (see `rules_embeds`), in the
    reader's language when the page is translated (`docs/rules/<lang>/<kind>.md`)."""
    async def work() -> list[list[discord.Embed]]:
        locale = await i18n.for_interaction(interaction)
        path = rules_path(kind, locale)
        text = path.read_text(encoding="utf-8") if path.exists() else t("No rules page yet.")
        return rules_embeds(text, t(title))

    for batch in await in_time(interaction, work()):
        await deliver(interaction, Answer(embeds=tuple(batch)))
