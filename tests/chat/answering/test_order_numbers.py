"""Order numbers typed loosely (class order_number_variant): "SO 88305", "so88305", "order
88305", "order no. 88305", "#88305" name the order SO-88305, and its card answers the status,
date or amount asked, whatever remark sits in another clause. The order is chosen and read
here with the ORM; the helper's paraphrases are judged against their truth texts."""

import pytest

from chat.models import Order
from chat.turn import ask
from tests.chat.answering.conftest import blind_cases, judged, money

pytestmark = pytest.mark.turn


def date_said(order) -> str:
    return f"{order.ordered_on.day} {order.ordered_on:%b %Y}"


@pytest.mark.django_db
@pytest.mark.parametrize(
    "typed",
    [
        "when was SO {n} placed",
        "so{n} - what status is it in?",
        "how much was order number {n}",
        "order no. {n} date pls",
        "#{n} amount? the customer is asking, no rush",
    ],
)
def test_an_order_number_typed_loosely_is_that_order(corpus, user, typed):
    order = Order.objects.select_related("customer").order_by("-number")[3]
    answer = ask(user, session=None, question=typed.format(n=order.number.split("-")[1])).answer
    assert answer.startswith(f"Order {order.number}:"), answer
    assert date_said(order) in answer and money(order.amount) in answer and order.status in answer, answer


@pytest.mark.django_db
def test_a_field_no_order_holds_beside_the_number_is_not_answered_with_the_card(corpus, user):
    order = Order.objects.order_by("number").first()
    answer = ask(user, session=None, question=f"whats the tracking number for {order.number}").answer
    assert order.number not in answer and "$" not in answer, answer


@pytest.mark.django_db
def test_so_before_a_small_number_is_no_order(corpus, user):
    answer = ask(user, session=None, question="so 12 orders were open in the west?").answer
    assert "Order SO-" not in answer, answer


@pytest.mark.django_db
@pytest.mark.parametrize("case", blind_cases("order_number_variant", {}))
def test_the_helpers_order_number_paraphrases(corpus, user, case):
    verdict, answer = judged(user, case)
    assert verdict == "correct", answer


@pytest.mark.django_db
def test_the_field_asked_of_an_order_leads_its_answer(corpus, user):
    order = Order.objects.select_related("customer").order_by("-number")[5]
    digits = order.number.split("-")[1]
    placed = ask(user, session=None, question=f"what date was so {digits} placed").answer
    assert placed.startswith(f"Order {order.number}: placed on {date_said(order)} by {order.customer.name}"), placed
    status = ask(user, session=None, question=f"status of order no. {digits}?").answer
    assert status.startswith(f"Order {order.number}: status {order.status} ("), status
    amount = ask(user, session=None, question=f"how much was #{digits}").answer
    assert amount.startswith(f"Order {order.number}: {money(order.amount)} ("), amount


@pytest.mark.django_db
@pytest.mark.parametrize("typed", ["what was {n} worth", "{n} - when did that go out?", "what's the status of {n} pls"])
def test_a_bare_number_the_question_reads_nothing_else_from_is_that_order(corpus, user, typed):
    """A number of five digits or more standing alone, in a question with no customer, place, amount or
    period, names the order typed without its prefix (never a total over all orders that drops it)."""
    order = Order.objects.select_related("customer").order_by("number")[7]
    answer = ask(user, session=None, question=typed.format(n=order.number.split("-")[1])).answer
    assert answer.startswith(f"Order {order.number}:"), answer


@pytest.mark.django_db
@pytest.mark.parametrize(
    "typed",
    ["orders over {n}", "how many orders under {n} dollars this year", "list orders below {n}k"],
)
def test_a_number_beside_a_comparison_or_a_scale_is_no_order(corpus, user, typed):
    order = Order.objects.order_by("number")[7]
    answer = ask(user, session=None, question=typed.format(n=order.number.split("-")[1])).answer
    assert not answer.startswith("Order "), answer
