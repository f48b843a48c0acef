"""Order verbs (class order_verbs): "booked", "placed", "put through", "bought", "purchased" say
that customers ordered; they are read as the orders' verb, never left unread. With "most" or
"least" and no count word they rank by value ("which region booked the most"), as "spent" does.

The helper's paraphrases (helper-blind-16, written before the change, without reading the
planner) judged by the evaluation's own reader (atlas.tooling), on the day they were written."""

import pytest

from tests.chat.answering.conftest import blind_cases, judged

pytestmark = pytest.mark.turn

GAPS: dict[str, str] = {}


@pytest.mark.django_db
@pytest.mark.parametrize("case", blind_cases("order_verbs", GAPS))
def test_the_helpers_order_verbs_paraphrases(corpus, user, on_4_december, case):
    verdict, answer = judged(user, case)
    assert verdict == "correct", answer
