"""A game named in a command's `game` option as a person types it (`bot.core.game_names`):
the text that arrives when the suggestion was not picked, in any case, with a phone's
apostrophe, in the server's language, or the kind a picked suggestion sends."""

from __future__ import annotations

import pytest

from bot.core.game_names import find_kind, game_kind, matching_games
from bot.core.table import TableError
from bot.present import i18n
from engine.games import GAMES


@pytest.mark.parametrize(("typed", "kind"), [
    ("Badugi", "badugi"), ("badugi", "badugi"), ("BADUGI ", "badugi"),
    ("Old Man 49er", "old_man_49er"), ("old man 49er", "old_man_49er"),
    ("old_man_49er", "old_man_49er"),
    ("Dealer's Choice", "dealers_choice"), ("dealer’s choice", "dealers_choice"),
    ("dealers choice", "dealers_choice"), ("Hold'em Sppoker", "holdem_sppoker"),
    ("Poängpoker", "poangpoker"), ("poangpoker", "poangpoker"),
    ("Po-Ke-No Solitaire", "pokeno_solitaire"),
    ("po-ke-no-patiens", "pokeno_solitaire"),  # its Swedish title
    ("Pyramid Po-Ke-No", "pokeno"), ("Poke", "poke"),
])
def test_a_game_is_found_by_its_title_in_any_case_and_language_or_its_kind(
        typed: str, kind: str) -> None:
    assert find_kind(typed) == kind
    assert game_kind(typed) == kind


def test_every_games_title_and_kind_name_it() -> None:
    for kind, game in GAMES.items():
        assert game_kind(kind) == kind
        assert game_kind(game.title) == kind
        assert game_kind(game.title.upper()) == kind


@pytest.mark.parametrize("typed", ["", "  ", "Badugi poker", "Go Fish", "x" * 300])
def test_a_name_of_no_game_is_refused_saying_what_to_do(typed: str) -> None:
    assert find_kind(typed) is None
    with pytest.raises(TableError) as refused:
        game_kind(typed)
    said = i18n.render(refused.value.args[0])
    assert "pick one of the suggestions" in said
    assert len(said) < 200  # a long name is quoted shortened


def test_a_name_of_no_game_is_quoted_back_as_text_not_markup() -> None:
    with pytest.raises(TableError) as refused:
        game_kind("**Go** @everyone")
    said = i18n.render(refused.value.args[0])
    assert "**Go**" not in said and "@everyone" not in said
    assert "Go" in said and "everyone" in said


def test_the_suggestions_match_what_is_typed_in_the_readers_language() -> None:
    assert ("badugi", "Badugi") in matching_games("bad", players=2)
    assert [kind for kind, _ in matching_games("49")] == ["old_man_49er"]
    # A one-person game is no tournament's: offered only where one player is enough.
    assert "pokeno_solitaire" not in dict(matching_games("po-ke-no", players=2))
    with i18n.using("sv"):
        assert dict(matching_games("patiens")) == {"pokeno_solitaire": "Po-Ke-No-patiens"}
    everything = matching_games("")
    assert {kind for kind, _ in everything} == set(GAMES)
