"""A keep request that points forward ("hang on to this:", "note the following -", "log this for
later:") keeps the fact after the colon or dash as a context.

Table-driven over the class paraphrases helper-blind-5 wrote without reading the gate
(/work/blind/paraphrases/gate_new5.jsonl, copied into tests/fixtures/paraphrases/gate_classes.jsonl);
rows the gate does not read yet are listed in KNOWN_GAPS with why, and run as strict expected
failures so a fix shows up.
"""

import pytest

from tests.memory.gate.classes import cases, problems

CLASSES = ("keep_pointer_then_colon",)
KNOWN_GAPS: dict[str, str] = {}


@pytest.mark.django_db
@pytest.mark.parametrize("row", cases(CLASSES, KNOWN_GAPS))
def test_the_class_is_read_as_the_helper_expects(row):
    assert problems(row) == []
