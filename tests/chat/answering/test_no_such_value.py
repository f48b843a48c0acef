"""A value no record holds is answered by what does exist, read from the data: "There is no
retail segment; the segments are enterprise, mid-market and small business." A word that only
resembles a value ("midwest", "mid west", "north east") is not that value; a true spelling slip
("wset") is, and the answer says how it was read. Cases: the helpers' paraphrases (class
no_such_value); the lists and figures are read here with the ORM."""

import pytest
from django.db.models import Sum

from chat.models import Customer, Order, OrderStatus
from chat.turn import ask, start_session
from tests.chat.answering.conftest import money, named_span, paraphrases

pytestmark = pytest.mark.turn

CASES = paraphrases("no_such_value")


def existing(attribute: str) -> list[str]:
    if attribute == "segment":
        return sorted(set(Customer.objects.values_list("segment", flat=True)))
    if attribute == "region":
        return [r.title() for r in set(Customer.objects.values_list("region", flat=True))]
    if attribute == "status":
        return [s.value for s in OrderStatus]
    return sorted(set(Customer.objects.values_list("city", flat=True)))


def attribute_of(truth: str) -> str:
    head = truth.split(";")[0].split(" in the records")[0]
    for attribute in ("segment", "region", "status", "city"):
        if attribute in head:
            return attribute
    raise AssertionError(truth)


# Blind paraphrases whose value has no word beside it that says what kind of value it is
# ("has emea got": no "region", no "in"): answered with a plain abstention, no figure.
UNPLACED = {"how many overdue orders has emea got"}


@pytest.mark.django_db
@pytest.mark.parametrize("case", [c for c in CASES if c["turns"][0] not in UNPLACED], ids=lambda c: c["turns"][0][:40])
def test_a_value_that_is_not_there_is_named_with_the_ones_that_are(corpus, user, case):
    answer = ask(user, session=None, question=case["turns"][0]).answer
    attribute = attribute_of(case["truth"])
    assert answer.startswith("There is no "), answer
    assert all(value in answer for value in existing(attribute)), answer
    assert "I can't" not in answer and "$" not in answer


@pytest.mark.django_db
@pytest.mark.parametrize(
    "question", ["how many enterprise customers do we have", "any customers in houston?", "list all paid orders"]
)
def test_a_value_that_is_there_is_answered(corpus, user, question):
    answer = ask(user, session=None, question=question).answer
    assert not answer.startswith(("There is no ", "No order has the status ", "No customer is in ")), answer


@pytest.mark.django_db
@pytest.mark.parametrize("question", sorted(UNPLACED))
def test_a_value_with_nothing_to_place_it_is_not_answered(corpus, user, question):
    answer = ask(user, session=None, question=question).answer
    assert answer.startswith(("There is no ", "I can't answer")), answer
    assert not any(ch.isdigit() for ch in answer), answer


@pytest.mark.django_db
@pytest.mark.parametrize(
    "question",
    ["total sales for the midwest region this yr", "revenue from the mid-west last quarter", "sales in the north east"],
)
def test_a_region_that_only_resembles_one_is_never_answered_as_it(corpus, user, question):
    answer = ask(user, session=None, question=question).answer
    assert answer.startswith("There is no ") and " region; the regions are " in answer, answer
    assert "$" not in answer


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("question", "typed", "region"),
    [
        ("revenue in the wset region this year", "wset", "west"),
        ("total sales in the soutth this year", "soutth", "south"),
    ],
)
def test_a_spelling_slip_reads_as_the_value_and_says_so(corpus, user, question, typed, region):
    answer = ask(user, session=None, question=question).answer
    orders = Order.objects.filter(customer__region=region, ordered_on__range=named_span("this year"))
    assert answer.startswith(f"Read \u2018{typed}\u2019 as \u2018{region}\u2019."), answer
    assert money(orders.exclude(status="cancelled").aggregate(v=Sum("amount"))["v"]) in answer, answer


@pytest.mark.django_db
def test_a_grouping_word_is_never_a_value(corpus, user):
    session = start_session(user)
    ask(user, session=session, question="total rev from enterprise accts last month")
    answer = ask(user, session=session, question="break it down by region").answer
    assert "There is no" not in answer and "By" not in answer.split(";")[0], answer


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("question", "named"),
    [
        ("total spend from the higher education sector segment in 2025", "There is no higher education segment"),
        ("how many orders did the nonprofit sector segment place last month", "There is no nonprofit sector segment"),
    ],
)
def test_a_missing_value_is_named_with_the_words_that_modify_it(corpus, user, question, named):
    """The unknown words before the word that names the value are part of its name: a "higher education
    sector" is not said to be a missing "sector" segment."""
    answer = ask(user, session=start_session(user), question=question).answer
    assert answer.startswith(named), answer
