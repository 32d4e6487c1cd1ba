"""A whole Poängpoker game in Swedish through the real bot and the loopback Discord (its rate
limits on): the server's `/table settings locale:sv` puts the channel's messages (lobby,
board, narration, the end) in Swedish, a player whose Discord speaks Swedish gets Swedish DMs
and buttons, one whose Discord speaks English gets English in private, and the slash commands
were registered with their Swedish names and descriptions."""

from __future__ import annotations

import re

from tests.e2e.conftest import World
from tests.e2e.helpers import AutoPlayer, channel_text, open_table
from tests.support.autoplay import SWEDISH

# English the channel and a Swedish reader's DMs must not show (names are Alice, Bob, AI 1).
ENGLISH = re.compile(r"\b(Deal \d|wins|won the game|Your hand|Scores|Trick \d|leads|plays|"
                     r"stands pat|exchanges|the best hand|Waiting for|Show my hand|Join)\b")


async def test_a_whole_poangpoker_game_in_swedish(world: World) -> None:
    discord = world.discord
    alice, bob, carol = discord.user("alice"), discord.user("bob"), discord.user("carol")
    general = discord.channel("general")
    alice.user.locale = "sv-SE"
    bob.user.locale = "sv-SE"  # carol's Discord speaks English

    # The commands went to Discord with their Swedish names and descriptions.
    commands = {c["name"]: c for c in discord.state.commands[None]}
    table = commands["table"]
    assert table["name_localizations"]["sv-SE"] == "bord"
    settings = next(o for o in table["options"] if o["name"] == "settings")
    assert settings["description_localizations"]["sv-SE"] == "Serverns bordsinställningar"
    assert commands["poangpoker"]["name_localizations"]["sv-SE"] == "poängpoker"

    shown = await alice.slash(general, "table settings locale:sv")
    assert shown.ephemeral and "Den här serverns inställningar" in shown.text, shown.text
    assert "**svenska**" in shown.text  # the language as a Swedish sentence names it
    # The rules: in Swedish for Bob, in English for Carol, whose own locale is English.
    rules = await bob.slash(general, "poangpoker rules")
    assert "Sista sticket" in rules.text and "Köpstopp" in rules.text, rules.text[:200]
    english_rules = await carol.slash(general, "poangpoker rules")
    assert "trick" in english_rules.text.lower()

    await open_table(discord, alice, general, "poangpoker start", [bob], ai=1, words=SWEDISH)
    lobby = next(m for m in general.messages() if "ett bord är öppet" in m.text)
    assert "ett bord är öppet" in lobby.text and "Startat" in lobby.text, lobby.text

    player = AutoPlayer(discord, general, [alice, bob], seed=31, words=SWEDISH)
    await player.play()

    text = channel_text(general)
    assert player.winners(), text[-500:]
    assert "Giv 1:" in text and "vann spelet" in text and "Slutställning" in text
    assert re.search(r"(spelar ut|lägger) ", text) and "sista sticket" in text
    assert not ENGLISH.search(text), ENGLISH.search(text)
    board = player.board() or general.last_message
    assert board is not None
    assert all(button.label != "Show my hand" for button in board.buttons())

    dms = "\n".join(version for message in bob.dms()
                    for version in [message.text, *(v.content for v in message.history)])
    assert "Din pokerhand" in dms and "— du är **Bob**" in dms
    assert not ENGLISH.search(dms), ENGLISH.search(dms)
    # The autoplayer clicks by the Swedish labels ("Stå över", the card menu "Släng och dra").
    assert any(move.what == "Stå över" for move in player.moves), [m.what for m in player.moves]
    assert any(move.kind == "exchange" for move in player.moves)
    assert any(move.kind == "play" for move in player.moves)
    # The board and the record after it, public, in the server's language.
    board = await carol.slash(general, "leaderboard game:poangpoker order:wins")
    assert board.message is not None and "efter vinster" in board.message.text, board.text
    assert "vunna av 1" in board.message.text
    stats = await alice.slash(general, "stats")
    assert stats.message is not None and "spelat 1, vunnit" in stats.message.text, stats.text
    discord.assert_no_errors()
