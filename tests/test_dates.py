"""The shared words and calendar arithmetic of dates (atlas.dates), read by the period reader of
questions and the gate's time expressions. Expected values are worked out from a calendar."""

from datetime import date

import pytest

from atlas.dates import WEEKDAY_NUMBERS, month_end, number, shift_month, unit_bounds

THURSDAY = date(2026, 12, 3)  # Thursday 3 December 2026


@pytest.mark.parametrize(
    ("unit", "offset", "first", "last"),
    [
        ("day", -1, date(2026, 12, 2), date(2026, 12, 2)),
        ("week", 0, date(2026, 11, 30), date(2026, 12, 6)),  # Monday to Sunday
        ("week", 1, date(2026, 12, 7), date(2026, 12, 13)),
        ("month", 1, date(2027, 1, 1), date(2027, 1, 31)),  # across the year end
        ("month", -10, date(2026, 2, 1), date(2026, 2, 28)),
        ("quarter", 0, date(2026, 10, 1), date(2026, 12, 31)),
        ("quarter", -1, date(2026, 7, 1), date(2026, 9, 30)),
        ("year", 1, date(2027, 1, 1), date(2027, 12, 31)),
    ],
)
def test_a_calendar_unit_runs_from_its_first_to_its_last_day(unit, offset, first, last):
    assert unit_bounds(unit, THURSDAY, offset) == (first, last)


def test_months_shift_across_years_and_end_on_their_last_day():
    assert shift_month(2026, 11, 3) == (2027, 2)
    assert shift_month(2026, 1, -1) == (2025, 12)
    assert month_end(2024, 2) == date(2024, 2, 29)


@pytest.mark.parametrize(
    ("word", "counts", "value"),
    [("12", False, 12), ("twelve", False, 12), ("a", False, None), ("a", True, 1), ("a  couple of", True, 2)],
)
def test_a_number_is_read_from_digits_or_words(word, counts, value):
    assert number(word, counts=counts) == value


def test_weekdays_are_read_with_the_short_forms_people_type():
    assert [WEEKDAY_NUMBERS[w] for w in ("mon", "tues", "thurs", "thur", "sunday")] == [0, 1, 3, 3, 6]
