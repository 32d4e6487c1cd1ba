"""The pots of a chip deal and who wins them, as pure functions the games' showdowns share:
an even split with the odd chips from the button's left, the best hands among the seats
eligible for a pot, and a high-low pot shared by the declarations (RULINGS.md)."""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

__all__ = [
    "Comparable",
    "Declaration",
    "DeclarationOutcome",
    "Pot",
    "PotAward",
    "best_seats",
    "declared_shares",
    "high_shares",
    "resolve_declarations",
    "shared_by",
    "split_evenly",
]


class Comparable(Protocol):
    """A hand value: games compare their own values with `<` (greater is better)."""

    def __lt__(self, other: Any, /) -> bool: ...


@dataclass(frozen=True)
class Pot:
    """A main or side pot: its chips and the seats still in that may win it."""

    amount: int
    eligible: tuple[int, ...]

    def to_json(self) -> dict[str, Any]:
        return {"amount": self.amount, "eligible": list(self.eligible)}


@dataclass(frozen=True)
class PotAward:
    """How one pot was paid: `shares` per seat (summing to `amount`)."""

    index: int
    amount: int
    eligible: tuple[int, ...]
    shares: Mapping[int, int]

    def to_json(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "amount": self.amount,
            "eligible": list(self.eligible),
            "shares": {str(seat): amount for seat, amount in sorted(self.shares.items())},
        }


def split_evenly(amount: int, winners: Iterable[int], order: Sequence[int]) -> dict[int, int]:
    """Equal shares; the odd chips one each to the winners earliest in `order` (the seats
    from the dealer's left).

    >>> split_evenly(11, [3, 1, 0], order=[1, 2, 3, 0])
    {1: 4, 3: 4, 0: 3}
    """
    ranked = sorted(set(winners), key=order.index)
    if not ranked:
        raise ValueError("a pot needs someone to take it")
    share, odd = divmod(amount, len(ranked))
    return {seat: share + (1 if k < odd else 0) for k, seat in enumerate(ranked)}


def _beats(a: Comparable, b: Comparable) -> bool:
    return b < a


def best_seats(values: Mapping[int, Comparable | None], seats: Iterable[int]) -> list[int]:
    """The seats among `seats` with the best value (None: cannot win, e.g. an invalid word).

    >>> best_seats({0: 5, 1: 7, 2: 7, 3: None}, [0, 1, 2, 3])
    [1, 2]
    """
    contenders = [(s, values[s]) for s in seats if values.get(s) is not None]
    best: list[int] = []
    top: Comparable | None = None
    for seat, value in contenders:
        assert value is not None
        if top is None or _beats(value, top):
            best, top = [seat], value
        elif not _beats(top, value):
            best.append(seat)
    return best


def high_shares(
    pot: Pot, values: Mapping[int, Comparable], order: Sequence[int]
) -> dict[int, int]:
    """A pot to its best eligible hand(s)."""
    return split_evenly(pot.amount, best_seats(values, pot.eligible), order)


class Declaration(enum.StrEnum):
    """A sealed declaration: which half of the pot a player plays for."""

    HIGH = "high"
    LOW = "low"
    BOTH = "both"


@dataclass(frozen=True)
class DeclarationOutcome:
    """Who wins each side of one pot. `scoop` is a "both" player who won both outright;
    `failed` the "both" players who tied or lost a side and so lost both."""

    high: tuple[int, ...]
    low: tuple[int, ...]
    scoop: int | None
    failed: tuple[int, ...]


def _strictly_best(seat: int, values: Mapping[int, Comparable | None], rivals: Iterable[int]
                   ) -> bool:
    mine = values.get(seat)
    if mine is None:
        return False
    for other in rivals:
        theirs = values.get(other)
        if other != seat and theirs is not None and not _beats(mine, theirs):
            return False
    return True


def resolve_declarations(
    seats: Iterable[int],
    declared: Mapping[int, Declaration],
    high: Mapping[int, Comparable | None],
    low: Mapping[int, Comparable | None],
) -> DeclarationOutcome:
    """Resolve one pot's declarations among `seats` (those eligible for it).

    `high` and `low` give each seat's value for that side, greater is better on both (a game
    passes its low values so that a better low is greater); None means the seat cannot win
    that side. A "both" player must be strictly best on both sides against every player
    declaring that side; a tie or loss on either loses both, and a side claimed only by
    losing "both" players counts as undeclared.

    >>> outcome = resolve_declarations([0, 1, 2], {0: Declaration.BOTH, 1: Declaration.HIGH,
    ...     2: Declaration.LOW}, high={0: 9, 1: 5, 2: 1}, low={0: 7, 1: 0, 2: 7})
    >>> outcome.scoop, outcome.failed, outcome.high, outcome.low
    (None, (0,), (1,), (2,))
    """
    seats = [s for s in seats if s in declared]
    high_side = [s for s in seats if declared[s] in (Declaration.HIGH, Declaration.BOTH)]
    low_side = [s for s in seats if declared[s] in (Declaration.LOW, Declaration.BOTH)]
    both = [s for s in seats if declared[s] == Declaration.BOTH]
    for seat in both:
        if _strictly_best(seat, high, high_side) and _strictly_best(seat, low, low_side):
            failed = tuple(s for s in both if s != seat)
            return DeclarationOutcome((seat,), (seat,), seat, failed)
    high_side = [s for s in high_side if s not in both]
    low_side = [s for s in low_side if s not in both]
    return DeclarationOutcome(
        tuple(best_seats(high, high_side)), tuple(best_seats(low, low_side)), None, tuple(both)
    )


def shared_by(pot: Pot, declared: Mapping[int, Declaration]) -> tuple[int, ...]:
    """Who shares a pot that nobody wins on either side: the players in it who declared (a
    seat that declared nothing, its clock run out, loses the hand), or, when nobody in it
    declared, all of them, since every chip has an owner.

    >>> shared_by(Pot(9, (0, 1, 2)), {0: Declaration.BOTH, 2: Declaration.BOTH})
    (0, 2)
    >>> shared_by(Pot(9, (1,)), {0: Declaration.HIGH})
    (1,)
    """
    return tuple(s for s in pot.eligible if s in declared) or pot.eligible


def declared_shares(
    pot: Pot,
    declared: Mapping[int, Declaration],
    high: Mapping[int, Comparable | None],
    low: Mapping[int, Comparable | None],
    order: Sequence[int],
) -> dict[int, int]:
    """One pot of a high/low game paid out. Half to the high winner(s), half to the low
    winner(s), the odd chip to high; a scooping "both" player takes it all; a side without a
    winner goes to the other side's winner(s); a pot with no winner on either side is shared
    equally by the seats eligible for it that declared (`shared_by`). A seat missing from
    `declared` declared nothing: it wins no part of the pot.

    >>> pot = Pot(25, (0, 1, 2))
    >>> declared_shares(pot, {0: Declaration.HIGH, 1: Declaration.LOW, 2: Declaration.LOW},
    ...     high={0: 3}, low={1: 5, 2: 5}, order=[1, 2, 0])
    {0: 13, 1: 6, 2: 6}
    """
    outcome = resolve_declarations(pot.eligible, declared, high, low)
    if outcome.scoop is not None:
        return {outcome.scoop: pot.amount}
    if outcome.high and outcome.low:
        low_half = pot.amount // 2
        shares = split_evenly(pot.amount - low_half, outcome.high, order)
        for seat, amount in split_evenly(low_half, outcome.low, order).items():
            shares[seat] = shares.get(seat, 0) + amount
        return shares
    winners = outcome.high or outcome.low or shared_by(pot, declared)
    return split_evenly(pot.amount, winners, order)
