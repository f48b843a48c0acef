"""An update that points back ('bump that to 25') at a wish limited to one kind of answer replaces it there.

Table-driven over the class paraphrases helper-blind-11 wrote without reading the gate
(/work/blind/paraphrases/gate_new9.jsonl, copied into tests/fixtures/paraphrases/gate_classes.jsonl);
rows the gate does not read yet are listed in KNOWN_GAPS with why, and run as strict expected
failures so a fix shows up.
"""

import pytest

from tests.memory.gate.classes import cases, problems

CLASSES = ("pointer_update_scoped",)
KNOWN_GAPS: dict[str, str] = {
    "pointer_update_scoped-0": "'just list 10 of them' is no list size yet, so the first wish is not kept",
    "pointer_update_scoped-2": (
        "a time window ('last 18 months') is no facet of the table: 'change that to 24' has nothing to replace"
    ),
    "pointer_update_scoped-3": "'up that to 40' names a bare number and no facet",
    "pointer_update_scoped-5": "a threshold for inactive customers is no facet of the table",
    "pointer_update_scoped-6": "a minimum deal size is no facet of the table",
}


@pytest.mark.django_db
@pytest.mark.parametrize("row", cases(CLASSES, KNOWN_GAPS))
def test_the_class_is_read_as_the_helper_expects(row):
    assert problems(row) == []
