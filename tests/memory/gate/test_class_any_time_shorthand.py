"""A standing wish opened by a casual spelling of every time / any time / whenever ("n e time",
"evry time", "whenevr", "each n every time") is kept with its facets.

Table-driven over the class paraphrases helper-blind-5 wrote without reading the gate
(/work/blind/paraphrases/gate_new5.jsonl, copied into tests/fixtures/paraphrases/gate_classes.jsonl);
rows the gate does not read yet are listed in KNOWN_GAPS with why, and run as strict expected
failures so a fix shows up.
"""

import pytest

from tests.memory.gate.classes import cases, problems

CLASSES = ("any_time_shorthand",)
KNOWN_GAPS: dict[str, str] = {
    "any_time_shorthand-10": "'I don't need the long tail' is read as withdrawing a preference",
}


@pytest.mark.django_db
@pytest.mark.parametrize("row", cases(CLASSES, KNOWN_GAPS))
def test_the_class_is_read_as_the_helper_expects(row):
    assert problems(row) == []
