"""Names and typed text made inert: shown as the letters they are, never as Discord syntax.

A display name, a nickname or a word typed into a modal is chosen by a member, and the bot
pastes it into sentences that Discord renders as markdown and scans for mentions. Left as it
is, a name like `<@&2001> <@4009> ping` pings a role and a member in the lobby, a name like
`[free chips](https://example.org)` becomes a link on the board, and a right-to-left override
(U+202E) reverses the rest of the line it is shown in. This module is the one place that
decides what such text may contain; every renderer goes through it.

Two steps, at two moments, for two reasons:

- **Clean at entry** (`clean`): what is *kept* is a name as a person reads it. Control and
  format characters are removed (bidirectional embeddings, overrides and isolates, zero-width
  spaces and joiners, the byte-order mark, soft hyphens, Hangul fillers that make a name look
  empty), line breaks become spaces, runs of spaces one, stacked combining marks ("zalgo") are
  capped, and the length is clipped (32, Discord's own limit for a display name). Nothing here
  is about Discord's syntax, so the cleaned name is also what a card picture draws (Pillow
  shows no markdown: a backslash there would be drawn) and what the store keeps. Emoji stay
  whole: a zero-width joiner between two emoji (👩‍💻) is kept.
- **Escape at display** (`inert`, which cleans first, so text that never passed an entry, such
  as a name stored before this module existed, is safe too): every markdown character is
  escaped with a backslash (`discord.utils.escape_markdown`, Discord's own list, plus `[` and
  `]`, whose masked-link rule it escapes only as a whole, leaving `**` inside it live), every
  `<` is escaped (no user, role, channel or command mention, timestamp, custom emoji or
  `<url>` can form), `@everyone`, `@here` and raw ids get a zero-width space after the `@`
  (`discord.utils.escape_mentions`: Discord's server then parses no mention from it at all,
  which a backslash alone would not stop), and `://` becomes `\\://`, so no bare URL is
  linked. Escaping is done once, where the text enters a message, never when it is stored:
  escaped twice, a name would show its backslashes.

Escaped text is only for places Discord renders as markdown (message content, embed titles
and descriptions). Button and menu labels, modal titles and card pictures show text as it is:
there the cleaned text is right.

The escapes keep a name from *looking* like anything; the guarantee that nobody is pinged
because of a name is `allowed_mentions` (bot/discord/app.py: none by default; a message names the
users it means to ping, by id, in its body's `pings`: `bot.core.outbox.post`).

The escapes are discord.py's own (`discord.utils`), pure string functions, so this module
stays in step with the library's idea of Discord's markdown rather than keeping a copy that
ages. They are imported where they are used: `clean` needs nothing of Discord, and the
Discord-free parts (the card pictures, the store) use it without importing discord.py.

>>> inert("<@&2001> <@4009> ping")
'\\\\<@&2001> \\\\<@4009> ping'
>>> inert("[free](https://example.org)")
'\\\\[free\\\\](https\\\\://example.org)'
>>> clean("\\u202eevil\\u200b  name\\n")
'evil name'
>>> inert("**bold** and __under__")
'\\\\*\\\\*bold\\\\*\\\\* and \\\\_\\\\_under\\\\_\\\\_'
>>> inert("x" * 40)
'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx…'
"""

from __future__ import annotations

import re
import unicodedata

from discord.utils import escape_markdown, escape_mentions

__all__ = ["NAME_LIMIT", "TEXT_LIMIT", "clean", "clip", "inert"]

NAME_LIMIT = 32
"""Discord's own limit for a display name or a nickname: a name is clipped to it."""
TEXT_LIMIT = 500
"""Typed text and the data inside a sentence (a list of names, a word): a message has room
for a few of them (2,000 characters), not for a 4,000-character word box pasted whole."""
MAX_MARKS = 4
"""Combining marks kept on one letter: enough for any script's accents, not for "zalgo" text
whose marks climb over the lines above and below it."""

ZWJ = "\u200d"
ELLIPSIS = "…"
# Letters that draw nothing although they are not controls: names made of them look empty.
FILLERS = frozenset("\u115f\u1160\u3164\uffa0")
# Control characters that separate lines or words: they become a space, not nothing, so
# "Ann\nBob" does not become "AnnBob".
SPACING = frozenset(("Cc", "Zl", "Zp"))
# Format characters (bidi controls, zero-width characters, the BOM, soft hyphens, tags) and
# lone surrogates: removed.
DROPPED = frozenset(("Cf", "Cs"))
MARKS = frozenset(("Mn", "Me"))


def _emoji(char: str) -> bool:
    """A character an emoji zero-width-joiner sequence is made of (a pictograph, a skin tone,
    the emoji variation selector)."""
    return unicodedata.category(char) in ("So", "Sk") or char == "\ufe0f"


def clip(text: str, limit: int | None) -> str:
    """At most `limit` characters, the last an ellipsis when something was cut.

    >>> clip("Bartholomew", 5), clip("Ann", 5), clip("Ann", None)
    ('Bart…', 'Ann', 'Ann')
    """
    if limit is None or len(text) <= limit:
        return text
    return text[: max(limit - 1, 0)].rstrip(" " + ZWJ) + ELLIPSIS


def clean(text: str, *, limit: int | None = NAME_LIMIT, squeeze: bool = True) -> str:
    """A name or typed text as the bot keeps it (see the module's doc): no control, format or
    filler character, at most MAX_MARKS combining marks on a letter, clipped to `limit`.

    With `squeeze` (a name), line breaks and runs of spaces become one space and the ends are
    trimmed; without it (data inside a sentence, such as " CAT" after a declaration), its
    spacing is kept and a line break still becomes a space.

    >>> clean("  Ann \\t\\n Bo  "), clean(" CAT", squeeze=False)
    ('Ann Bo', ' CAT')
    >>> clean("\\u2066Ann\\u2069\\ufeff"), clean("\\u3164\\u3164")
    ('Ann', '')
    >>> clean("👩\\u200d💻 dev"), clean("a\\u200db")
    ('👩\\u200d💻 dev', 'ab')
    """
    if text.isascii() and text.isprintable():  # most names: nothing to take out
        return clip(" ".join(text.split()) if squeeze else text, limit)
    kept: list[str] = []
    marks = 0
    for index, char in enumerate(text):
        category = unicodedata.category(char)
        if char == ZWJ:
            after = text[index + 1: index + 2]
            if kept and _emoji(kept[-1]) and after and _emoji(after):
                kept.append(char)
            continue
        if category in DROPPED or char in FILLERS:
            continue
        if category in MARKS:
            marks += 1
            if marks > MAX_MARKS:
                continue
        else:
            marks = 0
        kept.append(" " if category in SPACING else char)
    result = "".join(kept)
    if squeeze:
        result = " ".join(result.split())
    return clip(result, limit)


_BRACKETS = re.compile(r"([\[\]])")
# Every character any of the escapes below acts on: text without one is already inert.
_SYNTAX = re.compile(r"[\\*_~|`>#\-\[\]<@:]")


def _escaped(text: str) -> str:
    """Markdown, mentions and links escaped (see the module's doc); nothing removed."""
    if _SYNTAX.search(text) is None:  # most names and words: a board shows dozens a step
        return text
    def markdown(piece: str) -> str:
        # Leading spaces stay outside: escape_markdown would put the backslash before them
        # ("\\ -x"), where Discord shows it and the "-" stays unescaped.
        body = piece.lstrip()
        return piece[: len(piece) - len(body)] + escape_markdown(body, ignore_links=False)

    pieces = _BRACKETS.split(text)
    text = "".join("\\" + piece if piece in ("[", "]") else markdown(piece)
                   for piece in pieces)
    text = escape_mentions(text)
    return text.replace("<", "\\<").replace("://", "\\://")


def inert(text: str, *, limit: int | None = NAME_LIMIT, squeeze: bool = True) -> str:
    """A name or typed text ready to be pasted into a message Discord renders: cleaned
    (`clean`, with `limit` and `squeeze`), then escaped, so it shows as the letters it is.
    Call it once, where the text goes into the message (twice, the backslashes show).

    The result is at most twice `limit` long: each kept character gains at most one
    backslash or zero-width space.

    >>> inert("@everyone")
    '@\\u200beveryone'
    >>> inert("# big\\n> quote")  # no longer a heading, and the quote no longer starts a line
    '\\\\# big > quote'
    """
    return _escaped(clean(str(text), limit=limit, squeeze=squeeze))
