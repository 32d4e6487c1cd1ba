"""Time the high-hand evaluator against eval7, treys and pokerkit, on hands none has seen.

The bot evaluates hands in simulations and bot decisions as well as showdowns, so the
evaluator has a speed budget (issue 16): best-of-7 without wilds at least as fast as eval7
(Cython) on hands it has not evaluated before, and best-of-7 with one or two jokers at
least half that. This prints every library's figures side by side in one run, with the
5-card and Badugi figures, so a regression shows.

Method, and why:
- Unseen hands. A library that caches (the engine's tables once filled lazily; Badugi
  still caches by card set) looks faster on hands it has already evaluated, which is not
  what a game sees. So every pass gets a fresh batch of hands, dealt up front, and no card
  set appears twice in a case in the whole run: no library evaluates a hand twice.
- The same hands for everyone. Each batch is converted to every library's own card form
  before any timing, so only evaluation is timed. The slower libraries time a leading
  part of each batch (treys, pokerkit).
- Cold and steady. The first pass of each case is the first evaluations of that kind in
  the process: it is reported on its own ("cold") for every library. The headline figure
  is the best of the following passes, each on its own fresh hands.
- Fair under load. Times are CPU time of this process (the machine is shared), and the
  passes take turns (every library once on a batch, in a rotating order, then the next
  batch), so a burst of load elsewhere slows every library alike. The engine reads big
  tables and so feels other processes' cache traffic more than eval7 does; the median
  pass is in the --json output too. The garbage collector is off while a pass is timed.
- Start-up counted apart. The engine's complete tables load when engine.evaluator is
  imported: the import (in a fresh interpreter), the load and the memory the tables keep
  are printed too, since a fast first hand must not hide a slow start.
- No wilds elsewhere. eval7 and treys have no wild cards: their "wild" figure is on the
  same hands with each joker replaced by a random natural card not already in the hand,
  so they do the same 7-card work.

Run: .venv/bin/python bench/evaluator.py [--json] [--repeats N] [--hands N]
"""

from __future__ import annotations

import argparse
import gc
import importlib.metadata
import json
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

try:
    import eval7
except ImportError:  # the test extras skip it where PyPI has no wheel (not x86_64)
    raise SystemExit(
        "bench/evaluator.py needs eval7: pip install 'eval7>=0.1.11' "
        "(PyPI has wheels for x86_64 Linux only, and no source)"
    ) from None
from pokerkit import BadugiHand, StandardHighHand
from pokerkit import Card as PkCard
from treys import Card as TreysCard
from treys import Evaluator as TreysEvaluator

from engine import evaluator_tables
from engine.cards import Card, deck_with_jokers
from engine.evaluator import strength_of_codes
from engine.games.badugi.hand import badugi_strength

SEED = 20_240_601
HANDS = 100_000  # per pass and case: engine and eval7
TREYS_HANDS = {"best7": 20_000, "best7_wild": 20_000, "best5": 50_000}
POKERKIT_HANDS = {"best7": 1_000, "badugi": 2_000}
BADUGI_HANDS = 20_000  # per pass: there are only 270,725 four-card sets
CASES = ("best7", "best7_wild", "best5", "badugi")
LIBRARIES = ("engine", "eval7", "treys", "pokerkit")

Runner = Callable[[], object]


def _deal(
    rng: random.Random, size: int, count: int, seen: set[tuple[int, ...]], wilds: Sequence[int]
) -> list[list[Card]]:
    """`count` hands of `size` cards whose card sets are not in `seen` (then added to it)."""
    deck = deck_with_jokers(2)
    naturals, jokers = deck[:52], deck[52:]
    hands = []
    while len(hands) < count:
        wild = rng.choice(wilds)
        hand = rng.sample(naturals, size - wild) + jokers[:wild]
        key = tuple(sorted(card.code for card in hand))
        if key not in seen:
            seen.add(key)
            hands.append(hand)
    return hands


def _naturalised(rng: random.Random, hand: list[Card]) -> list[Card]:
    """The hand with each wild replaced by a random natural card it does not hold."""
    naturals = [card for card in hand if not card.is_wild]
    spare = [card for card in deck_with_jokers(0) if card not in naturals]
    return naturals + rng.sample(spare, len(hand) - len(naturals))


_EVAL7_CARDS = {card.code: eval7.Card(str(card)) for card in deck_with_jokers(0)}


def _eval7(hand: Sequence[Card]) -> list[eval7.Card]:
    return [_EVAL7_CARDS[card.code] for card in hand]


def _treys(hand: Sequence[Card]) -> tuple[list[int], list[int]]:
    ints = [TreysCard.new(str(card)) for card in hand]
    return ints[:2], ints[2:]


def _pokerkit(hand: Sequence[Card]) -> tuple[PkCard, ...]:
    return tuple(PkCard.parse("".join(str(card) for card in hand)))


def _engine_runner(hands: list[tuple[int, ...]]) -> Runner:
    def run() -> None:
        evaluate = strength_of_codes
        for codes in hands:
            evaluate(codes)

    return run


def _eval7_runner(hands: list[list[eval7.Card]]) -> Runner:
    def run() -> None:
        evaluate = eval7.evaluate
        for cards in hands:
            evaluate(cards)

    return run


_TREYS = TreysEvaluator()  # builds its tables here, before any timing


def _treys_runner(hands: list[tuple[list[int], list[int]]]) -> Runner:
    def run() -> None:
        evaluate = _TREYS.evaluate
        for hole, board in hands:
            evaluate(hole, board)

    return run


def _badugi_runner(hands: list[list[Card]]) -> Runner:
    def run() -> None:
        evaluate = badugi_strength
        for hand in hands:
            evaluate(hand)

    return run


def _pokerkit_runner(kind: type, hands: list[tuple[PkCard, ...]]) -> Runner:
    def run() -> None:
        from_game = kind.from_game
        for cards in hands:
            from_game(cards)

    return run


def _batch(rng: random.Random, seen: dict[str, set[tuple[int, ...]]],
           hands: int = HANDS) -> dict[str, Any]:
    """One pass's runners: name -> (run, hand count), every library on the same hands;
    `hands` per library at most (a quick run: the smoke test's)."""
    best7 = _deal(rng, 7, hands, seen["best7"], (0,))
    wild7 = _deal(rng, 7, hands, seen["best7_wild"], (1, 2))
    best5 = _deal(rng, 5, hands, seen["best5"], (0,))
    badugi = _deal(rng, 4, min(BADUGI_HANDS, hands), seen["badugi"], (0,))
    natural7 = [_naturalised(rng, hand) for hand in wild7]
    runners: dict[str, tuple[Runner, int]] = {}
    for case, hands, natural in (
        ("best7", best7, best7),
        ("best7_wild", wild7, natural7),
        ("best5", best5, best5),
    ):
        codes = [tuple(card.code for card in hand) for hand in hands]
        runners["engine_" + case] = (_engine_runner(codes), len(codes))
        runners["eval7_" + case] = (_eval7_runner([_eval7(hand) for hand in natural]),
                                    len(natural))
        sample = [_treys(hand) for hand in natural[: TREYS_HANDS[case]]]
        runners["treys_" + case] = (_treys_runner(sample), len(sample))
    runners["engine_badugi"] = (_badugi_runner(badugi), len(badugi))
    pk7 = [_pokerkit(hand) for hand in best7[: POKERKIT_HANDS["best7"]]]
    runners["pokerkit_best7"] = (_pokerkit_runner(StandardHighHand, pk7), len(pk7))
    pk4 = [_pokerkit(hand) for hand in badugi[: POKERKIT_HANDS["badugi"]]]
    runners["pokerkit_badugi"] = (_pokerkit_runner(BadugiHand, pk4), len(pk4))
    return runners


def _timed(run: Runner, count: int) -> float:
    """Evaluations per CPU second of one pass, with the cyclic garbage collector off.

    Otherwise a full collection over the dealt hands, set off by whichever library
    happens to allocate at the time, would be charged to it (timeit does the same).
    """
    gc.disable()
    try:
        start = time.process_time()
        run()
        return count / max(time.process_time() - start, 1e-9)
    finally:
        gc.enable()


def _import_seconds() -> float:
    """Wall time of `import engine.evaluator` in a fresh interpreter, best of three."""
    code = (
        "import time; start = time.perf_counter(); import engine.evaluator; "
        "print(time.perf_counter() - start)"
    )
    root = Path(__file__).resolve().parent.parent
    return min(
        float(
            subprocess.run(
                [sys.executable, "-c", code], cwd=root, check=True, capture_output=True, text=True
            ).stdout
        )
        for _ in range(3)
    )


def start_up() -> dict[str, float]:
    """What the engine's complete tables cost before the first hand: time and memory."""
    load_seconds, kept = evaluator_tables.cost()
    return {
        "engine_import_ms": _import_seconds() * 1000,
        "tables_load_ms": load_seconds * 1000,
        "tables_memory_mib": kept / 2**20,
    }


def measure(repeats: int = 5, hands: int = HANDS) -> dict[str, Any]:
    startup = start_up()
    rng = random.Random(SEED)
    seen: dict[str, set[tuple[int, ...]]] = {case: set() for case in CASES}
    # Every batch is dealt and converted before the first timing, then set aside from
    # the garbage collector's reach.
    batches = [_batch(rng, seen, hands) for _ in range(repeats + 1)]
    del seen
    gc.collect()
    gc.freeze()
    rates: dict[str, list[float]] = {name: [] for name in batches[0]}
    cold: dict[str, float] = {}
    for number, runners in enumerate(batches):
        for case in CASES:
            # The libraries take turns on the case's batch, first in turn rotating from
            # pass to pass, so no library always runs right after another.
            names = [name for name in runners if name.endswith("_" + case)]
            shift = number % len(names)
            for name in names[shift:] + names[:shift]:
                run, count = runners.pop(name)  # the hands go once timed
                rate = _timed(run, count)
                if number == 0:
                    cold[name] = rate
                else:
                    rates[name].append(rate)
                del run
                gc.collect()
    gc.unfreeze()

    out: dict[str, Any] = {
        "seed": SEED,
        "repeats": repeats,
        "hands": hands,
        "treys_hands": {case: min(count, hands) for case, count in TREYS_HANDS.items()},
        "pokerkit_hands": {case: min(count, hands) for case, count in POKERKIT_HANDS.items()},
        "badugi_hands": min(BADUGI_HANDS, hands),
        "eval7_version": importlib.metadata.version("eval7"),
        "method": (
            "evaluations per CPU second; every pass on fresh hands no library has evaluated "
            "before (no card set twice in a case); headline = best pass after the cold first "
            "pass; all libraries on the same hands, converted beforehand"
        ),
        "wild_hands": "7 cards: 1 or 2 jokers (even odds) and 6 or 5 random natural cards",
        "treys_wild_hands": "each joker replaced by a random natural card not in the hand",
        "eval7_wild_hands": "each joker replaced by a random natural card not in the hand",
        **startup,
    }
    for case in CASES:
        for library in LIBRARIES:
            name = f"{library}_{case}"
            out[name] = max(rates[name]) if name in rates else None
            out[name + "_median"] = statistics.median(rates[name]) if name in rates else None
            out[name + "_cold"] = cold.get(name)

    def ratio(a: str, b: str) -> float | None:
        return None if out[a] is None or out[b] is None else out[a] / out[b]

    out["ratio_vs_eval7_best7"] = ratio("engine_best7", "eval7_best7")
    out["ratio_vs_eval7_best7_median"] = ratio("engine_best7_median", "eval7_best7_median")
    out["ratio_wild_vs_eval7_best7"] = ratio("engine_best7_wild", "eval7_best7")
    out["ratio_vs_eval7_best7_wild"] = ratio("engine_best7_wild", "eval7_best7_wild")
    out["ratio_vs_eval7_best5"] = ratio("engine_best5", "eval7_best5")
    out["ratio_vs_treys_best7"] = ratio("engine_best7", "treys_best7")
    out["ratio_vs_treys_best7_wild"] = ratio("engine_best7_wild", "treys_best7_wild")
    out["ratio_vs_treys_best5"] = ratio("engine_best5", "treys_best5")
    out["ratio_vs_pokerkit_best7"] = ratio("engine_best7", "pokerkit_best7")
    out["ratio_vs_pokerkit_badugi"] = ratio("engine_badugi", "pokerkit_badugi")
    out["ratio_wild_vs_nowild_best7"] = ratio("engine_best7_wild", "engine_best7")
    return out


def _fmt(value: float | None, suffix: str = "") -> str:
    if value is None:
        return "-"
    return f"{value:,.0f}{suffix}" if value >= 100 else f"{value:.2f}{suffix}"


def report(figures: dict[str, Any]) -> str:
    labels = {
        "best7": "best-of-7, no wilds",
        "best7_wild": "best-of-7, 1-2 jokers *",
        "best5": "5-card",
        "badugi": "Badugi, 4 cards",
    }
    header = f"{'evals per CPU second':24}" + "".join(f"{lib:>11}" for lib in LIBRARIES)
    header += f"{'vs eval7':>10}{'vs treys':>10}{'vs pokerkit':>12}"
    lines = [
        f"High-hand evaluator benchmark, unseen hands (seed {figures['seed']}; each pass on "
        f"fresh hands; best of {figures['repeats']} passes after a cold one)",
        header,
        "-" * len(header),
    ]
    get = figures.get
    for case, label in labels.items():
        for suffix, tag in (("", label), ("_cold", "  first pass, cold")):
            row = f"{tag:24}" + "".join(
                f"{_fmt(get(f'{lib}_{case}{suffix}')):>11}" for lib in LIBRARIES
            )
            ratios = [
                get(f"engine_{case}{suffix}"),
                get(f"eval7_{case}{suffix}"),
                get(f"treys_{case}{suffix}"),
                get(f"pokerkit_{case}{suffix}"),
            ]
            engine = ratios[0]
            row += "".join(
                f"{_fmt(engine / other if engine and other else None, 'x'):>{width}}"
                for other, width in zip(ratios[1:], (10, 10, 12), strict=True)
            )
            lines.append(row)
    vs_eval7 = figures["ratio_vs_eval7_best7"]
    wild = figures["ratio_wild_vs_eval7_best7"]
    vs_treys = figures["ratio_vs_treys_best7"]

    def verdict(ok: bool) -> str:
        return "OK" if ok else "BELOW TARGET"

    lines += [
        "",
        "* eval7 and treys: the same hands with each joker replaced by a random natural card "
        "not in the hand.",
        f"hands per pass: engine and eval7 {figures['hands']:,} (Badugi "
        f"{figures['badugi_hands']:,}); treys {figures['treys_hands']}; pokerkit "
        f"{figures['pokerkit_hands']}",
        f"best-of-7 vs eval7: {vs_eval7:.2f}x (target >= 1.0x) {verdict(vs_eval7 >= 1.0)}"
        f"; median pass {figures['ratio_vs_eval7_best7_median']:.2f}x",
        f"best-of-7 with 1-2 jokers vs eval7 without: {wild:.2f}x (target >= 0.5x) "
        f"{verdict(wild >= 0.5)}",
        f"best-of-7 vs treys: {vs_treys:.1f}x (target >= 15x) {verdict(vs_treys >= 15)}",
        f"start-up: import engine.evaluator {figures['engine_import_ms']:.0f} ms, of which "
        f"loading the complete tables {figures['tables_load_ms']:.0f} ms; the tables keep "
        f"{figures['tables_memory_mib']:.1f} MiB",
    ]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    parser.add_argument(
        "--repeats", type=int, default=5, help="timed passes per case after the cold one"
    )
    parser.add_argument(
        "--hands", type=int, default=HANDS,
        help=f"hands per pass and case, each library's at most (default {HANDS:,}; fewer "
             "only to see that it runs: the figures are then noise)",
    )
    args = parser.parse_args()
    figures = measure(max(1, args.repeats), max(1, args.hands))
    print(json.dumps(figures, indent=2) if args.json else report(figures))


if __name__ == "__main__":
    main()
