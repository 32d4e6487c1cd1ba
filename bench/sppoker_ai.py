"""Does the Sppoker AI beat the obvious fixed strategies? Four players a table: the AI at
skill 2 and skill 1 against a player who always declares poker and one who always declares
spelling (with the longest word the finder knows: a perfect speller). Full games to the
4-player target (10 points); prints points scored per player over all hands, the kinds of
points, games won, and the AI's decision time.

Words are judged by a WordListDictionary of the finder's candidates (each confirmed by
enchant when the list was made), which avoids enchant's per-call cost; that cost is printed.

Run: .venv/bin/python bench/sppoker_ai.py [games=2000] [seed=1]
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Callable

from bot.settings import load_settings
from bot.wordlists import load
from engine.game import Action
from engine.games.sppoker import Sppoker
from engine.words import (
    WordFinder,
    WordListDictionary,
    get_dictionary,
    hand_letters,
)

Policy = Callable[[Sppoker, int, random.Random], Action]


def always_poker(game: Sppoker, seat: int, rng: random.Random) -> Action:
    return Action("declare", ("poker",))


def always_spelling(game: Sppoker, seat: int, rng: random.Random) -> Action:
    word = game.finder.best_word(hand_letters(game.hands[seat])) or ""
    return Action("declare", ("spelling", word))


def ai(game: Sppoker, seat: int, rng: random.Random) -> Action:
    return game.ai_action(seat, rng)


PLAYERS: list[tuple[str, Policy, int]] = [
    ("AI skill 2", ai, 2),
    ("AI skill 1", ai, 1),
    ("always poker", always_poker, 0),
    ("always spelling", always_spelling, 0),
]
MAX_HANDS = 60
KINDS = ("poker +1", "spelling +1", "double +4", "double -2")


def play_hand(game: Sppoker, rng: random.Random, timing: list[float]) -> None:
    order = list(game.active)
    rng.shuffle(order)  # the order tells nothing: declarations are sealed
    for seat in order:
        policy = PLAYERS[seat][1]
        start = time.perf_counter()
        action = policy(game, seat, rng)
        if policy is ai:
            timing.append(time.perf_counter() - start)
        game.apply(seat, action)


def tally(reveal: dict, kinds: dict[str, list[int]], points: list[int]) -> None:
    for player in reveal["players"]:
        s, decl = player["seat"], player["declaration"]
        points[s] += player["points"]
        kinds["poker +1"][s] += s in reveal["poker_winners"] and decl == "poker"
        kinds["spelling +1"][s] += s in reveal["spelling_winners"] and decl == "spelling"
        kinds["double +4"][s] += reveal["double_winner"] == s
        kinds["double -2"][s] += player["points"] == -2


def main(games: int = 2000, seed: int = 1) -> None:
    words = load("en_US", load_settings().data_dir)
    dictionary = WordListDictionary(words)
    finder = WordFinder(words, dictionary)
    names = [name for name, _, _ in PLAYERS]
    options = {"ai_skill": [skill for _, _, skill in PLAYERS]}
    rng = random.Random(seed)
    timing: list[float] = []
    kinds = {kind: [0] * 4 for kind in KINDS}
    points = [0] * 4
    won = [0] * 4
    hands = unfinished = 0
    start = time.perf_counter()
    for g in range(games):
        game = Sppoker(names, options, random.Random(seed * 1_000_003 + g),
                       dictionary=dictionary, finder=finder)
        if g == 0:
            game.ai_action(0, random.Random(0))  # build the AI's reference tables untimed
        while not game.is_over:
            if game.phase == "reveal":
                if game.hand_no == MAX_HANDS:
                    # Two fixed players who never contest the same kind tie every playoff
                    # hand (each is the lone declarer of its kind): stop such a game.
                    unfinished += 1
                    break
                game.apply(0, Action("next_hand"))
                continue
            play_hand(game, rng, timing)
            hands += 1
            assert game.last_reveal is not None
            tally(game.last_reveal, kinds, points)
        for s in game.result.winners if game.result else ():
            won[s] += 1
    took = time.perf_counter() - start
    print(f"sample: {games} full 4-player games to 10 points, {hands} hands, {took:.0f} s"
          f" ({unfinished} stopped unfinished after {MAX_HANDS} hands)")
    header = "".join(f"{kind:>12}" for kind in KINDS)
    print(f"{'player':<16}{'points':>8}{'per hand':>9}{header}{'games won':>11}")
    for s, name in enumerate(names):
        counts = "".join(f"{kinds[kind][s]:>12}" for kind in KINDS)
        print(f"{name:<16}{points[s]:>8}{points[s] / hands:>9.3f}{counts}"
              f"{won[s]:>6} ({100 * won[s] / games:.0f}%)")
    timing.sort()
    print(f"AI decision ({len(timing)}): mean {1000 * sum(timing) / len(timing):.1f} ms, "
          f"p99 {1000 * timing[int(len(timing) * 0.99)]:.1f} ms, max {1000 * timing[-1]:.1f} ms")

    try:
        real = get_dictionary("en_US")
    except Exception as error:  # pragma: no cover - host without libenchant
        print(f"enchant not available: {error}")
        return
    sample = random.Random(seed).sample(list(words), 2000)
    start = time.perf_counter()
    for word in sample:
        real.check(word)
    first = (time.perf_counter() - start) / len(sample)
    start = time.perf_counter()
    for word in sample:
        real.check(word)
    cached = (time.perf_counter() - start) / len(sample)
    print(f"enchant check: {1e6 * first:.1f} µs a word uncached, {1e6 * cached:.2f} µs cached "
          "(the word list: a set lookup)")


if __name__ == "__main__":
    main(*(int(arg) for arg in sys.argv[1:]))
