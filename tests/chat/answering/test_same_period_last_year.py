"""The same period last year (class same_period_last_year): "now the same month last yr", "same
quarter a year ago", "the same stretch in 2025" move the carried period back one year, keeping
its length, and keep the grouping and filters.

The helper's paraphrases (helper-blind-16, written before the change, without reading the
planner) judged by the evaluation's own reader (atlas.tooling), on the day they were written."""

import pytest

from tests.chat.answering.conftest import blind_cases, judged

pytestmark = pytest.mark.turn

GAPS: dict[str, str] = {}


@pytest.mark.django_db
@pytest.mark.parametrize("case", blind_cases("same_period_last_year", GAPS))
def test_the_helpers_same_period_last_year_paraphrases(corpus, user, on_4_december, case):
    verdict, answer = judged(user, case)
    assert verdict == "correct", answer
