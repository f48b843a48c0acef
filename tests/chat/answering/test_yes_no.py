"""Yes/no questions are answered yes or no first, then what the records hold. Cases: the
helper's paraphrases (class yes_no); each yes or no is decided here with the ORM."""

import pytest

from chat.models import Contract, Customer, Order
from chat.turn import ask
from tests.chat.answering.conftest import named_span, paraphrases

pytestmark = pytest.mark.turn


def latest_contract(name: str) -> Contract:
    return Contract.objects.filter(customer__name=name).order_by("-signed_on", "-pk").first()


def since(month: str):
    start, _ = named_span(month)
    return start, named_span("this year")[1]


# question -> the ORM's yes or no
TRUTHS = {
    "is kestrel on net 30": lambda: latest_contract("Kestrel Foods").payment_terms == "net 30",
    "does coral reef hospitality have any overdue orders?": lambda: Order.objects.filter(
        customer__name="Coral Reef Hospitality", status="overdue"
    ).exists(),
    "has tamarack software ordered anything since september": lambda: Order.objects.filter(
        customer__name="Tamarack Software", ordered_on__range=since("september")
    ).exists(),
    "is mercer textile works in the enterprise segment": lambda: (
        Customer.objects.get(name="Mercer Textile Works").segment == "enterprise"
    ),
    "is sierra outdoor based in denver?": lambda: Customer.objects.get(name="Sierra Outdoor Co.").city == "Denver",
    "Is Cascadia Timber Supply's credit limit above $500,000?": lambda: (
        latest_contract("Cascadia Timber Supply").credit_limit > 500_000
    ),
    "lakeshore printing - central region, right?": lambda: (
        Customer.objects.get(name="Lakeshore Printing").region == "central"
    ),
    "did pinecrest place any orders last month": lambda: Order.objects.filter(
        customer__name="Pinecrest Medical Group", ordered_on__range=named_span("last month")
    ).exists(),
    "are any of gateway auto parts orders still open": lambda: Order.objects.filter(
        customer__name="Gateway Auto Parts", status="open"
    ).exists(),
    "is juniper family dental a small business acct?": lambda: (
        Customer.objects.get(name="Juniper Family Dental").segment == "small business"
    ),
    "Is Fairhaven Insurance Partners on net 60 terms?": lambda: (
        latest_contract("Fairhaven Insurance Partners").payment_terms == "net 60"
    ),
}


def test_the_cases_are_the_helpers_paraphrases():
    assert set(TRUTHS) <= {r["turns"][0] for r in paraphrases("yes_no")}


@pytest.mark.django_db
@pytest.mark.parametrize("question", list(TRUTHS), ids=[q[:40] for q in TRUTHS])
def test_a_yes_no_question_is_answered_yes_or_no_first(corpus, user, question):
    answer = ask(user, session=None, question=question).answer
    expected = "Yes: " if TRUTHS[question]() else "No: "
    assert answer.startswith(expected), answer


@pytest.mark.django_db
def test_a_choice_is_answered_with_the_value_not_yes_or_no(corpus, user):
    answer = ask(user, session=None, question="is piedmont textiles enterprise or mid market?").answer
    segment = Customer.objects.get(name="Piedmont Textiles").segment
    assert segment in answer and not answer.startswith(("Yes", "No")), answer


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("question", "name", "span"),
    [
        ("is the kestrel foods contract up for renewal before the end of next month?", "Kestrel Foods", "next_month"),
        ("does cumberland studios renew in the next 6 months", "Cumberland Studios", "six_months"),
        (
            "is copperline electrical's contract up for renewal before the end of this month",
            "Copperline Electrical",
            "this_month",
        ),
    ],
)
def test_a_renewal_in_a_period_is_answered_yes_or_no_with_the_date(corpus, user, on_4_december, question, name, span):
    """Whether a contract comes up for renewal in a period (class yes_no, as the helper's "does ...
    contract come up for renewal before june next yr"): yes when the renewal date lies in it."""
    from datetime import date

    today = date(2026, 12, 4)
    end = {"next_month": date(2027, 1, 31), "six_months": date(2027, 6, 4), "this_month": date(2026, 12, 31)}[span]
    renewal = latest_contract(name).renewal_date
    answer = ask(user, session=None, question=question).answer
    assert answer.startswith("Yes: " if today <= renewal <= end else "No: "), answer
    assert f"{renewal.day} {renewal:%b %Y}" in answer, answer
