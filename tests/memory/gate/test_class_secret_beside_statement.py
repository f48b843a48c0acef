"""A secret said beside something keepable (a standing preference, a request to keep a fact about
the user's patch) is refused as a whole and named by no note; the keepable thing is still kept.

Table-driven over the class paraphrases helper-blind-4 wrote without reading the gate
(/work/blind/paraphrases/gate_new4.jsonl, copied into tests/fixtures/paraphrases/gate_classes.jsonl);
rows the gate does not read yet are listed in KNOWN_GAPS with why, and run as strict expected
failures so a fix shows up.
"""

import pytest

from tests.memory.gate.classes import cases, problems

CLASSES = ("secret_beside_statement",)
KNOWN_GAPS: dict[str, str] = {}


@pytest.mark.django_db
@pytest.mark.parametrize("row", cases(CLASSES, KNOWN_GAPS))
def test_the_class_is_read_as_the_helper_expects(row):
    assert problems(row) == []
