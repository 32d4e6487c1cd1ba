"""The sandbox's terminal client: a person plays on the loopback Discord by typing.

Everything goes through the loopback driver, i.e. through what a Discord user can do (slash
commands, visible buttons and menus, modals), so the bot answers exactly as it would on
Discord. What the person sees is what that user would see: public channel messages, their
own DMs and their own ephemeral replies, printed as they arrive or change.

Buttons and menus get short numbers. A component keeps its number for as long as it is on
screen, and numbers of components that went away are reused, so numbers stay small over a
long session and the Join button does not change number each time the lobby is edited.
"""

from __future__ import annotations

import asyncio
import shlex
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from loopback import InteractionResult, LoopbackDiscord, LoopbackError, Message, UserHandle
from loopback.commands import shown_name
from loopback.models import Attachment, Channel
from loopback.sandbox.render import button_text, option_text, render, select_rule
from loopback.sandbox.terminal import Terminal

SETTLE_SECONDS = 0.08  # the bot often edits, deletes and posts in one burst: print it once
FLUSH_SECONDS = 0.5  # after a command, how long to wait for its answer before the prompt

HELP = """\
Type what you would type in Discord, or one of the sandbox's own commands:

  /sppoker start target:3   a slash command, run in the current channel
  click Join                click the newest button with that label (or a unique start
                            of it: "click add" for Add AI)
  click 4                   click the button numbered [4] ([-] marks a disabled one)
  click dm Poker            only look at your DMs (or "click #games Join")
  pick Ah Kd                choose options in the menu that offers them (by label or
                            value; the one here if several do)
  pick 6 Ah Kd              choose in the menu numbered [6]; "pick 6 none" for nothing
  as bob                    be someone else (bob, carol, dave...); "as" lists everyone
  #games                    type slash commands in another channel
  look [n]                  show the channel's last n messages again (default 5)
  dms [n]                   show your last n DMs again (default 3)
  help                      this text, and the bot's slash commands
  quit                      stop the bot and leave (Ctrl-D works too)

When the bot opens a form (a modal), you are asked for each field in turn;
an empty answer to a required field closes the form without sending it."""

CLIENT_SLASH_WORDS = {"as", "help", "quit", "exit"}


@dataclass(frozen=True)
class Target:
    """A numbered component: which message it is on and what it is."""

    message_id: int
    custom_id: str


class Numbers:
    """The short numbers printed beside buttons and menus, reused once a component is gone."""

    def __init__(self) -> None:
        self._numbers: dict[Target, int] = {}
        self._targets: dict[int, Target] = {}

    def assign(self, message_id: int, custom_ids: list[str]) -> dict[str, int]:
        """Numbers for a message's components: the ones they had, and for new ones the
        lowest free run, so that a message's buttons read 5 6 7 rather than 1 5 6."""
        self.keep_only(message_id, set(custom_ids))
        new = [c for c in custom_ids if Target(message_id, c) not in self._numbers]
        start = 1
        while any(n in self._targets for n in range(start, start + len(new))):
            start += 1
        for number, custom_id in enumerate(new, start):
            target = Target(message_id, custom_id)
            self._numbers[target] = number
            self._targets[number] = target
        return {c: self._numbers[Target(message_id, c)] for c in custom_ids}

    def keep_only(self, message_id: int, custom_ids: set[str]) -> None:
        """Free the numbers of a message's components that it no longer has."""
        for target in [t for t in self._numbers if t.message_id == message_id]:
            if target.custom_id not in custom_ids:
                del self._targets[self._numbers.pop(target)]

    def target(self, number: int) -> Target | None:
        return self._targets.get(number)


class SandboxError(Exception):
    """Something the person typed cannot be done; the message says why and what to type."""


class SandboxClient:
    def __init__(self, discord: LoopbackDiscord, terminal: Terminal, *, files: Path,
                 channel: str = "general") -> None:
        self.discord = discord
        self.state = discord.state
        self.terminal = terminal
        self.files = files
        self.me: UserHandle = discord.users[0]
        self.channel = channel
        self.numbers = Numbers()
        self._cursor = len(self.state.feed)
        self._printed: set[int] = set()
        self._had_buttons: set[int] = set()  # printed with buttons one could click
        self._latest: dict[int, int] = {}  # channel id -> the newest message one sees there
        self._unseen: dict[int, list[int]] = {}  # user id -> messages they have not seen
        self._saved: dict[int, Path] = {}  # attachment id -> where it was saved

    # --- the session ------------------------------------------------------------------

    async def run(self, stopped: Awaitable[int | None] | None = None) -> int | None:
        """Read and run commands until `quit` or end of input (None), or until `stopped`
        finishes first (the bot died): then its result."""
        follower = asyncio.create_task(self.follow())
        repl = asyncio.create_task(self._repl())
        waits: set[asyncio.Future[Any]] = {repl}
        if stopped is not None:
            waits.add(asyncio.ensure_future(stopped))
        try:
            done, _ = await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
            self.drain()
            if repl in done:
                repl.result()
                return None
            return next(iter(done)).result()  # type: ignore[no-any-return]
        finally:
            tasks = (follower, repl, *waits)
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)

    async def _repl(self) -> None:
        while True:
            line = await self.terminal.ask(self.prompt)
            if line is None:
                self.say("")
                return
            try:
                if not await self.handle(line):
                    return
            except SandboxError as error:
                self.say(str(error))
            except LoopbackError as error:
                self.say(f"Discord would not let you: {error}")

    @property
    def prompt(self) -> str:
        return f"{self.me.name} in #{self.channel}> "

    def say(self, *lines: str) -> None:
        self.terminal.show(list(lines))

    # --- what the person sees ---------------------------------------------------------

    async def follow(self) -> None:
        """Print changes as they happen, a burst at a time."""
        while True:
            await self.state.changed(1.0)
            if self._cursor < len(self.state.feed):
                await asyncio.sleep(SETTLE_SECONDS)
                self.drain()

    async def flush(self) -> None:
        """Give the bot a moment to answer, then print it, so the answer comes before the
        next prompt; a slow answer is printed whenever it comes."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + FLUSH_SECONDS
        while self._cursor >= len(self.state.feed) and loop.time() < deadline:
            await self.state.changed(0.05)
        if self._cursor < len(self.state.feed):
            await asyncio.sleep(SETTLE_SECONDS)
        self.drain()

    def drain(self) -> None:
        """Print every message changed since the last drain, once, in its latest state;
        for someone else's new DMs, one line saying so."""
        batch = self.state.feed[self._cursor:]
        self._cursor += len(batch)
        created = {message_id for change, message_id in batch if change == "created"}
        for message_id in sorted(created):
            message = self.state.messages[message_id]
            if self._owner(message) in (None, self.me.id):
                latest = self._latest.get(message.channel_id, 0)
                self._latest[message.channel_id] = max(latest, message_id)
        noted: list[str] = []
        for message_id in dict.fromkeys(message_id for _, message_id in batch):
            message = self.state.messages[message_id].snapshot()
            owner = self._changed(message)
            if owner is not None and message_id in created and self._is_dm(message):
                name = self.state.users[owner].name
                if name not in noted:
                    noted.append(name)
                    self.say(f"  ({name} got a DM; to read it, type: as {name})")

    def _changed(self, message: Message) -> int | None:
        """Show a changed message if it is for our eyes; else the user it is for."""
        if message.deleted:
            self.numbers.keep_only(message.id, set())
            return None
        self.numbers.keep_only(message.id, set(_enabled_ids(message)))
        if message.loading:
            return None  # "Dealer is thinking...": shown when it is filled in
        owner = self._owner(message)
        if owner is None or owner == self.me.id:
            if self._superseded(message):
                self._had_buttons.discard(message.id)
            elif self._quietly_updated(message):
                for attachment in message.attachments:
                    if attachment.id not in self._saved:
                        self.say(f"  (a picture came for an earlier message: "
                                 f"{self._save(attachment)})")
            else:
                self._print(message)
            return None
        self._unseen.setdefault(owner, []).append(message.id)
        return owner

    def _superseded(self, message: Message) -> bool:
        """An old prompt edited to lose its buttons, with a newer message below it (the next
        prompt): printing it again would put it under that prompt, and the screen would end
        on "Nothing is needed from you" while a prompt waits just above. Discord leaves it
        where it was, up the scroll; so does the sandbox."""
        return (
            message.id in self._had_buttons
            and not _enabled_ids(message)
            and self._latest.get(message.channel_id, 0) > message.id
        )

    def _quietly_updated(self, message: Message) -> bool:
        """An earlier message without buttons that changes again once newer ones are below
        it (a hand's picture attached after the click was answered): reprinting it whole
        would bury the newer prompt, so only what it gained is said."""
        return (
            message.id in self._printed
            and not _enabled_ids(message)
            and self._latest.get(message.channel_id, 0) > message.id
        )

    def _is_dm(self, message: Message) -> bool:
        return self.state.channels[message.channel_id].is_dm

    def _owner(self, message: Message) -> int | None:
        """Whose eyes only a message is for (an ephemeral reply, a DM), or None if public."""
        if message.visible_to is not None:
            return message.visible_to
        channel = self.state.channels[message.channel_id]
        return channel.recipient_id if channel.is_dm else None

    def _print(self, message: Message) -> None:
        channel = self.state.channels[message.channel_id]
        if channel.is_dm:
            where = f"DM from {self.state.users[message.author_id].name.title()} to you"
        else:
            where = f"#{channel.name}"
        notes = []
        if message.visible_to is not None:
            notes.append("only you can see this")
        used = self._command_used(message)
        if used:
            notes.append(used)
        if message.id in self._printed and message.edited_at is not None:
            notes.append("edited")
        self._printed.add(message.id)
        enabled = _enabled_ids(message)
        if enabled:
            self._had_buttons.add(message.id)
        else:
            self._had_buttons.discard(message.id)
        numbers = self.numbers.assign(message.id, enabled)
        block = render(message, where=where, numbers=numbers, names=self._name,
                       attachments=[str(self._save(a)) for a in message.attachments],
                       notes=notes, now=self.discord.clock.time(),
                       locale=self.me.user.locale or "en-US")
        self.say(*block.lines(self.terminal.width))

    def _command_used(self, message: Message) -> str | None:
        """Discord's "alice used /table status" line above a slash command's reply."""
        interaction = self.state.interactions.get(message.interaction_id or 0)
        if interaction is None or interaction.type != 2:
            return None
        words = [interaction.data.get("name", "?")]
        options = interaction.data.get("options") or []
        while options and options[0].get("type") in (1, 2):
            words.append(options[0]["name"])
            options = options[0].get("options") or []
        who = self.state.users[interaction.user_id].name
        return f"{who} used /{' '.join(words)}"

    def _name(self, ident: int) -> str | None:
        user = self.state.users.get(ident)
        if user is not None:
            return user.name if user.bot else user.name.title()
        channel = self.state.channels.get(ident)
        if channel is not None:
            return channel.name
        role = next((r for r in self.state.guild.roles if r.id == ident), None)
        return role.name if role is not None else None

    def _save(self, attachment: Attachment) -> Path:
        """Files go to disk once each, numbered, so every hand's hand.png stays openable."""
        path = self._saved.get(attachment.id)
        if path is None:
            name = Path(attachment.filename).name or "file"
            path = self.files / f"{len(self._saved) + 1:03d}-{name}"
            path.write_bytes(attachment.data)
            self._saved[attachment.id] = path
        return path

    # --- commands ---------------------------------------------------------------------

    async def handle(self, line: str) -> bool:
        """Run one typed line; False means the person wants to leave."""
        line = line.strip()
        if not line:
            return True
        word, _, rest = line.partition(" ")
        word, rest = word.lower(), rest.strip()
        if word.startswith("/") and word[1:] in CLIENT_SLASH_WORDS:
            word = word[1:]
        if word.startswith("/"):
            await self.slash(line)
            return True
        if word.startswith("#"):
            self.go(word[1:])
            return True
        commands: dict[str, Callable[[str], Awaitable[None] | None]] = {
            "help": self.help, "click": self.click, "pick": self.pick, "as": self.become,
            "look": self.look, "dms": self.show_dms,
        }
        if word in ("quit", "exit", "q"):
            return False
        if word not in commands:
            raise SandboxError(f"{word!r} is not a command here. Slash commands start with /; "
                               "type help for the rest.")
        outcome = commands[word](rest)
        if outcome is not None:
            await outcome
        return True

    def help(self, _rest: str = "") -> None:
        self.say(HELP, "", "The bot's slash commands (options in [ ] may be left out):",
                 *(f"  {usage}" for usage in self._command_usages()))

    def _command_usages(self) -> list[str]:
        """The commands as this user's Discord client shows them (SANDBOX_LOCALE): in
        Swedish, `/repris spel:…`, which is what they type."""
        locale = self.me.user.locale
        usages = []
        for command in sorted(self.discord.commands(), key=lambda c: shown_name(c, locale)):
            usages += _usages([shown_name(command, locale)], command, locale)
        return usages

    async def slash(self, line: str) -> None:
        try:
            result = await self.me.slash(self.channel, line, check=False)
        except ValueError as error:  # unbalanced quotes
            raise SandboxError(f"Could not read that command: {error}.") from None
        await self._answered(result, "The application did not respond")

    async def click(self, rest: str) -> None:
        where, text = self._scope(rest)
        if not text:
            raise SandboxError("Click what? For example: click Join, or click 3.")
        if text.isdigit() and self.numbers.target(int(text)) is not None:
            message, custom_id = self._numbered(int(text), kind=2)
        else:  # "click 6" with no [6] on screen may well mean the card 6♥
            message, custom_id = self._find_button(where, text)
        result = await self.me.click(message, custom_id=custom_id, check=False)
        await self._answered(result, "This interaction failed")

    async def pick(self, rest: str) -> None:
        try:
            words = shlex.split(rest)
        except ValueError as error:
            raise SandboxError(f"Could not read that: {error}.") from None
        if words and words[0].isdigit() and self.numbers.target(int(words[0])) is not None:
            message, custom_id = self._numbered(int(words.pop(0)), kind=3)
        else:
            message, custom_id = self._only_menu(words)
        select = next(s for s in message.selects() if s.custom_id == custom_id)
        options = "  ·  ".join(option_text(o.label, o.value) for o in select.options)
        if not words:
            raise SandboxError(f"Pick what? {select.placeholder or 'The menu'} "
                               f"({select_rule(select)}): {options}")
        values: list[str] = []
        if [w.lower() for w in words] not in (["none"], ["nothing"]):
            for word in words:  # "pick K♦ K♦": both copies of a card held twice
                values.append(_option_value(select.options, word, options, values))
        if not select.min_values <= len(values) <= select.max_values:
            raise SandboxError(f"This menu wants you to {select_rule(select)}, "
                               f"not {len(values)}.")
        result = await self.me.select(message, custom_id=custom_id, values=values, check=False)
        await self._answered(result, "This interaction failed")

    def become(self, rest: str) -> None:
        people = [u.name for u in self.discord.users]
        if not rest:
            listed = ", ".join(f"{n} (you are here)" if n == self.me.name else n
                               for n in people)
            self.say(f"People in this server: {listed}. Type: as NAME")
            return
        name = rest.split()[0].lower()
        if name not in people:
            raise SandboxError(f"There is nobody called {name!r}; choose from "
                               f"{', '.join(people)}.")
        self.me = self.discord.user(name)
        self.say(f"You are now {name}.")
        unseen = self._unseen.pop(self.me.id, [])
        shown = [self.state.messages[i] for i in dict.fromkeys(unseen)]
        shown = [m.snapshot() for m in shown if not m.deleted]
        if not shown:
            self.say(f"Nothing new for {name}.")
        for message in shown:
            self._print(message)

    def go(self, name: str) -> None:
        channel = self.state.channel_by_name(name)
        if channel is None:
            names = ", ".join(f"#{c.name}" for c in self._guild_channels())
            raise SandboxError(f"There is no #{name}; the channels are {names}.")
        self.channel = channel.name
        self.say(f"Slash commands now go to #{channel.name}.")

    def look(self, rest: str) -> None:
        count = _count(rest, 5)
        messages = self.discord.channel(self.channel).messages()[-count:]
        if not messages:
            self.say(f"#{self.channel} is empty.")
        for message in messages:
            self._print(message)

    def show_dms(self, rest: str) -> None:
        messages = self.me.dms()[-_count(rest, 3):]
        if not messages:
            self.say(f"{self.me.name} has no DMs yet.")
        for message in messages:
            self._print(message)

    # --- finding what to click --------------------------------------------------------

    def _scope(self, rest: str) -> tuple[str | None, str]:
        """An optional "dm" or "#channel" before a label narrows where to look."""
        first, _, remainder = rest.partition(" ")
        if first.lower() == "dm" and remainder:
            return "dm", remainder.strip()
        if first.startswith("#") and len(first) > 1:
            if self.state.channel_by_name(first) is None:
                raise SandboxError(f"There is no {first}.")
            return first, remainder.strip()
        return None, rest.strip()

    def _numbered(self, number: int, *, kind: int) -> tuple[Message, str]:
        target = self.numbers.target(number)
        if target is None:
            raise SandboxError(f"Nothing on screen has the number {number}.")
        message = self.state.messages.get(target.message_id)
        if message is None or message.deleted:
            raise SandboxError(f"[{number}] is gone: its message was deleted.")
        owner = self._owner(message)
        if owner is not None and owner != self.me.id:
            whose = self.state.users[owner].name
            raise SandboxError(f"[{number}] is for {whose}'s eyes only; type: as {whose}")
        is_button = any(b.custom_id == target.custom_id for b in message.buttons())
        if kind == 2 and not is_button:
            raise SandboxError(f"[{number}] is a menu: type pick {number} and your choice.")
        if kind == 3 and is_button:
            raise SandboxError(f"[{number}] is a button: type click {number}.")
        return message.snapshot(), target.custom_id

    def _find_button(self, where: str | None, text: str) -> tuple[Message, str]:
        """The newest enabled button whose label is `text`, or uniquely starts with it
        (then contains it); case does not matter, and cards may be typed as Kd for K♦."""
        wanted = card_key(text)
        candidates = [(m, b) for m in reversed(self.me.visible_messages(where))
                      for b in m.buttons() if not b.disabled and not b.url and b.custom_id]
        tests: list[Callable[[str], bool]] = [lambda face: face == wanted,
                                              lambda face: face.startswith(wanted),
                                              lambda face: wanted in face]
        for test in tests:
            found = [(m, b) for m, b in candidates
                     if test(card_key(b.label or "")) or test(card_key(button_text(b)))]
            labels = list(dict.fromkeys(button_text(b) for _, b in found))
            if len(labels) > 1:
                raise SandboxError(f"{text!r} could be {' or '.join(labels)}; "
                                   "type more of the label, or its number.")
            if found:
                message, button = found[0]
                return message, button.custom_id  # type: ignore[return-value]
        on_screen = list(dict.fromkeys(button_text(b) for _, b in candidates))
        place = " in your DMs" if where == "dm" else f" in {where}" if where else ""
        raise SandboxError(f"No button {text!r}{place}. Buttons you can click: "
                           f"{', '.join(on_screen) or 'none'}.")

    def _only_menu(self, words: list[str] | None = None) -> tuple[Message, str]:
        """The menu `pick` without a number means: the only one on screen, else the only one
        that offers every word typed, else the only one here (this channel or the DMs): a
        replay's menus open in another channel do not make a hand's menu ambiguous."""
        menus = [(m, s) for m in reversed(self.me.visible_messages())
                 for s in m.selects() if not s.disabled]
        if not menus:
            raise SandboxError("There is no menu to pick from.")
        chosen = [w for w in words or () if w.lower() not in ("none", "nothing")]
        narrowed = [(m, s) for m, s in menus
                    if all(_offers(s.options, word) for word in chosen)]
        if len(menus) > 1 and narrowed:
            menus = narrowed
        here = [(m, s) for m, s in menus if self._is_dm(m)
                or self.state.channels[m.channel_id].name == self.channel]
        if len(menus) > 1 and here:
            menus = here
        if len(menus) > 1:
            numbers = [self.numbers.assign(m.id, _enabled_ids(m)).get(s.custom_id)
                       for m, s in menus]
            listed = ", ".join(f"[{n}] {s.placeholder or 'menu'}"
                               for n, (_, s) in zip(numbers, menus, strict=True))
            raise SandboxError(f"Which menu? {listed}. Type: pick NUMBER choice...")
        message, select = menus[0]
        return message, select.custom_id

    # --- answers ----------------------------------------------------------------------

    async def _answered(self, result: InteractionResult, failure: str) -> None:
        """Show the answer before the next prompt; say when Discord would show a failure;
        fill in a form the bot opened."""
        await self.flush()
        if not result.acked:
            self.say(f'Discord says: "{failure}" (the bot did not answer in 3 seconds; '
                     "its log may say why).")
            return
        if result.response == "modal":
            await self.fill_modal()

    async def fill_modal(self) -> None:
        modal = self.me.modal
        if modal is None:
            return
        self.say(f"The bot opened a form: {modal.title}")
        answers: dict[str, str] = {}
        for field in modal.fields():
            hint = f" ({field.placeholder})" if field.placeholder else ""
            low, high = field.min_length or 0, field.max_length or 4000
            while True:
                answer = await self.terminal.ask(f"  {field.label or field.custom_id}{hint}: ")
                answer = (answer or "").strip() if answer is not None else None
                if answer is None or (not answer and field.required):
                    self.say("Form closed without sending.")
                    return
                if not answer or low <= len(answer) <= high:
                    break
                self.say(f"  That must be {low} to {high} characters long.")
            answers[field.custom_id] = answer
        result = await self.me.submit_modal(answers, check=False)
        await self._answered(result, "Something went wrong. Try again.")

    def _guild_channels(self) -> list[Channel]:
        return [c for c in self.state.channels.values() if not c.is_dm]


def _enabled_ids(message: Message) -> list[str]:
    """The custom ids a player can use on a message: enabled buttons, then enabled menus."""
    ids = [b.custom_id for b in message.buttons() if b.custom_id and not b.disabled and not b.url]
    return ids + [s.custom_id for s in message.selects() if not s.disabled]


_SUITS = str.maketrans({"♠": "s", "♥": "h", "♦": "d", "♣": "c"})


def card_key(text: str) -> str:
    """What a typed word and a label are compared by: no case, suits as letters, so that
    "ah", "Ah" and "A♥" are the same card (and "10h", "th" and "T♥").

    >>> card_key("10♥") == card_key("Th") == card_key("th")
    True
    """
    return text.translate(_SUITS).casefold().replace("10", "t").strip()


def _offers(options: Any, word: str) -> bool:
    """Whether a menu has an option a typed word means (as `_option_value` reads it)."""
    key = card_key(word)
    return any(word in (o.value, o.label) or key in (card_key(o.value), card_key(o.label))
               for o in options)


def _option_value(options: Any, word: str, listed: str, taken: list[str] | None = None) -> str:
    """The option a typed word means: its value or label, in any case, with suits typed as
    letters (Ah for A♥) or symbols; not one already `taken` (two options may read the same:
    Po-Ke-No's two copies of a card)."""
    left = [o for o in options if o.value not in (taken or ())]
    tests: list[Callable[[Any], bool]] = [
        lambda o: word in (o.value, o.label),
        lambda o: card_key(word) in (card_key(o.value), card_key(o.label))]
    for test in tests:
        found = [o for o in left if test(o)]
        if found:
            return str(found[0].value)
    raise SandboxError(f"{word!r} is not one of the options: {listed}")


def _count(rest: str, default: int) -> int:
    word = rest.split()[0] if rest.split() else ""
    if not word:
        return default
    if not word.isdigit() or int(word) < 1:
        raise SandboxError(f"{word!r} is not a number of messages.")
    return int(word)


def _usages(path: list[str], node: dict[str, Any], locale: str = "en-US") -> list[str]:
    """One usage line per leaf command: required options bare, optional ones in [ ]; names
    and descriptions as a client in `locale` shows them."""
    subs = [o for o in node.get("options") or [] if o.get("type") in (1, 2)]
    if subs:
        return [line for sub in subs
                for line in _usages([*path, shown_name(sub, locale)], sub, locale)]
    words = [f"/{' '.join(path)}"]
    for option in node.get("options") or []:
        choices = [str(c["value"]) for c in option.get("choices") or []]
        value = "|".join(choices) if 0 < len(choices) <= 6 else "…"
        text = f"{shown_name(option, locale)}:{value}"
        words.append(text if option.get("required") else f"[{text}]")
    description = (node.get("description_localizations") or {}).get(locale) \
        or node.get("description") or ""
    usage = " ".join(words)
    if len(usage) > 40:
        return [usage, f"{'':<42}{description}".rstrip()]
    return [f"{usage:<41} {description}".rstrip()]
