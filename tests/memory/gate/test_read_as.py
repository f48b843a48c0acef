"""The gate reads the normalised text: shorthand, typos and case as people type them, and the
decision records what the normaliser read differently (so staff see "read 'agian' as 'again'")."""

from datetime import UTC, datetime

import pytest

from memory.gate import TurnEvent, run_gate
from memory.gate.analysis import analyse_turn
from memory.models import GateDecision
from memory.rls import acting_user

AT = datetime(2026, 5, 4, 9, 30, tzinfo=UTC)


@pytest.mark.parametrize(
    ("text", "change"),
    [
        ("top 25 is plenty, dont ever gimme the full list agian", {"from": "agian", "to": "again", "why": "spelling"}),
        ("pls keep amounts in thousands from now on", {"from": "pls", "to": "please", "why": "shorthand"}),
        ("im in lisbon til friday for the trade fair", {"from": "til", "to": "until", "why": "shorthand"}),
        ("alwyas show amounts in euros", {"from": "alwyas", "to": "always", "why": "spelling"}),
        ("thx, ISO dates by default pls", {"from": "thx", "to": "thanks", "why": "shorthand"}),
    ],
)
@pytest.mark.django_db
def test_a_decision_records_what_the_normaliser_read_differently(make_user, text, change):
    user = make_user()
    run_gate(TurnEvent(user_id=user.pk, session_key="s1", turn_id=1, at=AT, text=text))
    with acting_user(user.pk):
        decisions = list(GateDecision.objects.filter(user_id=user.pk))
    assert decisions
    assert all(change in d.read_as for d in decisions), [d.read_as for d in decisions]


@pytest.mark.django_db
def test_a_secret_decision_records_nothing_the_user_typed(make_user):
    user = make_user()
    run_gate(TurnEvent(user_id=user.pk, session_key="s1", turn_id=1, at=AT, text="my pw is Tulip#2291 pls"))
    with acting_user(user.pk):
        decision = GateDecision.objects.get(user_id=user.pk)
    assert (decision.reason, decision.source_quote, decision.read_as) == ("secret", "", [])


def test_codes_keep_their_shorthand_letters():
    findings = analyse_turn("Remember that I own account ACCT-10442.", at=AT)
    assert "ACCT-10442" in findings[0].statement
