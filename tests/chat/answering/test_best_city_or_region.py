"""The best or worst group (class best_city_or_region): "which city brought in the most", "worst
region by revenue", "which segment had the most orders" name the group at the top (or bottom).

The helper's paraphrases (helper-blind-16, written before the change, without reading the
planner) judged by the evaluation's own reader (atlas.tooling), on the day they were written."""

import pytest

from tests.chat.answering.conftest import blind_cases, judged

pytestmark = pytest.mark.turn

GAPS: dict[str, str] = {}


@pytest.mark.django_db
@pytest.mark.parametrize("case", blind_cases("best_city_or_region", GAPS))
def test_the_helpers_best_city_or_region_paraphrases(corpus, user, on_4_december, case):
    verdict, answer = judged(user, case)
    assert verdict == "correct", answer
