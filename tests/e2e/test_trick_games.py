"""Poke, Poängpoker and Chicago played to the end through the real bot, by their buttons.

These are the first runs of the trick games through Discord, so whole games are played: every
prompt shape (draws, buys, the Chicago call, cards that may not be played, sets in Poke),
every deal end and the final result meet the real components, DMs and the store. All along,
a `SecretWatch` makes sure the channel never shows a card still hidden in someone's hand.
"""

from __future__ import annotations

import asyncio
import re

from loopback import LoopbackDiscord
from loopback.handles import ChannelHandle, UserHandle
from tests.e2e.conftest import World
from tests.e2e.helpers import AutoPlayer, Move, channel_text, open_table, settle

SHOWING = re.compile(r"showing (?P<cards>[^.]+)\.")  # Chicago's interim scoring shows cards
RESHUFFLE = "The stock has run out"
RESTARTED = "back exactly where it was"


def public_texts(discord: LoopbackDiscord, channel: ChannelHandle) -> str:
    """Everything the channel ever showed, edits and deleted boards included, in order;
    straight from the records, since it is read after every move."""
    parts = []
    for message in discord.state.messages.values():
        if message.channel_id == channel.id and message.visible_to is None:
            parts += [version.content for version in message.history]
            parts.append(message.content)
    return "\n".join(parts)


def deal_text(text: str, deal: int) -> str:
    """The channel's text of one deal, up to (not including) the hands' reveal."""
    start = text.find(f"Deal {deal}: ")
    if start < 0:
        return ""
    ends = [text.find(marker, start) for marker in ("Hands: ", f"Deal {deal} is over")]
    end = min((found for found in ends if found >= 0), default=len(text))
    return text[start:end]


class SecretWatch:
    """Fails the moment the channel shows a card that is still secret: one a player holds
    (as their newest private view shows it) or threw away this deal. Played cards and the
    cards Chicago's interim scoring shows are public; so is a thrown card once the stock ran
    out and the discards went back into play."""

    def __init__(self, player: AutoPlayer) -> None:
        self.player = player
        self.thrown: dict[tuple[str, int], set[str]] = {}
        self.checks = 0
        player.on_move.append(self.moved)

    def moved(self, move: Move) -> None:
        if move.kind == "exchange" and move.deal is not None:
            gone = set(move.before) - set(move.after)
            self.thrown.setdefault((move.player, move.deal), set()).update(gone)
        self.check()

    def check(self) -> None:
        self.checks += 1
        text = public_texts(self.player.discord, self.player.channel)
        for seat in self.player.seats:
            deal, hand = self.player.hand_of(seat.user)
            if deal is None:
                continue
            public = deal_text(text, deal)
            secret = set(hand)
            if RESHUFFLE not in public:
                secret |= self.thrown.get((seat.user.name, deal), set())
            for shown in SHOWING.finditer(public):
                secret -= set(shown["cards"].split())
            # A card the channel says this seat played is public, even while the seat's own
            # view still holds it: a deferred answer (a busy machine) edits the seat's DM
            # after the step's narration may already be out.
            played = re.compile(rf"› {re.escape(seat.user.name)} (?:plays|leads) (\S+?)\.",
                                re.IGNORECASE)  # the channel says "Dave" for user dave
            secret -= {found[1] for found in played.finditer(public)}
            leaked = sorted(card for card in secret if card in public)
            assert not leaked, (f"deal {deal}: the channel shows {leaked} of {seat.user.name}'s "
                                f"secret cards {sorted(secret)}:\n{public[-1500:]}")

    def check_pictures(self) -> None:
        """A hand's picture goes by DM only; the hands' picture comes with a deal's end."""
        for message in self.player.channel.messages(include_deleted=True):
            names = [attachment.filename for attachment in message.attachments]
            assert "hand.png" not in names, f"a private hand was posted: {message.content!r}"
            if "hands.png" in names:
                assert "is over" in message.content, message.content


def mid_deal(player: AutoPlayer, deal: int) -> bool:
    """A trick of `deal` is done (someone has played their second card of it) and a person
    (not the AI) has a question waiting: a moment when a kill loses nothing that was already
    shown. (Or, in theory, a royal straight flush ended the game first.) Read from the moves,
    not the channel: at Discord's pace the board trails the play and skips versions."""
    if player.winners() is not None:
        return True
    plays = sum(1 for move in player.moves if move.kind == "play" and move.deal == deal)
    return plays > len(player.seats) and bool(player.pending())


async def assert_recorded(user: UserHandle, channel: ChannelHandle, kind: str,
                          player: AutoPlayer) -> None:
    """Every person of the finished game is on its leaderboard, the winner with a win."""
    answer = await user.slash(channel, f"leaderboard game:{kind}")
    board = answer.message.text.replace("*", "") if answer.message else ""
    winners = player.winners() or ""
    for seat in player.seats:
        name = seat.user.name.title()
        wins = 1 if name in winners.split(", ") else 0
        assert re.search(rf"\d+\. {name} — {wins} won of 1\b", board), (kind, name, board)


async def test_poke_two_users_play_a_whole_rubber(world: World) -> None:
    discord = world.discord
    alice, bob = discord.user("alice"), discord.user("bob")
    general = discord.channel("general")
    await open_table(discord, alice, general, "poke start", [bob])
    player = AutoPlayer(discord, general, [alice, bob], seed=11)
    watch = SecretWatch(player)

    await player.play()

    text = channel_text(general)
    assert player.winners() in ("Alice", "Bob", ""), player.winners()
    assert "completes the rubber" in text
    assert any(move.kind == "play" for move in player.moves)
    assert watch.checks == len(player.moves)
    watch.check_pictures()
    await assert_recorded(alice, general, "poke", player)
    discord.assert_no_errors()


async def test_poangpoker_and_chicago_at_two_tables_across_a_kill_9(world: World) -> None:
    """Poängpoker in #general and Chicago in #games at once, two players at both tables
    (their DMs from the two tables interleave) and Dave with DMs closed, playing by "Show my
    hand". Both are killed -9 mid-deal; the buttons shown before the kill finish them."""
    discord, bot = world.discord, world.bot
    alice, bob, carol, dave = (discord.user(name) for name in ("alice", "bob", "carol", "dave"))
    general, games = discord.channel("general"), discord.channel("games")
    dave.close_dms()
    await open_table(discord, alice, general, "poangpoker start", [bob, carol], ai=1)
    await open_table(discord, bob, games, "chicago start", [carol, dave], ai=1)
    poang = AutoPlayer(discord, general, [alice, bob, carol], seed=21)
    chicago = AutoPlayer(discord, games, [bob, carol, dave], seed=22, call_chance=0.03)
    watches = [SecretWatch(poang), SecretWatch(chicago)]

    await asyncio.gather(poang.play(until=lambda: mid_deal(poang, 2)),
                         chicago.play(until=lambda: mid_deal(chicago, 2)))
    await settle(discord, world.database)  # the narration has caught up
    last_before_kill = max(discord.state.messages)
    moves_before = [len(poang.moves), len(chicago.moves)]
    await bot.restart()
    for channel in (general, games):
        await discord.wait_for(lambda channel=channel: RESTARTED in channel_text(channel),
                               message=f"#{channel.name} was not told the table is back")

    await asyncio.gather(poang.play(), chicago.play())

    for player, before in zip((poang, chicago), moves_before, strict=True):
        # Dave (DMs closed) answers on the view "Show my hand" opens. The restarted bot posts
        # a new board saying whom it waits for, and when that is Dave he presses the button
        # again, as a person would: his answer is then to a view newer than the kill (the
        # likely cause of a rare failure in #games). Anyone else's first answer must be to a
        # prompt shown before the kill.
        first = [move for move in player.moves[before:][:1] if move.player != dave.name]
        assert all(move.message_id <= last_before_kill for move in first), (
            f"#{player.channel.name}: the first answer after the kill was not to a prompt "
            f"shown before it (the newest message then was {last_before_kill}): {first}")
    assert f"{dave.mention}, I can't send you direct messages" in channel_text(games)
    assert any(move.player == "dave" for move in chicago.moves)
    for watch in watches:
        watch.check()
        watch.check_pictures()
    await assert_recorded(alice, general, "poangpoker", poang)
    await assert_recorded(bob, games, "chicago", chicago)
    # Every board is saved as it is posted, so a restart removes the right one: no 404s.
    unexpected = [e for e in discord.errors() if e.code != 50007]
    assert not unexpected, unexpected  # 50007: Dave's closed DMs, tried once a deal
