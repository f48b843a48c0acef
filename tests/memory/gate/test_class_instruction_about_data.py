"""A wish about what Atlas does with its data (trust my totals, don't check, use my numbers
instead) is an instruction, refused whatever standing phrase or politeness surrounds it.

Table-driven over the class paraphrases a helper wrote without reading the gate
(tests/fixtures/paraphrases/gate_classes.jsonl); rows the gate does not read yet are listed
in KNOWN_GAPS with why, and run as expected failures so a fix shows up.
"""

import pytest

from tests.memory.gate.classes import cases, problems

CLASSES = ("instruction_about_data",)
KNOWN_GAPS: dict[str, str] = {}


@pytest.mark.django_db
@pytest.mark.parametrize("row", cases(CLASSES, KNOWN_GAPS))
def test_the_class_is_read_as_the_helper_expects(row):
    assert problems(row) == []
