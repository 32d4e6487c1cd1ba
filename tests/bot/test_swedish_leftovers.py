"""Issue 23, "Swedish leftovers": what a Swedish table still said in English, or in names a
reader could not type. Each test failed before its fix.

- a replay's move lines (`**alice**: declare poker`) are in the reader's language;
- the solitaire's board is titled Po-Ke-No-patiens in Swedish, as its lobby is;
- `/table settings` names the dictionary a word game will really use, and its option and
  command names as the reader's Discord shows them; a word the dictionary refuses says
  which dictionary judged it;
- a picture's own words (a declaration, a vowel card's WILD) are in its reader's language;
- a Swedish table's final message does not send English clients to `/repris`;
- the loopback Discord (and so the sandbox) takes a command typed in its user's language.

The rules pages' commands are checked in tests/bot/test_swedish_commands.py.
"""

from __future__ import annotations

import asyncio
import random
from types import SimpleNamespace
from typing import Any

import pytest

from bot.core import narration, outbox
from bot.core.replays import move_text
from bot.core.table import Table
from bot.core.table_text import board_text
from bot.discord.painter import draw
from bot.present import i18n
from bot.present.i18n import using
from bot.present.images import render_cards, wild_word
from cogs.tables import Tables
from engine.cards import parse_cards
from engine.game import Action, Event
from engine.games.sppoker.options import SppokerOptions
from engine.games.sppoker.rules import Sppoker
from engine.notation import Move
from engine.words import WordFinder, WordListDictionary, available_languages

HOST, BOB = 1, 2


# --- 1. a replay's move lines -----------------------------------------------------------------


@pytest.mark.parametrize(("move", "kind", "english", "swedish"), [
    (Move(0, Action("declare", ("poker",))), "sppoker", "declare poker", "deklarera poker"),
    (Move(0, Action("declare", ("spelling", "zebra"))), "sppoker", "declare spelling zebra",
     "deklarera stavning zebra"),
    (Move(1, Action("declare", ("double",)), hidden=True), "sppoker", "declare ?",
     "deklarera ?"),
    (Move(0, Action("declare", ("poker", None))), "holdem_sppoker", "declare poker null",
     "deklarera poker"),
    (Move(0, Action("bet", (20,))), "red_dog", "bet 20", "satsa 20"),
    (Move(0, Action("fold")), "badugi", "fold", "lägga sig"),
    (Move(0, Action("choose", ("badugi",))), "dealers_choice", "choose badugi",
     "välja Badugi"),
    (Move(0, Action("call")), "chicago", "call", "ropa Chicago"),
    (Move(0, Action("place", ("pair", "Ah", "Ad"))), "pokeno", "place pair Ah Ad",
     "lägga på ett par Ah Ad"),
    (Move(0, Action("timeout")), "spew", "timeout", "tiden ute"),
])
def test_a_replays_move_line_is_in_the_readers_language(move: Move, kind: str, english: str,
                                                        swedish: str) -> None:
    with using("en"):
        assert move_text(move, kind) == english  # the notation, as English pages had it
    with using("sv"):
        assert move_text(move, kind) == swedish


def test_every_action_a_game_takes_has_a_swedish_verb() -> None:
    """Every name in the vocabulary is translated (a new action added to it without a
    Swedish word would show in English on a Swedish replay)."""
    from bot.core.replays import GAME_MOVE_VERBS, MOVE_VERBS, MOVE_WORDS

    catalogue = i18n.catalogue("sv")
    for key in [*MOVE_VERBS.values(), *GAME_MOVE_VERBS.values(), *MOVE_WORDS.values()]:
        assert catalogue.gettext(key) != key, key


# --- 2. the solitaire's board -----------------------------------------------------------------


def solitaire(locale: str) -> Table:
    table = Table("t1", 10, 20, "pokeno_solitaire", HOST, locale=locale)
    table.join(HOST, "alice")
    table.start(HOST)
    return table


def test_the_solitaires_board_is_titled_in_the_tables_language() -> None:
    assert board_text(solitaire("sv")).startswith("**Po-Ke-No-patiens** — ")
    assert board_text(solitaire("en")).startswith("**Po-Ke-No Solitaire** — ")


# --- 5. /table settings and the dictionary's refusal --------------------------------------------


class Settings:
    """A server's stored settings, as `bot.core.validation.guild_settings` reads them."""

    def __init__(self, stored: dict[str, Any]) -> None:
        self.stored = stored

    async def get_guild_setting(self, guild_id: int, key: str, default: Any) -> Any:
        return self.stored.get(key, default)

    async def guild_settings(self, guild_id: int) -> dict[str, Any]:
        return dict(self.stored)

    async def set_guild_setting(self, guild_id: int, key: str, value: Any) -> None:
        self.stored[key] = value


class Bank:
    async def starting(self, guild_id: int) -> int:
        return 1000

    async def daily_amount(self, guild_id: int) -> int:
        return 100


def settings_reply(stored: dict[str, Any], reader: str, guild: int) -> str:
    """`/table settings` with nothing to change, as a reader with this Discord locale reads
    it on a server with these settings."""
    store = Settings(stored)
    bot = SimpleNamespace(store=store, bank=Bank(), settings=SimpleNamespace(dictionary="en_US"))
    interaction = SimpleNamespace(
        guild_id=guild, user=SimpleNamespace(id=HOST), locale=reader,
        permissions=SimpleNamespace(manage_guild=False), client=bot)
    cog = Tables(bot)  # type: ignore[arg-type]
    answer = asyncio.run(cog._settings(interaction, {}))  # type: ignore[arg-type]
    assert answer.content is not None
    return answer.content


@pytest.mark.skipif("sv_SE" not in available_languages(), reason="hunspell-sv not installed")
def test_table_settings_names_the_dictionary_a_swedish_server_really_plays_with() -> None:
    reply = settings_reply({"locale": "sv"}, "sv-SE", 501)
    assert "**sv_SE**" in reply and "en_US" not in reply
    assert "(`ordlista` väljer en annan)" in reply and "`språk`" in reply
    assert "`/marker dagliga`" in reply
    assert "`locale`" not in reply and "`dictionary`" not in reply and "/chips" not in reply
    # An English client reads it in English, with the names its Discord shows.
    english = settings_reply({"locale": "sv"}, "en-US", 502)
    assert "**sv_SE**" in english and "`dictionary` chooses another" in english
    assert "`locale`" in english and "`/chips daily`" in english
    # A dictionary the server chose is the one named, whatever its language.
    chosen = settings_reply({"locale": "sv", "dictionary": "en_GB"}, "sv-SE", 503)
    assert "**en_GB**" in chosen and "sv_SE" not in chosen


def test_a_word_the_dictionary_refuses_names_the_dictionary_that_judged_it() -> None:
    words = WordListDictionary(["taxis"])
    game = Sppoker.from_hands(
        ("Ann", "Bob"), ("9c 9d 9h 9s 2c 3c 4c", "2h 4h 6h 7h Th 5c 6c"),  # B X T I A S E
        SppokerOptions(language="sv_SE"), random.Random(1),
        dictionary=words, finder=WordFinder(["taxis"], words))
    [check] = [event for event in game.apply(0, Action("declare", ("spelling", "bites")))
               if event.kind == "word_check"]
    assert "not in the sv_SE dictionary: BITES" in check.text
    with using("sv"):
        assert "finns inte i ordlistan sv\\_SE: BITES" in i18n.render(check.text)


# --- 4. a picture's words -----------------------------------------------------------------------


def test_a_vowel_card_says_wild_in_the_pictures_language() -> None:
    vowel = parse_cards(["*A"])
    with using("sv"):
        assert wild_word() == "JOKER"
        swedish = render_cards(vowel)
    with using("en"):
        english = render_cards(vowel)
        plain = render_cards(parse_cards(["Ah"]))
    assert swedish != english
    with using("sv"):
        assert render_cards(parse_cards(["Ah"])) == plain  # no vowel card: nothing to say


def test_the_painter_draws_a_sppoker_reveal_in_the_language_it_was_written_in(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The pictures are drawn in another process, where no table's language is set: the
    body carries it. Before, the reveal's notes said "spelling" on a Swedish table."""
    from bot.plugins import install_plugins
    from bot.present.render import renderer_for

    install_plugins()
    drawn: list[tuple[list[Any], str | None]] = []

    def rows_of(rows: list[Any], *, title: str | None = None, **_: Any) -> bytes:
        drawn.append((rows, title))
        return b""

    # The renderer's own module (loading the cogs as extensions elsewhere makes new ones).
    monkeypatch.setitem(renderer_for("sppoker").images.__globals__, "render_rows", rows_of)
    reveal = Event("", None, "reveal", {"hand": 2, "players": [
        {"name": "Ann", "cards": ["Ah", "Kd", "Qs", "Jh", "Tc", "2d", "3d"],
         "declaration": "spelling", "word": "zebra", "poker": "Straight", "points": 1},
    ]})
    with using("sv"):
        picture = outbox.pictures("sppoker", [reveal], ["Ann"])
    with using("en"):  # as in the painter process: nothing set
        draw(picture)
    [(rows, title)] = drawn
    assert title == "Hand 2" and "stavning · ZEBRA" in rows[0].note  # "Hand" is Swedish too
    assert "spelling" not in rows[0].note


# --- 6. the final message's replay line ---------------------------------------------------------


def test_a_swedish_tables_final_message_does_not_send_english_clients_to_repris() -> None:
    table = solitaire("sv")
    with using("sv"):
        line = narration.replay_line(table)
    assert "knappen nedan" in line and "`/repris spel:t1`" in line
    assert "`/replay game:t1`" in line  # what an English client types
    with using("en"):
        english = narration.replay_line(solitaire("en"))
    assert english == "🎞️ Replay: `/replay game:t1`, or the button below."


# --- 7. the loopback Discord and the sandbox take commands in their user's language ------------


@pytest.fixture(scope="module")
def payloads() -> list[dict[str, Any]]:
    from tests.support.commands import command_payloads

    return command_payloads()


def loopback(payloads: list[dict[str, Any]], locale: str) -> tuple[Any, Any, Any]:
    from loopback.clock import Clock
    from loopback.state import LoopbackState

    state = LoopbackState(users=["alice"], guild_name="g", channels=["general"],
                          bot_name="bot", token="t", clock=Clock())
    state.overwrite_commands(None, payloads)
    user = state.user_by_name("alice")
    assert user is not None
    user.locale = locale
    channel = state.channel_by_name("general")
    return state, channel, user


def typed(payloads: list[dict[str, Any]], locale: str, text: str) -> dict[str, Any]:
    from loopback.commands import build_data, parse_invocation

    state, channel, user = loopback(payloads, locale)
    path, options = parse_invocation(text)
    return build_data(state, channel, user, path, options)


def test_a_swedish_user_types_the_swedish_names_and_the_bot_gets_its_own(
        payloads: list[dict[str, Any]]) -> None:
    data = typed(payloads, "sv-SE", "/repris spel:abcd1234 exportera:true")
    assert data["name"] == "replay"
    assert [(o["name"], o["value"]) for o in data["options"]] == [
        ("game", "abcd1234"), ("export", True)]
    data = typed(payloads, "sv-SE", "/bord inställningar språk:Svenska ordlista:sv_SE")
    [settings] = data["options"]
    assert data["name"] == "table" and settings["name"] == "settings"
    assert {o["name"]: o["value"] for o in settings["options"]} == {
        "locale": "sv", "dictionary": "sv_SE"}
    data = typed(payloads, "sv-SE", "/topplista spel:Marker")
    assert data["options"] == [{"name": "game", "type": 3, "value": "chips"}]
    # The registered names still work (a Swedish client finds them too).
    assert typed(payloads, "sv-SE", "/replay game:abcd1234")["name"] == "replay"


def test_an_english_client_does_not_see_the_swedish_names(
        payloads: list[dict[str, Any]]) -> None:
    from loopback.errors import CommandNotFound

    with pytest.raises(CommandNotFound, match=r"known: .*replay"):
        typed(payloads, "en-US", "/repris spel:abcd1234")
    with pytest.raises(CommandNotFound, match=r"known: .*repris"):
        typed(payloads, "sv-SE", "/replai")  # the names it lists are the Swedish ones
