"""Orders under an amount (class amount_below): "under 2k", "below $1,000", "less than 500 bucks",
"smaller than 10k", "< 5k", "sub 2k" are a ceiling on each order's amount, in lists, counts and
totals; "which customers have had an order below 1k" names the customers, not their orders. The
currency said in words ("bucks", "dollars") is the amount's unit. The helper's paraphrases
(helper-blind-7, written before the change) judged by the evaluation's reader; counts from the ORM."""

from decimal import Decimal

import pytest

from chat.models import Customer, Order
from chat.turn import ask
from tests.chat.answering.conftest import blind_cases, judged, named_span

pytestmark = pytest.mark.turn

GAPS = {
    "the small stuff from boston customers this yr - how many orders sub 2k?": (
        "known gap: 'the small stuff' leaves 'stuff' unread"
    ),
}


@pytest.mark.django_db
@pytest.mark.parametrize("case", blind_cases("amount_below", GAPS))
def test_the_helpers_amount_below_paraphrases(corpus, user, case):
    verdict, answer = judged(user, case)
    assert verdict == "correct", answer


@pytest.mark.django_db
@pytest.mark.parametrize(
    "question",
    [
        "how many aire valley brewing orders sub 2k",
        "count of aire valley brewing orders < 2k",
        "aire valley brewing orders under 2000 bucks",
    ],
)
def test_a_ceiling_in_other_words_bounds_each_order(corpus, user, question):
    answer = ask(user, session=None, question=question).answer
    n = Order.objects.filter(customer__name="Aire Valley Brewing", amount__lt=Decimal(2000)).count()
    assert answer.startswith(f"{n} orders for Aire Valley Brewing under $2,000.00"), answer


@pytest.mark.django_db
def test_which_customers_had_an_order_below_an_amount_names_the_customers(corpus, user):
    answer = ask(user, session=None, question="which mid-market customers have had an order below 1k this year").answer
    below = Customer.objects.filter(
        segment="mid-market", orders__amount__lt=Decimal(1000), orders__ordered_on__range=named_span("this year")
    ).distinct()
    assert answer.startswith(f"{below.count()} customer"), answer
    assert all(name in answer for name in below.values_list("name", flat=True)), answer
