"""A context update in casual words ("update: ...", "scratch that", "not X anymore", "ive relocated")
replaces the context note it updates.

Table-driven over the class paraphrases helper-blind-3 wrote without reading the gate
(/work/blind/paraphrases/gate_new.jsonl, copied into tests/fixtures/paraphrases/gate_classes.jsonl);
rows the gate does not read yet are listed in KNOWN_GAPS with why, and run as strict expected
failures so a fix shows up.
"""

import pytest

from tests.memory.gate.classes import cases, problems

CLASSES = ("context_update",)
KNOWN_GAPS: dict[str, str] = {
    "context_update-1": (
        "'jot down that my manager is priya nair' is read as a note about another person (the manager), "
        "so the first note is refused and there is nothing to update"
    ),
    "context_update-2": (
        "'not small business anymore, its mid-market' has no first-person subject and is read as a "
        "withdrawal with nothing to withdraw"
    ),
    "context_update-4": (
        "'our fiscal year ends in june' is a fact about the company, which the design never keeps as a "
        "note, even when asked; so there is nothing to update"
    ),
    "context_update-5": (
        "'im not in london anymore, its the dublin office now' replaces the London note, but the new "
        "note keeps the user's words and so still names London"
    ),
}


@pytest.mark.django_db
@pytest.mark.parametrize("row", cases(CLASSES, KNOWN_GAPS))
def test_the_class_is_read_as_the_helper_expects(row):
    assert problems(row) == []
