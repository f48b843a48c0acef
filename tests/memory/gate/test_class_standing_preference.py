"""A standing wish about answers is kept as a preference with every facet and value it names
(the facet classes of the preference table, several facets in one sentence, a scope).

Table-driven over the class paraphrases a helper wrote without reading the gate
(tests/fixtures/paraphrases/gate_classes.jsonl); rows the gate does not read yet are listed
in KNOWN_GAPS with why, and run as expected failures so a fix shows up.
"""

import pytest

from tests.memory.gate.classes import cases, problems

CLASSES = (
    "standing_preference",
    "facet_currency",
    "facet_currency_display",
    "facet_scale",
    "facet_rounding",
    "facet_date_format",
    "facet_layout",
    "facet_length",
    "facet_include",
    "facet_sort",
    "facet_limit",
    "facet_cancelled",
    "facet_language",
    "facet_unsupported",
    "several_facets",
    "scoped_preference",
)
KNOWN_GAPS: dict[str, str] = {
    "facet_language-5": "a wish written in German: the rows read English",
    "facet_unsupported-9": "the statement lint reads 'the sales reps phone number shown' as a clause",
}


@pytest.mark.django_db
@pytest.mark.parametrize("row", cases(CLASSES, KNOWN_GAPS))
def test_the_class_is_read_as_the_helper_expects(row):
    assert problems(row) == []
