"""Time expressions: when a stated situation stops being true.

A duration needs an origin: the turn's timestamp supplies it ("this week" said on a
Wednesday ends that Sunday at midnight). With no stated end a situation gets the default
thirty days (write-rules chapter). Each pattern is a row (regex, resolver name); the most
specific row that names a future end wins, and a second phrase joined to it ("today and
tomorrow") extends it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime, timedelta

from atlas.dates import COUNT_WORDS, MONTHS, WEEKDAY_NUMBERS, number, unit_bounds, words_pattern
from memory.gate.vocabulary import HABITUAL_ADVERBS

# A situation with no stated end (write-rules chapter).
DEFAULT_SITUATION_DAYS = 30

_WEEKDAY_RE = rf"({words_pattern(WEEKDAY_NUMBERS)})"
_MONTH_RE = rf"({words_pattern(MONTHS)})\.?"
_NUM_RE = rf"(\d+|{words_pattern(COUNT_WORDS)})"
_UNTIL = (
    # "til im back on the 12th", "until I'm back monday": the return is the end
    r"(?:(?:until|till|til)\s+(?:i'm|im|i\s+am|i\s+get)\s+back(?:\s+(?:on|in))?|"
    r"back\s+(?:in|at|to)\s+(?:the\s+|my\s+)?(?:office|desk|work|base)(?:\s+on)?|back\s+in\s+on|"
    # "back on my own patch fri the 20th", "back at the depot monday": back at a place of the user's
    r"back\s+(?:in|at|to|on)\s+(?:the|my)\s+(?:own\s+)?[a-z]+(?:\s+on)?(?=\s+(?:next\s+)?[a-z]{3})|"
    r"(?:flying\s+|heading\s+|getting\s+)?home(?:\s+on)?|"
    r"until|till|til|'til|through|thru|up\s+to|to|back\s+on|back|returning|until\s+next|till\s+next)"
)
# The days one unit of a duration lasts ("a fortnight" is two weeks).
UNIT_DAYS = {"day": 1, "week": 7, "wk": 7, "fortnight": 14, "month": 30}
# "3 weeks", "a fortnight", "ten days": never a rate ("3 days a week") nor a time past ("3 weeks ago").
_DURATION_RE = (
    rf"(?P<count>\d+|{words_pattern(COUNT_WORDS)})\s+(?P<unit>{words_pattern(UNIT_DAYS)})s?\b"
    r"(?!\s+(?:a|an|per|each|every)\s+(?:day|week|month|year)\b|\s+ago\b)"
)
# The day a duration counts from: "tomorrow", "(next) Monday", "next week" (its Monday); "today"
# and "now" count from the moment said.
_START_RE = (
    r"(?P<start>today|now|tomorrow|tmrw|tmr|next\s+week|"
    rf"(?:(?P<next>next)\s+)?(?P<weekday>{words_pattern(WEEKDAY_NUMBERS)}))\b"
)
# What joins the two days of a span: "mon-wed", "Tue thru Thu", "Monday to Wednesday".
_SPAN_LINK = rf"(?:\s*[-\u2013\u2014]\s*|\s+{_UNTIL}\s+)"


def _day_start(moment: datetime) -> datetime:
    return moment.replace(hour=0, minute=0, second=0, microsecond=0)


def _end_of_day(moment: datetime) -> datetime:
    return _day_start(moment) + timedelta(days=1)


def _next_weekday(at: datetime, index: int, *, next_week: bool = False) -> datetime:
    ahead = (index - at.weekday()) % 7
    if ahead == 0:
        ahead = 7
    if next_week and ahead < 7 and at.weekday() < index:
        # "until next Friday" said on a Monday: the Friday of the following week.
        ahead += 7
    return at + timedelta(days=ahead)


def _end_of(at: datetime, unit: str, offset: int = 0) -> datetime:
    """The midnight that ends the calendar ``unit`` ``offset`` units from the one holding ``at``."""
    last = unit_bounds(unit, at.date(), offset)[1]
    return _end_of_day(at.replace(year=last.year, month=last.month, day=last.day))


def _date_in_future(at: datetime, month: int, day: int) -> datetime | None:
    try:
        candidate = at.replace(month=month, day=day)
    except ValueError:
        return None
    if _end_of_day(candidate) <= at:
        try:
            candidate = candidate.replace(year=at.year + 1)
        except ValueError:
            return None
    return candidate


@dataclass(frozen=True)
class TimeSpan:
    expires_at: datetime
    phrase: str  # the words that stated the end ("" when defaulted)
    stated: bool
    # When the situation begins, if the phrase puts it ahead ("on Thursday", "next week");
    # None when it holds from now ("until Friday", "this week").
    starts_at: datetime | None = None

    def words(self) -> str:
        """The span as a note says it: "until Friday 20 March 2026", "on Thursday 19 March
        2026", "in April 2026", "from Monday 23 March 2026 until Sunday 29 March 2026"."""
        last = self.expires_at - timedelta(seconds=1)
        if self.starts_at is None:
            return f"until {format_day(last)}"
        if self.starts_at.date() == last.date():
            return f"on {format_day(last)}"
        if self.starts_at.day == 1 and _end_of(self.starts_at, "month") == self.expires_at:
            return f"in {last:%B %Y}"
        return f"from {format_day(self.starts_at)} until {format_day(last)}"


_TIME_PATTERNS: list[tuple[re.Pattern, str]] = [
    (re.compile(rf"\b{_UNTIL}\s+(?:the\s+)?end\s+of\s+(?:the\s+|this\s+)?(week|month|year|quarter)\b", re.I), "end_of"),
    # "til the weekend after next": the week after this one, to its last day
    (re.compile(rf"\b{_UNTIL}\s+the\s+(week)end\s+after\s+next\b", re.I), "end_of_next"),
    # "til month end", "until quarter-end", "through year end": the same end, said the short way
    (re.compile(rf"\b{_UNTIL}\s+(?:the\s+|this\s+)?(week|month|year|quarter)[\s-]?end\b", re.I), "end_of"),
    (re.compile(rf"\b{_UNTIL}\s+(?:the\s+)?end\s+of\s+{_MONTH_RE}(?!\s*\d)\b", re.I), "end_of_month_named"),
    # "(from) Monday until Wednesday", "mon-wed next week", "this week tue thru thu": to the end
    # of the last day, in the week the qualifier names; "I work Monday to Wednesday" is the days
    # of every week (skipped in parse_expiry).
    (
        re.compile(
            rf"\b(from\s+)?(?:(next|this)\s+(?:week\s*,?\s+)?)?{_WEEKDAY_RE}{_SPAN_LINK}{_WEEKDAY_RE}"
            rf"(?:\s+(?:of\s+)?(next|this)\s+week)?\b",
            re.I,
        ),
        "weekday_to_weekday",
    ),
    # "back in the office thurs the 23rd", "till friday 9th": the day its number names
    (
        re.compile(rf"\b{_UNTIL}\s+(?:next\s+)?{_WEEKDAY_RE}\s*,?\s+(?:the\s+)?(\d{{1,2}})(?:st|nd|rd|th)?\b", re.I),
        "until_weekday_numbered",
    ),
    (re.compile(rf"\b{_UNTIL}\s+(next\s+)?{_WEEKDAY_RE}(\s+(?:of\s+)?next\s+week)?\b", re.I), "until_weekday"),
    (
        re.compile(rf"\b{_UNTIL}\s+(?:the\s+)?(\d{{1,2}})(?:st|nd|rd|th)?(?:\s+of)?\s+{_MONTH_RE}\b", re.I),
        "until_day_month",
    ),
    (re.compile(rf"\b{_UNTIL}\s+{_MONTH_RE}\s+(\d{{1,2}})(?:st|nd|rd|th)?\b", re.I), "until_month_day"),
    (re.compile(rf"\b{_UNTIL}\s+(?:the\s+)?(\d{{1,2}})(?:st|nd|rd|th)\b", re.I), "until_ordinal"),
    (re.compile(rf"\b{_UNTIL}\s+(?:early\s+|mid-?\s*|late\s+)?{_MONTH_RE}(?!\s*\d)\b", re.I), "until_month"),
    (re.compile(rf"\b{_UNTIL}\s+(tomorrow|tonight|today)\b", re.I), "until_relative"),
    # "away in April": the whole month, from its first day (the rest of it when said in April).
    (re.compile(rf"\b(?:in|during|throughout)\s+{_MONTH_RE}(?!\s*\d)\b", re.I), "in_month"),
    # "for two weeks from Monday", "3 weeks from tmrw": the duration counts from that day, not from now.
    (
        re.compile(
            rf"\b(?:(?:for|over)\s+(?:the\s+)?(?:next\s+)?)?{_DURATION_RE}\s+"
            rf"(?:from|starting|beginning|commencing)\s+(?:on\s+)?{_START_RE}",
            re.I,
        ),
        "for_duration_from",
    ),
    # "starts tmrw, 3 weeks", "from Monday for a fortnight", "begins on Monday and lasts 4 weeks".
    (
        re.compile(
            rf"\b(?:starts?|starting|begins?|beginning|commencing|from)\s+(?:on\s+)?{_START_RE}"
            r"[\s,;:\-\u2013\u2014]+(?:and\s+)?(?:(?:lasts?|lasting|runs?|running|is|it'?s|for)\s+)*"
            rf"(?:the\s+next\s+)?{_DURATION_RE}",
            re.I,
        ),
        "for_duration_from",
    ),
    # "back in 10 days", "returning in a fortnight": away until the day of the return starts.
    (
        re.compile(
            rf"\b(?:back|returning|return|home)\s+in\s+(?:about\s+|around\s+|roughly\s+)?{_DURATION_RE}"
            r"(?:'?\s+time\b)?",
            re.I,
        ),
        "back_in",
    ),
    (re.compile(rf"\b(?:for|over)\s+(?:the\s+)?(?:next\s+|another\s+)?{_DURATION_RE}", re.I), "for_duration"),
    (re.compile(rf"\b(?:for|over)\s+the\s+next\s+({words_pattern(UNIT_DAYS)})\b", re.I), "for_next_unit"),
    (
        re.compile(
            # ("as of this week", "starting this month": when something begins, not how long it lasts)
            r"(?<!of\s)(?<!from\s)(?<!since\s)(?<!starting\s)(?<!effective\s)"
            r"\b(?:for\s+the\s+rest\s+of\s+|(?:all|rest\s+of)\s+)?(?:this|the)\s+(week|month)(\s+and\s+(?:the\s+)?next(?:\s+one)?)?\b"
            # ("the month-end close", "the month end numbers": a kind of work, no span of time)
            r"(?![\s-]+end\b)",
            re.I,
        ),
        "this_unit",
    ),
    (re.compile(r"\b(?:this|over\s+the|for\s+the)\s+weekend\b", re.I), "weekend"),
    (re.compile(r"\b(?:all\s+)?next\s+(week|month)\b", re.I), "next_unit"),  # "all next week"
    # "from today", "as of today", "starting today": when something begins, not a day it lasts.
    (
        re.compile(
            r"(?<!from\s)(?<!of\s)(?<!since\s)(?<!starting\s)(?<!effective\s)"
            r"\b(today|tonight|this\s+(?:morning|afternoon|evening))\b",
            re.I,
        ),
        "today",
    ),
    (re.compile(r"\btomorrow\b", re.I), "tomorrow"),
    (re.compile(rf"\b(?:on|this|next)\s+{_WEEKDAY_RE}\b", re.I), "on_weekday"),
    (re.compile(r"\bon\s+the\s+(\d{1,2})(?:st|nd|rd|th)\b", re.I), "on_ordinal"),  # "to Tokyo on the 3rd"
]


# A weekday right before "to <weekday>" without "from": the span's start, read as one span.
_WEEKLY = re.compile(rf"(?<!from\s)\b{_WEEKDAY_RE}\s*$", re.I)
# Words of a habit before a bare span: "I work part-time, Monday to Wednesday", "usually in
# Leeds mon-wed", "in the office every tue-thu".
_HABIT = re.compile(
    rf"\b(?:work|works|working|every|each|always|weekly|part[-\s]?time|{words_pattern(HABITUAL_ADVERBS)})\b", re.I
)


def _weekly(name: str, match: re.Match, text: str) -> bool:
    """ "I work Monday to Wednesday": which days of the week, not when it ends. A span with
    "from", "next" or "this week" is one span; a bare one is, unless its sentence says a habit."""
    if name == "weekday_to_weekday":
        groups = match.groups()
        if groups[0] or groups[1] or groups[4]:
            return False
        return bool(_HABIT.search(re.split(r"[.;!?\n]", text[: match.start()])[-1]))
    if name == "until_weekday" and re.match(r"(?:to|through|thru)\b", match.group(0), re.I):
        return bool(_WEEKLY.search(text[: match.start()]))
    return False


_LONGER_BY = re.compile(rf"\bby\s+(?:another\s+|an\s+extra\s+)?{_DURATION_RE}", re.I)


def longer_by(text: str) -> timedelta | None:
    """How much longer a situation now lasts, where only that is said ("extended my leave by a
    week"): counted from its old end, not from now."""
    match = _LONGER_BY.search(text)
    return timedelta(days=_duration_days(match.group("count"), match.group("unit"))) if match else None


# A past event said just before a month in the same sentence: the month is when it happened, not an end.
_PAST_EVENT = re.compile(r"\b(?:back|took|got|became|was|were|began|joined|started|\w{2,}[^e\W]ed)\b[^.;!?]*$", re.I)


def parse_expiry(text: str, at: datetime) -> TimeSpan:
    """When a stated situation stops being true, from the utterance and its timestamp.

    A duration needs an origin: the timestamp supplies it ("this week" said on a Wednesday
    ends that Sunday at midnight). With no stated end the record gets the default thirty
    days (write-rules chapter). Ends are end-of-day in the timestamp's timezone.
    """
    found: list[tuple[re.Match, datetime]] = []
    name_of: dict[int, str] = {}
    for pattern, name in _TIME_PATTERNS:
        for match in pattern.finditer(text):
            if _weekly(name, match, text):
                continue  # "I work Monday to Wednesday": the days of every week, not an end
            if name == "in_month" and _PAST_EVENT.search(text[max(0, match.start() - 60) : match.start()]):
                continue  # "took it over from dan in march", "moved over to it back in february": when it began
            end = _resolve(name, match, at)
            if end is not None and end > at:
                found.append((match, end))
                name_of[id(match)] = name
    if not found:
        return TimeSpan(expires_at=at + timedelta(days=DEFAULT_SITUATION_DAYS), phrase="", stated=False)
    match, end = found[0]  # the most specific pattern wins ...
    start, stop = match.span()
    begins = _begins(name_of[id(match)], match, at)
    for other, other_end in found[1:]:
        # ... and a second phrase joined to it ("today and tomorrow") extends it to the later end.
        lo, hi = sorted([(start, stop), other.span()])
        if re.fullmatch(r"\s*(?:and|&|or|to|through)\s*", text[lo[1] : hi[0]], re.I):
            start, stop, end = lo[0], hi[1], max(end, other_end)
            begins = begins if lo[0] == match.start() else None
    return TimeSpan(expires_at=end, phrase=text[start:stop], stated=True, starts_at=begins)


def _next_day_numbered(at: datetime, number: int) -> datetime | None:
    """The next day with this number ("the 3rd"): this month's when it is still ahead, else next month's."""
    month, year = at.month, at.year
    if number <= at.day:
        month, year = (1, year + 1) if month == 12 else (month + 1, year)
    try:
        return at.replace(year=year, month=month, day=number)
    except ValueError:
        return None


def _weekday_ahead(at: datetime, weekday: str, *, next_word: str | None) -> datetime:
    """The start of the day a "(next) Monday" names."""
    return _day_start(_next_weekday(at, WEEKDAY_NUMBERS[weekday.lower()], next_week=bool(next_word)))


def _duration_days(count: str, unit: str) -> int:
    return UNIT_DAYS[unit.lower()] * (number(count, counts=True) or 1)


def _duration_start(match: re.Match, at: datetime) -> datetime | None:
    """The first day of a duration's named start ("tomorrow", "Monday", "next week"); None for
    "today" or "now", which count from the moment said."""
    start = re.sub(r"\s+", " ", match.group("start").lower())
    if start in ("today", "now"):
        return None
    if start in ("tomorrow", "tmrw", "tmr"):
        return _day_start(at + timedelta(days=1))
    if start == "next week":
        return _end_of(at, "week")  # next week begins as this one ends
    return _weekday_ahead(at, match.group("weekday"), next_word=match.group("next"))


def _duration_end(match: re.Match, at: datetime) -> datetime:
    """A duration from its start: the start day is its first ("two weeks from Monday 23 March"
    hold through Sunday 5 April); from now it ends at midnight after the last day."""
    days = _duration_days(match.group("count"), match.group("unit"))
    start = _duration_start(match, at) if "start" in match.re.groupindex else None
    return start + timedelta(days=days) if start is not None else _end_of_day(at + timedelta(days=days))


def _weekday_span(match: re.Match, at: datetime) -> tuple[datetime, datetime]:
    """The first day and the end of a weekday span ("mon-wed next week"): in the week its
    qualifier names; after "from", or bare, the first such start ahead."""
    _, lead, first, last, week = match.groups()
    index = WEEKDAY_NUMBERS[first.lower()]
    length = (WEEKDAY_NUMBERS[last.lower()] - index) % 7
    today = _day_start(at)
    qualifier = (lead or week or "").lower()
    if qualifier:
        monday = today - timedelta(days=at.weekday()) + timedelta(weeks=1 if qualifier == "next" else 0)
        begins = monday + timedelta(days=index)
    else:
        # bare, the coming span, from its next start ("I'm away Tuesday until Friday", said on a
        # Tuesday or a Thursday, is next week's: one away now says "until Friday")
        begins = _day_start(_next_weekday(at, index))
    return begins, _end_of_day(begins + timedelta(days=length))


def _begins(name: str, match: re.Match, at: datetime) -> datetime | None:
    """The first day of a span that lies ahead ("on Thursday", "tomorrow", "next week")."""
    groups = match.groups()
    if name == "on_weekday":
        return _day_start(_next_weekday(at, WEEKDAY_NUMBERS[groups[0].lower()]))
    if name == "tomorrow":
        return _day_start(at + timedelta(days=1))
    if name == "next_unit":
        return _end_of(at, groups[0].lower())  # the next week or month begins as this one ends
    if name == "weekday_to_weekday":
        begins = _weekday_span(match, at)[0]
        return begins if begins > at else None  # under way: it holds from now
    if name == "for_duration_from":
        return _duration_start(match, at)
    if name == "on_ordinal":
        day = _next_day_numbered(at, int(groups[0]))
        return _day_start(day) if day is not None else None
    if name == "in_month" and MONTHS[groups[0].lower()] != at.month:
        start = _date_in_future(at, MONTHS[groups[0].lower()], 1)
        return _day_start(start) if start is not None else None
    return None


def _resolve(name: str, match: re.Match, at: datetime) -> datetime | None:
    groups = match.groups()
    if name == "end_of":
        return _end_of(at, groups[0].lower())
    if name == "end_of_next":
        return _end_of(at, groups[0].lower(), 1)
    if name == "end_of_month_named":
        # "until the end of May": May's last day, this year if May has not ended yet.
        first = _date_in_future(at.replace(day=1), MONTHS[groups[0].lower()], 1)
        return _end_of(first, "month") if first else None
    if name == "weekday_to_weekday":
        return _weekday_span(match, at)[1]
    if name == "until_weekday":
        # "until next Friday" and "until Friday next week" name the same day.
        target = _next_weekday(at, WEEKDAY_NUMBERS[groups[1].lower()], next_week=bool(groups[0] or groups[2]))
        if re.match(r"back", match.group(0), re.I):
            return _day_start(target)
        return _end_of_day(target)
    if name == "until_weekday_numbered":
        numbered = _next_day_numbered(at, int(groups[1]))
        if numbered is None:
            return None
        return _day_start(numbered) if re.match(r"back", match.group(0), re.I) else _end_of_day(numbered)
    if name == "until_day_month":
        day = _date_in_future(at, MONTHS[groups[1].lower()], int(groups[0]))
        return _end_of_day(day) if day else None
    if name == "until_month_day":
        day = _date_in_future(at, MONTHS[groups[0].lower()], int(groups[1]))
        return _end_of_day(day) if day else None
    if name in ("until_ordinal", "on_ordinal"):
        day = _next_day_numbered(at, int(groups[0]))
        return _end_of_day(day) if day is not None else None
    if name == "in_month":
        month = MONTHS[groups[0].lower()]
        start = at if month == at.month else _date_in_future(at, month, 1)
        return _end_of(start, "month") if start is not None else None
    if name == "until_month":
        month = MONTHS[groups[0].lower()]
        if month == at.month:
            return _end_of(at, "month")  # "until March" said in March: until March ends
        start = _date_in_future(at, month, 1)
        if start is None:
            return None
        return _day_start(start)
    return _resolve_relative(name, match, at)


def _resolve_relative(name: str, match: re.Match, at: datetime) -> datetime | None:
    groups = match.groups()
    if name == "until_relative":
        word = groups[0].lower()
        return _end_of_day(at + timedelta(days=1 if word == "tomorrow" else 0))
    if name in ("for_duration", "for_duration_from"):
        return _duration_end(match, at)
    if name == "back_in":
        return _day_start(at + timedelta(days=_duration_days(match.group("count"), match.group("unit"))))
    if name == "for_next_unit":
        return _end_of_day(at + timedelta(days=_duration_days("1", groups[0])))
    if name == "this_unit":  # "this week and next" runs to the end of the next one
        return _end_of(at, groups[0].lower(), 1 if groups[1] else 0)
    if name == "weekend":
        return _end_of(at, "week")
    if name == "next_unit":
        return _end_of(at, groups[0].lower(), 1)
    if name == "today":
        return _end_of_day(at)
    if name == "tomorrow":
        return _end_of_day(at + timedelta(days=1))
    if name == "on_weekday":
        return _end_of_day(_next_weekday(at, WEEKDAY_NUMBERS[groups[0].lower()]))
    return None


def format_day(moment: datetime) -> str:
    return f"{moment:%A} {moment.day} {moment:%B %Y}"
