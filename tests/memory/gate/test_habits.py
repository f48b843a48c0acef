"""Habits: a filter used in three separate sessions becomes one context note; what is no
occurrence of one."""

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from memory.gate import reasons as rules
from memory.gate import run_gate
from memory.models import Observation
from memory.rls import acting_user
from tests.memory.gate.store_helpers import AT, _analyse, _decisions, _event, _live


@pytest.mark.django_db
def test_filter_in_three_sessions_becomes_context_once(make_user):
    user = make_user()
    for number, session in enumerate(["m1", "m1", "m2", "m2"], start=1):
        run_gate(_event(user, "Overdue invoices?", session=session, turn=number, filters={"status": "overdue"}))
    assert _live(user) == []
    with acting_user(user.pk):
        assert Observation.objects.filter(user_id=user.pk).count() == 2  # one per session
    run_gate(_event(user, "And now?", session="m3", turn=5, filters={"status": "overdue"}))
    [memory] = _live(user)
    assert memory.kind == "context" and "status: overdue" in memory.statement
    assert (memory.subject, memory.value) == ("filter_status", "overdue")
    assert _decisions(user)[-1].reason == rules.REPEATED_SESSIONS
    assert memory.source_quote == "And now?"  # the question that made it a third session
    assert {d.rule for d in _decisions(user)} == {"repeated_filter"}  # the rule staff filter decisions by
    run_gate(_event(user, "Again", session="m4", turn=6, filters={"status": "overdue"}))
    assert len(_live(user)) == 1


@pytest.mark.django_db
def test_different_filters_in_three_sessions_are_no_habit(make_user):
    user = make_user()
    sessions = [("f1", {"status": "overdue"}), ("f2", {"region": "west"}), ("f3", {"segment": "enterprise"})]
    for number, (session, filters) in enumerate(sessions, start=1):
        run_gate(_event(user, "Which orders?", session=session, turn=number, filters=filters))
    assert _live(user) == []
    assert {d.reason for d in _decisions(user)} == {rules.SINGLE_OCCURRENCE}


@pytest.mark.django_db
def test_format_request_in_three_sessions_becomes_preference(make_user):
    user = make_user()
    texts = ["Could you show that as bullet points?", "Bullet points please.", "Give me the list in bullets."]
    for number, text in enumerate(texts, start=1):
        run_gate(_event(user, text, session=f"s{number}", turn=number, at=AT + timedelta(days=number)))
    [memory] = _live(user, AT + timedelta(days=4))
    assert memory.kind == "preference" and "bullet" in memory.statement.lower()


@pytest.mark.parametrize("text", ["Don't show charts again.", "Please do not give me tables.", "DON'T USE TABLES."])
def test_asking_not_to_get_a_format_is_no_occurrence_of_asking_for_it(text):
    # Three sessions of "don't show charts" must never add up to "Prefers answers with a chart."
    assert [f for f in _analyse(text) if f.action == "observe"] == []


@pytest.mark.django_db
def test_each_occurrence_of_a_habit_is_kept_with_its_question_turn_and_time(make_user):
    user = make_user()
    run_gate(_event(user, "Overdue invoices?", session="o1", turn=4, filters={"status": "overdue"}))
    with acting_user(user.pk):
        [seen] = Observation.objects.filter(user_id=user.pk)
    assert (seen.signal, seen.quote, seen.turn, seen.at) == ("filter:status=overdue", "Overdue invoices?", 4, AT)


@pytest.mark.django_db
def test_a_filter_without_a_value_is_no_occurrence(make_user):
    user = make_user()
    run_gate(_event(user, "Which orders?", session="e1", filters={"status": "", "region": "west"}))
    with acting_user(user.pk):
        assert list(Observation.objects.filter(user_id=user.pk).values_list("signal", flat=True)) == [
            "filter:region=west"
        ]


@pytest.mark.django_db
def test_an_occurrence_is_counted_in_one_statement_new_or_seen(make_user):
    # Was seven (two savepoints, get_or_create's read and insert, a count) for each occurrence.
    user = make_user()
    for turn in (1, 2):
        with CaptureQueriesContext(connection) as run:
            run_gate(_event(user, "Overdue invoices?", session="q1", turn=turn, filters={"status": "overdue"}))
        counting = [q["sql"] for q in run.captured_queries if "memory_observation" in q["sql"]]
        assert len(counting) == 1
    assert [d.reason for d in _decisions(user)] == [rules.SINGLE_OCCURRENCE]  # the second turn counts nothing
