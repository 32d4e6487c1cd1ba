"""The values that go into and come out of the store (its errors are in `bot.store.errors`).

`bot.store` re-exports everything here: callers import from there.

Inputs validate themselves on construction, so a bad record fails where it is built (with a
message naming the field) rather than half-way through a transaction as an IntegrityError.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Literal

__all__ = [
    "HOUSE",
    "AccountMismatch",
    "BrokenSnapshot",
    "ChipAudit",
    "ChipChange",
    "ChipRow",
    "DailyClaim",
    "GameRecord",
    "GameStatus",
    "KindStats",
    "LeaderboardOrder",
    "LeaderboardRow",
    "LedgerEntry",
    "Player",
    "PlayerResult",
    "SaveResult",
    "SnapshotRow",
    "TableChips",
    "member_account",
    "table_account",
]

LeaderboardOrder = Literal["wins", "games", "points", "win_rate", "best"]

#: The house's account in a server: it issues every chip (opening balances, dailies, grants,
#: AI seats' stacks), so its balance is minus what it has issued and may be negative.
HOUSE = "house"


def table_account(table_id: str) -> str:
    """The name of a table's own account: the chips its seats hold (never negative).

    >>> table_account("a1b2")
    'table:a1b2'
    """
    return f"table:{table_id}"


def member_account(user_id: int) -> str:
    """A member's balance named like the other accounts (in the ledger and the audit).

    >>> member_account(42)
    'user:42'
    """
    return f"user:{user_id}"


# --- inputs ---------------------------------------------------------------------------------


class GameStatus(enum.StrEnum):
    """How a game ended. Only finished games count in leaderboards and stats."""

    FINISHED = "finished"
    ABORTED = "aborted"


def _check_int(value: object, name: str, *, minimum: int | None = None) -> None:
    # bool is an int subclass, and True as a user id is always a bug.
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError(f"{name} must be an int, not {type(value).__name__}")
    if minimum is not None and value < minimum:
        raise ValueError(f"{name} must be at least {minimum}, not {value}")


def _moment(value: object, name: str) -> datetime:
    """Accept an aware datetime or POSIX seconds (what `time.time()` gives a table manager)."""
    if isinstance(value, int | float) and not isinstance(value, bool):
        return datetime.fromtimestamp(value, UTC)
    if not isinstance(value, datetime):
        raise TypeError(f"{name} must be a datetime or POSIX seconds, not {type(value).__name__}")
    if value.utcoffset() is None:
        raise ValueError(f"{name} must be timezone-aware (use datetime.now(UTC))")
    return value


@dataclass(frozen=True)
class ChipChange:
    """One transfer of chips between a party and its counterparty; the guild and the table
    come from the call.

    The party is a member (`user_id`) or, with `user_id=None`, the house (an AI seat's chips
    at a cash table). In a call that names a table the counterparty is the table's account:
    `delta < 0` the party pays the table (a buy-in), `delta > 0` the table pays the party (a
    cash-out). Without a table (grants, dailies, opening balances) the counterparty is the
    house, and the party must be a member.

    >>> ChipChange(user_id=7, delta=-5, reason="buy-in")
    ChipChange(user_id=7, delta=-5, reason='buy-in')
    """

    user_id: int | None
    delta: int
    reason: str

    def __post_init__(self) -> None:
        if self.user_id is not None:
            _check_int(self.user_id, "user_id")
        _check_int(self.delta, "delta")
        if not isinstance(self.reason, str) or not self.reason.strip():
            raise ValueError("a chip change needs a reason (such as 'ante' or 'pot')")


@dataclass(frozen=True)
class PlayerResult:
    """One seat's outcome. `user_id` is None for an AI seat, which must then have a name.

    `name` is the name shown at the table, kept with the result so that old games still
    read right after a player renames (and so that AI seats have a name at all).
    `place` is 1 for first; None when the game has no places (e.g. it was aborted).
    """

    seat: int
    user_id: int | None
    name: str | None = None
    score: int | None = None
    place: int | None = None
    win: bool = False

    def __post_init__(self) -> None:
        _check_int(self.seat, "seat", minimum=0)
        if self.user_id is not None:
            _check_int(self.user_id, "user_id")
        elif not self.name:
            raise ValueError(f"seat {self.seat} has no player, so it needs a name (the AI's)")
        if self.score is not None:
            _check_int(self.score, "score")
        if self.place is not None:
            _check_int(self.place, "place (None when there is no place)", minimum=1)
        if not isinstance(self.win, bool):
            raise TypeError(f"win must be a bool, not {type(self.win).__name__}")


@dataclass(frozen=True)
class GameRecord:
    """An ended game, complete enough to be written on its own.

    Times are aware datetimes or POSIX seconds (normalised to UTC datetimes);
    `finished_at` defaults to the store's clock when the record is written.
    """

    guild_id: int
    channel_id: int
    kind: str
    started_at: datetime
    players: Sequence[PlayerResult]
    status: GameStatus = GameStatus.FINISHED
    finished_at: datetime | None = None
    options: Mapping[str, Any] = field(default_factory=dict)
    seed: int | None = None

    def __post_init__(self) -> None:
        _check_int(self.guild_id, "guild_id")
        _check_int(self.channel_id, "channel_id")
        if not isinstance(self.kind, str) or not self.kind:
            raise ValueError("a game record needs its kind of game")
        object.__setattr__(self, "players", tuple(self.players))
        if not all(isinstance(p, PlayerResult) for p in self.players):
            raise TypeError("players must be PlayerResult values")
        object.__setattr__(self, "status", GameStatus(self.status))
        object.__setattr__(self, "started_at", _moment(self.started_at, "started_at"))
        if self.finished_at is not None:
            finished = _moment(self.finished_at, "finished_at")
            object.__setattr__(self, "finished_at", finished)
            if finished < self.started_at:
                raise ValueError("a game cannot finish before it started")
        if not isinstance(self.options, Mapping):
            raise TypeError("options must be a mapping")
        if self.seed is not None:
            _check_int(self.seed, "seed")
        seats = [p.seat for p in self.players]
        if len(set(seats)) != len(seats):
            raise ValueError("each seat may appear only once in a game's results")
        users = [p.user_id for p in self.players if p.user_id is not None]
        if len(set(users)) != len(users):
            raise ValueError("a player may hold only one seat in a game")


# --- outputs --------------------------------------------------------------------------------


@dataclass(frozen=True)
class SnapshotRow:
    """An unfinished table as saved, ready for the engine's `from_dict`."""

    table_id: str
    guild_id: int
    channel_id: int
    kind: str
    version: int
    snapshot: dict[str, Any]
    created_at: datetime
    updated_at: datetime


@dataclass(frozen=True)
class BrokenSnapshot:
    """A snapshot set aside because it could not be restored, kept for a human to look at."""

    id: int
    table_id: str
    guild_id: int | None
    channel_id: int | None
    kind: str | None
    version: int | None
    snapshot: str | bytes | None
    error: str
    set_aside_at: datetime


@dataclass(frozen=True)
class SaveResult:
    """What `save_snapshot` wrote: the new snapshot version, or the id of the ended game."""

    version: int | None
    game_id: int | None
    balances: Mapping[int, int] = field(default_factory=dict)


@dataclass(frozen=True)
class Player:
    user_id: int
    display_name: str
    first_seen: datetime
    last_seen: datetime


@dataclass(frozen=True)
class LedgerEntry:
    id: int
    guild_id: int
    user_id: int
    delta: int
    balance_after: int
    reason: str
    table_id: str | None
    game_id: int | None
    created_at: datetime


@dataclass(frozen=True)
class AccountMismatch:
    """An account whose stored balance is not the sum of its ledger rows."""

    guild_id: int
    account: str  # member_account(user), HOUSE or table_account(table)
    balance: int
    ledger_total: int


@dataclass(frozen=True)
class TableChips:
    """A table's account beside the chips its snapshot's seats hold (`stacks`: the sum of
    `snapshot["stacks"]`, None when the snapshot has none or cannot be read).

    `legacy`: the account was opened by the migration from a ledger that never recorded the
    AI seats' chips; until `reconcile_table_account` it may hold less than the stacks."""

    guild_id: int
    table_id: str
    account: int
    stacks: int | None
    legacy: bool = False

    @property
    def balanced(self) -> bool:
        """Whether the account holds what the seats hold (a table without stacks: nothing)."""
        if self.stacks is None:
            return self.account == 0
        if self.legacy:
            return 0 <= self.account <= self.stacks
        return self.account == self.stacks


@dataclass(frozen=True)
class ChipAudit:
    """The chip books of one server (or of all, `guild_id` None), as `Store.chip_audit` found
    them: what members and tables hold, what the house issued, and everything that does not
    add up (empty tuples when the books balance)."""

    guild_id: int | None
    members_total: int
    tables_total: int
    house_issued: int
    mismatches: tuple[AccountMismatch, ...]
    tables: tuple[TableChips, ...]  # every open table
    closed_with_chips: tuple[TableChips, ...]  # tables gone whose account is not 0
    unbalanced_guilds: tuple[int, ...]  # the house's issue is not what members and tables hold

    @property
    def ok(self) -> bool:
        """Everything balances: each account equals its ledger, each server's issue equals
        what its members and tables hold, each open table's account its stacks, and every
        closed table's account is empty."""
        return (not self.mismatches and not self.unbalanced_guilds
                and not self.closed_with_chips
                and all(table.balanced for table in self.tables))


@dataclass(frozen=True)
class DailyClaim:
    """The outcome of a daily claim; `next_claim_at` lets the cog say when to come back."""

    claimed: bool
    amount: int
    balance: int
    next_claim_at: datetime


@dataclass(frozen=True)
class LeaderboardRow:
    """One ranked player. `points` and `best` are None on the all-games board: points of
    different games (a Sppoker point, a Chicago point, Poke's honours) do not add up."""

    rank: int
    user_id: int
    display_name: str
    games: int
    wins: int
    points: int | None
    win_rate: float
    best: int | None = None  # the best single score (a solitaire's record); None across games


@dataclass(frozen=True)
class ChipRow:
    rank: int
    user_id: int
    display_name: str | None
    balance: int


@dataclass(frozen=True)
class KindStats:
    """One player's record at one kind of game (finished games only)."""

    kind: str
    played: int
    won: int
    best_score: int | None
    last_played: datetime
