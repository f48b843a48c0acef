"""Three-turn narrowing (class three_turn_narrowing): a place and a measure asked, the period
swapped ("what about q3"), then a segment or status added ("mid market only"): the place and the
new period carry into the third turn.

The helper's paraphrases (helper-blind-16, written before the change, without reading the
planner) judged by the evaluation's own reader (atlas.tooling), on the day they were written."""

import pytest

pytestmark = pytest.mark.turn


@pytest.mark.django_db
def test_a_narrowing_keeps_the_place_stated_two_turns_back(corpus, user, on_4_december):
    from django.db.models import Sum

    from chat.models import Order
    from chat.turn import ask, start_session
    from tests.chat.answering.conftest import money, named_span

    session = start_session(user)
    for question in ("order value in the east in q1", "and q2?", "just the paid ones"):
        answer = ask(user, session=session, question=question).answer
    total = Order.objects.filter(customer__region="east", status="paid", ordered_on__range=named_span("q2")).aggregate(
        v=Sum("amount")
    )["v"]
    assert money(total) in answer and "East" in answer, answer


@pytest.mark.django_db
def test_ok_opening_a_turn_takes_it_but_elsewhere_judges(corpus, user, on_4_december):
    from chat.turn import ask, start_session

    session = start_session(user)
    ask(user, session=session, question="average order value in the north in q1")
    assert "North region in Q2 2026" in ask(user, session=session, question="ok and q2").answer
    judged = ask(user, session=None, question="is it ok to cancel an order").answer
    assert "cancelled orders" not in judged, judged
