"""A secret is refused as a whole: no note, not even one about the secret.

Table-driven over the class paraphrases a helper wrote without reading the gate
(tests/fixtures/paraphrases/gate_classes.jsonl); rows the gate does not read yet are listed
in KNOWN_GAPS with why, and run as expected failures so a fix shows up.
"""

import pytest

from tests.memory.gate.classes import params, problems

CLASSES = ("secret",)
KNOWN_GAPS: dict[str, str] = {}


def _cases():
    for name in CLASSES:
        for case in params(name):
            marks = [pytest.mark.xfail(reason=KNOWN_GAPS[case.id], strict=True)] if case.id in KNOWN_GAPS else []
            yield pytest.param(*case.values, id=case.id, marks=marks)


@pytest.mark.django_db
@pytest.mark.parametrize("row", list(_cases()))
def test_the_class_is_read_as_the_helper_expects(row):
    assert problems(row) == []
