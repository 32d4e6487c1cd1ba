"""A tournament's tables at the table service: opened with the round's players seated, a
chip table's next deal dealt by itself, and a player's seat handed to the AI mid-game.

Each is a command on the table through the tables' one door (`TableCommands.command`: the
table's lock, checked inside it, changed on a draft, committed, installed), like a click;
the rules of a chip table are `bot.core.tournament_chips`.
"""

from __future__ import annotations

from bot.core import cash_table, narration, tournament_chips
from bot.core.cash_table import REASON_BUY_IN
from bot.core.outbox import Strip, prompt_ref
from bot.core.service import TableService, channel_lock_key
from bot.core.table import Seat, Table, TableError
from bot.core.tournament_state import Live, player_user
from bot.core.validation import Bound
from bot.present.inert import inert
from bot.store import ChipChange, TournamentTable
from engine.game import Event
from engine.i18n import msg, msg_n

DEALS_OPTION = tournament_chips.OPTION  # `/tournament create deals`, in its options
DEALS = Bound("deals", 1, 50)  # the deals a chip game's table plays


async def open_table(tables: TableService, live: Live, row: TournamentTable,
                     players: tuple[str, ...]) -> None:
    """Open the table in its thread with the round's players seated (AI entrants as AI
    seats) and start its game at once (no lobby), as its lobby's Start would; a chip game's
    seats get tournament chips from the house (see `bot.core.tournament_chips`). The
    players are written first: a busted player's result is recorded after they left."""
    table = Table(table_id=row.table_id, guild_id=live.guild_id, channel_id=row.thread_id,
                  kind=live.kind, host_id=live.organiser_id,
                  options=live.extra.table_options,
                  created_at=tables.clock(), locale=live.locale)
    for player in players:
        entrant = live.t.entrants[player]
        table.seats.append(Seat(entrant.name, None if entrant.ai else player_user(player)))
    moved: list[ChipChange] = []
    if table.game_class.chip_game:
        deals = int(table.options.pop(DEALS_OPTION, None) or tournament_chips.DEFAULT_DEALS)
        tournament_chips.seat_with_tournament_chips(table, deals,
                                                    tournament_chips.DEFAULT_STACK)
        moved = [ChipChange(None, -stack, REASON_BUY_IN) for stack in table.stacks]
    for seat in table.seats:
        if seat.user_id is not None:
            await tables.store.upsert_player(seat.user_id, seat.name)
    async with tables.lock(channel_lock_key(table.channel_id)), tables.lock(table.table_id):
        events = table.start(live.organiser_id)
        if table.game_class.chip_game:  # after "... begins": which deal of how many
            events.insert(1, Event(msg("Deal {n} of {total}.", n=1,
                                       total=tournament_chips.deals_total(table))))
        table.sync_deadlines(tables.clock())
        await tables.commit(table, narration.step(table, events), moved)
    tables.clocks.after_step(table)


def between_deals(table: Table) -> bool:
    """A tournament's chip table whose deal has ended: its next step is ours to take."""
    return tournament_chips.fixed_deals(table) and cash_table.between_deals(table)


def next_deal(table: Table) -> list[Event] | None:
    """After a deal of a tournament's chip table: the busted leave, and the next deal is
    dealt; None when the table is over (its deals are played, or too few have chips)."""
    gone = tournament_chips.drop_busted(table)
    said = [Event(msg("{names} lost their whole stack and leave the table.",
                      names=", ".join(inert(seat.name) for seat in gone)))] if gone else []
    total = tournament_chips.deals_total(table)
    if table.deals >= total or len(table.seats) < max(2, table.game_class.min_seats):
        return None
    number = table.deals + 1
    try:
        dealt = table.deal()
    except TableError:  # the stacks left cannot pay for a deal: the table is over
        return None
    return [*said, Event(msg("Deal {n} of {total}.", n=number, total=total)), *dealt]


async def deal_on(tables: TableService, table_id: str) -> None:
    """A tournament's chip table between deals: deal the next deal, or end the table (its
    result goes to the tournament with its game: `bot.store.tournaments`)."""
    async with tables.command(table_id, expect=between_deals) as table:
        events = next_deal(table)
        if events is None:
            await tables.end_cash_table(table, msg_n(
                "The table is over after {n} deal: places by net chips.",
                "The table is over after {n} deals: places by net chips.", table.deals))
            return
        table.sync_deadlines(tables.clock())
        await tables.commit(table, narration.step(table, events))
    tables.clocks.after_step(table)


async def play_by_ai(tables: TableService, table_id: str, user_id: int) -> bool:
    """The player's seat at this running table plays on as an AI seat from its next
    decision (their buttons stop working: the seat is no longer theirs). False if they
    have no seat there (the table ended, or they busted out of it)."""
    try:
        async with tables.command(table_id, expect=lambda t: t.status == "playing") as table:
            seat = table.seat_of(user_id)
            if seat is None:
                return False
            name = table.seats[seat].name
            table.seats[seat] = Seat(name, None)
            table.prompt_digests.pop(seat, None)
            table.notes.pop(seat, None)
            await tables.commit(table, [Strip(prompt_ref(seat)), narration.live_board(table)])
    except TableError:
        return False
    tables.clocks.after_step(table)
    return True


async def hand_over(tables: TableService, live: Live, row: TournamentTable) -> bool:
    """Every member at this running table whom the tournament has replaced by the AI plays
    on as an AI seat (after `/tournament replace`, or again after a restart that came
    between the replacement's write and the table's). True if someone was handed over."""
    table = tables.tables.get(row.table_id)
    if table is None:
        return False
    replaced = [seat.user_id for seat in table.seats if seat.user_id is not None
                and (entrant := live.t.entrants.get(str(seat.user_id))) is not None
                and entrant.ai]
    done = False
    for user_id in replaced:
        assert user_id is not None
        done = await play_by_ai(tables, row.table_id, user_id) or done
    return done
