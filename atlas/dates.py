"""Dates: the words of dates and periods, and the calendar arithmetic, defined once.

Two readers share them, each with its own grammar and job: the period reader of questions
(`atlas/periods.py`: the range a question asks about) and the gate's time expressions
(`memory/gate/timex.py`: when a stated situation stops being true). The truth reader of the
answer evaluation (`atlas/tooling/truth.py`) keeps its own on purpose, so it stays independent
of what it judges.
"""

from __future__ import annotations

import calendar
import re
from collections.abc import Iterable
from datetime import date, timedelta

# "three", "twelve": numbers people write as words.
NUMBER_WORDS: dict[str, int] = {
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
    "fifteen": 15,
    "twenty": 20,
    "thirty": 30,
    "fifty": 50,
    "a dozen": 12,
    "dozen": 12,
}
# What else counts the days or weeks a situation lasts: "for a week", "for a couple of days".
COUNT_WORDS: dict[str, int] = {
    **NUMBER_WORDS,
    "a": 1,
    "an": 1,
    "a couple of": 2,
    "a couple": 2,
    "couple of": 2,
    "a few": 3,
    "few": 3,
    "several": 3,
}
# "first quarter", "the 2nd quarter".
ORDINALS: dict[str, int] = {"first": 1, "second": 2, "third": 3, "fourth": 4, "1st": 1, "2nd": 2, "3rd": 3, "4th": 4}

# Month names and abbreviations ("march", "mar", "sept") -> month number.
MONTHS: dict[str, int] = {
    **{name.lower(): i for i, name in enumerate(calendar.month_name) if name},
    **{name.lower(): i for i, name in enumerate(calendar.month_abbr) if name},
    "sept": 9,
}
# "may" is a verb far more often than a month: a reader takes "in May" on its own.
MONTHS_NOT_MAY: dict[str, int] = {word: month for word, month in MONTHS.items() if word != "may"}
WEEKDAYS: tuple[str, ...] = tuple(day.lower() for day in calendar.day_name)
# Weekday names and the short forms people type ("tue", "tues", "thurs") -> 0 (Monday) to 6.
WEEKDAY_NUMBERS: dict[str, int] = {
    **{day: i for i, day in enumerate(WEEKDAYS)},
    **{day[:3]: i for i, day in enumerate(WEEKDAYS)},
    "tues": 1,
    "thur": 3,
    "thurs": 3,
}

# Periods written short: a year ("2025"), a quarter ("q3"), a half year ("h1"), a fiscal year ("fy25").
YEAR = re.compile(r"(19|20)\d\d")
QUARTER = re.compile(r"q[1-4]")
HALF = re.compile(r"h[12]")
FISCAL_YEAR = re.compile(r"fy'?(\d{2}|\d{4})")

# The calendar units periods are counted in, and the words that place one relative to today.
PERIOD_UNITS = frozenset({"day", "week", "month", "quarter", "year"})
PERIOD_PAST = frozenset({"last", "previous", "past", "prior", "recent"})
PERIOD_CURRENT = frozenset({"this", "current"})
PERIOD_FUTURE = frozenset({"next", "coming", "upcoming", "within"})  # "expire within 30 days"
# Words before "this month", "this quarter", "this year" that end it today: "earlier this year",
# "so far this month" run from the unit's first day to today, never to its last.
PERIOD_TO_TODAY_LEADS = frozenset({"earlier", "far"})  # "far" of "so far"
# How many months each calendar unit longer than a week holds.
UNIT_MONTHS = {"month": 1, "quarter": 3, "year": 12}


def number(word: str, *, counts: bool = False) -> int | None:
    """The number ``word`` writes ("12", "twelve"); with ``counts`` also "a", "a couple of", "a few"."""
    word = re.sub(r"\s+", " ", word.lower().strip())
    if word.isdigit():
        return int(word)
    return (COUNT_WORDS if counts else NUMBER_WORDS).get(word)


def words_pattern(words: Iterable[str]) -> str:
    """A regex alternative of ``words``, longest first, any run of spaces inside one."""
    return "|".join(re.escape(w).replace(r"\ ", r"\s+") for w in sorted(words, key=len, reverse=True))


def month_end(year: int, month: int) -> date:
    return date(year, month, calendar.monthrange(year, month)[1])


def shift_month(year: int, month: int, delta: int) -> tuple[int, int]:
    """The (year, month) ``delta`` months from ``month`` of ``year``."""
    index = year * 12 + (month - 1) + delta
    return index // 12, index % 12 + 1


def unit_bounds(unit: str, day: date, offset: int = 0) -> tuple[date, date]:
    """The first and last day of the calendar ``unit`` ``offset`` units from the one holding
    ``day`` (0 this, -1 last, 1 next); weeks run Monday to Sunday, quarters from January."""
    if unit == "day":
        on = day + timedelta(days=offset)
        return on, on
    if unit == "week":
        start = day - timedelta(days=day.weekday()) + timedelta(weeks=offset)
        return start, start + timedelta(days=6)
    if unit == "year":
        return date(day.year + offset, 1, 1), date(day.year + offset, 12, 31)
    months = UNIT_MONTHS[unit]
    first = months * ((day.month - 1) // months) + 1
    year, month = shift_month(day.year, first, months * offset)
    return date(year, month, 1), month_end(*shift_month(year, month, months - 1))
