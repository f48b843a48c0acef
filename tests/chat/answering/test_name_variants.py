"""Customer names as people type them (class customer_name_variant): an abbreviated word
("coop", "vet", "svcs", "grp", "med"), a possessive without its apostrophe ("kestrels"), the last
word singular ("farm") and a typo ("menominee") all name the customer on record; the answer says
how the name was read. A name only close to one on record is offered as "did you mean", never
answered. Values from the ORM; the helper's paraphrases are judged against their truth texts."""

import pytest
from django.db.models import Sum

from chat.models import Contract, Customer, Order
from chat.tools import find_customer_mentions, read_names
from chat.turn import ask, start_session
from tests.chat.answering.conftest import blind_cases, judged, money, named_span

pytestmark = pytest.mark.turn


def total(name: str, period: str) -> str:
    orders = Order.objects.filter(customer__name=name, ordered_on__range=named_span(period)).exclude(status="cancelled")
    return money(orders.aggregate(v=Sum("amount"))["v"])


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("typed", "name"),
    [
        ("credit limit for heartland grain co-op", "Heartland Grain Cooperative"),
        ("what city is pinecrest med group in", "Pinecrest Medical Group"),
        ("saltmarsh energy svc contract terms", "Saltmarsh Energy Services"),
        ("bluestem vets account code", "Bluestem Veterinary"),
        ("pecan grove farm credit limit", "Pecan Grove Farms"),
    ],
)
def test_an_abbreviated_or_reinflected_name_is_read_as_the_name_on_record(corpus, typed, name):
    reading = read_names(typed)
    assert name in reading.text and [m.name for m in find_customer_mentions(reading.text)] == [name]
    assert reading.changes and reading.changes[0][1] == name and not reading.unsure


@pytest.mark.django_db
def test_the_answer_says_how_the_name_was_read(corpus, user):
    answer = ask(user, session=None, question="whats the credit limit for heartland grain coop").answer
    limit = Contract.objects.filter(customer__name="Heartland Grain Cooperative").order_by("-signed_on", "-pk")[0]
    said = "Read \u2018heartland grain coop\u2019 as \u2018Heartland Grain Cooperative\u2019."
    assert answer.startswith(said), answer
    assert money(limit.credit_limit) in answer, answer


@pytest.mark.django_db
def test_a_misspelt_name_close_to_one_customer_is_that_customer(corpus, user):
    answer = ask(user, session=None, question="how much did menomonie cold storage spend this year").answer
    assert total("Menomonee Cold Storage", "this year") in answer and "Menomonee Cold Storage" in answer, answer


@pytest.mark.django_db
def test_a_name_only_near_one_on_record_is_offered_not_answered_and_the_option_answers(corpus, user):
    session = start_session(user)
    # two of its words slipped ("cool stores"): only near the name (one slipped word is read, and said)
    turn = ask(user, session=session, question="how much did menomonee cool stores spend this year")
    assert "Did you mean" in turn.answer and turn.options, turn.answer
    assert "$" not in turn.answer and "Menomonee Cold Storage" in turn.answer, turn.answer
    option = turn.options[0]
    picked = ask(user, session=session, question=option["label"], option_id=option["id"]).answer
    assert total("Menomonee Cold Storage", "this year") in picked, picked


@pytest.mark.django_db
def test_a_possessive_without_its_apostrophe_names_the_customer(corpus, user):
    answer = ask(user, session=None, question="lindqvists orders this yr, how many?").answer
    n = Order.objects.filter(customer__name="Lindqvist Robotics", ordered_on__range=named_span("this year")).count()
    assert f"{n} orders" in answer or f"{n:,} orders" in answer, answer


@pytest.mark.django_db
def test_ordinary_words_near_a_name_are_no_name(corpus):
    for text in ("orders in cold storage this year", "the grain co-op market", "total for the vet clinics"):
        assert read_names(text).changes == () and read_names(text).unsure == (), text
    assert Customer.objects.filter(name__icontains="cold storage").count() == 1


@pytest.mark.django_db
@pytest.mark.parametrize("case", blind_cases("customer_name_variant", {}))
def test_the_helpers_name_variant_paraphrases(corpus, user, case):
    verdict, answer = judged(user, case)
    assert verdict == "correct", answer


@pytest.mark.django_db
def test_a_trade_noun_of_the_same_verb_names_the_customer(corpus, user):
    """A name's last word asked after as another trade noun of its verb ("Printing" as "printers",
    "Brewing" as "brewery") is that customer, and the answer says how it was read."""
    from chat.models import Customer
    from chat.tools import _trade_forms

    assert _trade_forms("brewing") == {"brewery", "brewers", "brewer"}
    assert _trade_forms("ring") == set()  # too short a stem to be a trade
    customer = next(c for c in Customer.objects.order_by("name") if c.name.split()[-1].lower().endswith("ing"))
    *head, last = customer.name.split()
    asked = " ".join([*head, last[:-3] + "ers"]).lower()
    answer = ask(user, session=None, question=f"what segment is {asked}").answer
    assert customer.name in answer and customer.segment in answer, answer
