"""Discord messages as plain terminal text: what a person would read in the Discord client.

The sandbox shows exactly what the bot sent, so a player can judge the real wording; only
what the Discord client would have turned into something else is translated here: markdown
markers, `<t:…:R>` timestamps, `<#channel>` and `<@user>` mentions, code fences. Output is
plain text (no colours or cursor tricks) so it reads the same in any terminal or log file.
"""

from __future__ import annotations

import re
import textwrap
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from loopback.models import Button, Message, Select, walk_components

# Resolves a mention's id to the name the Discord client would show, or None if unknown.
Names = Callable[[int], str | None]

_TIMESTAMP = re.compile(r"<t:(-?\d+)(?::([tTdDfFR]))?>")
_MENTION = re.compile(r"<(@!?|@&|#)(\d+)>")
_CUSTOM_EMOJI = re.compile(r"<a?(:\w+:)\d+>")
# Bold, underline and strike-through, also around a line break (as Discord shows them), never
# across a code fence.
_BOLD = re.compile(r"\*\*((?:(?!```).)+?)\*\*|__((?:(?!```).)+?)__|~~((?:(?!```).)+?)~~",
                   re.DOTALL)
_INLINE_CODE = re.compile(r"`([^`\n]+)`")
_ESCAPED = re.compile(r"\\([*_~`|>\\])")
_FENCE = re.compile(r"^\s*```\w*\s*$")
_SUBTEXT = re.compile(r"^-# ")
# A zero-width space is how a bot sends a message that is only a picture: nothing to show.
INVISIBLE = " \t\n\u200b\u200c\u200d\ufeff"


# Discord words `<t:…:R>` in its client's language: a Swedish client reads "om 10 minuter"
# inside the Swedish sentence, where English ("in 10 minutes") read as the bot's mistake.
_UNITS_SV = {"second": ("sekund", "sekunder"), "minute": ("minut", "minuter"),
             "hour": ("timme", "timmar"), "day": ("dag", "dagar")}


def relative_time(when: float, now: float | None = None, locale: str = "en-US") -> str:
    """Discord's `<t:…:R>` wording ("in 5 minutes", "2 hours ago"), coarse on purpose, in
    the client's language (English, or Swedish for a client in `sv-SE`).

    >>> relative_time(1_000 + 90, now=1_000)
    'in 2 minutes'
    >>> relative_time(1_000 - 30, now=1_000)
    '30 seconds ago'
    >>> relative_time(1_000 + 600, now=1_000, locale="sv-SE")
    'om 10 minuter'
    >>> relative_time(1_000 - 1, now=1_000, locale="sv-SE")
    'för 1 sekund sedan'
    """
    delta = when - (time.time() if now is None else now)
    seconds = abs(delta)
    if seconds < 45:
        unit, size = "second", 1
    elif seconds < 45 * 60:
        unit, size = "minute", 60
    elif seconds < 22 * 3_600:
        unit, size = "hour", 3_600
    else:
        unit, size = "day", 86_400
    count = max(1, round(seconds / size))
    if locale.startswith("sv"):
        text = f"{count} {_UNITS_SV[unit][0 if count == 1 else 1]}"
        return f"om {text}" if delta >= 0 else f"för {text} sedan"
    text = f"{count} {unit}{'' if count == 1 else 's'}"
    return f"in {text}" if delta >= 0 else f"{text} ago"


def _absolute_time(when: float, style: str) -> str:
    moment = datetime.fromtimestamp(when).astimezone()
    formats = {"t": "%H:%M", "T": "%H:%M:%S", "d": "%Y-%m-%d", "D": "%d %B %Y",
               "f": "%d %B %Y %H:%M", "F": "%A %d %B %Y %H:%M"}
    return moment.strftime(formats.get(style, formats["f"]))


def plain(text: str, names: Names | None = None, now: float | None = None,
          locale: str = "en-US") -> str:
    """Markdown and Discord markup turned into what a reader of the client actually sees
    (a client in `locale`: its relative times in that language).

    >>> plain("**Start** <t:1090:R> in <#7>", lambda i: "general", now=1000)
    'Start in 2 minutes in #general'
    """
    lookup = names or (lambda _id: None)

    def timestamp(match: re.Match[str]) -> str:
        when, style = int(match[1]), match[2] or "f"
        return relative_time(when, now, locale) if style == "R" \
            else _absolute_time(when, style)

    def mention(match: re.Match[str]) -> str:
        kind, ident = match[1], int(match[2])
        name = lookup(ident)
        if kind == "#":
            return f"#{name or 'unknown-channel'}"
        return f"@{name or ('unknown-role' if kind == '@&' else 'unknown-user')}"

    lines = []
    # Markers around several lines are shown as the client shows them: not at all.
    text = _BOLD.sub(lambda m: next(g for g in m.groups() if g is not None), text)
    for line in text.splitlines():
        if _FENCE.match(line):
            continue  # a code block's content stays, aligned; only the fences go
        line = _SUBTEXT.sub("", line)
        line = _TIMESTAMP.sub(timestamp, line)
        line = _MENTION.sub(mention, line)
        line = _CUSTOM_EMOJI.sub(r"\1", line)
        line = _INLINE_CODE.sub(r"\1", line)
        line = _ESCAPED.sub(r"\1", line)
        lines.append(line.rstrip())
    return "\n".join(lines)


def button_text(button: Button) -> str:
    """A button's face: its emoji then its label, as the client draws it."""
    return " ".join(part for part in (button.emoji, button.label) if part) or "?"


def option_text(label: str, value: str) -> str:
    """An option as the player may type it back: the label, plus the value when it differs."""
    return label if label == value else f"{label} ({value})"


def select_rule(select: Select) -> str:
    """How many options a menu takes, in words a player can act on."""
    low, high = select.min_values, select.max_values
    if low == high:
        return f"choose {low}"
    if low == 0:
        return f"choose up to {high}"
    return f"choose {low} to {high}"


@dataclass
class Block:
    """One message ready to print: a header rule naming where it is, then its text."""

    header: str
    body: list[str] = field(default_factory=list)

    def lines(self, width: int) -> list[str]:
        """The block fitted to `width`: long lines wrap under themselves, indented, rather
        than where the terminal would cut them. Lines with runs of spaces inside are aligned
        columns (score sheets in code blocks) and are left alone."""
        rule = max(0, width - len(self.header) - 4)
        out = [f"-- {self.header} {'-' * rule}"]
        for line in self.body:
            indent = line[: len(line) - len(line.lstrip())]
            if len(line) <= width or "   " in line.strip():
                out.append(line)
                continue
            out += textwrap.wrap(line.lstrip(), width, initial_indent=indent,
                                 subsequent_indent=indent + "  ", break_long_words=False,
                                 break_on_hyphens=False)
        return out


def render(
    message: Message,
    *,
    where: str,
    numbers: dict[str, int],
    names: Names | None = None,
    attachments: Iterable[str] = (),
    notes: Iterable[str] = (),
    now: float | None = None,
    locale: str = "en-US",
) -> Block:
    """Lay out one message: `where` names its place ("#general", "DM"), `numbers` the
    components' numbers, `attachments` the paths the files were saved under, `locale` the
    reader's client language."""
    header = " · ".join([where, *notes])
    body: list[str] = []

    def add(text: str | None, indent: str = "  ") -> None:
        if text and text.strip(INVISIBLE):
            body.extend(indent + line for line in plain(text, names, now, locale).splitlines())

    add(message.content)
    for embed in message.embeds:
        _render_embed(embed, add)
    for component in _text_displays(message.components):
        add(component)
    for path in attachments:
        body.append(f"  [file] {path}")
    body.extend(_component_lines(message, numbers))
    if not body:
        body.append("  (empty message)")
    return Block(header, body)


def _render_embed(embed: dict[str, Any], add: Callable[..., None]) -> None:
    add((embed.get("author") or {}).get("name"))
    add(embed.get("title"))
    add(embed.get("description"))
    for item in embed.get("fields") or []:
        add(item.get("name"))
        add(item.get("value"), "    ")
    add((embed.get("footer") or {}).get("text"))


def _text_displays(components: list[dict[str, Any]]) -> list[str]:
    return [c.get("content", "") for c in walk_components(components) if c.get("type") == 10]


def _component_lines(message: Message, numbers: dict[str, int]) -> list[str]:
    """Buttons on one line per action row (as the client lays them out), menus below.

    Disabled buttons read "[-] Label": in the place of a number, a dash, so they cannot be
    taken for buttons to click (Discord greys them out).
    """
    lines = []
    for row in message.components:
        inner = row.get("components") or []
        faces = []
        for item in inner:
            if item.get("type") != 2:
                continue
            button = Button(item.get("label"), item.get("custom_id"), item.get("style", 1),
                            item.get("disabled", False), item.get("url"),
                            (item.get("emoji") or {}).get("name"))
            if button.url:
                faces.append(f"<{button_text(button)}: {button.url}>")
            elif button.disabled or button.custom_id not in numbers:
                faces.append(f"[-] {button_text(button)}")
            else:
                faces.append(f"[{numbers[button.custom_id]}] {button_text(button)}")
        if faces:
            lines.append("  " + "   ".join(faces))
    for select in message.selects():
        number = numbers.get(select.custom_id)
        tag = f"[{number}] menu" if number is not None and not select.disabled else "[-] menu"
        title = select.placeholder or "Choose"
        lines.append(f"  {tag}: {title} — {select_rule(select)}")
        options = [option_text(o.label, o.value) for o in select.options]
        lines.append("      " + "  ·  ".join(options) if options else "      (no options)")
    return lines
