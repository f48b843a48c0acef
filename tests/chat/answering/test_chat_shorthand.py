"""Chat shorthand (class chat_shorthand): "hw" (how), "w" and "w/" (with), "tot" (total), "mth"
(month), "b4" (before), "custs", "amt", "rev" are read before any rule reads the question, also
beside a misspelt customer name; what was read is said.

The helper's paraphrases (helper-blind-16, written before the change, without reading the
planner) judged by the evaluation's own reader (atlas.tooling), on the day they were written."""

import pytest

from tests.chat.answering.conftest import blind_cases, judged

pytestmark = pytest.mark.turn

GAPS: dict[str, str] = {}


@pytest.mark.django_db
@pytest.mark.parametrize("case", blind_cases("chat_shorthand", GAPS))
def test_the_helpers_chat_shorthand_paraphrases(corpus, user, on_4_december, case):
    verdict, answer = judged(user, case)
    assert verdict == "correct", answer
