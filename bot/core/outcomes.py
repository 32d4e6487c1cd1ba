"""The plain values the table service answers with, and the small checks it shares with
the cash desk: what a seat sees now, a request for text, a lobby's new state; which action a
prompt's component stands for. (A click's answer is the outbox's `Reply`, written with its
step: `bot.core.outbox`.)"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

from bot.core.table import Table, TableError, error_text
from bot.store.base import _ts
from engine.cards import CardError, parse_cards
from engine.game import Action, CardPick, Choice, Prompt, TextAsk
from engine.i18n import msg


@dataclass(frozen=True)
class Private:
    """What one seat sees now, for the person who asked ("Show my hand"). A click's answer is
    no `Private` but an outbox `Reply`, written with its step (`bot.core.outbox`)."""

    table_id: str
    seat: int
    content: str
    stamp: str
    prompt: Prompt | None


@dataclass(frozen=True)
class NeedText:
    """The choice asks for text: the presenter opens a modal, whose answer comes back."""

    table_id: str
    seat: int
    stamp: str
    index: int
    ask: TextAsk


@dataclass(frozen=True)
class LobbyOutcome:
    """The lobby message's new content; `open` False when it no longer takes buttons."""

    content: str
    open: bool


def iso(moment: float) -> str:
    """A time in the store's one fixed form, so the action log's times sort as text."""
    return _ts(datetime.fromtimestamp(moment, UTC))



def require_host_or_admin(table: Table, user_id: int, is_admin: bool, what: str) -> None:
    if user_id != table.host_id and not is_admin:
        raise TableError(msg("Only the host or a member with Manage Server can {what}.",
                             what=what))


def action_for(choice: Choice | CardPick | TextAsk, values: list[str] | None,
               text: str | None) -> Action:
    """The action a prompt's component stands for, from what the person picked or typed."""
    if isinstance(choice, Choice):
        if choice.disabled_reason:
            raise TableError(choice.disabled_reason)
        return choice.action
    if isinstance(choice, CardPick):
        picked = [v for v in values or [] if v != "-"]
        if not set(picked) <= set(choice.cards):
            raise TableError(msg("Pick from the cards offered."))
        try:
            parse_cards(picked)
        except CardError as error:
            raise TableError(error_text(error)) from error
        return Action(choice.action_name, tuple(picked))
    return Action(choice.action_name, (*choice.args, text or ""))
