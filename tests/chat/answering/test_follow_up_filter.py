"""A follow-up that narrows the previous list (class follow_up_filter): "which of those have overdue
orders?", "just the ones in the south?", "and which of those r over 10k", "only the mid-market ones",
"ok and how much has each of them spent this yr" keep what the list was drawn by and add or change
one condition; "each of them" after a list of customers gives a figure per customer. The helper's
paraphrases (helper-blind-7, written before the change) judged by the evaluation's reader."""

import pytest
from django.db.models import Sum

from chat.models import Order
from chat.turn import ask, start_session
from tests.chat.answering.conftest import blind_cases, judged, money, named_span

pytestmark = pytest.mark.turn

GAPS: dict[str, str] = {}


@pytest.mark.django_db
@pytest.mark.parametrize("case", blind_cases("follow_up_filter", GAPS))
def test_the_helpers_follow_up_filter_paraphrases(corpus, user, case):
    verdict, answer = judged(user, case)
    assert verdict == "correct", answer


@pytest.mark.django_db
def test_each_of_them_after_a_list_of_customers_is_a_figure_per_customer(corpus, user):
    session = start_session(user)
    ask(user, session=session, question="which customers are in boston or leeds")
    answer = ask(user, session=session, question="how much has each of them spent this year").answer
    orders = Order.objects.filter(customer__city__in=["Boston", "Leeds"], ordered_on__range=named_span("this year"))
    rows = orders.exclude(status="cancelled").values("customer__name").annotate(v=Sum("amount"))
    assert rows and all(f"{r['customer__name']}: {money(r['v'])}" in answer for r in rows), answer


@pytest.mark.django_db
def test_r_after_those_is_are(corpus, user):
    session = start_session(user)
    ask(user, session=session, question="open orders for sierra outdoor")
    answer = ask(user, session=session, question="which of those r over 5k").answer
    n = Order.objects.filter(customer__name="Sierra Outdoor Co.", status="open", amount__gt=5000).count()
    assert answer.startswith(f"{n} open order"), answer
