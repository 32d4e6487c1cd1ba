"""The longest-word finder's candidate lists, made from the dictionary that judges the words.

Enchant can check a word but cannot list its words, so the list comes from the hunspell files
behind it: `unmunch` (Debian's hunspell-tools) expands the stems and affixes, and every form is
then confirmed by the same enchant check the game uses. A claim such as "longest possible:
ISOTOPY" then holds for the table's own dictionary, never for some other word list.

Building takes about a second, so the result is cached in the data directory, one file per
language, stamped with the dictionary files it came from: a new dictionary package rebuilds
it, nothing else does. The engine stays free of this I/O: `install` hands it a source.
"""

from __future__ import annotations

import functools
import hashlib
import logging
import os
import shutil
import subprocess
import tempfile
from collections.abc import Sequence
from pathlib import Path

from bot.settings import DICTIONARY_TAG, SettingsError, load_settings
from engine import words as engine_words
from engine.words import Dictionary, get_dictionary, usable_words

__all__ = ["FORMAT", "build", "checked_tag", "find_hunspell", "install", "load", "unmunch"]

log = logging.getLogger(__name__)

FORMAT = "1"
"""Bumped whenever the way a list is built changes, so old cache files are rebuilt."""

HUNSPELL_DIRS = (
    Path("~/.config/enchant/hunspell").expanduser(),
    Path("/usr/share/hunspell"),
    Path("/usr/share/myspell/dicts"),
    Path("/usr/share/myspell"),
)


def checked_tag(lang: str) -> str:
    """`lang` if it can be a dictionary's tag (en_US, de_DE_frami); else ValueError. The
    files read and written here are named after the tag, so a tag is never allowed to be a
    path: a table's language that came from a crafted command or a setting stored before
    settings were checked ("../../etc/passwd") must not reach the file system."""
    if not isinstance(lang, str) or not DICTIONARY_TAG.fullmatch(lang):
        raise ValueError(f"{lang!r} is not a dictionary's language tag, such as en_US")
    return lang


def find_hunspell(lang: str) -> tuple[Path, Path] | None:
    """The .dic and .aff files enchant's hunspell provider reads for `lang`, if any."""
    checked_tag(lang)
    for folder in HUNSPELL_DIRS:
        dic, aff = folder / f"{lang}.dic", folder / f"{lang}.aff"
        if dic.is_file() and aff.is_file():
            return dic, aff
    return None


def _nosuggest_flag(aff: Path) -> tuple[str | None, str]:
    """The NOSUGGEST flag and the flag format (FLAG char/long/num/UTF-8) of an .aff file."""
    flag, style = None, "char"
    for line in aff.read_text(encoding="utf-8", errors="replace").splitlines():
        parts = line.split()
        if len(parts) >= 2 and parts[0] == "NOSUGGEST":
            flag = parts[1]
        elif len(parts) >= 2 and parts[0] == "FLAG":
            style = parts[1].lower()
    return flag, style


def _flags(text: str, style: str) -> list[str]:
    if style == "num":
        return [part for part in text.split(",") if part]
    if style == "long":
        return [text[i : i + 2] for i in range(0, len(text), 2)]
    return list(text)


def unmunch(dic: Path, aff: Path) -> list[str]:
    """Every form the hunspell files spell out, by `unmunch`. Stems marked NOSUGGEST (slurs
    and profanity) are left out first: a player may still declare them, but the bot never
    names them in the channel as a "longest possible" word."""
    tool = shutil.which("unmunch")
    if tool is None:
        raise FileNotFoundError(
            "unmunch is not installed (Debian: apt-get install hunspell-tools)"
        )
    flag, style = _nosuggest_flag(aff)
    lines = dic.read_text(encoding="utf-8", errors="replace").splitlines()
    kept = [lines[0]] if lines else []
    for line in lines[1:]:
        _stem, slash, rest = line.partition("/")
        if slash and flag is not None and flag in _flags(rest.split()[0] if rest else "", style):
            continue
        kept.append(line)
    with tempfile.TemporaryDirectory(prefix="words-") as tmp:
        filtered = Path(tmp) / dic.name
        filtered.write_text("\n".join(kept) + "\n", encoding="utf-8")
        done = subprocess.run(
            [tool, str(filtered), str(aff)],
            capture_output=True,
            check=True,
            timeout=300,
        )
    return done.stdout.decode("utf-8", errors="replace").split()


def build(lang: str, dictionary: Dictionary | None = None) -> list[str]:
    """The finder's candidates for `lang`: every word of the hunspell files that the table's
    dictionary accepts in lower case and the Sppoker deck can spell. Empty (with a warning)
    when the host has no hunspell files for it, which the finder reads as "no word"."""
    files = find_hunspell(lang)
    if files is None:
        log.warning("no hunspell files for %s: the word finder will know no words", lang)
        return []
    return usable_words(unmunch(*files), dictionary or get_dictionary(lang))


def _stamp(lang: str) -> str:
    """What a cached list was made from: the format and the dictionary files' identity."""
    files = find_hunspell(lang)
    parts = [FORMAT, lang]
    for path in files or ():
        stat = path.stat()
        parts += [str(path), str(stat.st_size), str(int(stat.st_mtime))]
    return hashlib.sha256("\0".join(parts).encode()).hexdigest()[:16]


def load(lang: str, data_dir: Path) -> list[str]:
    """The candidates for `lang`, from `data_dir/words/words_<lang>.txt` when that file was
    made from the dictionary installed now, else built and written there. An unwritable data
    directory only costs the cache: the list is still built and used."""
    path = data_dir / "words" / f"words_{checked_tag(lang)}.txt"
    stamp = _stamp(lang)
    header = f"# words for {lang}, stamp {stamp}"
    try:
        with path.open(encoding="utf-8") as handle:
            if handle.readline().strip() == header:
                return [line.strip() for line in handle if line.strip()]
    except OSError:
        pass
    words = build(lang)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(header + "\n" + "".join(f"{word}\n" for word in words))
        os.replace(tmp, path)
    except OSError as error:
        log.warning("could not cache the %s word list in %s: %s", lang, path.parent, error)
    return words


def install(data_dir: Path) -> None:
    """Make the engine's finders use lists from the table's dictionaries, cached here."""
    source = functools.partial(_load_for_engine, data_dir=Path(data_dir))
    engine_words.set_word_source(source)


def _load_for_engine(lang: str, *, data_dir: Path) -> Sequence[str]:
    return load(lang, data_dir)


def data_dir_words() -> engine_words.WordSource:
    """The bot's own lists, as it gets them at start-up, from its data directory (DATA_DIR):
    what `python -m bot replay` names the longest words from, so they are the ones its table
    named. Settings are read when a word game first asks, so a game without words needs none."""

    def source(language: str) -> list[str]:
        try:
            data_dir = load_settings().data_dir
        except SettingsError as error:
            raise OSError(f"the bot's settings: {error}") from error
        return load(language, data_dir)

    return source
