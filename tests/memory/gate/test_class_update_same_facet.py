"""A new value for a preference's facet, said days later in any wording, replaces the older note.

Table-driven over the class paraphrases helper-blind-7 wrote without reading the gate
(/work/blind/paraphrases/gate_new7.jsonl, copied into tests/fixtures/paraphrases/gate_classes.jsonl,
"nothing stored" written as {"stored": false}); rows the gate does not read yet are listed in
KNOWN_GAPS with why, and run as strict expected failures so a fix shows up.
"""

import pytest

from tests.memory.gate.classes import cases, problems

CLASSES = ("update_same_facet",)
KNOWN_GAPS: dict[str, str] = {
    "update_same_facet-8": (
        "'2-3 lines max' is read as a list size, not answer length, so 'more detail' does not replace it"
    ),
}


@pytest.mark.django_db
@pytest.mark.parametrize("row", cases(CLASSES, KNOWN_GAPS))
def test_the_class_is_read_as_the_helper_expects(row):
    assert problems(row) == []
