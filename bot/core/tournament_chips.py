"""A tournament's chip-game table: tournament chips, a fixed number of deals, places by net.

Why it is shaped like this (the rules are in docs/tournaments.md, "Chip games"):

* **Tournament chips.** Every seat starts with the same stack (`STACK_OPTION`), whatever its
  player holds in the server's bank: no member's balance pays for it or receives it. The
  chips are the house's, lent to the table for its life and given back to the house when it
  ends (as an AI seat's are at a cash table), so the table's account always holds exactly its
  stacks and `/chips audit` balances at every instant, and no member's balance ever moves.
* **A fixed number of deals** (`DEALS_OPTION`). The table deals the next deal by itself
  (nobody presses Next deal, nobody joins, leaves or rebuys) until that many are dealt, or
  fewer players than the game needs have chips left; then it ends, and its places are the
  players' net chips (more is better, equal nets share: `places_from_scores`).
* **A player who busts** (no chips after a deal) leaves the table: the game cannot deal to
  an empty stack. Seats are only ever removed, never added, so the seats still at the table
  are the original seating minus the busted ones, in order; the busted are remembered
  (`OUT_OPTION`: original seat, name, user id) and placed by their net, the whole stack lost.

The options live in the table's options (saved with its snapshot, so a restart keeps them)
and are the table's own, never a deal's (`bot.core.table.CASH_OPTIONS`).
"""

from __future__ import annotations

from typing import Any

from bot.core.table import Seat, Table

DEALS_OPTION = "tournament_deals"
STACK_OPTION = "tournament_stack"
OUT_OPTION = "tournament_out"
TABLE_OPTIONS = frozenset({DEALS_OPTION, STACK_OPTION, OUT_OPTION})

OPTION = "deals"  # the tournament's own option (`/tournament create deals`): its tables'
DEFAULT_DEALS = 6  # three deals each at heads-up; `/tournament create deals` changes it
DEFAULT_STACK = 200  # the cash tables' default buy-in: the stakes are made for it


def fixed_deals(table: Table) -> bool:
    """Whether the table is a tournament's chip table (tournament chips, fixed deals)."""
    return DEALS_OPTION in table.options


def deals_total(table: Table) -> int:
    return int(table.options.get(DEALS_OPTION) or DEFAULT_DEALS)


def starting_stack(table: Table) -> int:
    return int(table.options.get(STACK_OPTION) or DEFAULT_STACK)


def seat_with_tournament_chips(table: Table, deals: int, stack: int) -> None:
    """Give every seat the same stack, lent by the house (`lent`), and fix the deals."""
    table.options[DEALS_OPTION] = deals
    table.options[STACK_OPTION] = stack
    table.options[OUT_OPTION] = []
    table.stacks = [stack] * len(table.seats)
    table.bought = [stack] * len(table.seats)


def out_seats(table: Table) -> list[tuple[int, Seat]]:
    """The busted players: (their original seat, who they were), by original seat."""
    found: list[Any] = table.options.get(OUT_OPTION) or []
    return sorted((int(index), Seat(str(name), None if user is None else int(user)))
                  for index, name, user in found)


def original_seats(table: Table) -> list[int]:
    """The original seat of each seat still at the table, in order."""
    out = {index for index, _ in out_seats(table)}
    everyone = range(len(table.seats) + len(out))
    return [index for index in everyone if index not in out]


def drop_busted(table: Table) -> list[Seat]:
    """After a deal: the seats without chips leave the table and are remembered. Who left."""
    gone: list[Seat] = []
    where = original_seats(table)
    out: list[Any] = list(table.options.get(OUT_OPTION) or [])
    for seat in reversed(range(len(table.seats))):
        if table.stacks[seat] <= 0:
            occupant = table.seats[seat]
            out.append([where[seat], occupant.name, occupant.user_id])
            gone.insert(0, occupant)
            del table.seats[seat], table.stacks[seat], table.bought[seat]
    if gone:
        table.options[OUT_OPTION] = out
        table.prompt_digests.clear()  # seat numbers moved: prompts are told afresh
        table.prompt_since.clear()
        table.notes.clear()
    return gone


def with_busted(table: Table, seats: list[Seat], nets: list[int]
                ) -> tuple[list[Seat], list[int]]:
    """The seats still at the table with their nets, and the busted ones (each lost the
    whole stack) put back where they sat: the original seating, for the table's record."""
    everyone: dict[int, tuple[Seat, int]] = {
        index: (seat, net)
        for index, seat, net in zip(original_seats(table), seats, nets, strict=True)}
    for index, seat in out_seats(table):
        everyone[index] = (seat, -starting_stack(table))
    ordered = [everyone[index] for index in sorted(everyone)]
    return [seat for seat, _ in ordered], [net for _, net in ordered]
