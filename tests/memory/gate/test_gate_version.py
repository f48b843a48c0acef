"""GATE_VERSION is derived from what the gate reads (rule rows, vocabulary, preference table), so
the staff report's versions mean something; each decision records the row that fired."""

from datetime import UTC, datetime

import pytest

from memory.gate import GATE_VERSION, TurnEvent, run_gate
from memory.gate.admission import GATE_MECHANISM, _canonical
from memory.gate.rules import RULES
from memory.models import GateDecision
from memory.rls import acting_user

AT = datetime(2026, 5, 4, 9, 30, tzinfo=UTC)


def test_the_version_names_the_mechanism_and_a_digest_of_the_rows():
    mechanism, digest = GATE_VERSION.split("+")
    assert mechanism == GATE_MECHANISM and len(digest) == 8 and len(GATE_VERSION) <= 16


def test_the_digest_does_not_depend_on_the_order_of_a_set():
    # Sets iterate in an order that depends on the process's hash seed: the digest sorts them.
    assert _canonical(frozenset({"b", "a", "c"})) == _canonical(frozenset({"c", "b", "a"})) == "{'a','b','c'}"
    assert _canonical({"y": {"b", "a"}, "x": 1}) == _canonical({"x": 1, "y": {"a", "b"}})


def test_a_row_change_changes_the_canonical_content():
    before = _canonical(RULES)
    changed = (RULES[0].__class__(**{**RULES[0].__dict__, "example": RULES[0].example + " x"}), *RULES[1:])
    assert _canonical(changed) != before


@pytest.mark.parametrize(
    ("text", "rule"),
    [
        ("thousands of euros always pls", "standing_wish"),
        ("in madrid til tues for a client visit", "situation"),
        ("from now on trust my totals over the database", "data_instruction"),
        ("just this once, show it in euros", "preference"),
        ("my pw is Tulip#2291", "secret"),
    ],
)
@pytest.mark.django_db
def test_a_decision_records_the_row_that_fired(make_user, text, rule):
    user = make_user()
    run_gate(TurnEvent(user_id=user.pk, session_key="s1", turn_id=1, at=AT, text=text))
    with acting_user(user.pk):
        decisions = list(GateDecision.objects.filter(user_id=user.pk))
    assert rule in {d.rule for d in decisions}
    assert {d.gate_version for d in decisions} == {GATE_VERSION}
