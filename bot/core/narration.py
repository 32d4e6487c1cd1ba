"""What each audience is told about a step, decided under the table's lock as outbox messages.

Discord-free: it turns a table and the events of a step into `bot.core.outbox` messages (texts
from `bot.present.render`, views by name, pictures as events to draw). The service writes them with
the step's snapshot, so whatever a step must tell survives a crash with it.

Names are pasted inert (`bot.present.inert`); a message that means to ping someone says whom, by
user id, in its `pings` (the sender allows exactly those mentions), and its text mentions them by
that id, never by a name.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from bot.core import cash_table, outbox, tournament_chips
from bot.core.outbox import (
    BOARD_REF,
    Edit,
    Embed,
    OutboxMessage,
    Post,
    Reply,
    Strip,
    Turn,
    Upsert,
    prompt_ref,
)
from bot.core.table import Table
from bot.core.table_text import board_text, game_title, pings, private_text
from bot.present import i18n
from bot.present.i18n import render, t, t_n
from bot.present.inert import inert
from bot.present.render import event_embed, localized_prompt, renderer_for
from engine.game import Event, Prompt

MAX_EMBEDS = 10


def your_turn(user: int, title: str) -> str:
    return t("<@{user}>, your turn at {title}: press **Show my hand** on the board.",
             user=user, title=title)


def closed_dms(user: int) -> str:
    return t("<@{user}>, I can't send you direct messages. Press **Show my hand** on the "
             "table message to see your cards and choices.", user=user)


RECENT_MOVES = 6


def board_view(table: Table) -> outbox.TableButtons:
    """Show my hand, and between the deals of a chip table its Join / Leave / Rebuy / Next
    deal / End buttons (in the current locale: the caller's, the table's); not at a
    tournament's table, which deals by itself, where nobody joins, leaves or rebuys."""
    if cash_table.between_deals(table) and not tournament_chips.fixed_deals(table):
        return outbox.cash_view(table.table_id)
    return outbox.board_view(table.table_id)


def board(table: Table) -> OutboxMessage:
    """The board moves to the bottom of the channel: a new one, the old one deleted."""
    with i18n.using(table.locale):
        return Post(channel=table.channel_id, content=board_text(table),
                    view=board_view(table), ref=BOARD_REF, previous="delete",
                    pings=tuple(pings(table)))


def live_board(table: Table) -> OutboxMessage:
    """The board edited in place: Discord allows about 5 messages per 5 s in a channel, so
    an ordinary move is one edit, not a new message."""
    with i18n.using(table.locale):
        return Upsert(ref=BOARD_REF, channel=table.channel_id, content=board_text(table),
                      view=board_view(table), pings=tuple(pings(table)))


def notable(table: Table, events: list[Event]) -> bool:
    """Whether a step deserves new messages in the channel (a reveal, a deal's end with its
    picture): those notify people; the rest is told on the live board."""
    renderer = renderer_for(table.kind)
    public = [event for event in events if event.seat is None]
    return renderer.draws(public) or any(e.kind in renderer.embed_kinds for e in public)


def remember(table: Table, events: list[Event]) -> None:
    """The board's last moves, kept as the engine told them (a `Msg`, shown in the table's
    language when the board is written)."""
    for event in events:
        if event.seat is None:
            if "\n" in event.text:
                table.recent.extend(line for line in render(event.text, table.locale)
                                    .split("\n") if line)
            elif event.text:
                table.recent.append(event.text)
    del table.recent[:-RECENT_MOVES]


def public_events(table: Table, events: list[Event], closing: str = "") -> list[OutboxMessage]:
    """A step in the channel, in reading order: what led up to a boxed event (a reveal),
    the box itself as an embed with its picture inside, then what followed it."""
    with i18n.using(table.locale):
        return _public_events(table, events, closing)


def _public_events(table: Table, events: list[Event], closing: str = "") -> list[OutboxMessage]:
    events = [event for event in events if event.seat is None]
    if not events and not closing:
        return []
    renderer = renderer_for(table.kind)
    first = next((i for i, event in enumerate(events)
                  if event.kind in renderer.embed_kinds), len(events))
    boxed = [event for event in events[first:] if event.kind in renderer.embed_kinds]
    before = "\n".join(render(event.text) for event in events[:first])
    after = "\n".join(filter(None, [
        *(render(event.text) for event in events[first:] if event not in boxed), closing,
    ]))
    picture = (outbox.pictures(table.kind, events, [s.name for s in table.seats],
                                 locale=table.locale)
               if renderer.draws(events) else None)
    # Every message of a running table carries Show my hand, so it is never far away.
    view = None if table.require_game().is_over else outbox.board_view(table.table_id)
    channel = table.channel_id
    if not boxed:
        return [Post(channel=channel, content="\n".join(filter(None, [before, after])),
                     view=view, picture=picture)]
    embeds = tuple(_embed(event_embed(event, None)) for event in boxed[:MAX_EMBEDS])
    told: list[OutboxMessage] = [Post(channel=channel, content=before, embeds=embeds,
                                      picture=picture, view=None if after else view)]
    if after:
        told.append(Post(channel=channel, content=after, view=view))
    return told


def _embed(data: dict[str, Any]) -> Embed:
    """A boxed event as `bot.present.render` draws it up, typed for the outbox."""
    image = data.get("image") or {}
    return Embed(data["title"], data["description"], data["color"], image.get("url"))


def letters(table: Table, events: list[Event], actor: int | None) -> list[OutboxMessage]:
    """The DMs this step calls for: seats whose prompt changed or who have private news.
    The actor's is the answer to its click (`Reply`, in the language of the click), which
    its interaction carries where it clicked; no older prompt of its follows it. A prompt
    withdrawn without a new one (a seat timed out, or sits out a playoff hand) loses its
    buttons."""
    game = table.require_game()
    private_seats = {event.seat for event in events if event.seat is not None}
    told: list[OutboxMessage] = []
    for seat, occupant in enumerate(table.seats):
        if occupant.user_id is None:
            continue
        prompt = None if game.is_over else game.prompt(seat)
        stamp, changed = table.stamp(seat)
        news = [event for event in events if event.seat == seat]
        if seat == actor:  # answered where it clicked; its older prompts are moot
            told.append(reply(table, seat, occupant.user_id, stamp, prompt, news))
            continue
        if occupant.user_id in table.dm_closed:
            if not any(event.kind == "hand" for event in news):
                # Closed DMs are tried again once a deal, not at every step; meanwhile their
                # turn is a channel message, since an edited board notifies nobody (or their
                # "Show my hand" view, if they just answered there: `bot.discord.in_place`).
                if changed and prompt is not None:
                    with i18n.using(table.locale):
                        ping = your_turn(occupant.user_id, game_title(game))
                    told.append(Post(channel=table.channel_id, content=ping,
                                     pings=(occupant.user_id,),
                                     turn=turn(table, seat, occupant.user_id, stamp, prompt)))
                continue
            table.dm_closed.remove(occupant.user_id)
        if (not changed or prompt is None) and seat not in private_seats and not game.is_over:
            if prompt is None and changed:
                told.append(Strip(prompt_ref(seat)))
            continue
        drawn = renderer_for(table.kind).draws(news)
        reader = i18n.reader_locale(occupant.user_id, table.locale)
        with i18n.using(reader):
            content = private_text(table, seat, prompt)
            view = outbox.prompt_view(table.table_id, seat, stamp, localized_prompt(prompt))
        with i18n.using(table.locale):
            fallback = closed_dms(occupant.user_id)
        told.append(Post(
            user=occupant.user_id, content=content, view=view,
            picture=outbox.pictures(table.kind, news, [s.name for s in table.seats],
                                    locale=reader)
            if drawn else None,
            ref=prompt_ref(seat), previous="strip",
            fallback=fallback, table_channel=table.channel_id,
            clocks=tuple(key for key, seats in table.fresh_clocks.items() if seat in seats),
            step=table.steps,
        ))
    return told


def reply(table: Table, seat: int, user: int, stamp: str, prompt: Prompt | None,
          news: list[Event]) -> Reply:
    """The answer to a seat's own click: its private view after the step, with the picture
    of a new hand, in the current language (the click's: its person reads it now)."""
    drawn = renderer_for(table.kind).draws(news)
    return Reply(seat=seat, step=table.steps, user=user,
                 content=private_text(table, seat, prompt),
                 view=outbox.prompt_view(table.table_id, seat, stamp, localized_prompt(prompt)),
                 picture=outbox.pictures(table.kind, news, [s.name for s in table.seats])
                 if drawn else None)


def turn(table: Table, seat: int, user: int, stamp: str, prompt: Prompt) -> Turn:
    """What the ping of a seat whose DMs are closed may become instead: its private view
    with the new prompt, shown where its person just answered on "Show my hand"."""
    with i18n.using(i18n.reader_locale(user, table.locale)):
        return Turn(seat=seat, user=user, content=private_text(table, seat, prompt),
                    view=outbox.prompt_view(table.table_id, seat, stamp,
                                            localized_prompt(prompt)))


def step(table: Table, events: list[Event], actor: int | None = None) -> list[OutboxMessage]:
    """Everything a step of a running game tells, in the order it must arrive."""
    if table.require_game().is_over and not table.game_class.chip_game:
        return finish(table, events, actor)
    if table.require_game().is_over:  # a chip table's deal: the table plays on
        table.recent.clear()
        return [*public_events(table, events), board(table), *letters(table, events, actor)]
    if notable(table, events):
        table.recent.clear()
        return [*public_events(table, events), board(table), *letters(table, events, actor)]
    remember(table, events)
    return [live_board(table), *letters(table, events, actor)]


def finish(table: Table, events: list[Event], actor: int | None = None) -> list[OutboxMessage]:
    """The game's end: the last events and who won, the final board, and a last letter to
    everyone but the actor (who sees the end where they clicked)."""
    result = table.require_game().result
    public = "\n".join(event.text for event in events if event.seat is None)
    closing = ""
    with i18n.using(table.locale):
        if result is not None and not result.winners:
            closing = t("🤝 The game ended in a draw.")
        elif result is not None:
            winners = ", ".join(inert(table.seats[seat].name) for seat in result.winners)
            closing = t("🏆 **{winners}** won the game.", winners=winners)
            if result.summary and result.summary not in public:
                closing += " " + render(result.summary)
        closing = "\n".join(filter(None, [closing, replay_line(table)]))
        told = with_replay(table, public_events(table, events, closing))
        final = Edit(BOARD_REF, board_text(table))
    return [*told, final, *letters(table, events, actor)]


def replay_line(table: Table) -> str:
    """A finished game's short id, by which `/replay` and `/stats` find it. A channel's
    readers type commands in their own Discord's language, whatever the table's: a table
    not in English names the command in its language and in English (`/repris` would not
    be found by an English client); the Replay button below needs no typing at all."""
    english = f"/replay game:{table.table_id}"
    local = f"/{command_name('replay')} {command_name('game')}:{table.table_id}"
    if local == english:
        return t("🎞️ Replay: `{command}`, or the button below.", command=english)
    return t("🎞️ Replay: the button below, or `{command}` (in English Discord: `{english}`).",
             command=local, english=english)


def command_name(name: str) -> str:
    """A slash command's or option's name as a Discord client in the current locale shows
    it (`bot.discord.translator`)."""
    return i18n.translate_command(name, i18n.current(), "name") or name


def with_replay(table: Table, told: list[OutboxMessage]) -> list[OutboxMessage]:
    """The last channel message of a game's end carries its Replay button."""
    for index in reversed(range(len(told))):
        message = told[index]
        if isinstance(message, Post) and message.channel is not None:
            told[index] = replace(message, view=outbox.replay_view(table.table_id,
                                                                    table.guild_id))
            break
    return told


def closed(table: Table, text: str, *, tell_channel: bool) -> list[OutboxMessage]:
    """A table that ends unfinished: its lobby or board says so, its prompts lose their
    buttons, and (unless the person who closed it was answered in place) the channel is told."""
    with i18n.using(table.locale):
        return _closed(table, render(text), tell_channel=tell_channel)


def cash_summary(table: Table) -> str:
    """What each player at a cash table won or lost over its deals, as it ends (ended by
    its players or aborted alike): the deals played to the end stand, and a deal cut short
    counts as never dealt (`bot.core.cash_table.net`). Empty for any other table."""
    if not table.game_class.chip_game or table.status != "playing" or not table.seats \
            or len(table.bought) != len(table.seats):
        return ""
    results = " · ".join(f"{inert(seat.name)} {net:+d}"
                         for seat, net in zip(table.seats, cash_table.net(table), strict=True))
    finished = table.deals if cash_table.between_deals(table) else table.deals - 1
    lines = [t_n("The deal played to the end stands; each player's chips won or lost: "
                 "{results}.",
                 "The {n} deals played to the end stand; each player's chips won or lost: "
                 "{results}.", finished, n=finished, results=results)
             if finished else t("No deal was played to the end: nobody won or lost chips.")]
    if not cash_table.between_deals(table) and finished:
        lines.append(t("The deal under way counts as never dealt: its chips went back to "
                       "whoever put them in."))
    return "\n".join(lines)


def _closed(table: Table, text: str, *, tell_channel: bool) -> list[OutboxMessage]:
    told: list[OutboxMessage] = []
    summary = cash_summary(table)
    text = "\n".join(filter(None, [text, summary]))
    if tell_channel and table.status == "playing":  # a cash table its players ended
        told += with_replay(table, [Post(
            channel=table.channel_id, content=f"{text}\n{replay_line(table)}")])
    elif tell_channel:
        told.append(Post(channel=table.channel_id, content=text))
    if table.status == "lobby":
        told.append(Edit("lobby", text))
    else:
        title = render(table.game_class.title)
        told.append(Edit(BOARD_REF, f"**{title}** — {text}"))
        told += [Strip(prompt_ref(seat)) for seat in range(len(table.seats))]
    return told


def warning(table: Table, seats: list[int], deadline: float) -> list[OutboxMessage]:
    """An AFK warning, privately; in the channel for whoever's DMs are closed."""
    title = game_title(table.require_game())
    told: list[OutboxMessage] = []
    for seat in seats:
        user = table.seats[seat].user_id
        if user is None:
            continue
        when = f"<t:{int(deadline)}:R>"
        with i18n.using(i18n.reader_locale(user, table.locale)):
            content = t("⏰ {name}, your time at {title} runs out {when}.",
                        name=inert(table.seats[seat].name), title=title, when=when)
        with i18n.using(table.locale):
            fallback = t("⏰ <@{user}>, your time runs out {when}.", user=user, when=when)
        told.append(Post(user=user, content=content, fallback=fallback,
                         table_channel=table.channel_id))
    return told


def restarted(table: Table) -> list[OutboxMessage]:
    with i18n.using(table.locale):
        notice = t("♻️ I restarted; this table is back exactly where it was. Every button "
                   "works as before; if a prompt of yours is missing, press **Show my hand**.")
        if table.status != "playing":
            return [Post(channel=table.channel_id, content=notice)]
        return [Post(channel=table.channel_id, content=notice,
                     view=outbox.board_view(table.table_id)), board(table)]
