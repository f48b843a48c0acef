"""Comparisons of two customers, two regions or two periods: both figures, in the order the
question named them, and a one-line verdict (yes or no first when asked so).

The questions are the helper's paraphrases (tests/fixtures/paraphrases, classes
compare_customers, compare_regions, compare_periods); each figure is computed here with an
independent ORM query, never by the executor."""

from decimal import Decimal

import pytest
from django.db.models import Count, Sum

from chat.models import Order
from chat.turn import ask
from tests.chat.answering.conftest import money, named_span, paraphrases

pytestmark = pytest.mark.turn


def figure(*, customer=None, region=None, period=None, status=None, count=False):
    orders = Order.objects.all()
    if customer:
        orders = orders.filter(customer__name=customer)
    if region:
        orders = orders.filter(customer__region=region)
    span = named_span(period)
    if span:
        orders = orders.filter(ordered_on__range=span)
    if status:
        orders = orders.filter(status=status)
    if count:
        return f"{orders.count():,} orders"
    if not status:
        orders = orders.exclude(status="cancelled")
    return money(orders.aggregate(v=Sum("amount"))["v"] or Decimal("0"))


# (question, first side, second side, verdict): a side is the keyword arguments of figure().
CASES = [
    (
        "did copperline spend more than heartland grain this yr",
        {"customer": "Copperline Electrical", "period": "this year"},
        {"customer": "Heartland Grain Cooperative", "period": "this year"},
        "yes-no",
    ),
    (
        "mercer textile works vs fairhaven insurance, 2025 revenue",
        {"customer": "Mercer Textile Works", "period": "2025"},
        {"customer": "Fairhaven Insurance Partners", "period": "2025"},
        "ahead",
    ),
    (
        "who ordered more last quarter, redwood analytics or driftwood coffee roasters?",
        {"customer": "Redwood Analytics", "period": "last quarter"},
        {"customer": "Driftwood Coffee Roasters", "period": "last quarter"},
        "ahead",
    ),
    (
        "more orders from lakeshore printing or buckeye office supply this year?",
        {"customer": "Lakeshore Printing", "period": "this year", "count": True},
        {"customer": "Buckeye Office Supply", "period": "this year", "count": True},
        "ahead",
    ),
    (
        "east v west revenue last qtr",
        {"region": "east", "period": "last quarter"},
        {"region": "west", "period": "last quarter"},
        "ahead",
    ),
    (
        "did the north bring in more than central in 2025?",
        {"region": "north", "period": "2025"},
        {"region": "central", "period": "2025"},
        "yes-no",
    ),
    (
        "north vs east - whos got more overdue $ rn",
        {"region": "north", "status": "overdue"},
        {"region": "east", "status": "overdue"},
        "ahead",
    ),
    (
        "more orders from central or the west in q3?",
        {"region": "central", "period": "q3", "count": True},
        {"region": "west", "period": "q3", "count": True},
        "ahead",
    ),
    (
        "was q3 better than q2 for hudson vale pharmacy",
        {"customer": "Hudson Vale Pharmacy", "period": "q3"},
        {"customer": "Hudson Vale Pharmacy", "period": "q2"},
        "yes-no",
    ),
    (
        "did kestrel foods spend more this year than last year?",
        {"customer": "Kestrel Foods", "period": "this year"},
        {"customer": "Kestrel Foods", "period": "last year"},
        "yes-no",
    ),
    (
        "how does october compare with september for the west",
        {"region": "west", "period": "october"},
        {"region": "west", "period": "september"},
        "ahead",
    ),
    (
        "more orders in november than october?",
        {"period": "november", "count": True},
        {"period": "october", "count": True},
        "ahead",
    ),
]


def test_the_cases_are_the_helpers_paraphrases():
    written = {
        r["turns"][0] for kind in ("compare_customers", "compare_regions", "compare_periods") for r in paraphrases(kind)
    }
    assert {question for question, *_ in CASES} <= written


@pytest.mark.django_db
@pytest.mark.parametrize(("question", "first", "second", "verdict"), CASES, ids=[c[0][:40] for c in CASES])
def test_a_comparison_gives_both_figures_in_order_and_a_verdict(corpus, user, question, first, second, verdict):
    answer = ask(user, session=None, question=question).answer
    line = answer.splitlines()[-1]
    one, two = figure(**first), figure(**second)
    assert one in line and two in line and line.index(one) < line.index(two), line
    assert f"{one} against " in line, line
    if verdict == "yes-no":
        assert line.startswith(("Yes: ", "No: ")), line
    elif "period" in first and first["period"] != second.get("period"):
        assert " up on " in line.split(":")[0] or " down on " in line.split(":")[0] or line.startswith("Level"), line
    else:
        assert " is ahead: " in line or line.startswith("Level: "), line
    assert not any(p in answer for p in ("..", ":.", ".:", ",.")), answer


@pytest.mark.django_db
def test_a_yes_no_comparison_says_yes_when_the_first_side_is_more(corpus, user):
    answer = ask(user, session=None, question="did kestrel foods spend more this year than last year?").answer
    this_year = Order.objects.filter(customer__name="Kestrel Foods", ordered_on__range=named_span("this year"))
    last_year = Order.objects.filter(customer__name="Kestrel Foods", ordered_on__range=named_span("last year"))
    totals = [q.exclude(status="cancelled").aggregate(v=Sum("amount"))["v"] or 0 for q in (this_year, last_year)]
    assert answer.startswith("Yes: " if totals[0] > totals[1] else "No: ")


@pytest.mark.django_db
def test_a_comparison_by_count_keeps_cancelled_orders_and_says_nothing_of_them(corpus, user):
    answer = ask(user, session=None, question="more orders from central or the west in q3?").answer
    counts = Order.objects.filter(ordered_on__range=named_span("q3"), customer__region__in=["central", "west"])
    assert counts.aggregate(n=Count("id"))["n"] > 0
    assert "cancelled" not in answer
