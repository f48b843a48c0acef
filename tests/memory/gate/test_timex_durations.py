"""Situations given as a duration from a start, a return ("back in 10 days") or a weekday span.

Every expected end is worked out by hand from a calendar, never from the resolver's helpers: an
end is the midnight after the last day; a duration from a start day counts that day as its
first ("for two weeks from Monday 23 March" holds through Sunday 5 April, ends 6 April); "back
in N days" ends as the day of the return starts.
"""

from datetime import UTC, datetime, timedelta

import pytest

from memory.gate.timex import parse_expiry

MONDAY = datetime(2026, 3, 16, 9, 0, tzinfo=UTC)  # Monday 16 March 2026
TUESDAY = datetime(2026, 3, 17, 14, 30, tzinfo=UTC)
WEDNESDAY = datetime(2026, 3, 18, 11, 0, tzinfo=UTC)
THURSDAY = datetime(2026, 3, 19, 9, 0, tzinfo=UTC)
SATURDAY = datetime(2026, 3, 21, 10, 0, tzinfo=UTC)


def day(year, month, dd):
    return datetime(year, month, dd, tzinfo=UTC)


@pytest.mark.parametrize(
    ("text", "at", "starts", "expires"),
    [
        # A start and a duration: the duration counts from the start, not from now.
        # Tomorrow is Wednesday 18 March; 3 weeks hold through Tuesday 7 April.
        ("Parental leave starts tomorrow, 3 weeks.", TUESDAY, day(2026, 3, 18), day(2026, 4, 8)),
        # Said Wednesday 18 November: from Thursday 19 November, through Wednesday 9 December.
        (
            "annual leave starts tmrw, 3 weeks. remember that pls so nobody expects replies from me thru u",
            datetime(2026, 11, 18, 16, 20, tzinfo=UTC),
            day(2026, 11, 19),
            day(2026, 12, 10),
        ),
        # Said Thursday 13 August: from Friday 14 August, six weeks through Thursday 24 September.
        (
            "heads up, sabbatical starts tmrw, 6 weeks. pls remember that while im away",
            datetime(2026, 8, 13, 17, 0, tzinfo=UTC),
            day(2026, 8, 14),
            day(2026, 9, 25),
        ),
        # Said Friday 4 December: a fortnight from Monday 7 December, through Sunday 20 December.
        (
            "away for a fortnight from monday, cascadia audit out in seattle. remember that for any follow ups",
            datetime(2026, 12, 4, 10, 0, tzinfo=UTC),
            day(2026, 12, 7),
            day(2026, 12, 21),
        ),
        ("I'm off from Monday for two weeks.", TUESDAY, day(2026, 3, 23), day(2026, 4, 6)),
        # "next week" starts on its Monday, 23 March; 10 days hold through Wednesday 1 April.
        ("In Porto for 10 days starting next week.", TUESDAY, day(2026, 3, 23), day(2026, 4, 2)),
        # Said Thursday 19 March: Monday 23 March plus four weeks, through Sunday 19 April.
        ("My secondment begins on Monday and lasts 4 weeks.", THURSDAY, day(2026, 3, 23), day(2026, 4, 20)),
        ("On leave 3 weeks from tomorrow.", TUESDAY, day(2026, 3, 18), day(2026, 4, 8)),
        ("Off from next Wednesday for 3 days.", MONDAY, day(2026, 3, 25), day(2026, 3, 28)),
        # From today is from now: as "for two weeks", 17 March + 14 days is 31 March, ended at midnight.
        ("On jury service from today for two weeks.", TUESDAY, None, day(2026, 4, 1)),
        ("I'm covering the Nordics desk for a fortnight.", TUESDAY, None, day(2026, 4, 1)),
        # "Back in N days": away until the day of the return starts.
        # Said Monday 9 November: back Thursday 19 November.
        (
            "on a training course in chicago, back in 10 days, pls keep that in mind",
            datetime(2026, 11, 9, 8, 30, tzinfo=UTC),
            None,
            day(2026, 11, 19),
        ),
        ("I'm away, back in a fortnight.", TUESDAY, None, day(2026, 3, 31)),
        ("Seconded to Oslo, back in 2 weeks' time.", THURSDAY, None, day(2026, 4, 2)),
        ("out on the rigs, returning in three days", SATURDAY, None, day(2026, 3, 24)),
        # A weekday span ends at the end of its last day, in the week its qualifier names.
        # Said Thursday 26 November: next week's Monday 30 November to Wednesday 2 December.
        (
            "off mon-wed next week for the leeds site visit, so dont expect much from me",
            datetime(2026, 11, 26, 9, 0, tzinfo=UTC),
            day(2026, 11, 30),
            day(2026, 12, 3),
        ),
        # Said Monday 16 November: Tuesday 17 to Thursday 19 November.
        (
            "at the dallas customer site tue thru thu this week, remember that pls, might be slow to reply",
            datetime(2026, 11, 16, 7, 40, tzinfo=UTC),
            day(2026, 11, 17),
            day(2026, 11, 20),
        ),
        # No qualifier: the coming span. Said Monday 2 March: Tuesday 3 to Thursday 5 March.
        (
            "travelling to phoenix tue-thu for saguaro so ill be on mobile",
            datetime(2026, 3, 2, 18, 10, tzinfo=UTC),
            day(2026, 3, 3),
            day(2026, 3, 6),
        ),
        ("I'm in Leeds Monday to Wednesday next week.", TUESDAY, day(2026, 3, 23), day(2026, 3, 26)),
        ("At the Berlin fair Thu\u2013Sat.", TUESDAY, day(2026, 3, 19), day(2026, 3, 22)),
        ("visiting the Derby plant next mon-tue", THURSDAY, day(2026, 3, 23), day(2026, 3, 25)),
        # The qualifier before the span. Said Thursday 16 April: Monday 20 to Wednesday 22 April.
        (
            "keep in mind next week mon-wed im at the packaging expo in chicago",
            datetime(2026, 4, 16, 10, 0, tzinfo=UTC),
            day(2026, 4, 20),
            day(2026, 4, 23),
        ),
        ("this week, wed to fri, I'm covering the Leeds desk", MONDAY, day(2026, 3, 18), day(2026, 3, 21)),
        # Said inside the span with "this week": the one under way, to the end of its last day.
        ("In the Madrid office Tue-Thu this week.", WEDNESDAY, None, day(2026, 3, 20)),
        # Bare, the coming one (one away now would say "until Thursday").
        ("I'm at the Lyon plant Tuesday through Thursday.", WEDNESDAY, day(2026, 3, 24), day(2026, 3, 27)),
        ("At the cabin fri-mon.", SATURDAY, day(2026, 3, 27), day(2026, 3, 31)),
    ],
)
def test_a_duration_or_span_ends_where_it_says(text, at, starts, expires):
    span = parse_expiry(text, at)
    assert span.stated
    assert (span.starts_at, span.expires_at) == (starts, expires)


@pytest.mark.parametrize(
    ("text", "at", "words", "phrase"),
    [
        (
            "annual leave starts tomorrow, 3 weeks.",
            datetime(2026, 11, 18, 16, 20, tzinfo=UTC),
            "from Thursday 19 November 2026 until Wednesday 9 December 2026",
            "starts tomorrow, 3 weeks",
        ),
        (
            "off Monday-Wednesday next week for the leeds site visit",
            datetime(2026, 11, 26, 9, 0, tzinfo=UTC),
            "from Monday 30 November 2026 until Wednesday 2 December 2026",
            "Monday-Wednesday next week",
        ),
        ("I'm away, back in a fortnight.", TUESDAY, "until Monday 30 March 2026", "back in a fortnight"),
    ],
)
def test_how_a_note_says_it(text, at, words, phrase):
    span = parse_expiry(text, at)
    assert (span.words(), span.phrase) == (words, phrase)


@pytest.mark.parametrize(
    ("text", "at"),
    [
        # The days of every week, not an end.
        ("Keep in mind that I work part-time, Monday to Wednesday.", TUESDAY),
        ("I usually work from the Leeds office mon-wed.", TUESDAY),
        ("I'm in the Leeds office every tue-thu.", TUESDAY),
        # A rate is no duration.
        ("Starting Monday, 3 days a week in Leeds.", TUESDAY),
    ],
)
def test_habits_and_rates_get_the_default(text, at):
    span = parse_expiry(text, at)
    assert not span.stated
    assert span.expires_at == at + timedelta(days=30)
