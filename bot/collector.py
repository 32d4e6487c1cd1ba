"""The garbage collector's settings for a long-running process of many small requests (the
bot, each web worker)."""

from __future__ import annotations

import gc


def settle_garbage_collector() -> None:
    """Keep the garbage collector from stalling everything in the process at once.

    A full collection walks every object the process holds; with a thousand tables that
    took 300 ms, every few seconds under play, and each one held up every click behind it
    (it was most of the p99 in bench/scale.py). What start-up loaded (modules, restored
    tables) is moved out of the collector's sight, and collections wait for 10,000 new
    objects rather than 700, and full ones for 5,000 young ones rather than 100: the
    short-lived garbage of a click still goes in young collections, which stay quick
    (about 10 ms), and full ones become rare."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(10_000, 50, 100)
