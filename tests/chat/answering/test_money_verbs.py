"""Money verbs (class money_verb): "what did we invoice X in March", "total billed to the West",
"what was the business we did with X worth" ask for the total of the orders, never their list.
Totals from the ORM; the helper's paraphrases are judged against their truth texts."""

import pytest
from django.db.models import Sum

from chat.models import Order
from chat.turn import ask
from tests.chat.answering.conftest import blind_cases, judged, money, named_span

pytestmark = pytest.mark.turn


def total(period: str, **where) -> str:
    orders = Order.objects.filter(ordered_on__range=named_span(period), **where).exclude(status="cancelled")
    return money(orders.aggregate(v=Sum("amount"))["v"])


# question -> (period, the orders it totals)
CASES = {
    "what did we bill copperline electrical in march": ("march", {"customer__name": "Copperline Electrical"}),
    "how much did we charge lindqvist robotics last quarter": (
        "last quarter",
        {"customer__name": "Lindqvist Robotics"},
    ),
    "total invoiced to the west region in 2025": ("2025", {"customer__region": "west"}),
    "what was our business with kestrel foods worth this year": ("this year", {"customer__name": "Kestrel Foods"}),
}


@pytest.mark.django_db
@pytest.mark.parametrize("question", list(CASES))
def test_a_money_verb_asks_for_the_total(corpus, user, question):
    period, where = CASES[question]
    answer = ask(user, session=None, question=question).answer
    assert total(period, **where) in answer and "newest first" not in answer, answer


@pytest.mark.django_db
def test_asking_who_was_billed_still_lists_the_customers(corpus, user):
    answer = ask(user, session=None, question="which customers in seattle did we bill in october").answer
    assert "total $" not in answer, answer


@pytest.mark.django_db
@pytest.mark.parametrize("case", blind_cases("money_verb", {}))
def test_the_helpers_money_verb_paraphrases(corpus, user, case):
    verdict, answer = judged(user, case)
    assert verdict == "correct", answer


@pytest.mark.django_db
def test_which_customers_were_billed_names_the_customers_with_orders_then(corpus, user):
    answer = ask(user, session=None, question="which customers in seattle did we bill in october").answer
    billed = Order.objects.filter(customer__city="Seattle", ordered_on__range=named_span("october"))
    names = set(billed.values_list("customer__name", flat=True))
    assert names and all(name in answer for name in names), answer
