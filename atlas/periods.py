"""Periods: "last quarter", "Q3 2025", "since June", "the next 90 days", "FY25", "H1 2025".

One reader of the periods questions name, in project infrastructure so the query planner, the
comparisons, the tool-calling model's arguments and session state (chat) read periods the same
way. Its words and calendar arithmetic are those of `atlas/dates.py`, which the gate's time
expressions (memory) read too; the truth reader of the answer evaluation keeps its own, on
purpose, so it stays independent of what it judges.
"""

from __future__ import annotations

import calendar
import re
from dataclasses import dataclass
from datetime import date, timedelta
from itertools import pairwise

from atlas.dates import (
    FISCAL_YEAR,
    HALF,
    MONTHS_NOT_MAY,
    NUMBER_WORDS,
    ORDINALS,
    PERIOD_CURRENT,
    PERIOD_FUTURE,
    PERIOD_PAST,
    PERIOD_TO_TODAY_LEADS,
    PERIOD_UNITS,
    QUARTER,
    UNIT_MONTHS,
    YEAR,
    month_end,
    number,
    shift_month,
    unit_bounds,
)
from atlas.vocabulary import CURRENCY_WORDS

# "from June on", "from Q2 onwards": the period's start to today, like "since June".
PERIOD_OPEN_ENDS = frozenset({"on", "onwards", "onward"})
# Words that join two months or quarters into one span ("from June to August").
# ("january or february 2027", "may and/or june": either of two neighbouring months is the span of both)
PERIOD_RANGE_JOINS = frozenset(
    {"and", "to", "through", "thru", "until", "till", "til", "-", "&", ",", "+", "or", "and/or", "/", "maybe"}
)


@dataclass(frozen=True)
class Period:
    label: str  # how the answer names it: "last quarter", "2025", "the next 90 days"
    start: date
    end: date


def _span(direction: str, count: int, unit: str, today: date) -> tuple[date, date]:
    """ "the last 45 days" (ending today) or "the next 90 days" (starting today); months,
    quarters and years are calendar ones ("the next 6 months" from 1 Dec ends on 1 Jun)."""
    if unit in ("month", "quarter", "year"):
        months = UNIT_MONTHS[unit] * count
        year, month = shift_month(today.year, today.month, months if direction == "future" else -months)
        moved = date(year, month, min(today.day, calendar.monthrange(year, month)[1]))
        return (today, moved) if direction == "future" else (moved + timedelta(days=1), today)
    days = {"day": 1, "week": 7}[unit] * count
    if direction == "future":
        return today, today + timedelta(days=days)
    return today - timedelta(days=days - 1), today


def read_period(words: list[str], *, today: date, ahead: bool = False) -> tuple[Period | None, bool]:
    """The period a question names and whether it lies wholly in the future. ``ahead``: the question
    asks about something still to come (a renewal), so a month or quarter named without a year
    that has already ended this year is the next one ("who renews in march", asked in December).

    Named periods (this/last/next month, quarter, year, week), spans ("the last 45 days",
    "the next 90 days"), quarters ("Q3 2025", "the third quarter"), months ("March",
    "March 2025"), years ("in 2025"), "year to date" and "until the end of the coming month".
    """
    words = _seasons_as_months(words)
    text = " ".join(words)
    months_of = _months_of_a_year(words, today)
    if months_of is not None:
        return months_of, months_of.start > today
    before = _before_a_month(words, today)
    if before is not None:
        return before, False
    to_a_day = _today_to_a_day(words, today)
    if to_a_day is not None:
        return to_a_day, False
    if ahead:
        coming = _until_a_month(words, today)
        if coming is not None:
            return coming, False
    period = _named_period(words, today)
    anchored = _anchor_in_year(words, period, today)
    period = anchored or period or _range_period(words, today) or _calendar_period(words, today)
    if period is None and ("ytd" in words or "year to date" in text):
        period = Period("this year to date", date(today.year, 1, 1), today)
    to_an_end = re.search(TO_AN_END, text)
    tail = text[to_an_end.end() :].split() if to_an_end else words
    if to_an_end:  # the period is the one after "end of" ("from today until end of jan" is not "today")
        named = _named_period(tail, today)  # "end of sept next yr": September of next year, not the year
        period = _anchor_in_year(tail, named, today) or named or _calendar_period(tail, today) or period
    bare = period is not None and not any(YEAR.fullmatch(w) for w in words) and _named_period(words, today) is None
    if (
        ahead
        and bare
        and not to_an_end
        and period is not None
        and period.end < today
        and period.start.year == today.year
    ):
        if (period.start.year, period.start.month) != (period.end.year, period.end.month):
            # "in march to may", "between march and may", asked in December: the same months next year
            start, end = (
                date(period.start.year + 1, period.start.month, 1),
                month_end(period.end.year + 1, period.end.month),
            )
            period = Period(period.label.replace(str(period.start.year), str(start.year)), start, end)
        else:
            period = _calendar_period(words, today, year=today.year + 1) or period
    if period is not None and to_an_end:
        if period.end < today and not any(YEAR.fullmatch(w) for w in tail):
            period = _next_occurrence(tail, period, today) or period
        period = Period(f"from today until the end of {period.label}", today, period.end)
    elif period is not None and _ends_today(words, period, today):
        period = Period(f"{period.label} to date", period.start, today)
    if period is not None and _open_ended(words) and period.start <= today:
        # "since June", "from June on": from the start of June to today, never June alone
        period = Period(f"since {period.label}", period.start, today)
    future = period is not None and period.start > today
    return period, future


# The words a period is said in beyond its units: "ytd", "year to date", "until the end of", "since".
_PERIOD_WORDS = (
    PERIOD_PAST
    | PERIOD_CURRENT
    | PERIOD_FUTURE
    | set(MONTHS_NOT_MAY)
    | set(ORDINALS)
    | set(NUMBER_WORDS)
    | PERIOD_TO_TODAY_LEADS
    | {"ytd", "date", "today", "yesterday", "since", "end"}
    | {"spring", "summer", "autumn", "fall"}  # the seasons (SEASONS, below)
)
_PERIOD_TOKEN = re.compile(
    "|".join(p.pattern for p in (QUARTER, HALF, FISCAL_YEAR, YEAR)) + r"|\d+(st|nd|rd|th)?|\d{1,2}/\d{1,2}/\d{2,4}"
)


# "before end of June", "between today and end of Q1", "from now thru end of april": from today on.
TO_AN_END = (
    r"\b(?:before|by|until|till|til|through|thru|(?:now|today) (?:and|to|until|till|til|through|thru))"
    r"(?: the)? end of\b"
)


def dated_side(words: list[str], i: int) -> str:
    """The year "before <month>" at ``words[i]`` lies in, as said ("this", "last": "before July
    this year"), or "": "before July" and "before June 2025" give no start (all dates before it,
    or that year's start?), so no plan period says them."""
    after = words[i + 1 : i + 3]
    if len(after) == 2 and after[1] == "year" and after[0] in PERIOD_CURRENT | PERIOD_PAST:
        return "this" if after[0] in PERIOD_CURRENT else "last"
    return ""


# A season after "in", "over", "during", "this", "next" or "last" ("over the summer next year"): its
# months in the northern hemisphere, which the answer's period label then states.
SEASONS = {"spring": ("march", "may"), "summer": ("june", "august"), "autumn": ("september", "november"),
           "fall": ("september", "november")}  # fmt: skip
_SEASON_LEADS = frozenset({"in", "over", "during", "this", "next", "last", "by"})


def _seasons_as_months(words: list[str]) -> list[str]:
    out: list[str] = []
    for i, word in enumerate(words):
        lead = words[i - 2] if i > 1 and words[i - 1] == "the" else words[i - 1] if i else ""
        if word in SEASONS and lead in _SEASON_LEADS:
            if out and out[-1] == "the":
                out.pop()
            first, last = SEASONS[word]
            out += [first, "to", last]
        else:
            out.append(word)
    return out


def _before_a_month(words: list[str], today: date) -> Period | None:
    """ "before July this year": from the year's first day to the day before the month begins."""
    for i, word in enumerate(words):
        month = MONTHS_NOT_MAY.get(word) or (5 if word == "may" else None)
        if not i or words[i - 1] != "before" or not month or month == 1:
            continue
        side = dated_side(words, i)
        if side:
            year = today.year if side == "this" else today.year - 1
            end = date(year, month, 1) - timedelta(days=1)
            return Period(f"{year} before {calendar.month_name[month]}", date(year, 1, 1), end)
    return None


def _today_to_a_day(words: list[str], today: date) -> Period | None:
    """ "between today and jan 31 2027", "from now until 15 feb", "today thru march 2nd", "today till the 15th of
    january", "today-3/15/27": from today to that day (the next such day when no year is said)."""
    found = _TODAY_TO.search(" ".join(words))
    if found is None:
        return None
    day = _named_day(found.group("rest").split(), today)
    if day is None or day < today:
        return None
    return Period(f"from today until {day.day} {calendar.month_name[day.month]} {day.year}", today, day)


_TODAY_TO = re.compile(r"\b(?:today|now)\s*(?:and|to|until|till|til|through|thru|-)\s*(?:the\s+)?(?P<rest>.+)")
_NUMERIC_DAY = re.compile(r"(\d{1,2})/(\d{1,2})/(\d{2}|\d{4})\b")


def _named_day(words: list[str], today: date) -> date | None:
    """The day the words open with: "jan 31 2027", "15 feb", "march 2nd", "15th of january", "3/15/27" (a
    numeric date only where its order is plain: one of its first two numbers is over 12)."""
    if not words:
        return None
    numeric = _NUMERIC_DAY.match(words[0])
    if numeric is not None:
        a, b, y = (int(g) for g in numeric.groups())
        if (a > 12) == (b > 12):
            return None  # "04/05/2027": April or May, not said
        day_, month, year = (a, b, y) if a > 12 else (b, a, y)
        try:
            return date(year + 2000 if year < 100 else year, month, day_)
        except ValueError:
            return None
    words = [w for w in words[:5] if w not in ("of", "the")]
    ordinal = re.compile(r"(\d{1,2})(?:st|nd|rd|th)?")
    for first, second in ((0, 1), (1, 0)):
        if len(words) < 2:
            return None
        named = MONTHS_NOT_MAY.get(words[first]) or (5 if words[first] == "may" else None)
        number = ordinal.fullmatch(words[second])
        if named is None or number is None:
            continue
        after = words[2] if len(words) > 2 else ""
        said = int(after) + (2000 if len(after) == 2 else 0) if re.fullmatch(r"\d{2}|\d{4}", after) else None
        try:
            day = date(said or today.year, named, int(number.group(1)))
            if said is None and day < today:
                day = date(today.year + 1, named, int(number.group(1)))
        except ValueError:
            return None
        return day
    return None


def _until_a_month(words: list[str], today: date) -> Period | None:
    """ "renewing before April", "expiring before june 2027": something still to come, from today
    to the day before the month begins (the next such month when no year is said)."""
    for i, word in enumerate(words):
        day = _day_before_a_month(words, i, today)
        if day is not None:
            return day
        if not i or words[i - 1] != "before" or not (word in MONTHS_NOT_MAY or word == "may"):
            continue
        month = _calendar_period(words[i : i + 2], today)
        if month is None:
            continue
        if month.start <= today and not any(YEAR.fullmatch(w) for w in words[i + 1 : i + 2]):
            month = _calendar_period(words[i : i + 1], today, year=today.year + 1) or month
        if month.start <= today:
            return None
        end = month.start - timedelta(days=1)
        return Period(f"from today until the end of {calendar.month_name[end.month]} {end.year}", today, end)
    return None


def _day_before_a_month(words: list[str], i: int, today: date) -> Period | None:
    """ "renewals coming up before 25 december": from today to the day before that day, the next
    25 December to come when no year is said."""
    if not i or words[i - 1] != "before" or i + 1 >= len(words):
        return None
    number = re.fullmatch(r"(\d{1,2})(?:st|nd|rd|th)?", words[i])
    month = MONTHS_NOT_MAY.get(words[i + 1]) or (5 if words[i + 1] == "may" else None)
    if number is None or month is None:
        return None
    try:
        day = date(today.year, month, int(number.group(1)))
        if day <= today:
            day = date(today.year + 1, month, int(number.group(1)))
    except ValueError:
        return None
    end = day - timedelta(days=1)
    return Period(f"from today until {end.day} {calendar.month_name[end.month]} {end.year}", today, end)


def _next_occurrence(words: list[str], period: Period, today: date) -> Period | None:
    """A month, quarter or half named without a year and bounded by today ("till end of
    April" said in November): the next one to end, not the latest one to begin."""
    if not calendar_anchor(words):
        return None
    return _calendar_period(words, today, year=today.year + 1) if period.start.year == today.year else None


def _ends_today(words: list[str], period: Period, today: date) -> bool:
    """ "earlier this month", "so far this qtr" (shorthand read): the current unit up to today."""
    current = re.fullmatch(r"this (month|quarter|year)", period.label)
    if current is None or not period.start <= today <= period.end:
        return False
    return any(
        w in PERIOD_TO_TODAY_LEADS and words[i + 1 : i + 2] and words[i + 1] in PERIOD_CURRENT
        for i, w in enumerate(words)
    )


def period_words(words: list[str], *, today: date) -> set[str]:
    """The words ``words`` say their period in ("last", "quarter" of "and last quarter?"), none when
    they name no period: what a follow-up states besides its subject."""
    if read_period(words, today=today)[0] is None:
        return set()
    return {w for w in words if w in _PERIOD_WORDS or w.rstrip("s") in PERIOD_UNITS or _PERIOD_TOKEN.fullmatch(w)}


def calendar_anchor(words: list[str]) -> bool:
    """A quarter, a half or a month named in ``words`` ("Q3", "H1", "November")."""
    return any(
        QUARTER.fullmatch(w) or HALF.fullmatch(w) or w in MONTHS_NOT_MAY or _half_named(words, i)
        for i, w in enumerate(words)
    )


def _half_named(words: list[str], i: int) -> int:
    """ "the second half", "first half of 2025": the half year (1 or 2) named at ``words[i]``, or 0."""
    if words[i] != "half" or not i or ORDINALS.get(words[i - 1], 0) not in (1, 2):
        return 0
    return ORDINALS[words[i - 1]]


def _anchor_in_year(words: list[str], named: Period | None, today: date) -> Period | None:
    """ "Q1 last year", "November this year": a quarter, half or month qualified by a year named
    relatively is that quarter of that year, not the whole year nor this year's quarter."""
    if named is None or not re.fullmatch(r"(last|this|next) year", named.label) or not calendar_anchor(words):
        return None
    if range_anchors(words) or day_range_anchors(words):
        # "between march and june this year", "from 15 march to 15 april last year": the range in that year
        return _range_period(words, today, year=named.start.year)
    return _calendar_period(words, today, year=named.start.year)


def _open_ended(words: list[str]) -> bool:
    """ "since ...", or "from" and an open end within the next three words ("from June on")."""
    if "since" in words:
        return True
    return any(w == "from" and set(words[i + 2 : i + 4]) & PERIOD_OPEN_ENDS for i, w in enumerate(words))


def _named_period(words: list[str], today: date) -> Period | None:
    directions = {
        **{w: "past" for w in PERIOD_PAST},
        **{w: "current" for w in PERIOD_CURRENT},
        **{w: "future" for w in PERIOD_FUTURE},
    }
    for i, word in enumerate(words):
        direction = directions.get(word)
        if direction is None:
            continue
        rest = words[i + 1 : i + 3]
        count = number(rest[0]) if rest else None
        if count is not None and len(rest) > 1 and rest[1].rstrip("s") in PERIOD_UNITS:
            unit = rest[1].rstrip("s")
            start, end = _span(direction, count, unit, today)
            label = f"the {'next' if direction == 'future' else 'last'} {count} {unit}s"
            return Period(label, start, end)
        if rest and rest[0] in PERIOD_UNITS:
            offset = {"past": -1, "current": 0, "future": 1}[direction]
            start, end = unit_bounds(rest[0], today, offset)
            label = f"{ {-1: 'last', 0: 'this', 1: 'next'}[offset] } {rest[0]}"
            return Period(label, start, end)
    if "yesterday" in words:
        return Period("yesterday", today - timedelta(days=1), today - timedelta(days=1))
    if "today" in words:
        return Period("today", today, today)
    return None


def day_of_month(words: list[str], i: int) -> int:
    """The day a month name at ``i`` is given with ("3 March", "the 3rd of March", "March 3"), or 0."""
    before = words[i - 2] if i > 1 and words[i - 1] == "of" else words[i - 1] if i else ""
    after = words[i + 1] if i + 1 < len(words) else ""
    for word in (before, after):
        found = re.fullmatch(r"(\d{1,2})(?:st|nd|rd|th)?", word)
        if found and 1 <= int(found.group(1)) <= 31:
            return int(found.group(1))
    return 0


def _year_near(words: list[str], i: int) -> int | None:
    for w in words[i + 1 : i + 3]:
        if YEAR.fullmatch(w):
            return int(w)
    return None


def _range_month(words: list[str], i: int) -> int | None:
    """The month of ``words[i]`` as a range's end: "may" only beside a join and another month."""
    if words[i] != "may":
        return MONTHS_NOT_MAY.get(words[i])
    beside = (words[i + 1 : i + 3], words[max(i - 2, 0) : i][::-1])
    return 5 if any(len(w) == 2 and w[0] in PERIOD_RANGE_JOINS and w[1] in MONTHS_NOT_MAY for w in beside) else None


def range_anchors(words: list[str]) -> list[int] | None:
    """Two or more months or quarters joined only by range words ("April and May 2025",
    "from Q1 to Q2 2025", "nov to feb", "may - jul"): one span, first start to last end."""
    anchors = [i for i, w in enumerate(words) if _range_month(words, i) or QUARTER.fullmatch(w)]
    if len(anchors) < 2 or any(day_of_month(words, i) for i in anchors if not words[i].startswith("q")):
        return None
    for a, b in pairwise(anchors):
        between = [w for w in words[a + 1 : b] if not YEAR.fullmatch(w)]
        if not between or not set(between) <= PERIOD_RANGE_JOINS:
            return None
    return anchors


def _months_of_a_year(words: list[str], today: date) -> Period | None:
    """ "the first six months of this year", "last 3 months of 2025": that many months from the
    start of the year named after "of", or up to its close."""
    for i in range(len(words) - 3):
        edge, count, unit, of = words[i : i + 4]
        months = number(count)
        if edge not in ("first", "last", "final") or unit not in ("months", "mos") or of != "of" or not months:
            continue
        year = _named_period(words[i + 4 : i + 6], today) or _calendar_period(words[i + 4 : i + 5], today)
        if year is None or (year.start.month, year.end.month) != (1, 12) or not 1 <= months <= 12:
            return None
        y = year.start.year
        if edge == "first":
            return Period(f"the first {months} months of {y}", date(y, 1, 1), month_end(y, months))
        return Period(f"the last {months} months of {y}", date(y, 13 - months, 1), month_end(y, 12))
    return None


def day_range_anchors(words: list[str]) -> tuple[int, int] | None:
    """Two days of months joined by range words ("15 march and 15 april", "feb 1 - apr 15 2026"): the
    months' places, or None."""
    months = [i for i, w in enumerate(words) if _range_month(words, i) or w == "may" and day_of_month(words, i)]
    if len(months) != 2 or not all(day_of_month(words, i) for i in months):
        return None
    a, b = months
    between = [
        w for w in words[a + 1 : b] if not re.fullmatch(r"\d{1,4}(?:st|nd|rd|th)?", w) and w not in ("of", "the")
    ]
    return (a, b) if between and set(between) <= PERIOD_RANGE_JOINS else None


def _day_range(words: list[str], today: date, year: int | None) -> Period | None:
    """ "between 1 february and 15 april 2026", "b/w 15 march and 15 april this yr": from the first
    day to the second; with no year said, the latest such span that has begun."""
    anchors = day_range_anchors(words)
    if anchors is None:
        return None
    (a, b) = anchors
    first_month, last_month = (5 if words[i] == "may" else _range_month(words, i) or 0 for i in (a, b))
    first_day, last_day = day_of_month(words, a), day_of_month(words, b)
    stated_first = _year_near(words, a)
    try:
        last_year = _year_near(words, b) or year
        if last_year is None:  # the most recent such day that has come
            last_year = today.year if date(today.year, last_month, last_day) <= today else today.year - 1
        end = date(last_year, last_month, last_day)
        start = date(stated_first if stated_first and stated_first != last_year else last_year, first_month, first_day)
    except ValueError:
        return None  # "31 june"
    if start > end:
        start = start.replace(year=start.year - 1)
    return Period(f"{start.day} {start:%b} to {end.day} {end:%b} {end.year}", start, end)


def _range_period(words: list[str], today: date, *, year: int | None = None) -> Period | None:
    """Months or quarters joined by range words, or two days of months; ``year``: the year the last
    one belongs to when the words state none ("between march and june this year")."""
    days = _day_range(words, today, year)
    if days is not None:
        return days
    anchors = range_anchors(words)
    if anchors is None:
        return None

    def span(i: int, year: int) -> tuple[date, date, str]:
        month = _range_month(words, i)
        first, last = (month, month) if month else (3 * int(words[i][1]) - 2, 3 * int(words[i][1]))
        label = calendar.month_name[month] if month else words[i].upper()
        return date(year, first, 1), month_end(year, last), label

    def stated(i: int) -> int | None:
        after = words[i + 1] if i + 1 < len(words) else ""
        return int(after) if YEAR.fullmatch(after) else None

    first_at, last_at = anchors[0], anchors[-1]
    last_year = stated(last_at) or year
    if last_year is None:  # the most recent such month or quarter that has begun
        last_year = today.year if span(last_at, today.year)[0] <= today else today.year - 1
    last_start, last_end, last_label = span(last_at, last_year)
    first_year = stated(first_at) or (last_year if span(first_at, last_year)[0] <= last_start else last_year - 1)
    first_start, _, first_label = span(first_at, first_year)
    if first_start > last_start:
        return None
    head = first_label if first_year == last_year else f"{first_label} {first_year}"
    return Period(f"{head} to {last_label} {last_year}", first_start, last_end)


def _calendar_period(words: list[str], today: date, *, year: int | None = None) -> Period | None:
    """A fiscal year, half, quarter, month (or day of one) or year named; ``year`` is the year a
    quarter, half or month with none of its own belongs to (else the current or latest one)."""
    for i, word in enumerate(words):
        fiscal = FISCAL_YEAR.fullmatch(word)
        if fiscal:  # "FY25": the records keep no fiscal calendar, so the calendar year
            year = int(fiscal.group(1)) + (2000 if len(fiscal.group(1)) == 2 else 0)
            return Period(f"FY{year % 100:02d} as calendar {year}", date(year, 1, 1), date(year, 12, 31))
        if HALF.fullmatch(word) or _half_named(words, i):  # a half year: "H1 2025", "the first half"
            half = int(word[1]) if HALF.fullmatch(word) else _half_named(words, i)
            in_year = _year_near(words, i) or year or today.year
            start = date(in_year, 6 * half - 5, 1)
            return Period(f"H{half} {in_year}", start, month_end(in_year, 6 * half))
        quarter = int(word[1]) if QUARTER.fullmatch(word) else None
        if quarter is None and word in ORDINALS and i + 1 < len(words) and words[i + 1] == "quarter":
            quarter = ORDINALS[word]
        if quarter is not None:
            # "the first quarter of 2025": the year comes after "quarter", not after "first"
            in_year = _year_near(words, i + 1 if word in ORDINALS else i) or year or today.year
            start = date(in_year, 3 * quarter - 2, 1)
            return Period(f"Q{quarter} {in_year}", start, month_end(in_year, 3 * quarter))
        month = MONTHS_NOT_MAY.get(word)
        if month is None and word == "may" and i and words[i - 1] in ("in", "of", "since", "during"):
            month = 5
        if month is not None and not (word == "march" and i + 1 < len(words) and words[i + 1] == "on"):
            day = day_of_month(words, i)
            stated = _year_near(words, i + (1 if day and i + 1 < len(words) and words[i + 1] == str(day) else 0))
            latest = today.year if (month, day or 1) <= (today.month, today.day) else today.year - 1
            in_year = stated or year or latest
            if day:  # "on 3 March", "March 3rd": that day, never the whole month
                try:
                    on = date(in_year, month, day)
                except ValueError:
                    return None
                return Period(f"{day} {calendar.month_name[month]} {in_year}", on, on)
            end = month_end(in_year, month)
            return Period(f"{calendar.month_name[month]} {in_year}", date(in_year, month, 1), end)
    for i, word in enumerate(words):
        if words[i + 1 : i + 2] and words[i + 1] in CURRENCY_WORDS:
            continue  # "under 2000 dollars": an amount
        if YEAR.fullmatch(word) and (i == 0 or words[i - 1] != "acct"):
            year = int(word)
            return Period(str(year), date(year, 1, 1), date(year, 12, 31))
    return None


def shift_period(period: Period, *, months: int) -> Period | None:
    """``period`` moved by whole months ("the same month last year"), when it is whole months."""
    start = period.start
    if start.day != 1 or (period.end + timedelta(days=1)).day != 1:
        return None
    span = (period.end.year - start.year) * 12 + period.end.month - start.month
    year, month = shift_month(start.year, start.month, months)
    end = month_end(*shift_month(year, month, span))
    if span == 0:
        label = f"{calendar.month_name[month]} {year}"
    elif span == 11 and month == 1:
        label = str(year)
    else:
        label = f"{date(year, month, 1):%b %Y} to {end:%b %Y}"
    return Period(label, date(year, month, 1), end)


def period_before(period: Period | None, unit: str) -> Period | None:
    """The calendar ``unit`` before ``period`` ("the quarter before"), when ``period`` is exactly one such unit."""
    if period is None or unit not in ("month", "quarter", "year"):
        return None
    months = UNIT_MONTHS[unit]
    start = period.start
    if start.day != 1 or (unit == "quarter" and start.month % 3 != 1) or (unit == "year" and start.month != 1):
        return None
    if shift_month(start.year, start.month, months) != (period.end + timedelta(days=1)).timetuple()[:2]:
        return None
    year, month = shift_month(start.year, start.month, -months)
    end = month_end(*shift_month(year, month, months - 1))
    if unit == "month":
        label = f"{calendar.month_name[month]} {year}"
    elif unit == "quarter":
        label = f"Q{(month - 1) // 3 + 1} {year}"
    else:
        label = str(year)
    return Period(label, date(year, month, 1), end)


def same_period_in_year(period: Period, year: int) -> Period:
    """``period`` moved to ``year`` ("the same week of 2024", "the same span three years ago"): whole
    months keep their grain (November 2026 -> November 2025); any other span moves day for day
    (1 Oct to 4 Dec 2026 -> 1 Oct to 4 Dec 2025; 29 February becomes the 28th)."""
    years = year - period.start.year
    moved = shift_period(period, months=12 * years)
    if moved is not None:
        old = str(period.start.year)
        if period.label.endswith(old) and period.start.year == period.end.year:
            moved = Period(period.label[: -len(old)] + str(year), moved.start, moved.end)  # "Q3 2025"
        elif moved.start.month % 3 == 1 and (moved.end.year, moved.end.month) == (year, moved.start.month + 2):
            moved = Period(f"Q{(moved.start.month - 1) // 3 + 1} {year}", moved.start, moved.end)
        return moved

    def back(day: date) -> date:
        return day.replace(year=day.year + years, day=min(day.day, calendar.monthrange(day.year + years, day.month)[1]))

    start, end = back(period.start), back(period.end)
    return Period(f"the same period of {year}", start, end)
