"""'default <setting> <value>' is a standing wish with that value.

Table-driven over the class paraphrases helper-blind-12 wrote without reading the gate
(/work/blind/paraphrases/gate_new10.jsonl, copied into tests/fixtures/paraphrases/gate_classes.jsonl);
rows the gate does not read yet are listed in KNOWN_GAPS with why, and run as strict expected
failures so a fix shows up.
"""

import pytest

from tests.memory.gate.classes import cases, problems

CLASSES = ("default_facet_noun",)
KNOWN_GAPS: dict[str, str] = {
    "default_facet_noun-3": "kept as 'a chart where it helps': the chart's kind (bar) is no value of the chart facet",
    "default_facet_noun-6": "kept as sorted by amount, largest first: the sentence does not say 'descending'",
    "default_facet_noun-7": "a default region is a filter on the records, not a way of giving answers",
}


@pytest.mark.django_db
@pytest.mark.parametrize("row", cases(CLASSES, KNOWN_GAPS))
def test_the_class_is_read_as_the_helper_expects(row):
    assert problems(row) == []
