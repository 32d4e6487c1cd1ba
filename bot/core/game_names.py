"""A game as a person names it in a command's `game` option: the one reading of that name.

A text option with suggestions (autocomplete) sends whatever was typed when the person sends
the command without picking a suggestion, so "Badugi", "old man 49er", "Dealer’s Choice"
(a phone's apostrophe) or the Swedish "Po-Ke-No-patiens" arrive as typed, besides the kind a
picked suggestion sends ("old_man_49er"). Every command that takes a game by name reads it
here (`/tournament create` and `/tournament board` today; `/leaderboard` offers a fixed menu,
which Discord keeps to its values), so a name one command accepts, the others accept too.

A name matches a game when it equals its kind or its title in any language the bot speaks,
compared without case, spaces or punctuation ("dealers choice" is Dealer's Choice).
"""

from __future__ import annotations

from bot.core.table import TableError
from bot.present import i18n
from bot.present.inert import inert
from engine.games import GAMES
from engine.i18n import msg

__all__ = ["find_kind", "game_kind", "matching_games", "spelled"]

SHOWN = 40  # of a name that matches no game, the characters quoted back (as text, inert)


def spelled(name: str) -> str:
    """A name reduced to what tells games apart: its letters and digits, without case."""
    return "".join(ch for ch in name.casefold() if ch.isalnum())


def _names(kind: str) -> set[str]:
    """Every way a game is named: its kind and its title in each language."""
    title = GAMES[kind].title
    return {spelled(kind), spelled(title),
            *(spelled(i18n.render(title, locale)) for locale in i18n.LOCALES)}


def find_kind(name: str) -> str | None:
    """The kind of the game this name names, or None."""
    wanted = spelled(name)
    if not wanted:
        return None
    for kind in GAMES:
        if wanted in _names(kind):
            return kind
    return None


def game_kind(name: str) -> str:
    """The kind of the game this name names; refuses, saying how to find one, a name that
    names no game."""
    kind = find_kind(name)
    if kind is None:
        raise TableError(msg("There is no game called {name}: pick one of the suggestions, "
                             "or see `/help` for the games.", name=inert(name, limit=SHOWN)))
    return kind


def matching_games(typed: str, *, players: int = 1) -> list[tuple[str, str]]:
    """The suggestions for what is typed so far: (kind, title in the current locale) of each
    game for `players` or more whose kind or a title contains it, by title."""
    wanted = spelled(typed)
    found = [(kind, i18n.render(game.title)) for kind, game in GAMES.items()
             if game.max_seats >= players and any(wanted in name for name in _names(kind))]
    return sorted(found, key=lambda pair: pair[1].casefold())
