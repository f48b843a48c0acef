"""Time expressions: when a stated situation ends, from the words and the turn's timestamp.

Every expected end is worked out by hand from a calendar (an end is midnight after the last
day; "back on Monday" ends as Monday starts), never from the resolver's own helpers.
"""

from datetime import UTC, datetime, timedelta

import pytest

from memory.gate.timex import parse_expiry

TUESDAY = datetime(2026, 3, 17, 14, 30, tzinfo=UTC)  # Tuesday 17 March 2026
MONDAY = datetime(2026, 3, 16, 9, 0, tzinfo=UTC)
THURSDAY = datetime(2026, 3, 19, 9, 0, tzinfo=UTC)
SATURDAY = datetime(2026, 3, 21, 10, 0, tzinfo=UTC)
MAY_2 = datetime(2026, 5, 2, 12, 0, tzinfo=UTC)
NOV_5 = datetime(2026, 11, 5, 12, 0, tzinfo=UTC)
DEC_20 = datetime(2026, 12, 20, 12, 0, tzinfo=UTC)
JAN_31 = datetime(2027, 1, 31, 12, 0, tzinfo=UTC)


def day(year, month, dd):
    return datetime(year, month, dd, tzinfo=UTC)


@pytest.mark.parametrize(
    ("text", "at", "expires", "phrase"),
    [
        # Quarters: the quarter the turn falls in, whichever month of it.
        ("I'm covering the Benelux desk until the end of the quarter.", TUESDAY, day(2026, 4, 1), None),
        ("I'm covering the Benelux desk until the end of the quarter.", MAY_2, day(2026, 7, 1), None),
        ("I'm covering the Benelux desk until the end of the quarter.", NOV_5, day(2027, 1, 1), None),
        # Year end.
        ("I'm on the audit project until the end of the year.", TUESDAY, day(2027, 1, 1), None),
        # "Back on Monday": away until Monday starts; said on Tuesday, that is next week's Monday.
        ("I'm out, back on Monday.", TUESDAY, day(2026, 3, 23), "back on Monday"),
        ("I'm out of the office until Tuesday.", TUESDAY, day(2026, 3, 25), None),  # said on a Tuesday: next one
        # "Next Friday" said early in the week is the Friday of the following week.
        ("I'm travelling until next Friday.", MONDAY, day(2026, 3, 28), None),
        ("I'm travelling until next Friday.", SATURDAY, day(2026, 3, 28), None),
        ("I'm working from home until Friday next week.", THURSDAY, day(2026, 3, 28), "until Friday next week"),
        # A month: until it starts; the current month: until it ends.
        ("I'm on leave until May.", TUESDAY, day(2026, 5, 1), "until May"),
        ("I'm on leave until March.", TUESDAY, day(2026, 4, 1), None),
        ("I'm on leave until early June.", TUESDAY, day(2026, 6, 1), None),
        # "From Monday until Wednesday": the end is the first such day after the start.
        ("I'm in Rome from Monday until Wednesday.", TUESDAY, day(2026, 3, 26), "from Monday until Wednesday"),
        ("I'm in Lyon from Thursday to Friday.", TUESDAY, day(2026, 3, 21), None),
        ("I'm in Bergen from next Monday to Tuesday.", MONDAY, day(2026, 3, 25), None),
        ("I'm in Turku from Friday till Monday.", TUESDAY, day(2026, 3, 24), None),
        # The end of a named month: its last day, next year's once this year's has passed.
        ("I'm on parental leave until the end of May.", TUESDAY, day(2026, 6, 1), "until the end of May"),
        ("I'm on leave till the end of March.", TUESDAY, day(2026, 4, 1), None),
        ("I'm on leave until the end of February.", TUESDAY, day(2027, 3, 1), None),
        # A day of the month: this month if still ahead, else next month.
        ("I'm in Oslo until the 20th.", TUESDAY, day(2026, 3, 21), "until the 20th"),
        ("I'm in Oslo until the 15th.", TUESDAY, day(2026, 4, 16), None),
        ("I'm in Oslo until the 5th.", DEC_20, day(2027, 1, 6), None),
        # A date already past this year is next year's.
        ("I'm seconded to Leeds until 2 March.", TUESDAY, day(2027, 3, 3), None),
        ("I'm seconded to Leeds until April 2nd.", TUESDAY, day(2026, 4, 3), None),
        # Weekends end when the week does.
        ("I'm at the cottage over the weekend.", TUESDAY, day(2026, 3, 23), None),
        ("I'm at the cottage this weekend.", SATURDAY, day(2026, 3, 23), None),
        # Next month, across a year end too.
        ("I'm in Madrid next month.", TUESDAY, day(2026, 5, 1), None),
        ("I'm in Madrid next month.", DEC_20, day(2027, 2, 1), None),
        # Durations count from the turn and end at midnight.
        ("I'm on leave for a couple of weeks.", TUESDAY, day(2026, 4, 1), None),
        ("I'm on leave for a  couple of weeks.", TUESDAY, day(2026, 4, 1), None),  # typed with two spaces
        ("I'm on secondment for two months.", TUESDAY, day(2026, 5, 17), None),
        # Every number word of the shared dates vocabulary counts (the gate's own list stopped at
        # "ten": "for twelve days" got the thirty-day default, counted from the moment said).
        # 17 March + 12 days is 29 March, ended at midnight.
        ("I'm in Osaka for twelve days.", TUESDAY, day(2026, 3, 30), "for twelve days"),
        ("I'm on jury service for fifteen days.", TUESDAY, day(2026, 4, 2), "for fifteen days"),
        # 17 March + 30 days is 16 April, ended at midnight (the default would end at 14:30 unstated).
        ("I'm on sabbatical for thirty days.", TUESDAY, day(2026, 4, 17), "for thirty days"),
        ("I'm offline for the next day.", TUESDAY, day(2026, 3, 19), None),
        ("I'm on secondment for the next month.", TUESDAY, day(2026, 4, 17), None),
        ("I'm on leave for the rest of the month.", TUESDAY, day(2026, 4, 1), None),
        # The day itself.
        ("I'm in the Leeds office until tonight.", TUESDAY, day(2026, 3, 18), None),
        ("I'm offline this afternoon.", TUESDAY, day(2026, 3, 18), None),
        ("I'm in Hamburg on Friday.", TUESDAY, day(2026, 3, 21), None),
    ],
)
def test_stated_ends(text, at, expires, phrase):
    span = parse_expiry(text, at)
    assert span.stated and span.expires_at == expires
    if phrase:
        assert span.phrase == phrase


@pytest.mark.parametrize(
    ("text", "at"),
    [
        ("I'm on leave for a while.", TUESDAY),
        ("I'm in Oslo until 29 February.", TUESDAY),  # 2026 and 2027 have no 29 February
        ("I'm in Oslo until the 30th.", JAN_31),  # February has no 30th
    ],
)
def test_no_real_end_gets_the_thirty_day_default(text, at):
    span = parse_expiry(text, at)
    assert not span.stated and span.phrase == ""
    assert span.expires_at == at + timedelta(days=30)


@pytest.mark.parametrize(
    ("text", "at", "starts", "expires", "words"),
    [
        # A named month ahead: all of it, from its first day.
        ("I'm away in April.", TUESDAY, day(2026, 4, 1), day(2026, 5, 1), "in April 2026"),
        ("I'm in Lisbon during May.", TUESDAY, day(2026, 5, 1), day(2026, 6, 1), "in May 2026"),
        ("I'm travelling in January.", TUESDAY, day(2027, 1, 1), day(2027, 2, 1), "in January 2027"),
        # A duration from a day ahead counts from that day (it counted from now: "for two weeks
        # from Monday" ended on 31 March); "all next week" is that week; "on the 3rd" that day.
        (
            "I'll be offline for two weeks from Monday.",
            TUESDAY,
            day(2026, 3, 23),
            day(2026, 4, 6),
            "from Monday 23 March 2026 until Sunday 5 April 2026",
        ),
        (
            "I'm at the trade fair all next week.",
            TUESDAY,
            day(2026, 3, 23),
            day(2026, 3, 30),
            "from Monday 23 March 2026 until Sunday 29 March 2026",
        ),
        ("I'm travelling to Tokyo on the 3rd.", TUESDAY, day(2026, 4, 3), day(2026, 4, 4), "on Friday 3 April 2026"),
        ("I'm in Lisbon on the 25th.", TUESDAY, day(2026, 3, 25), day(2026, 3, 26), "on Wednesday 25 March 2026"),
        # "from next Wednesday" said on a Monday is the following week's; "for the next week".
        (
            "I'm away from next Wednesday until Friday.",
            MONDAY,
            day(2026, 3, 25),
            day(2026, 3, 28),
            "from Wednesday 25 March 2026 until Friday 27 March 2026",
        ),
        ("I'm in Oslo for the next week.", TUESDAY, None, day(2026, 3, 25), "until Tuesday 24 March 2026"),
        # The month it is: the rest of it.
        ("I'm on leave in March.", TUESDAY, None, day(2026, 4, 1), "until Tuesday 31 March 2026"),
        # Starting on a first, but not the whole month: its two days, not "in April".
        (
            "I'm off from Wednesday until Thursday.",
            day(2026, 3, 30),
            day(2026, 4, 1),
            day(2026, 4, 3),
            "from Wednesday 1 April 2026 until Thursday 2 April 2026",
        ),
        # "from today" / "as of today" is when something starts: no span of one day.
        ("As of today I handle Acme.", TUESDAY, None, TUESDAY + timedelta(days=30), "until Thursday 16 April 2026"),
    ],
)
def test_when_a_span_starts_and_how_a_note_says_it(text, at, starts, expires, words):
    span = parse_expiry(text, at)
    assert (span.starts_at, span.expires_at, span.words()) == (starts, expires, words)
