"""Yes or no on a customer's attribute (class yes_no_attribute): "is X an enterprise acct?", "is X
in the west?", "are X on net 30?" are answered yes or no first, with the value on record.

The helper's paraphrases (helper-blind-16, written before the change, without reading the
planner) judged by the evaluation's own reader (atlas.tooling), on the day they were written."""

import pytest

from tests.chat.answering.conftest import blind_cases, judged

pytestmark = pytest.mark.turn

GAPS: dict[str, str] = {}


@pytest.mark.django_db
@pytest.mark.parametrize("case", blind_cases("yes_no_attribute", GAPS))
def test_the_helpers_yes_no_attribute_paraphrases(corpus, user, on_4_december, case):
    verdict, answer = judged(user, case)
    assert verdict == "correct", answer
