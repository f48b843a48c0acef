"""eval_memory_effect on memory_effect_set2 (and set3): 40 (30) cases a helper wrote without reading the code,
fixed against since (a regression fixture, no longer held out); the figures after the fixes, as
a floor. Blind first run: followed when stored 0.786, end to end 0.407; before it was fixed
against: 0.800 and 0.444, 20 of 40 not stored."""

import io
import json
from pathlib import Path

import pytest
from django.core.management import call_command

SET2 = Path(__file__).resolve().parents[1] / "fixtures" / "regression" / "memory_effect_set2.jsonl"
SET3 = SET2.with_name("memory_effect_set3.jsonl")


def _figures(path: Path) -> tuple[dict, str]:
    out = io.StringIO()
    call_command("eval_memory_effect", str(path), "--json", stdout=out)
    text = out.getvalue()
    return json.loads(text.strip().splitlines()[-1]), text


# One test for both sets: a transactional test empties the database after it, and the demo
# corpus is loaded once per module.
@pytest.mark.django_db(transaction=True)
def test_the_memory_effect_regression_sets_keep_their_figures_after_the_fixes(corpus):
    figures, text = _figures(SET2)
    assert figures["cases"] == 40
    assert figures["harmed"] == 0, text
    assert figures["followed_when_stored"] >= 1.0, text
    assert figures["end_to_end"] >= 0.888, text
    assert figures["not_stored"] <= 8, text
    # memory_effect_set3: held out twice (0.857 / 0.500 first, 0.900 / 0.750 with one harmed
    # case on the final code), then fixed against: a scope said "when im asking", "whenever" read as "never", a request
    # after its condition ("every time u list customers i need the acct code").
    figures, text = _figures(SET3)
    assert figures["cases"] == 30
    assert figures["harmed"] == 0, text
    assert figures["followed_when_stored"] >= 1.0, text
    assert figures["end_to_end"] >= 0.833, text
    assert figures["not_stored"] <= 5, text
