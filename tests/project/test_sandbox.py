"""The sandbox as a person meets it: `python -m bot --sandbox` in a terminal, a whole game typed.

The terminal is a real pseudo-terminal, so the client runs exactly as for a person (readline,
prompts, output arriving while a line is being typed); the bot is the real bot process.
"""

from __future__ import annotations

import doctest
import fcntl
import os
import pty
import re
import select
import signal
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

import pytest

from bot.settings import DEFAULT_DATABASE, load_settings
from loopback.models import Message, SelectOption
from loopback.process import PROJECT_ROOT
from loopback.sandbox import client, render
from loopback.sandbox.client import Numbers, SandboxClient, card_key
from loopback.sandbox.render import plain
from loopback.sandbox.session import (
    database_path,
    pictures_folder,
    pictures_kept,
    sandbox_discord,
)
from tests.support.patience import patient

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b[=>]|\r")


def sandbox_env(tmp_path: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("DISCORD_", "SANDBOX_")) and k != "DATABASE"}
    # The sandbox keeps its database beside the bot's: here, tmp_path/sandbox.sqlite3.
    return env | {"DATABASE": str(tmp_path / "bot.sqlite3"), "COLUMNS": "100",
                  "PYTHONPATH": str(PROJECT_ROOT), "TERM": "xterm"}


class Terminal:
    """A pseudo-terminal with `python -m bot --sandbox` in it, read like a person reads it."""

    def __init__(self, tmp_path: Path) -> None:
        self.tmp_path = tmp_path
        master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 50, 100, 0, 0))
        self.process = subprocess.Popen(
            [sys.executable, "-m", "bot", "--sandbox"], cwd=tmp_path, env=sandbox_env(tmp_path),
            stdin=slave, stdout=slave, stderr=slave, start_new_session=True,
        )
        os.close(slave)
        self.fd = master
        self.output = ""
        self.seen = 0  # what earlier expectations have consumed

    def type(self, line: str) -> None:
        os.write(self.fd, line.encode() + b"\r")

    def expect(self, pattern: str, timeout: float = 20) -> re.Match[str]:
        """The first match of `pattern` in output not yet consumed, waiting for it (up to
        `timeout` as long as a busy machine needs: tests/support/patience.py)."""
        deadline = time.monotonic() + patient(timeout)
        regex = re.compile(pattern)
        while True:
            found = regex.search(self.output, self.seen)
            if found:
                self.seen = found.end()
                return found
            left = deadline - time.monotonic()
            if left <= 0 or not self._read(left):
                raise AssertionError(f"never saw {pattern!r}; the terminal showed:\n"
                                     f"{self.output[-3000:]}\n--- bot log ---\n{self.log()}")

    def _read(self, timeout: float) -> bool:
        ready, _, _ = select.select([self.fd], [], [], min(timeout, 0.5))
        if not ready:
            return True
        try:
            data = os.read(self.fd, 65536)
        except OSError:  # EIO: the other side closed
            data = b""
        if not data:
            return False
        self.output += ANSI.sub("", data.decode("utf-8", errors="replace"))
        return True

    def log(self) -> str:
        path = self.tmp_path / "sandbox.sqlite3.log"
        return path.read_text(errors="replace")[-3000:] if path.exists() else "(no log)"

    def wait(self, timeout: float = 20) -> int:
        deadline = time.monotonic() + patient(timeout)
        while self.process.poll() is None and time.monotonic() < deadline:
            self._read(0.2)
        return self.process.wait(timeout=1)

    def close(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()
        os.close(self.fd)


@pytest.fixture
def terminal(tmp_path: Path):
    screen = Terminal(tmp_path)
    try:
        yield screen
    finally:
        screen.close()


def test_a_whole_sppoker_game_typed_in_the_terminal(terminal: Terminal, tmp_path: Path) -> None:
    terminal.expect(r"alice in #general> ", timeout=40)
    terminal.type("help")
    terminal.expect(r"/sppoker start \[target:")

    terminal.type("/sppoker start target:1")
    add_ai = terminal.expect(r"\[(\d+)\] Add AI")[1]
    terminal.type(f"click {add_ai}")  # by number
    terminal.expect(r"2\. AI 1 \(AI\)")
    terminal.type("click start")  # by label, in any case
    terminal.expect(r"DM from Dealer to you")
    terminal.expect(r"\[\d+\] Spelling")

    terminal.type("click dm Spelling")  # a modal: the client asks for its field
    terminal.expect(r"The bot opened a form: Spelling")
    terminal.expect(r"Your word \(letters: [A-Z ]+\): ")
    terminal.type("qqqq")
    terminal.expect(r"QQQQ is not valid")  # not declared: asked again
    terminal.type("click dm Poker")
    terminal.expect(r"Your declaration: poker")
    for _ in range(8):  # a hand nobody wins leads to another; target 1 ends it soon
        outcome = terminal.expect(r"🏆 (\w[\w ]*) won|\[(\d+)\] Next hand")
        if outcome[1]:
            break
        terminal.type(f"click {outcome[2]}")
        terminal.expect(r"\[\d+\] Poker")
        terminal.type("click dm Poker")
    else:
        raise AssertionError("no one won in 8 hands")

    terminal.type("/leaderboard game:sppoker")
    terminal.expect(r"Sppoker — by wins")
    terminal.type("quit")
    terminal.expect(r"Bye\.")
    assert terminal.wait() == 0
    assert (tmp_path / "sandbox.sqlite3").exists()


def test_piped_commands_read_as_a_transcript(tmp_path: Path) -> None:
    """No terminal (a script, CI): no prompts or control codes, each command echoed."""
    done = subprocess.run(
        [sys.executable, "-m", "bot", "--sandbox"], cwd=tmp_path, env=sandbox_env(tmp_path),
        input="as bob\n/table status\nclick Nothing\nquit\n", capture_output=True, text=True,
        timeout=patient(60),
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "\x1b" not in done.stdout
    assert "bob in #general> /table status" in done.stdout
    assert "No button 'Nothing'" in done.stdout
    assert done.stdout.rstrip().endswith("Bye.")


def test_the_sandbox_server_has_the_same_ids_every_session() -> None:
    """Scores and unfinished tables in the sandbox's database belong to these ids."""
    first, second = sandbox_discord(), sandbox_discord()
    assert first.state.guild.id == second.state.guild.id
    assert [u.id for u in first.users] == [u.id for u in second.users]
    assert first.channel("games").id == second.channel("games").id
    assert abs(first.clock.time() - time.time()) < 60  # pinned only while ids were made


def test_numbers_stay_with_their_button_and_are_reused() -> None:
    numbers = Numbers()
    assert numbers.assign(1, ["join", "leave", "start"]) == {"join": 1, "leave": 2, "start": 3}
    assert numbers.assign(2, ["poker", "spell"]) == {"poker": 4, "spell": 5}
    assert numbers.assign(1, ["join", "start"]) == {"join": 1, "start": 3}  # lobby edited
    numbers.keep_only(2, set())  # the prompt was answered
    assert numbers.assign(3, ["a", "b", "c"]) == {"a": 4, "b": 5, "c": 6}  # a free run
    assert numbers.assign(4, ["x"]) == {"x": 2}
    target = numbers.target(3)
    assert target is not None and (target.message_id, target.custom_id) == (1, "start")


def test_discord_markup_reads_as_plain_text() -> None:
    names = {7: "general", 8: "Bob"}.get
    text = "**Poke** in <#7> — <@8>, your time runs out <t:1060:R>.\n```\nWE   THEY\n```\n`x`"
    assert plain(text, names, now=1000) == (
        "Poke in #general — @Bob, your time runs out in 1 minute.\nWE   THEY\nx")
    assert card_key("A♥") == card_key("ah") and card_key("10♣") == card_key("Tc")


def test_a_message_with_buttons_and_a_menu() -> None:
    message = Message(1, 2, 3, content="Your hand: A♥ K♦", components=[
        {"type": 1, "components": [
            {"type": 2, "label": "Stand pat", "custom_id": "s", "style": 1},
            {"type": 2, "label": "Gone", "custom_id": "g", "style": 2, "disabled": True}]},
        {"type": 1, "components": [
            {"type": 3, "custom_id": "d", "placeholder": "Draw", "min_values": 1,
             "max_values": 2, "options": [{"label": "A♥", "value": "Ah"},
                                          {"label": "K♦", "value": "Kd"}]}]},
    ])
    block = render.render(message, where="DM", numbers={"s": 1, "d": 2}, attachments=["h.png"])
    assert block.lines(60) == [
        "-- DM " + "-" * 54,
        "  Your hand: A♥ K♦",
        "  [file] h.png",
        "  [1] Stand pat   [-] Gone",
        "  [2] menu: Draw — choose 1 to 2",
        "      A♥ (Ah)  ·  K♦ (Kd)",
    ]


@pytest.mark.parametrize("module", [render, client])
def test_doctests(module: object) -> None:
    assert doctest.testmod(module).failed == 0  # type: ignore[arg-type]


def test_the_sandbox_keeps_its_database_beside_the_bots_database(tmp_path: Path) -> None:
    settings = load_settings({"DATABASE": str(tmp_path / "srv" / "bot.sqlite3")}, env_file=None)
    assert database_path(settings) == tmp_path / "srv" / "sandbox.sqlite3"
    # By default in the data directory the README names (data/), never the bot's own file.
    default = database_path(load_settings({}, env_file=None))
    assert default == DEFAULT_DATABASE.parent / "sandbox.sqlite3" != DEFAULT_DATABASE


def test_the_piped_sandbox_says_where_it_keeps_scores(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "bot", "--sandbox"], cwd=tmp_path / "..",
        env=sandbox_env(tmp_path) | {"SANDBOX_DATABASE": str(tmp_path / "ignored.sqlite3")},
        input="quit\n", capture_output=True, text=True, timeout=patient(60),
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"Scores are kept in {tmp_path.name}/sandbox.sqlite3" in done.stdout
    assert (tmp_path / "sandbox.sqlite3").exists()
    assert f"Pictures the bot sends are saved in {tmp_path.name}/sandbox-pictures/" in done.stdout
    assert not list((tmp_path / "sandbox-pictures").iterdir())  # none came: no empty folder
    assert not (tmp_path / "ignored.sqlite3").exists()


class Screen:
    """What the sandbox client prints, collected."""

    width = 80

    def __init__(self) -> None:
        self.lines: list[str] = []

    def show(self, lines: list[str]) -> None:
        self.lines += lines


def prompt_payload(text: str, label: str) -> dict[str, object]:
    return {"content": text, "components": [{"type": 1, "components": [
        {"type": 2, "label": label, "custom_id": f"id-{label}", "style": 1}]}]}


def test_an_old_prompt_losing_its_buttons_is_not_printed_below_the_new_one(tmp_path) -> None:
    discord = sandbox_discord()
    screen = Screen()
    sandbox = SandboxClient(discord, screen, files=tmp_path)  # type: ignore[arg-type]
    state = discord.state
    dm = state.dm_channel(state.users[discord.users[0].id])
    old = state.create_message(dm, prompt_payload("Declare now.", "Poker"), [])
    sandbox.drain()
    assert any("[1] Poker" in line for line in screen.lines)
    screen.lines.clear()
    # The bot's burst: the next prompt, then the old one edited to lose its buttons.
    state.create_message(dm, prompt_payload("Hand 2: declare now.", "Spelling"), [])
    state.edit_message(old, {"content": "Nothing is needed from you right now.",
                             "components": []}, [])
    sandbox.drain()
    text = "\n".join(screen.lines)
    assert "Hand 2: declare now." in text and "Spelling" in text
    assert "Nothing is needed" not in text  # the screen ends on the prompt that waits


def test_a_prompt_withdrawn_without_a_new_one_is_shown_edited(tmp_path) -> None:
    discord = sandbox_discord()
    screen = Screen()
    sandbox = SandboxClient(discord, screen, files=tmp_path)  # type: ignore[arg-type]
    state = discord.state
    dm = state.dm_channel(state.users[discord.users[0].id])
    old = state.create_message(dm, prompt_payload("Declare now.", "Poker"), [])
    sandbox.drain()
    state.edit_message(old, {"content": "Nothing is needed from you right now.",
                             "components": []}, [])
    sandbox.drain()
    assert "  Nothing is needed from you right now." in screen.lines
    assert any("edited" in line for line in screen.lines)


def test_a_picture_for_an_earlier_message_does_not_bury_the_new_prompt(tmp_path) -> None:
    """The answer to a click (no buttons) gets its hand's picture after the next prompt came:
    only the picture is mentioned, and the screen still ends on the prompt that waits."""
    discord = sandbox_discord()
    screen = Screen()
    sandbox = SandboxClient(discord, screen, files=tmp_path)  # type: ignore[arg-type]
    state = discord.state
    dm = state.dm_channel(state.users[discord.users[0].id])
    answered = state.create_message(dm, {"content": "Nothing is needed from you right now."}, [])
    sandbox.drain()
    state.create_message(dm, prompt_payload("The second buy.", "Stand pat"), [])
    sandbox.drain()
    screen.lines.clear()
    state.edit_message(answered, {"content": "Nothing is needed from you right now.",
                                  "components": []}, [])
    sandbox.drain()
    assert not any("Nothing is needed" in line for line in screen.lines)


def menu_payload(text: str, menus: dict[str, list[tuple[str, str]]]) -> dict[str, object]:
    """A message with menus: custom id -> (label, value) options."""
    return {"content": text, "components": [
        {"type": 1, "components": [{"type": 3, "custom_id": custom_id, "min_values": 1,
                                    "max_values": 2, "options": [
                                        {"label": label, "value": value}
                                        for label, value in options]}]}
        for custom_id, options in menus.items()]}


def test_pick_means_the_hands_menu_though_a_replay_page_is_open_elsewhere(tmp_path) -> None:
    """Issue 23: `pick Ah` answered "Which menu?" while a replay page (two menus) was open
    in another channel: the menu meant is the one that offers what was typed, else the one
    here (this channel or the DMs)."""
    discord = sandbox_discord()
    sandbox = SandboxClient(discord, Screen(), files=tmp_path)  # type: ignore[arg-type]
    state = discord.state
    alice = state.users[discord.users[0].id]
    dm = state.dm_channel(alice)
    state.create_message(dm, menu_payload("Your hand.", {"cards": [("A♥", "Ah"),
                                                                   ("K♦", "Kd")]}), [])
    replay = state.create_message(state.channel_by_name("games"), menu_payload(
        "Replay", {"who": [("Every hand, face up", "a"), ("What bob knew", "1")],
                   "deal": [("Deal 1", "0"), ("Deal 2", "9")]}), [])
    replay.visible_to = alice.id  # a replay page is the person's own
    sandbox.drain()
    assert sandbox.channel == "general"
    for words in (["Ah"], ["k♦", "ah"], []):
        message, custom_id = sandbox._only_menu(words)
        assert custom_id == "cards" and message.channel_id == dm.id
    _, custom_id = sandbox._only_menu(["What bob knew"])  # what was typed says which
    assert custom_id == "who"
    sandbox.go("games")  # there, both the replay's menus and the hand's are at hand
    with pytest.raises(client.SandboxError, match="Which menu"):
        sandbox._only_menu([])


def test_bold_around_a_line_break_reads_as_the_client_shows_it() -> None:
    """Issue 23: bold spanning lines showed its raw `**` in the sandbox; Discord shows none.
    Never across a code fence."""
    assert plain("**Round 2 is over.\nTotals: alice 40.**") == "Round 2 is over.\nTotals: alice 40."
    assert plain("__a\nb__ and ~~c~~") == "a\nb and c"
    assert plain("**x\n```\ny**\n```") == "**x\ny**"


def test_the_sessions_pictures_are_kept_beside_its_database(tmp_path: Path) -> None:
    """Issue 23: the banner says pictures are saved, and quitting deleted them: they are
    kept, a folder per session beside the sandbox's database, and the end says where. A
    session that got no picture leaves no empty folder."""
    settings = load_settings({"DATABASE": str(tmp_path / "bot.sqlite3")}, env_file=None)
    first = pictures_folder(settings, now=1_700_000_000)
    second = pictures_folder(settings, now=1_700_000_000)
    assert first.parent == second.parent == tmp_path / "sandbox-pictures" and first != second
    (first / "001-hand.png").write_bytes(b"png")
    said = pictures_kept(first)
    assert said and first.name in said[0] and (first / "001-hand.png").exists()
    assert pictures_kept(second) == [] and not second.exists()


def test_picking_a_card_twice_takes_both_copies() -> None:
    """Po-Ke-No's menu has a choice per copy of a card held twice, reading the same: typing
    it twice picks both, not the first twice (a menu's values must differ)."""
    options = [SelectOption("K♦", "Kd"), SelectOption("K♦", "K♦"), SelectOption("A♥", "Ah")]
    picked: list[str] = []
    for word in ("K♦", "kd", "ah"):
        picked.append(client._option_value(options, word, "", picked))
    assert picked == ["Kd", "K♦", "Ah"]
    with pytest.raises(client.SandboxError, match="not one of the options"):
        client._option_value(options, "Kd", "", picked)
