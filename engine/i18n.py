"""Translatable sentences: what the engine tells, as message-catalogue entries.

The engine decides nothing by language and never knows who reads it. A sentence it tells (an
event, a prompt, an error, a hand's name) is a `Msg`: a catalogue entry (an English msgid
template with `{named}` fields) and its parameters. A `Msg` *is* a `str` holding the English
text, so code and tests that read `event.text` or `str(error)` see the English sentence as
before; the bot renders the same `Msg` in its reader's language at the edge
(`bot.present.i18n.render`). Parameters that are themselves words (a hand's name, a rank) are `Msg`s
too and are translated with it; names and card labels are plain strings and stay as they are.

Extraction: `msg("…")`, `msg_n("…", "…", n)` and `N_("…")` are the keywords Babel's extractor
looks for (`babel.cfg`, `python -m bot.catalogues extract`), so a new sentence is found and the
completeness test (tests/bot/test_i18n.py) fails until it is translated.

>>> m = msg("{name} leads {card}.", name="Ann", card="Q♥")
>>> m, m.msgid, dict(m.params)
('Ann leads Q♥.', '{name} leads {card}.', {'name': 'Ann', 'card': 'Q♥'})
>>> msg_n("{n} card", "{n} cards", 2)
'2 cards'
>>> line = Msg.joined(" ", [m, "(last trick)"])
>>> line, Msg.from_json(line.to_json()) == line
('Ann leads Q♥. (last trick)', True)
>>> Msg.from_json(line.to_json()).render(lambda s: s.upper(), lambda s, p, n: s)
'{NAME} LEADS {CARD}. (LAST TRICK)'
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

__all__ = ["N_", "Gettext", "Msg", "Ngettext", "Shown", "msg", "msg_n", "render"]

Gettext = Callable[[str], str]
Ngettext = Callable[[str, str, int], str]
Shown = Callable[[str], str]


def N_(text: str) -> str:
    """Marks a constant as a catalogue entry without making it a `Msg` (button labels kept in
    tables); the bot translates it by its msgid when it shows it."""
    return text


class _SafeDict(dict[str, Any]):
    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def _fill(template: str, params: Mapping[str, str]) -> str:
    return template.format_map(_SafeDict(params))


class Msg(str):
    """An English sentence that remembers its catalogue entry (see the module's doc)."""

    msgid: str | None  # None: a join of parts (`parts`), not an entry of its own
    plural: str | None
    n: int | None
    params: Mapping[str, Any]
    parts: tuple[str, ...]
    sep: str

    def __new__(cls, msgid: str | None, params: Mapping[str, Any] | None = None, *,
                plural: str | None = None, n: int | None = None,
                parts: Iterable[str] = (), sep: str = "") -> Msg:
        params = dict(params or {})
        parts = tuple(parts)
        if msgid is None:
            text = sep.join(str(part) for part in parts)
        else:
            template = msgid if plural is None or n == 1 else plural
            values = {key: str(value) for key, value in params.items()}
            if n is not None:
                values.setdefault("n", str(n))
            text = _fill(template, values)
        self = super().__new__(cls, text)
        self.msgid, self.plural, self.n = msgid, plural, n
        self.params, self.parts, self.sep = params, parts, sep
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> Msg:
        return self  # immutable

    def __copy__(self) -> Msg:
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        return (Msg.from_json, (self.to_json(),))

    @classmethod
    def joined(cls, sep: str, parts: Iterable[str]) -> Msg:
        """Several sentences (or a sentence and plain text) as one, each translated alone."""
        return cls(None, parts=[p for p in parts if p], sep=sep)

    def render(self, gettext: Gettext, ngettext: Ngettext, shown: Shown | None = None) -> str:
        """This sentence in the language whose catalogue lookups these are. `shown`, if
        given, is applied to every plain string inside it once translated, at any depth: its
        parameters and the plain parts of a join (a name, a card label, a typed word: data,
        where the sentences themselves are `Msg`s). The bot makes them inert for Discord's
        markdown there (`bot.present.inert`), while the templates' own formatting stays."""
        if self.msgid is None:
            return self.sep.join(_param(part, gettext, ngettext, shown) for part in self.parts)
        if self.plural is not None and self.n is not None:
            template = ngettext(self.msgid, self.plural, self.n)
        else:
            template = gettext(self.msgid)
        values = {key: _param(value, gettext, ngettext, shown) for key, value
                  in self.params.items()}
        if self.n is not None:
            values.setdefault("n", str(self.n))
        return _fill(template, values)

    def to_json(self) -> Any:
        """Plain JSON that `from_json` reads back as this `Msg` (a plain str stays one)."""
        if self.msgid is None:
            return {"join": [_json(p) for p in self.parts], "sep": self.sep}
        data: dict[str, Any] = {"msg": self.msgid,
                                "params": {k: _json(v) for k, v in self.params.items()}}
        if self.plural is not None:
            data |= {"plural": self.plural, "n": self.n}
        return data

    @staticmethod
    def from_json(data: Any) -> str:
        if isinstance(data, str):
            return data
        if isinstance(data, Mapping) and "join" in data:
            return Msg(None, parts=[Msg.from_json(p) for p in data["join"]],
                       sep=str(data.get("sep", "")))
        if isinstance(data, Mapping) and "msg" in data:
            params = {k: Msg.from_json(v) if isinstance(v, str | Mapping) else v
                      for k, v in dict(data.get("params") or {}).items()}
            return Msg(str(data["msg"]), params, plural=data.get("plural"), n=data.get("n"))
        return str(data)


def _param(value: Any, gettext: Gettext, ngettext: Ngettext, shown: Shown | None) -> str:
    if isinstance(value, Msg):
        return value.render(gettext, ngettext, shown)
    if isinstance(value, str):
        text = render(value, gettext, ngettext)
        return shown(text) if shown is not None else text
    return str(value)


def _json(value: Any) -> Any:
    return value.to_json() if isinstance(value, Msg) else value


def msg(msgid: str, /, **params: Any) -> Msg:
    """A catalogue entry with its parameters: English as a `str`, translatable at the edge."""
    return Msg(msgid, params)


def names_and(names: Sequence[str]) -> str:
    """"A and B and C", each "and" a word of the reader's ("" for nobody).

    >>> names_and(["Ann", "Bo", "Cy"]), names_and(["Ann"]), names_and([])
    ('Ann and Bo and Cy', 'Ann', '')
    """
    together = names[0] if names else ""
    for name in names[1:]:
        together = msg("{names} and {last}", names=together, last=name)
    return together


def msg_n(singular: str, plural: str, n: int, /, **params: Any) -> Msg:
    """A catalogue entry with a plural form chosen by `n` (also a parameter, `{n}`)."""
    return Msg(singular, params, plural=plural, n=n)


def render(text: Any, gettext: Gettext, ngettext: Ngettext, shown: Shown | None = None) -> str:
    """Any text in a language: a `Msg` translated (its plain-string parameters passed through
    `shown`, see `Msg.render`), a plain string looked up as a msgid."""
    if isinstance(text, Msg):
        return text.render(gettext, ngettext, shown)
    if isinstance(text, str):
        return gettext(text) if text else text
    return str(text)
