"""The rules pages as Discord shows them: written without hard line breaks or pipe tables
(Discord renders neither), sent as embeds within Discord's limits with the title once, and
each game's rulings documented."""

from __future__ import annotations

import re
from itertools import pairwise
from pathlib import Path

import pytest

from cogs.common import EMBED_DESCRIPTION_LIMIT, RULES_DIR, rules_embeds

PAGES = sorted(RULES_DIR.glob("*.md"))
TITLES = {"sppoker": "Sppoker", "poke": "Poke", "poangpoker": "Poängpoker and Chicago",
          "hands": "Hands", "red_dog": "Red Dog", "badugi": "Badugi",
          "holdem_sppoker": "Hold'em Sppoker",
          "dealers_choice": "Dealer's Choice", "old_man_49er": "Old Man 49er",
          "spew": "Spew", "zero_to_55": "Zero to 55", "pokeno": "Pyramid Po-Ke-No"}
# A line that starts a new block in Markdown: a list item, a heading, a fence.
STARTS = re.compile(r"^\s*(?:[-*] |\d+\. |#|```)")


def prose_lines(path: Path) -> list[str]:
    """The page's lines outside code blocks."""
    lines, fenced = [], False
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip().startswith("```"):
            fenced = not fenced
            continue
        if not fenced:
            lines.append(line)
    return lines


@pytest.mark.parametrize("path", PAGES, ids=lambda p: p.stem)
def test_no_hard_line_breaks_inside_paragraphs_and_no_pipe_tables(path: Path) -> None:
    lines = prose_lines(path)
    for before, line in pairwise(lines):
        if before.strip() and line.strip():
            assert STARTS.match(line), f"{path.name}: a paragraph goes on at {line[:40]!r}"
    assert not any(line.lstrip().startswith("|") for line in lines), f"{path.name}: a table"


@pytest.mark.parametrize("path", PAGES, ids=lambda p: p.stem)
def test_sent_as_embeds_within_discords_limits_with_the_title_once(path: Path) -> None:
    title = TITLES[path.stem]
    batches = rules_embeds(path.read_text(encoding="utf-8"), title)
    embeds = [embed for batch in batches for embed in batch]
    assert embeds[0].title == title
    titles = [embed.title for embed in embeds]
    assert titles.count(title) == 1
    for batch in batches:
        assert 1 <= len(batch) <= 10
        assert sum(len(e.title or "") + len(e.description or "") for e in batch) <= 6000
    for embed in embeds:
        text = embed.description or ""
        assert 0 < len(text) <= EMBED_DESCRIPTION_LIMIT
        assert not re.search(r"(?m)^#", text), "headings are embed titles or bold lines"
        assert text.count("```") % 2 == 0, "a code block is never cut in two"
        assert title not in text.splitlines()[0]


def test_sections_become_titled_embeds_and_subheadings_bold() -> None:
    page = "# Game\n\nIntro.\n\n## Part one\n\nText.\n\n### Detail\n\nMore.\n"
    [batch] = rules_embeds(page, "Game")
    assert [(e.title, e.description) for e in batch] == [
        ("Game", "Intro."), ("Part one", "Text.\n\n**Detail**\n\nMore.")]


def test_a_long_section_is_split_between_paragraphs_and_batched() -> None:
    paragraph = "word " * 300  # 1,500 characters
    page = "# Long\n\n" + "\n\n".join([paragraph.strip()] * 12) + "\n\n```\na  b\n\nc  d\n```\n"
    batches = rules_embeds(page, "Long")
    embeds = [embed for batch in batches for embed in batch]
    assert len(embeds) > 3 and [e.title for e in embeds].count("Long") == 1
    assert all(len(e.description or "") <= EMBED_DESCRIPTION_LIMIT for e in embeds)
    assert embeds[-1].description is not None and embeds[-1].description.endswith("c  d\n```")
    assert len(batches) >= 2  # 18,000 characters need more than one message


def text_of(kind: str) -> str:
    return " ".join((RULES_DIR / f"{kind}.md").read_text(encoding="utf-8").split())


def test_the_new_rulings_are_documented() -> None:
    sppoker = text_of("sppoker")
    assert "An invalid word does not declare." in sppoker
    assert "If your time runs out with the invalid word standing" in sppoker
    assert "AI seats count as declared for this" in sppoker and "by DM" in sppoker
    assert "from the table's own dictionary" in sppoker
    chicago = text_of("poangpoker")
    assert "Once the caller loses a trick the call has failed and **play stops**" in chicago
    assert "Your poker hand is named" in chicago
    poke = text_of("poke")
    assert "the bot offers you only what can be played" in poke
    badugi = text_of("badugi")
    assert "An all-in raise of at least **half a bet** counts as a full raise" in badugi
    assert "never dealt back to you" in badugi and "go **one each**" in badugi


def test_the_pokeno_rulings_are_documented() -> None:
    pokeno = text_of("pokeno")
    assert "four of a kind**, not two pair" in pokeno
    assert "five of a kind**, not a full house" in pokeno
    assert "**Equal hands split the points, rounded down**" in pokeno
    assert "**as many times as there are players**" in pokeno
    assert "**Discards go face down**" in pokeno
    assert "**−10** for every card you discarded" in pokeno
