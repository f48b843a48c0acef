"""A habit given as the reason for a standing wish: the wish is kept, the habit is not.

Table-driven over the class paraphrases helper-blind-7 wrote without reading the gate
(/work/blind/paraphrases/gate_new7.jsonl, copied into tests/fixtures/paraphrases/gate_classes.jsonl,
"nothing stored" written as {"stored": false}); rows the gate does not read yet are listed in
KNOWN_GAPS with why, and run as strict expected failures so a fix shows up.
"""

import pytest

from tests.memory.gate.classes import cases, problems

CLASSES = ("habit_with_wish",)
KNOWN_GAPS: dict[str, str] = {
    "habit_with_wish-5": (
        "'use that format' points back at a format named in the habit's clause ('it wants yyyy-mm-dd'), which"
        " is refused as a fact about the system"
    ),
}


@pytest.mark.django_db
@pytest.mark.parametrize("row", cases(CLASSES, KNOWN_GAPS))
def test_the_class_is_read_as_the_helper_expects(row):
    assert problems(row) == []
