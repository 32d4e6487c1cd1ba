"""Finished games as notations (engine/notation.py), read from the store: what `/replay`
steps through and exports. Discord-free.

A game is found by its short id, the id of the table it was played at (shown at its end and
in `/stats`), within its server. A table's game record gives the header (kind, seats, options,
seed, date, result) and its action log the moves; a cash table's log also holds a record of
each deal (`bot.core.table.Table.log_deal`: its seed, seats and options, stacks and button among
them), which starts that deal's section. Only ended tables have a record, so a game still
running is never found: its notation is never written here.

The queries are plain, portable SQL with `?` placeholders (`bot.store.drivers`), on the store's
read connection; SQLite and PostgreSQL alike.

A notation keeps names and typed words as they were played; a replay's page shows them inert
(`bot.present.inert`), like the table did.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from bot.core.table import DEAL_RECORD
from bot.present.i18n import DEFAULT_LOCALE, catalogue, current, render, t
from bot.present.inert import TEXT_LIMIT, clean, inert
from bot.present.render import cards_text, clip, renderer_for, shown_view
from bot.store import Store
from engine.game import Action
from engine.games import GAMES
from engine.games.pokeno.scoring import space_name
from engine.games.pokeno.spaces import Space
from engine.i18n import N_, msg
from engine.notation import Deal, Frame, Move, Notation
from engine.replay import format_action

SHORT_ID_CHARS = 8  # a table id: secrets.token_hex(4)


class ReplayUnavailable(LookupError):
    """No replay to give; the message says why and is fit to show."""


@dataclass(frozen=True)
class PlayedGame:
    """An ended game of a server, as its record has it."""

    game_id: int
    table_id: str
    kind: str
    status: str
    started_at: datetime
    finished_at: datetime
    options: Mapping[str, Any]
    seed: int | None
    names: tuple[str, ...]
    scores: tuple[int | None, ...]

    @property
    def title(self) -> str:
        return GAMES[self.kind].title if self.kind in GAMES else self.kind

    def label(self) -> str:
        """One line to pick it by: id, game, players and when (a menu's choice: text as it
        is, so the names are cleaned, not escaped)."""
        when = self.finished_at.strftime("%Y-%m-%d %H:%M")
        aborted = " (aborted)" if self.status != "finished" else ""
        names = ", ".join(clean(name) for name in self.names)
        return f"{self.table_id} · {self.title}{aborted} · {names} · {when}"


@dataclass(frozen=True)
class LogRow:
    """One row of a table's action log: `action` as `Action.to_json()` wrote it."""

    step: int
    seat: int
    action: Sequence[Any]


async def _fetch(store: Store, sql: str, params: Sequence[Any]) -> list[Any]:
    async with store._read() as conn:
        return list(await conn.fetch_all(sql, tuple(params)))


def _moment(text: str) -> datetime:
    moment = datetime.fromisoformat(str(text))
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


_GAME_COLUMNS = ("SELECT g.id AS id, g.table_id AS table_id, g.kind AS kind, g.status AS status,"
                 " g.started_at AS started_at, g.finished_at AS finished_at,"
                 " g.options AS options, g.seed AS seed FROM games g")


async def _played(store: Store, rows: list[Any]) -> list[PlayedGame]:
    found = []
    for row in rows:
        seats = await _fetch(
            store,
            "SELECT r.seat AS seat, coalesce(r.seat_label, p.display_name) AS name,"
            " r.score AS score FROM game_results r LEFT JOIN players p ON p.user_id = r.user_id"
            " WHERE r.game_id = ? ORDER BY r.seat", (row["id"],))
        options = row["options"]
        found.append(PlayedGame(
            game_id=int(row["id"]), table_id=str(row["table_id"]), kind=str(row["kind"]),
            status=str(row["status"]), started_at=_moment(row["started_at"]),
            finished_at=_moment(row["finished_at"]),
            options=json.loads(options) if isinstance(options, str) else dict(options or {}),
            seed=None if row["seed"] is None else int(row["seed"]),
            names=tuple(str(seat["name"] or f"seat {seat['seat']}") for seat in seats),
            scores=tuple(seat["score"] for seat in seats),
        ))
    return found


async def find_game(store: Store, guild_id: int, short_id: str) -> PlayedGame | None:
    """The ended game of this server played at table `short_id` (case and a leading # or
    spaces forgiven)."""
    short_id = short_id.strip().lstrip("#").lower()
    if not short_id:
        return None
    rows = await _fetch(store, _GAME_COLUMNS + " WHERE g.guild_id = ? AND g.table_id = ?"
                        " ORDER BY g.id DESC LIMIT 1", (guild_id, short_id))
    games = await _played(store, rows)
    return games[0] if games else None


async def recent_games(store: Store, guild_id: int, *, user_id: int | None = None,
                       starting: str = "", limit: int = 25) -> list[PlayedGame]:
    """This server's latest ended games with a replay (newest first): a person's, or
    everyone's; those whose id starts with `starting`."""
    sql = _GAME_COLUMNS + " WHERE g.guild_id = ? AND g.table_id IS NOT NULL"
    params: list[Any] = [guild_id]
    if starting.strip():
        sql += " AND g.table_id LIKE ?"
        params.append(starting.strip().lstrip("#").lower().replace("%", "").replace("_", "")
                      + "%")
    if user_id is not None:
        sql += " AND EXISTS (SELECT 1 FROM game_results r WHERE r.game_id = g.id" \
               " AND r.user_id = ?)"
        params.append(user_id)
    sql += " ORDER BY g.id DESC LIMIT ?"
    params.append(limit)
    return await _played(store, await _fetch(store, sql, params))


async def action_log(store: Store, table_id: str) -> list[LogRow]:
    rows = await _fetch(store, "SELECT step, seat, action FROM table_actions"
                        " WHERE table_id = ? ORDER BY step", (table_id,))
    return [LogRow(int(row["step"]), int(row["seat"]), json.loads(row["action"]))
            for row in rows]


def notation_for(game: PlayedGame, log: Sequence[LogRow]) -> Notation:
    """The whole notation of an ended game from its record and its action log."""
    if game.kind not in GAMES:
        raise ReplayUnavailable(msg("{kind} is no game this bot knows any more.",
                                    kind=repr(game.kind)))
    if game.seed is None:
        raise ReplayUnavailable(msg("This game was recorded without its seed, so it cannot be "
                                    "replayed."))
    tags: dict[str, Any] = {"Table": game.table_id}
    if all(score is not None for score in game.scores):
        tags["Result"] = list(game.scores)
    if game.status != "finished":
        tags["Status"] = game.status
    date = game.started_at.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    if not GAMES[game.kind].chip_game:
        moves = [Move(row.seat, Action.from_json(row.action)) for row in log]
        return Notation.single(game.kind, game.names, game.options, game.seed, moves,
                               date=date, tags=tags)
    deals: list[tuple[dict[str, Any], list[Move]]] = []
    for row in log:
        action = Action.from_json(row.action)
        if action.name == DEAL_RECORD and len(action.args) == 1 \
                and isinstance(action.args[0], dict):
            deals.append((action.args[0], []))
        elif not deals:
            raise ReplayUnavailable(msg("This table was played before its deals were "
                                        "recorded, so it cannot be replayed."))
        else:
            deals[-1][1].append(Move(row.seat, action))
    if not deals:
        raise ReplayUnavailable(msg("No deal was dealt at this table."))
    sections = tuple(Deal(tuple(header["names"]), header["options"], header["seed"],
                          tuple(moves)) for header, moves in deals)
    return Notation(game.kind, game.names, game.options, game.seed, sections, date, tags)


async def load_notation(store: Store, guild_id: int, short_id: str) -> tuple[PlayedGame,
                                                                             Notation]:
    """An ended game of this server and its notation; ReplayUnavailable says why not."""
    game = await find_game(store, guild_id, short_id)
    if game is None:
        raise ReplayUnavailable(msg(
            "No finished game `{id}` in this server. The id is shown when a game ends and in "
            "`/stats`; a game still being played has no replay yet.",
            id=short_id.strip()[:SHORT_ID_CHARS * 2]))
    return game, notation_for(game, await action_log(store, game.table_id))


def file_name(game: PlayedGame) -> str:
    return f"{game.kind}-{game.table_id}.txt"


# --- a replay's page: one frame as text ------------------------------------------------------

EVERYONE = -1  # "who" of a page showing the table and every hand, no one seat's knowledge

# A move line in the reader's language. The English line is the notation itself ("declare
# poker", "bet 20", "choose badugi"), so these entries are there to be translated: where a
# catalogue has none (English), the notation's own word is shown. Keys are the action's name
# (a verb) and the words among its arguments; a game whose action means something else
# there has its own entry (Chicago's "call" is the Chicago call, Po-Ke-No's a full board).
MOVE_VERBS = {
    "bet": N_("move: bet"), "call": N_("move: call"), "check": N_("move: check"),
    "choose": N_("move: choose"), "confirm": N_("move: confirm"),
    "declare": N_("move: declare"), "discard": N_("move: discard"), "draw": N_("move: draw"),
    "end": N_("move: end"), "exchange": N_("move: exchange"), "fold": N_("move: fold"),
    "next_hand": N_("move: next_hand"), "order": N_("move: order"), "pass": N_("move: pass"),
    "pick": N_("move: pick"), "place": N_("move: place"), "play": N_("move: play"),
    "raise": N_("move: raise"), "reset": N_("move: reset"), "reveal": N_("move: reveal"),
    "stand": N_("move: stand"), "timeout": N_("move: timeout"), "undo": N_("move: undo"),
    "word": N_("move: word"),
}
GAME_MOVE_VERBS = {
    ("chicago", "call"): N_("move: call Chicago"), ("chicago", "pass"): N_("move: no call"),
    ("pokeno", "call"): N_("move: call full board"),
    ("pokeno_solitaire", "call"): N_("move: call full board"),
}
MOVE_WORDS = {
    "poker": N_("move: poker"), "spelling": N_("move: spelling"),
    "double": N_("move: double"), "both": N_("move: both"), "high": N_("move: high"),
    "low": N_("move: low"),
}


def _entry(key: str, fallback: str) -> str:
    """A move's word in the current locale, or the notation's own word without one."""
    found = catalogue().gettext(key)
    return fallback if found == key else found


def move_text(move: Move, kind: str) -> str:
    """What a replay's line says a seat did, without the seat: the notation's words (the
    action, then its arguments) in the reader's language, a typed word made inert.

    The English is the notation as written; Swedish names the action in Swedish, its
    declared side (poker, high) too, a Po-Ke-No space by its name and a Dealer's Choice
    game by its title. Cards and numbers are the same in every language."""
    name = move.action.name
    verb = GAME_MOVE_VERBS.get((kind, name)) or MOVE_VERBS.get(name)
    words = [_entry(verb, name) if verb else name]
    if move.hidden:
        words.append("?")
        return " ".join(words)
    for arg in move.action.args:
        if arg is None and current() != DEFAULT_LOCALE:
            continue  # the notation's `null` (no word yet) says nothing to a reader
        plain = format_action(Action("", (arg,))).strip()
        if isinstance(arg, str) and arg in MOVE_WORDS:
            words.append(_entry(MOVE_WORDS[arg], plain))
        elif isinstance(arg, str) and name == "choose" and arg in GAMES:
            words.append(_entry_title(arg, plain))
        elif isinstance(arg, str) and name == "place" and arg.upper() in Space.__members__:
            words.append(_localized(render(space_name(Space[arg.upper()])), plain))
        else:
            words.append(inert(plain, limit=TEXT_LIMIT, squeeze=False))
    return " ".join(words)


def _entry_title(kind: str, plain: str) -> str:
    """A game chosen, by its title in the reader's language (its kind in English, as
    the notation writes it)."""
    return _localized(render(GAMES[kind].title), plain)


def _localized(shown: str, plain: str) -> str:
    """A translated word where the reader's language is not the notation's (English)."""
    return plain if current() == DEFAULT_LOCALE else shown


def frame_text(game: PlayedGame, notation: Notation, frame: Frame, who: int = EVERYONE) -> str:
    """One step of a replay: the move and what it told (a seat's own news marked 🔒 with its
    name), the table as the channel saw it, and every hand face up; or, for `who`, what that
    seat knew then (its own view and its news this hand)."""
    names = [inert(name) for name in frame.names]
    deal = notation.deals[frame.deal - 1]
    where = [t("move {n} of {total}", n=frame.step, total=len(deal.moves)) if frame.step
             else t("as dealt")]
    if len(notation.deals) > 1:
        where.insert(0, t("deal {n} of {total}", n=frame.deal, total=len(notation.deals)))
    elif frame.public.deal:
        where.insert(0, t("deal {n}", n=frame.public.deal))
    title = GAMES[frame.public.kind].title if frame.public.kind in GAMES else game.title
    if title != game.title:
        title = f"{game.title}: {title}"
    place = " · ".join(where)
    lines = [t("🎞️ **Replay · {title}** `{table}` — {names}", title=title,
               table=game.table_id, names=", ".join(names)),
             place[:1].upper() + place[1:]]
    one = 0 <= who < len(frame.views)
    # What one seat knew holds only what it saw: another's move without the arguments it
    # did not see (a sealed declaration, cards placed face down), none of another's news.
    shown_move = frame.move_seen_by(who) if one else frame.move
    if shown_move is not None:  # its words are as typed: inert too
        lines.append(f"**{names[shown_move.seat]}**: "
                     f"{move_text(shown_move, frame.public.kind)}")
    for event in frame.known_to(who) if one else frame.events:
        for text in render(event.text).split("\n"):
            if text.strip():
                lines.append(f"› {text}" if event.seat is None
                             else f"🔒 {names[event.seat]}: {text}")
    renderer = renderer_for(frame.public.kind)
    lines.append("")
    if not one:
        lines += renderer.public(shown_view(frame.public))
        lines += ["", t("**Every hand, face up**")]
        lines += [f"{inert(view.name)}: {cards_text(list(view.hand)) if view.hand else '—'}"
                  for view in frame.views]
    else:
        lines.append(t("**What {name} knew**", name=names[who]))
        lines += renderer.private(shown_view(frame.views[who]))
        lines += [f"› {render(note)}" for note in frame.notes[who][-5:]]
    if frame.over and frame.result is not None:
        scores = ", ".join(f"{name} {score}" for name, score
                           in zip(names, frame.result.scores, strict=True))
        lines += ["", f"🏁 {scores}" + (f" — {render(frame.result.summary)}"
                                        if frame.result.summary else "")]
    return clip("\n".join(lines))
