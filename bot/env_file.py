"""The syntax of a `.env` file: ``KEY=VALUE`` lines, read into a dictionary.

Apart from bot/settings.py because it is a file format, not a setting: it knows nothing of
which keys the bot reads or what their values may be. A line it cannot read is reported with
its number and the reason alone (`EnvSyntaxError`), and bot.settings words that as the one
sentence it shows the person running the bot.

Deliberately small (no new dependency): ``KEY=VALUE`` lines, an optional ``export`` prefix,
``#`` comments (whole lines, or after whitespace in an unquoted value), 'single quotes' taken
literally and "double quotes" with backslash escapes. Later lines override earlier ones, as a
shell would do when sourcing the file.
"""

from __future__ import annotations

import re

__all__ = ["EnvSyntaxError", "parse_env_text"]

_KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", '"': '"', "\\": "\\", "$": "$"}


class EnvSyntaxError(ValueError):
    """Line `line` (from 1) is not a setting; `reason` ends a sentence that starts with the
    line, such as "is not of the form KEY=VALUE"."""

    def __init__(self, line: int, reason: str) -> None:
        super().__init__(f"line {line} {reason}")
        self.line = line
        self.reason = reason


def parse_env_text(text: str) -> dict[str, str]:
    """The settings a `.env` file's text holds; the first line that is not one raises."""
    values: dict[str, str] = {}
    for number, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        try:
            key, value = _parse_line(stripped)
        except ValueError as exc:
            raise EnvSyntaxError(number, str(exc)) from None
        values[key] = value
    return values


def _parse_line(line: str) -> tuple[str, str]:
    if line.startswith("export ") or line.startswith("export\t"):
        line = line[len("export") :].lstrip()
    key, sep, rest = line.partition("=")
    key = key.strip()
    if not sep:
        raise ValueError("is not of the form KEY=VALUE")
    if not _KEY.fullmatch(key):
        raise ValueError(f"has {key!r} where a name such as DISCORD_TOKEN is expected")
    rest = rest.strip()
    if rest[:1] in ("'", '"'):
        return key, _parse_quoted(rest)
    comment = re.search(r"\s#", rest)
    if comment:
        rest = rest[: comment.start()]
    return key, rest.rstrip()


def _parse_quoted(text: str) -> str:
    quote = text[0]
    out: list[str] = []
    i = 1
    while i < len(text):
        char = text[i]
        if char == quote:
            trailing = text[i + 1 :].strip()
            if trailing and not trailing.startswith("#"):
                raise ValueError("has text after the closing quote")
            return "".join(out)
        if char == "\\" and quote == '"' and i + 1 < len(text):
            nxt = text[i + 1]
            out.append(_ESCAPES.get(nxt, "\\" + nxt))
            i += 2
            continue
        out.append(char)
        i += 1
    raise ValueError(f"has an opening {quote} without a closing one")
