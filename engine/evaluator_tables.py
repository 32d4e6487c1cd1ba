"""The high-hand evaluator's rules and its complete lookup tables, built once into data/.

Why tables, and why complete: the evaluator turns the sum of a hand's card codes into its
strength with a lookup (see engine.evaluator). Filled lazily, as they once were, the
tables made the speed depend on which hands came before: a hand whose key was new paid
for working it out from the rules. Here every key a 5-, 6- or 7-card hand from one deck
can produce, with 0 to 4 wild cards, is worked out ahead of time (111,540 rank keys and
12,181 flush keys), so the first hand costs what the millionth does. Larger hands (8 or 9
cards) and repeated cards (two decks) fall back to the rules, and are remembered.

Working all that out takes over a second in pure Python, too slow for every start-up, so
`python -m engine.evaluator_tables` writes it to data/evaluator_tables.bin (140 kB) and
`load` reads it back in about 20 ms, holding about 6 MiB. The file records a hash of this
module's source and of the card-code layout: any edit here (the rules, the key
enumeration, the packing, the file format) makes the file stale, `load` says so with
`TableFileError`, and the test suite fails until the file is rebuilt. A corrupt file is
caught by a checksum the same way.

Layout of the file: a magic line, the 32-byte code hash, the 32-byte SHA-256 of the
payload, then the zlib-compressed payload: length-prefixed little-endian arrays (the
distinct strength values; the low part -> column map; the packed rank table, as indexes
into the values; per hand size, the high parts and their row offsets; the flush keys and
their value indexes). Sharing one int object per distinct value keeps the tables' memory,
and the part of it the CPU caches, small.
"""

from __future__ import annotations

import enum
import hashlib
import struct
import sys
import time
import tracemalloc
import zlib
from array import array
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations, combinations_with_replacement
from math import comb
from pathlib import Path

from engine.cards import (
    DATA_DIR,
    FLUSH_BIAS,
    FLUSH_BITS,
    RANK_BITS,
    SUIT_BITS,
    SUIT_SHIFT,
    WILD_SHIFT,
)

__all__ = [
    "TABLE_FILE",
    "Category",
    "TableFileError",
    "Tables",
    "build",
    "code_hash",
    "load",
    "write",
]

TABLE_FILE = DATA_DIR / "evaluator_tables.bin"
_MAGIC = b"dealers-choice evaluator tables v1\n"

MIN_CARDS = 5
MAX_CARDS = 9
MAX_WILDS = 4
TABLE_SIZES = (5, 6, 7)  # hand sizes whose every key is in the tables
_SUITS = 4
_RANK_COUNT = 13
_MAX_OF_A_RANK = 4  # in one deck


class Category(enum.IntEnum):
    """Poker hand categories, low to high (five of a kind needs wild cards)."""

    HIGH_CARD = 0
    PAIR = 1
    TWO_PAIR = 2
    THREE_OF_A_KIND = 3
    STRAIGHT = 4
    FLUSH = 5
    FULL_HOUSE = 6
    FOUR_OF_A_KIND = 7
    STRAIGHT_FLUSH = 8
    FIVE_OF_A_KIND = 9

    @property
    def label(self) -> str:
        """The name players use: "straight flush", "three of a kind"."""
        return self.name.lower().replace("_", " ")


# --- strength values ------------------------------------------------------------------
# category << 20, then up to five tie-break ranks of 4 bits each, most significant first.
# Under natural_royal a natural royal flush adds 1 (the lowest bits of a straight flush are
# otherwise zero), which puts it above the wild ace-high straight flush and below nothing.
CATEGORY_SHIFT = 20
TIE_SHIFTS = (16, 12, 8, 4, 0)
ROYAL = (Category.STRAIGHT_FLUSH << CATEGORY_SHIFT) | (14 << 16)
NATURAL_ROYAL_BONUS = 1

_WILD_UNIT = 1 << WILD_SHIFT
_RANK_UNITS = tuple(1 << (RANK_BITS * (rank - 2)) for rank in range(2, 15))
_RANK_COUNT_MASK = (1 << RANK_BITS) - 1
_ROYAL_RANKS = (10, 11, 12, 13, 14)
_WHEEL = (14, 2, 3, 4, 5)


def pack(category: Category, *ranks: int) -> int:
    """The strength of a category with its tie-break ranks, most significant first."""
    value = category << CATEGORY_SHIFT
    for shift, rank in zip(TIE_SHIFTS, ranks, strict=False):
        value |= rank << shift
    return value


def counts_of(key: int) -> list[int]:
    """The rank histogram of a key, indexed by rank (indexes 0 and 1 unused)."""
    return [0, 0] + [(key >> (RANK_BITS * i)) & _RANK_COUNT_MASK for i in range(13)]


def straight_top(counts: Sequence[int], wilds: int = 0) -> int:
    """The top rank of the highest straight the ranks held make, with `wilds` filling gaps.

    5 for the wheel (A-2-3-4-5, the ace low), 0 when there is none.
    """
    for top in range(14, 4, -1):
        window = _WHEEL if top == 5 else range(top - 4, top + 1)
        if sum(1 for rank in window if not counts[rank]) <= wilds:
            return top
    return 0


def plain_value(counts: Sequence[int]) -> int:
    """The best non-flush five of natural cards given as a rank histogram.

    Five or more of a rank (possible from two decks, or once wilds are substituted) is five
    of a kind: five cards of one rank read as nothing else.
    """
    ranks = [rank for rank in range(14, 1, -1) if counts[rank]]
    for rank in ranks:
        if counts[rank] >= 5:
            return pack(Category.FIVE_OF_A_KIND, rank)
    quads = [rank for rank in ranks if counts[rank] == 4]
    if quads:
        kicker = next(rank for rank in ranks if rank != quads[0])
        return pack(Category.FOUR_OF_A_KIND, quads[0], kicker)
    trips = [rank for rank in ranks if counts[rank] == 3]
    pairs = [rank for rank in ranks if counts[rank] >= 2]
    if trips:
        others = [rank for rank in pairs if rank != trips[0]]
        if others:
            return pack(Category.FULL_HOUSE, trips[0], others[0])
    top = straight_top(counts)
    if top:
        return pack(Category.STRAIGHT, top)
    if trips:
        kickers = [rank for rank in ranks if rank != trips[0]][:2]
        return pack(Category.THREE_OF_A_KIND, trips[0], *kickers)
    if len(pairs) >= 2:
        high, low = pairs[:2]
        kicker = next(rank for rank in ranks if rank not in (high, low))
        return pack(Category.TWO_PAIR, high, low, kicker)
    if pairs:
        kickers = [rank for rank in ranks if rank != pairs[0]][:3]
        return pack(Category.PAIR, pairs[0], *kickers)
    return pack(Category.HIGH_CARD, *ranks[:5])


def suited_value(key: int, natural_royal: bool = False) -> int:
    """The best flush or straight flush from one suit's natural cards and the wilds.

    `key` is the suit's rank histogram and the wild count. The wilds complete the highest
    straight flush they can. Failing that, each wild is an ace of the suit, which may
    duplicate one held: the flush is ranked on its five highest cards, repeats included, so
    A-A-9-7-4 beats A-K-9-7-4 (repeats also come from two decks). With natural_royal, a
    royal flush of natural cards outranks one made with a wild: if the suit's natural cards
    hold a royal, that is the best; otherwise any royal stays an ace-high straight flush.
    """
    counts = counts_of(key)
    wilds = key >> WILD_SHIFT
    top = straight_top(counts, wilds)
    if top:
        value = pack(Category.STRAIGHT_FLUSH, top)
        if natural_royal and value == ROYAL and all(counts[rank] for rank in _ROYAL_RANKS):
            value += NATURAL_ROYAL_BONUS
        return value
    cards = [14] * wilds + [rank for rank in range(14, 1, -1) for _ in range(counts[rank])]
    return pack(Category.FLUSH, *cards[:5])


def rank_value(key: int, memo: dict[int, int]) -> int:
    """The best non-flush strength for a rank histogram + wild count key.

    A hand with wilds is worth the best of the hands with one wild replaced by each rank,
    so wild keys are worked out from those with one wild fewer (kept in `memo`). A rank
    already held five times gains nothing from a wild (and its 3-bit count must not
    overflow): any other rank does at least as well.
    """
    value = memo.get(key)
    if value is None:
        counts = counts_of(key)
        if key >> WILD_SHIFT:
            base = key - _WILD_UNIT
            value = max(
                rank_value(base + _RANK_UNITS[rank - 2], memo)
                for rank in range(2, 15)
                if counts[rank] < 5
            )
        else:
            value = plain_value(counts)
        memo[key] = value
    return value


def count_error(count: int) -> ValueError:
    return ValueError(
        f"a poker hand is the best five of {MIN_CARDS} to {MAX_CARDS} cards, not {count}"
    )


def wild_error(count: int) -> ValueError:
    return ValueError(f"a poker hand may hold at most {MAX_WILDS} wild cards, not {count}")


def checked_rank_value(key: int, memo: dict[int, int]) -> int:
    """rank_value for a key no table holds, after checking it is a hand the rules allow."""
    wilds = key >> WILD_SHIFT
    cards = sum(counts_of(key)) + wilds
    if not MIN_CARDS <= cards <= MAX_CARDS:
        raise count_error(cards)
    if wilds > MAX_WILDS:
        raise wild_error(wilds)
    return rank_value(key, memo)


# --- which keys the tables hold ---------------------------------------------------------


def _rank_keys(size: int) -> list[int]:
    """Every rank key of a `size`-card one-deck hand with 0-4 wilds, most used first.

    Hands without wilds come first, then by wild count; within those, the keys more natural
    card sets share come first. Inserted in that order, the entries common hands read lie
    next to each other in memory, which is what the CPU caches see.
    """
    out = []
    for wilds in range(MAX_WILDS + 1):
        for ranks in combinations_with_replacement(range(_RANK_COUNT), size - wilds):
            counts = [0] * _RANK_COUNT
            for rank in ranks:
                counts[rank] += 1
            if max(counts, default=0) > _MAX_OF_A_RANK:
                continue
            weight = 1
            for count in counts:
                weight *= comb(_SUITS, count)
            key = sum(_RANK_UNITS[rank] for rank in ranks) + wilds * _WILD_UNIT
            out.append((wilds, -weight, key))
    out.sort()
    return [key for _wilds, _weight, key in out]


def _flush_keys() -> list[int]:
    """Every suit key (the suit's distinct ranks + the wilds) that reaches five cards."""
    keys = []
    for wilds in range(MAX_WILDS + 1):
        for naturals in range(max(1, 5 - wilds), max(TABLE_SIZES) - wilds + 1):
            for ranks in combinations(range(_RANK_COUNT), naturals):
                keys.append(sum(_RANK_UNITS[rank] for rank in ranks) + wilds * _WILD_UNIT)
    return keys


# --- the tables ------------------------------------------------------------------------
# The rank table is not a dict. A dict lookup of a random key touches three scattered
# places (the index slot, the entry, the stored key object, compared for equality), and a
# dict of every 7-card key outgrows the CPU caches, so on hands not seen just before those
# are three cache misses. Instead a rank key is split into its low part (the counts of
# deuces to sevens) and its high part (eights to aces and the wild count): `low`, a list,
# gives the low part's column, `high[n]`, a small dict per hand size, the high part's row
# offset, and their sum indexes one list of strengths, the rows laid end to end (see
# _layout). The small maps stay cached; the big list is read once, a pointer to a shared
# value. On unseen 7-card hands this measured 15-25% faster than one dict.
# The hand size makes the lookup exact: for genuine card codes, a known row of n-card
# hands and a known column always name a key the table holds, so the slot is its own.
# Both parts are masked in place, not shifted: one operation fewer per hand. The high
# part keys a dict, which takes a large int as readily as a small one.
LOW_BITS = RANK_BITS * 6
LOW_MASK = (1 << LOW_BITS) - 1
HIGH_MASK = ((1 << (WILD_SHIFT + RANK_BITS)) - 1) & ~LOW_MASK
_NONE = 0xFFFF  # no value, no column: the file's 16-bit indexes reserve it


@dataclass(frozen=True)
class Tables:
    """The evaluator's lookups.

    The best non-flush strength of an n-card hand (n = 5, 6, 7) with rank key k is
    `rank[high[n][k & HIGH_MASK] + low[k & LOW_MASK]]` (see `lookup`); a
    KeyError, a TypeError (no column: None) or an IndexError means the tables do not hold
    the key. `flush` maps a suit key to the best flush strength, and `natural_royal_flush`
    the same under natural_royal.
    """

    high: dict[int, dict[int, int]]
    low: list[int | None]
    rank: list[int | None]
    flush: dict[int, int]
    natural_royal_flush: dict[int, int]

    def lookup(self, key: int, cards: int) -> int:
        """The best non-flush strength of a `cards`-card hand's rank key (KeyError if the
        tables do not hold it)."""
        try:
            row = self.high[cards][key & HIGH_MASK]
            value = self.rank[row + self.low[key & LOW_MASK]]  # type: ignore[operator]
        except (KeyError, TypeError, IndexError):
            value = None
        if value is None:
            raise KeyError(key)
        return value


def code_hash() -> bytes:
    """What the table file must have been built by: this module's source and the layout.

    The whole source counts, not only the rules, so that no edit can slip past; rebuilding
    takes a second or two.
    """
    digest = hashlib.sha256(_MAGIC)
    digest.update(Path(__file__).read_bytes())
    layout = (RANK_BITS, WILD_SHIFT, SUIT_SHIFT, SUIT_BITS, FLUSH_BIAS, FLUSH_BITS)
    digest.update(repr(layout).encode())
    return digest.digest()


def _natural_royal_flush(flush: dict[int, int]) -> dict[int, int]:
    table = dict(flush)
    for key, value in flush.items():
        if value == ROYAL:
            table[key] = suited_value(key, natural_royal=True)
    return table


def _layout(
    rank_keys: dict[int, list[int]],
) -> tuple[dict[int, int], dict[int, dict[int, int]], int]:
    """Where each key goes: (low part -> column, hand size -> high part -> row offset, size).

    The rows need no search to pack: the low parts an n-card row holds are exactly those
    with n minus the row's cards, all of them (the tables are complete). So numbering the
    low parts within each card count makes every row one run of columns, and the rows
    are laid end to end, most used first, without a gap.
    """
    hot_first = sorted(
        ((size, index, key) for size, keys in rank_keys.items() for index, key in enumerate(keys)),
        key=lambda item: (item[2] >> WILD_SHIFT, item[0] != 7, item[1]),
    )
    groups: dict[int, dict[int, int]] = {}  # card count -> low part -> column
    for _size, _index, key in hot_first:
        part = key & LOW_MASK
        group = groups.setdefault(sum(counts_of(part)), {})
        group.setdefault(part, len(group))
    columns = {part: column for group in groups.values() for part, column in group.items()}
    offsets: dict[int, dict[int, int]] = {size: {} for size in rank_keys}
    end = 0
    for size, _index, key in hot_first:
        row = offsets[size]
        if key & HIGH_MASK not in row:
            row[key & HIGH_MASK] = end
            end += len(groups[sum(counts_of(key & LOW_MASK))])
    return columns, offsets, end


def _interned(values: Sequence[int]) -> tuple[list[int], dict[int, int]]:
    palette = sorted(set(values))
    if len(palette) >= _NONE:  # pragma: no cover - the value indexes are 16-bit
        raise AssertionError(f"{len(palette)} distinct strengths do not fit 16 bits")
    return palette, {value: index for index, value in enumerate(palette)}


def build() -> tuple[Tables, bytes]:
    """Work every table entry out from the rules: (the tables, the file's payload)."""
    memo: dict[int, int] = {}
    rank_keys = {size: _rank_keys(size) for size in TABLE_SIZES}
    rank_values = {size: [rank_value(key, memo) for key in rank_keys[size]] for size in rank_keys}
    flush_keys = _flush_keys()
    flush_values = [suited_value(key) for key in flush_keys]
    every_value = [value for values in rank_values.values() for value in values]
    palette, position = _interned(every_value + flush_values)
    columns, offsets, end = _layout(rank_keys)
    slots = array("H", [_NONE]) * end
    for size, keys in rank_keys.items():
        for key, value in zip(keys, rank_values[size], strict=True):
            slots[offsets[size][key & HIGH_MASK] + columns[key & LOW_MASK]] = position[value]
    if _NONE in slots:  # pragma: no cover - every row is full
        raise AssertionError("the rank table has a gap")
    low = array("H", [_NONE]) * (LOW_MASK + 1)
    for part, column in columns.items():
        low[part] = column
    sections = [array("Q", palette), low, slots]
    for size in TABLE_SIZES:
        sections += [array("Q", offsets[size]), array("i", offsets[size].values())]
    sections += [array("Q", flush_keys), array("H", map(position.__getitem__, flush_values))]
    payload = _encode(sections)
    tables = _decode(payload)
    for size, keys in rank_keys.items():  # the packing must give every key its own slot
        for key, value in zip(keys, rank_values[size], strict=True):
            if tables.lookup(key, size) != value:  # pragma: no cover
                raise AssertionError(f"the packed table misreads key {key:#x} ({size} cards)")
    return tables, payload


def _encode(sections: list[array[int]]) -> bytes:
    parts = []
    for section in sections:
        if sys.byteorder == "big":  # pragma: no cover
            section = array(section.typecode, section)
            section.byteswap()
        data = section.tobytes()
        parts.append(struct.pack("<cQ", section.typecode.encode(), len(data)) + data)
    return zlib.compress(b"".join(parts), 9)


def _decode(payload: bytes) -> Tables:
    raw = zlib.decompress(payload)
    sections = []
    offset = 0
    head = struct.calcsize("<cQ")
    while offset < len(raw):
        typecode, size = struct.unpack_from("<cQ", raw, offset)
        offset += head
        section = array(typecode.decode())
        section.frombytes(raw[offset : offset + size])
        if sys.byteorder == "big":  # pragma: no cover
            section.byteswap()
        sections.append(section)
        offset += size
    if len(sections) != 5 + 2 * len(TABLE_SIZES):
        raise ValueError(f"{len(sections)} sections, not {5 + 2 * len(TABLE_SIZES)}")
    palette_array, low_array, slot_array, *rows, flush_keys, flush_indexes = sections
    # One int object per distinct strength, and None where the 16-bit index says none.
    values: list[int] = palette_array.tolist()
    palette: list[int | None] = [*values, None]
    palette += [None] * (_NONE + 1 - len(palette))
    value_of = palette.__getitem__
    column_of: list[int | None] = [*range(_NONE), None]
    high = {
        size: dict(zip(keys, offsets, strict=True))
        for size, keys, offsets in zip(TABLE_SIZES, rows[0::2], rows[1::2], strict=True)
    }
    flush = {key: values[index] for key, index in zip(flush_keys, flush_indexes, strict=True)}
    return Tables(
        high=high,
        low=list(map(column_of.__getitem__, low_array)),
        rank=list(map(value_of, slot_array)),
        flush=flush,
        natural_royal_flush=_natural_royal_flush(flush),
    )


class TableFileError(RuntimeError):
    """The table file is missing, corrupt, or was built by other code than this."""


def write(path: Path = TABLE_FILE) -> Tables:
    """Build the tables and write them to `path` (what `python -m` runs)."""
    tables, payload = build()
    checksum = hashlib.sha256(payload).digest()
    path.write_bytes(_MAGIC + code_hash() + checksum + payload)
    return tables


_REBUILD = "rebuild it with: python -m engine.evaluator_tables"


def load(path: Path = TABLE_FILE) -> Tables:
    """Read the tables from `path`, after checking it is whole and built by this code."""
    try:
        raw = path.read_bytes()
    except OSError as error:
        raise TableFileError(
            f"cannot read the evaluator tables {path}: {error}; {_REBUILD}"
        ) from error
    head = len(_MAGIC)
    if not raw.startswith(_MAGIC) or len(raw) < head + 64:
        raise TableFileError(f"{path} is not an evaluator table file; {_REBUILD}")
    built_by, checksum = raw[head : head + 32], raw[head + 32 : head + 64]
    payload = raw[head + 64 :]
    if built_by != code_hash():
        raise TableFileError(
            f"{path} was built by other code than engine/evaluator_tables.py as it is now "
            f"(its hash {built_by.hex()[:12]}, the code's {code_hash().hex()[:12]}); {_REBUILD}"
        )
    if hashlib.sha256(payload).digest() != checksum:
        raise TableFileError(f"{path} is corrupt (its checksum does not match); {_REBUILD}")
    try:
        return _decode(payload)
    except (zlib.error, ValueError, struct.error) as error:  # pragma: no cover - checksummed
        raise TableFileError(f"{path} cannot be decoded ({error}); {_REBUILD}") from error


def cost() -> tuple[float, int]:
    """What loading the tables costs: (seconds, bytes allocated and kept), best of three."""
    seconds = min(_timed_load() for _ in range(3))
    tracemalloc.start()
    try:
        tables = load()
        kept = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    del tables
    return seconds, kept


def _timed_load() -> float:
    start = time.perf_counter()
    load()
    return time.perf_counter() - start


def main() -> None:
    """Rebuild the table file, then load it back and say what it costs at start-up."""
    start = time.perf_counter()
    tables = write()
    built = time.perf_counter() - start
    seconds, kept = cost()
    print(
        f"wrote {TABLE_FILE} ({TABLE_FILE.stat().st_size:,} bytes) in {built:.1f} s: "
        f"{len(tables.rank):,} rank keys, {len(tables.flush):,} flush keys; loading them "
        f"takes {seconds * 1000:.0f} ms and keeps {kept / 2**20:.1f} MiB"
    )


if __name__ == "__main__":
    main()
