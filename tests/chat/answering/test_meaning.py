"""Unknown verbs read by meaning: a verb that only ties a customer (or "we") to the orders or
money asked about is the ordering verb in other words, and the answer says how it was read;
a verb nearer another event of an order (paying, shipping, returning) or one the orders do
themselves keeps its own meaning and is never read as ordering."""

import pytest
from django.db.models import Sum

from atlas.language import parse
from chat.answering.meaning import read_as_ordering
from chat.models import Order
from chat.turn import ask
from tests.chat.answering.conftest import money, named_span

pytestmark = pytest.mark.turn


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("question", "customer", "period", "verb"),
    [
        ("how many orders did juniper family dental rack up in q3", "Juniper Family Dental", "q3", "rack up"),
        ("biggest single order we logged in 2025?", None, "2025", "logged"),  # "booked" is vocabulary now
    ],
)
def test_an_ordering_verb_in_other_words_is_read_and_said(corpus, user, question, customer, period, verb):
    answer = ask(user, session=None, question=question).answer
    orders = Order.objects.filter(ordered_on__range=named_span(period))
    if customer:
        orders = orders.filter(customer__name=customer)
    assert answer.startswith(f"Read \u2018{verb}\u2019 as "), answer
    if question.startswith("biggest"):
        biggest = orders.exclude(status="cancelled").order_by("-amount").first()
        assert biggest.number in answer and money(biggest.amount) in answer, answer
    else:
        assert f"{orders.count():,} orders" in answer, answer


@pytest.mark.django_db
def test_a_total_racked_up_is_a_total(corpus, user):
    answer = ask(user, session=None, question="how much did saltmarsh energy services rack up last year").answer
    total = (
        Order.objects.filter(customer__name="Saltmarsh Energy Services", ordered_on__range=named_span("last year"))
        .exclude(status="cancelled")
        .aggregate(v=Sum("amount"))["v"]
    )
    assert money(total) in answer, answer


@pytest.mark.django_db
@pytest.mark.parametrize(
    "question",
    [
        "how many orders did Kestrel Foods return last year",  # an event of an order
        "how much did Kestrel Foods pay last year",  # paying is not ordering
        "Which client's orders grew fastest in 2026?",  # the orders do it
        "Split this year's overdue dollars out by region.",  # Atlas is asked to do it
        "how many orders are backordered",  # a state of the orders
    ],
)
def test_a_verb_with_its_own_meaning_is_not_read_as_ordering(corpus, question):
    assert all(read_as_ordering(t) == ("", "") for t in parse(question) if t.pos_ == "VERB")
