"""The game notation: any game of any kind as text, as chess has PGN, and its replay.

A notation is a header of tags (the game, its seats, options, seed, date) and the moves in
the order they were applied, one a line. A game owns its random generator, seeded, so those
rebuild it exactly (`games`), and `Replayer` steps through it move by move with every hand
face up and what each seat knew. A cash table plays several deals, each a game of its own on
the stacks of the moment: each deal then has its own section (`[Deal n]` with its seed,
seats, stacks and button) before its moves. docs/notation.md is the format's description.

While a game runs its notation hides what is still secret (`conceal`): no seed (the seed is
the deck order) and no arguments of an action everyone did not see made (the cards thrown,
a sealed declaration: `Game.action_is_public`), written `?`. Such a notation still reads
back, but cannot be replayed. `notation_of` gives the notation fit to write of a game now:
whole once it is over, concealed while it runs.

>>> from engine.game import Action
>>> game = Notation.single("poke", ["Ann", "Bob"], {"first_dealer": 0}, 7,
...                        [Move(1, Action("stand"))])
>>> print(write(game))
[Game "poke"]
[Seats ["Ann", "Bob"]]
[Options {"first_dealer": 0}]
[Seed 7]
<BLANKLINE>
1 stand
<BLANKLINE>
>>> parse(write(game)) == game
True
>>> [g.phase for g in games(game)]
['draw']
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.game import Action, Event, Game, GameResult
from engine.replay import LoggedAction, ReplayError, format_action, game_class, parse_action
from engine.views import GameView, SeatView

__all__ = [
    "HIDDEN",
    "Deal",
    "Frame",
    "Move",
    "Notation",
    "NotationError",
    "Replayer",
    "conceal",
    "games",
    "notation_of",
    "parse",
    "write",
]

HIDDEN = "?"
"""What a concealed move shows in place of its arguments."""
LIFTED = ("stacks", "button")  # deal options written as tags of their own
NOTES_KEPT = 10  # a seat's private news kept per hand, as the table keeps it
RECENT_KEPT = 6  # the last public lines, as the live board shows them
_TAG_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_]*")
_TAG = re.compile(r"\[(?P<name>[A-Za-z][A-Za-z0-9_]*) (?P<value>.*)\]")
_HEADER_TAGS = ("Game", "Seats", "Options", "Seed", "Date")


class NotationError(ValueError):
    """Text that is not a notation, or a notation that cannot do what was asked (a concealed
    one cannot be replayed); the message says which line or why."""


Seed = int | str


@dataclass(frozen=True)
class Move:
    """One applied action. `hidden`: its arguments are withheld (a running game's secret)."""

    seat: int
    action: Action
    hidden: bool = False

    def format(self) -> str:
        if self.hidden:
            return f"{self.seat} {self.action.name} {HIDDEN}"
        return f"{self.seat} {format_action(self.action)}"

    @classmethod
    def parse(cls, line: str) -> Move:
        seat, _, rest = line.strip().partition(" ")
        if not seat.isdigit() or not rest.strip():
            raise ValueError(f"a move is a seat number, then the action: {line!r}")
        name, _, args = rest.strip().partition(" ")
        if args.strip() == HIDDEN:
            return cls(int(seat), Action(name), hidden=True)
        return cls(int(seat), parse_action(rest))

    def concealed(self) -> Move:
        return self if self.hidden or not self.action.args else \
            Move(self.seat, Action(self.action.name), hidden=True)


@dataclass(frozen=True)
class Deal:
    """One game as built (seat names, options, seed) and the moves applied to it. The seed
    is None when concealed."""

    names: tuple[str, ...]
    options: Mapping[str, Any]
    seed: Seed | None
    moves: tuple[Move, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "names", tuple(self.names))
        object.__setattr__(self, "options", dict(self.options))
        object.__setattr__(self, "moves", tuple(self.moves))


@dataclass(frozen=True)
class Notation:
    """A whole game: its kind (`game`), its seats, options and seed as the table set them, its
    deals (one, or one per deal of a cash table), the date it began and any further tags
    (`Table`, `Result`, ...: kept as written, in order)."""

    game: str
    names: tuple[str, ...]
    options: Mapping[str, Any]
    seed: Seed | None
    deals: tuple[Deal, ...]
    date: str | None = None
    tags: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        object.__setattr__(self, "names", tuple(self.names))
        object.__setattr__(self, "options", dict(self.options))
        object.__setattr__(self, "deals", tuple(self.deals))
        object.__setattr__(self, "tags", dict(self.tags))
        clash = [tag for tag in self.tags if tag in _HEADER_TAGS or tag == "Deal"]
        if clash:
            raise ValueError(f"{clash[0]} is a field of the notation, not a further tag")
        bad = [tag for tag in self.tags if not _TAG_NAME.fullmatch(tag)]
        if bad:
            raise ValueError(f"a tag's name is a letter, then letters, digits or _: {bad[0]!r}")

    @classmethod
    def single(cls, game: str, names: Sequence[str], options: Mapping[str, Any],
               seed: Seed | None, moves: Iterable[Move | LoggedAction | tuple[int, Action]],
               *, date: str | None = None, tags: Mapping[str, Any] | None = None) -> Notation:
        """A game of one deal, built as the header says (every game but a cash table's)."""
        deal = Deal(tuple(names), options, seed, tuple(_move(m) for m in moves))
        return cls(game, tuple(names), options, seed, (deal,), date, tags or {})

    @property
    def concealed(self) -> bool:
        """Whether it hides something (no seed, or a move's arguments): not replayable."""
        return any(deal.seed is None or any(move.hidden for move in deal.moves)
                   for deal in self.deals)

    @property
    def sectioned(self) -> bool:
        """Whether it is written in deal sections: not when it is one deal built as the
        header says."""
        if len(self.deals) != 1:
            return True
        deal = self.deals[0]
        return (deal.names, deal.options, deal.seed) != (self.names, self.options, self.seed)

    @property
    def moves(self) -> int:
        return sum(len(deal.moves) for deal in self.deals)


def _move(item: Move | LoggedAction | tuple[int, Action]) -> Move:
    if isinstance(item, Move):
        return item
    if isinstance(item, LoggedAction):
        return Move(item.seat, item.action)
    seat, action = item
    return Move(seat, action)


# --- text -------------------------------------------------------------------------------


def _tag(name: str, value: Any) -> str:
    return f"[{name} {json.dumps(value, ensure_ascii=False)}]"


def write(notation: Notation) -> str:
    """The notation as text: the header's tags, then the moves (in deal sections for a cash
    table), ending with a newline. `parse` reads it back as it was."""
    lines = [_tag("Game", notation.game)]
    if notation.date is not None:
        lines.append(_tag("Date", notation.date))
    lines.append(_tag("Seats", list(notation.names)))
    lines.append(_tag("Options", notation.options))
    if notation.seed is not None:
        lines.append(_tag("Seed", notation.seed))
    lines += [_tag(name, value) for name, value in notation.tags.items()]
    if not notation.sectioned:
        lines.append("")
        lines += [move.format() for move in notation.deals[0].moves]
    for number, deal in enumerate(notation.deals if notation.sectioned else (), 1):
        lines += ["", _tag("Deal", number)]
        if deal.seed is not None:
            lines.append(_tag("Seed", deal.seed))
        lines.append(_tag("Seats", list(deal.names)))
        rest = {key: value for key, value in deal.options.items() if key not in LIFTED}
        lines += [_tag(key.title(), deal.options[key]) for key in LIFTED if key in deal.options]
        if rest:
            lines.append(_tag("Options", rest))
        lines += [move.format() for move in deal.moves]
    return "\n".join(lines) + "\n"


def parse(text: str) -> Notation:
    """A notation read from text (`write`'s, or one a person wrote: blank lines and lines
    starting with `;` are skipped). Raises NotationError naming the line it cannot read."""
    header: dict[str, Any] = {}
    tags: dict[str, Any] = {}
    sections: list[tuple[dict[str, Any], list[Move]]] = []
    plain: list[Move] = []
    for number, raw in enumerate(text.split("\n"), 1):  # not splitlines: a name may hold
        line = raw.strip(" \t\r")                     # U+2028, which JSON leaves as it is
        if not line or line.startswith(";"):
            continue
        try:
            if line.startswith("["):
                name, value = _read_tag(line)
                if name == "Deal":
                    if plain:
                        raise ValueError("a deal section after moves outside any")
                    if value != len(sections) + 1:
                        raise ValueError(f"deal {len(sections) + 1} expected, not {value!r}")
                    sections.append(({}, []))
                elif sections:
                    if sections[-1][1]:
                        raise ValueError("a deal's tags come before its moves")
                    _put(sections[-1][0], name, value)
                elif plain:
                    raise ValueError("the header's tags come before the moves")
                elif name in _HEADER_TAGS:
                    _put(header, name, value)
                else:
                    _put(tags, name, value)
            else:
                move = Move.parse(line)
                (sections[-1][1] if sections else plain).append(move)
        except ValueError as error:
            raise NotationError(f"line {number}: {error}") from error
    if "Game" not in header:
        raise NotationError("no [Game ...] tag: this is not a game notation")
    game, names = header["Game"], header.get("Seats")
    options, seed = header.get("Options", {}), header.get("Seed")
    _check_header(game, names, options, seed)
    assert isinstance(names, list) and isinstance(options, dict)
    if sections:
        deals = tuple(_deal(number, section, moves)
                      for number, (section, moves) in enumerate(sections, 1))
    else:
        deals = (Deal(tuple(names), options, seed, tuple(plain)),)
    date = header.get("Date")
    if date is not None and not isinstance(date, str):
        raise NotationError("[Date] must be text")
    return Notation(game, tuple(names), options, seed, deals, date, tags)


def _read_tag(line: str) -> tuple[str, Any]:
    found = _TAG.fullmatch(line)
    if found is None:
        raise ValueError(f"a tag is [Name value]: {line!r}")
    try:
        value = json.loads(found["value"])
    except json.JSONDecodeError as error:
        raise ValueError(f"the value of [{found['name']}] is not JSON: {error}") from error
    return found["name"], value


def _put(into: dict[str, Any], name: str, value: Any) -> None:
    if name in into:
        raise ValueError(f"[{name}] twice")
    into[name] = value


def _check_header(game: Any, names: Any, options: Any, seed: Any) -> None:
    if not isinstance(game, str) or not game:
        raise NotationError("[Game] must name the kind of game")
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        raise NotationError("[Seats] must list the seats' names")
    if not isinstance(options, dict):
        raise NotationError("[Options] must be a JSON object")
    if seed is not None and (not isinstance(seed, int | str) or isinstance(seed, bool)):
        raise NotationError("[Seed] must be a number or text")


def _deal(number: int, section: Mapping[str, Any], moves: list[Move]) -> Deal:
    unknown = sorted(set(section) - {"Seed", "Seats", "Options", *(k.title() for k in LIFTED)})
    if unknown:
        raise NotationError(f"deal {number}: unknown tag [{unknown[0]}]")
    names, seed = section.get("Seats"), section.get("Seed")
    options = section.get("Options", {})
    _check_header(f"deal {number}", names, options, seed)
    assert isinstance(names, list) and isinstance(options, dict)
    for key in LIFTED:
        if key.title() in section:
            if key in options:
                raise NotationError(f"deal {number}: {key} both as a tag and an option")
            options = {**options, key: section[key.title()]}
    return Deal(tuple(names), options, seed, tuple(moves))


# --- building, concealing, replaying ------------------------------------------------------


def _build(kind: str, deal: Deal, extra: Mapping[str, Any]) -> tuple[Game, list[Event]]:
    if deal.seed is None:
        raise NotationError("this notation hides the seed (a game still running): it cannot "
                            "be replayed")
    cls = game_class(kind)
    game = cls(list(deal.names), dict(deal.options), random.Random(deal.seed), **extra)
    return game, game.opening_events()


def _apply(game: Game, number: int, step: int, move: Move) -> list[Event]:
    if move.hidden:
        raise NotationError(f"deal {number}, move {step} is hidden (a game still running): "
                            "it cannot be replayed")
    try:
        return game.apply(move.seat, move.action)
    except Exception as error:
        raise ReplayError(f"deal {number}, move {step}: seat {move.seat} "
                          f"{format_action(move.action)}: {error}") from error


def games(notation: Notation, **extra: Any) -> list[Game]:
    """Each deal rebuilt to its last move (one game unless a cash table dealt several).
    `extra` goes to every constructor (a Sppoker dictionary in tests). Raises NotationError
    for a concealed notation, ReplayError at the first move a rebuilt game refuses."""
    rebuilt = []
    for number, deal in enumerate(notation.deals, 1):
        game, _ = _build(notation.game, deal, extra)
        for step, move in enumerate(deal.moves, 1):
            _apply(game, number, step, move)
        rebuilt.append(game)
    return rebuilt


def conceal(notation: Notation, **extra: Any) -> Notation:
    """What may be written while the game runs: no seed, and every move whose arguments
    not everyone saw made (`Game.action_is_public`) without them. Replays the notation to
    ask each game as it was; a notation already concealed is returned as it is."""
    if notation.concealed:
        return notation
    deals = []
    for number, deal in enumerate(notation.deals, 1):
        game, _ = _build(notation.game, deal, extra)
        moves = []
        for step, move in enumerate(deal.moves, 1):
            public = game.action_is_public(move.seat, move.action)
            moves.append(move if public else move.concealed())
            _apply(game, number, step, move)
        deals.append(Deal(deal.names, deal.options, None, tuple(moves)))
    return Notation(notation.game, notation.names, notation.options, None, tuple(deals),
                    notation.date, notation.tags)


def notation_of(game: Game, options: Mapping[str, Any], seed: Seed,
                log: Iterable[LoggedAction | tuple[int, Action]], *, date: str | None = None,
                tags: Mapping[str, Any] | None = None, **extra: Any) -> Notation:
    """The notation fit to write of `game` (built with `options` and `seed`, then `log`
    applied) as it stands: the whole game once it is over, with its `Result` (the scores);
    concealed while it runs (`Result` "*")."""
    over = game.is_over and game.result is not None
    result: Any = list(game.result.scores) if over and game.result else "*"
    notation = Notation.single(game.kind, game.seats, options, seed, log, date=date,
                               tags={**(tags or {}), "Result": result})
    return notation if over else conceal(notation, **extra)


# --- stepping through -------------------------------------------------------------------


@dataclass(frozen=True)
class Frame:
    """The game at one point of a replay: `index` counts from 0 over the whole notation;
    `deal` (from 1) and `step` (moves of that deal applied, 0 = as dealt) locate it; `move`
    is the move that led here and `events` what it told (private ones carry their seat).
    `views` are every seat's own view (every hand, face up), `notes` each seat's private news
    this hand (as the table keeps it) and `recent` the last public lines. `move_public`:
    everyone saw the move's arguments (`Game.action_is_public`, asked before it was applied),
    so what one seat knew then includes them only when it is theirs or public."""

    index: int
    deal: int
    step: int
    move: Move | None
    events: tuple[Event, ...]
    public: GameView
    views: tuple[SeatView, ...]
    notes: tuple[tuple[str, ...], ...]
    recent: tuple[str, ...]
    over: bool
    result: GameResult | None
    move_public: bool = True

    @property
    def names(self) -> tuple[str, ...]:
        return self.public.names

    def known_to(self, seat: int) -> list[Event]:
        """What this step told `seat`: the public events and its own, never another seat's
        news (another's hand is as secret in a replay's "what bob knew" as at the table)."""
        return [event for event in self.events if event.seat is None or event.seat == seat]

    def move_seen_by(self, seat: int) -> Move | None:
        """The move as `seat` saw it: whole when it is theirs or everyone saw it, else without
        its arguments (concealed, as a running game's notation writes it)."""
        if self.move is None or self.move_public or self.move.seat == seat:
            return self.move
        return self.move.concealed()


class Replayer:
    """Steps through a notation, forwards and back (going back replays the deal from its
    start). Frames are numbered from 0 across deals; `starts[d]` is the first of deal d+1."""

    def __init__(self, notation: Notation, **extra: Any) -> None:
        if notation.concealed:
            raise NotationError("this notation hides moves (a game still running): it cannot "
                                "be replayed")
        self.notation = notation
        self.extra = extra
        self.starts: list[int] = []
        total = 0
        for deal in notation.deals:
            self.starts.append(total)
            total += len(deal.moves) + 1
        self.length = total
        self._game: Game | None = None
        self._at = (-1, -1)  # (deal index, step) the game stands at
        self._events: list[Event] = []
        self._public = True  # whether everyone saw the arguments of the move last applied
        self._notes: dict[int, list[str]] = {}
        self._recent: list[str] = []
        self._chapters: list[int] | None = None

    def __len__(self) -> int:
        return self.length

    def locate(self, index: int) -> tuple[int, int]:
        """(deal index from 0, step) of a frame; out-of-range indexes are clamped."""
        index = min(max(index, 0), self.length - 1)
        deal = max(d for d, start in enumerate(self.starts) if start <= index)
        return deal, index - self.starts[deal]

    def frame(self, index: int) -> Frame:
        deal, step = self.locate(index)
        if self._game is None or self._at[0] != deal or self._at[1] > step:
            self._start(deal)
        game = self._game
        assert game is not None
        moves = self.notation.deals[deal].moves
        while self._at[1] < step:
            move = moves[self._at[1]]
            self._public = game.action_is_public(move.seat, move.action)
            self._events = _apply(game, deal + 1, self._at[1] + 1, move)
            self._record(self._events)
            self._at = (deal, self._at[1] + 1)
        seats = range(len(game.seats))
        return Frame(
            index=self.starts[deal] + step, deal=deal + 1, step=step,
            move=moves[step - 1] if step else None, events=tuple(self._events),
            public=game.public_view(), views=tuple(game.view(seat) for seat in seats),
            notes=tuple(tuple(self._notes.get(seat, ())) for seat in seats),
            recent=tuple(self._recent), over=game.is_over, result=game.result,
            move_public=self._public if step else True,
        )

    def chapters(self) -> list[int]:
        """The frames where a deal begins, for jumping to a deal: each deal of a cash table,
        or within one game each deal its views count (Chicago's deals, Sppoker's hands)."""
        if self._chapters is None and self.notation.sectioned:
            self._chapters = list(self.starts)
        if self._chapters is None:
            found: list[int] = []
            for number, deal in enumerate(self.notation.deals):
                game, _ = _build(self.notation.game, deal, self.extra)
                found.append(self.starts[number])
                current = game.public_view().deal
                for step, move in enumerate(deal.moves, 1):
                    _apply(game, number + 1, step, move)
                    now = game.public_view().deal
                    if now != current and not game.is_over:
                        found.append(self.starts[number] + step)
                    current = now
            self._chapters = found
        return self._chapters

    def _start(self, deal: int) -> None:
        self._game, self._events = _build(self.notation.game, self.notation.deals[deal],
                                          self.extra)
        self._at = (deal, 0)
        self._notes, self._recent = {}, []
        self._record(self._events)

    def _record(self, events: list[Event]) -> None:
        for event in events:
            if event.seat is None:
                self._recent += [line for line in event.text.split("\n") if line]
            elif event.kind == "hand":  # a new hand: the old news is stale
                self._notes[event.seat] = []
            elif event.text:  # an event without words (a picture's) is no news
                self._notes.setdefault(event.seat, []).append(event.text)
        for notes in self._notes.values():
            del notes[:-NOTES_KEPT]
        del self._recent[:-RECENT_KEPT]
