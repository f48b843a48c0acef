"""A standing wish about how answers are given that names no facet Atlas can apply (net not gross,
fiscal quarters, a tone, percentages' decimals, a field the records lack) is kept as a preference in
the user's words, so the acknowledgement and the memory page can say it is not applied.

Table-driven over the class paraphrases helper-blind-4 wrote without reading the gate
(/work/blind/paraphrases/gate_new4.jsonl, copied into tests/fixtures/paraphrases/gate_classes.jsonl);
rows the gate does not read yet are listed in KNOWN_GAPS with why, and run as strict expected
failures so a fix shows up.
"""

import pytest

from tests.memory.gate.classes import cases, problems

CLASSES = ("unsupported_standing_wish",)
KNOWN_GAPS: dict[str, str] = {}


@pytest.mark.django_db
@pytest.mark.parametrize("row", cases(CLASSES, KNOWN_GAPS))
def test_the_class_is_read_as_the_helper_expects(row):
    assert problems(row) == []
