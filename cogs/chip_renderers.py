"""How the chip games' tables read: the renderers of Badugi, Red Dog, Hold'em Sppoker and a
Dealer's Choice session, and the showdown picture every chip game shares.

Apart from the games' commands (cogs/chip_games.py, which declares these renderers in its
`PLUGINS`) because it is the other half of a plug-in: it turns a game's view into the lines
and pictures people read, and knows nothing of slash commands or of the bot. The other chip
games' cog (cogs/high_low_games.py) draws its pots, seats and showdowns with these too.

Formatting only: the pot, the side pots, each stack and bet, whose turn; the games decide
everything (engine/games/badugi/rules.py, engine/games/red_dog/rules.py), the cash table
carries the stacks from deal to deal (bot/core/cash_table.py).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot.present.i18n import render, t
from bot.present.images import Row, render_rows
from bot.present.render import cards_text, renderer_for
from engine.cards import parse_cards
from engine.chips.pots import Pot
from engine.declaring import TIMED_OUT
from engine.game import Event
from engine.games.badugi.views import BadugiSeatView, BadugiView
from engine.games.dealers_choice.rules import DealersChoice
from engine.games.holdem_sppoker.rules import KIND_NAMES
from engine.games.holdem_sppoker.views import HoldemSppokerSeatView, HoldemSppokerView
from engine.games.red_dog.views import RedDogSeatView, RedDogView
from engine.i18n import N_
from engine.views import GameView, SeatView

STREETS = {"preflop": N_("Preflop"), "flop": N_("Flop"), "turn": N_("Turn"),
           "river": N_("River"), "showdown": N_("Showdown")}


DECLARED = {"high": N_("declared high"), "low": N_("declared low"),
            "both": N_("declared both"), "poker": N_("declared poker"),
            "spelling": N_("declared spelling"), "double": N_("declared both"),
            TIMED_OUT: N_("no declaration (out of time)")}


def won_by(data: Mapping[str, Any], seat: int) -> int:
    """The chips a seat took from the pots at a deal's end (its shares of every award)."""
    return sum(int((award.get("shares") or {}).get(str(seat), 0))
               for award in data.get("awards") or [])


def showdown_note(data: Mapping[str, Any], seat: int) -> str:
    """What a showdown picture says under a hand, beside its cards: what it made (a Badugi,
    high and low totals), its declaration and what it won."""
    parts = []
    description = (data.get("descriptions") or {}).get(str(seat))
    if description:
        parts.append(render(description))
    high, low = (data.get("high") or {}).get(str(seat)), (data.get("low") or {}).get(str(seat))
    if high is not None and low is not None:
        parts.append(t("high {high}, low {low}", high=high, low=low))
    declared = (data.get("declarations") or {}).get(str(seat))
    if declared in DECLARED:
        parts.append(t(DECLARED[declared]))
    won = won_by(data, seat)
    if won:
        parts.append(t("won {n}", n=won))
    return " · ".join(parts)


def showdown_images(events: list[Event], names: list[str]) -> list[tuple[str, bytes]]:
    """The hands shown at a chip game's showdown, one row a player, as a picture: easier to
    compare at a glance than card texts. Each row says what the hand made, its declaration
    (and word) and what it won, its winners starred, so the picture reads on its own."""
    images = []
    for event in events:
        if event.kind != "deal_end":
            continue
        data = event.data
        rows = []
        hands = data.get("hands")
        if isinstance(hands, dict):
            for seat, cards in sorted(hands.items(), key=lambda item: int(item[0])):
                rows.append(Row(label=names[int(seat)], cards=parse_cards(cards),
                                note=showdown_note(data, int(seat)) or None,
                                winner=won_by(data, int(seat)) > 0))
        for player in data.get("players") or []:
            won = int(player.get("won") or 0)
            said = [render(player.get("poker") or "")]
            declared = player.get("declaration")
            if declared in DECLARED:
                said.append(t(DECLARED[declared]))
            if player.get("word"):
                said.append(str(player["word"]).upper())
            if won:
                said.append(t("won {n}", n=won))
            rows.append(Row(label=str(player["name"]), cards=parse_cards(player["hand"]),
                            note=" · ".join(part for part in said if part), winner=won > 0))
        if data.get("board") and rows:
            rows.append(Row(label=t("Board"), cards=parse_cards(data["board"])))
        if rows:
            images.append(("showdown.png", render_rows(rows, title=t("Showdown"))))
    return images


SHOWN = frozenset({"deal_end"})


def pots_line(pots: Sequence[Pot]) -> list[str]:
    """The main and side pots, once there is more than one."""
    if len(pots) < 2:
        return []
    named = [t("main {n}", n=pot.amount) if i == 0 else t("side {i} {n}", i=i, n=pot.amount)
             for i, pot in enumerate(pots)]
    return [t("Pots: {pots}", pots=", ".join(named))]


def seat_state(folded: bool, all_in: bool) -> str:
    """" (folded)", " (all in)" or nothing, after a seat's stack."""
    return t(" (folded)") if folded else t(" (all in)") if all_in else ""


def badugi_public(view: BadugiView) -> list[str]:
    if view.is_over:  # the pot is paid out: no round is running and no pot is left to show
        lines = [t("Deal over · ante {ante}, bets {small}/{big}", ante=view.ante,
                   small=view.small_bet, big=view.big_bet)]
    else:
        stage = t("Betting round {n}", n=view.betting_round + 1) if view.phase != "draw" \
            else t("Draw {n}", n=view.draw_no)
        lines = [t("{stage} · ante {ante}, bets {small}/{big} · **pot {pot}**", stage=stage,
                   ante=view.ante, small=view.small_bet, big=view.big_bet, pot=view.pot)]
    lines += pots_line(view.pots)
    seats = []
    for seat, name in enumerate(view.names):
        bet = t(", bet {n}", n=view.bets[seat]) if view.bets[seat] else ""
        drawn = "/".join(map(str, view.draws[seat]))
        drew = t(", drew {n}", n=drawn) if view.draws[seat] else ""
        note = seat_state(view.folded[seat], view.all_in[seat])
        seats.append(f"{name} {view.stacks[seat]}{bet}{drew}{note}")
    lines.append(t("Stacks: {stacks}", stacks=" · ".join(seats)))
    return lines


def badugi_private(view: BadugiSeatView) -> list[str]:
    lines = [t("Your hand: {cards}", cards=cards_text(list(view.hand)))]
    if view.hand_value:
        lines.append(t("Your Badugi: **{hand}**", hand=render(view.hand_value)))
    return lines + badugi_public(view)  # the amount to call is the prompt's


def red_dog_public(view: RedDogView) -> list[str]:
    lines = [t("Round {n} · ante {ante} · **pot {pot}**", n=view.deal, ante=view.ante,
               pot=view.pot)]  # of this pot
    for turn in view.turns:
        name = view.names[turn.seat]
        if not turn.bet:
            lines.append(t("{name} passed.", name=name))
            continue
        if turn.won:
            lines.append(t("{name} bet {n} on {card}: won with {by}.", name=name, n=turn.bet,
                           card=cards_text(turn.card), by=cards_text(turn.by)))
        else:
            lines.append(t("{name} bet {n} on {card}: lost.", name=name, n=turn.bet,
                           card=cards_text(turn.card)))
    lines.append(t("Stacks: {stacks}", stacks=" · ".join(
        f"{view.names[seat]} {view.stacks[seat]}" for seat in range(len(view.names)))))
    return lines


def red_dog_private(view: RedDogSeatView) -> list[str]:
    lines = [t("Your hand: {cards}", cards=cards_text(list(view.hand)))] if view.hand else []
    # The odds while waiting: at one's turn the prompt gives them (with the percentage), and
    # after the deal they are stale ("23 of the 40 unseen cards would win" under the end).
    if view.unseen and not view.is_over and view.seat not in view.to_act:
        lines.append(t("{n} of the {unseen} unseen cards would win for you.", n=view.beats,
                       unseen=view.unseen))
    return lines + red_dog_public(view)


def holdem_public(view: HoldemSppokerView) -> list[str]:
    board = "  ".join(view.board_labels) if view.board_labels else "—"
    street = t(STREETS[view.street]) if view.street in STREETS else view.street.capitalize()
    lines = [t("{street} · blinds {small_blind}/{big_blind}, bets {small}/{big} · **pot {pot}**",
               street=street, small_blind=view.small_blind, big_blind=view.big_blind,
               small=view.small_bet, big=view.big_bet, pot=view.pot),
             t("Board: {cards}", cards=board)]
    lines += pots_line(view.pots)
    seats = []
    for seat, name in enumerate(view.names):
        bet = t(", bet {n}", n=view.bets[seat]) if view.bets[seat] else ""
        sealed = t(", declared") if view.declared[seat] else ""
        seats.append(f"{name} {view.stacks[seat]}{bet}{sealed}"
                     + seat_state(view.folded[seat], view.all_in[seat]))
    lines.append(t("Stacks: {stacks}", stacks=" · ".join(seats)))
    return lines


def holdem_private(view: HoldemSppokerSeatView) -> list[str]:
    lines = [t("Your cards: {cards} · letters **{letters}**", cards="  ".join(view.labels),
               letters=view.letters)]
    if view.poker:
        lines.append(t("Best poker hand: **{hand}**", hand=render(view.poker)))
    # A word refused while declaring is no declaration ("you have not declared yet", the
    # prompt says, with why): the view said "Your declaration: both with HJEDS" above it,
    # and the reason a third time.
    refused = view.word_check is not None and not view.word_check.ok
    if view.declaration and not (refused and view.phase == "declare"):
        # The view holds Sppoker's name ("double"); players read the button's word (both).
        declared = KIND_NAMES.get(view.declaration)
        declaration = render(declared) if declared is not None else view.declaration
        if view.word:
            lines.append(t("Your declaration: **{declaration}** with **{word}**",
                           declaration=declaration, word=view.word.upper()))
        else:
            lines.append(t("Your declaration: **{declaration}**", declaration=declaration))
    if refused and view.word_check is not None and view.phase != "declare":
        lines.append(f"⚠️ {render(view.word_check.reason)}")
    return lines + holdem_public(view)


def session_public(view: GameView) -> list[str]:
    """A Dealer's Choice deal reads as the game the dealer chose; before that, who chooses."""
    if view.kind != DealersChoice.kind:
        return renderer_for(view.kind).public(view)
    return [t("{name} deals and is choosing the game.", name=view.names[view.to_act[0]])] \
        if view.to_act else []


def session_private(view: SeatView) -> list[str]:
    if view.kind != DealersChoice.kind:
        return renderer_for(view.kind).private(view)
    return session_public(view)
