"""What a tournament says: its sign-up message, each round's pairings, each table's result,
the standings (text and picture) and the final podium, in the reader's language.

Called inside `i18n.using(locale)` (the server's language when the message is written); the
words are the bot's catalogue's, the names made inert (`bot.present.inert`). A message to
post is a `TournamentPost` (`bot.core.tournament_posts`, with its saved JSON) written with the
change that says it (`bot.store.tournaments`); a picture is described by its rows, drawn when
it is posted.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from bot.core.tournament_chips import DEFAULT_STACK
from bot.core.tournament_posts import BracketRound, StandingsPicture, TournamentPost
from bot.present import i18n
from bot.present.inert import inert
from bot.present.tournament_pictures import BracketMatch, StandingRow
from bot.store import TournamentBoardRow
from engine.games import GAMES
from engine.tournaments import Format, Tournament
from engine.tournaments.records import Round, Table

__all__ = [
    "board_text",
    "final_text",
    "format_name",
    "ordinal",
    "pairings_text",
    "post",
    "result_text",
    "round_heading",
    "signup_text",
    "standings_post",
    "standings_text",
]


def format_name(format_: Format) -> str:
    if format_ is Format.ELIMINATION:
        return i18n.t("single elimination")
    if format_ is Format.ROUND_ROBIN:
        return i18n.t("round robin")
    return i18n.t("Swiss system")  # not "Swiss": the command's menu word is capitalised


def points(value: float) -> str:
    """A score as the tables show it: 1, 1½, ½."""
    whole, half = divmod(round(value * 2), 2)
    if not half:
        return str(whole)
    return "½" if whole == 0 else f"{whole}½"


def name_of(t: Tournament, player: str) -> str:
    entrant = t.entrants.get(player)
    return player if entrant is None else entrant.name


def replaced(t: Tournament, player: str) -> bool:
    """A member whose seat the AI plays since `/tournament replace`. (An AI entrant is not:
    its name, "AI 3", says so already, and the sign-up marks it.)"""
    entrant = t.entrants.get(player)
    return entrant is not None and entrant.ai and player.isdigit()


def shown(t: Tournament, player: str) -> str:
    """A player's name as the channel's text reads it: inert, and marked 🤖 once the AI plays
    in a member's place, so nobody waits for them at their table (`AI_NOTE` says what the
    mark means)."""
    name = inert(name_of(t, player))
    return f"{name} 🤖" if replaced(t, player) else name


def pictured(t: Tournament, player: str) -> str:
    """A player's name in a picture: the pictures' font has no emoji, so a member the AI
    plays for is marked in words."""
    name = name_of(t, player)
    return name + i18n.t(" (AI)") if replaced(t, player) else name


def ai_note(t: Tournament, players: Iterable[str]) -> list[str]:
    """The line under a list of names that explains 🤖, when one of them carries it."""
    if any(replaced(t, p) for p in players):
        return [i18n.t("🤖 marks a member the AI now plays for.")]
    return []


def stage(t: Tournament, round_: Round) -> str | None:
    """What players call an elimination's late round: the final (one table left, nobody
    waiting on a bye), and at heads-up the semi-finals and quarter-finals, by the bracket's
    size that round (its tables' two slots each and the byes, up to a power of two: six
    players' first round, with two byes, is the quarter-finals). None for the others."""
    if t.config.format is not Format.ELIMINATION:
        return None
    if len(round_.tables) == 1 and not round_.byes:
        return i18n.t("Final")
    if t.config.seats != 2:  # the top finishers of bigger tables go on: no halves
        return None
    slots = 2 * len(round_.tables) + len(round_.byes)
    bracket = 1 << max(0, slots - 1).bit_length()
    if bracket == 4:
        return i18n.t("Semi-finals")
    if bracket == 8:
        return i18n.t("Quarter-finals")
    return None


def round_heading(t: Tournament, round_: Round) -> str:
    """A round's pairings' heading: its number always (players and tests look for
    "**Round 3**"), and an elimination's late round named as players say it."""
    name = stage(t, round_)
    if name is None:
        return i18n.t("**Round {n}**", n=round_.number)
    return i18n.t("**Round {n}** — **{stage}**", n=round_.number, stage=name)


def post(text: str) -> TournamentPost:
    """A message of text alone."""
    return TournamentPost(text)


def signup_text(t: Tournament, kind: str, organiser_id: int, start_at: float | None,
                deals: int | None = None) -> str:
    """The sign-up message: what is played, when, who has joined, and what to press (and at
    a chip game's tables, that nobody's balance is at stake: `bot.core.tournament_chips`)."""
    title = GAMES[kind].title
    config = t.config
    lines = [i18n.t("🏆 **Tournament of {title}**: {format}, tables of {seats}, organised by "
                    "<@{organiser}>.", title=title, format=format_name(config.format),
                    seats=config.seats, organiser=organiser_id)]
    if config.format is Format.SWISS and config.rounds:
        lines.append(i18n.t("Rounds: {n}.", n=config.rounds))
    if deals:
        lines.append(i18n.t_n(
            "Each table plays {n} deal with tournament chips ({stack} a seat, not from your "
            "balance), placed by net chips.",
            "Each table plays {n} deals with tournament chips ({stack} a seat, not from your "
            "balance), placed by net chips.", deals, stack=DEFAULT_STACK))
    if t.status == "signup":
        if start_at is not None:
            stamp = int(start_at)
            lines.append(i18n.t("Starts <t:{stamp}:f> (<t:{stamp}:R>), or when the organiser "
                                "presses **Start**.", stamp=stamp))
        else:
            lines.append(i18n.t("Starts when the organiser presses **Start**."))
    elif t.status == "running":
        # This message is edited at the start and the end, not each round: no round number.
        lines.append(i18n.t("The tournament is under way: each round's pairings are posted "
                            "below, and `/tournament standings` shows where it stands."))
    else:
        lines.append(i18n.t("The tournament is over."))
    names = [inert(e.name) + (" 🤖" if e.ai else "") for e in t.entrants.values()]
    lines.append(i18n.t("Players ({n}): {names}", n=len(names), names=", ".join(names) or "—"))
    if t.status == "signup":
        lines.append(i18n.t("Press **Join** to play, **Leave** to change your mind."))
    return "\n".join(lines)


def pairings_text(t: Tournament, round_: Round, threads: dict[int, int]) -> str:
    """A round's tables (each with its thread) and byes."""
    lines = [round_heading(t, round_)]
    for table in round_.tables:
        players = i18n.t(" v ").join(shown(t, p) for p in table.players)
        thread = threads.get(table.number)
        where = f" — <#{thread}>" if thread else ""
        lines.append(i18n.t("Table {n}: {players}", n=table.number, players=players) + where)
    for bye in round_.byes:
        name = shown(t, bye.player)
        if bye.walkover:
            lines.append(i18n.t("{name} has a walkover, scored as a win: {points}.",
                                name=name, points=points(bye.points)))
        elif bye.points:
            lines.append(i18n.t("{name} has a bye, scored as a win: {points}.",
                                name=name, points=points(bye.points)))
        else:
            lines.append(i18n.t("{name} sits this round out.", name=name))
    lines += ai_note(t, [p for table in round_.tables for p in table.players]
                     + [bye.player for bye in round_.byes])
    return "\n".join(lines)


def result_text(t: Tournament, round_number: int, table: Table, aborted: bool) -> str:
    """A table's result: its players by place, what each scored."""
    if table.places is None:
        return ""
    scored = table.points()
    order = sorted(range(len(table.players)), key=lambda i: (table.places or ())[i])
    parts = [i18n.t("{place}. {name} ({points})", place=table.places[i],
                    name=shown(t, table.players[i]),
                    points=points(scored.get(table.players[i], 0.0))) for i in order]
    head = i18n.t("Round {round}, table {n}:", round=round_number, n=table.number)
    text = f"{head} {', '.join(parts)}"
    if table.forfeits:
        text += " " + i18n.t("Forfeited: {names}.", names=", ".join(
            shown(t, p) for p in table.forfeits))
    if aborted:
        text += " " + i18n.t("(The table was aborted: nobody there scored.)")
    return text


def standings_text(t: Tournament, limit: int = 20) -> str:
    lines = []
    listed = t.standings()[:limit]
    for s in listed:
        line = i18n.t("{place}. {name} — {points}", place=s.place,
                      name=shown(t, s.player), points=points(s.score))
        if t.config.format is not Format.ELIMINATION:
            line += " " + i18n.t("(Buchholz {b})", b=points(s.buchholz))
        lines.append(line)
    lines += ai_note(t, [s.player for s in listed])
    return "\n".join(lines)


def standings_post(t: Tournament, title: str, text: str) -> TournamentPost:
    """The standings: the text and the picture's rows (and an elimination's bracket)."""
    elimination = t.config.format is Format.ELIMINATION
    rows = tuple(StandingRow(s.place, pictured(t, s.player), points(s.score),
                             "" if elimination else points(s.buchholz)) for s in t.standings())
    headings = (i18n.t("Place"), i18n.t("Player"), i18n.t("Score"),
                "" if elimination else i18n.t("Buchholz"))
    bracket = tuple(
        BracketRound(stage(t, r) or i18n.t("Round {n}", n=r.number), tuple(
            [BracketMatch(tuple(pictured(t, p) for p in table.players), _winner(t, table))
             for table in r.tables]
            + [BracketMatch((pictured(t, bye.player), None), pictured(t, bye.player))
               for bye in r.byes]))
        for r in t.rounds) if elimination else ()
    return TournamentPost(f"{title}\n{text}", StandingsPicture(title, headings, rows, bracket))


def _winner(t: Tournament, table: Table) -> str | None:
    if table.places is None:
        return None
    best = min(table.places)
    return pictured(t, table.players[table.places.index(best)])


def ordinal(n: int) -> str:
    """A place as a person says it: 1st, 2nd, 3rd, 4th, 11th, 21st (in Swedish 1:a, 2:a, 3:e,
    4:e, 11:e, 21:a: each language's catalogue words the four endings English tells
    apart, which fall the same way in Swedish)."""
    if n % 100 not in (11, 12, 13):
        if n % 10 == 1:
            return i18n.t("{n}st", n=n)
        if n % 10 == 2:
            return i18n.t("{n}nd", n=n)
        if n % 10 == 3:
            return i18n.t("{n}rd", n=n)
    return i18n.t("{n}th", n=n)


def board_text(rows: Sequence[TournamentBoardRow], kind: str | None = None) -> str:
    """`/tournament board`: the server's members by events won, then best place (of one
    game's tournaments, or of all)."""
    if not rows and kind is not None:  # AI entrants are never on it
        return i18n.t("No member has played a tournament of {title} to its end here yet.",
                      title=i18n.render(GAMES[kind].title))
    if not rows:
        return i18n.t("No tournament has been played to its end here yet.")
    lines = [i18n.t("🏆 **Tournaments of {title}**: events won, best place, events played",
                    title=i18n.render(GAMES[kind].title)) if kind is not None else
             i18n.t("🏆 **Tournaments**: events won, best place, events played")]
    lines += [i18n.t("{rank}. {name} — won {won}, best place {best}, played {events}",
                     rank=rank, name=inert(row.name), won=row.won, best=ordinal(row.best),
                     events=row.events)
              for rank, row in enumerate(rows, 1)]
    return "\n".join(lines)


def final_text(t: Tournament) -> str:
    """The closing note: the podium."""
    medals = {1: "🥇", 2: "🥈", 3: "🥉"}
    podium = [f"{medals[s.place]} {shown(t, s.player)} ({points(s.score)})"
              for s in t.standings() if s.place in medals]
    head = i18n.t("🏆 **The tournament is over!**") if not t.ended else \
        i18n.t("🏆 **The tournament was ended by the organiser.**")
    return "\n".join([head, *podium, *ai_note(t, [s.player for s in t.standings()
                                                   if s.place in medals])])
