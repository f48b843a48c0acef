"""A customer whose name holds a field word ("Bayou City Fabrication") is asked about like any
other: the word is part of the name, not a question about the customer's city."""

import re
from datetime import UTC, date, datetime

import pytest
import time_machine
from django.db.models import Sum

from chat.models import Customer, Order
from chat.turn import ask

pytestmark = pytest.mark.turn
NAME = "Bayou City Fabrication"


@pytest.mark.django_db
@pytest.mark.parametrize(
    "question",
    [
        "List Bayou City Fabrication's orders from September and October 2026.",
        "show me bayou city fabrication orders in october 2026",
        "Which orders did Bayou City Fabrication place in 2026?",
    ],
)
def test_a_list_of_its_orders_is_its_orders(corpus, make_user, question):
    with time_machine.travel(datetime(2026, 12, 3, 12, tzinfo=UTC), tick=False):
        answer = ask(make_user(), session=None, question=question).answer
    shown = set(re.findall(r"SO-\d+", answer))
    theirs = set(Order.objects.filter(customer__name=NAME).values_list("number", flat=True))
    assert shown and shown <= theirs, answer


@pytest.mark.django_db
def test_its_total_is_its_total(corpus, make_user):
    with time_machine.travel(datetime(2026, 12, 3, 12, tzinfo=UTC), tick=False):
        answer = ask(make_user(), session=None, question="how much did bayou city fabrication spend in 2025?").answer
    orders = Order.objects.filter(customer__name=NAME, ordered_on__range=(date(2025, 1, 1), date(2025, 12, 31)))
    total = orders.exclude(status="cancelled").aggregate(v=Sum("amount"))["v"]
    assert f"${total:,.2f}" in answer, answer


@pytest.mark.django_db
def test_asking_where_it_is_still_gives_its_city(corpus, make_user):
    answer = ask(make_user(), session=None, question="Where is Bayou City Fabrication based?").answer
    assert Customer.objects.get(name=NAME).city in answer, answer
