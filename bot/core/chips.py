"""Play money: each player's chips in each server, and the server's rules for giving them
out (a starting balance, a daily claim, grants by the server's managers).

Discord-free, like the table service: the chips cog turns commands into these calls and
their answers into messages. Every change is a transfer with the house (or a table), written
by the store as ledger rows in the same transaction as the balances, so the ledger always
adds up to the balance; `audit` shows a server's managers that it does.
"""

from __future__ import annotations

from bot.core.validation import MAX_GRANT, guild_setting
from bot.present.i18n import t, t_n
from bot.present.inert import inert
from bot.store import (
    HOUSE,
    REASON_REFUND,
    ChipAudit,
    ChipChange,
    InsufficientChipsError,
    Store,
    TableChips,
)
from engine.i18n import N_, msg

DEFAULT_DAILY = 100
REASON_GRANT = "admin grant"
# The ledger's reasons as people read them (the stored reason stays the English word).
REASONS = {"admin grant": N_("admin grant"), "buy-in": N_("buy-in"),
           "cash-out": N_("cash-out"), "opening balance": N_("opening balance"),
           "daily claim": N_("daily claim"), REASON_REFUND: N_("refund")}
LEDGER_LINES = 5
AUDIT_LINES = 10  # of each kind of problem the audit lists (a message holds 2,000 characters)


class BankError(Exception):
    """A request the bank refuses; the message is fit to show the person who made it."""


class Bank:
    def __init__(self, store: Store) -> None:
        self.store = store

    async def starting(self, guild_id: int) -> int:
        # Read through the settings' checks: a value stored before they existed (negative,
        # say) reads as the default instead of failing every new account.
        value = await guild_setting(self.store, guild_id, "starting_chips",
                                    self.store.starting_chips)
        return int(value)

    async def daily_amount(self, guild_id: int) -> int:
        return int(await guild_setting(self.store, guild_id, "daily_chips", DEFAULT_DAILY))

    async def balance(self, guild_id: int, user_id: int) -> int:
        """A player's chips; a first-timer's account opens with the server's starting grant."""
        return await self.store.balance(guild_id, user_id, await self.starting(guild_id))

    async def statement(self, guild_id: int, user_id: int, name: str) -> str:
        await self.store.upsert_player(user_id, name)  # the chips leaderboard shows names
        balance = await self.balance(guild_id, user_id)
        lines = [t("**{name}** has **{n}** chips in this server.", name=name, n=balance)]
        entries = await self.store.ledger(guild_id, user_id, limit=LEDGER_LINES)
        if entries:
            lines.append(t("Last moves:"))
            lines += [f"`{entry.delta:+d}` {t(REASONS.get(entry.reason, entry.reason))} → "
                      f"{entry.balance_after} (<t:{int(entry.created_at.timestamp())}:R>)"
                      for entry in entries]
        return "\n".join(lines)

    async def daily(self, guild_id: int, user_id: int, name: str) -> str:
        await self.store.upsert_player(user_id, name)
        await self.balance(guild_id, user_id)  # open the account with the starting grant
        claim = await self.store.claim_daily(guild_id, user_id, await self.daily_amount(guild_id))
        when = f"<t:{int(claim.next_claim_at.timestamp())}:R>"
        if not claim.claimed:
            return t("You have claimed today's chips already; come back {when}. You have {n} "
                     "chips.", when=when, n=claim.balance)
        return t("+{amount} chips: you now have **{n}**. Next claim {when}.",
                 amount=claim.amount, n=claim.balance, when=when)

    async def grant(self, guild_id: int, user_id: int, name: str, amount: int) -> int:
        """A manager gives (or, with a negative amount, takes back) chips; the new balance."""
        if amount == 0 or abs(amount) > MAX_GRANT:
            raise BankError(msg("Grant between 1 and {n} chips (negative to take back).",
                                n=f"{MAX_GRANT:,}"))
        await self.store.upsert_player(user_id, name)
        await self.balance(guild_id, user_id)
        try:
            balances = await self.store.apply_chip_changes(
                guild_id, [ChipChange(user_id, amount, REASON_GRANT)])
        except InsufficientChipsError as error:
            raise BankError(msg("They have only {n} chips: take back at most that many.",
                                n=error.balance)) from error
        return balances[user_id]

    async def richest(self, guild_id: int, page: int = 0, size: int = 10) -> list[str]:
        """The chips board's lines, in the current locale. A stored name is shown inert
        (bot.present.inert); someone with no name stored yet is shown as their mention, built from
        their id (it pings nobody: the board allows no mentions)."""
        rows = await self.store.chip_leaderboard(guild_id, limit=size, offset=page * size)
        return [t("{rank}. {name} — {n} chips", rank=row.rank,
                  name=inert(row.display_name or "") or f"<@{row.user_id}>", n=row.balance)
                for row in rows]

    async def audit(self, guild_id: int) -> str:
        """The server's chip books for its managers (`Store.chip_audit`): what members and
        open tables hold against what the house issued, and every account, table or total
        that does not add up (none when the books balance)."""
        report = await self.store.chip_audit(guild_id)
        lines = [t("**Chip audit**: every account adds up to its ledger, and the house has "
                   "issued exactly what members and tables hold.") if report.ok else
                 t("**Chip audit**: something does not add up.")]
        lines.append(t("Members hold **{members}** chips and open tables **{tables}**; the "
                       "house has issued **{issued}**.", members=report.members_total,
                       tables=report.tables_total, issued=report.house_issued))
        if report.unbalanced_guilds:
            lines.append(t("The house has issued {issued} chips, but members and tables hold "
                           "{held}.", issued=report.house_issued,
                           held=report.members_total + report.tables_total))
        problems = [t("{account}: {balance} chips stored, but its ledger adds up to {total}.",
                      account=_account_name(found.account), balance=found.balance,
                      total=found.ledger_total) for found in report.mismatches]
        problems += [_table_line(table) for table in report.tables if not table.balanced]
        problems += [t("Table `{table}` has ended, but its account still holds {n} chips.",
                       table=table.table_id, n=table.account)
                     for table in report.closed_with_chips]
        lines += problems[:AUDIT_LINES]
        if len(problems) > AUDIT_LINES:
            lines.append(t("… and {n} more.", n=len(problems) - AUDIT_LINES))
        lines += _tables_summary(report)
        return "\n".join(lines)


def _account_name(account: str) -> str:
    """An account as the audit names it: a member's mention, the house, a table's id."""
    kind, _, key = account.partition(":")
    if account == HOUSE:
        return t("The house")
    if kind == "user":
        return f"<@{key}>"
    return t("Table `{table}`", table=key)


def _table_line(table: TableChips) -> str:
    """An open table whose account is not what its seats hold."""
    if table.stacks is None:
        return t("Table `{table}` holds {n} chips in its account, but its seats hold none.",
                 table=table.table_id, n=table.account)
    return t("Table `{table}` holds {n} chips in its account, but its seats hold {stacks}.",
             table=table.table_id, n=table.account, stacks=table.stacks)


def _tables_summary(report: ChipAudit) -> list[str]:
    """How many open tables hold what their seats hold, and how many still wait to be
    settled with the house after the upgrade that gave tables their accounts."""
    lines: list[str] = []
    # A table from before the upgrade whose seats hold what its account does (no AI seat's
    # chips were missing) needs no settling.
    waiting = [table for table in report.tables if table.legacy and table.balanced
               and table.account != (table.stacks or 0)]
    balanced = sum(1 for table in report.tables if table.balanced) - len(waiting)
    if balanced:
        lines.append(t_n("{n} open table holds exactly what its seats hold.",
                         "{n} open tables hold exactly what their seats hold.", balanced))
    legacy = len(waiting)
    if legacy:
        lines.append(t_n("{n} table open since before table accounts existed is settled with "
                         "the house when it is restored.",
                         "{n} tables open since before table accounts existed are settled "
                         "with the house when they are restored.", legacy))
    return lines
