"""Rankings always show their values, in order, under a heading that is one sentence (class
ranking_with_values). Values from the ORM."""

import pytest
from django.db.models import Count, Sum

from chat.models import Order
from chat.turn import ask
from tests.chat.answering.conftest import money, named_span, paraphrases

pytestmark = pytest.mark.turn

# question -> (group key, period, by count, limit, lowest first, segment)
CASES = {
    "top 5 customers by revenue last quarter": ("customer__name", "last quarter", False, 5, False, None),
    "bottom 3 regions by number of orders this yr": ("customer__region", "this year", True, 3, True, None),
    "rank the segments by revenue in 2025": ("customer__segment", "2025", False, 3, False, None),
    "3 smallest enterprise customers by spend last yr": ("customer__name", "last year", False, 3, True, "enterprise"),
}


def test_the_cases_are_the_helpers_paraphrases():
    assert set(CASES) <= {r["turns"][0] for r in paraphrases("ranking_with_values")}


@pytest.mark.django_db
@pytest.mark.parametrize("question", list(CASES))
def test_a_ranking_shows_every_value_in_order(corpus, user, question):
    key, period, by_count, limit, lowest, segment = CASES[question]
    orders = Order.objects.filter(ordered_on__range=named_span(period))
    if segment:
        orders = orders.filter(customer__segment=segment)
    if not by_count:
        orders = orders.exclude(status="cancelled")
    rows = orders.values(key).annotate(v=Count("id") if by_count else Sum("amount"))
    rows = list(rows.order_by("v" if lowest else "-v"))[:limit]
    answer = ask(user, session=None, question=question).answer
    heading = answer.splitlines()[0]
    assert heading.endswith(":") and ".:" not in heading and ": C" not in heading, heading
    at = 0
    for row in rows:
        label = row[key].title() if key == "customer__region" else row[key]
        shown = f"{label}: {row['v']:,} orders" if by_count else f"{label}: {money(row['v'])}"
        assert shown in answer[at:], (shown, answer)
        at = answer.index(shown)
