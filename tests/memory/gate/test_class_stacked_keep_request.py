"""Two keep phrases stacked before the fact ("for the record, hang on to this: ...") keep the fact.

Table-driven over the class paraphrases helper-blind-6 wrote without reading the gate
(/work/blind/paraphrases/gate_new6.jsonl, copied into tests/fixtures/paraphrases/gate_classes.jsonl),
written after the change and blind to it;
rows the gate does not read yet are listed in KNOWN_GAPS with why, and run as strict expected
failures so a fix shows up.
"""

import pytest

from tests.memory.gate.classes import cases, problems

CLASSES = ("stacked_keep_request",)
KNOWN_GAPS: dict[str, str] = {
    "stacked_keep_request-4": "'for the record and for next time too, remember ...' keeps nothing",
    "stacked_keep_request-8": "'for ur memory, remember that i sign off every purchase order over 10k' keeps nothing",
}


@pytest.mark.django_db
@pytest.mark.parametrize("row", cases(CLASSES, KNOWN_GAPS))
def test_the_class_is_read_as_the_helper_expects(row):
    assert problems(row) == []
