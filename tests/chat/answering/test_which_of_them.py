"""Which of them (class which_of_them): after customers were counted or listed, "which of them
spent the most", "whos the biggest of those", "rank em by revenue" rank those customers (their
filters carry), never the largest orders.

The helper's paraphrases (helper-blind-16, written before the change, without reading the
planner) judged by the evaluation's own reader (atlas.tooling), on the day they were written."""

import pytest

from tests.chat.answering.conftest import blind_cases, judged

pytestmark = pytest.mark.turn

GAPS: dict[str, str] = {
    "customers in portland?": "known gap: no plan ranks customers by their average order, and Atlas abstains",
    "who are our houston customers": (
        "known gap: ranking customers by what they owe ('owes us the most') has no plan, and Atlas abstains"
    ),
}


@pytest.mark.django_db
@pytest.mark.parametrize("case", blind_cases("which_of_them", GAPS))
def test_the_helpers_which_of_them_paraphrases(corpus, user, on_4_december, case):
    verdict, answer = judged(user, case)
    assert verdict == "correct", answer
