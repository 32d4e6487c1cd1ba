"""The outbox's values as JSON, the format of its saved rows (`bot.store.outbox` keeps them
as text and knows nothing of them): written by the table service with a step's snapshot,
read back once per row by the sender (`bot.discord.sender`).

The format is the one rows have always been saved in, so a row saved before an upgrade is
sent after it: `message_from_json` reads whatever the code of before wrote (a key it left
out takes its default), and `message_to_json` writes exactly that again.

>>> message_to_json(Strip("prompt:1"))
{'op': 'strip', 'ref': 'prompt:1'}
>>> message_from_json({"op": "answered", "ref": "prompt:2", "step": 7})
Answered(seat=2, step=7, message=None)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.core.outbox import (
    Answered,
    Edit,
    Embed,
    OutboxMessage,
    Picture,
    Post,
    Previous,
    PromptButtons,
    Reply,
    Strip,
    TableButtons,
    Turn,
    Upsert,
    ViewSpec,
)
from bot.present import i18n
from engine.game import Action, CardPick, Choice, Event, Prompt, TextAsk

Json = dict[str, Any]  # a JSON object: what `json.loads` gives


def event_to_json(event: Event) -> dict[str, Any]:
    """An event as a picture's JSON holds it (its words already rendered: `pictures`)."""
    return {"text": event.text, "seat": event.seat, "kind": event.kind, "data": dict(event.data)}


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


def view_to_json(view: ViewSpec) -> dict[str, Any]:
    """A view as an outbox row holds it (the format saved rows already have)."""
    if isinstance(view, PromptButtons):
        return {"type": "prompt", "table": view.table, "seat": view.seat, "stamp": view.stamp,
                "prompt": prompt_to_json(view.prompt) if view.prompt is not None else None,
                "locale": view.locale}
    return {"type": view.kind, "table": view.table, "locale": view.locale,
            **({"guild": view.guild} if view.guild is not None else {})}


def view_from_json(data: Mapping[str, Any]) -> ViewSpec:
    """The view a row names; the inverse of `view_to_json`.

    >>> spec = PromptButtons("ab12", 1, "3", None, "en")
    >>> view_from_json(view_to_json(spec)) == spec
    True
    >>> view_from_json(view_to_json(TableButtons("board", "ab12", "sv")))
    TableButtons(kind='board', table='ab12', locale='sv', guild=None)
    >>> view_from_json(view_to_json(TableButtons("replay", "ab12", "en", 42))).guild
    42
    """
    locale = str(data.get("locale") or i18n.DEFAULT_LOCALE)
    kind = data["type"]
    if kind == "prompt":
        prompt = prompt_from_json(data["prompt"]) if data.get("prompt") else None
        return PromptButtons(str(data["table"]), int(data["seat"]), str(data["stamp"]), prompt,
                             locale)
    if kind not in ("board", "cash", "lobby", "replay"):
        raise ValueError(f"no such view: {kind!r}")
    guild = data.get("guild")
    return TableButtons(kind, str(data["table"]), locale,
                        int(guild) if guild is not None else None)


def picture_to_json(picture: Picture) -> Json:
    return {"kind": picture.kind, "events": [event_to_json(e) for e in picture.events],
            "names": list(picture.names), "locale": picture.locale}


def picture_from_json(data: Mapping[str, Any]) -> Picture:
    return Picture(str(data["kind"]), tuple(event_from_json(e) for e in data["events"]),
                   tuple(str(name) for name in data["names"]), data.get("locale"))


def embed_to_json(embed: Embed) -> Json:
    """An embed as Discord takes it (`discord.Embed.from_dict`), and as rows keep it."""
    return {"title": embed.title, "description": embed.description, "color": embed.color,
            **({"image": {"url": embed.image}} if embed.image else {})}


def embed_from_json(data: Mapping[str, Any]) -> Embed:
    image = data.get("image") or {}
    return Embed(str(data.get("title", "")), str(data.get("description", "")),
                 int(data.get("color", 0)), image.get("url"))


def turn_to_json(turn: Turn) -> Json:
    return {"seat": turn.seat, "user": turn.user, "content": turn.content,
            "view": view_to_json(turn.view)}


def turn_from_json(data: Mapping[str, Any]) -> Turn:
    view = view_from_json(data["view"])
    if not isinstance(view, PromptButtons):
        raise ValueError(f"a turn shows a prompt, not {view!r}")
    return Turn(seat=int(data["seat"]), user=int(data["user"]), content=str(data["content"]),
                view=view)


def message_to_json(message: OutboxMessage) -> Json:
    """A message as its outbox row holds it."""
    if isinstance(message, Post):
        return {"op": "post", "channel": message.channel, "user": message.user,
                "content": message.content, "view": _view(message.view),
                "embeds": [embed_to_json(embed) for embed in message.embeds],
                "picture": picture_to_json(message.picture) if message.picture else None,
                "ref": message.ref, "previous": message.previous, "fallback": message.fallback,
                "table_channel": message.table_channel, "clocks": list(message.clocks),
                **({"step": message.step} if message.step is not None else {}),
                **({"pings": list(message.pings)} if message.pings else {}),
                **({"turn": turn_to_json(message.turn)} if message.turn else {})}
    if isinstance(message, Edit):
        return {"op": "edit", "ref": message.ref, "content": message.content,
                "view": _view(message.view)}
    if isinstance(message, Upsert):
        return {"op": "upsert", "ref": message.ref, "channel": message.channel,
                "content": message.content, "view": _view(message.view),
                **({"pings": list(message.pings)} if message.pings else {}),
                **({"embeds": [embed_to_json(embed) for embed in message.embeds]}
                   if message.embeds else {}),
                **({"picture": picture_to_json(message.picture)} if message.picture else {})}
    if isinstance(message, Strip):
        return {"op": "strip", "ref": message.ref}
    if isinstance(message, Reply):
        return {"op": "reply", "ref": message.ref, "step": message.step, "user": message.user,
                "content": message.content, "view": _view(message.view),
                "picture": picture_to_json(message.picture) if message.picture else None}
    return {"op": "answered", "ref": message.ref, "step": message.step,
            **({"message": message.message} if message.message is not None else {})}


def message_from_json(data: Mapping[str, Any]) -> OutboxMessage:
    """The message a row holds; the inverse of `message_to_json`. ValueError (or KeyError)
    for a row that is none of them."""
    op = data["op"]
    if op == "post":
        return Post(channel=_id(data.get("channel")), user=_id(data.get("user")),
                    content=str(data.get("content") or ""), view=_spec(data.get("view")),
                    embeds=tuple(embed_from_json(e) for e in data.get("embeds") or ()),
                    picture=picture_from_json(data["picture"]) if data.get("picture") else None,
                    ref=data.get("ref") or None, previous=_previous(data.get("previous")),
                    fallback=data.get("fallback"), table_channel=_id(data.get("table_channel")),
                    clocks=tuple(str(key) for key in data.get("clocks") or ()),
                    step=_id(data.get("step")),
                    pings=tuple(int(user) for user in data.get("pings") or ()),
                    turn=turn_from_json(data["turn"]) if data.get("turn") else None)
    if op == "edit":
        return Edit(str(data["ref"]), str(data.get("content") or ""), _spec(data.get("view")))
    if op == "upsert":
        return Upsert(ref=str(data["ref"]), channel=int(data["channel"]),
                      content=str(data.get("content") or ""), view=_spec(data.get("view")),
                      pings=tuple(int(user) for user in data.get("pings") or ()),
                      embeds=tuple(embed_from_json(e) for e in data.get("embeds") or ()),
                      picture=picture_from_json(data["picture"]) if data.get("picture")
                      else None)
    if op == "strip":
        return Strip(str(data["ref"]))
    if op == "reply":
        view = _spec(data.get("view"))
        if view is not None and not isinstance(view, PromptButtons):
            raise ValueError(f"a reply shows a seat's prompt, not {view!r}")
        return Reply(seat=_seat(data["ref"]), step=int(data["step"]), user=int(data["user"]),
                     content=str(data.get("content") or ""), view=view,
                     picture=picture_from_json(data["picture"]) if data.get("picture") else None)
    if op == "answered":
        return Answered(_seat(data["ref"]), int(data["step"]), _id(data.get("message")))
    raise ValueError(f"no such outbox message: {op!r}")


def _seat(ref: Any) -> int:
    """The seat whose prompt queue a reply or its mark is in ("prompt:<seat>")."""
    if not str(ref).startswith("prompt:"):
        raise ValueError(f"an answer goes into a seat's prompt queue, not {ref!r}")
    return int(str(ref).split(":", 1)[1])


def _view(view: ViewSpec | None) -> Json | None:
    return view_to_json(view) if view is not None else None


def _spec(data: Mapping[str, Any] | None) -> ViewSpec | None:
    return view_from_json(data) if data else None


def _id(value: Any) -> int | None:
    return None if value is None else int(value)


def _previous(value: Any) -> Previous:
    if value in (None, "keep"):
        return "keep"
    if value in ("delete", "strip"):
        return "delete" if value == "delete" else "strip"
    raise ValueError(f"no such fate of a previous message: {value!r}")
