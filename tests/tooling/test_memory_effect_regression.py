"""eval_memory_effect on memory_effect_set2: 40 cases a helper wrote without reading the code,
fixed against since (a regression fixture, no longer held out); the figures after the fixes, as
a floor. Blind first run: followed when stored 0.786, end to end 0.407; before it was fixed
against: 0.800 and 0.444, 20 of 40 not stored."""

import io
import json
from pathlib import Path

import pytest
from django.core.management import call_command

SET2 = Path(__file__).resolve().parents[1] / "fixtures" / "regression" / "memory_effect_set2.jsonl"


@pytest.mark.django_db(transaction=True)
def test_memory_effect_set2_keeps_its_figures_after_the_fixes(corpus):
    out = io.StringIO()
    call_command("eval_memory_effect", str(SET2), "--json", stdout=out)
    text = out.getvalue()
    figures = json.loads(text.strip().splitlines()[-1])
    assert figures["cases"] == 40
    assert figures["harmed"] == 0, text
    assert figures["followed_when_stored"] >= 1.0, text
    assert figures["end_to_end"] >= 0.888, text
    assert figures["not_stored"] <= 8, text
