"""What a table looks like in words: its lobby, its board in the channel and a seat's private
view, in the current locale.

These read a `Table` (seats, options, stacks, the game's views), so they belong to the core,
beside the table; how one game's views look is its `Renderer` (`bot.present.render`), which
knows nothing of tables. Names are inert here as everywhere (`bot.present.inert`).
"""

from __future__ import annotations

from babel import Locale, UnknownLocaleError

from bot.core import tournament_chips
from bot.core.table import DEFAULT_BUY_IN, Table
from bot.core.validation import installed_dictionaries
from bot.present import i18n
from bot.present.i18n import render, t, t_n
from bot.present.inert import inert
from bot.present.render import bold_lines, clip, renderer_for, shown_view
from engine.chips.deal import STAKES
from engine.game import Game, Prompt
from engine.games import GAMES
from engine.games.holdem_sppoker.rules import DEFAULTS as HOLDEM_DEFAULTS
from engine.i18n import N_
from engine.views import GameView

# The stakes a table plays when its command leaves one of a pair out (the engines' defaults:
# engine/chips/deal.py, engine/games/holdem_sppoker/rules.py), so "bets 15/20" shows both.
STAKE_DEFAULTS = {"small_bet": STAKES["small_bet"], "big_bet": STAKES["big_bet"],
                  "small_blind": HOLDEM_DEFAULTS["small_blind"],
                  "big_blind": HOLDEM_DEFAULTS["big_blind"]}
AI_LEVELS = {0: N_("casual AI"), 1: N_("good AI"), 2: N_("strong AI")}
UNSHOWN = frozenset({"ai_seats", "buy_in", "stacks", "button"})
"""Options the lobby never lists: the seats show which are AI, the chip games' line says the
buy-in, and a deal's stacks and button are the cash table's, not the host's choice."""


def dictionary_name(tag: str) -> str:
    """A dictionary as the reader says it: its language in the current locale ("Swedish",
    "svenska"), with the country when another installed dictionary has the same language
    ("English (United States)" beside en_GB); the tag itself for a tag Babel cannot read."""
    try:
        found = Locale.parse(tag.replace("-", "_").split("_frami")[0])
        reader = Locale.parse(i18n.current())
    except (ValueError, TypeError, UnknownLocaleError):
        return tag
    same_language = [other for other in installed_dictionaries()
                     if other != tag and other.split("_")[0] == tag.split("_")[0]]
    name = found.get_display_name(reader) if same_language else \
        found.get_language_name(reader)
    return name or tag


def options_words(table: Table) -> list[str]:
    """The options the host chose (or the server's defaults filled in, as the dictionary), in
    words in the table's language: "to 1 point", "Swedish dictionary", "bets 15/30", "300 s
    to declare". Options the lobby shows elsewhere or the host never chose are left out
    (`UNSHOWN`); one this function does not know reads as its name and value."""
    options = {key: value for key, value in table.options.items()
               if value is not None and key not in UNSHOWN}
    words: list[str] = []
    if (target := options.pop("target", None)) is not None:
        words.append(t_n("to {n} point", "to {n} points", int(target)))
    if (language := options.pop("language", None)) is not None:
        words.append(t("{language} dictionary", language=dictionary_name(str(language))))
    if (level := options.pop("ai_skill", None)) is not None:
        words.append(t(AI_LEVELS[level]) if level in AI_LEVELS else t("AI level {n}", n=level))
    if (ante := options.pop("ante", None)) is not None:
        words.append(t("no ante") if ante == 0 else t("ante {n}", n=ante))
    for small, big, text in (("small_blind", "big_blind", N_("blinds {small}/{big}")),
                             ("small_bet", "big_bet", N_("bets {small}/{big}"))):
        if small in options or big in options:
            words.append(t(text, small=options.pop(small, STAKE_DEFAULTS[small]),
                           big=options.pop(big, STAKE_DEFAULTS[big])))
    if (fee := options.pop("draw_fee", None)) is not None:
        words.append(t("free draws") if fee == 0 else t("draws cost {n} a card", n=fee))
    if options.pop("out_takes_low", False):  # off, the default, goes without saying
        words.append(t("a hand spewed out of cards takes low"))
    if (call := options.pop("call", None)) is not None:
        words.append(t("Chicago calls allowed") if call else t("no Chicago calls"))
    if (buy := options.pop("min_buy_in", None)) is not None:
        words.append(t("a short stack may sit down with {n}", n=buy))
    if (most := options.pop("max_buy_in", None)) is not None:
        words.append(t("at most {n} at the table", n=most))
    for key, text in (("turn_seconds", N_("{n} s a turn")),
                      ("declare_seconds", N_("{n} s to declare")),
                      ("last_seconds", N_("{n} s for the last to declare"))):
        if (seconds := options.pop(key, None)) is not None:
            words.append(t(text, n=seconds))
    for key, value in options.items():  # an option of a game this does not know yet
        shown = ", ".join(map(str, value)) if isinstance(value, list | tuple) else value
        words.append(f"{key.replace('_', ' ')} {shown}")
    return words


def lobby_text(table: Table, idle_deadline: float | None, *, started: bool = False) -> str:
    """The lobby message, in the table's language (it is the channel's)."""
    with i18n.using(table.locale):
        return _lobby_text(table, idle_deadline, started=started)


def _lobby_text(table: Table, idle_deadline: float | None, *, started: bool) -> str:
    cls = table.game_class
    ai, host = t(" (AI)"), t(" — host")
    seats = "\n".join(
        f"{i + 1}. {inert(seat.name)}{ai if seat.is_ai else ''}"
        f"{host if seat.user_id == table.host_id else ''}"
        for i, seat in enumerate(table.seats)
    )
    options = " · ".join(options_words(table))
    lines = [
        t("**{title}** — a table is open ({seated}/{seats} seats, {needed} needed).",
          title=cls.title, seated=len(table.seats), seats=cls.max_seats, needed=cls.min_seats),
        seats or t("(no one seated)"),
    ]
    if options:
        lines.append(t("Options: {options}", options=options))
    try:
        goal = cls.goal(table.options, len(table.seats))
    except (TypeError, ValueError):  # options the game will refuse at Start, saying why
        goal = ""
    if goal:
        lines.append(t("To win: {goal}.", goal=goal))
    if cls.chip_game:
        buy_in = int(table.options.get("buy_in") or DEFAULT_BUY_IN)
        lines.append(t("A seat costs a buy-in of **{buy_in}** chips from your balance "
                       "(`/chips balance`); you take your stack back when you leave.",
                       buy_in=buy_in))
    if started:
        lines.append(t("**Started.** Follow the game below; your cards come by DM."))
    elif table.is_full:
        lines.append(t("The table is full; the host presses **Start**."))
    else:
        lines.append(t("Press **Join** to sit down; the host presses **Start**."))
    if idle_deadline and not started:
        when = f"<t:{int(idle_deadline)}:R>"
        lines.append(t("This lobby closes {when} if nobody starts it.", when=when))
    return clip("\n".join(lines))


def waiting_line(table: Table) -> str:
    game = table.require_game()
    if game.is_over:
        return t("The game is over.")
    waiting = sorted(game.to_act)
    if not waiting:
        return ""
    deadline = min(table.deadlines.values(), default=None)
    when = f"<t:{int(deadline)}:R>" if deadline else ""
    clock = t(" — time runs out {when}", when=when) if deadline else ""
    if len(waiting) == 1:
        occupant = table.seats[waiting[0]]
        who = f"**{inert(occupant.name)}**"
        if occupant.user_id in table.dm_closed:  # no DM reaches them: ping them here
            who = t("<@{user}> (press **Show my hand**)", user=occupant.user_id)
        return t("Waiting for {who}{clock}.", who=who, clock=clock)
    deciding = deciding_seats(game.public_view())
    chosen = len(deciding - set(waiting))
    return t("{chosen} of {seats} have chosen; waiting for {waiting}{clock}.", chosen=chosen,
             seats=len(deciding | set(waiting)), waiting=len(waiting), clock=clock)


def deciding_seats(view: GameView) -> set[int]:
    """The seats a decision everyone makes at once is among: not those who folded (or, in
    Spew, were spewed out of cards), who have nothing to choose and so never "have chosen"."""
    gone = [bool(a) or bool(b) for a, b in zip(
        getattr(view, "folded", None) or [False] * len(view.names),
        getattr(view, "out", None) or [False] * len(view.names), strict=True)]
    return {seat for seat in range(len(view.names)) if not gone[seat]}


def pings(table: Table) -> list[int]:
    """Whom the table's board means to ping: the one person it waits for when no DM reaches
    them (`waiting_line` mentions them by id). A message lists exactly these in its
    `allowed_mentions`; no name or typed word can add anyone."""
    game = table.game
    if game is None or game.is_over or len(game.to_act) != 1:
        return []
    user = table.seats[next(iter(game.to_act))].user_id
    return [user] if user is not None and user in table.dm_closed else []


def board_text(table: Table) -> str:
    """The table's board, in the table's language (it is the channel's)."""
    with i18n.using(table.locale):
        return _board_text(table)


def game_title(game: Game) -> str:
    """The game as its messages name it, in the current locale (the solitaire's board says
    Po-Ke-No-patiens in Swedish, as its lobby does): a Dealer's Choice deal names the game
    the dealer chose too ("Dealer's Choice · Spew"), since every deal there is another game."""
    playing = getattr(game, "playing", game.kind)
    if playing == game.kind or playing not in GAMES:
        return render(game.title)
    return f"{render(game.title)} · {render(GAMES[playing].title)}"


def deal_words(table: Table) -> str:
    """The heading's deal of a chip table: " · deal 3", at a tournament's table " · deal 3
    of 6" (it plays that many: `bot.core.tournament_chips`); nothing at other tables."""
    if not table.game_class.chip_game:
        return ""
    if tournament_chips.fixed_deals(table):
        return t(" · deal {n} of {total}", n=table.deals,
                 total=tournament_chips.deals_total(table))
    return t(" · deal {n}", n=table.deals)


def between_deals_words(table: Table) -> str:
    """What happens after a chip table's deal: at a cash table the buttons the board
    carries then (Next deal, Join, Leave, Rebuy, End); at a tournament's table, which has
    none of them, that the next deal comes by itself, or that the table is over."""
    if not tournament_chips.fixed_deals(table):
        return t("Deal {n} is over. **Next deal** deals again; **Join**, **Leave** (with "
                 "your chips) or **Rebuy** now; the host can **End** the table.",
                 n=table.deals)
    total = tournament_chips.deals_total(table)
    with_chips = sum(1 for stack in table.stacks if stack > 0)
    if table.deals < total and with_chips >= max(2, table.game_class.min_seats):
        return t("Deal {n} of {total} is over; the next deal is dealt in a moment, by "
                 "itself.", n=table.deals, total=total)
    return t("Deal {n} of {total} is over, and with it this table: its places go by net "
             "chips.", n=table.deals, total=total)


def _board_text(table: Table) -> str:
    game = table.require_game()
    lines = [f"**{game_title(game)}** — " + ", ".join(inert(seat.name) for seat in table.seats)
             + deal_words(table)]
    if table.game_class.chip_game and game.is_over:
        # Between deals the table changes (who sits, their stacks); the old deal's view not.
        lines.append(t("Stacks: {stacks}", stacks=", ".join(
            f"{inert(seat.name)} {stack}" for seat, stack in zip(table.seats, table.stacks,
                                                          strict=True))))
        lines.append(between_deals_words(table))
        return clip("\n".join(lines))
    lines += renderer_for(table.kind).public(shown_view(game.public_view()))
    if table.recent and not game.is_over:
        lines.append("")
        lines += [f"› {render(line)}" for line in table.recent]
        lines.append("")
    lines.append(waiting_line(table))
    if not game.is_over:
        lines.append(t("Your cards come by DM; **Show my hand** shows them here, to you alone."))
    return clip("\n".join(line for line in lines if line))


def private_text(table: Table, seat: int, prompt: Prompt | None) -> str:
    """What one seat sees, in the current locale (its reader's: the caller sets it)."""
    game = table.require_game()
    deal = deal_words(table)
    channel = f"<#{table.channel_id}>"
    lines = [t("**{title}** in {channel} — you are **{name}**{deal}", title=game_title(game),
               channel=channel, name=inert(table.seats[seat].name), deal=deal)]
    lines += renderer_for(table.kind).private(shown_view(game.view(seat)))
    notes = table.notes.get(seat, [])
    if notes:
        lines.append("")
        lines += [f"› {render(note)}" for note in notes[-5:]]
    if prompt is not None:
        lines.append("")
        lines.append(bold_lines(render(prompt.text)))
    elif not game.is_over:
        lines.append("")
        lines.append(t("Nothing is needed from you right now."))
    return clip("\n".join(lines))
