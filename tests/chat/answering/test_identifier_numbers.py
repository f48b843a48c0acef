"""A number that names one thing (class identifier_number): "the account number for X", "client
number of X" are the customer's account code, never a count of customers; "phone number", "tax
number" name nothing the records hold, so Atlas says it cannot answer ("42 customers for X" was the
answer). "the number of orders" and "customer count" still count. The rows are helper-42's (not
blind: written after the change); a blind helper's should join them."""

import pytest

from chat.models import Order
from chat.turn import ask
from tests.chat.answering.conftest import blind_cases, judged

pytestmark = pytest.mark.turn


@pytest.mark.django_db
@pytest.mark.parametrize("case", blind_cases("identifier_number", {}))
def test_the_identifier_number_paraphrases(corpus, user, case):
    verdict, answer = judged(user, case)
    assert verdict == "correct", answer


@pytest.mark.django_db
def test_the_number_of_orders_is_still_a_count(corpus, user):
    answer = ask(user, session=None, question="what's the number of orders for kestrel foods").answer
    n = Order.objects.filter(customer__name="Kestrel Foods").count()
    assert answer.startswith(f"{n} orders for Kestrel Foods"), answer
