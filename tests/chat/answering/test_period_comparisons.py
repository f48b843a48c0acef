"""Two periods set against each other as people ask it (class period_comparison): a year said
once qualifies both quarters ("was Q3 better than Q2 for X this year"), "this year compared with
last" borrows the unit for its second side, "Q1 this year vs Q1 last year" reads each side's
year, "did X beat Y" and "did X grow since last year" compare. Both figures from the ORM; the
helper's paraphrases are judged against their truth texts."""

from datetime import date

import pytest
from django.db.models import Sum
from django.utils import timezone

from chat.models import Order
from chat.turn import ask
from tests.chat.answering.conftest import blind_cases, judged, money, named_span, quarter_span

pytestmark = pytest.mark.turn

YEAR = timezone.localdate().year


def total(span, **where) -> str:
    orders = Order.objects.filter(ordered_on__range=span, **where).exclude(status="cancelled")
    return money(orders.aggregate(v=Sum("amount"))["v"] or 0)


def half(year: int, h: int) -> tuple[date, date]:
    return (date(year, 1, 1), date(year, 6, 30)) if h == 1 else (date(year, 7, 1), date(year, 12, 31))


# question -> (first side's span, second side's span, the orders compared)
CASES = {
    "was q2 better than q1 for kestrel foods last year": (
        quarter_span(YEAR - 1, 2),
        quarter_span(YEAR - 1, 1),
        {"customer__name": "Kestrel Foods"},
    ),
    "lakeshore printing: h1 this year vs h1 last year": (
        half(YEAR, 1),
        half(YEAR - 1, 1),
        {"customer__name": "Lakeshore Printing"},
    ),
    "were east sales up or down this year compared with last": (
        named_span("this year"),
        named_span("last year"),
        {"customer__region": "east"},
    ),
    "did q3 beat q2 for the west region this year": (
        quarter_span(YEAR, 3),
        quarter_span(YEAR, 2),
        {"customer__region": "west"},
    ),
    "has saguaro solar grown since last year": (
        named_span("this year"),
        named_span("last year"),
        {"customer__name": "Saguaro Solar"},
    ),
}


@pytest.mark.django_db
@pytest.mark.parametrize("question", list(CASES))
def test_both_periods_are_read_as_asked(corpus, user, question):
    first, second, where = CASES[question]
    answer = ask(user, session=None, question=question).answer
    one, other = total(first, **where), total(second, **where)
    assert one in answer and other in answer and answer.index(one) < answer.index(other), answer


@pytest.mark.django_db
def test_a_quarter_with_its_year_is_one_period_outside_a_comparison(corpus, user):
    answer = ask(user, session=None, question="revenue for kestrel foods in q1 last year").answer
    assert total(quarter_span(YEAR - 1, 1), customer__name="Kestrel Foods") in answer, answer
    assert f"Q1 {YEAR - 1}" in answer, answer


@pytest.mark.django_db
@pytest.mark.parametrize("case", blind_cases("period_comparison", {}))
def test_the_helpers_period_comparison_paraphrases(corpus, user, case):
    verdict, answer = judged(user, case)
    assert verdict == "correct", answer
