"""Picking from the previous answer (class pick_from_previous_answer): "which one is the
biggest", "when was that", "whats its status", "who placed the second one" read the orders the
last answer showed.

The helper's paraphrases (helper-blind-16, written before the change, without reading the
planner) judged by the evaluation's own reader (atlas.tooling), on the day they were written."""

import pytest

pytestmark = pytest.mark.turn


@pytest.mark.django_db
@pytest.mark.parametrize(
    "follow_up",
    [
        "and the account code of whoever ordered it?",
        "what segment is whoever placed it",
        "credit limit of whoever bought it",
    ],
)
def test_whoever_placed_the_order_shown_is_its_customer(corpus, user, on_4_december, follow_up):
    """ "whoever placed it" after one order's card is that order's customer, as "the customer" is (class
    pick_from_previous_answer); never a list of every customer."""
    from chat.models import Order
    from chat.turn import ask, start_session

    order = Order.objects.select_related("customer").order_by("number")[11]
    session = start_session(user)
    ask(user, session=session, question=f"when was {order.number} placed")
    answer = ask(user, session=session, question=follow_up).answer
    customer = order.customer
    assert answer.startswith(customer.name), answer
    assert customer.account_code in answer or customer.segment in answer or "credit limit" in answer, answer
