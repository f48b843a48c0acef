"""A contraction typed without its apostrophe whose bare form is a word too ("ill be asking", "id rather",
"were moving") is read as the contraction: "ill" before a verb is no illness.

Table-driven over the class paraphrases helper-blind-6 wrote without reading the gate
(/work/blind/paraphrases/gate_new6.jsonl, copied into tests/fixtures/paraphrases/gate_classes.jsonl),
written after the change and blind to it;
rows the gate does not read yet are listed in KNOWN_GAPS with why, and run as strict expected
failures so a fix shows up.
"""

import pytest

from tests.memory.gate.classes import cases, problems

CLASSES = ("bare_contraction",)
KNOWN_GAPS: dict[str, str] = {}


@pytest.mark.django_db
@pytest.mark.parametrize("row", cases(CLASSES, KNOWN_GAPS))
def test_the_class_is_read_as_the_helper_expects(row):
    assert problems(row) == []
