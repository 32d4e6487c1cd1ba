"""What a step must tell, as plain JSON bodies: the rows of the durable outbox.

The table service decides every message under the table's lock and writes these bodies in
the same transaction as the step's snapshot; only the sender (`bot.discord.sender`) turns them into
Discord calls. Keeping them plain JSON is what lets them outlive a crash, and lets the
service be tested without Discord.

A body is one of:
- `post`: a new message to a channel or to a user's DMs, optionally remembered as a named
  `ref` (e.g. "board", "prompt:2"); `previous` says what becomes of the message that ref
  named before ("delete" it, "strip" its buttons, or "keep" it).
- `edit`: replace the content (and components) of the message a ref names.
- `upsert`: edit the message a ref names, or post it when there is none yet.
- `strip`: take the components off the message a ref names, and forget the ref.
- `answered`: no message, a mark in a seat's prompt queue: its person answered a click and
  was shown the table at `step`, so no prompt of the seat written before is sent any more.

Views are named, not built: `{"type": "board" | "cash" | "lobby" | "prompt", ...}`; the
sender builds the discord.py view from the name, so a view needs nothing from memory after a
restart.

Mentions are allowed by id, never found in text: a channel `post` or `upsert` lists in
`pings` the users it means to ping (the sender allows exactly those, `pinged`), and a DM's
`fallback` in the channel pings only that DM's person. Everything else pings nobody, whatever
a name in it looks like (names are inert anyway: `bot.present.inert`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from bot.present import i18n
from engine.game import Action, CardPick, Choice, Event, Prompt, TextAsk
from engine.i18n import Msg

Body = dict[str, Any]
Previous = Literal["delete", "strip", "keep"]


def event_to_json(event: Event, locale: str | None = None) -> dict[str, Any]:
    """An event as JSON; with `locale`, its text and the words in its data (hand names) in
    that language, as a picture drawn from it shows them: as plain text (names cleaned, not
    escaped: Pillow draws no markdown, and would draw the backslashes)."""
    if locale is None:
        return {"text": event.text, "seat": event.seat, "kind": event.kind,
                "data": dict(event.data)}
    return {"text": i18n.render(event.text, locale, markdown=False), "seat": event.seat,
            "kind": event.kind, "data": _rendered(dict(event.data), locale)}


def _rendered(value: Any, locale: str) -> Any:
    if isinstance(value, Msg):
        return i18n.render(value, locale, markdown=False)
    if isinstance(value, Mapping):
        return {key: _rendered(item, locale) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_rendered(item, locale) for item in value]
    return value


def event_from_json(data: Mapping[str, Any]) -> Event:
    return Event(str(data["text"]), data.get("seat"), str(data.get("kind", "info")),
                 dict(data.get("data") or {}))


def prompt_to_json(prompt: Prompt) -> dict[str, Any]:
    choices: list[dict[str, Any]] = []
    for choice in prompt.choices:
        if isinstance(choice, Choice):
            choices.append({"type": "choice", "label": choice.label,
                            "action": choice.action.to_json(), "style": choice.style,
                            "disabled_reason": choice.disabled_reason,
                            **({"locked": True} if choice.locked else {})})
        elif isinstance(choice, CardPick):
            choices.append({"type": "pick", "label": choice.label,
                            "action_name": choice.action_name, "cards": list(choice.cards),
                            "min_cards": choice.min_cards, "max_cards": choice.max_cards,
                            "labels": list(choice.labels)})
        else:
            choices.append({"type": "text", "label": choice.label,
                            "action_name": choice.action_name, "field_label": choice.field_label,
                            "placeholder": choice.placeholder, "min_length": choice.min_length,
                            "max_length": choice.max_length, "args": list(choice.args)})
    return {"text": prompt.text, "choices": choices}


def prompt_from_json(data: Mapping[str, Any]) -> Prompt:
    choices: list[Choice | CardPick | TextAsk] = []
    for item in data["choices"]:
        if item["type"] == "choice":
            choices.append(Choice(item["label"], Action.from_json(item["action"]),
                                  item["style"], item.get("disabled_reason"),
                                  bool(item.get("locked"))))
        elif item["type"] == "pick":
            choices.append(CardPick(item["label"], item["action_name"], tuple(item["cards"]),
                                    item["min_cards"], item["max_cards"], tuple(item["labels"])))
        else:
            choices.append(TextAsk(item["label"], item["action_name"], item["field_label"],
                                   item["placeholder"], item["min_length"], item["max_length"],
                                   tuple(item["args"])))
    return Prompt(str(data["text"]), tuple(choices))


# A view's labels are in the language current when its body is made (its readers').


@dataclass(frozen=True)
class TableButtons:
    """The buttons a table's public message carries: the board's (Show my hand), a cash
    table's between deals (Next deal, Join, Rebuy, Leave, End), the lobby's, or a finished
    game's Replay. Named, not built: the adapter builds them, so they outlive a restart."""

    kind: Literal["board", "cash", "lobby", "replay"]
    table: str
    locale: str


@dataclass(frozen=True)
class PromptButtons:
    """A seat's prompt: its choices, card menus and word boxes, as of `stamp` (the step it
    first appeared at, which a click's custom id carries back)."""

    table: str
    seat: int
    stamp: str
    prompt: Prompt | None
    locale: str


ViewSpec = TableButtons | PromptButtons
"""The buttons a message carries, as the core names them for the adapter."""


def view_to_json(view: ViewSpec) -> dict[str, Any]:
    """A view as an outbox body holds it (the format saved rows already have)."""
    if isinstance(view, PromptButtons):
        return {"type": "prompt", "table": view.table, "seat": view.seat, "stamp": view.stamp,
                "prompt": prompt_to_json(view.prompt) if view.prompt is not None else None,
                "locale": view.locale}
    return {"type": view.kind, "table": view.table, "locale": view.locale}


def view_from_json(data: Mapping[str, Any]) -> ViewSpec:
    """The view a body names; the inverse of `view_to_json`.

    >>> spec = prompt_view("ab12", 1, "3", None)
    >>> view_from_json(view_to_json(spec)) == spec
    True
    >>> view_from_json(view_to_json(board_view("ab12"))) == board_view("ab12")
    True
    """
    locale = str(data.get("locale") or i18n.DEFAULT_LOCALE)
    kind = data["type"]
    if kind == "prompt":
        prompt = prompt_from_json(data["prompt"]) if data.get("prompt") else None
        return PromptButtons(str(data["table"]), int(data["seat"]), str(data["stamp"]), prompt,
                             locale)
    if kind not in ("board", "cash", "lobby", "replay"):
        raise ValueError(f"no such view: {kind!r}")
    return TableButtons(kind, str(data["table"]), locale)


def board_view(table_id: str) -> TableButtons:
    return TableButtons("board", table_id, i18n.current())


def cash_view(table_id: str) -> TableButtons:
    return TableButtons("cash", table_id, i18n.current())


def replay_view(table_id: str) -> TableButtons:
    """The Replay button of a game's final message."""
    return TableButtons("replay", table_id, i18n.current())


def lobby_view(table_id: str) -> TableButtons:
    return TableButtons("lobby", table_id, i18n.current())


def prompt_view(table_id: str, seat: int, stamp: str, prompt: Prompt | None) -> PromptButtons:
    return PromptButtons(table_id, seat, stamp, prompt, i18n.current())


def pictures(kind: str, events: Sequence[Event], names: Sequence[str],
             locale: str | None = None) -> dict[str, Any]:
    """Pictures are drawn by the sender, off the lock: the body says what to draw, its
    words already in the language of whoever will see it, and that language, which the
    drawing's own words (a caption, a declaration, a card's "WILD") are written in."""
    language = locale or i18n.current()
    return {"kind": kind, "events": [event_to_json(e, language) for e in events],
            "names": list(names), "locale": language}


def post(*, channel: int | None = None, user: int | None = None, content: str = "",
         view: ViewSpec | None = None, embeds: Sequence[Mapping[str, Any]] = (),
         picture: Mapping[str, Any] | None = None, ref: str | None = None,
         previous: Previous = "keep", fallback: str | None = None,
         table_channel: int | None = None, clocks: Sequence[str] = (),
         step: int | None = None, pings: Sequence[int] = ()) -> Body:
    """A new message. For a DM, `fallback` is said in `table_channel` when DMs are closed
    (it may ping the DM's person, and nobody else); `clocks` are the table's clocks this
    prompt starts, restarted when it is delivered; `step`, the table's step a seat's prompt
    shows (`bot.discord.stale_rows.overtaken`); `pings`, the users a channel message means to ping
    (mentioned in it by id)."""
    if (channel is None) == (user is None):
        raise ValueError("a post goes to a channel or to a user")
    return {"op": "post", "channel": channel, "user": user, "content": content,
            "view": view_to_json(view) if view else None, "embeds": [dict(e) for e in embeds],
            "picture": dict(picture) if picture else None, "ref": ref, "previous": previous,
            "fallback": fallback, "table_channel": table_channel, "clocks": list(clocks),
            **({"step": step} if step is not None else {}),
            **({"pings": list(pings)} if pings else {})}


def edit(ref: str, content: str, view: ViewSpec | None = None) -> Body:
    return {"op": "edit", "ref": ref, "content": content,
            "view": view_to_json(view) if view else None}


def upsert(ref: str, *, channel: int, content: str,
           view: ViewSpec | None = None, pings: Sequence[int] = ()) -> Body:
    """Edit the message `ref` names in place, or post it if there is none yet (a live board:
    one message per table, not one per move). A later write to the same ref supersedes it.
    `pings` as for `post` (an edit notifies nobody: Discord pings only for a new message)."""
    return {"op": "upsert", "ref": ref, "channel": channel, "content": content,
            "view": view_to_json(view) if view else None,
            **({"pings": list(pings)} if pings else {})}


def pinged(body: Body, *, fallback: bool = False) -> list[int]:
    """The users a body's message may ping, by id: its `pings`, or for the `fallback` of a DM
    said in the channel, that DM's person. The sender lists exactly these in the message's
    `allowed_mentions`.

    >>> pinged(post(channel=1, content="<@7>, your turn", pings=[7]))
    [7]
    >>> pinged(post(user=7, content="…", fallback="<@7> …", table_channel=1), fallback=True)
    [7]
    >>> pinged(post(channel=1, content="<@7> named himself so"))
    []
    """
    if fallback:
        return [int(body["user"])] if body.get("user") is not None else []
    return [int(user) for user in body.get("pings") or ()]


def destination(body: Body) -> str:
    """Which queue a body waits in: a seat's prompt and a person's DMs never wait behind the
    channel's narration (or each other); within one destination order is kept."""
    ref = str(body.get("ref") or "")
    if ref.startswith("prompt:"):
        return ref
    if body["op"] == "post" and body.get("user") is not None:
        return f"user:{body['user']}"
    return "channel"


def strip(ref: str) -> Body:
    return {"op": "strip", "ref": ref}


def answered(seat: int, step: int) -> Body:
    """The mark a seat's own click leaves in its prompt queue, saved with the step the click
    made: the answer showed the seat the table at `step`, so the sender drops any prompt of
    the seat written before it that is still queued (`bot.discord.stale_rows.overtaken`), a restart
    after a crash included, instead of sending it over that answer with step-old buttons."""
    return {"op": "answered", "ref": f"prompt:{seat}", "step": step}
