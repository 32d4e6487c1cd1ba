"""A tournament's own part beside the engine's state (`Live.extra`), as one typed value, and
the one JSON codec of its saved form.

The engine keeps the rounds and standings (`engine.tournaments`); the bot keeps what only
it needs: the game's options for the tables, the two clocks (the start, and the next round
after a break) with when they were last saved (a clock stands still while the bot is
down), the server's language the tournament speaks, the last round it announced, and where
its sign-up message and Discord scheduled event are. The store keeps this as JSON and knows
nothing of it (`bot.store.tournaments`); the core speaks `TournamentExtra`, and only this
module turns it into the saved JSON and back, as `bot.core.tournament_posts` does for the
tournament's messages. A change is a new value (`dataclasses.replace`), made on the
tournament's draft and saved with it.

The format is the one rows have always been saved in, so a tournament saved before an
upgrade goes on after it: `extra_from_json` reads what the code of before wrote, and
`extra_to_json` writes exactly that again.

>>> extra = extra_from_json({"options": {"deals": 2}, "start_at": None, "next_at": None,
...                         "saved_at": 5.0, "locale": "sv", "announced": 0})
>>> extra.options, extra.deals, extra.locale
((('deals', 2),), 2, 'sv')
>>> extra_to_json(extra)["options"]
{'deals': 2}
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from bot.core import tournament_chips

__all__ = ["OptionValue", "TournamentExtra", "extra_from_json", "extra_to_json"]

OptionValue = bool | int | float | str | None
"""A game option's value as a table keeps it (the tournament passes them on unchanged)."""


@dataclass(frozen=True)
class TournamentExtra:
    """The bot's part of a tournament (see the module's doc). Times are POSIX seconds."""

    saved_at: float
    options: tuple[tuple[str, OptionValue], ...] = ()
    start_at: float | None = None  # the start time; None: the organiser starts it
    next_at: float | None = None  # the next round's clock, between two rounds
    locale: str | None = None  # the server's language when it was created
    announced: int = 0  # the last round whose pairings were posted
    signup: tuple[int, int] | None = None  # the sign-up message: (channel, message)
    event_id: int | None = None  # the Discord scheduled event

    @property
    def table_options(self) -> dict[str, OptionValue]:
        """The options each table is opened with (a copy: the table changes its own)."""
        return dict(self.options)

    @property
    def deals(self) -> int | None:
        """A chip game's deals at each table (None: a points game, played to its end)."""
        found = self.table_options.get(tournament_chips.OPTION)
        return None if found is None else int(found)

    def resumed(self, now: float, least: float) -> TournamentExtra:
        """After a restart at `now`: each clock has the time it had left when last saved
        (the clocks stand still while the bot is down), and at least `least`, so nobody
        comes back to a round already begun."""
        saved = self.saved_at or now

        def left(due: float | None) -> float | None:
            return None if due is None else now + max(least, due - saved)

        return replace(self, start_at=left(self.start_at), next_at=left(self.next_at))


def extra_to_json(extra: TournamentExtra) -> dict[str, Any]:
    saved: dict[str, Any] = {
        "options": dict(extra.options), "start_at": extra.start_at, "next_at": extra.next_at,
        "saved_at": extra.saved_at, "locale": extra.locale, "announced": extra.announced}
    if extra.signup is not None:
        saved["signup"] = list(extra.signup)
    if extra.event_id is not None:
        saved["event_id"] = extra.event_id
    return saved


def extra_from_json(data: Mapping[str, Any]) -> TournamentExtra:
    signup = data.get("signup")
    event = data.get("event_id")
    return TournamentExtra(
        saved_at=float(data.get("saved_at") or 0.0),
        options=tuple((str(key), _option(value))
                      for key, value in dict(data.get("options") or {}).items()),
        start_at=_time(data.get("start_at")), next_at=_time(data.get("next_at")),
        locale=None if data.get("locale") is None else str(data["locale"]),
        announced=int(data.get("announced") or 0),
        signup=(int(signup[0]), int(signup[1])) if signup else None,
        event_id=int(event) if event else None)


def _time(value: Any) -> float | None:
    return None if value is None else float(value)


def _option(value: Any) -> OptionValue:
    if value is None or isinstance(value, bool | int | float | str):
        return value
    raise ValueError(f"a tournament's option is {value!r}, not a number, text or flag")
