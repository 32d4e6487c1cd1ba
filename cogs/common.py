"""What every game's cog does the same way: open a table, show the rules."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import discord

RULES_DIR = Path(__file__).resolve().parent.parent / "docs" / "rules"
EMBED_DESCRIPTION_LIMIT = 4096


def rules_pages(kind: str) -> list[str]:
    """The game's rules page, cut at headings into pieces Discord embeds accept."""
    path = RULES_DIR / f"{kind}.md"
    text = path.read_text(encoding="utf-8") if path.exists() else "No rules page yet."
    pages: list[str] = []
    current = ""
    for line in text.splitlines():
        if len(current) + len(line) + 1 > EMBED_DESCRIPTION_LIMIT - 10 or (
            line.startswith("## ") and len(current) > 2500
        ):
            pages.append(current)
            current = ""
        current += line + "\n"
    if current.strip():
        pages.append(current)
    return pages


async def start_table(interaction: discord.Interaction, kind: str, **options: Any) -> None:
    await interaction.client.tables.open_table(interaction, kind, options)  # type: ignore[attr-defined]


async def send_rules(interaction: discord.Interaction, kind: str, title: str) -> None:
    """The whole rules page, privately: embeds in as many messages as Discord's limits need."""
    embeds = [
        discord.Embed(title=title if number == 0 else None, description=page,
                      colour=discord.Colour.dark_green())
        for number, page in enumerate(rules_pages(kind))
    ]
    batches: list[list[discord.Embed]] = [[]]
    for embed in embeds:
        size = sum(len(e.description or "") + len(e.title or "") for e in batches[-1])
        if batches[-1] and (size + len(embed.description or "") > 5900 or len(batches[-1]) == 10):
            batches.append([])
        batches[-1].append(embed)
    await interaction.response.send_message(embeds=batches[0], ephemeral=True)
    for batch in batches[1:]:
        await interaction.followup.send(embeds=batch, ephemeral=True)
