"""A tournament's start as the organiser types it: "20:30", "8:30pm", "in 15 minutes",
"in 2 hours", "now", or a date and time "2026-12-24 19:00".

The bot keeps no time zone per server, so a time of day is read in UTC (the command's
answer says so, with Discord's own timestamp, which every member sees in their own time).
A time of day already past today is tomorrow's.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

from bot.core.table import TableError
from engine.i18n import msg

__all__ = ["parse_start"]

_IN = re.compile(r"in\s+(\d{1,4})\s*(m|min|mins|minute|minutes|h|hr|hrs|hour|hours)\.?")
_CLOCK = re.compile(r"(\d{1,2})(?:[:.](\d{2}))?\s*(am|pm)?")
_DATE = re.compile(r"(\d{4})-(\d{2})-(\d{2})[ t](\d{1,2})[:.](\d{2})")
LATEST = timedelta(days=60)
SHOWN = 40  # of a start that cannot be read, the characters quoted back


def parse_start(text: str | None, now: float) -> float | None:
    """The start as POSIX seconds (None: no start time, the organiser starts it). Refuses
    with a sentence what it cannot read, or a start more than 60 days away."""
    if text is None or not text.strip():
        return None
    typed = " ".join(text.strip().lower().split())
    current = datetime.fromtimestamp(now, UTC)
    if typed in ("now", "nu"):
        return now
    found: datetime | None = None
    if match := _IN.fullmatch(typed):
        amount = int(match.group(1))
        unit = match.group(2)
        found = current + (timedelta(hours=amount) if unit.startswith("h")
                           else timedelta(minutes=amount))
    elif match := _DATE.fullmatch(typed):
        try:
            found = datetime(int(match.group(1)), int(match.group(2)), int(match.group(3)),
                             int(match.group(4)), int(match.group(5)), tzinfo=UTC)
        except ValueError:
            found = None
    elif match := _CLOCK.fullmatch(typed):
        hour, minute = int(match.group(1)), int(match.group(2) or 0)
        if match.group(3) == "pm" and hour < 12:
            hour += 12
        elif match.group(3) == "am" and hour == 12:
            hour = 0
        if hour < 24 and minute < 60 and (match.group(2) or match.group(3)):
            found = current.replace(hour=hour, minute=minute, second=0, microsecond=0)
            if found <= current:
                found += timedelta(days=1)
    if found is None or found < current - timedelta(minutes=1) or found > current + LATEST:
        raise TableError(msg(
            "I could not read the start time {text}. Type a time of day such as `20:30` "
            "(UTC), a delay such as `in 15 minutes`, or `now`.",
            text=text if len(text) <= SHOWN else text[:SHOWN - 1] + "…"))
    return max(found.timestamp(), now)
