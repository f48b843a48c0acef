"""Periods bounded by today (class period_to_or_from_now): "between now and end of feb", "from
now until the end of march", "the next 6 weeks" run from today forward; "earlier this year", "so
far this quarter", "up to today this year" run from the period's start to today.

The helper's paraphrases (helper-blind-16, written before the change, without reading the
planner) judged by the evaluation's own reader (atlas.tooling), on the day they were written."""

import pytest

from tests.chat.answering.conftest import blind_cases, judged

pytestmark = pytest.mark.turn

GAPS: dict[str, str] = {}


@pytest.mark.django_db
@pytest.mark.parametrize("case", blind_cases("period_to_or_from_now", GAPS))
def test_the_helpers_period_to_or_from_now_paraphrases(corpus, user, on_4_december, case):
    verdict, answer = judged(user, case)
    assert verdict == "correct", answer
