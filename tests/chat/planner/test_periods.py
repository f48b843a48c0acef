"""The query planner: periods (named, spans, quarters, months, years, "since", "that year")."""

from datetime import date

import pytest

from chat import vocabulary as vocab
from chat.planner import Abstention, Context, CustomerRef, Filters, Period, QueryPlan, plan_question, read_period
from tests.chat.planner.helpers import LAST, TODAY, plan, shape


@pytest.mark.parametrize(
    ("words", "label", "start", "end"),
    [
        ("in q2 2025", "Q2 2025", date(2025, 4, 1), date(2025, 6, 30)),
        ("during the second quarter", "Q2 2026", date(2026, 4, 1), date(2026, 6, 30)),
        ("in february", "February 2026", date(2026, 2, 1), date(2026, 2, 28)),
        ("over the past 6 months", "the last 6 months", date(2026, 6, 2), TODAY),
        ("in the next 12 months", "the next 12 months", TODAY, date(2027, 12, 1)),
        ("within the next 30 days", "the next 30 days", TODAY, date(2026, 12, 31)),
        ("by the end of this quarter", "from today until the end of this quarter", TODAY, date(2026, 12, 31)),
        ("year to date", "this year to date", date(2026, 1, 1), TODAY),  # to today, not the year's end
        ("next month", "next month", date(2027, 1, 1), date(2027, 1, 31)),
        ("last quarter", "last quarter", date(2026, 7, 1), date(2026, 9, 30)),
        ("over the past 2 years", "the last 2 years", date(2024, 12, 2), TODAY),
        ("yesterday", "yesterday", date(2026, 11, 30), date(2026, 11, 30)),
        ("on the previous day", "last day", date(2026, 11, 30), date(2026, 11, 30)),
        ("in the last 2 weeks", "the last 2 weeks", date(2026, 11, 18), TODAY),  # 14 days ending today
        ("over the next 3 weeks", "the next 3 weeks", TODAY, date(2026, 12, 22)),
        ("the past 10 days", "the last 10 days", date(2026, 11, 22), TODAY),
        ("over the last 2 quarters", "the last 2 quarters", date(2026, 6, 2), TODAY),  # six calendar months back
    ],
)
def test_periods(words, label, start, end):
    period, _ = read_period(words.split(), today=TODAY)
    assert (period.label, period.start, period.end) == (label, start, end)


@pytest.mark.django_db
def test_the_quarter_before_a_quarter_is_named_by_its_number(corpus):
    last_quarter = QueryPlan(
        "count", "orders", Filters(status="open", period=Period("last quarter", date(2026, 7, 1), date(2026, 9, 30)))
    )
    carried = {"status": "open", "period": "last quarter|2026-07-01|2026-09-30"}
    period = plan("And the quarter before?", last_plan=last_quarter, carried=carried).result.filters.period
    assert (period.label, period.start, period.end) == ("Q2 2026", date(2026, 4, 1), date(2026, 6, 30))


@pytest.mark.django_db
def test_the_year_before_a_year_is_the_whole_year_before(corpus):
    last_year = QueryPlan("sum", "orders", Filters(period=Period("2025", date(2025, 1, 1), date(2025, 12, 31))))
    carried = {"period": "2025|2025-01-01|2025-12-31"}
    period = plan("And the year before?", last_plan=last_year, carried=carried).result.filters.period
    assert (period.label, period.start, period.end) == ("2024", date(2024, 1, 1), date(2024, 12, 31))


@pytest.mark.django_db
def test_the_month_before_without_a_period_to_move_back_abstains_rather_than_repeat_the_figure(corpus):
    planned = plan("And the month before?", last_plan=LAST, carried={"status": "open"})
    assert planned.follow_up and shape(planned.result) == ("abstain", vocab.NO_PLAN_REASON)


@pytest.mark.django_db
def test_the_largest_order_of_a_period_ranks_orders_not_months(corpus):
    result = plan("Which was the single biggest order this quarter?").result
    assert (result.kind, result.group_by, result.limit) == ("rank", "", 1)
    assert result.filters.period.label == "this quarter"
    assert plan("Which month this year had the biggest sales?").result.group_by == "month"


@pytest.mark.django_db
def test_a_period_carried_from_a_renewals_question_is_not_a_period_of_orders(corpus):
    renewals = Period("next quarter", date(2027, 1, 1), date(2027, 3, 31))
    last = QueryPlan("lookup", "contracts", Filters(customers=(CustomerRef(1, "Kestrel Foods"),), period=renewals))
    # The period is still alive in the session (carried), but it was a period of renewals.
    planned = plan("And the overdue ones?", last_plan=last, carried=last.filters.slots())
    assert planned.follow_up and planned.result.filters.period is None


@pytest.mark.django_db
def test_an_average_credit_limit_over_a_period_abstains_naming_the_average(corpus):
    # Credit limits are not dated by orders; the abstention says which figure it cannot give.
    assert plan("What was the average credit limit last year?").result == Abstention("no-plan", "average")
    assert plan("Total credit limit of customers with open orders?").result == Abstention("no-plan", "sum")


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("question", "label", "start", "end"),
    [
        ("How many orders were placed in May?", "May 2026", date(2026, 5, 1), date(2026, 5, 31)),
        ("May I see the orders from last month?", "last month", date(2026, 11, 1), date(2026, 11, 30)),
        ("What did Kestrel Foods spend since May?", "since May 2026", date(2026, 5, 1), TODAY),
        ("How many orders since March 2025?", "since March 2025", date(2025, 3, 1), TODAY),
        ("Orders since last quarter?", "since last quarter", date(2026, 7, 1), TODAY),
    ],
)
def test_may_is_the_month_after_a_word_that_dates_and_since_runs_to_today(corpus, question, label, start, end):
    period = plan(question).result.filters.period
    assert (period.label, period.start, period.end) == (label, start, end)


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("question", "like"),
    [
        # "of the 10 customers": how many there are, not how many to show.
        ("Which of the 10 customers in Denver spent the most?", "Which of the customers in Denver spent the most?"),
        # "the last 3 months" is the period, not the top 3.
        ("Which customers spent the most in the last 3 months?", "Which customers spent the most?"),
    ],
)
def test_a_number_that_counts_the_places_or_the_months_is_not_the_top_n(corpus, question, like):
    assert plan(question).result.limit == plan(like).result.limit == 5


@pytest.mark.django_db
def test_a_year_shaped_number_after_acct_is_an_account_not_a_year(corpus):
    assert read_period("orders for acct 2031".split(), today=TODAY) == (None, False)
    assert read_period("orders for 2025".split(), today=TODAY)[0].label == "2025"


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("question", "label", "start"),
    [
        # Asked in March 2026, a month still to come this year means last year's.
        ("How many orders were placed in May?", "May 2025", date(2025, 5, 1)),
        ("How many orders were placed in February?", "February 2026", date(2026, 2, 1)),
        ("How many orders were placed in March?", "March 2026", date(2026, 3, 1)),
    ],
)
def test_a_month_named_alone_is_the_last_one_that_has_begun(corpus, question, label, start):
    result = plan_question(question, Context(), today=date(2026, 3, 10)).result
    assert (result.filters.period.label, result.filters.period.start) == (label, start)


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("question", "label", "start", "end"),
    [
        # The year after "the first quarter of": it was this year's Q1.
        ("What was revenue in the first quarter of 2025?", "Q1 2025", date(2025, 1, 1), date(2025, 3, 31)),
        # A day of a month is that day (it was the whole month).
        ("How many orders were placed on 3 March?", "3 March 2026", date(2026, 3, 3), date(2026, 3, 3)),
        ("Orders on the 3rd of March 2025", "3 March 2025", date(2025, 3, 3), date(2025, 3, 3)),
        ("Orders on March 3rd", "3 March 2026", date(2026, 3, 3), date(2026, 3, 3)),
        ("Revenue in March", "March 2026", date(2026, 3, 1), date(2026, 3, 31)),
    ],
)
def test_a_quarters_year_and_a_day_of_a_month(corpus, question, label, start, end):
    period = plan(question).result.filters.period
    assert (period.label, period.start, period.end) == (label, start, end)


@pytest.mark.django_db
@pytest.mark.parametrize(
    "question",
    [
        "What's the second biggest order?",
        "Which customer had the third highest revenue?",
        "Orders from 31 February",
    ],
)
def test_a_place_in_a_ranking_or_a_day_that_does_not_exist_abstains(corpus, question):
    # The top one was given for "the second biggest"; every order for "31 February".
    assert shape(plan(question).result) == ("abstain", vocab.NO_PLAN_REASON)


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("question", "kind", "start", "end"),
    [
        # The period of a signing is when the contract was signed, never when it renews ("12
        # contracts renew in 2025" was once the answer to "signed in 2025").
        ("How many contracts were signed in 2025?", "count", date(2025, 1, 1), date(2025, 12, 31)),
        ("Which customers signed contracts in 2026?", "list", date(2026, 1, 1), date(2026, 12, 31)),
        ("which accounts inked their deal in h2 2025", "list", date(2025, 7, 1), date(2025, 12, 31)),
    ],
)
def test_contracts_signed_in_a_period_are_dated_by_their_signing(corpus, question, kind, start, end):
    planned = plan(question).result
    assert (planned.kind, planned.subject, planned.field) == (kind, "contracts", "signed_on")
    assert (planned.filters.period.start, planned.filters.period.end) == (start, end)


@pytest.mark.django_db
def test_that_year_is_the_period_still_alive_from_the_last_question(corpus):
    carried = {"period": "2025|2025-01-01|2025-12-31"}
    result = plan("Now rank all five regions by how many orders they placed that year.", carried=carried).result
    assert (result.kind, result.group_by, result.measure, result.filters.period.label) == (
        "rank",
        "region",
        "count",
        "2025",
    )
