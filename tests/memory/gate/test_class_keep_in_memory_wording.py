"""A fact about the user's work with a request to keep it 'in memory', in any wording, is kept.

Table-driven over the class paraphrases helper-blind-12 wrote without reading the gate
(/work/blind/paraphrases/gate_new10.jsonl, copied into tests/fixtures/paraphrases/gate_classes.jsonl);
rows the gate does not read yet are listed in KNOWN_GAPS with why, and run as strict expected
failures so a fix shows up.
"""

import pytest

from tests.memory.gate.classes import cases, problems

CLASSES = ("keep_in_memory_wording",)
KNOWN_GAPS: dict[str, str] = {
    "keep_in_memory_wording-2": (
        "'my team is 6 ppl in customer success': a sentence whose subject is the team is read as about someone else"
    ),
    "keep_in_memory_wording-6": (
        "'Please to keep it in your memory': 'to' between the politeness and the verb hides the request"
    ),
}


@pytest.mark.django_db
@pytest.mark.parametrize("row", cases(CLASSES, KNOWN_GAPS))
def test_the_class_is_read_as_the_helper_expects(row):
    assert problems(row) == []
