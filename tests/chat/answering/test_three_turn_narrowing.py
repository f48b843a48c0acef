"""Three-turn narrowing (class three_turn_narrowing): a place and a measure asked, the period
swapped ("what about q3"), then a segment or status added ("mid market only"): the place and the
new period carry into the third turn.

The helper's paraphrases (helper-blind-16, written before the change, without reading the
planner) judged by the evaluation's own reader (atlas.tooling), on the day they were written."""

import pytest

from tests.chat.answering.conftest import blind_cases, judged

pytestmark = pytest.mark.turn

GAPS: dict[str, str] = {}


@pytest.mark.django_db
@pytest.mark.parametrize("case", blind_cases("three_turn_narrowing", GAPS))
def test_the_helpers_three_turn_narrowing_paraphrases(corpus, user, on_4_december, case):
    verdict, answer = judged(user, case)
    assert verdict == "correct", answer
