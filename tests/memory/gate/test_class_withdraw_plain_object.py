"""A later turn that drops something extra by naming it plainly withdraws the note that asked for it.

Table-driven over the class paraphrases helper-blind-12 wrote without reading the gate
(/work/blind/paraphrases/gate_new10.jsonl, copied into tests/fixtures/paraphrases/gate_classes.jsonl);
rows the gate does not read yet are listed in KNOWN_GAPS with why, and run as strict expected
failures so a fix shows up.
"""

import pytest

from tests.memory.gate.classes import cases, problems

CLASSES = ("withdraw_plain_object",)
KNOWN_GAPS: dict[str, str] = {
    "withdraw_plain_object-1": (
        "the first turn ('every answer pls end with a next steps section') is not kept, so the withdrawal is "
        "kept as a 'does not want'"
    ),
    "withdraw_plain_object-3": (
        "'skip the tldr from now' is read as a new wish to leave the tldr out, not as the old one withdrawn"
    ),
}


@pytest.mark.django_db
@pytest.mark.parametrize("row", cases(CLASSES, KNOWN_GAPS))
def test_the_class_is_read_as_the_helper_expects(row):
    assert problems(row) == []
