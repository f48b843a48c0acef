"""Questions typed the way people type (classes shorthand, misspelt_word, misspelt_name): read
through the shared normaliser, answered, and what was read differently said first. Values
from the ORM."""

import pytest
from django.db.models import Sum

from chat.models import Contract, Customer, Order
from chat.turn import ask
from tests.chat.answering.conftest import money, paraphrases

pytestmark = pytest.mark.turn


def credit_limit(name):
    return money(Contract.objects.filter(customer__name=name).order_by("-signed_on", "-pk").first().credit_limit)


# question -> (what the answer says first, a value computed here)
CASES = {
    "how many custmers have we got in the east": (
        "Read \u2018custmers\u2019 as \u2018customers\u2019.",
        lambda: f"{Customer.objects.filter(region='east').count()} customers",
    ),
    "whats the credit limt on the saltmarsh energy services contract": (
        "Read \u2018limt\u2019 as \u2018limit\u2019.",
        lambda: credit_limit("Saltmarsh Energy Services"),
    ),
    "credit limit for heartland grian cooperative": (
        "Read \u2018grian\u2019 as \u2018grain\u2019.",
        lambda: credit_limit("Heartland Grain Cooperative"),
    ),
    "whats the acct code for pinecrest medical group": (
        "",
        lambda: Customer.objects.get(name="Pinecrest Medical Group").account_code,
    ),
    "total amt overdue for gateway auto parts atm?": (
        "",
        lambda: money(
            Order.objects.filter(customer__name="Gateway Auto Parts", status="overdue").aggregate(v=Sum("amount"))["v"]
        ),
    ),
}


def test_the_cases_are_the_helpers_paraphrases():
    written = {r["turns"][0] for k in ("shorthand", "misspelt_word", "misspelt_name") for r in paraphrases(k)}
    assert set(CASES) <= written


@pytest.mark.django_db
@pytest.mark.parametrize("question", list(CASES), ids=[q[:40] for q in CASES])
def test_a_question_typed_loosely_is_answered_and_says_what_it_read(corpus, user, question):
    said, value = CASES[question]
    answer = ask(user, session=None, question=question).answer
    assert answer.startswith(said), answer
    assert value() in answer, answer
    assert "I can't" not in answer


@pytest.mark.django_db
def test_an_order_number_typed_without_its_prefix_is_looked_up(corpus, user):
    order = Order.objects.order_by("number").first()
    answer = ask(user, session=None, question=f"status of {order.number.split('-')[1]}?").answer
    assert answer.startswith(f"Order {order.number}:") and order.status in answer, answer


@pytest.mark.django_db
def test_a_negated_request_about_the_answer_still_answers(corpus, user):
    answer = ask(user, session=None, question="i dont need the list, just how many enterprise accts do we have").answer
    assert answer.startswith(f"{Customer.objects.filter(segment='enterprise').count()} customers"), answer


@pytest.mark.django_db
def test_what_is_owed_needs_its_status(corpus, user):
    past_due = ask(user, session=None, question="what does coral reef still owe us thats past due").answer
    overdue = Order.objects.filter(customer__name="Coral Reef Hospitality", status="overdue")
    assert money(overdue.aggregate(v=Sum("amount"))["v"]) in past_due, past_due
    unsaid = ask(user, session=None, question="how much does gateway auto parts owe us").answer
    assert "$" not in unsaid, unsaid
