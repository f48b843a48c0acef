"""A contract's signing date (class contract_signed_date): "when did we sign w X", "when did X
sign up", "X's contract signing date" ask for the signed-on date of X's latest contract.

The helper's paraphrases (helper-blind-16, written before the change, without reading the
planner) judged by the evaluation's own reader (atlas.tooling), on the day they were written."""

import pytest

from tests.chat.answering.conftest import blind_cases, judged

pytestmark = pytest.mark.turn

GAPS: dict[str, str] = {}


@pytest.mark.django_db
@pytest.mark.parametrize("case", blind_cases("contract_signed_date", GAPS))
def test_the_helpers_contract_signed_date_paraphrases(corpus, user, on_4_december, case):
    verdict, answer = judged(user, case)
    assert verdict == "correct", answer
