"""A forget said in chat removes the note it names.

Table-driven over the class paraphrases a helper wrote without reading the gate
(tests/fixtures/paraphrases/gate_classes.jsonl); rows the gate does not read yet are listed
in KNOWN_GAPS with why, and run as expected failures so a fix shows up.
"""

import pytest

from tests.memory.gate.classes import cases, problems

CLASSES = ("forget_in_chat",)
KNOWN_GAPS: dict[str, str] = {
    "forget_in_chat-5": "'Please forget it' after a wish about storing names no note",
    "forget_in_chat-6": "'wipe whatever u saved about me' names no note (delete-everything is the memory page's)",
}


@pytest.mark.django_db
@pytest.mark.parametrize("row", cases(CLASSES, KNOWN_GAPS))
def test_the_class_is_read_as_the_helper_expects(row):
    assert problems(row) == []
