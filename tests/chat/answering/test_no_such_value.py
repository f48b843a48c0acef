"""A value no record holds is answered by what does exist, read from the data: "There is no
retail segment; the segments are enterprise, mid-market and small business." Cases: the
helper's paraphrases (class no_such_value); the lists are read here with the ORM."""

import pytest

from chat.models import Customer, OrderStatus
from chat.turn import ask
from tests.chat.answering.conftest import paraphrases

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
    for attribute in ("segment", "region", "status", "city"):
        if attribute in truth.split(";")[0]:
            return attribute
    raise AssertionError(truth)


@pytest.mark.django_db
@pytest.mark.parametrize("case", CASES, ids=[c["turns"][0][:40] for c in CASES])
def test_a_value_that_is_not_there_is_named_with_the_ones_that_are(corpus, user, case):
    answer = ask(user, session=None, question=case["turns"][0]).answer
    attribute = attribute_of(case["truth"])
    assert answer.startswith(("There is no ", "No order has the status ", "No customer is in ")), answer
    assert all(value in answer for value in existing(attribute)), answer
    assert "I can't" not in answer


@pytest.mark.django_db
@pytest.mark.parametrize(
    "question", ["how many enterprise customers do we have", "any customers in houston?", "list all paid orders"]
)
def test_a_value_that_is_there_is_answered(corpus, user, question):
    answer = ask(user, session=None, question=question).answer
    assert not answer.startswith(("There is no ", "No order has the status ", "No customer is in ")), answer
