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

import functools
import re
from collections.abc import Iterable, Mapping
from datetime import datetime

from markupsafe import Markup, escape

from bot.present.inert import clean
from bot.store.web_reads import WebGame, WebSeat

__all__ = ["discord_html", "discord_lines", "game_items", "seat_list", "shown_name", "when"]

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


def shown_name(text: object) -> str:
    """A display name as every page shows it (the templates' `name` filter): cleaned as the
    bot cleans names in Discord (`bot.present.inert.clean`), "?" for none; the template
    escapes it."""
    return clean(str(text or "")) or "?"


@functools.lru_cache(maxsize=4096)
def _name_html(name: str) -> Markup:
    """`shown_name`, escaped: kept per name, since a server's lists of games show the same
    few hundred players' names over and over."""
    return escape(shown_name(name))


def when(moment: datetime) -> str:
    """A moment as the pages write it, 2026-01-02 03:04 (formatted by hand: strftime took
    twice as long, ten times a page)."""
    return (f"{moment.year:04d}-{moment.month:02d}-{moment.day:02d}"
            f" {moment.hour:02d}:{moment.minute:02d}")


def game_items(games: Iterable[WebGame], titles: Mapping[str, str], home: str,
               replay_word: str, aborted_word: str) -> Markup:
    """A list of ended games' items (games_list.html's), newest first: each game's title,
    "(aborted)" for an aborted one, its seats (`seat_list`), when it ended and a link to its
    replay.

    Written here and not as loops in the template: it is the pages' most repeated markup
    (ten games a page, two to eight seats each), and as a template (a call, an escape or a
    filter for each field of each game and seat) it was two thirds of a player's page's
    rendering, the page the most asked for. Every piece is escaped, an integer or a time
    written in digits; the words (`titles`, the two words) come in the reader's language.

    >>> from datetime import UTC
    >>> game = WebGame(1, "ab12", "poke", "aborted", datetime(2026, 1, 2, 3, 4, tzinfo=UTC),
    ...                (WebSeat(0, "Ann", 7, None, False),))
    >>> print(game_items([game], {"poke": "<Poke>"}, "/g/1", "Replay", "(aborted)"))
    <li><span class="game-title">&lt;Poke&gt;</span> <span class="aborted">(aborted)</span>
     <span class="seats"><a href="/g/1/player/7">Ann</a></span>
     <time datetime="2026-01-02T03:04:00+00:00">2026-01-02 03:04</time>
     <a class="replay" href="/g/1/replay/ab12">Replay <code>ab12</code></a></li>
    """
    home = str(escape(home))
    replay, aborted = escape(replay_word), escape(aborted_word)
    items = []
    for game in games:
        mark = "" if game.status == "finished" else f' <span class="aborted">{aborted}</span>'
        link = ""
        if game.table_id:
            table = escape(game.table_id)
            link = (f'\n <a class="replay" href="{home}/replay/{table}">{replay}'
                    f" <code>{table}</code></a>")
        items.append(
            f'<li><span class="game-title">{escape(titles[game.kind])}</span>{mark}\n'
            f' <span class="seats">{seat_list(game.seats, home)}</span>\n'
            f' <time datetime="{game.finished_at.isoformat()}">'  # digits and -:+.T
            f"{when(game.finished_at)}</time>{link}</li>")
    return Markup("\n".join(items))  # every piece above is escaped, or a tag of ours


def seat_list(seats: Iterable[WebSeat], home: str) -> Markup:
    """A game's seats as a list of games shows them (`game_items`), comma-separated: each a
    link to the player's page (an AI seat its label alone), a winner marked, the score
    after the name. Every piece is escaped or an integer; `home` is the server's path, /g/
    and its id.

    >>> str(seat_list([WebSeat(0, "<b>Bo</b>", 7, 12, True), WebSeat(1, "AI", None, None,
    ...                                                       False)], "/g/1"))
    '<a href="/g/1/player/7" class="winner">&lt;b&gt;Bo&lt;/b&gt;</a> 12, <span>AI</span>'
    """
    home = str(escape(home))
    parts = []
    for seat in seats:
        marked = ' class="winner"' if seat.win else ""
        name = _name_html(seat.name)
        score = "" if seat.score is None else f" {int(seat.score):d}"
        if seat.user_id:
            parts.append(f'<a href="{home}/player/{int(seat.user_id):d}"{marked}>{name}</a>'
                         f"{score}")
        else:
            parts.append(f"<span{marked}>{name}</span>{score}")
    return Markup(", ".join(parts))  # every piece above is escaped, or a tag of ours
