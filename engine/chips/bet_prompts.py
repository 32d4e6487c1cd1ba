"""The buttons every chip game offers for a bet, and why one it refuses is refused: what a
seat may do now (`BetOptions`, from `Betting.options`) as the prompt's choices."""

from __future__ import annotations

from engine.chips.betting import BetOptions, Betting
from engine.game import Action, Choice, IllegalAction
from engine.i18n import msg

__all__ = ["bet_choices", "bet_names", "why_not"]


def bet_names(options: BetOptions) -> list[str]:
    """The betting actions a seat may take now, by name, as every chip game offers them."""
    names = ["fold"] if options.fold else []
    names.append("check" if options.facing == 0 else "call")
    if options.raise_to is not None:
        names.append("bet" if options.is_bet else "raise")
    return names


def why_not(name: str, options: BetOptions, betting: Betting) -> str:
    """Why a betting action is refused, from the kit's own verifiers."""
    seat = options.seat
    try:
        if name == "fold":
            betting.verify_fold(seat)
        elif name in ("bet", "raise"):
            betting.verify_bet_or_raise(seat)
    except IllegalAction as refusal:
        reason = refusal.args[0] if refusal.args else ""
        return reason if isinstance(reason, str) else str(refusal)
    if name == "check":
        return msg("There is a bet: call {n} or fold.", n=options.call)
    if name == "call":
        return msg("There is nothing to call: check.")
    if name == "bet":
        return msg("There is a bet already: raise to {n}.", n=options.raise_to)
    return msg("Nobody has bet: bet {n}.", n=options.raise_to)


def bet_choices(options: BetOptions, stack: int, bet: int) -> list[Choice]:
    """The betting buttons, the same in every chip game: Fold, Check or Call n, Bet or Raise
    to n (fixed limit: nothing to type)."""
    choices = []
    if options.fold:
        choices.append(Choice(msg("Fold"), Action("fold"), "danger"))
    if options.facing == 0:
        choices.append(Choice(msg("Check"), Action("check"), "secondary"))
    else:
        label = msg("Call {n} (all-in)", n=options.call) if options.call == stack \
            else msg("Call {n}", n=options.call)
        choices.append(Choice(label, Action("call"), "primary"))
    if options.raise_to is not None:
        all_in = options.raise_to - bet == stack
        if options.is_bet:
            label = msg("Bet {n} (all-in)", n=options.raise_to) if all_in \
                else msg("Bet {n}", n=options.raise_to)
        else:
            label = msg("Raise to {n} (all-in)", n=options.raise_to) if all_in \
                else msg("Raise to {n}", n=options.raise_to)
        choices.append(Choice(label, Action("bet" if options.is_bet else "raise"), "success"))
    return choices
