"""Revenue verbs (class bring_in_verbs): "bring in", "brought in", "make us", "rake in",
"generate" ask for the total of the orders of whoever brings it in (a segment, a city, a region,
each region), never how many customers there are.

The helper's paraphrases (helper-blind-16, written before the change, without reading the
planner) judged by the evaluation's own reader (atlas.tooling), on the day they were written."""

import pytest

pytestmark = pytest.mark.turn


@pytest.mark.django_db
def test_a_segment_bringing_money_in_is_a_total_never_a_head_count(corpus, user, on_4_december):
    from django.db.models import Sum

    from chat.models import Order
    from chat.turn import ask
    from tests.chat.answering.conftest import money, named_span

    answer = ask(user, session=None, question="what did enterprise clients bring in during 2025").answer
    total = (
        Order.objects.filter(customer__segment="enterprise", ordered_on__range=named_span("2025"))
        .exclude(status="cancelled")
        .aggregate(v=Sum("amount"))["v"]
    )
    assert money(total) in answer and "customers" not in answer.split("(")[0], answer
