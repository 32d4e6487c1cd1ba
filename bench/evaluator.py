"""Time the high-hand evaluator against treys and pokerkit, on the same hands.

The bot evaluates hands in simulations and bot decisions as well as showdowns, so the
evaluator has a speed budget: best-of-7 without wilds at least 15x treys' 7-card
evaluate, and best-of-7 with one or two jokers at least half the engine's own no-wild
speed. This prints both, with the 5-card and Badugi figures, so a regression shows.

Method: fixed seeds; every library gets the same hands, converted to its own card form
beforehand, so only evaluation is timed. Times are CPU time of this process (the machine
is shared; another process's work should not count), best of several passes. The engine's
tables fill lazily, so one pass runs before timing (treys builds its tables up front);
that first, cold pass is reported too. treys has no wild cards: its "wild" figure is on the
same hands with each joker replaced by a random natural card not already in the hand, so
it does the same 7-card work. pokerkit is much slower and is timed on a leading sample.

Run: .venv/bin/python bench/evaluator.py [--json] [--repeats N]
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections.abc import Callable, Sequence
from typing import Any

from pokerkit import BadugiHand, StandardHighHand
from pokerkit import Card as PkCard
from treys import Card as TreysCard
from treys import Evaluator as TreysEvaluator

from engine.cards import Card, deck_with_jokers
from engine.evaluator import strength_of_codes

SEED = 20_240_601
HANDS = 200_000  # engine, each case
TREYS_HANDS = {"best7": 20_000, "best7_wild": 20_000, "best5": 100_000}
POKERKIT_HANDS = {"best7": 1_000, "badugi": 5_000}
BADUGI_HANDS = 100_000


def _race(runners: dict[str, tuple[Callable[[], object], int]], repeats: int) -> dict[str, float]:
    """Evaluations per CPU second for each runner, best of `repeats` passes.

    The passes take turns (every runner once, then again) rather than each runner running
    all its passes in a row, so that a burst of load on the shared machine slows every
    case alike and the ratios stay fair.
    """
    best = dict.fromkeys(runners, float("inf"))
    for _ in range(repeats):
        for name, (run, _count) in runners.items():
            start = time.process_time()
            run()
            best[name] = min(best[name], time.process_time() - start)
    return {name: count / best[name] for name, (_run, count) in runners.items()}


def _deal(
    rng: random.Random, size: int, count: int, wilds: Sequence[int] = (0,)
) -> list[list[Card]]:
    deck = deck_with_jokers(2)
    naturals, jokers = deck[:52], deck[52:]
    hands = []
    for _ in range(count):
        wild = rng.choice(wilds)
        hands.append(rng.sample(naturals, size - wild) + jokers[:wild])
    return hands


def _naturalised(rng: random.Random, hand: list[Card]) -> list[Card]:
    """The hand with each wild replaced by a random natural card it does not hold."""
    naturals = [card for card in hand if not card.is_wild]
    spare = [card for card in deck_with_jokers(0) if card not in naturals]
    return naturals + rng.sample(spare, len(hand) - len(naturals))


def _treys(hand: Sequence[Card]) -> tuple[list[int], list[int]]:
    ints = [TreysCard.new(str(card)) for card in hand]
    return ints[:2], ints[2:]


def _pokerkit(hand: Sequence[Card]) -> tuple[PkCard, ...]:
    return tuple(PkCard.parse("".join(str(card) for card in hand)))


def _engine_runner(hands: list[tuple[int, ...]]) -> Callable[[], None]:
    def run() -> None:
        evaluate = strength_of_codes
        for codes in hands:
            evaluate(codes)

    return run


def _treys_runner(hands: list[tuple[list[int], list[int]]]) -> Callable[[], None]:
    evaluator = TreysEvaluator()

    def run() -> None:
        evaluate = evaluator.evaluate
        for hole, board in hands:
            evaluate(hole, board)

    return run


def measure(repeats: int = 7) -> dict[str, Any]:
    rng = random.Random(SEED)
    out: dict[str, Any] = {
        "seed": SEED,
        "repeats": repeats,
        "hands": HANDS,
        "treys_hands": TREYS_HANDS,
        "pokerkit_hands": POKERKIT_HANDS,
        "wild_hands": "7 cards: 1 or 2 jokers (even odds) and 6 or 5 random natural cards",
        "treys_wild_hands": "each joker replaced by a random natural card not in the hand",
    }
    best7 = _deal(rng, 7, HANDS)
    wild7 = _deal(rng, 7, HANDS, wilds=(1, 2))
    best5 = _deal(rng, 5, HANDS)
    badugi = _deal(rng, 4, BADUGI_HANDS)

    runners: dict[str, tuple[Callable[[], object], int]] = {}
    for case, hands in (("best7", best7), ("best7_wild", wild7), ("best5", best5)):
        codes = [tuple(card.code for card in hand) for hand in hands]
        runners["engine_" + case] = (_engine_runner(codes), len(codes))
    treys_hands = {
        "best7": [_treys(hand) for hand in best7[: TREYS_HANDS["best7"]]],
        "best7_wild": [
            _treys(_naturalised(rng, hand)) for hand in wild7[: TREYS_HANDS["best7_wild"]]
        ],
        "best5": [_treys(hand) for hand in best5[: TREYS_HANDS["best5"]]],
    }
    for case, sample in treys_hands.items():
        runners["treys_" + case] = (_treys_runner(sample), len(sample))
    pk7 = [_pokerkit(hand) for hand in best7[: POKERKIT_HANDS["best7"]]]
    runners["pokerkit_best7"] = (
        lambda: [StandardHighHand.from_game(cards) for cards in pk7],
        len(pk7),
    )
    pk4 = [_pokerkit(hand) for hand in badugi[: POKERKIT_HANDS["badugi"]]]
    runners["pokerkit_badugi"] = (lambda: [BadugiHand.from_game(cards) for cards in pk4], len(pk4))
    try:
        from engine.badugi import badugi_strength
    except ImportError:
        out["engine_badugi"] = None
    else:

        def run_badugi() -> None:
            for hand in badugi:
                badugi_strength(hand)

        runners["engine_badugi"] = (run_badugi, len(badugi))

    # The engine's tables (and engine.badugi's cache) fill lazily; treys builds its
    # tables up front. One cold pass first, reported on its own, then the timed passes.
    for name in [name for name in runners if name.startswith("engine_")]:
        if name != "engine_badugi":
            out[name + "_cold"] = _race({name: runners[name]}, 1)[name]
        else:
            runners[name][0]()
    out.update(_race(runners, repeats))

    def ratio(a: str, b: str) -> float | None:
        return None if out[a] is None or out[b] is None else out[a] / out[b]

    out["ratio_vs_treys_best7"] = ratio("engine_best7", "treys_best7")
    out["ratio_vs_treys_best7_wild"] = ratio("engine_best7_wild", "treys_best7_wild")
    out["ratio_vs_treys_best5"] = ratio("engine_best5", "treys_best5")
    out["ratio_vs_pokerkit_best7"] = ratio("engine_best7", "pokerkit_best7")
    out["ratio_vs_pokerkit_badugi"] = ratio("engine_badugi", "pokerkit_badugi")
    out["ratio_wild_vs_nowild_best7"] = ratio("engine_best7_wild", "engine_best7")
    return out


def _fmt(value: float | None, suffix: str = "") -> str:
    if value is None:
        return "n/a"
    return f"{value:,.0f}{suffix}" if value >= 100 else f"{value:.1f}{suffix}"


def report(figures: dict[str, Any]) -> str:
    rows = [
        (
            "best-of-7, no wilds",
            "best7",
            "treys_best7",
            "pokerkit_best7",
            "ratio_vs_treys_best7",
            "ratio_vs_pokerkit_best7",
        ),
        (
            "best-of-7, 1-2 jokers *",
            "best7_wild",
            "treys_best7_wild",
            None,
            "ratio_vs_treys_best7_wild",
            None,
        ),
        ("5-card", "best5", "treys_best5", None, "ratio_vs_treys_best5", None),
        ("Badugi, 4 cards", "badugi", None, "pokerkit_badugi", None, "ratio_vs_pokerkit_badugi"),
    ]
    header = (
        f"{'evals per CPU second':24} {'engine':>11} {'(cold)':>11} {'treys':>9} "
        f"{'pokerkit':>9} {'vs treys':>9} {'vs pokerkit':>12}"
    )
    lines = [
        f"High-hand evaluator benchmark (seed {figures['seed']}, best of "
        f"{figures['repeats']} passes; engine {figures['hands']:,} hands a case)",
        header,
        "-" * len(header),
    ]
    for label, case, treys, pokerkit, vs_treys, vs_pokerkit in rows:
        get = figures.get
        lines.append(
            f"{label:24} {_fmt(get('engine_' + case)):>11} "
            f"{_fmt(get('engine_' + case + '_cold')):>11} "
            f"{_fmt(get(treys) if treys else None):>9} "
            f"{_fmt(get(pokerkit) if pokerkit else None):>9} "
            f"{_fmt(get(vs_treys) if vs_treys else None, 'x'):>9} "
            f"{_fmt(get(vs_pokerkit) if vs_pokerkit else None, 'x'):>12}"
        )
    wild = figures["ratio_wild_vs_nowild_best7"]
    best7 = figures["ratio_vs_treys_best7"]
    lines += [
        "",
        "* treys and the ratio: the same hands with each joker replaced by a random natural "
        "card not in the hand.",
        "(cold): the engine's first pass over the hands, filling its lazy tables.",
        f"best-of-7 vs treys: {best7:.1f}x (target >= 15x) "
        f"{'OK' if best7 >= 15 else 'BELOW TARGET'}",
        f"best-of-7 with jokers vs without: {wild:.2f} (target >= 0.5) "
        f"{'OK' if wild >= 0.5 else 'BELOW TARGET'}",
    ]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    parser.add_argument("--repeats", type=int, default=7, help="timed passes per case (best kept)")
    args = parser.parse_args()
    figures = measure(max(1, args.repeats))
    print(json.dumps(figures, indent=2) if args.json else report(figures))


if __name__ == "__main__":
    main()
