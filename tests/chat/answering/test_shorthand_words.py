"""Words shortened the way people type at work (class shorthand_words): "r" for "are", "rev"
for revenue, "custs", "lim" after "credit", "mo" after "this"/"last", "# of" and "qty of" for a
count, and "busiest" as a ranking by how many orders. Each paraphrase is judged by the
evaluation's own reader; the ones whose truth it cannot read are checked here with the ORM."""

from datetime import timedelta

import pytest
from django.db.models import Count, Sum
from django.utils import timezone

from chat.models import Customer, Order
from chat.turn import ask
from tests.chat.answering.conftest import blind_cases, judged, money, month_span

pytestmark = pytest.mark.turn

# Truths the evaluation's reader cannot read ("this month (1 December 2026 to today)", a
# status on customers): checked by the tests below instead.
CHECKED_HERE = {
    "r there any custs in boston w/ overdue orders",
    "# of orders from lindqvist this mo",
    "rev by region last mo pls",
}
GAPS = {
    "need the avg order size for prairie mill b/c review is tmrw, 2025 only": (
        "known gap: a remark in another clause ('review is tmrw') leaves a noun no slot reads"
    ),
}


@pytest.mark.django_db
@pytest.mark.parametrize(
    "case", [p for p in blind_cases("shorthand_words", GAPS) if p.values[0]["turns"][0] not in CHECKED_HERE]
)
def test_the_helpers_shorthand_paraphrases(corpus, user, case):
    verdict, answer = judged(user, case)
    assert verdict == "correct", answer


@pytest.mark.django_db
def test_r_at_the_start_is_are(corpus, user):
    answer = ask(user, session=None, question="r there any custs in boston w/ overdue orders").answer
    names = Customer.objects.filter(city="Boston", orders__status="overdue").distinct().values_list("name", flat=True)
    assert names and all(name in answer for name in names), answer
    assert "I can't" not in answer


@pytest.mark.django_db
def test_mo_after_this_is_month(corpus, user):
    answer = ask(user, session=None, question="# of orders from lindqvist this mo").answer
    today = timezone.localdate()
    n = Order.objects.filter(customer__name="Lindqvist Robotics", ordered_on__range=month_span(today.year, today.month))
    assert f"{n.count()} orders for Lindqvist Robotics this month" in answer, answer


@pytest.mark.django_db
def test_rev_by_region_last_mo_is_each_regions_total(corpus, user):
    answer = ask(user, session=None, question="rev by region last mo pls").answer
    last = timezone.localdate().replace(day=1) - timedelta(days=1)
    orders = Order.objects.filter(ordered_on__range=month_span(last.year, last.month)).exclude(status="cancelled")
    totals = orders.values("customer__region").annotate(v=Sum("amount"))
    assert len(totals) == 5
    for row in totals:
        assert f"{row['customer__region'].title()}: {money(row['v'])}" in answer, answer


@pytest.mark.django_db
def test_busiest_customers_rank_by_how_many_orders(corpus, user):
    answer = ask(user, session=None, question="who are our 3 busiest customers by number of orders").answer
    counts = Order.objects.values("customer__name").annotate(n=Count("id")).order_by("-n", "customer__name")[:3]
    assert "by number of orders" in answer, answer
    for row in counts:
        assert f"{row['customer__name']}: {row['n']} orders" in answer, answer
