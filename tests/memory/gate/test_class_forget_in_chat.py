"""A forget said in chat removes the note it names.

Table-driven over the class paraphrases a helper wrote without reading the gate
(tests/fixtures/paraphrases/gate_classes.jsonl); rows the gate does not read yet are listed
in KNOWN_GAPS with why, and run as expected failures so a fix shows up.
"""

import pytest

from tests.memory.gate.classes import params, problems

CLASSES = ("forget_in_chat",)
KNOWN_GAPS: dict[str, str] = {
    "forget_in_chat-2": ("'scratch the X thing' is not read as a forget ('Scratch X, I've moved to Y' is an update)"),
    "forget_in_chat-5": "'Please forget it' after a wish about storing names no note",
    "forget_in_chat-6": "'wipe whatever u saved about me' names no note (delete-everything is the memory page's)",
}


def _cases():
    for name in CLASSES:
        for case in params(name):
            marks = [pytest.mark.xfail(reason=KNOWN_GAPS[case.id], strict=True)] if case.id in KNOWN_GAPS else []
            yield pytest.param(*case.values, id=case.id, marks=marks)


@pytest.mark.django_db
@pytest.mark.parametrize("row", list(_cases()))
def test_the_class_is_read_as_the_helper_expects(row):
    assert problems(row) == []
