"""A correction that says what stopped and then what is so now keeps one note in the user's words,
with the new value ("the leeds office closed in may, everything goes through york now").

Table-driven over the class paraphrases helper-blind-6 wrote without reading the gate
(/work/blind/paraphrases/gate_new6.jsonl, copied into tests/fixtures/paraphrases/gate_classes.jsonl),
written after the change and blind to it;
rows the gate does not read yet are listed in KNOWN_GAPS with why, and run as strict expected
failures so a fix shows up.
"""

import pytest

from tests.memory.gate.classes import cases, problems

CLASSES = ("correction_what_is_now",)
KNOWN_GAPS: dict[str, str] = {
    "correction_what_is_now-5": "'nah' before a lower-case name ('nah mark retired') is not read as a verdict",
}


@pytest.mark.django_db
@pytest.mark.parametrize("row", cases(CLASSES, KNOWN_GAPS))
def test_the_class_is_read_as_the_helper_expects(row):
    assert problems(row) == []
