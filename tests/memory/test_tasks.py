"""The gate runs after the turn commits, from ids: exactly once, retried, dropped after a deletion."""

import pytest
from django.utils import timezone
from django_q.models import OrmQ

from memory import tasks
from memory.embeddings import EmbeddingError
from memory.models import GateEvent
from memory.rls import acting_user
from memory.selectors import live_memories
from memory.store import delete_everything
from memory.tasks import enqueue_gate, gate_event, run_event

pytestmark = pytest.mark.django_db

REMEMBER = "Remember that I look after the Baltic shipping accounts"


def queue(user, text: str = REMEMBER) -> int:
    with acting_user(user.pk):
        return enqueue_gate(user_id=user.pk, session_key="s-1", turn_id=None, at=timezone.now(), text=text, filters={})


def statements(user) -> list[str]:
    with acting_user(user.pk):
        return [m.statement.lower() for m in live_memories(user)]


def test_the_gate_is_queued_only_when_the_turn_commits_with_ids_only(make_user, django_capture_on_commit_callbacks):
    user = make_user()
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        event_id = queue(user)
    assert OrmQ.objects.count() == 0 and len(callbacks) == 1
    callbacks[0]()
    task = OrmQ.objects.get().task
    assert task["func"] == "memory.tasks.gate_event" and task["args"] == (user.pk, event_id)
    assert "Baltic" not in repr(task)


def test_a_task_delivered_twice_writes_the_memory_once(make_user):
    user = make_user()
    event_id = queue(user)
    assert gate_event(user.pk, event_id)["status"] == "done"
    assert gate_event(user.pk, event_id)["status"] == "gone"
    assert sum("baltic" in s for s in statements(user)) == 1
    with acting_user(user.pk):
        assert not GateEvent.objects.exists()


def test_an_embedder_outage_postpones_the_event_and_the_retry_writes_it_once(make_user, monkeypatch):
    from memory.gate import admission

    user = make_user()
    event_id = queue(user)
    real_embed = admission.embed

    def down(texts):
        raise EmbeddingError("the embedding service refused the connection")

    monkeypatch.setattr(admission, "embed", down)
    monkeypatch.setattr(tasks, "QUICK_RETRY_DELAYS", ())
    assert gate_event(user.pk, event_id)["status"].startswith("postponed")
    with acting_user(user.pk):
        event = GateEvent.objects.get(pk=event_id)
    assert event.attempts == 1 and event.next_attempt_at > timezone.now()
    assert statements(user) == []

    monkeypatch.setattr(admission, "embed", real_embed)
    assert run_event(user.pk, event_id)["status"] == "done"
    assert sum("baltic" in s for s in statements(user)) == 1


def test_the_retry_schedule_queues_only_due_events(make_user, django_capture_on_commit_callbacks):
    user = make_user()
    fresh = queue(user)
    overdue = queue(user, "Remember that I work from the Riga office")
    with acting_user(user.pk):
        GateEvent.objects.filter(pk=overdue).update(next_attempt_at=timezone.now() - timezone.timedelta(seconds=1))
    with django_capture_on_commit_callbacks(execute=True):
        assert tasks.retry_gate_events() == 1
    queued = [q.task["args"] for q in OrmQ.objects.all()]
    assert (user.pk, overdue) in queued and (user.pk, fresh) not in queued


def test_an_event_queued_before_delete_everything_writes_nothing(make_user):
    user = make_user()
    event_id = queue(user)
    delete_everything(user)
    assert gate_event(user.pk, event_id)["status"] == "gone"
    assert statements(user) == []


def test_a_note_deleted_under_the_gate_is_run_again_and_written_once(make_user, monkeypatch, caplog):
    """A forget committing between the gate reading a note and committing its decision fails the
    commit with a foreign key violation (the load test's one failed task in 1,500); the task runs
    the event again on the new state instead of failing."""
    from django.db import connection

    import memory.gate

    user = make_user()
    event_id = queue(user)
    real_run_gate, calls = memory.gate.run_gate, []

    def refers_to_a_deleted_row(event, **kwargs):
        calls.append(event)
        if len(calls) == 1:
            with connection.cursor() as cursor:  # a real violation, raised now instead of at commit
                cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
                cursor.execute(
                    "INSERT INTO memory_gatedecision (user_id, rule, kind, admitted, reason, statement,"
                    " source_quote, source_session, gate_version, memory_id, created_at)"
                    " VALUES (%s, 'remember', 'context', true, 'explicit', '', '', '', '', 987654321, now())",
                    [user.pk],
                )
        return real_run_gate(event, **kwargs)

    monkeypatch.setattr(memory.gate, "run_gate", refers_to_a_deleted_row)
    monkeypatch.setattr(tasks, "QUICK_RETRY_DELAYS", (0.0, 0.0))
    result = gate_event(user.pk, event_id)
    assert result["status"] == "done" and len(calls) == 2
    assert sum("baltic" in s for s in statements(user)) == 1
    assert "IntegrityError, retrying" in caplog.text


def test_any_other_integrity_error_still_fails_the_task(make_user, monkeypatch):
    from django.db import IntegrityError

    import memory.gate

    user = make_user()
    event_id = queue(user)

    def broken(event, **kwargs):
        raise IntegrityError("duplicate key value violates unique constraint")

    monkeypatch.setattr(memory.gate, "run_gate", broken)
    with pytest.raises(IntegrityError):
        gate_event(user.pk, event_id)


def test_a_task_for_a_paused_user_writes_nothing_and_reads_the_switch_with_the_lock(make_user):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from memory.gate import reasons
    from memory.models import GateDecision
    from memory.store import set_paused

    user = make_user()
    event_id = queue(user)
    set_paused(user, paused=True)
    with CaptureQueriesContext(connection) as run:
        assert gate_event(user.pk, event_id)["status"] == "done"
    assert statements(user) == []
    with acting_user(user.pk):
        assert [d.reason for d in GateDecision.objects.filter(user_id=user.pk)] == [reasons.PAUSED]
    # The FOR SHARE lock's statement read the switch; it is not asked again.
    assert len([q for q in run.captured_queries if "memory_memorycontrol" in q["sql"]]) == 1


def test_a_gate_run_that_writes_a_note_makes_no_savepoint_inside_its_transaction(make_user):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    user = make_user()
    event_id = queue(user)
    with CaptureQueriesContext(connection) as run:
        assert gate_event(user.pk, event_id)["status"] == "done"
    assert sum("baltic" in s for s in statements(user)) == 1
    # The test's transaction makes run_event's own block a savepoint (a worker's is BEGIN / COMMIT);
    # run_gate, write_memory and the audit row join it. Was six more statements.
    assert [q["sql"].split(" ")[0] for q in run.captured_queries if "SAVEPOINT" in q["sql"]] == ["SAVEPOINT", "RELEASE"]


def _reading(text: str, version: str | None = None) -> dict:
    from memory.events import TurnEvent
    from memory.gate import turn_reading

    read = turn_reading(TurnEvent(user_id=0, session_key="s-1", turn_id=None, at=timezone.now(), text=text))
    return {**read, "version": version or read["version"]}


def test_the_worker_uses_what_the_turn_read_and_does_not_read_the_text_again(make_user, monkeypatch):
    from memory.gate import admission

    user = make_user()
    read = _reading(REMEMBER)
    with acting_user(user.pk):
        event_id = enqueue_gate(
            user_id=user.pk, session_key="s-1", turn_id=None, at=timezone.now(), text=REMEMBER, filters={},
            findings=read,
        )  # fmt: skip

    def no_second_reading(*args, **kwargs):
        raise AssertionError("the worker read the text again")

    monkeypatch.setattr(admission, "analyse_turn", no_second_reading)
    assert run_event(user.pk, event_id)["status"] == "done"
    assert statements(user) == ["looks after the baltic shipping accounts."]


def test_a_reading_from_another_gate_version_is_read_again(make_user):
    user = make_user()
    stale = _reading("Remember that I look after the Nordic accounts", version="an older gate")
    with acting_user(user.pk):
        event_id = enqueue_gate(
            user_id=user.pk, session_key="s-1", turn_id=None, at=timezone.now(), text=REMEMBER, filters={},
            findings=stale,
        )  # fmt: skip
    run_event(user.pk, event_id)
    assert statements(user) == ["looks after the baltic shipping accounts."]
