"""A Hold'em Sppoker deal's shape, which the rules and the AI read alike: the hole cards and the
board, its streets, and what each of Sppoker's declarations claims of a high-low pot."""

from __future__ import annotations

from engine.chips.pots import Declaration

__all__ = ["BOARD", "HOLE", "KINDS", "ROUNDS", "SIDES", "STREETS", "STREET_CARDS"]


HOLE = 2


BOARD = 5


ROUNDS = 4


STREETS = ("preflop", "flop", "turn", "river")


STREET_CARDS = (0, 3, 1, 1)  # board cards dealt before each betting round


KINDS = ("poker", "spelling", "double")  # Sppoker's names; "double" is shown as "both"


SIDES = {"poker": Declaration.HIGH, "spelling": Declaration.LOW, "double": Declaration.BOTH}
