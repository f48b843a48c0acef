"""A moved patch, team or manager replaces the context note it updates.

Table-driven over the class paraphrases a helper wrote without reading the gate
(tests/fixtures/paraphrases/gate_classes.jsonl); rows the gate does not read yet are listed
in KNOWN_GAPS with why, and run as expected failures so a fix shows up.
"""

import pytest

from tests.memory.gate.classes import cases, problems

CLASSES = ("update_context",)
KNOWN_GAPS: dict[str, str] = {
    "update_context-1": "the new note keeps 'not the Baltics' in its words, so the old patch is still named",
    "update_context-4": (
        "'got moved to enterprise, remember that instead': the update and its keep request are two clauses"
    ),
    "update_context-5": (
        "'taken over as controller for germany, france is someone elses now' is not read as a moved role"
    ),
}


@pytest.mark.django_db
@pytest.mark.parametrize("row", cases(CLASSES, KNOWN_GAPS))
def test_the_class_is_read_as_the_helper_expects(row):
    assert problems(row) == []
