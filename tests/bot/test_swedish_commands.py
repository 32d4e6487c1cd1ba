"""The rules pages cite commands by the names their readers type (issue 23, "Swedish
leftovers"): every `/command subcommand option:value` a page cites exists in the bot's
command tree under those names, as a Discord client in the page's language shows it, so the
Swedish pages cite `/statistik` and `/pokeno starta [mål]`, the English ones `/stats`.

The tree is the one the bot registers, with the Swedish names its translator gives Discord
(`bot.discord.translator`), serialized as discord.py sends it at a sync.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from cogs.common import RULES_DIR
from loopback.commands import shown_name
from tests.support.commands import command_payloads

SUBCOMMANDS = (1, 2)  # a subcommand, a subcommand group
# A citation: a slash, a name, then more words; optional options are in [ ].
CITATION = re.compile(r"`(/[^`]+)`")
BARE = re.compile(r"`([a-z][a-z_-]*)`")
PAGES = {"en-US": sorted(RULES_DIR.glob("*.md")),
         "sv-SE": sorted((RULES_DIR / "sv").glob("*.md"))}


@pytest.fixture(scope="module")
def payloads() -> list[dict[str, Any]]:
    return command_payloads()


def problems(citation: str, payloads: list[dict[str, Any]], locale: str) -> list[str]:
    """What in one citation a client in `locale` would not find: a command, a subcommand,
    an option, or a value among an option's choices ("…" stands for any value)."""
    words = citation[1:].replace("[", " ").replace("]", " ").split()
    node = next((c for c in payloads if shown_name(c, locale) == words[0]), None)
    if node is None:
        return [f"/{words[0]}"]
    rest = words[1:]
    while rest and any(o.get("type") in SUBCOMMANDS for o in node.get("options") or []):
        sub = next((o for o in node.get("options") or [] if o.get("type") in SUBCOMMANDS
                    and shown_name(o, locale) == rest[0]), None)
        if sub is None:
            return [f"subcommand {rest[0]}"]
        node, rest = sub, rest[1:]
    found = []
    for word in rest:
        name, _, value = word.partition(":")
        option = next((o for o in node.get("options") or []
                       if shown_name(o, locale) == name), None)
        if option is None:
            found.append(f"option {name}")
            continue
        choices = option.get("choices") or []
        if value and value not in ("…", "...") and choices and not any(
                value.lower() in (shown_name(c, locale).lower(), str(c["value"]).lower())
                for c in choices):
            found.append(f"{name}:{value}")
    return found


@pytest.mark.parametrize(("locale", "path"),
                         [(locale, path) for locale, paths in PAGES.items() for path in paths],
                         ids=lambda value: value.stem if isinstance(value, Path) else value)
def test_every_command_a_rules_page_cites_is_named_as_its_readers_discord_shows_it(
        locale: str, path: Path, payloads: list[dict[str, Any]]) -> None:
    text = path.read_text(encoding="utf-8")
    wrong = {citation: problems(citation, payloads, locale)
             for citation in CITATION.findall(text)}
    assert not {citation: what for citation, what in wrong.items() if what}


def test_the_pages_cite_commands_and_the_check_would_see_an_english_name_in_swedish(
        payloads: list[dict[str, Any]]) -> None:
    """The check is not vacuous: both languages' pages cite commands, and the English
    citations the Swedish pages had before are refused in Swedish."""
    for paths in PAGES.values():
        assert sum(len(CITATION.findall(p.read_text(encoding="utf-8"))) for p in paths) >= 5
    assert problems("/stats", payloads, "sv-SE") == ["/stats"]
    assert problems("/pokeno start [target]", payloads, "sv-SE") == ["subcommand start"]
    assert problems("/bord inställningar locale:Svenska", payloads, "sv-SE") == [
        "option locale"]
    assert problems("/topplista spel:Marker", payloads, "sv-SE") == []
    assert problems("/leaderboard game:chips", payloads, "en-US") == []


def test_the_swedish_pages_name_no_option_or_command_by_its_english_name(
        payloads: list[dict[str, Any]]) -> None:
    """An option or command named alone (`dictionary`, `locale`) is named as a Swedish
    client shows it, wherever its Swedish name differs."""
    english_only: set[str] = set()

    def walk(node: dict[str, Any]) -> None:
        if shown_name(node, "sv-SE") != node["name"]:
            english_only.add(node["name"])
        for option in node.get("options") or []:
            walk(option)

    for command in payloads:
        walk(command)
    assert {"dictionary", "locale", "stats", "start", "target"} <= english_only
    english = {path.name: sorted(set(BARE.findall(path.read_text(encoding="utf-8")))
                                 & english_only) for path in PAGES["sv-SE"]}
    assert not {page: names for page, names in english.items() if names}
