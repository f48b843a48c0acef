"""A patch or territory kept on request, then said to have changed, leaves only the new one live.

Table-driven over the class paraphrases helper-blind-7 wrote without reading the gate
(/work/blind/paraphrases/gate_new7.jsonl, copied into tests/fixtures/paraphrases/gate_classes.jsonl,
"nothing stored" written as {"stored": false}); rows the gate does not read yet are listed in
KNOWN_GAPS with why, and run as strict expected failures so a fix shows up.
"""

import pytest

from tests.memory.gate.classes import cases, problems

CLASSES = ("update_patch",)
KNOWN_GAPS: dict[str, str] = {
    "update_patch-3": "'as of this week im running the mid-market book' is read as a situation with no statement",
    "update_patch-4": "'its florida now' has no first person: no statement about the user",
    "update_patch-6": "'moving across to central region from 1 oct' has no subject: no statement about the user",
}


@pytest.mark.django_db
@pytest.mark.parametrize("row", cases(CLASSES, KNOWN_GAPS))
def test_the_class_is_read_as_the_helper_expects(row):
    assert problems(row) == []
