"""Cash tables: the chips a seat brings to a chip game's table, and what happens to them
between deals (join, leave, rebuy, the next deal) and when the table ends.

A chip game plays one deal per `Game`; the table carries the stacks from deal to deal. Chips
move between a player's balance and the table only here, each move a `ChipChange` that the
service writes in the same transaction as the table's snapshot, so the ledger always adds up
to the balances and a crash neither loses nor creates a chip. AI seats bring the house's
chips, which are in nobody's balance: they come from the house and go back to it, through
the same ledger (`ChipChange` with no user), so the table's account always holds exactly its
stacks and pots.
"""

from __future__ import annotations

from bot.core import tournament_chips
from bot.core.table import DEFAULT_BUY_IN, Seat, Table, TableError
from bot.store import ChipChange
from engine.game import Event
from engine.i18n import msg

REASON_BUY_IN = "buy-in"
REASON_CASH_OUT = "cash-out"


def buy_in_amount(table: Table) -> int:
    """The buy-in: what a seat sits down with, and what a rebuy tops a stack up to."""
    return int(table.options.get("max_buy_in") or table.options.get("buy_in") or DEFAULT_BUY_IN)


def minimum_buy_in(table: Table) -> int:
    """The least someone short of the buy-in may sit down with (the buy-in unless set)."""
    return min(int(table.options.get("min_buy_in") or buy_in_amount(table)),
               buy_in_amount(table))


def between_deals(table: Table) -> bool:
    game = table.game
    return table.status == "playing" and game is not None and game.is_over


def _require_cash_table(table: Table) -> None:
    if not table.game_class.chip_game:
        raise TableError(msg("This is not a chip table."))


def _require_between_deals(table: Table, what: str) -> None:
    if table.status == "playing" and not between_deals(table):
        raise TableError(msg("You can {what} between deals: wait for this deal to end.",
                             what=what))


def sit(table: Table, user_id: int | None, name: str, balance: int | None) -> list[ChipChange]:
    """A seat joins with the buy-in: from the person's balance (`balance` is what they have),
    or from the house for an AI seat."""
    _require_cash_table(table)
    _require_between_deals(table, msg("sit down"))
    amount = buy_in_amount(table)
    if user_id is not None:
        if table.seat_of(user_id) is not None:
            raise TableError(msg("You are already seated at this table."))
        least = minimum_buy_in(table)
        if balance is not None and balance < least:
            if least < amount:
                raise TableError(msg(
                    "The buy-in is {amount} chips (at least {least} to sit down short) and you "
                    "have {balance}. Claim your daily chips with `/chips daily`, or ask for a "
                    "grant.", amount=amount, least=least, balance=balance))
            raise TableError(msg("The buy-in is {amount} chips and you have {balance}. Claim "
                                 "your daily chips with `/chips daily`, or ask for a grant.",
                                 amount=amount, balance=balance))
        if balance is not None:
            amount = min(amount, balance)  # short of the buy-in but above the minimum
    if len(table.seats) >= table.game_class.max_seats:
        raise TableError(msg("The table is full ({n} seats).", n=table.game_class.max_seats))
    table.seats.append(Seat(name, user_id))
    table.stacks.append(amount)
    table.bought.append(amount)
    _seats_changed(table)
    return [ChipChange(user_id, -amount, REASON_BUY_IN)]  # an AI seat's: from the house


def rebuy(table: Table, user_id: int, balance: int) -> list[ChipChange]:
    """Top a stack back up to the buy-in, between deals."""
    _require_cash_table(table)
    _require_between_deals(table, msg("rebuy"))
    seat = table.seat_of(user_id)
    if seat is None:
        raise TableError(msg("You are not seated at this table."))
    amount = buy_in_amount(table) - table.stacks[seat]
    if amount <= 0:
        raise TableError(msg("Your stack is already {n} chips, the buy-in or more.",
                             n=table.stacks[seat]))
    amount = min(amount, balance)  # as much of it as the balance allows
    if amount <= 0:
        raise TableError(msg("You have no chips to rebuy with. Claim your daily chips with "
                             "`/chips daily`."))
    table.stacks[seat] += amount
    table.bought[seat] += amount
    return [ChipChange(user_id, -amount, REASON_BUY_IN)]


def stand_up(table: Table, user_id: int) -> list[ChipChange]:
    """A person leaves between deals with their stack."""
    _require_cash_table(table)
    _require_between_deals(table, msg("leave"))
    seat = table.seat_of(user_id)
    if seat is None:
        raise TableError(msg("You are not seated at this table."))
    change = _cash_out(table, seat, table.stacks[seat])
    del table.seats[seat], table.stacks[seat], table.bought[seat]
    _seats_changed(table)
    if user_id == table.host_id:
        humans = [s.user_id for s in table.seats if s.user_id is not None]
        if humans:
            table.host_id = humans[0]
    return change


def settle_deal(table: Table) -> list[Event]:
    """A deal ended: its result moves chips between the stacks at the table."""
    game = table.require_game()
    result = game.result
    if result is None or not result.chips:
        return []
    if sum(result.chips) != 0:
        raise AssertionError(f"a deal created chips: {result.chips}")
    table.stacks = [stack + delta for stack, delta in zip(table.stacks, result.chips,
                                                          strict=True)]
    table.deal_stacks = list(table.stacks)
    broke = [seat.name for seat, stack in zip(table.seats, table.stacks, strict=True)
             if stack <= 0]
    if broke:
        return [Event(msg("{names} cannot play on without chips: rebuy or leave.",
                          names=", ".join(broke)))]
    return []


def next_deal(table: Table, user_id: int) -> list[Event]:
    """Deal again with whoever is seated; AI seats out of chips leave the table."""
    _require_cash_table(table)
    if not between_deals(table):
        raise TableError(msg("This deal is still being played."))
    if table.seat_of(user_id) is None:
        raise TableError(msg("Only a player at the table can deal the next hand."))
    for seat in reversed(range(len(table.seats))):
        if table.seats[seat].is_ai and table.stacks[seat] <= 0:
            del table.seats[seat], table.stacks[seat], table.bought[seat]
            _seats_changed(table)
    broke = [seat.name for seat, stack in zip(table.seats, table.stacks, strict=True)
             if stack <= 0]
    if broke:
        raise TableError(msg("{names} must rebuy or leave before the next deal.",
                             names=", ".join(broke)))
    if len(table.seats) < table.game_class.min_seats:
        raise TableError(msg("{title} needs at least {n} players with chips.",
                             title=table.game_class.title, n=table.game_class.min_seats))
    return [Event(msg("Deal {n}.", n=table.deals + 1)), *table.deal()]


def cash_out_all(table: Table) -> list[ChipChange]:
    """The table ends: everyone leaves with their stack; a deal cut short counts as never
    dealt, so every chip put into it goes back to whoever put it in."""
    changes: list[ChipChange] = []
    stacks = _settling_stacks(table)
    for seat, stack in enumerate(stacks):
        changes += _cash_out(table, seat, stack)
    return sorted(changes, key=lambda change: -change.delta)


def net(table: Table) -> list[int]:
    """Each seat's result at the table: what it holds (or held before an unfinished deal)
    less what it bought in."""
    stacks = _settling_stacks(table)
    return [stack - bought for stack, bought in zip(stacks, table.bought, strict=True)]


def _settling_stacks(table: Table) -> list[int]:
    """The stacks a table settles on: as they stand between deals, or as the unfinished deal
    found them (a deal cut short counts as never dealt)."""
    if between_deals(table) or not table.deal_stacks:
        return table.stacks
    return table.deal_stacks


def final_nets(table: Table) -> tuple[list[Seat], list[int]]:
    """The seats a table's record lists, with their nets: at a tournament's chip table also
    the players who busted and left it (`bot.core.tournament_chips`), in the original seating."""
    if tournament_chips.fixed_deals(table):
        return tournament_chips.with_busted(table, list(table.seats), net(table))
    return list(table.seats), net(table)


def _cash_out(table: Table, seat: int, stack: int) -> list[ChipChange]:
    """A seat's stack leaves the table: to its member, or an AI seat's to the house (and
    every stack of a tournament's table: its chips were the house's, lent for the table)."""
    if stack <= 0:
        return []
    owner = None if tournament_chips.fixed_deals(table) else table.seats[seat].user_id
    return [ChipChange(owner, stack, REASON_CASH_OUT)]


def _seats_changed(table: Table) -> None:
    """Seat numbers moved: per-seat prompt bookkeeping starts afresh (the next deal tells
    everyone anyway)."""
    table.prompt_digests.clear()
    table.prompt_since.clear()
    table.notes.clear()
