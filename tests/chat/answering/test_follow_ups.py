"""Follow-ups that lean on the last answer: a ranking measured another way keeps its filters,
"the biggest one" picks from the orders just counted, and an order's customer becomes the
focus ("what terms are they on?"). Figures from the ORM."""

import pytest
from django.db.models import Count

from chat.models import Contract, Order
from chat.turn import ask, start_session
from tests.chat.answering.conftest import money, named_span

pytestmark = pytest.mark.turn


def conversation(user, *questions):
    session = start_session(user)
    return [ask(user, session=session, question=q).answer for q in questions]


@pytest.mark.django_db
def test_a_ranking_measured_another_way_keeps_its_region_and_period(corpus, user):
    *_, answer = conversation(user, "top 3 regions by revenue last quarter", "now by count")
    rows = (
        Order.objects.filter(ordered_on__range=named_span("last quarter"))
        .values("customer__region")
        .annotate(n=Count("id"))
        .order_by("-n")[:3]
    )
    assert "by number of orders last quarter" in answer, answer
    for row in rows:
        assert f"{row['customer__region'].title()}: {row['n']:,} orders" in answer, answer


@pytest.mark.django_db
def test_the_biggest_one_is_the_largest_of_the_orders_just_counted(corpus, user):
    *_, answer = conversation(user, "how many orders did aire valley brewing place in q3", "whats the biggest one")
    biggest = (
        Order.objects.filter(customer__name="Aire Valley Brewing", ordered_on__range=named_span("q3"))
        .exclude(status="cancelled")
        .order_by("-amount")
        .first()
    )
    assert biggest.number in answer and money(biggest.amount) in answer, answer


@pytest.mark.django_db
def test_an_orders_customer_is_the_focus_of_the_next_question(corpus, user):
    order = Order.objects.select_related("customer").order_by("number").first()
    *_, answer = conversation(user, f"whats the status of {order.number}", "what terms are they on")
    terms = Contract.objects.filter(customer=order.customer).order_by("-signed_on", "-pk").first().payment_terms
    assert order.customer.name in answer and terms in answer, answer
