""" "Does X have anything overdue?", "any open orders for X?", "did X cancel anything last
year?" (class yes_no_anything): answered yes or no first, then how many such orders there are,
never with the customer's card. Each yes or no and each count is computed here with the ORM."""

from datetime import timedelta

import pytest
from django.utils import timezone

from chat.models import Order
from chat.turn import ask
from tests.chat.answering.conftest import month_span, named_span, paraphrases

pytestmark = pytest.mark.turn


def orders(**lookups):
    return lambda: Order.objects.filter(**lookups)


def this_month():
    today = timezone.localdate()
    return month_span(today.year, today.month)


def last_30_days():
    today = timezone.localdate()
    return today - timedelta(days=30), today


# question -> the orders whose existence answers it
TRUTHS = {
    "does kestrel have anything overdue": orders(customer__name="Kestrel Foods", status="overdue"),
    "any open orders for harborview rn?": orders(customer__name="Harborview Marine", status="open"),
    "has tamarack placed any orders this month": lambda: Order.objects.filter(
        customer__name="Tamarack Software", ordered_on__range=this_month()
    ),
    "is pinecrest medical sitting on anything past due?": orders(
        customer__name="Pinecrest Medical Group", status="overdue"
    ),
    "did bayou city cancel anything last yr": lambda: Order.objects.filter(
        customer__name="Bayou City Fabrication", status="cancelled", ordered_on__range=named_span("last year")
    ),
    "r there any shipped orders for juniper family dental from november": lambda: Order.objects.filter(
        customer__name="Juniper Family Dental", status="shipped", ordered_on__gte=named_span("november")[0]
    ),
    "do we have any overdue invoices up north at all": orders(customer__region="north", status="overdue"),
    "Does Mercer Textile Works have any open orders at the moment?": orders(
        customer__name="Mercer Textile Works", status="open"
    ),
    "has anyone in kansas city ordered in the last 30 days?": lambda: Order.objects.filter(
        customer__city="Kansas City", ordered_on__range=last_30_days()
    ),
    "does copperline electrical have anything open with us": orders(
        customer__name="Copperline Electrical", status="open"
    ),
    "did kestrel foods cancel anything in 2025": lambda: Order.objects.filter(
        customer__name="Kestrel Foods", status="cancelled", ordered_on__year=2025
    ),
}


def test_the_cases_are_the_class_paraphrases():
    assert {r["turns"][0] for r in paraphrases("yes_no_anything")} == set(TRUTHS)


@pytest.mark.django_db
@pytest.mark.parametrize("question", list(TRUTHS), ids=[q[:40] for q in TRUTHS])
def test_anything_asked_yes_or_no_is_answered_yes_or_no_with_the_count(corpus, user, question):
    answer = ask(user, session=None, question=question).answer
    found = TRUTHS[question]()
    n = found.count()
    assert answer.startswith("Yes: " if n else "No: "), answer
    assert f"{n:,} " in answer.split("\n")[0] and " order" in answer.split("\n")[0], answer
    for number in found.values_list("number", flat=True)[:5] if n <= 5 else ():
        assert number in answer, answer


@pytest.mark.django_db
def test_a_customer_asked_after_with_nothing_else_is_still_its_card(corpus, user):
    answer = ask(user, session=None, question="tell me about kestrel foods").answer
    assert answer.startswith("Kestrel Foods is a "), answer


@pytest.mark.django_db
def test_a_question_opened_by_anything_is_answered_yes_or_no(corpus, user):
    today = timezone.localdate()
    monday = today - timedelta(days=today.weekday() + 7)
    shipped = Order.objects.filter(
        customer__name="Pecan Grove Farms", status="shipped", ordered_on__range=(monday, monday + timedelta(days=6))
    ).count()
    answer = ask(user, session=None, question="anything shipped to pecan grove farms last week?").answer
    assert answer.startswith(f"{'Yes' if shipped else 'No'}: {shipped} shipped order"), answer
