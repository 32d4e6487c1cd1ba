"""Text for tables: the lobby, the channel's board and a seat's private view.

Games describe their state as JSON-safe views; a game may register a `Renderer` that turns
its views into text (formatting only: it decides nothing). Without one, a generic rendering
shows the hand, the prompt and the scores.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from bot.table import DEFAULT_BUY_IN, Table
from engine.cards import CardError, label_cards, parse_cards
from engine.game import Event, Prompt
from engine.views import GameView, SeatView

MAX_CONTENT = 2000


def cards_text(cards: list[str] | str) -> str:
    """Card texts as every client renders them (suit symbols, letters)."""
    try:
        return label_cards(parse_cards(cards))
    except CardError:
        return " ".join(cards) if isinstance(cards, list) else cards


def clip(text: str, limit: int = MAX_CONTENT) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _generic_private(view: SeatView) -> list[str]:
    lines = []
    if view.hand:
        lines.append("Your hand: " + cards_text(list(view.hand)))
    return lines


def _generic_public(view: GameView) -> list[str]:
    if not view.scores or len(view.scores) != len(view.names):
        return []
    return ["Scores: " + ", ".join(f"{n} {s}" for n, s in view.score_pairs())]


def _no_images(events: list[Event], names: list[str]) -> list[tuple[str, bytes]]:
    return []


@dataclass(frozen=True)
class Renderer:
    """How one game's views and events look; formatting only, it decides nothing.
    `images` turns events (all public, or all for one seat) and the seats' names into PNG
    attachments."""

    # Each game's renderer reads its own view class (a subclass of these).
    private: Callable[[Any], list[str]] = _generic_private
    public: Callable[[Any], list[str]] = _generic_public
    images: Callable[[list[Event], list[str]], list[tuple[str, bytes]]] = _no_images
    image_kinds: frozenset[str] = frozenset()  # the event kinds `images` draws
    embed_kinds: frozenset[str] = frozenset()  # the event kinds shown boxed, as an embed

    def draws(self, events: list[Event]) -> bool:
        """Whether any of these events gets a picture, so nothing else pays for drawing."""
        return any(event.kind in self.image_kinds for event in events)


_renderers: dict[str, Renderer] = {}


def use_renderers(renderers: dict[str, Renderer]) -> None:
    """Set at start-up by `bot.plugins.install_plugins` (and in the drawing process)."""
    _renderers.clear()
    _renderers.update(renderers)


def renderer_for(kind: str) -> Renderer:
    return _renderers.get(kind, Renderer())


def event_embed(event: Event, picture: str | None) -> dict[str, Any]:
    """An event boxed: its first line the title, the rest the body, with its picture."""
    title, _, body = event.text.partition("\n")
    embed: dict[str, Any] = {"title": clip(title, 256), "description": clip(body, 4096),
                             "color": 0x1F8B4C}
    if picture:
        embed["image"] = {"url": f"attachment://{picture}"}
    return embed


def lobby_text(table: Table, idle_deadline: float | None, *, started: bool = False) -> str:
    cls = table.game_class
    seats = "\n".join(
        f"{i + 1}. {seat.name}{' (AI)' if seat.is_ai else ''}"
        f"{' — host' if seat.user_id == table.host_id else ''}"
        for i, seat in enumerate(table.seats)
    )
    options = ", ".join(f"{k} {v}" for k, v in table.options.items() if v is not None)
    lines = [
        f"**{cls.title}** — a table is open ({len(table.seats)}/{cls.max_seats} seats, "
        f"{cls.min_seats} needed).",
        seats or "(no one seated)",
    ]
    if options:
        lines.append(f"Options: {options}")
    try:
        goal = cls.goal(table.options, len(table.seats))
    except (TypeError, ValueError):  # options the game will refuse at Start, saying why
        goal = ""
    if goal:
        lines.append(f"To win: {goal}.")
    if cls.chip_game:
        buy_in = int(table.options.get("buy_in") or DEFAULT_BUY_IN)
        lines.append(f"A seat costs a buy-in of **{buy_in}** chips from your balance "
                     "(`/chips balance`); you take your stack back when you leave.")
    if started:
        lines.append("**Started.** Follow the game below; your cards come by DM.")
    elif table.is_full:
        lines.append("The table is full; the host presses **Start**.")
    else:
        lines.append("Press **Join** to sit down; the host presses **Start**.")
    if idle_deadline and not started:
        lines.append(f"This lobby closes <t:{int(idle_deadline)}:R> if nobody starts it.")
    return clip("\n".join(lines))


def waiting_line(table: Table) -> str:
    game = table.require_game()
    if game.is_over:
        return "The game is over."
    waiting = sorted(game.to_act)
    if not waiting:
        return ""
    deadline = min(table.deadlines.values(), default=None)
    clock = f" — time runs out <t:{int(deadline)}:R>" if deadline else ""
    if len(waiting) == 1:
        occupant = table.seats[waiting[0]]
        who = f"**{occupant.name}**"
        if occupant.user_id in table.dm_closed:  # no DM reaches them: ping them here
            who = f"<@{occupant.user_id}> (press **Show my hand**)"
        return f"Waiting for {who}{clock}."
    chosen = len(table.seats) - len(waiting)
    return f"{chosen} of {len(table.seats)} have chosen; waiting for {len(waiting)}{clock}."


def board_text(table: Table) -> str:
    game = table.require_game()
    lines = [f"**{game.title}** — " + ", ".join(seat.name for seat in table.seats)
             + (f" · deal {table.deals}" if table.game_class.chip_game else "")]
    if table.game_class.chip_game and game.is_over:
        # Between deals the table changes (who sits, their stacks); the old deal's view not.
        lines.append("Stacks: " + ", ".join(
            f"{seat.name} {stack}" for seat, stack in zip(table.seats, table.stacks,
                                                          strict=True)))
        lines.append(f"Deal {table.deals} is over. **Next deal** deals again; **Join**, "
                     "**Leave** (with your chips) or **Rebuy** now; the host can **End** the "
                     "table.")
        return clip("\n".join(lines))
    lines += renderer_for(table.kind).public(game.public_view())
    if table.recent and not game.is_over:
        lines.append("")
        lines += [f"› {line}" for line in table.recent]
        lines.append("")
    lines.append(waiting_line(table))
    if not game.is_over:
        lines.append("Your cards come by DM; **Show my hand** shows them here, to you alone.")
    return clip("\n".join(line for line in lines if line))


def private_text(table: Table, seat: int, prompt: Prompt | None) -> str:
    game = table.require_game()
    deal = f" · deal {table.deals}" if table.game_class.chip_game else ""
    lines = [f"**{game.title}** in <#{table.channel_id}> — you are "
             f"**{table.seats[seat].name}**{deal}"]
    lines += renderer_for(table.kind).private(game.view(seat))
    notes = table.notes.get(seat, [])
    if notes:
        lines.append("")
        lines += [f"› {note}" for note in notes[-5:]]
    if prompt is not None:
        lines.append("")
        lines.append(f"**{prompt.text}**")
    elif not game.is_over:
        lines.append("")
        lines.append("Nothing is needed from you right now.")
    return clip("\n".join(lines))
