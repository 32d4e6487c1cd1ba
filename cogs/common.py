"""What every game's cog does the same way: open a table, show the rules."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import discord

from bot import i18n
from bot.i18n import t

RULES_DIR = Path(__file__).resolve().parent.parent / "docs" / "rules"


def rules_path(kind: str, locale: str) -> Path:
    """A game's rules page in `locale` when there is one, else the English page."""
    translated = RULES_DIR / locale / f"{kind}.md"
    if locale != i18n.DEFAULT_LOCALE and translated.exists():
        return translated
    return RULES_DIR / f"{kind}.md"
EMBED_DESCRIPTION_LIMIT = 4096


async def start_table(interaction: discord.Interaction, kind: str, **options: Any) -> None:
    await interaction.client.presenter.open_table(interaction, kind, options)  # type: ignore[attr-defined]


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
    locale = await i18n.for_interaction(interaction)
    path = rules_path(kind, locale)
    text = path.read_text(encoding="utf-8") if path.exists() else t("No rules page yet.")
    batches = rules_embeds(text, t(title))
    await interaction.response.send_message(embeds=batches[0], ephemeral=True)
    for batch in batches[1:]:
        await interaction.followup.send(embeds=batch, ephemeral=True)
