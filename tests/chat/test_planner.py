"""The query planner: each plan kind, each abstention kind, periods, and follow-ups that swap one slot.

Questions here are worded unlike the labelled answer cases, and the planner reads customer
names, cities and segments from the corpus loaded by the ``corpus`` fixture."""

from datetime import date

import pytest

from chat import tools
from chat import vocabulary as vocab
from chat.planner import Abstention, Context, CustomerRef, Filters, Period, QueryPlan, plan_question, read_period

TODAY = date(2026, 12, 1)


def plan(question, **context):
    named = tuple(CustomerRef(m.customer_id, m.name) for m in tools.find_customer_mentions(question) if m.exact)
    return plan_question(question, Context(named=named, **context), today=TODAY)


def shape(result):
    """The slots a user would notice, without the ids."""
    if isinstance(result, Abstention):
        return ("abstain", result.reason)
    f = result.filters
    return (
        result.kind,
        result.subject,
        result.group_by,
        result.field,
        result.limit,
        tuple(c.name for c in f.customers),
        f.region,
        f.city,
        f.segment,
        f.status,
        f.period.label if f.period else "",
    )


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("Bring up SO-87123", ("lookup", "orders", "", "", None, (), "", "", "", "", "")),
        (
            "Tell me about Kestrel Foods",
            ("lookup", "customers", "", "", None, ("Kestrel Foods",), "", "", "", "", ""),
        ),
        (
            "Which region is Tamarack Software in?",
            ("lookup", "customers", "", "region", None, ("Tamarack Software",), "", "", "", "", ""),
        ),
        (
            "When does Mercer Textile Works renew?",
            ("lookup", "contracts", "", "renewal_date", None, ("Mercer Textile Works",), "", "", "", "", ""),
        ),
        ("Show every enterprise customer", ("list", "customers", "", "", None, (), "", "", "enterprise", "", "")),
        ("Clients located in Seattle", ("list", "customers", "", "", None, (), "", "Seattle", "", "", "")),
        (
            "Paid orders in the South this month",
            ("list", "orders", "", "", None, (), "south", "", "", "paid", "this month"),
        ),
        ("Number of customers in the East", ("count", "customers", "", "", None, (), "east", "", "", "", "")),
        ("How many late orders are there?", ("count", "orders", "", "", None, (), "", "", "", "overdue", "")),
        ("How many orders in the West?", ("count", "orders", "", "", None, (), "west", "", "", "", "")),
        ("What do shipped orders add up to in total?", ("sum", "orders", "", "", None, (), "", "", "", "shipped", "")),
        ("Mean order value in Chicago", ("average", "orders", "", "", None, (), "", "Chicago", "", "", "")),
        ("Ten largest accounts by spend in 2025", ("rank", "orders", "customer", "", 10, (), "", "", "", "", "2025")),
        ("Which segment had the lowest revenue?", ("rank", "orders", "segment", "", 1, (), "", "", "", "", "")),
        ("Revenue by month this year", ("sum", "orders", "month", "", None, (), "", "", "", "", "this year")),
        (
            "Compare Kestrel Foods and Saguaro Solar sales this year",
            (
                "compare",
                "orders",
                "customer",
                "",
                None,
                ("Kestrel Foods", "Saguaro Solar"),
                "",
                "",
                "",
                "",
                "this year",
            ),
        ),
        ("Contracts renewing next month", ("list", "contracts", "", "", None, (), "", "", "", "", "next month")),
        ("List all contracts", ("list", "contracts", "", "", None, (), "", "", "", "", "")),
        ("What region are the customers in?", ("list", "customers", "", "", None, (), "", "", "", "", "")),
        ("How many contracts renew this year?", ("count", "contracts", "", "", None, (), "", "", "", "", "this year")),
        ("Number of customers per region", ("count", "customers", "region", "", None, (), "", "", "", "", "")),
        ("Monthly revenue in the West", ("sum", "orders", "month", "", None, (), "west", "", "", "", "")),
        ("Total orders by segment", ("sum", "orders", "segment", "", None, (), "", "", "", "", "")),
        ("Orders placed today", ("list", "orders", "", "", None, (), "", "", "", "", "today")),
        ("Smallest order in March", ("rank", "orders", "", "", 1, (), "", "", "", "", "March 2026")),
        ("Show documents about returns", ("list", "documents", "", "", None, (), "", "", "", "", "")),
        (
            "Other customers in the same region as Kestrel Foods",
            ("list", "customers", "", "region", None, ("Kestrel Foods",), "", "", "", "", ""),
        ),
    ],
)
def test_each_plan_kind(corpus, question, expected):
    result = plan(question).result
    assert shape(result) == expected
    # The plan is kept in the session state for the follow-up: it survives the round trip.
    assert QueryPlan.from_dict(result.to_dict()) == result


@pytest.mark.django_db
def test_smallest_ranks_ascending_and_largest_descending(corpus):
    assert plan("Smallest order in March").result.order == "asc"
    assert plan("Biggest order in March").result.order == "desc"


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("question", "low", "high"),
    [
        ("Orders between $1,000 and $5,000", 1000, 5000),
        ("Orders over $5m", 5_000_000, None),
        ("Orders over $5 million", 5_000_000, None),
        ("Orders under $2k", None, 2000),
    ],
)
def test_amount_ranges_and_scale_words(corpus, question, low, high):
    filters = plan(question).result.filters
    assert (filters.min_amount, filters.max_amount) == (low, high)


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("question", "reason"),
    [
        ("What sales should we expect in 2027?", vocab.FORECAST_REASON),
        ("How much will the West order next quarter?", vocab.FORECAST_REASON),
        ("Translate this memo into French", vocab.OUTSIDE_REASON),
        ("Is it going to rain in Leeds?", vocab.OUTSIDE_REASON),
        ("What is Kestrel Foods' share price?", vocab.NO_FIELD_REASON),
        ("How many staff does Saguaro Solar employ?", vocab.NO_FIELD_REASON),
        ("Which customers are in Narnia?", vocab.NO_PLAN_REASON),
        ("What's the credit limit?", vocab.NEEDS_CUSTOMER_REASON),
        ("Compare Kestrel Foods sales this year", vocab.NO_PLAN_REASON),  # a comparison needs two customers
    ],
)
def test_each_abstention_kind(corpus, question, reason):
    result = plan(question).result
    assert isinstance(result, Abstention) and result.reason == reason


@pytest.mark.django_db
def test_negation_excludes_a_status_instead_of_selecting_it(corpus):
    result = plan("Total of orders in the North that are not cancelled").result
    assert (result.filters.status, result.filters.exclude_status, result.filters.region) == ("", "cancelled", "north")
    result = plan("Orders in the North, exclude cancelled ones").result
    assert (result.kind, result.filters.status, result.filters.exclude_status) == ("list", "", "cancelled")


@pytest.mark.django_db
def test_thresholds_on_amounts_and_on_order_counts(corpus):
    big = plan("Orders above $25,000 last year").result
    assert big.filters.min_amount == 25000 and big.filters.period.label == "last year"
    many = plan("Customers with more than 4 open orders").result
    assert (many.kind, many.subject, many.min_orders, many.filters.status) == ("list", "customers", 4, "open")
    # "At least two" is more than one, and "least" here ranks nothing.
    two = plan("Customers with at least two open orders").result
    assert (two.kind, two.subject, two.min_orders, two.filters.status) == ("list", "customers", 1, "open")


@pytest.mark.parametrize(
    ("words", "label", "start", "end"),
    [
        ("in q2 2025", "Q2 2025", date(2025, 4, 1), date(2025, 6, 30)),
        ("during the second quarter", "Q2 2026", date(2026, 4, 1), date(2026, 6, 30)),
        ("in february", "February 2026", date(2026, 2, 1), date(2026, 2, 28)),
        ("over the past 6 months", "the last 6 months", date(2026, 6, 5), TODAY),
        ("within the next 30 days", "the next 30 days", TODAY, date(2026, 12, 31)),
        ("by the end of this quarter", "from today until the end of this quarter", TODAY, date(2026, 12, 31)),
        ("year to date", "this year", date(2026, 1, 1), date(2026, 12, 31)),
    ],
)
def test_periods(words, label, start, end):
    period, _ = read_period(words.split(), today=TODAY)
    assert (period.label, period.start, period.end) == (label, start, end)


LAST = QueryPlan(
    "count",
    "orders",
    Filters(
        customers=(CustomerRef(1, "Bayou City Fabrication"),),
        status="open",
        period=Period("last month", date(2026, 11, 1), date(2026, 11, 30)),
    ),
)


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("question", "carried", "expected"),
    [
        # The period swaps; status and customer carry (stated on the previous turn, still alive).
        ("And the month before?", {"status": "open"}, None),
        ("What about this year?", {"status": "open", "period": "x"}, ("Bayou City Fabrication", "open", "this year")),
        ("And Piedmont Textiles?", {"status": "open"}, ("Piedmont Textiles", "open", "")),
        # A status two turns old no longer carries into a follow-up.
        ("What about this year?", {}, ("Bayou City Fabrication", "", "this year")),
    ],
)
def test_follow_ups_keep_the_plan_and_swap_only_the_slot_they_state(corpus, question, carried, expected):
    planned = plan(question, last_plan=LAST, carried=carried)
    if expected is None:
        assert planned.follow_up  # "the month before" is not a period Atlas reads: the plan stands
        return
    result = planned.result
    assert planned.follow_up and (result.kind, result.subject) == ("count", "orders")
    period = result.filters.period.label if result.filters.period and expected[2] else ""
    assert (result.filters.customers[0].name, result.filters.status, period) == expected


@pytest.mark.django_db
def test_a_question_stating_its_own_subject_inherits_no_filter(corpus):
    planned = plan("How many shipped orders does Piedmont Textiles have?", last_plan=LAST, carried={"period": "x"})
    assert not planned.follow_up and planned.result.filters.period is None
