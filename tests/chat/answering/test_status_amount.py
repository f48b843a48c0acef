"""Money in orders of one status (class status_amount): "total overdue $ with enterprise accts",
"how much is open with X", "open order value for the Central region" are the sum of those
orders' amounts, never a count of customers or a list of orders. Sums from the ORM."""

from datetime import timedelta

import pytest
from django.db.models import Sum
from django.utils import timezone

from chat.models import Order
from chat.turn import ask
from tests.chat.answering.conftest import money, month_span, named_span, paraphrases

pytestmark = pytest.mark.turn


def last_month():
    last = timezone.localdate().replace(day=1) - timedelta(days=1)
    return month_span(last.year, last.month)


# question -> the orders whose amounts it asks to add up
TRUTHS = {
    "total overdue $ sitting w/ enterprise accts": dict(status="overdue", customer__segment="enterprise"),
    "how much is open with kestrel foods": dict(status="open", customer__name="Kestrel Foods"),
    "value of shipped orders in the east": dict(status="shipped", customer__region="east"),
    "how much have small business customers paid us this year": dict(
        status="paid", customer__segment="small business", ordered_on__range=named_span("this year")
    ),
    "whats the $ value of cancelled orders in 2025": dict(status="cancelled", ordered_on__year=2025),
    "open order value for the central region pls": dict(status="open", customer__region="central"),
    "how much does magnolia home health owe us in overdue invoices?": dict(
        status="overdue", customer__name="Magnolia Home Health"
    ),
    "total amt of shipped orders for mid market custs last month": dict(
        status="shipped", customer__segment="mid-market", ordered_on__range=last_month()
    ),
    "how much is overdue with small business accts": dict(status="overdue", customer__segment="small business"),
    "total $ in open orders across west region custs": dict(status="open", customer__region="west"),
}


def test_the_cases_are_the_class_paraphrases():
    assert {r["turns"][0] for r in paraphrases("status_amount")} == set(TRUTHS)


@pytest.mark.django_db
@pytest.mark.parametrize("question", list(TRUTHS), ids=[q[:40] for q in TRUTHS])
def test_money_in_orders_of_a_status_is_their_total(corpus, user, question):
    answer = ask(user, session=None, question=question).answer
    total = Order.objects.filter(**TRUTHS[question]).aggregate(v=Sum("amount"))["v"]
    assert money(total) in answer.split("\n")[0], answer
    assert " customers " not in answer and "newest first" not in answer, answer
