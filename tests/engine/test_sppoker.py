"""Sppoker rules: one test (at least) per ruling of RULINGS.md, on hands dealt by hand.

Hands are set with `Sppoker.from_hands` and words are judged by a small injected word list,
so every outcome here is decided by the rules alone.
"""

from __future__ import annotations

import json
import random

import pytest

from engine.cards import sppoker_deck
from engine.game import TIMEOUT, Action, Event, IllegalAction, TextAsk
from engine.games import GAMES
from engine.games.sppoker.options import DEFAULT_TARGETS, SppokerOptions
from engine.games.sppoker.rules import Sppoker
from engine.games.sppoker.showdown import sppoker_cards
from engine.words import WordCheck, WordFinder, WordListDictionary

# Four disjoint hands, strictly ordered in poker: QUADS > FLUSH > TWOPAIR > PAIR.
QUADS = "9c 9d 9h 9s 2c 3c 4c"  # letters B X T I A S E; four of a kind, nines
FLUSH = "2h 4h 6h 7h Th 5c 6c"  # letters N W N K A A I; flush, ten high
TWOPAIR = "Kc Kd Qc Qs 3d 5d 8s"  # letters H P L D V T Y; two pair, kings and queens
PAIR = "Ac Ad 2d 4s 6s 7c Jd"  # letters R S E O R L O; pair of aces
# Two ace-high straights that tie on poker (disjoint from QUADS and PAIR).
STRAIGHT_X = "Ts Jc Qd Kh As 2h 3s"  # letters F D E E C N A
STRAIGHT_Y = "Th Js Qc Kd Ah 4d 5s"  # letters A S L P O G U
SPPOKER = "Js 2s Kd Ah 7h Tc 8c"  # letters S P P O K E R

WORDS = [
    "taxis", "beast", "sit", "axe", "bias", "sate", "bit",  # QUADS
    "wain", "naan", "ink", "wan", "an",  # FLUSH
    "thy", "ply",  # TWOPAIR
    "roles", "loser", "sorrel", "sore", "sol", "ore",  # PAIR
    "fenced", "faced", "dance", "acne",  # STRAIGHT_X
    "goals", "also", "soap",  # STRAIGHT_Y
    "poker", "pokers", "spoke",
]
DICTIONARY = WordListDictionary(WORDS)
FINDER = WordFinder(WORDS, DICTIONARY)
NAMES = ("Ann", "Bob", "Cy", "Di", "Ed", "Flo", "Gus", "Hal")


def game(*hands: str, scores: list[int] | None = None, **options: object) -> Sppoker:
    """A game whose current hand is `hands` (one per seat)."""
    return Sppoker.from_hands(
        NAMES[: len(hands)], hands, SppokerOptions(**options), random.Random(7),  # type: ignore[arg-type]
        scores=scores, dictionary=DICTIONARY, finder=FINDER,
    )


def declare(g: Sppoker, *declarations: tuple[str, ...] | None) -> list[Event]:
    """Declare for seats 0, 1, ... in order (None: the seat times out). A seat left with an
    invalid word standing is still awaited; its time then runs out, which reveals the hand
    with that word (the rulings for invalid words are tested on their own below)."""
    events: list[Event] = []
    for seat, decl in enumerate(declarations):
        if seat not in g.active:
            continue
        action = TIMEOUT if decl is None else Action("declare", decl)
        events += g.apply(seat, action)
    for seat in sorted(g.to_act):
        events += g.apply(seat, TIMEOUT)
    return events


def reveal_of(events: list[Event]) -> dict:
    [reveal] = [e for e in events if e.kind == "reveal"]
    assert reveal.is_public
    return dict(reveal.data)


def points(events: list[Event]) -> list[int]:
    data = reveal_of(events)
    return [data["points"].get(str(s), 0) for s in range(len(data["scores"]))]


def notes(events: list[Event], seat: int) -> str:
    [player] = [p for p in reveal_of(events)["players"] if p["seat"] == seat]
    return "; ".join(player["notes"])


def test_the_test_hands_are_what_they_say():
    g = game(QUADS, FLUSH, TWOPAIR, PAIR)
    assert [g.view(s).poker for s in range(4)] == [
        "four of a kind, nines", "flush, ten high", "two pair, kings and queens", "pair of aces",
    ]
    assert [g.view(s).letters for s in range(4)] == ["BXTIASE", "NWNKAAI", "HPLDVTY", "RSEORLO"]
    g2 = game(STRAIGHT_X, STRAIGHT_Y)
    assert g2.view(0).poker == g2.view(1).poker == "straight, ace high"


# --- the deal, the deck, the registry -------------------------------------------------


def test_registered_and_deals_seven_each_from_the_56_card_deck():
    assert GAMES["sppoker"] is Sppoker
    g = Sppoker(NAMES[:8], None, random.Random(1), dictionary=DICTIONARY, finder=FINDER)
    assert all(len(g.hands[s]) == 7 for s in range(8))
    dealt = [c for hand in g.hands for c in hand] + g.deck
    assert sorted(map(str, dealt)) == sorted(map(str, sppoker_deck()))
    assert g.deck == []  # 8 players use the whole deck
    with pytest.raises(ValueError):
        Sppoker(["solo"], None, random.Random(1))


@pytest.mark.parametrize("players", range(2, 9))
def test_target_by_player_count(players):
    g = Sppoker(NAMES[:players], None, random.Random(players), dictionary=DICTIONARY,
                finder=FINDER)
    assert g.target == DEFAULT_TARGETS[players] == 14 - players
    custom = Sppoker(NAMES[:players], {"target": 3}, random.Random(1), dictionary=DICTIONARY,
                     finder=FINDER)
    assert custom.target == 3


# --- no double down -------------------------------------------------------------------


def test_no_double_down_best_poker_and_best_word_score_one_each():
    g = game(QUADS, FLUSH, TWOPAIR, PAIR)
    events = declare(g, ("poker",), ("poker",), ("spelling", "thy"), ("spelling", "roles"))
    assert points(events) == [1, 0, 0, 1]
    assert "wins poker: +1" in notes(events, 0)
    assert "beaten on poker by Ann (four of a kind, nines)" in notes(events, 1)
    assert "beaten on spelling by ROLES (Di)" in notes(events, 2)
    assert g.scores == [1, 0, 0, 1]
    assert g.phase == "reveal"


def test_a_declarer_competes_only_with_the_same_kind():
    # PAIR is the worst poker hand but the only poker declarer: it wins poker.
    g = game(QUADS, FLUSH, TWOPAIR, PAIR)
    events = declare(g, ("spelling", "bit"), ("spelling", "wain"), ("spelling", "ply"),
                     ("poker",))
    assert points(events) == [0, 1, 0, 1]
    assert "lone poker declarer: wins poker: +1" in notes(events, 3)


def test_lone_spelling_declarer_wins_spelling():
    g = game(QUADS, FLUSH, TWOPAIR, PAIR)
    events = declare(g, ("poker",), ("poker",), ("poker",), ("spelling", "ore"))
    assert points(events) == [1, 0, 0, 1]
    assert "lone spelling declarer" in notes(events, 3)


def test_longer_word_wins_whatever_its_first_letter():
    g = game(QUADS, FLUSH, TWOPAIR, PAIR)
    events = declare(g, ("poker",), ("spelling", "wain"), ("poker",), ("spelling", "roles"))
    assert points(events) == [1, 0, 0, 1]


def test_equal_length_first_letter_later_in_alphabet_wins():
    # TAXIS beats ROLES (T after R), as WALL beats BEST.
    g = game(QUADS, FLUSH, TWOPAIR, PAIR)
    events = declare(g, ("spelling", "taxis"), ("poker",), ("poker",), ("spelling", "roles"))
    assert points(events) == [1, 1, 0, 0]
    assert "beaten on spelling by TAXIS (Ann)" in notes(events, 3)


def test_tie_on_spelling_both_score():
    # SATE and SORE: same length, same first letter.
    g = game(QUADS, FLUSH, TWOPAIR, PAIR)
    events = declare(g, ("spelling", "sate"), ("poker",), ("poker",), ("spelling", "sore"))
    assert points(events) == [1, 1, 0, 1]
    assert "tied on spelling with SORE (Di): +1" in notes(events, 0)


def test_tie_on_poker_both_score():
    g = game(STRAIGHT_X, STRAIGHT_Y, PAIR)
    events = declare(g, ("poker",), ("poker",), ("spelling", "sol"))
    assert points(events) == [1, 1, 1]
    assert "tied on poker with Bob (straight, ace high): +1" in notes(events, 0)


# --- invalid words --------------------------------------------------------------------


def test_invalid_word_loses_to_any_valid_word():
    # TAXISX asks for a second X: invalid, so the two-letter AN wins.
    g = game(QUADS, FLUSH, TWOPAIR, PAIR)
    events = declare(g, ("spelling", "taxisx"), ("spelling", "an"), ("poker",), ("poker",))
    assert points(events) == [0, 1, 1, 0]
    assert "invalid word: letters not in your hand: 1 more X (you hold 1)" in notes(events, 0)


def test_two_invalid_words_do_not_tie():
    g = game(QUADS, FLUSH, TWOPAIR, PAIR)
    events = declare(g, ("spelling", "xx"), ("spelling", "qq"), ("poker",), ("poker",))
    assert points(events) == [0, 0, 1, 0]
    assert reveal_of(events)["spelling_winners"] == []
    assert "tied" not in notes(events, 0) + notes(events, 1)


def test_lone_spelling_declarer_with_an_invalid_word_scores_nothing():
    g = game(QUADS, FLUSH)
    events = declare(g, ("poker",), ("spelling", "wank"))  # W A N K are there; not a word here
    assert points(events) == [1, 0]
    assert "invalid word: not in the en_US dictionary: WANK" in notes(events, 1)


@pytest.mark.parametrize(
    ("word", "reason"),
    [
        ("b", "too short"),
        ("be ast", "not a word: a space is not a letter"),
        ("be-ast", "not a word: '-' is not a letter"),
        ("bea'st", "not a word: \"'\" is not a letter"),
        ("beasts", "letters not in your hand: 1 more S (you hold 1)"),
        ("bestiax", "not in the en_US dictionary: BESTIAX"),
    ],
)
def test_each_invalid_reason_is_told_privately_at_once_and_the_word_loses(word, reason):
    g = game(QUADS, FLUSH)
    events = g.apply(0, Action("declare", ("spelling", word)))
    [check] = [e for e in events if e.kind == "word_check"]
    assert check.seat == 0 and not check.data["ok"]
    assert reason in check.data["reason"] and reason in check.text
    assert not any(e.is_public for e in events)
    events = g.apply(1, Action("declare", ("spelling", "an")))
    events += g.apply(0, TIMEOUT)  # the invalid word still stands when Ann's time runs out
    assert points(events) == [0, 1]


def test_a_word_is_compared_after_compatibility_folding():
    """Issue 23, rule 5: INK typed with the Kelvin sign (U+212A) for its K uses FLUSH's K
    (the 7 of hearts): valid, and it wins the spelling hand."""
    g = game(QUADS, FLUSH)
    events = g.apply(1, Action("declare", ("spelling", "in\u212a")))
    [check] = [e for e in events if e.kind == "word_check"]
    assert check.data["ok"] and check.data["word"] == "INK" and check.seat == 1
    reveal = reveal_of(g.apply(0, Action("declare", ("poker",))))
    assert reveal["points"] == {"0": 1, "1": 1} and reveal["spelling_winners"] == [1]


def test_a_spelling_declaration_without_a_word_is_invalid():
    g = game(QUADS, FLUSH)
    events = g.apply(0, Action("declare", ("spelling",)))
    [check] = [e for e in events if e.kind == "word_check"]
    assert check.seat == 0 and check.data["reason"] == "no word given"
    events = g.apply(1, Action("declare", ("spelling", "an")))
    events += g.apply(0, TIMEOUT)
    assert points(events) == [0, 1]
    assert "invalid word: no word given" in notes(events, 0)


def test_case_and_surrounding_spaces_are_ignored():
    g = game(QUADS, FLUSH)
    events = g.apply(0, Action("declare", ("spelling", "  TaXiS ")))
    assert [e.data["ok"] for e in events if e.kind == "word_check"] == [True]
    events = g.apply(1, Action("declare", ("poker",)))
    assert points(events) == [1, 1]
    assert reveal_of(events)["players"][0]["word"] == "TAXIS"


# --- double down ----------------------------------------------------------------------


def test_one_double_down_wins_both_ways_scores_four_and_ends_the_hand():
    g = game(QUADS, FLUSH, TWOPAIR, PAIR)
    events = declare(g, ("double", "taxis"), ("poker",), ("poker",), ("spelling", "loser"))
    assert points(events) == [4, 0, 0, 0]
    assert "double down wins both ways: +4" in notes(events, 0)
    assert "the double down of Ann ends the hand" in notes(events, 3)
    assert reveal_of(events)["double_winner"] == 0


def test_one_double_down_beaten_on_spelling_then_the_others_resolve():
    g = game(QUADS, FLUSH, TWOPAIR, PAIR)
    events = declare(g, ("double", "taxis"), ("poker",), ("poker",), ("spelling", "sorrel"))
    assert points(events) == [-2, 1, 0, 1]
    assert "double down beaten on spelling by SORREL (Di): -2" in notes(events, 0)
    assert g.scores == [-2, 1, 0, 1]  # scores may go negative


def test_one_double_down_beaten_on_poker():
    g = game(QUADS, FLUSH, TWOPAIR, PAIR)
    events = declare(g, ("poker",), ("spelling", "wain"), ("poker",), ("double", "sorrel"))
    assert points(events) == [1, 1, 0, -2]
    assert "double down beaten on poker by Ann (four of a kind, nines): -2" in notes(events, 3)


def test_one_double_down_tied_on_poker_loses_both_ways():
    g = game(STRAIGHT_X, STRAIGHT_Y, PAIR)
    events = declare(g, ("double", "fenced"), ("poker",), ("spelling", "sol"))
    assert points(events) == [-2, 1, 1]
    assert "double down tied on poker with Bob (straight, ace high): -2" in notes(events, 0)


def test_one_double_down_tied_on_spelling_loses_both_ways():
    g = game(QUADS, FLUSH, TWOPAIR, PAIR)
    events = declare(g, ("double", "sate"), ("poker",), ("poker",), ("spelling", "sore"))
    assert points(events) == [-2, 1, 0, 1]
    assert "double down tied on spelling with SORE (Di): -2" in notes(events, 0)


def test_two_double_downs_best_poker_and_best_spelling_both_lose():
    g = game(QUADS, FLUSH, TWOPAIR, PAIR)
    events = declare(g, ("double", "taxis"), ("poker",), ("spelling", "thy"),
                     ("double", "sorrel"))
    assert points(events) == [-2, 1, 1, -2]
    assert "double down beaten on spelling by SORREL (Di)" in notes(events, 0)
    assert "double down beaten on poker by Ann" in notes(events, 3)


def test_two_double_downs_one_best_on_both_goes_on_and_wins():
    g = game(QUADS, FLUSH, TWOPAIR, PAIR)
    events = declare(g, ("double", "taxis"), ("double", "wain"), ("poker",),
                     ("spelling", "loser"))
    assert points(events) == [4, -2, 0, 0]


def test_two_double_downs_survivor_eliminated_by_a_plain_declarer():
    g = game(QUADS, FLUSH, TWOPAIR, PAIR)
    events = declare(g, ("double", "taxis"), ("double", "wain"), ("poker",),
                     ("spelling", "sorrel"))
    # Both double downs take -2; then TWOPAIR is the lone poker declarer, SORREL lone speller.
    assert points(events) == [-2, -2, 1, 1]
    assert "double down beaten on spelling by SORREL (Di): -2" in notes(events, 0)


def test_two_double_downs_tied_on_poker_both_lose():
    g = game(STRAIGHT_X, STRAIGHT_Y, PAIR)
    events = declare(g, ("double", "fenced"), ("double", "goals"), ("poker",))
    assert points(events) == [-2, -2, 1]


def test_three_double_downs_one_survives_and_wins():
    g = game(QUADS, FLUSH, TWOPAIR, PAIR)
    events = declare(g, ("double", "taxis"), ("double", "wain"), ("poker",),
                     ("double", "roles"))
    assert points(events) == [4, -2, 0, -2]
    assert sum(points(events)) == 0


def test_three_double_downs_none_survives_the_rest_resolve():
    g = game(QUADS, FLUSH, TWOPAIR, PAIR)
    events = declare(g, ("double", "sit"), ("double", "wain"), ("poker",), ("double", "sorrel"))
    assert points(events) == [-2, -2, 1, -2]


def test_double_down_alone_of_a_kind_still_needs_a_valid_word():
    # Nobody else plays spelling, and Ann has the best poker hand, but ZZZ is not valid.
    g = game(QUADS, FLUSH, TWOPAIR)
    events = declare(g, ("double", "zzz"), ("poker",), ("poker",))
    assert points(events) == [-2, 1, 0]
    text = notes(events, 0)
    assert "invalid word: letters not in your hand" in text
    assert "double down needs a valid word: -2" in text


def test_double_down_alone_of_a_kind_with_a_valid_word_wins():
    g = game(QUADS, FLUSH, TWOPAIR)
    events = declare(g, ("double", "bit"), ("poker",), ("poker",))
    assert points(events) == [4, 0, 0]


def test_double_down_against_a_double_down_with_an_invalid_word():
    g = game(QUADS, FLUSH)
    events = declare(g, ("double", "naan"), ("double", "ink"))  # NAAN is not in Ann's hand
    assert points(events) == [-2, -2]  # Bob's INK survives Ann, but Ann's poker beats Bob's


# --- declaring: sealed, changeable ----------------------------------------------------


def test_changing_declaration_and_word_before_the_reveal():
    g = game(QUADS, FLUSH, TWOPAIR)
    first = g.apply(0, Action("declare", ("poker",)))
    assert [e.kind for e in first if e.is_public] == ["declared"]
    changed = g.apply(0, Action("declare", ("spelling", "taxis")))
    assert not any(e.is_public for e in changed)  # a change is not announced
    assert g.to_act == {1, 2}
    word = g.apply(0, Action("word", ("sit",)))
    assert {e.seat for e in word} == {0}
    assert g.view(0).declaration == "spelling" and g.view(0).word == "sit"
    events = g.apply(1, Action("declare", ("spelling", "wan")))
    events += g.apply(2, Action("declare", ("poker",)))
    data = reveal_of(events)
    assert data["players"][0]["declaration"] == "spelling"
    assert data["players"][0]["word"] == "SIT"
    assert points(events) == [0, 1, 1]  # WAN beats SIT: equal length, W is later than S


def test_word_changes_are_kept_and_double_clicks_are_harmless():
    g = game(QUADS, FLUSH)
    g.apply(0, Action("declare", ("double", "taxis")))
    g.apply(0, Action("declare", ("double", "taxis")))
    assert g.to_act == {1}
    with pytest.raises(IllegalAction):
        g.apply(0, Action("declare", ("bluff",)))
    with pytest.raises(IllegalAction):
        g.apply(0, Action("shuffle"))
    assert g.view(0).declaration == "double"


def test_prompt_offers_poker_spelling_and_double_down_with_the_letters():
    g = game(QUADS, FLUSH)
    prompt = g.prompt(0)
    assert prompt is not None
    labels = [c.label for c in prompt.choices]
    assert labels == ["Poker", "Spelling", "Double down"]
    spelling = prompt.choices[1]
    assert isinstance(spelling, TextAsk)
    assert spelling.action_name == "declare" and spelling.args == ("spelling",)
    assert "B X T I A S E" in spelling.placeholder
    assert Action("declare", ("poker",)) in g.legal_actions(0)


# --- timeouts -------------------------------------------------------------------------


def test_whole_table_limit_runs_from_the_deal_and_a_timeout_loses_the_hand():
    g = game(QUADS, FLUSH, TWOPAIR, declare_seconds=90)
    [table] = g.timers()
    assert (table.key, table.seconds, table.seats) == ("declare-1", 90, (0, 1, 2))
    g.apply(1, Action("declare", ("poker",)))
    assert g.timers()[0].key == "declare-1"  # the same clock: not reset by a declaration
    # The limit expires: every undeclared seat times out and loses the hand.
    events = g.apply(0, TIMEOUT)
    assert any(e.kind == "timeout" and e.is_public for e in events)
    events = g.apply(2, TIMEOUT)
    assert points(events) == [0, 1, 0]  # Ann's quads do not count
    assert "did not declare in time" in notes(events, 0)


def test_last_declarer_has_ten_seconds_or_loses():
    g = game(QUADS, FLUSH, TWOPAIR)
    g.apply(1, Action("declare", ("poker",)))
    assert [t.key for t in g.timers()] == ["declare-1"]
    g.apply(2, Action("declare", ("spelling", "thy")))
    _table, last = g.timers()
    assert (last.key, last.seconds, last.seats) == ("last-1-0", 10, (0,))
    events = g.apply(0, TIMEOUT)
    assert points(events) == [0, 1, 1]
    assert "did not declare in time: loses the hand" in notes(events, 0)


def test_timeout_in_the_reveal_starts_the_next_hand_and_late_timeouts_are_refused():
    g = game(QUADS, FLUSH, last_seconds=5)
    g.apply(0, Action("declare", ("poker",)))
    assert g.timers()[1].seconds == 5
    with pytest.raises(IllegalAction):
        g.apply(0, TIMEOUT)  # Ann has declared: her clock is not running
    g.apply(1, TIMEOUT)
    with pytest.raises(IllegalAction):
        g.apply(1, Action("declare", ("poker",)))  # too late
    assert g.phase == "reveal" and g.to_act == frozenset()
    assert [t.key for t in g.timers()] == ["reveal-1"]
    events = g.apply(1, TIMEOUT)
    assert g.phase == "declare" and g.hand_no == 2
    assert any(e.kind == "dealt" for e in events)


def test_two_players_first_declaration_starts_the_last_declarer_clock():
    g = game(QUADS, FLUSH)
    g.apply(0, Action("declare", ("poker",)))
    assert [t.key for t in g.timers()] == ["declare-1", "last-1-1"]


def test_ai_seats_count_as_declared_for_the_ten_second_rule():
    # Ann and Bob are people, Cy and Di AI seats that declare after them.
    g = game(QUADS, FLUSH, TWOPAIR, PAIR, ai_seats=[2, 3])
    assert [t.key for t in g.timers()] == ["declare-1"]
    g.apply(0, Action("declare", ("poker",)))
    assert g.to_act == {1, 2, 3}
    _table, last = g.timers()
    assert (last.key, last.seconds, last.seats) == ("last-1-1", 10, (1,))
    events = g.apply(1, TIMEOUT)
    assert "ran out of time and loses the hand" in events[0].text
    assert g.to_act == {2, 3} and [t.key for t in g.timers()] == ["declare-1"]


def test_the_last_person_is_told_privately_when_their_ten_seconds_start():
    g = game(QUADS, FLUSH, TWOPAIR, ai_seats=[2])
    events = g.apply(1, Action("declare", ("poker",)))
    [notice] = [e for e in events if e.kind == "last_call"]
    assert notice.seat == 0  # a private event, delivered to Ann alone
    assert "10 seconds" in notice.text and "you lose this hand" in notice.text
    # Told once: a change of Bob's declaration does not restart or repeat it.
    again = g.apply(1, Action("declare", ("spelling", "wan")))
    assert not any(e.kind == "last_call" for e in again)


def test_a_lone_person_among_ai_seats_keeps_only_the_whole_table_limit():
    g = game(QUADS, FLUSH, TWOPAIR, ai_seats=[1, 2])
    assert [t.key for t in g.timers()] == ["declare-1"]
    events = g.apply(1, Action("declare", ("poker",)))
    assert [t.key for t in g.timers()] == ["declare-1"]
    assert not any(e.kind == "last_call" for e in events)


def test_ai_seats_are_kept_in_a_snapshot():
    g = game(QUADS, FLUSH, TWOPAIR, ai_seats=[2])
    copy = Sppoker.from_dict(json.loads(json.dumps(g.to_dict())), dictionary=DICTIONARY,
                             finder=FINDER)
    copy.apply(1, Action("declare", ("poker",)))
    assert copy.timers()[1].seats == (0,)


# --- an invalid word does not complete a declaration ----------------------------------


def test_an_invalid_word_does_not_declare_and_the_reveal_waits():
    g = game(QUADS, FLUSH)
    events = g.apply(0, Action("declare", ("spelling", "bestiax")))
    assert not any(e.is_public for e in events)  # the channel does not count Ann
    assert g.to_act == {0, 1}
    events = g.apply(1, Action("declare", ("poker",)))
    assert [e.data["declared"] for e in events if e.kind == "declared"] == [1]
    assert g.phase == "declare" and g.to_act == {0}  # no reveal: Ann is still awaited


def test_an_invalid_word_is_told_at_once_and_asked_again():
    g = game(QUADS, FLUSH)
    [check] = g.apply(0, Action("declare", ("double", "bestiax")))
    assert check.seat == 0 and "not in the en_US dictionary: BESTIAX" in check.text
    assert "You have not declared yet" in check.text
    prompt = g.prompt(0)
    assert prompt is not None and "BESTIAX is not valid" in prompt.text
    assert [c.label for c in prompt.choices] == ["Poker", "Spelling", "Double down"]
    g.apply(1, Action("declare", ("poker",)))
    events = g.apply(0, Action("declare", ("double", "taxis")))  # asked again: a valid word
    assert [e.text for e in events if e.kind == "declared"] == ["Ann has declared (2 of 2)."]
    assert reveal_of(events)["players"][0]["word"] == "TAXIS"


def test_time_running_out_with_an_invalid_word_reveals_it_not_an_automatic_loss():
    g = game(QUADS, FLUSH, TWOPAIR)
    g.apply(0, Action("declare", ("spelling", "bestiax")))
    g.apply(1, Action("declare", ("spelling", "an")))
    g.apply(2, Action("declare", ("poker",)))
    assert g.phase == "declare" and [t.seats for t in g.timers()][1] == (0,)
    events = g.apply(0, TIMEOUT)
    assert points(events) == [0, 1, 1]
    assert notes(events, 0) == "invalid word: not in the en_US dictionary: BESTIAX"
    assert reveal_of(events)["players"][0]["word"] == "BESTIAX"
    assert reveal_of(events)["players"][0]["declaration"] == "spelling"


def test_the_last_person_with_an_invalid_word_is_told_what_their_clock_means():
    g = game(QUADS, FLUSH)
    g.apply(0, Action("declare", ("spelling", "bestiax")))
    events = g.apply(1, Action("declare", ("poker",)))
    [notice] = [e for e in events if e.kind == "last_call"]
    assert notice.seat == 0 and "revealed with BESTIAX" in notice.text


def test_a_complete_declaration_is_not_replaced_by_an_invalid_word():
    g = game(QUADS, FLUSH, TWOPAIR)
    g.apply(0, Action("declare", ("spelling", "taxis")))
    with pytest.raises(IllegalAction, match=r"BESTIAX is not valid .* stays spelling with TAXIS"):
        g.apply(0, Action("declare", ("double", "bestiax")))
    with pytest.raises(IllegalAction, match="stays spelling with TAXIS"):
        g.apply(0, Action("word", ("bestiax",)))
    assert g.to_act == {1, 2}
    events = g.apply(1, Action("declare", ("poker",))) + g.apply(2, Action("declare", ("poker",)))
    assert reveal_of(events)["players"][0]["word"] == "TAXIS"


def test_an_ai_seat_whose_word_the_dictionary_refuses_declares_poker():
    # The finder knows TAXIS, the table's dictionary does not: the AI must not stall.
    strict = WordListDictionary([w for w in WORDS if w != "taxis"])
    finder = WordFinder(["taxis"], strict)
    g = Sppoker.from_hands(NAMES[:2], [QUADS, FLUSH], SppokerOptions(ai_skill=0),
                           random.Random(7), dictionary=strict, finder=finder)
    action = g.ai_action(0, random.Random(1))
    g.apply(0, action)
    assert 0 not in g.to_act


# --- target, playoff, instant win -----------------------------------------------------


def test_one_player_reaches_the_target_and_wins():
    g = game(QUADS, FLUSH, TWOPAIR, PAIR, scores=[9, 3, 3, 3])
    events = declare(g, ("poker",), ("poker",), ("poker",), ("poker",))
    assert g.is_over and g.phase == "over"
    assert g.result is not None and g.result.winners == (0,)
    assert g.result.scores == (10, 3, 3, 3) and g.result.places == (1, 2, 2, 2)
    assert events[-1].kind == "game_over" and events[-1].data["reason"] == "target"
    with pytest.raises(IllegalAction):
        g.apply(0, Action("next_hand"))


def test_several_reach_the_target_the_highest_wins():
    g = game(QUADS, FLUSH, TWOPAIR, PAIR, scores=[9, 3, 3, 10])
    declare(g, ("poker",), ("poker",), ("poker",), ("spelling", "roles"))
    assert g.scores == [10, 3, 3, 11]
    assert g.result is not None and g.result.winners == (3,)


def test_playoff_sudden_death_among_the_tied_only():
    g = game(QUADS, FLUSH, TWOPAIR, PAIR, scores=[9, 6, 8, 9])
    events = declare(g, ("poker",), ("poker",), ("poker",), ("spelling", "roles"))
    assert g.scores == [10, 6, 8, 10] and not g.is_over
    [playoff] = [e for e in events if e.kind == "playoff"]
    assert playoff.data["seats"] == [0, 3]
    events = g.apply(2, Action("next_hand"))  # any seat may start the next hand
    assert g.active == (0, 3) and g.to_act == {0, 3}
    assert g.hands[1] == g.hands[2] == []
    assert sum(len(h) for h in g.hands) + len(g.deck) == 56
    with pytest.raises(IllegalAction):
        g.apply(1, Action("declare", ("poker",)))
    assert g.prompt(1) is None
    # A playoff hand that still ties plays on.
    g.apply(0, TIMEOUT)
    g.apply(3, TIMEOUT)
    assert not g.is_over and g.playoff == (0, 3)
    g.apply(0, Action("next_hand"))
    g.apply(0, Action("declare", ("poker",)))
    events = g.apply(3, TIMEOUT)
    assert g.scores == [11, 6, 8, 10]  # points keep adding
    assert g.result is not None and g.result.winners == (0,)
    assert events[-1].data["reason"] == "playoff"


def test_playoff_narrows_to_those_still_tied_at_the_top():
    g = game(STRAIGHT_X, STRAIGHT_Y, PAIR, QUADS.replace("9s", "8s"), scores=[9, 9, 9, 0])
    declare(g, ("poker",), ("poker",), ("spelling", "sol"), ("poker",))
    assert g.scores == [10, 10, 10, 0] and g.playoff == (0, 1, 2)
    g.apply(0, Action("next_hand"))
    g.apply(0, Action("declare", ("poker",)))
    g.apply(1, Action("declare", ("poker",)))
    g.apply(2, TIMEOUT)
    assert 2 not in (g.playoff or ()) or g.is_over
    assert g.is_over or g.playoff == (0, 1)


def test_sppoker_hand_wins_at_once_at_the_deal():
    g = game(QUADS, SPPOKER, PAIR, scores=[8, 0, 0])
    assert g.is_over and g.result is not None and g.result.winners == (1,)
    assert g.result.places == (2, 1, 3)
    [over] = [e for e in g.opening_events() if e.kind == "game_over"]
    assert over.data["reason"] == "sppoker" and over.is_public
    assert "SPPOKER" in over.text


def test_sppoker_with_vowel_cards_counts_them_as_their_vowel():
    g = game(QUADS, "Js 2s Kd *O 7h *E 8c")
    assert g.result is not None and g.result.winners == (1,)


# --- hidden information ---------------------------------------------------------------


def _secrets(g: Sppoker) -> list[str]:
    out = []
    for seat in g.active:
        out += [str(c) for c in g.hands[seat]] + [c.label for c in g.hands[seat]]
        out.append(g.view(seat).letters)
        out.append(g.view(seat).poker or "")
    return out


def test_hidden_information_never_in_public_view_or_events_before_the_reveal():
    g = game(QUADS, FLUSH, TWOPAIR, PAIR)
    secrets = [*_secrets(g), "TAXIS", "taxis", "WAIN", "wain", '"double"', '"spelling"',
               '"poker"', "four of a kind"]
    seen = [g.public_view().to_json()] + [e for e in g.opening_events() if e.is_public]
    for seat, decl in enumerate([("double", "taxis"), ("spelling", "wain"), ("poker",)]):
        events = g.apply(seat, Action("declare", decl))
        assert any(e.seat == seat for e in events)  # the player hears back privately
        seen += [e for e in events if e.is_public]
        seen.append(g.public_view().to_json())
    text = json.dumps([s if isinstance(s, dict) else [s.text, dict(s.data)] for s in seen])
    for secret in secrets:
        assert secret not in text
    assert g.public_view().declared_count == 3
    events = g.apply(3, Action("declare", ("poker",)))
    assert g.public_view().last_reveal["players"][0]["word"] == "TAXIS"
    assert reveal_of(events)["declarations"] == {"0": "double", "1": "spelling", "2": "poker",
                                                 "3": "poker"}
    g.apply(0, Action("next_hand"))
    assert g.public_view().last_reveal is None


def test_private_view_holds_own_hand_and_declaration_only():
    g = game(QUADS, FLUSH)
    g.apply(0, Action("declare", ("spelling", "beast")))
    view = g.view(1)
    assert view.hand == tuple(str(c) for c in sppoker_cards(FLUSH))
    assert view.declaration is None and view.word is None
    assert "BEAST" not in json.dumps(view.to_json()) and "9c" not in json.dumps(view.to_json())
    mine = g.view(0)
    assert mine.word_check == WordCheck(True, "BEAST", "")
    assert mine.poker == "four of a kind, nines"


# --- the reveal explains itself -------------------------------------------------------


def test_reveal_carries_hands_words_points_scores_and_longest_possible():
    g = game(QUADS, FLUSH, TWOPAIR, PAIR)
    events = declare(g, ("poker",), ("spelling", "naan"), ("poker",), ("spelling", "qxz"))
    data = reveal_of(events)
    ann = data["players"][0]
    assert ann["cards"] == [str(c) for c in sppoker_cards(QUADS)]
    assert ann["poker"] == "four of a kind, nines" and len(ann["poker_cards"]) == 5
    assert ann["longest"][:2] == ["TAXIS", "BEAST"]  # longest, then latest first letter
    assert data["players"][3]["word_reason"].startswith("letters not in your hand")
    assert data["scores"] == g.scores
    text = next(e.text for e in events if e.kind == "reveal")
    assert "longest possible:" in text and "invalid word" in text


# --- snapshots ------------------------------------------------------------------------


def test_snapshot_round_trip_mid_declaration_then_identical_future():
    g = Sppoker(NAMES[:4], None, random.Random(11), dictionary=DICTIONARY, finder=FINDER)
    g.apply(2, Action("declare", ("spelling", "soap")))
    g.apply(0, Action("declare", ("poker",)))
    snap = json.loads(json.dumps(g.to_dict()))
    copy = Sppoker.from_dict(snap, dictionary=DICTIONARY, finder=FINDER)
    assert copy.to_dict() == g.to_dict()
    assert copy.view(2) == g.view(2) and copy.public_view() == g.public_view()
    script = [(1, Action("declare", ("double", "an"))), (3, TIMEOUT)]
    for seat, action in script:
        assert copy.apply(seat, action) == g.apply(seat, action)
    script = [(seat, TIMEOUT) for seat in sorted(g.to_act)]  # invalid words left standing
    script += [(0, Action("next_hand")), (0, Action("declare", ("poker",)))]
    for seat, action in script:
        assert copy.apply(seat, action) == g.apply(seat, action)
    assert copy.to_dict() == g.to_dict()
    assert copy.hands == g.hands  # the same next deal: the rng state travelled


# --- the AI ---------------------------------------------------------------------------


@pytest.mark.parametrize("skill", [0, 1, 2])
def test_ai_declares_legally_with_a_valid_word(skill):
    g = game(QUADS, FLUSH, TWOPAIR, PAIR, ai_skill=skill)
    for seat in range(4):
        action = g.ai_action(seat, random.Random(seat))
        assert action.name == "declare" and action.args[0] in ("poker", "spelling", "double")
        if skill == 0:
            assert action.args[0] != "double"
        events = g.apply(seat, action)
        if action.args[0] != "poker":
            assert [e.data["ok"] for e in events if e.kind == "word_check"] == [True]
    assert g.phase == "reveal"
    assert g.ai_action(0, random.Random(0)) == Action("next_hand")


def test_ai_uses_only_what_its_seat_can_see():
    # Same own hand, different opponents' hands, same rng: the same decision.
    a = game(QUADS, FLUSH, TWOPAIR, PAIR)
    b = game(QUADS, PAIR, FLUSH, TWOPAIR)
    for skill in (1, 2):
        a.options.ai_skill = b.options.ai_skill = skill
        assert a.ai_action(0, random.Random(5)) == b.ai_action(0, random.Random(5))


def test_ai_with_the_best_of_both_doubles_down():
    # Four nines and TAXIS (the longest word of this small dictionary) against one player.
    g = game(QUADS, PAIR)
    assert g.ai_action(0, random.Random(1)) == Action("declare", ("double", "TAXIS"))
