"""An explicit request to keep something in casual words ("file this away", "jot this down", "stash
this", "for the record", "keep on file") keeps the context it names.

Table-driven over the class paraphrases helper-blind-3 wrote without reading the gate
(/work/blind/paraphrases/gate_new.jsonl, copied into tests/fixtures/paraphrases/gate_classes.jsonl);
rows the gate does not read yet are listed in KNOWN_GAPS with why, and run as strict expected
failures so a fix shows up.
"""

import pytest

from tests.memory.gate.classes import cases, problems

CLASSES = ("remember_casual",)
KNOWN_GAPS: dict[str, str] = {
    "remember_casual-1": (
        "'our fiscal yr closes at the end of june' is a fact about the company, which the design never "
        "keeps as a note (design rule: never kept, company facts), even when asked"
    ),
}


@pytest.mark.django_db
@pytest.mark.parametrize("row", cases(CLASSES, KNOWN_GAPS))
def test_the_class_is_read_as_the_helper_expects(row):
    assert problems(row) == []
