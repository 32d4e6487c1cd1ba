"""What a table is, field by field, and its saved form: the snapshot it is written as after
every change and rebuilt from after a restart.

Apart from `bot.core.table` (what a table does: its lobby's checks, its deals, its turns
and prompt stamps) because the fields and the snapshot must change together and nothing
else must change with them: a field added here is saved and restored here, in one screen,
and a snapshot of an older shape is brought up to date by `bot.core.snapshot_upgrades`
before it reaches `from_dict`.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Self

from bot.core.snapshot_upgrades import upgrade_snapshot
from bot.present.inert import clean
from engine.game import Action, Game, IllegalAction
from engine.games import GAMES
from engine.i18n import Msg

SNAPSHOT_VERSION = 2
"""2: prompt stamps from the step counter; message ids moved to the store's message refs."""


def text_json(text: str) -> object:
    return text.to_json() if isinstance(text, Msg) else text


@dataclass
class Seat:
    name: str
    user_id: int | None = None  # None: an AI seat

    def __post_init__(self) -> None:
        # Cleaned where a name enters a table (bot.present.inert.clean: no bidi or zero-width
        # characters, clipped), whoever seats it or restores it; escaped where it is shown.
        self.name = clean(self.name) or (f"user {self.user_id}" if self.user_id else "?")

    @property
    def is_ai(self) -> bool:
        return self.user_id is None

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "user_id": self.user_id}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Seat:
        return cls(data["name"], data.get("user_id"))


@dataclass
class TableState:
    table_id: str
    guild_id: int
    channel_id: int
    kind: str
    host_id: int
    options: dict[str, Any] = field(default_factory=dict)
    seats: list[Seat] = field(default_factory=list)
    status: str = "lobby"  # lobby -> playing
    seed: int = 0
    game: Game | None = None
    deadlines: dict[str, float] = field(default_factory=dict)
    warned: list[str] = field(default_factory=list)
    created_at: float = 0.0
    owner_id: int | None = None  # a one-person table (solitaire) belongs to this user
    dm_closed: list[int] = field(default_factory=list)
    notes: dict[int, list[str]] = field(default_factory=dict)  # private notes per seat
    prompt_digests: dict[int, str] = field(default_factory=dict)  # last prompt told, per seat
    prompt_since: dict[int, int] = field(default_factory=dict)  # step that prompt came at
    steps: int = 0
    idle_seconds: float = 600.0  # an unstarted lobby closes after this long
    saved_at: float = 0.0  # when the snapshot was taken: clocks resume with what was left
    recent: list[str] = field(default_factory=list)  # the last public moves, for the board
    locale: str = "en"  # the language of its channel messages: the server's when it opened
    # A cash table (a chip game): each seat's chips at the table, what it bought in all, the
    # stacks the current deal began with (an abort returns to them), and the deals so far.
    stacks: list[int] = field(default_factory=list)
    bought: list[int] = field(default_factory=list)
    deal_stacks: list[int] = field(default_factory=list)
    deals: int = 0
    # Applied since the last save: (step, seat, action); the service writes them to the
    # action log with the snapshot. Not part of the snapshot itself.
    unsaved_actions: list[tuple[int, int, Action]] = field(default_factory=list)
    # The clocks the last `sync_deadlines` started, with the seats they run for: their
    # prompts say so, and the clock restarts when they are delivered. Not saved.
    fresh_clocks: dict[str, tuple[int, ...]] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "version": SNAPSHOT_VERSION,
            "table_id": self.table_id,
            "guild_id": self.guild_id,
            "channel_id": self.channel_id,
            "kind": self.kind,
            "host_id": self.host_id,
            "options": self.options,
            "seats": [seat.to_dict() for seat in self.seats],
            "status": self.status,
            "seed": self.seed,
            "game": self.game.to_dict() if self.game is not None else None,
            "deadlines": self.deadlines,
            "warned": self.warned,
            "created_at": self.created_at,
            "owner_id": self.owner_id,
            "dm_closed": self.dm_closed,
            "notes": {str(seat): [text_json(note) for note in notes]
                      for seat, notes in self.notes.items()},
            "prompt_digests": {str(k): v for k, v in self.prompt_digests.items()},
            "prompt_since": {str(k): v for k, v in self.prompt_since.items()},
            "steps": self.steps,
            "idle_seconds": self.idle_seconds,
            "saved_at": self.saved_at,
            "recent": [text_json(line) for line in self.recent],
            "locale": self.locale,
            "stacks": self.stacks,
            "bought": self.bought,
            "deal_stacks": self.deal_stacks,
            "deals": self.deals,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Self:
        """Rebuild a table; raises ValueError (with why) for a snapshot that cannot load."""
        try:
            data = upgrade_snapshot(data, SNAPSHOT_VERSION)
            kind = data["kind"]
            if kind not in GAMES:
                raise ValueError(f"unknown game {kind!r}")
            game_data = data.get("game")
            table = cls(
                table_id=str(data["table_id"]),
                guild_id=int(data["guild_id"]),
                channel_id=int(data["channel_id"]),
                kind=kind,
                host_id=int(data["host_id"]),
                options=dict(data.get("options") or {}),
                seats=[Seat.from_dict(seat) for seat in data["seats"]],
                status=str(data["status"]),
                seed=int(data.get("seed") or 0),
                game=GAMES[kind].from_dict(game_data) if game_data else None,
                deadlines={str(k): float(v) for k, v in (data.get("deadlines") or {}).items()},
                warned=list(data.get("warned") or []),
                created_at=float(data.get("created_at") or 0.0),
                owner_id=data.get("owner_id"),
                dm_closed=list(data.get("dm_closed") or []),
                notes={int(k): [Msg.from_json(note) for note in v]
                       for k, v in (data.get("notes") or {}).items()},
                prompt_digests={int(k): str(v)
                                for k, v in (data.get("prompt_digests") or {}).items()},
                prompt_since={int(k): int(v) for k, v in (data.get("prompt_since") or {}).items()},
                steps=int(data.get("steps") or 0),
                idle_seconds=float(data.get("idle_seconds") or 600.0),
                saved_at=float(data.get("saved_at") or 0.0),
                recent=[Msg.from_json(line) for line in data.get("recent") or []],
                locale=str(data.get("locale") or "en"),
                stacks=[int(x) for x in data.get("stacks") or []],
                bought=[int(x) for x in data.get("bought") or []],
                deal_stacks=[int(x) for x in data.get("deal_stacks") or []],
                deals=int(data.get("deals") or 0),
            )
        except (KeyError, TypeError, ValueError, IllegalAction) as error:
            raise ValueError(f"snapshot cannot be loaded: {error!r}") from error
        if table.status not in {"lobby", "playing"}:
            raise ValueError(f"snapshot cannot be loaded: bad status {table.status!r}")
        return table

    def snapshot_json(self) -> str:
        return json.dumps(self.to_dict(), separators=(",", ":"))
