"""A game's action log and its replay: any game, finished or not, rebuilt from what it was
built with (kind, seat names, options, seed) and the actions applied to it, in order.

A game owns its random generator, seeded, so its whole history is a function of those four
things and the log: the table service stores the log beside each snapshot, and a snapshot
can then be audited (is it what the actions make?) or rebuilt after a change of rules code.
AI moves and timeouts are logged as the concrete actions that were applied (a timeout as
`TIMEOUT`), so a replay never runs an AI and never needs the clock.

>>> from engine.games import GAMES
>>> log = [LoggedAction(1, Action("draw", ("2c",)), at=1700000000.0)]
>>> parse_action(format_action(log[0].action)) == log[0].action
True
>>> LoggedAction.parse(log[0].format())
LoggedAction(seat=1, action=Action(name='draw', args=('2c',)), at=1700000000.0)
>>> game = replay("poke", ["Ann", "Bob"], {"first_dealer": 0}, 7, [])
>>> game.phase, sorted(game.to_act)
('draw', [1])
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.game import Action, Game

__all__ = [
    "LoggedAction",
    "ReplayError",
    "build",
    "format_action",
    "game_class",
    "parse_action",
    "replay",
]


class ReplayError(Exception):
    """A logged action the rebuilt game refuses: the log does not belong to these
    settings, or the rules changed since it was written. The message says which step."""


@dataclass(frozen=True)
class LoggedAction:
    """One applied action: which seat did what, and when (a time stamp the caller supplies,
    seconds since the epoch; the engine has no clock, and a replay ignores it)."""

    seat: int
    action: Action
    at: float | None = None

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "action": self.action.to_json(), "at": self.at}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> LoggedAction:
        at = data.get("at")
        return cls(int(data["seat"]), Action.from_json(data["action"]), _time(at))

    def format(self) -> str:
        """One line of text, `seat action args... [@time]`: a log a person can read and
        write (tests, bug reports), parsed back by `parse`."""
        text = f"{self.seat} {format_action(self.action)}"
        return text if self.at is None else f"{text} @{self.at!r}"

    @classmethod
    def parse(cls, line: str) -> LoggedAction:
        body, at = line.strip(), None
        stamp = re.search(r"\s@(\S+)$", body)
        if stamp:
            body, at = body[: stamp.start()], _time(stamp.group(1))
        seat, _, action = body.partition(" ")
        if not seat.isdigit() or not action.strip():
            raise ValueError(f"not a logged action (seat, then the action): {line!r}")
        return cls(int(seat), parse_action(action), at)


def _time(value: Any) -> float | None:
    return None if value is None else float(value)


# --- the action notation ---------------------------------------------------------------

_BARE = re.compile(r"[A-Za-z][A-Za-z0-9:*_.+\-]*|[2-9TJQKA][cdhs]\S*")
_WORDS = {"null", "true", "false"}


def format_action(action: Action) -> str:
    """An action as text: its name, then each argument, bare when it is a plain word or a
    card ("Ah", "Tc:E"), else as JSON (numbers, null, quoted text with spaces).

    >>> format_action(Action("declare", ("spelling", "cat")))
    'declare spelling cat'
    >>> format_action(Action("pick", (2, None, "two words")))
    'pick 2 null "two words"'
    """
    parts = [action.name]
    for arg in action.args:
        if isinstance(arg, str) and _BARE.fullmatch(arg) and arg not in _WORDS:
            parts.append(arg)
        else:
            parts.append(json.dumps(arg, ensure_ascii=False))
    return " ".join(parts)


def parse_action(text: str) -> Action:
    """The action `format_action` wrote, back again.

    >>> parse_action('declare double "cat"')
    Action(name='declare', args=('double', 'cat'))
    >>> parse_action("play")
    Action(name='play', args=())
    """
    decoder = json.JSONDecoder()
    text = text.strip()
    name, _, rest = text.partition(" ")
    if not name:
        raise ValueError("an action needs a name")
    args: list[Any] = []
    pos = 0
    rest = rest.strip()
    while pos < len(rest):
        if rest[pos].isspace():
            pos += 1
            continue
        bare = _BARE.match(rest, pos)
        end = bare.end() if bare else pos
        if bare and (end == len(rest) or rest[end].isspace()) and bare.group() not in _WORDS:
            args.append(bare.group())
            pos = end
            continue
        try:
            value, pos = decoder.raw_decode(rest, pos)
        except json.JSONDecodeError as error:
            raise ValueError(f"cannot read the argument at {rest[pos:]!r} in {text!r}") from error
        args.append(value)
    return Action(name, tuple(args))


# --- rebuilding -------------------------------------------------------------------------


def game_class(game: str | type[Game]) -> type[Game]:
    """A game class, given itself or its registered kind."""
    if isinstance(game, str):
        from engine.games import GAMES  # registering the games imports them all: only here

        try:
            return GAMES[game]
        except KeyError:
            raise ValueError(f"no game of the kind {game!r}") from None
    return game


def build(
    game: str | type[Game],
    names: Sequence[str],
    options: Mapping[str, Any],
    seed: int | str,
    **extra: Any,
) -> Game:
    """A new game exactly as the table service builds one, its opening events taken.
    `extra` goes to the constructor unchanged (a Sppoker dictionary in tests)."""
    cls = game_class(game)
    new = cls(list(names), dict(options), random.Random(seed), **extra)
    new.opening_events()
    return new


def replay(
    game: str | type[Game],
    names: Sequence[str],
    options: Mapping[str, Any],
    seed: int | str,
    actions: Iterable[LoggedAction | tuple[int, Action]],
    **extra: Any,
) -> Game:
    """The game these settings and actions make: `replay(...).to_dict()` equals the
    snapshot of the game they were logged from. Raises ReplayError at the first action
    the rebuilt game refuses."""
    rebuilt = build(game, names, options, seed, **extra)
    for step, record in enumerate(actions, 1):
        seat, action = (
            (record.seat, record.action) if isinstance(record, LoggedAction) else record
        )
        try:
            rebuilt.apply(seat, action)
        except Exception as error:
            raise ReplayError(
                f"step {step}: seat {seat} {format_action(action)}: {error}"
            ) from error
    return rebuilt
