"""The one shape every game has, so the table manager, the AI, replays and tests work on all.

A game is a state machine built from `(seats, options, rng)`. The table manager asks it who
must act (`to_act`), offers those seats what `prompt(seat)` describes, feeds their answers to
`apply`, runs the clocks that `timers()` asks for and saves `to_dict()` after every step.
Hidden information leaves a game only through `view(seat)` and events addressed to a seat.

Actions are plain `(name, args)` values with JSON-safe arguments: they travel through button
ids, modals and snapshots unchanged, and a game validates them itself in `apply`.
"""

from __future__ import annotations

import abc
import array
import base64
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, Literal

from engine.cards import Card, CardError, parse_card
from engine.i18n import msg
from engine.result import GameResult, places_from_scores
from engine.views import GameView, SeatView

__all__ = [
    "TIMEOUT",
    "Action",
    "CardPick",
    "Choice",
    "Event",
    "Game",
    "GameResult",
    "IllegalAction",
    "Prompt",
    "TextAsk",
    "TimerSpec",
    "parse_action_cards",
    "places_from_scores",
    "rng_from_json",
    "rng_to_json",
]


class IllegalAction(Exception):
    """An action the rules refuse; the message is shown to the player as it is."""


@dataclass(frozen=True)
class Action:
    """What a seat does: a name the game defines and JSON-safe arguments."""

    name: str
    args: tuple[Any, ...] = ()

    def to_json(self) -> list[Any]:
        return [self.name, list(self.args)]

    @classmethod
    def from_json(cls, data: Sequence[Any]) -> Action:
        name, args = data
        return cls(str(name), tuple(args))


def parse_action_cards(args: Sequence[Any], hand: Sequence[Card]) -> list[Card]:
    """Read an action's card arguments (cards thrown, played or picked from `hand`); the
    error says what was wrong, for the player."""
    cards: list[Card] = []
    for arg in args:
        if not isinstance(arg, str):
            raise IllegalAction(msg("{card} is not a card.", card=repr(arg)))
        try:
            card = parse_card(arg)
        except CardError as error:
            raise IllegalAction(error.args[0]) from error
        if card not in hand:
            raise IllegalAction(msg("You don't hold {card}.", card=card.label))
        if card in cards:
            raise IllegalAction(msg("You named {card} twice.", card=card.label))
        cards.append(card)
    return cards


TIMEOUT = Action("timeout")
"""Applied by the table manager for a seat whose clock ran out; the game decides what it means."""


@dataclass(frozen=True)
class Event:
    """Something that happened, told in a sentence. `seat` set: only that seat may see it."""

    text: str
    seat: int | None = None
    kind: str = "info"
    data: Mapping[str, Any] = field(default_factory=dict)

    @property
    def is_public(self) -> bool:
        return self.seat is None


@dataclass(frozen=True)
class TimerSpec:
    """A clock the game wants running. The manager keeps one deadline per `key` until the
    game stops asking for it, so a whole-table limit is not reset by every action."""

    key: str
    seconds: float
    seats: tuple[int, ...]
    warn: bool = True


ButtonStyle = Literal["primary", "secondary", "success", "danger"]


@dataclass(frozen=True)
class Choice:
    """One button. A disabled choice (`disabled_reason`) explains itself when pressed (a
    card that cannot be played: why not). A `locked` one, disabled too, cannot be pressed at
    all: a step the prompt's own words say is not possible yet (the solitaire's End turn
    before its three cards are played), which a button that only refuses would hide."""

    label: str
    action: Action
    style: ButtonStyle = "secondary"
    disabled_reason: str | None = None
    locked: bool = False


@dataclass(frozen=True)
class CardPick:
    """A menu of cards; the chosen card texts become the action's arguments."""

    label: str
    action_name: str
    cards: tuple[str, ...]
    min_cards: int = 0
    max_cards: int = 1
    labels: tuple[str, ...] = ()


@dataclass(frozen=True)
class TextAsk:
    """A text field (in a modal); the text becomes the action's last argument."""

    label: str
    action_name: str
    field_label: str
    placeholder: str = ""
    min_length: int = 1
    max_length: int = 40
    args: tuple[Any, ...] = ()


@dataclass(frozen=True)
class Prompt:
    """What a seat is asked now: a sentence and the ways to answer it."""

    text: str
    choices: tuple[Choice | CardPick | TextAsk, ...] = ()


def rng_to_json(rng: random.Random) -> list[Any]:
    """The generator's exact state, packed: a snapshot is written after every action, and
    625 numbers as JSON text would be two thirds of it.

    >>> rng = random.Random(7); again = rng_from_json(rng_to_json(rng))
    >>> again.random() == rng.random()
    True
    """
    version, state, gauss = rng.getstate()
    packed = base64.b64encode(array.array("I", state).tobytes()).decode("ascii")
    return [version, packed, gauss]


def rng_from_json(data: Sequence[Any]) -> random.Random:
    rng = random.Random()
    version, state, gauss = data
    if isinstance(state, str):
        numbers = array.array("I")
        numbers.frombytes(base64.b64decode(state))
        state = numbers.tolist()
    rng.setstate((version, tuple(state), gauss))
    return rng


class Game(abc.ABC):
    """The shape shared by every game. Subclasses set the class attributes and implement
    the abstract methods; `seats` are the players' display names, used in explanations."""

    kind: ClassVar[str]
    title: ClassVar[str]
    min_seats: ClassVar[int]
    max_seats: ClassVar[int]
    # Options the table fills in itself rather than the players: "ai_seats" (the seats an
    # AI plays), for games whose rules treat AI seats differently.
    table_options: ClassVar[frozenset[str]] = frozenset()
    chip_game: ClassVar[bool] = False  # one deal per game, on the stacks the table gives it
    # Actions whose arguments everyone sees as they are made (a card played to a trick, the
    # size of a bet, the game a dealer picks). Any other action's arguments (the cards thrown,
    # a sealed declaration, a reveal order) are a seat's secret while the game runs, and a
    # running game's notation withholds them (engine/notation.py). None listed: all withheld.
    public_actions: ClassVar[frozenset[str]] = frozenset()

    seats: tuple[str, ...]
    rng: random.Random

    if TYPE_CHECKING:
        # How every game is built (the table service, replays, tests): stated for the type
        # checker only, since each game has its own constructor (some add keyword-only
        # arguments, e.g. Sppoker's dictionary).
        def __init__(
            self,
            seats: Sequence[str],
            options: Mapping[str, Any] | None = None,
            rng: random.Random | None = None,
            **extra: Any,
        ) -> None: ...

    @property
    @abc.abstractmethod
    def phase(self) -> str:
        """A short name of the current step ("declare", "draw", "play", "over")."""

    @property
    @abc.abstractmethod
    def to_act(self) -> frozenset[int]:
        """The seats whose input the game awaits now (several during sealed steps)."""

    @property
    @abc.abstractmethod
    def is_over(self) -> bool: ...

    @property
    @abc.abstractmethod
    def result(self) -> GameResult | None: ...

    @abc.abstractmethod
    def legal_actions(self, seat: int) -> list[Action]:
        """Every concrete legal action of `seat` where they can be listed (AI, tests).
        Free-text actions (a word) appear with a placeholder argument of None."""

    @abc.abstractmethod
    def prompt(self, seat: int) -> Prompt | None:
        """What `seat` is asked now, or None when nothing is awaited from it. A seat outside
        `to_act` may still be offered something optional (e.g. "Next hand")."""

    def apply(self, seat: int, action: Action) -> list[Event]:
        """Apply an action, or raise IllegalAction and change nothing.

        The checks every game makes are made here once, in one wording, so a stale button
        reads alike in every game: the game is over, the seat is not at the table, it is
        not the seat's turn (`_check_turn`, which a game with sealed steps or its own
        sentence overrides). A clock that ran out (`TIMEOUT`) becomes the game's own
        default move (`_timeout_action`). Then the game's own step (`_step`) applies it."""
        if self.is_over:
            raise IllegalAction(msg("The game is over."))
        if not 0 <= seat < len(self.seats):
            raise IllegalAction(msg("That seat is not at this table."))
        self._check_turn(seat, action)
        if action.name == TIMEOUT.name:
            action = self._timeout_action(seat)
        return self._step(seat, action)

    def _check_turn(self, seat: int, action: Action) -> None:
        """Refuse a seat whose input is not awaited; by default, any seat outside `to_act`."""
        if seat not in self.to_act:
            raise IllegalAction(msg("It is not your turn."))

    def _timeout_action(self, seat: int) -> Action:
        """What a seat whose clock ran out does now. By default the timeout itself, for the
        game's step to handle; a game whose timeout is one of its ordinary moves (stand
        pat, check or fold) answers that move."""
        return TIMEOUT

    @abc.abstractmethod
    def _step(self, seat: int, action: Action) -> list[Event]:
        """The game's own part of `apply`, after the common checks: apply a move of a seat
        that may act, or raise IllegalAction and change nothing."""

    @abc.abstractmethod
    def view(self, seat: int) -> SeatView:
        """What `seat` may see (its own hand included); `to_json()` makes it JSON."""

    @abc.abstractmethod
    def public_view(self) -> GameView:
        """What everyone may see; never holds hidden information."""

    def _view_header(self, scores: Sequence[int], deal: int) -> dict[str, Any]:
        """The `GameView` fields every game fills alike, as keyword arguments; a game's
        `public_view` adds its own after them."""
        return {
            "kind": self.kind,
            "names": self.seats,
            "scores": tuple(scores),
            "phase": self.phase,
            "to_act": tuple(sorted(self.to_act)),
            "deal": deal,
            "result": self.result,
        }

    _opening: list[Event]

    def opening_events(self) -> list[Event]:
        """What happened when the game was built (the first deal): a constructor cannot
        return events, so it keeps them in `_opening` and the table manager takes them once,
        right after building the game."""
        events = list(getattr(self, "_opening", []))
        self._opening = []
        return events

    @property
    def playing(self) -> str:
        """The kind whose rules are in play, which views are of: the game's own, except in a
        session of several games (Dealer's Choice), where it is the current deal's."""
        return self.kind

    @classmethod
    def goal(cls, options: Mapping[str, Any], players: int) -> str:
        """What wins a game with these options and this many players, in a few words, for
        the lobby to show before anyone starts ("first to 12 points")."""
        return ""

    def timers(self) -> list[TimerSpec]:
        """The clocks the game wants running now; none by default."""
        return []

    def action_is_public(self, seat: int, action: Action) -> bool:
        """Whether everyone sees this action's arguments when `seat` makes it now (asked
        before it is applied): by default, an action without arguments or one of
        `public_actions`."""
        return not action.args or action.name in self.public_actions

    @abc.abstractmethod
    def to_dict(self) -> dict[str, Any]:
        """A complete JSON-safe snapshot: deck order and RNG state included."""

    @classmethod
    @abc.abstractmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Game: ...

    def ai_action(self, seat: int, rng: random.Random) -> Action:
        """The action an AI seat takes now; games override with a real policy."""
        raise NotImplementedError(f"{self.title} has no AI players")
