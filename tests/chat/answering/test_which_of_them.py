"""Which of them (class which_of_them): after customers were counted or listed, "which of them
spent the most", "whos the biggest of those", "rank em by revenue" rank those customers (their
filters carry), never the largest orders.

The helper's paraphrases (helper-blind-16, written before the change, without reading the
planner) judged by the evaluation's own reader (atlas.tooling), on the day they were written."""

import pytest

pytestmark = pytest.mark.turn


@pytest.mark.django_db
def test_a_ranking_by_the_average_order_names_the_group_with_the_highest_mean(corpus, user, on_4_december):
    from decimal import Decimal

    from django.db.models import Avg

    from chat.models import Order
    from chat.turn import ask
    from tests.chat.answering.conftest import money, named_span

    answer = ask(user, session=None, question="which segment had the highest avg order in 2025").answer
    rows = (
        Order.objects.filter(ordered_on__range=named_span("2025"))
        .exclude(status="cancelled")
        .values("customer__segment")
        .annotate(mean=Avg("amount"))
        .order_by("-mean")
    )
    top = rows[0]
    assert answer.lower().startswith(top["customer__segment"].replace("-", " ").split()[0]), answer
    assert money(top["mean"].quantize(Decimal("0.01"))) in answer, answer
