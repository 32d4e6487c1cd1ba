"""How a game's views and events look: each game's `Renderer`, and the generic one.

Games describe their state as JSON-safe views; a game may register a `Renderer` that turns
its views into text (formatting only: it decides nothing). Without one, a generic rendering
shows the hand, the prompt and the scores. What a whole table looks like (its lobby, board
and a seat's private view) is `bot.core.table_text`, which reads the table and uses these.

Names are inert here (`bot.present.inert`): the views a game's renderer reads carry inert
names (`shown_view`), and the engine's sentences come through `bot.present.i18n.render`,
which makes their names and words inert.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any, Generic, TypeVar

from bot.present.i18n import render, t
from bot.present.inert import inert
from engine.cards import CardError, label_cards, parse_cards
from engine.game import CardPick, Choice, Event, Prompt, TextAsk
from engine.views import GameView, SeatView

MAX_CONTENT = 2000
V = TypeVar("V", bound=GameView)
SV = TypeVar("SV", bound=SeatView)
GV = TypeVar("GV", bound=GameView)


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
        lines.append(t("Your hand: {cards}", cards=cards_text(list(view.hand))))
    return lines


def _generic_public(view: GameView) -> list[str]:
    if not view.scores or len(view.scores) != len(view.names):
        return []
    return [t("Scores: {scores}", scores=", ".join(f"{n} {s}" for n, s in view.score_pairs()))]


def _no_images(events: list[Event], names: list[str]) -> list[tuple[str, bytes]]:
    return []


def shown_view(view: V) -> V:
    """A view as a renderer may paste it into a message: its seats' names inert. A game's
    renderer formats `names` freely (a score line, a trick, the dealer), so they are made
    safe once, here, rather than in every renderer; pictures are drawn from the events and
    the plain names instead (`Renderer.images`)."""
    return replace(view, names=tuple(inert(name) for name in view.names))


@dataclass(frozen=True)
class Renderer(Generic[SV, GV]):
    """How one game's views and events look; formatting only, it decides nothing.
    `images` turns events (all public, or all for one seat) and the seats' names into PNG
    attachments."""

    # Each game's renderer reads its own view classes (subclasses of SeatView and GameView):
    # the type checker holds a game's renderer to the views its game makes.
    private: Callable[[SV], list[str]] = _generic_private
    public: Callable[[GV], list[str]] = _generic_public
    images: Callable[[list[Event], list[str]], list[tuple[str, bytes]]] = _no_images
    image_kinds: frozenset[str] = frozenset()  # the event kinds `images` draws
    embed_kinds: frozenset[str] = frozenset()  # the event kinds shown boxed, as an embed

    def draws(self, events: list[Event]) -> bool:
        """Whether any of these events gets a picture, so nothing else pays for drawing."""
        return any(event.kind in self.image_kinds for event in events)


AnyRenderer = Renderer[Any, Any]
"""A renderer of some game, as the registry holds it: the game's views come from the game."""

_renderers: dict[str, AnyRenderer] = {}


def use_renderers(renderers: Mapping[str, AnyRenderer]) -> None:
    """Set at start-up by `bot.plugins.install_plugins` (and in the drawing process)."""
    _renderers.clear()
    _renderers.update(renderers)


def renderer_for(kind: str) -> AnyRenderer:
    return _renderers.get(kind) or Renderer[SeatView, GameView]()


def event_embed(event: Event, picture: str | None) -> dict[str, Any]:
    """An event boxed: its first line the title, the rest the body, with its picture."""
    title, _, body = render(event.text).partition("\n")
    embed: dict[str, Any] = {"title": clip(title, 256), "description": clip(body, 4096),
                             "color": 0x1F8B4C}
    if picture:
        embed["image"] = {"url": f"attachment://{picture}"}
    return embed


def bold_lines(text: str) -> str:
    """Text in bold line by line: bold spanning a line break is not shown by every client,
    and a line with bold of its own is left as it is (bold around it would un-bold it)."""
    return "\n".join(line if not line.strip() or "**" in line else f"**{line}**"
                     for line in text.split("\n"))


def localized_prompt(prompt: Prompt | None) -> Prompt | None:
    """A prompt's words (its question, labels, reasons) in the current locale, as buttons,
    menus and modals show them: text as it is, so names in them are cleaned, not escaped
    (`bot.present.i18n.render` with `markdown=False`); its actions, the cards offered and everything
    a click sends back unchanged."""
    if prompt is None:
        return prompt

    def plain(text: str) -> str:
        return render(text, markdown=False)

    choices: list[Choice | CardPick | TextAsk] = []
    for choice in prompt.choices:
        if isinstance(choice, Choice):
            reason = plain(choice.disabled_reason) if choice.disabled_reason else None
            choices.append(Choice(plain(choice.label), choice.action, choice.style, reason,
                                  choice.locked))
        elif isinstance(choice, CardPick):
            choices.append(CardPick(plain(choice.label), choice.action_name, choice.cards,
                                    choice.min_cards, choice.max_cards, choice.labels))
        else:
            choices.append(TextAsk(plain(choice.label), choice.action_name,
                                   plain(choice.field_label), plain(choice.placeholder),
                                   choice.min_length, choice.max_length, choice.args))
    return Prompt(plain(prompt.text), tuple(choices))
