"""The buttons of a chip table between deals: Join, Leave, Rebuy, Next deal, End.

Each is a service call like any other: check → change the table → save (with the chips it
moves, in the same transaction) → tell. Kept out of `bot.core.service` so that module stays about
what every table does.
"""

from __future__ import annotations

from bot.core import cash_table, narration, tournament_chips
from bot.core.outcomes import require_host_or_admin
from bot.core.table import TableError
from bot.core.table_commands import TableCommands
from bot.present.i18n import t
from engine.i18n import msg

CASH_OPS = frozenset({"join", "leave", "rebuy", "deal", "end"})


class CashDesk:
    def __init__(self, service: TableCommands) -> None:
        self.service = service

    async def act(self, table_id: str, user_id: int, name: str, op: str, *,
                  is_admin: bool = False, guild_id: int | None = None) -> str:
        """One button between deals; returns what to tell the person who pressed it. A
        command like any other (`TableService.command`): checked on the table as it is
        under the lock, changed on a draft, committed with the chips it moves."""
        service = self.service
        if op not in CASH_OPS:
            raise TableError(msg("That button is not part of this table."))
        async with service.command(
            table_id, guild_id=guild_id,
            expect=lambda table: table.game_class.chip_game and table.status == "playing",
        ) as table:
            if tournament_chips.fixed_deals(table):
                raise TableError(msg("This is a tournament's table: its deals are dealt by "
                                     "themselves, and nobody joins, leaves or rebuys."))
            if op == "end":
                require_host_or_admin(table, user_id, is_admin, msg("end this table"))
                await service.end_cash_table(table, msg("{name} ended the table.", name=name))
                return t("The table is closed; everyone's chips went back to their balance.")
            if op == "deal":
                events = cash_table.next_deal(table, user_id)
                table.sync_deadlines(service.clock())
                await service.commit(table, narration.step(table, events))
                reply = t("Deal {n} is dealt.", n=table.deals)
            elif op == "join":
                moved = await service.sit(table, user_id, name)
                await service.commit(table, [narration.live_board(table)], moved)
                reply = t("You sat down with {n} chips.", n=-moved[0].delta)
            elif op == "rebuy":
                balance = await service.bank.balance(table.guild_id, user_id)
                moved = cash_table.rebuy(table, user_id, balance)
                await service.commit(table, [narration.live_board(table)], moved)
                reply = t("You bought {n} chips.", n=-moved[0].delta)
            else:  # leave
                moved = cash_table.stand_up(table, user_id)
                if not table.has_humans:
                    await service.end_cash_table(table, msg("Everyone left; the table is closed."),
                                                 already=moved)
                    return t("You left with your chips; the table is closed.")
                await service.commit(table, [narration.live_board(table)], moved)
                reply = t("You left the table with your chips.")
        service.clocks.after_step(table)
        return reply
