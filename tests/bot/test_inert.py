"""Names and typed text are inert wherever they are shown (issue 22, defect 5).

Three layers of evidence:

- the helper (bot/present/inert.py) on named cases, and as properties over any text: nothing it
  returns holds a bidirectional or invisible control, a live markdown link, mention or
  formatting character, or more than twice its limit; and what Discord shows of it (its
  escapes undone) is the cleaned text itself, so escaping loses nothing;
- every message template of every catalogue (engine and bot, English and Swedish), each of
  its fields filled with a hostile name, rendered as the bot renders a sentence: inert;
- every message the bot writes about a table, walked with hostile names at every seat: the
  lobby, the board after every step of a whole game of every game, the narration, the DMs,
  the turn pings of a player whose DMs are closed, the time-out warnings, the end, a closed
  table, a restart, a replay's pages, the chips board and the leaderboards. Only the pings
  the bot means (a user id it wrote, listed in the body's `pings`) are live mentions.
"""

from __future__ import annotations

import random
import re
from collections.abc import AsyncIterator, Collection, Iterator, Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from babel.messages.pofile import read_po
from hypothesis import given
from hypothesis import strategies as st

from bot.core import narration
from bot.core.chips import Bank
from bot.core.outbox import Edit, OutboxMessage, Post, Upsert, pinged
from bot.core.replays import EVERYONE, PlayedGame, frame_text
from bot.core.table import Seat, Table, TableError
from bot.core.table_text import board_text, lobby_text, private_text
from bot.present import i18n
from bot.present.inert import NAME_LIMIT, clean, inert
from bot.store import LeaderboardRow, Store
from bot.store.skill import RatingRow, fresh
from cogs.leaderboards import leaderboard_line, rating_line
from engine.games import GAMES
from engine.i18n import Msg, msg
from engine.notation import Move, Notation, Replayer
from engine.replay import build
from tests.support.play import awaited, engine_kinds, extras, options_for, random_action

GUILD, CHANNEL = 10, 100
VICTIM = 1234567890123456789  # a member a name tries to ping (as long as a real snowflake)
FIRST_USER = 1_100_000_000_000_000_001

HOSTILE = (
    f"<@{VICTIM}> ping",  # a user mention
    "<@&2001> @everyone @here",  # a role, everyone, here
    "[free chips](https://e.org)",  # a masked link
    "\u202eevil\u2066 https://e.org\u200d",  # a right-to-left override, an isolate, a URL
    "||s|| **b** `c` ~~d~~ trail\\",  # markdown; a trailing backslash
    "# big\n> quote </cmd:1> <#1>",  # a heading, a quote, command and channel mentions
)
"""Names a member could choose, each within Discord's 32 characters once cleaned."""

BIDI = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c")
INVISIBLE = frozenset("\u200c\u200d\u2060\ufeff\u00ad\u3164")
"""Left in no text: U+200B, a zero-width space, is inert.py's own after an @ (it is what
keeps Discord from parsing a mention), and a ZWJ only ever between two emoji."""
ESCAPED = re.compile(r"\\[^0-9A-Za-z\s]")  # Discord's escape: a backslash, then punctuation
MENTION = re.compile(r"<(@!?|@&|#|/)([^<>]*)>")
# What a hostile name would leave live if it were pasted as it is. The bot's own templates
# hold none of these (`**` they do hold, so the names' bold is told by `||s||` and the like).
MARKERS = ("](", "://", "@everyone", "@here", "||s||", "`c`", "~~d~~")
LINE_MARKERS = re.compile(r"^(# big|> quote)", re.MULTILINE)


def live(text: str) -> str:
    """What Discord reads as markup in `text`: each escaped character stands as a mark that
    is none (it still takes its place: an escaped backslash before `#` keeps the `#` from
    starting the line)."""
    return ESCAPED.sub("\x1a", text)


def shown(text: str) -> str:
    """What Discord displays for `text`: escapes undone, the zero-width space after an @
    (escape_mentions') gone."""
    return re.sub(r"\\([^0-9A-Za-z\s])", r"\1", text).replace("@\u200b", "@")


def trouble(text: str, pings: Collection[int] = ()) -> list[str]:
    """Whatever in `text` a hostile name could have made live: a control, a mention other
    than the bot's own (a ping it lists, this channel), a link, markdown."""
    found = [f"control U+{ord(c):04X}" for c in text if c in BIDI or c in INVISIBLE]
    rest = live(text)
    for match in MENTION.finditer(rest):
        kind, inside = match[1], match[2]
        if kind in ("@", "@!") and inside.isdigit() and int(inside) in pings:
            continue  # a ping the message means, by id
        if kind == "#" and inside == str(CHANNEL):
            continue  # the table's own channel, by id
        found.append(f"live mention {match[0]}")
    found += [f"live {marker!r}" for marker in MARKERS if marker in rest]
    found += [f"live line {m[0]!r}" for m in LINE_MARKERS.finditer(rest)]
    return found


# --- the helper ------------------------------------------------------------------------------


def test_named_cases() -> None:
    assert inert(HOSTILE[0]) == f"\\<@\u200b{VICTIM}> ping"
    assert inert(HOSTILE[2]) == "\\[free chips\\](https\\://e.org)"
    assert clean(HOSTILE[3]) == "evil https://e.org"
    assert inert("@everyone") == "@\u200beveryone"
    assert inert("trail\\") == "trail\\\\"  # cannot escape what follows it in a sentence
    assert inert("a\u200bb\u2060c\ufeffd\u00ade") == "abcde"
    assert clean("Zoë 👩\u200d💻") == "Zoë 👩\u200d💻"  # accents and emoji stay whole
    assert clean("z" + "\u0301" * 30) == "z" + "\u0301" * 4  # zalgo capped
    assert clean("\u3164") == "" and Seat("\u3164", 7).name == "user 7"
    assert clean("x" * 100) == "x" * 31 + "…" and len(clean("y" * 100, limit=None)) == 100
    assert clean(" CAT", squeeze=False) == " CAT" and clean(" CAT") == "CAT"
    assert Seat(HOSTILE[3], 1).name == "evil https://e.org"


def test_sentences_keep_their_own_formatting_and_show_names_inert() -> None:
    """`bot.present.i18n.render` escapes the data in a sentence (its plain parameters, the plain
    parts of a join), never the template; a label or a picture gets the cleaned text."""
    won = msg("🏆 **{winners}** won the game.", winners="a*b <@1>")
    assert i18n.render(won, "en") == "🏆 **a\\*b \\<@1>** won the game."
    assert i18n.render(won, "en", markdown=False) == "🏆 **a*b <@1>** won the game."
    assert i18n.render(won, "sv").startswith("🏆 **a\\*b \\<@1>**")
    joined = Msg.joined(" ", [msg("{name} leads.", name="_x_"), "[y](https://e.org)"])
    assert i18n.render(joined, "en") == "\\_x\\_ leads. \\[y\\](https\\://e.org)"
    assert i18n.t("**{name}**", name="_x_") == "**_x_**"  # t's fields are the bot's own


def test_a_body_pings_only_whom_it_names() -> None:
    table = Table("t1", GUILD, CHANNEL, "poke", FIRST_USER,
                  seats=[Seat(HOSTILE[0], FIRST_USER), Seat("Bob", FIRST_USER + 1)])
    table.game = build(GAMES["poke"], [s.name for s in table.seats], {}, 1)
    table.status = "playing"
    assert pinged(narration.board(table)) == []
    waiting = sorted(table.require_game().to_act)
    table.dm_closed = [table.seats[waiting[0]].user_id or 0]
    assert pinged(narration.board(table)) == table.dm_closed
    assert pinged(narration.live_board(table)) == table.dm_closed


TEXT = st.text(st.characters(codec="utf-8"), max_size=80) | st.lists(
    st.sampled_from([*HOSTILE, "\\", "<", "[", "]", "@", "://", "*", "_", "`", "|", "~", "#",
                     ">", "-", " ", "\n", "\u202e", "\u200d", "\u0301", "👩", "a", "@here"]),
    max_size=25).map("".join)


@given(TEXT, st.one_of(st.none(), st.integers(1, 64)), st.booleans())
def test_inert_text_is_inert_bounded_and_shows_the_cleaned_text(
        text: str, limit: int | None, squeeze: bool) -> None:
    cleaned = clean(text, limit=limit, squeeze=squeeze)
    out = inert(text, limit=limit, squeeze=squeeze)
    assert not [c for c in out if c in BIDI or c in INVISIBLE - {"\u200d"}]
    assert all(c != "\u200b" or out[i - 1] == "@" for i, c in enumerate(out))
    rest = live(out)
    assert not set(rest) & set("*_~|`<[]\\"), rest
    assert "://" not in rest and not re.search(r"@(everyone|here)", rest)
    assert not re.match(r"\s*(#{1,3} |-# |>>> |> |- )", rest)  # no heading, quote, list
    if limit is not None:
        assert len(cleaned) <= limit and len(out) <= 2 * limit
    assert shown(out) == cleaned  # nothing lost, nothing added: the name as it was chosen
    assert clean(cleaned, limit=limit, squeeze=squeeze) == cleaned


@given(TEXT)
def test_a_name_is_at_most_discords_limit_and_never_empty_at_a_seat(text: str) -> None:
    name = Seat(text, 42).name
    assert 0 < len(name) <= NAME_LIMIT and name == clean(name)


# --- every template of every catalogue ----------------------------------------------------

FIELD = re.compile(r"\{(\w+)\}")
WRAPPED = re.compile(r"<(?:@!?|@&|#|t:)\{(\w+)\}")  # a field the template mentions by id
PING = 4242


def templates() -> Iterator[tuple[str, str | None]]:
    """Every msgid (with its plural) of every catalogue template, engine and bot alike."""
    for path in sorted(i18n.LOCALE_DIR.glob("*.pot")):
        with path.open("rb") as handle:
            for message in read_po(handle):
                if not message.id:
                    continue
                if isinstance(message.id, tuple | list):
                    yield str(message.id[0]), str(message.id[1])
                else:
                    yield str(message.id), None


def filled(msgid: str, plural: str | None, name: str) -> Msg:
    """The template with every field a hostile name, but those it wraps in a mention or a
    timestamp (a number, by id: the bot's own) and a plural's count."""
    fields = set(FIELD.findall(msgid + (plural or "")))
    by_id = set(WRAPPED.findall(msgid + (plural or "")))
    params: dict[str, Any] = {f: PING if f in by_id else name for f in fields - {"n"}}
    if plural is not None:
        return Msg(msgid, params, plural=plural, n=2)
    if "n" in fields:
        params["n"] = name
    return Msg(msgid, params)


@pytest.mark.parametrize("locale", i18n.LOCALES)
def test_every_template_shows_hostile_fields_inert(locale: str) -> None:
    found = list(templates())
    assert len(found) > 300  # the catalogues were read
    bad = {}
    for msgid, plural in found:
        for name in HOSTILE:
            text = i18n.render(filled(msgid, plural, name), locale)
            problems = trouble(text, pings={PING})
            if problems:
                bad[msgid] = (text, problems)
    assert not bad, bad


# --- every message about a table, with hostile names at every seat --------------------------


pytestmark = pytest.mark.usefixtures("game_renderers")  # the games' own renderers


def body_texts(body: OutboxMessage) -> Iterator[tuple[str, Collection[int]]]:
    """Every text of a message with the pings it allows: content, embeds, a DM's fallback in
    the channel, a closed-DM player's turn shown in place."""
    yield (body.content if isinstance(body, Post | Edit | Upsert) else ""), pinged(body)
    if not isinstance(body, Post):
        return
    for embed in body.embeds:
        yield f"{embed.title}\n{embed.description}", ()
    if body.fallback:
        yield body.fallback, pinged(body, fallback=True)
    if body.turn:
        yield body.turn.content, ()


def seat_count(kind: str) -> int:
    cls = GAMES[kind]
    return max(cls.min_seats, min(cls.max_seats, len(HOSTILE)))


def seated(kind: str, locale: str, rotation: int) -> Table:
    """A table of `kind` in its lobby, a hostile name at every seat (rotated, so that every
    name sits at every kind's table over the rotations), the last seat's DMs closed."""
    count = seat_count(kind)
    names = [HOSTILE[(rotation + i) % len(HOSTILE)] for i in range(count)]
    seats = [Seat(name, FIRST_USER + i) for i, name in enumerate(names)]
    table = Table("inert01", GUILD, CHANNEL, kind, FIRST_USER, seats=seats, locale=locale,
                  options=options_for(kind, count))
    table.dm_closed = [FIRST_USER + count - 1]
    return table


def start(table: Table, seed: int) -> None:
    """Deal as the table would, with the tests' small word list for Sppoker."""
    cls = table.game_class
    options = options_for(table.kind, len(table.seats))
    table.game = build(cls, [seat.name for seat in table.seats], options, seed, **extras(cls))
    table.status, table.seed = "playing", seed
    if cls.chip_game:
        stacks = list(options["stacks"])
        table.stacks, table.bought, table.deal_stacks, table.deals = stacks, stacks, stacks, 1


def play(table: Table, seed: int) -> tuple[list[OutboxMessage], list[Move]]:
    """A whole game (a chip game's deal) by random legal moves, AI moves and time-outs, with
    every body the narrator writes on the way, a warning now and then included."""
    rng, ai_rng = random.Random(seed), random.Random(seed + 1)
    bodies = [narration.board(table), *narration.letters(table, [], None)]
    moves: list[Move] = []
    for step in range(600):
        game = table.require_game()
        seats = awaited(game)
        if game.is_over or not seats:
            break
        seat = rng.choice(seats)
        action = random_action(game, seat, rng, ai_rng)
        try:
            events = table.act(FIRST_USER + seat, seat, action)
        except TableError:
            continue
        moves.append(Move(seat, action))
        closed = list(table.dm_closed)
        bodies += narration.step(table, events, actor=seat)
        table.dm_closed = closed  # a new hand tries DMs again: they stay closed here
        if step % 7 == 0 and not table.require_game().is_over:
            bodies += narration.warning(table, sorted(table.require_game().to_act), 1.7e9)
    return bodies, moves


def replay_pages(table: Table, seed: int, moves: list[Move]) -> Iterator[str]:
    """The game's replay pages: first, middle and last frames, for everyone and each seat."""
    names = tuple(HOSTILE[0] if i == 0 else seat.name for i, seat in enumerate(table.seats))
    options = options_for(table.kind, len(names))
    notation = Notation.single(table.kind, names, options, seed, moves)
    when = datetime(2024, 1, 1, tzinfo=UTC)
    played = PlayedGame(1, table.table_id, table.kind, "finished", when, when, options, seed,
                        names, tuple(0 for _ in names))
    replayer = Replayer(notation, **extras(table.game_class))
    for index in sorted({0, len(replayer) // 2, len(replayer) - 1}):
        frame = replayer.frame(index)
        for who in (EVERYONE, *range(len(names))):
            yield frame_text(played, notation, frame, who)


@pytest.mark.parametrize("locale", i18n.LOCALES)
@pytest.mark.parametrize("kind", engine_kinds())
def test_every_message_of_a_whole_game_shows_hostile_names_inert(kind: str,
                                                                 locale: str) -> None:
    rotations = range(0, len(HOSTILE), seat_count(kind))
    for rotation in rotations:
        seed = 1000 * rotation + len(kind)
        table = seated(kind, locale, rotation)
        texts: list[tuple[str, Collection[int]]] = [(lobby_text(table, 1.7e9), ())]
        start(table, seed)
        bodies, moves = play(table, seed)
        bodies += narration.restarted(table)
        bodies += narration.closed(table, msg("The table was cancelled by {name}.",
                                             name=HOSTILE[1]), tell_channel=True)
        for body in bodies:
            assert set(pinged(body)) <= set(table.dm_closed)
            texts += body_texts(body)
            picture = body.picture if isinstance(body, Post) else None
            if picture:  # pictures draw the names as chosen, cleaned: no backslashes
                assert list(picture.names) == [seat.name for seat in table.seats]
        with i18n.using(locale):
            texts += [(private_text(table, seat, None), ()) for seat in range(len(table.seats))]
            texts += [(board_text(table), table.dm_closed)]
            texts += [(page, ()) for page in replay_pages(table, seed, moves)]
        assert moves, "the game never moved"
        bad = [(text, problems) for text, pings in texts
               if (problems := trouble(text, pings))]
        assert not bad, bad[:3]
        # Shown, and escaped once (twice, its backslashes would show).
        assert any(inert(table.seats[0].name) in text for text, _ in texts)


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[Store]:
    opened = await Store.open(tmp_path / "db.sqlite3")
    yield opened
    await opened.close()


async def test_the_boards_show_names_inert(store: Store) -> None:
    """The chips board (`/leaderboard game:chips`), a game's board and its rating board."""
    bank = Bank(store)
    for offset, name in enumerate(HOSTILE):
        await store.upsert_player(FIRST_USER + offset, name)
        await bank.balance(GUILD, FIRST_USER + offset)
    lines = await bank.richest(GUILD)
    assert len(lines) == len(HOSTILE)
    rows: Mapping[str, list[str]] = {
        "chips": lines,
        "wins": [leaderboard_line(LeaderboardRow(1, FIRST_USER, name, 3, 2, 7, 0.67))
                 for name in HOSTILE],
        "rating": [rating_line(RatingRow(1, FIRST_USER, name, fresh(), 3, 2))
                   for name in HOSTILE],
    }
    for board, shown_lines in rows.items():
        assert not [(line, trouble(line)) for line in shown_lines if trouble(line)], board
        for name in HOSTILE:  # each name is there, showing as chosen (cleaned)
            assert any(clean(name) in shown(line) for line in shown_lines), (board, name)
