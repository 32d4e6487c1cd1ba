"""The message catalogues: every string the code marks is in the templates, and every catalogue
declared complete (`bot.catalogues.COMPLETE`) has it translated into Swedish, with the same
fields;
the engine's sentences render in Swedish at the edge; the slash commands' Swedish texts are
ones Discord accepts."""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterable

import pytest
from babel.messages.pofile import read_po

from bot import catalogues
from bot.present import i18n
from engine.cards import parse_cards
from engine.evaluator import evaluate
from engine.game import Action, Choice, Game, Prompt
from engine.games.poangpoker.rules import Chicago, Poangpoker
from engine.i18n import Msg, msg, msg_n

FIELD = re.compile(r"\{(\w+)\}")
CARD_LABEL = re.compile(r"[\dAJQK]+[♣♦♥♠]")  # a card as shown, the same in every language


def prompt_texts(prompt: Prompt | None, *, reasons: bool = False) -> list[str]:
    """A prompt's sentence and its buttons' labels (and why a disabled one is disabled)."""
    if prompt is None:
        return []
    texts = [prompt.text, *(choice.label for choice in prompt.choices)]
    if reasons:
        texts += [c.disabled_reason for c in prompt.choices
                  if isinstance(c, Choice) and c.disabled_reason]
    return texts


def refusals(game: Game, seat: int, actions: Iterable[Action]) -> list[str]:
    """What the rules say to each of `actions`, every one of which they must refuse."""
    said = []
    for bad in actions:
        with pytest.raises(Exception) as refused:
            game.apply(seat, bad)
        said.append(refused.value.args[0])
    return said


def play_out(game: Game, choose: Callable[[int], Action], *, reasons: bool = False,
             extra: Callable[[int], list[str]] = lambda seat: []) -> list[str]:
    """Every text a whole game shows, played to its end by `choose(seat)`: its opening, each
    prompt, what `extra(seat)` adds before the move, each event and the result."""
    texts = [event.text for event in game.opening_events()]
    while not game.is_over:
        seat = min(game.to_act)
        prompt = game.prompt(seat)
        assert prompt is not None
        texts += prompt_texts(prompt, reasons=reasons)
        texts += extra(seat)
        texts += [event.text for event in game.apply(seat, choose(seat))]
    assert game.result is not None
    texts.append(game.result.summary)
    return texts


def assert_swedish(texts: Iterable[str], english: re.Pattern[str], *,
                   catalogued: bool = True) -> None:
    """Each text renders in Swedish with none of `english`'s words left; `catalogued`: each
    is a catalogue entry (a `Msg`), or a card label."""
    for text in texts:
        if text == "":
            continue  # an event without words (only a picture's) shows nothing
        assert not catalogued or isinstance(text, Msg) or CARD_LABEL.fullmatch(text), text
        shown = i18n.render(text, "sv")
        assert not english.search(shown), (str(text), shown)


def template(domain: str) -> dict[str, tuple[str, ...]]:
    with (i18n.LOCALE_DIR / f"{domain}.pot").open("rb") as handle:
        catalogue = read_po(handle)
    found: dict[str, tuple[str, ...]] = {}
    for message in catalogue:
        if not message.id:
            continue
        if isinstance(message.id, tuple | list):
            found[str(message.id[0])] = tuple(str(m) for m in message.id)
        else:
            found[str(message.id)] = (str(message.id),)
    return found


def swedish(domain: str) -> dict[str, tuple[str, ...]]:
    path = i18n.LOCALE_DIR / "sv" / "LC_MESSAGES" / f"{domain}.po"
    with path.open("rb") as handle:
        catalogue = read_po(handle, locale="sv")
    found: dict[str, tuple[str, ...]] = {}
    for message in catalogue:
        if not message.id or message.fuzzy:
            continue
        key = str(message.id[0]) if isinstance(message.id, tuple | list) else str(message.id)
        strings = message.string if isinstance(message.string, tuple | list) else (message.string,)
        if all(strings):
            found[key] = tuple(str(s) for s in strings)
    return found


@pytest.mark.parametrize("domain", sorted(catalogues.DOMAINS))
def test_the_templates_hold_every_marked_string(domain: str) -> None:
    """`python -m bot.catalogues extract` was run: a new msg()/t() string is in the template."""
    extracted = catalogues.extract(domain)
    assert extracted == template(domain), "run: python -m bot.catalogues extract"


def test_the_commands_template_holds_every_command_text() -> None:
    """Read from the command tree the bot builds, in a process of its own: tests register
    games of their own (tests/support), which would show among the commands' choices."""
    import json
    import subprocess
    import sys

    script = "import json; from bot.catalogues import command_msgids; print(json.dumps(list(" \
        "command_msgids())))"
    found = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                           check=True, cwd=i18n.ROOT)
    texts = set(json.loads(found.stdout.strip().splitlines()[-1]))
    assert texts <= set(template("commands")), "run: python -m bot.catalogues extract"


@pytest.mark.parametrize("domain", catalogues.COMPLETE)
def test_complete_catalogues_translate_every_string_into_swedish(domain: str) -> None:
    wanted = template(domain)
    done = swedish(domain)
    missing = sorted(set(wanted) - set(done))
    assert not missing, f"untranslated in sv/{domain}.po: {missing[:10]}"
    for msgid, ids in wanted.items():
        fields = set(FIELD.findall(" ".join(ids)))
        for text in done[msgid]:
            assert set(FIELD.findall(text)) <= fields | {"n"}, (msgid, text)
            assert set(FIELD.findall(text)) >= fields - {"n"} or len(ids) > 1, (msgid, text)


def test_engine_sentences_are_english_strings_that_remember_their_entry() -> None:
    game = Poangpoker(["Anna", "Bo"], {"first_dealer": 1}, random.Random(3))
    events = game.opening_events()
    assert events[0].text == "Deal 1: Bo deals; Anna is first."
    assert isinstance(events[0].text, Msg)
    assert Msg.from_json(events[0].text.to_json()) == events[0].text
    assert i18n.render(events[0].text, "sv") == "Giv 1: Bo ger; Anna börjar."


def test_hand_names_and_their_words_are_translated() -> None:
    value = evaluate(parse_cards("Kh Ks 5d 5c 5s"))
    assert value.description == "full house, fives over kings"
    assert i18n.render(value.description, "sv") == "kåk, femmor över kungar"
    flush = evaluate(parse_cards("Ah 9h 6h 4h 2h")).description
    assert i18n.render(flush, "sv") == "färg, ess högst"
    # Read back from a snapshot as plain English, it is still found by its template.
    assert i18n.render(str(value.description) + "", "sv") == "kåk, femmor över kungar"
    assert i18n.render("Deal 3 is over. Scores: Anna 5, Bo 2.", "sv") == \
        "Giv 3 är slut. Poäng: Anna 5, Bo 2."


def test_a_whole_poangpoker_and_chicago_game_reads_in_swedish() -> None:
    """Every event, prompt, label and refusal of whole games renders with no English word
    left of the catalogue's (names and card labels stay as they are)."""
    english = re.compile(r"\b(the|and|is|wins|deal|trick|points|your|cards|with|over|high)\b")
    for cls in (Poangpoker, Chicago):
        rng = random.Random(11)
        game = cls(["Anna", "Bo", "Cia"], {"first_dealer": 0}, random.Random(5))
        # the AI's moves: random calls would never end a Chicago
        texts = play_out(game, lambda seat: game.ai_action(seat, rng), reasons=True)  # noqa: B023
        texts += refusals(game, 0, [Action("play", ("Ah",))])
        assert_swedish(texts, english)


def test_bot_sentences_follow_the_current_locale() -> None:
    with i18n.using("sv"):
        assert i18n.t("Show my hand") == "Visa min hand"
        assert i18n.t("Deal {n} is dealt.", n=4) == "Giv 4 är utdelad."
    with i18n.using("sv-SE"):
        assert i18n.current() == "sv"
    with i18n.using("de"):
        assert i18n.t("Show my hand") == "Show my hand"


def test_a_persons_locale_wins_in_private_else_the_servers() -> None:
    i18n.remember_user_locale(1, "sv-SE")
    i18n.remember_user_locale(2, "de")
    assert i18n.reader_locale(1, "en") == "sv"
    assert i18n.reader_locale(2, "sv") == "sv"
    assert i18n.reader_locale(3, "en") == "en"


def test_plurals() -> None:
    one, two = msg_n("{n} card", "{n} cards", 1), msg_n("{n} card", "{n} cards", 2)
    assert (one, two) == ("1 card", "2 cards")
    assert i18n.render(msg("{x}", x=two), "sv") == "2 kort"


def test_command_translations_are_ones_discord_accepts() -> None:
    name = re.compile(r"^[-_\w]{1,32}$")
    for msgid, (text,) in swedish("commands").items():
        if msgid.startswith("name: "):
            assert name.fullmatch(text) and text == text.lower(), text
            assert i18n.translate_command(msgid[6:], "sv", "name") in (text, None)
        else:
            assert 1 <= len(text) <= 100, text
    assert i18n.translate_command("table", "sv", "name") == "bord"
    assert i18n.translate_command("Show the table in this channel", "sv", "text") == \
        "Visa bordet i den här kanalen"
    assert i18n.translate_command("table", "en", "name") is None


TRANSLATED_RULES = {"poangpoker": ("Poängpoker and Chicago", "Poängpoker och Chicago"),
                    "sppoker": ("Sppoker", "Sppoker"), "poke": ("Poke", "Poke"),
                    "red_dog": ("Red Dog", "Red Dog"),
                    "dealers_choice": ("Dealer's Choice", "Dealer's Choice"),
                    "spew": ("Spew", "Spew"), "old_man_49er": ("Old Man 49er", "Old Man 49er"),
                    "zero_to_55": ("Zero to 55", "Zero to 55"),
                    "holdem_sppoker": ("Hold'em Sppoker", "Hold'em Sppoker"),
                    "pokeno": ("Pyramid Po-Ke-No", "Pyramid Po-Ke-No")}
"""The rules pages translated into Swedish (docs/rules/sv/), with the games declared complete."""


@pytest.mark.parametrize("kind", sorted(TRANSLATED_RULES))
def test_swedish_rules_pages_read_as_discord_shows_them(kind: str) -> None:
    from cogs.common import RULES_DIR, rules_embeds, rules_path

    path = rules_path(kind, "sv")
    assert path == RULES_DIR / "sv" / f"{kind}.md"
    text = path.read_text(encoding="utf-8")
    fenced, before = False, ""
    for line in text.splitlines():  # no hard line breaks inside paragraphs, no pipe tables
        if line.strip().startswith("```"):
            fenced = not fenced
        elif not fenced and before.strip() and line.strip():
            assert re.match(r"^\s*(?:[-*] |\d+\. |#)", line), line[:40]
        before = "" if fenced else line
    english = (RULES_DIR / f"{kind}.md").read_text(encoding="utf-8")
    assert text.count("\n## ") == english.count("\n## ")  # every section
    assert text.count("(beslut)") == english.count("(decision)")  # every ruling
    english_title, swedish_title = TRANSLATED_RULES[kind]
    with i18n.using("sv"):
        title = i18n.t(english_title)
    batches = rules_embeds(text, title)
    assert batches[0][0].title == swedish_title
    for batch in batches:
        assert 1 <= len(batch) <= 10
        assert sum(len(e.title or "") + len(e.description or "") for e in batch) <= 6000
    assert rules_path(kind, "en") == RULES_DIR / f"{kind}.md"


def test_sppoker_in_swedish_spells_with_the_decks_letters() -> None:
    """With the Swedish dictionary (hunspell-sv, installed by ./dev): the finder's words are
    Swedish words the deck can spell (no Å, Ä, Ö), and a Swedish server's tables use it unless
    the server chose a dictionary."""
    from cogs.sppoker import default_dictionary
    from engine.words import available_languages, get_dictionary, usable_words, validate_word

    if "sv_SE" not in available_languages():
        pytest.skip("hunspell-sv is not installed")
    assert default_dictionary(None, "sv", "en_US") == "sv_SE"
    assert default_dictionary("en_GB", "sv", "en_US") == "en_GB"
    swedish = get_dictionary("sv_SE")
    assert validate_word("kort", "KORTXYZ", swedish).ok
    assert validate_word("stick", "STICKXZ", swedish).ok
    assert not validate_word("card", "CARDXYZ", swedish).ok
    words = usable_words(["kort", "bord", "sjö", "hand", "spel", "äta"], swedish)
    assert words == ["bord", "hand", "kort", "spel"]


def test_a_whole_sppoker_game_reads_in_swedish_with_swedish_words() -> None:
    from bot.wordlists import build
    from engine.games.sppoker.rules import Sppoker
    from engine.words import WordFinder, available_languages, get_dictionary

    if "sv_SE" not in available_languages():
        pytest.skip("hunspell-sv is not installed")
    swedish = get_dictionary("sv_SE")
    finder = WordFinder(build("sv_SE", swedish), swedish)
    english = re.compile(r"\b(the|and|wins|hand is|declared|word|letters|points|spelling|"
                         r"double down|beaten|tied|score|longest)\b")
    rng = random.Random(2)
    game = Sppoker(["Anna", "Bo", "Cia"], {"target": 3}, random.Random(9), dictionary=swedish,
                   finder=finder)
    texts = [event.text for event in game.opening_events()]
    words = []
    while not game.is_over:
        seat = min(game.to_act, default=0)  # between hands: anyone's Next hand
        prompt = game.prompt(seat)
        if prompt is not None:
            texts += [prompt.text, *(choice.label for choice in prompt.choices)]
        action = game.ai_action(seat, rng)
        if action.name == "declare" and len(action.args) > 1:
            words.append(action.args[1])
        texts += [event.text for event in game.apply(seat, action)]
    assert game.result is not None
    texts.append(game.result.summary)
    assert words and all(swedish.check(word.lower()) for word in words), words
    for text in texts:
        shown = i18n.render(text, "sv")
        assert not english.search(shown), (str(text), shown)


def test_a_whole_poke_rubber_reads_in_swedish() -> None:
    from engine.games.poke.rules import Poke
    from engine.games.poke.scoring import Scoresheet

    english = re.compile(r"\b(the|and|wins|deal|trick|tricks|points|your|cards|with|draws|"
                         r"above|below|leads|plays|rubber|game)\b")
    rng = random.Random(4)
    game = Poke(["Anna", "Bo"], {}, random.Random(6))
    texts = play_out(game, lambda seat: game.ai_action(seat, rng), reasons=True)
    assert_swedish(texts, english)
    with i18n.using("sv"):
        from cogs.trick_games import poke_public
        board = "\n".join(poke_public(game.public_view()))
    assert "VI" in board and "DE" in board and "omgång 1" in board, board
    assert Scoresheet().render(["Ann", "Bob"]).split()[:2] == ["WE", "THEY"]


def test_the_chip_games_betting_reads_in_swedish() -> None:
    """The betting every chip game shares (engine/chips/betting.py, chip_deal.py): its buttons, the
    bets told to the table and the refusals."""
    from engine.games.badugi.rules import Badugi

    rng = random.Random(3)
    english = re.compile(r"\b(bets|calls|checks|folds|raises|Pot|Call|Bet|Raise|Fold|Check)\b")
    seen = 0
    for seed in range(3):
        game = Badugi(["Anna", "Bo", "Cia"], {"stacks": [100, 100, 100], "button": 0},
                      random.Random(seed))
        game.opening_events()
        while not game.is_over:
            seat = min(game.to_act)
            prompt = game.prompt(seat)
            assert prompt is not None
            labels = [c.label for c in prompt.choices
                      if getattr(c, "action", None) is not None
                      and c.action.name in ("fold", "check", "call", "bet", "raise")]
            for label in labels:
                assert not english.search(i18n.render(label, "sv")), label
            for event in game.apply(seat, game.ai_action(seat, rng)):
                if event.kind in ("bet", "uncalled"):
                    seen += 1
                    assert not english.search(i18n.render(event.text, "sv")), event.text
    assert seen


def test_a_badugi_deal_reads_in_swedish() -> None:
    from engine.games.badugi.rules import Badugi

    english = re.compile(r"\b(the|and|deals|draws|pot|cards|stands|folded|with|split|"
                         r"Showdown|Side|main)\b")
    rng = random.Random(8)
    for seed in range(4):
        game = Badugi(["Anna", "Bo", "Cia"], {"stacks": [40, 100, 100], "button": 1},
                      random.Random(seed))
        assert_swedish(play_out(game, lambda seat: game.ai_action(seat, rng)),  # noqa: B023
                       english)


BAD_BETS = (Action("bet", (10_000,)), Action("bet", ("x",)), Action("fly"))


def test_a_red_dog_game_reads_in_swedish() -> None:
    from engine.games.red_dog.rules import RedDog

    english = re.compile(r"\b(the|and|bets|passes|pot|chips?|shows|wins|into|higher|"
                         r"Round|deals|first|Final|stacks|shared|Bet|Pass|your)\b")
    rng = random.Random(8)
    for seed in range(4):
        game = RedDog(["Anna", "Bo", "Cia", "Dan"], {"stacks": [3, 20, 20, 0], "button": 1,
                                                     "max_rounds": 3}, random.Random(seed))
        texts = play_out(
            game,
            lambda seat: game.ai_action(seat, rng) if seed % 2 else Action("timeout"),  # noqa: B023
            extra=lambda seat: refusals(game, seat, BAD_BETS),  # noqa: B023
        )
        assert_swedish(texts, english)


def test_a_spew_deal_reads_in_swedish() -> None:
    from engine.games.spew.rules import Spew

    english = re.compile(r"\b(the|and|deals|draws|pot|cards|stands|folded|with|split|"
                         r"Showdown|Side|main|declared|declare|high|low|both|spews|nobody|"
                         r"wins|High|Low|Both|Declare)\b")
    rng = random.Random(8)
    for seed in range(8):
        options: dict[str, object] = {"stacks": [40, 100, 100, 100], "button": seed % 4}
        if seed % 2:
            options["out_takes_low"] = True
        game = Spew(["Anna", "Bo", "Cia", "Dan"], options, random.Random(seed))

        def bad_declarations(seat: int) -> list[str]:
            if game.phase != "declare":  # noqa: B023
                return []
            return refusals(game, seat, [Action("declare", ("up",)), Action("fly")])  # noqa: B023

        def choose(seat: int) -> Action:
            if seed == 2 and game.phase == "declare":  # noqa: B023
                return Action("timeout")
            return game.ai_action(seat, rng)  # noqa: B023

        texts = play_out(game, choose, extra=bad_declarations)
        assert_swedish([Spew.goal(options, 4), *texts], english)


def test_old_man_49er_and_zero_to_55_deals_read_in_swedish() -> None:
    from engine.games.old_man_49er.rules import OldMan49er
    from engine.games.zero_to_55.rules import ZeroTo55

    english = re.compile(r"\b(the|and|deals|draws|pays|pot|cards|stands|folded|with|"
                         r"Showdown|Side|main|declared|declare|high|low|both|nobody|wins|"
                         r"Reveal|Betting|leads|order|fixed|picked|Confirm|Reset|High|Low|"
                         r"Both|Declare|exactly|fees)\b")
    rng = random.Random(8)
    for seed in range(6):
        cls = (OldMan49er, ZeroTo55)[seed % 2]
        options: dict[str, object] = {"stacks": [60, 200, 200], "button": seed % 3}
        if seed in (1, 3):
            options["draw_fee"] = 2
        game = cls(["Anna", "Bo", "Cia"], options, random.Random(seed))

        def bad_orders(seat: int) -> list[str]:
            if game.phase not in ("order", "declare"):  # noqa: B023
                return []
            return refusals(game, seat, [Action("reset"), Action("confirm"),  # noqa: B023
                                         Action("fly")])

        texts = play_out(
            game,
            lambda seat: Action("timeout") if seed == 4 else game.ai_action(seat, rng),  # noqa: B023
            reasons=True, extra=bad_orders,
        )
        assert_swedish([cls.goal(options, 3), *texts], english)


def test_a_dealers_choice_session_reads_in_swedish() -> None:
    """The dealer's choice, then a whole deal of each game chosen."""
    from engine.games.dealers_choice.rules import DealersChoice

    english = re.compile(r"\b(the|and|deals|chooses|choose|game|games|pot|cards|with|wins|"
                         r"takes|folded|Showdown|declared|Reveal|Round|bets|passes)\b")
    rng = random.Random(8)
    titles = {"Badugi", "Red Dog", "Spew", "Old Man 49er", "Zero to 55", "Hold'em Sppoker"}
    for seed, kind in enumerate(("red_dog", "spew", "old_man_49er", "zero_to_55", "badugi")):
        options = {"stacks": [60, 200, 200], "button": seed % 3}
        session = DealersChoice(["Anna", "Bo", "Cia"], options, random.Random(seed))
        texts = [DealersChoice.goal(options, 3),
                 *(event.text for event in session.opening_events())]
        prompt = session.prompt(session.button)
        assert prompt is not None and kind in session.menu
        texts.append(prompt.text)
        assert {str(choice.label) for choice in prompt.choices} <= titles
        for choice in prompt.choices:
            assert i18n.render(choice.label, "sv") == choice.label  # the games' own names
        for who, bad in ((session.button + 1, Action("choose", (kind,))),
                         (session.button, Action("choose", ("chess",)))):
            with pytest.raises(Exception) as refused:
                session.apply(who % 3, bad)
            texts.append(refused.value.args[0])
        texts += [e.text for e in session.apply(session.button, Action("choose", (kind,)))]
        while not session.is_over:
            seat = min(session.to_act)
            texts += [e.text for e in session.apply(seat, session.ai_action(seat, rng))]
        assert session.result is not None
        texts.append(session.result.summary)
        for text in texts:
            assert isinstance(text, Msg), text
            shown = i18n.render(text, "sv")
            assert not english.search(shown), (str(text), shown)


@pytest.mark.parametrize("domain", sorted(catalogues.DOMAINS))
def test_babels_extractor_finds_every_marked_string(domain: str) -> None:
    """Every msg()/t()/N_() call with a literal is found by the extractor (Babel misses a
    keyword call nested in another's arguments: write such a sentence on a line of its own)."""
    import ast

    found = set(catalogues.extract(domain))
    for path in catalogues.source_files(catalogues.DOMAINS[domain], catalogues.DOMAINS):
        if path.suffix != ".py":
            continue  # a template (web/templates) is read by Babel's Jinja2 extractor
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                    and node.func.id in ("msg", "msg_n", "t", "t_n", "N_") and node.args
                    and isinstance(node.args[0], ast.Constant)
                    and isinstance(node.args[0].value, str)):
                assert node.args[0].value in found, (path.name, node.lineno)


def test_a_holdem_sppoker_deal_reads_in_swedish() -> None:
    from engine.games.holdem_sppoker.rules import HoldemSppoker
    from engine.words import WordFinder, WordListDictionary

    words = WordListDictionary(["tea", "eat", "seat", "rose", "note", "stone", "tone", "ten"])
    finder = WordFinder(["tea", "eat", "seat", "rose", "note", "stone", "tone", "ten"], words)
    english = re.compile(r"\b(the|and|deals|Board|letters|Pot|pot|declare|declared|word|"
                         r"spelling|both|wins|valid|Your|cards|with|side|time|Showdown)\b")
    rng = random.Random(8)
    for seed in range(6):
        game = HoldemSppoker(["Anna", "Bo", "Cia"], {"stacks": [30, 100, 100], "button": 1},
                             random.Random(seed), dictionary=words, finder=finder)
        tried: list[int] = []

        def an_invalid_word(seat: int) -> list[str]:
            """Once a deal: a word that is not one, then refused declarations."""
            if game.phase != "declare" or tried:  # noqa: B023
                return []
            tried.append(seat)  # noqa: B023
            said = [e.text for e in game.apply(seat, Action("declare", ("spelling", "zq")))]  # noqa: B023
            said += prompt_texts(game.prompt(seat))[:1]  # noqa: B023
            return said + refusals(game, seat, [Action("declare", ("sing",)),  # noqa: B023
                                                Action("fly")])

        texts = play_out(
            game,
            lambda seat: game.ai_action(seat, rng) if seed % 3 else Action("timeout"),  # noqa: B023
            extra=an_invalid_word,
        )
        assert_swedish(texts, english)


def test_a_whole_pokeno_game_and_solitaire_read_in_swedish() -> None:
    """Every event, prompt, button and refusal of Pyramid Po-Ke-No and its solitaire, and the
    boards and private views the bot draws of them (cogs/pokeno.py)."""
    from cogs.pokeno import pokeno_public, private_lines, solitaire_public
    from engine.games.pokeno.rules import Pokeno
    from engine.games.pokeno.solitaire import PokenoSolitaire

    english = re.compile(r"\b(the|and|deals|Round|round|deck|cards?|turn|placed|discarded|"
                         r"draws|passes|points|space|board|Your|full|wins|scores|not|only|of|"
                         r"high|pair|kind|house|beaten|empty|Final|Totals|Undo|Discard|End|"
                         r"Pick|Selected|joker|as|calls?|called|Scores|others)\b")
    for cls, seats, options in ((Pokeno, ["Anna", "Bo", "Cia"], {"target": 150}),
                                (PokenoSolitaire, ["Anna"], {})):
        rng = random.Random(3)
        game = cls(seats, options, random.Random(4))
        texts = [event.text for event in game.opening_events()]
        shown: list[str] = []
        while not game.is_over:
            seat = min(game.to_act)
            prompt = game.prompt(seat)
            assert prompt is not None
            texts += prompt_texts(prompt, reasons=True)
            if game.step < 3:
                card = game.view(seat).hand[0]
                texts += refusals(game, seat, [
                    Action("place", ("nowhere", card)), Action("place", ("pair",)),
                    Action("discard", ("Zz",)), Action("discard", ("2c", "2c", "2c")),
                    Action("undo"), Action("call"), Action("fly")])
                texts += [e.text for e in game.apply(seat, Action("pick", (card,)))]
                texts.append(game.prompt(seat).text)  # type: ignore[union-attr]
                texts += [e.text for e in game.apply(seat, Action("place", ("royal_flush",
                                                                             card)))]
                texts += [e.text for e in game.apply(seat, Action("undo"))]
                texts += [e.text for e in game.apply(seat, Action("discard", (card,)))]
                texts += [e.text for e in game.apply(seat, Action("undo"))]
            with i18n.using("sv"):
                view = game.view(seat)
                shown += private_lines(view)
                shown += (pokeno_public if cls is Pokeno else solitaire_public)(view)
            texts += [event.text for event in game.apply(seat, game.ai_action(seat, rng))]
        assert game.result is not None
        texts.append(game.result.summary)
        assert_swedish(texts, english)
        with i18n.using("sv"):
            shown += private_lines(game.view(0))
        for line in shown:
            assert not english.search(line.replace("Po-Ke-No", "")), line
    assert i18n.render(Pokeno.goal({}, 2), "sv") == "först till 500 poäng"
