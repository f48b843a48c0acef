"""A standing wish about number formatting Atlas cannot apply yet is kept, and said not to be applied.

Table-driven over the class paraphrases helper-blind-10 wrote without reading the gate
(/work/blind/paraphrases/gate_new8.jsonl, copied into tests/fixtures/paraphrases/gate_classes.jsonl
with a one-item expected list unwrapped and "nothing stored" written as {"stored": false}); rows
the gate does not read yet are listed in KNOWN_GAPS with why, and run as strict expected failures
so a fix shows up.
"""

import pytest

from tests.memory.gate.classes import cases, problems

CLASSES = ("unsupported_number_format",)
KNOWN_GAPS: dict[str, str] = {
    "unsupported_number_format-2": (
        "a verbless wish with 'whenever they come up' as its only standing mark is not read as a wish"
    ),
    "unsupported_number_format-4": "the wish sits after a 'when there's a change' condition and is not split from it",
    "unsupported_number_format-7": (
        "'keep it like that' is no standing mark yet: the wish is read as an update needing an older note"
    ),
}


@pytest.mark.django_db
@pytest.mark.parametrize("row", cases(CLASSES, KNOWN_GAPS))
def test_the_class_is_read_as_the_helper_expects(row):
    assert problems(row) == []
