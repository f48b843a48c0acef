"""A turn queues the gate only when the gate has something to read: when ``gate_has_work`` says
no, running the gate anyway writes no memory, no observation and no decision."""

import pytest

from memory.gate import gate_has_work, run_gate
from memory.models import GateDecision, Memory, Observation
from memory.rls import acting_user
from memory.store import set_paused
from tests.memory.gate.store_helpers import _event

OVERDUE = {"status": "overdue"}


def _rows(user) -> tuple[int, int, int]:
    with acting_user(user.pk):
        return (
            Memory.objects.filter(user_id=user.pk).count(),
            Observation.objects.filter(user_id=user.pk).count(),
            GateDecision.objects.filter(user_id=user.pk).count(),
        )


def _has_work(user, event) -> bool:
    with acting_user(user.pk):
        return gate_has_work(event, user=user)


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("before", "text", "session", "filters", "expected"),
    [
        ([], "What are Northline Freight's payment terms?", "s1", {}, False),
        ([], "Only the open ones", "s1", {}, False),
        ([], "From now on, show amounts in euros", "s1", {}, True),  # a standing preference
        ([], "Remember that my team code is 42", "s1", {}, True),  # an explicit request
        ([], "My password is hunter2", "s1", {}, True),  # a refusal is a decision
        ([], "Which orders?", "s1", OVERDUE, True),  # the filter's first occurrence in this session
        ([("s1", OVERDUE)], "And now?", "s1", OVERDUE, False),  # counted in this session already
        ([("s1", OVERDUE)], "And now?", "s2", OVERDUE, True),  # a new session counts again
        ([("s1", OVERDUE)], "And now?", "s1", {**OVERDUE, "region": "west"}, True),  # one filter is new
        ([], "Put that in a table", "s1", {}, True),  # a format asked for: its first occurrence
        ([("s1", {})], "Put that in a table", "s1", {}, False),  # the same format, same session
    ],
)
def test_gate_has_work_only_when_the_gate_would_record_something(make_user, before, text, session, filters, expected):
    user = make_user()
    for number, (earlier_session, earlier_filters) in enumerate(before, start=1):
        run_gate(_event(user, text, session=earlier_session, turn=number, filters=earlier_filters))
    event = _event(user, text, session=session, turn=len(before) + 1, filters=filters)
    assert _has_work(user, event) is expected
    if not expected:
        rows = _rows(user)
        result = run_gate(event)
        assert (result.decisions, result.written, result.refreshed) == ((), (), ())
        assert _rows(user) == rows


@pytest.mark.django_db
def test_a_counted_filter_is_work_while_memory_is_paused(make_user):
    """Paused, the gate records each occurrence as refused (reason "paused"): that is a decision."""
    user = make_user()
    run_gate(_event(user, "Which orders?", session="s1", turn=1, filters=OVERDUE))
    set_paused(user, paused=True)
    event = _event(user, "And now?", session="s1", turn=2, filters=OVERDUE)
    assert _has_work(user, event) is True
    assert [d.reason for d in run_gate(event).decisions] == ["paused"]


@pytest.mark.django_db
def test_a_turn_reads_its_question_once(make_user, monkeypatch):
    """The answer's sentence and the queue decision share one reading of the question."""
    from chat.turn import ask
    from memory.gate import analysis

    calls = []
    real = analysis._analyse_turn
    monkeypatch.setattr(analysis, "_analyse_turn", lambda text, **kw: calls.append(text) or real(text, **kw))
    user = make_user()
    turn = ask(user, session=None, question="From now on, show amounts in euros")
    assert turn.gate_queued and calls == ["From now on, show amounts in euros"]
    # Outside a turn nothing is kept: each call reads afresh.
    analysis.analyse_turn("Keep answers short", at=turn.created_at)
    analysis.analyse_turn("Keep answers short", at=turn.created_at)
    assert calls[1:] == ["Keep answers short", "Keep answers short"]


@pytest.mark.django_db
def test_what_the_turn_read_survives_the_trip_through_the_gate_event_unchanged():
    """The worker applies what the turn read (memory.gate.turn_reading) instead of reading the text
    again: over two paraphrases of every class (every kind of finding the classes hold), the findings
    loaded from JSON equal a fresh reading."""
    import json
    from datetime import UTC, datetime

    from memory.gate.analysis import analyse_turn, dump_findings, load_findings
    from tests.memory.gate.classes import FIXTURE

    at = datetime(2026, 5, 4, 9, 30, tzinfo=UTC)
    rows = [json.loads(line) for line in FIXTURE.read_text(encoding="utf-8").splitlines() if line.strip()]
    seen: dict[str, int] = {}
    sample = [row for row in rows if (seen := {**seen, row["class"]: seen.get(row["class"], 0) + 1})[row["class"]] <= 2]
    texts = [t["text"] for row in sample for t in row.get("turns") or [{"text": row["text"]}]]
    for text in texts:
        findings = analyse_turn(text, at=at)
        assert load_findings(json.loads(json.dumps(dump_findings(findings)))) == findings, text
