"""The options a game's `start` takes (issue 23: the rules pages cited stakes and clocks
nobody could set): each one is an option its engine plays, declared once in
bot/core/validation.py (its range, and the pairs that must go together), named by the rules pages
exactly as a reader's Discord names it, and listed in the lobby in words in the table's
language. The whole path through the bot is tests/e2e/test_start_options.py."""

from __future__ import annotations

import asyncio
import random
import re
from pathlib import Path
from typing import Any

import discord
import pytest
from discord import app_commands

from bot.core import validation
from bot.core.table import Seat, Table
from bot.core.table_text import dictionary_name, lobby_text, options_words
from bot.core.validation import Bound, Flag, InvalidValue, NoMoreThan, OneOf
from bot.discord.translator import Translator
from bot.present import i18n
from cogs.common import Option, refused_answer
from engine.games import GAMES
from loopback import limits, schemas
from loopback.errors import FormErrors
from tests.support.commands import command_tree

RULES = Path(__file__).resolve().parents[2] / "docs" / "rules"

# Each rules page and the games whose `start` it describes (Chicago shares Poängpoker's).
PAGE_GROUPS = {"badugi": ("badugi",), "dealers_choice": ("dealers-choice",),
               "hands": (), "holdem_sppoker": ("holdem-sppoker",),
               "old_man_49er": ("old-man-49er",), "poangpoker": ("poangpoker", "chicago"),
               "poke": ("poke",), "pokeno": ("pokeno",), "red_dog": ("reddog",),
               "spew": ("spew",), "sppoker": ("sppoker",), "zero_to_55": ("zero-to-55",)}
GROUP_KINDS = {"badugi": "badugi", "dealers-choice": "dealers_choice",
               "holdem-sppoker": "holdem_sppoker", "old-man-49er": "old_man_49er",
               "poangpoker": "poangpoker", "chicago": "chicago", "poke": "poke",
               "pokeno": "pokeno", "reddog": "red_dog", "spew": "spew", "sppoker": "sppoker",
               "zero-to-55": "zero_to_55"}
ENGINE_NAMES = {"dictionary": "language"}  # the one option the engines call otherwise
CASH = {"buy_in", "min_buy_in"}  # the cash table's own, never a deal's
CITED = re.compile(r"`([a-zåäö][a-zåäö_]*)`")  # an option named on its own: `ante`
INVOKED = re.compile(r"`/([\w-]+) (\w+)((?: [^`]*)?)`")  # a command typed: `/x start y:…`


@pytest.fixture(scope="module")
def tree() -> app_commands.CommandTree[Any]:
    """The slash commands as the bot registers them (its games' cogs and bot.discord.app's)."""
    return command_tree()


def start_of(tree: app_commands.CommandTree[Any],
             group: str) -> app_commands.Command[Any, Any, Any]:
    found = tree.get_command(group)
    assert isinstance(found, app_commands.Group), group
    start = found.get_command("start")
    assert isinstance(start, app_commands.Command), group
    return start


def check_of(parameter: app_commands.Parameter) -> Bound | OneOf | Flag:
    option = parameter._Parameter__parent._annotation  # type: ignore[attr-defined]
    assert isinstance(option, Option), parameter.name
    return option.check


def swedish(name: str) -> str:
    return i18n.translate_command(name, "sv", "name") or name


# --- each option is one its engine plays --------------------------------------------------


def engine_options(group: str, values: dict[str, Any]) -> dict[str, Any]:
    """A start command's values as its table hands them to the engine: the dictionary is the
    engine's `language`, a cash table's own options stay with the table, stacks are added."""
    options = {ENGINE_NAMES.get(key, key): value for key, value in values.items()
               if key not in CASH}
    cls = GAMES[GROUP_KINDS[group]]
    if cls.chip_game:
        options["stacks"] = [100_000, 100_000]
    return options


def build(group: str, values: dict[str, Any]) -> None:
    cls = GAMES[GROUP_KINDS[group]]
    cls(["Ann", "Bo"], engine_options(group, values), random.Random(1))


@pytest.mark.parametrize("group", sorted(GROUP_KINDS))
def test_every_start_option_is_one_its_engine_plays_at_both_ends_of_its_range(
        tree: app_commands.CommandTree[Any], group: str) -> None:
    """Each option alone, at the least and the most its declaration accepts (its partner in
    a pair raised or lowered to go with it, as the command demands): the engine builds the
    game. An option the engine did not know would be refused here as unknown."""
    start = start_of(tree, group)
    names = {parameter.name for parameter in start.parameters}
    relations = [relation for relation in (*validation.FIXED_LIMIT, *validation.HOLDEM_STAKES,
                                           *validation.RED_DOG_ANTE)
                 if {relation.smaller.name, relation.larger.name} <= names]
    for parameter in start.parameters:
        if group != "reddog" and parameter.name == "buy_in":
            continue  # the cash table's: the engine never sees it
        check = check_of(parameter) if parameter.type is not \
            discord.AppCommandOptionType.string else validation.DICTIONARY
        if isinstance(check, Bound):
            ends: list[Any] = [check.low, check.high]
        elif isinstance(check, Flag):
            ends = [False, True]
        else:
            ends = ["en_US"]
        for value in ends:
            values = {parameter.name: value}
            lowered = {parameter.name}  # the option tried, and those moved down below it
            for _ in relations:  # its partners moved until every pair goes together
                for relation in relations:
                    small, large = relation.smaller.name, relation.larger.name
                    low = values.get(small, relation.defaults[small])
                    high = values.get(large, relation.defaults[large])
                    if low > high and large in lowered:
                        values[small] = high
                        lowered.add(small)
                    elif low > high:
                        values[large] = low
            validation.checked_relations(values, tuple(relations))
            try:
                build(group, values)
            except ValueError as error:
                raise AssertionError(f"/{group} start {values}: {error}") from error


@pytest.mark.parametrize(("group", "wanted"), [
    ("badugi", {"ante", "small_bet", "big_bet"}),
    ("reddog", {"ante", "turn_seconds"}),
    ("spew", {"ante", "small_bet", "big_bet", "declare_seconds", "last_seconds",
              "out_takes_low"}),
    ("old-man-49er", {"ante", "small_bet", "big_bet", "declare_seconds", "last_seconds"}),
    ("zero-to-55", {"ante", "small_bet", "big_bet", "declare_seconds", "last_seconds",
                    "draw_fee"}),
    ("holdem-sppoker", {"small_blind", "big_blind", "small_bet", "big_bet", "dictionary",
                        "declare_seconds", "last_seconds"}),
    ("sppoker", {"target", "declare_seconds", "last_seconds", "dictionary", "ai_skill"}),
])
def test_the_stakes_and_clocks_an_engine_takes_are_offered_on_start(
        tree: app_commands.CommandTree[Any], group: str, wanted: set[str]) -> None:
    taken = {parameter.name for parameter in start_of(tree, group).parameters}
    assert wanted <= taken, wanted - taken


def test_the_dictionary_has_one_name_everywhere(tree: app_commands.CommandTree[Any]) -> None:
    """`dictionary` on every start that takes words and in `/table settings` (Swedish
    `ordlista`); never `language`, the engines' own name for it."""
    for group in ("sppoker", "holdem-sppoker"):
        names = {parameter.name for parameter in start_of(tree, group).parameters}
        assert "dictionary" in names and "language" not in names
    assert swedish("dictionary") == "ordlista"
    for page in [*RULES.glob("*.md"), *RULES.glob("sv/*.md")]:
        assert "`language`" not in page.read_text(encoding="utf-8"), page


# --- the pairs that must go together ------------------------------------------------------


@pytest.mark.parametrize(("relations", "options", "refused"), [
    (validation.FIXED_LIMIT, {"small_bet": 30, "big_bet": 20}, "small_bet"),
    (validation.FIXED_LIMIT, {"small_bet": 30}, "small_bet"),  # against the default 20
    (validation.FIXED_LIMIT, {"big_bet": 5}, "small_bet"),  # the default 10 against 5
    (validation.HOLDEM_STAKES, {"small_blind": 8, "big_blind": 6}, "small_blind"),
    (validation.HOLDEM_STAKES, {"big_blind": 15}, "big_blind"),  # above the small bet 10
    (validation.RED_DOG_ANTE, {"ante": 300}, "ante"),  # above the buy-in of 200
    (validation.RED_DOG_ANTE, {"ante": 50, "buy_in": 40}, "ante"),
])
def test_a_pair_that_does_not_go_together_is_refused_naming_both(
        relations: tuple[NoMoreThan, ...], options: dict[str, int], refused: str) -> None:
    with pytest.raises(InvalidValue) as error:
        validation.checked_relations(options, relations)
    assert error.value.option == refused and error.value.other is not None
    text = str(error.value)
    assert f"**{refused}**" in text and f"**{error.value.other}**" in text


@pytest.mark.parametrize(("relations", "options"), [
    (validation.FIXED_LIMIT, {}), (validation.FIXED_LIMIT, {"small_bet": 20}),
    (validation.FIXED_LIMIT, {"small_bet": 40, "big_bet": 80}),
    (validation.HOLDEM_STAKES, {"small_blind": 10, "big_blind": 10}),
    (validation.HOLDEM_STAKES, {"big_blind": 40, "small_bet": 40, "big_bet": 80}),
    (validation.RED_DOG_ANTE, {"ante": 200}), (validation.RED_DOG_ANTE, {"buy_in": 5}),
])
def test_pairs_that_go_together_pass(relations: tuple[NoMoreThan, ...],
                                     options: dict[str, int]) -> None:
    validation.checked_relations(options, relations)


def test_a_refused_pair_names_both_options_as_a_swedish_client_does() -> None:
    with pytest.raises(InvalidValue) as error:
        validation.checked_relations({"small_bet": 30, "big_bet": 20}, validation.FIXED_LIMIT)
    i18n.load()
    with i18n.using("sv"):
        answer = refused_answer(error.value)
    assert answer.ephemeral and answer.content is not None
    text = answer.content.replace("\\", "")  # the names are data, escaped for markdown
    assert text == "**liten_satsning** (30) får inte vara mer än **stor_satsning** (20): " \
        "sänk liten_satsning eller höj stor_satsning.", text
    with i18n.using("en"):
        english = (refused_answer(error.value).content or "").replace("\\", "")
    assert english.startswith("**small_bet** (30) can't be more than **big_bet** (20)")


# --- the rules pages name what a reader can type -------------------------------------------


def pages() -> list[tuple[str, Path]]:
    found = [("en", path) for path in sorted(RULES.glob("*.md"))]
    return found + [("sv", path) for path in sorted(RULES.glob("sv/*.md"))]


@pytest.mark.parametrize(("locale", "page"), pages(),
                         ids=lambda value: value if isinstance(value, str) else value.stem)
def test_every_option_a_rules_page_cites_is_on_its_start_command(
        tree: app_commands.CommandTree[Any], locale: str, page: Path) -> None:
    """Each option a page names (`ante`, or in a `/game start x:…` it spells out) is one its
    game's `start` takes, under the name the page's readers see: the English name on an
    English page, the Swedish one (`liten_satsning`) on a Swedish page."""
    def named(name: str) -> str:
        return swedish(name) if locale == "sv" else name

    groups = PAGE_GROUPS[page.stem]
    offered = {named(parameter.name) for group in groups
               for parameter in start_of(tree, group).parameters}
    text = page.read_text(encoding="utf-8")
    cited = set(CITED.findall(text))
    start = named("start")
    for command, sub, rest in INVOKED.findall(text):
        if command in groups and sub == start:  # the page's own start, spelt out
            cited |= set(re.findall(r"\[?([a-zåäö_]+)(?:\]|:)", rest))
    assert cited <= offered, f"{page}: {sorted(cited - offered)} are not options of " \
        f"{', '.join(f'/{group} {start}' for group in groups)}"
    if page.stem in ("badugi", "spew", "old_man_49er", "zero_to_55", "holdem_sppoker"):
        assert {named("small_bet"), named("big_bet")} <= cited  # the pages do cite stakes


# --- Discord accepts the commands ------------------------------------------------------------


def test_the_start_commands_are_ones_discord_accepts(
        tree: app_commands.CommandTree[Any]) -> None:
    """The commands as the bot sends them (with their Swedish names and descriptions), by
    the loopback's copy of Discord's schema and its limits (25 options, 32-character names,
    100-character descriptions, names a Discord client can type)."""
    i18n.load()

    async def payload() -> list[dict[str, Any]]:
        translator = Translator()
        return [await command.get_translated_payload(tree, translator)
                for command in tree.get_commands()]

    commands_json = asyncio.run(payload())
    form = FormErrors()
    schemas.check_body("commands_overwrite", commands_json, form)
    limits.check_commands(commands_json, form)
    assert not form.errors, form.errors
    by_name = {command["name"]: command for command in commands_json}
    spew = next(o for o in by_name["spew"]["options"] if o["name"] == "start")
    low = next(o for o in spew["options"] if o["name"] == "out_takes_low")
    assert low["type"] == discord.AppCommandOptionType.boolean.value
    assert low["name_localizations"]["sv-SE"] == "tom_hand_tar_lågt"
    name = re.compile(r"^[-_\w]{1,32}$")
    for command in commands_json:
        for sub in command.get("options") or []:
            for option in sub.get("options") or []:
                for localized in (option.get("name_localizations") or {}).values():
                    assert name.fullmatch(localized) and localized == localized.lower()


# --- the lobby says the options in words -----------------------------------------------------


def lobby(kind: str, locale: str = "en", **options: Any) -> Table:
    table = Table("t1", 1, 2, kind, 10, options=options, locale=locale)
    table.seats = [Seat(user_id=10, name="Alice"), Seat(user_id=None, name="AI 1")]
    return table


def options_line(table: Table) -> str:
    i18n.load()
    text = lobby_text(table, None)
    lines = [line for line in text.splitlines() if line.startswith(("Options: ", "Val: "))]
    assert len(lines) <= 1, text
    return lines[0] if lines else ""


def test_a_swedish_sppoker_lobby_lists_its_options_in_swedish_words() -> None:
    """Was `Val: target 1, language sv_SE, ai_seats [2]` (issue 23)."""
    table = lobby("sppoker", "sv", target=1, language="sv_SE", ai_seats=[1])
    line = options_line(table)
    assert line == "Val: till 1 poäng · ordlista: svenska (Sverige)" or \
        line == "Val: till 1 poäng · ordlista: svenska", line
    assert "target" not in line and "ai_seats" not in line and "[" not in line


def test_an_english_sppoker_lobby_reads_in_words() -> None:
    table = lobby("sppoker", target=1, language="en_US", declare_seconds=60, last_seconds=15,
                  ai_skill=1)
    line = options_line(table)
    assert line.startswith("Options: to 1 point · English"), line
    assert "dictionary · good AI · 60 s to declare · 15 s for the last to declare" in line
    assert options_line(lobby("sppoker", target=7)) == "Options: to 7 points"


def test_a_chip_lobby_lists_stakes_and_clocks_but_not_the_buy_in_twice() -> None:
    table = lobby("zero_to_55", buy_in=500, min_buy_in=100, ante=3, small_bet=15,
                  declare_seconds=300, last_seconds=20, draw_fee=2)
    line = options_line(table)
    assert line == ("Options: ante 3 · bets 15/20 · draws cost 2 a card · a short stack may "
                    "sit down with 100 · 300 s to declare · 20 s for the last to declare"), line
    assert "buy-in of **500**" in lobby_text(table, None)
    with i18n.using("sv"):
        swedish_words = " · ".join(options_words(table))
    assert swedish_words == ("ante 3 · insatser 15/20 · köp kostar 2 per kort · en kort stack "
                             "får sätta sig med 100 · 300 s att deklarera · 20 s för den sista "
                             "att deklarera"), swedish_words


def test_the_lobby_says_only_what_was_set_or_means_something() -> None:
    assert options_line(lobby("badugi")) == ""  # nothing chosen: no line
    assert options_line(lobby("badugi", buy_in=300, ai_seats=[1])) == ""
    assert options_line(lobby("badugi", ante=0)) == "Options: no ante"
    assert options_line(lobby("holdem_sppoker", big_blind=20, small_bet=20, big_bet=40)) == \
        "Options: blinds 5/20 · bets 20/40"
    assert options_line(lobby("spew", out_takes_low=False)) == ""
    assert options_line(lobby("spew", out_takes_low=True)) == \
        "Options: a hand spewed out of cards takes low"
    assert options_line(lobby("chicago", call=False, turn_seconds=60)) == \
        "Options: no Chicago calls · 60 s a turn"
    assert options_line(lobby("red_dog", ante=2, max_rounds=5)) == \
        "Options: ante 2 · max rounds 5"  # one the lobby has no words for: still readable


def test_a_dictionary_is_named_by_its_language_in_the_readers_words() -> None:
    i18n.load()
    installed = validation.installed_dictionaries()
    with i18n.using("en"):
        english = dictionary_name("en_US")
        assert english.startswith("English")
        assert ("(United States)" in english) == ("en_GB" in installed)
        assert dictionary_name("not a tag!") == "not a tag!"
    with i18n.using("sv"):
        assert dictionary_name("sv_SE").startswith("svenska")
