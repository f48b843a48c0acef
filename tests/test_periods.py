"""The shared period reader (atlas.periods): one reading of the periods questions name, for the
planner, the comparisons and (through atlas) the gate."""

from datetime import date

import pytest

from atlas.periods import period_before, read_period, shift_period

TODAY = date(2026, 12, 3)


@pytest.mark.parametrize(
    ("text", "start", "end"),
    [
        ("last quarter", date(2026, 7, 1), date(2026, 9, 30)),
        ("q3 2025", date(2025, 7, 1), date(2025, 9, 30)),
        ("fy25", date(2025, 1, 1), date(2025, 12, 31)),
        ("h1 2025", date(2025, 1, 1), date(2025, 6, 30)),
        ("h2", date(2026, 7, 1), date(2026, 12, 31)),
        ("since june", date(2026, 6, 1), TODAY),
        ("the last 30 days", date(2026, 11, 4), TODAY),
        ("the last thirty days", date(2026, 11, 4), TODAY),  # every number word of atlas.dates
        ("in 2024", date(2024, 1, 1), date(2024, 12, 31)),
    ],
)
def test_a_named_period_is_read_to_its_dates(text, start, end):
    period, _ = read_period(text.split(), today=TODAY)
    assert (period.start, period.end) == (start, end)


def test_the_quarter_before_and_the_same_month_last_year():
    quarter, _ = read_period(["last", "quarter"], today=TODAY)
    assert (period_before(quarter, "quarter").start, period_before(quarter, "quarter").end) == (
        date(2026, 4, 1),
        date(2026, 6, 30),
    )
    month, _ = read_period(["last", "month"], today=TODAY)
    earlier = shift_period(month, months=-12)
    assert (earlier.start, earlier.end, earlier.label) == (date(2025, 11, 1), date(2025, 11, 30), "November 2025")


@pytest.mark.parametrize(
    ("text", "start", "end"),
    [
        # bounded by today: the named month is the next one to end, not the latest to begin
        ("between now and the end of march", TODAY, date(2027, 3, 31)),
        ("from today until end of jan", TODAY, date(2027, 1, 31)),
        ("by the end of december", TODAY, date(2026, 12, 31)),
        ("from now to the end of q1", TODAY, date(2027, 3, 31)),
        # a year stated stays that year
        ("between now and the end of march 2027", TODAY, date(2027, 3, 31)),
        # the current unit up to today
        ("earlier this year", date(2026, 1, 1), TODAY),
        ("so far this quarter", date(2026, 10, 1), TODAY),
        ("this quarter", date(2026, 10, 1), date(2026, 12, 31)),
    ],
)
def test_a_period_bounded_by_today_runs_from_or_to_today(text, start, end):
    period, _ = read_period(text.split(), today=TODAY)
    assert (period.start, period.end) == (start, end)


@pytest.mark.parametrize(
    ("text", "start", "end"),
    [
        ("the first half of 2025", date(2025, 1, 1), date(2025, 6, 30)),
        ("second half of last year", date(2025, 7, 1), date(2025, 12, 31)),
        ("the second half", date(2026, 7, 1), date(2026, 12, 31)),
    ],
)
def test_a_half_year_in_words_is_read_as_h1_or_h2(text, start, end):
    period, _ = read_period(text.split(), today=TODAY)
    assert (period.start, period.end) == (start, end)


def test_the_same_period_in_another_year_keeps_its_grain_or_its_days():
    from atlas.periods import Period, same_period_in_year

    november = Period("last month", date(2026, 11, 1), date(2026, 11, 30))
    assert same_period_in_year(november, 2025) == Period("November 2025", date(2025, 11, 1), date(2025, 11, 30))
    quarter = Period("last quarter", date(2026, 7, 1), date(2026, 9, 30))
    assert same_period_in_year(quarter, 2025).label == "Q3 2025"
    to_date = Period("this quarter to date", date(2026, 10, 1), TODAY)
    moved = same_period_in_year(to_date, 2025)
    assert (moved.start, moved.end) == (date(2025, 10, 1), date(2025, 12, 3))
    leap = Period("a day", date(2024, 2, 10), date(2024, 2, 29))
    assert same_period_in_year(leap, 2025).end == date(2025, 2, 28)


@pytest.mark.parametrize(
    ("text", "start", "end"),
    [
        ("before april this year", date(2026, 1, 1), date(2026, 3, 31)),
        ("before june last year", date(2025, 1, 1), date(2025, 5, 31)),
    ],
)
def test_before_a_month_of_a_relative_year_runs_from_that_years_start(text, start, end):
    period, _ = read_period(text.split(), today=TODAY)
    assert (period.start, period.end) == (start, end)


@pytest.mark.parametrize("text", ["before april", "before april 2025"])
def test_before_a_month_without_a_relative_year_gives_no_start(text):
    period, _ = read_period(text.split(), today=TODAY)
    assert period is None or period.start.month == 4  # the month itself; the planner abstains on the side
