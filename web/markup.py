"""The bot's texts as HTML: what the renderers and the replay write for Discord, shown on a
page with the same words.

Those texts are Discord markdown, with every name and typed word already made inert for it
(`bot.present.inert`: markdown characters escaped with a backslash, `<` escaped). Here the
few marks the texts use become tags (`**bold**`, `__underline__`, `` `code` ``), a backslash
escape becomes the letter it escapes, and every other character is HTML-escaped: the only
tags in the result are the ones this module writes, so a name like
``<script>alert(1)</script>`` shows as those letters and runs nothing.

>>> str(discord_html(r"**Ann** bets 20 \\<script\\>"))
'<strong>Ann</strong> bets 20 &lt;script&gt;'
>>> str(discord_html("`7c36` <b>"))
'<code>7c36</code> &lt;b&gt;'
"""

from __future__ import annotations

import re

from markupsafe import Markup, escape

__all__ = ["discord_html", "discord_lines"]

_TOKEN = re.compile(r"\\(.)|(\*\*)|(__)|(`)", re.S)
_TAGS = {"**": "strong", "__": "u", "`": "code"}


def discord_html(text: str) -> Markup:
    """One text (any number of lines) as safe HTML; open marks are closed at its end."""
    out: list[str] = []
    open_tags: list[str] = []
    at = 0
    for match in _TOKEN.finditer(text):
        out.append(str(escape(text[at:match.start()])))
        at = match.end()
        if match.group(1) is not None:
            out.append(str(escape(match.group(1))))
            continue
        mark = match.group(0)
        tag = _TAGS[mark]
        if tag in open_tags:
            while open_tags:  # close down to it (marks are meant to nest)
                closing = open_tags.pop()
                out.append(f"</{closing}>")
                if closing == tag:
                    break
        else:
            open_tags.append(tag)
            out.append(f"<{tag}>")
    out.append(str(escape(text[at:])))
    out.extend(f"</{tag}>" for tag in reversed(open_tags))
    return Markup("".join(out))  # every piece above is escaped, or a tag of ours


def discord_lines(text: str) -> list[Markup]:
    """A text's lines, each as safe HTML (an empty line stays, as a paragraph break)."""
    return [discord_html(line) for line in text.split("\n")]
