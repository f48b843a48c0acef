"""Delete everything leaves no row of the user's content in any table, and nobody else's is touched."""

import pytest
from django.apps import apps
from django.db import connection, transaction

from chat.feedback import give_feedback
from chat.turn import ask, start_session
from memory.epoch import DeletedMeanwhile, hold_generation
from memory.models import AuditEvent, MemoryControl
from memory.rls import acting_user, staff_bypass
from memory.store import delete_everything, write_memory

# The audit log (ids and counts) and the memory switch with the deletion generation hold no content.
NO_CONTENT = {"memory_auditevent", "memory_memorycontrol"}


def _rows_per_table(user_id: int) -> dict[str, int]:
    """Every table with a user_id column, counted with RLS lifted (so nothing hides a leftover)."""
    counts = {}
    with staff_bypass(actor_id=None, reason="test: count leftovers"), connection.cursor() as cur:
        for model in apps.get_models():
            columns = {f.column for f in model._meta.concrete_fields}
            if "user_id" in columns and model._meta.db_table not in NO_CONTENT:
                cur.execute(f'SELECT count(*) FROM "{model._meta.db_table}" WHERE user_id = %s', [user_id])
                counts[model._meta.db_table] = cur.fetchone()[0]
    return counts


def _use_atlas(user):
    write_memory(user, kind="preference", statement="Prefers answers as short bullet points.", author="user")
    write_memory(user, kind="context", statement="Covers the western sales region.", source_quote="I cover the west")
    session = start_session(user)
    turn = ask(user, session=session, question="Remember that I manage the Portland depot.")
    give_feedback(user, turn.pk, kind="incorrect", comment="The Portland depot closed in May, not June.")
    ask(user, session=session, question="Which customers are in the western region?")


def test_delete_everything_leaves_zero_rows_of_the_users_content(
    make_user, monkeypatch, django_capture_on_commit_callbacks
):
    from django_q.conf import Conf

    monkeypatch.setattr(Conf, "SYNC", True)  # run queued tasks in-process, as the worker would
    alice, bob = make_user("alice-del"), make_user("bob-del")
    with django_capture_on_commit_callbacks(execute=True):  # the gate runs after each turn, as in the app
        _use_atlas(alice)
        _use_atlas(bob)
    before = _rows_per_table(alice.pk)
    assert before["memory_memory"] >= 4  # two written here, the remembered depot, the correction
    assert before["chat_turn"] >= 2 and before["memory_gatedecision"] >= 2

    counts = delete_everything(alice)

    # What was deleted is counted per kind, and the audit entry (staff's only trace) says so.
    tables = {
        "memories": "memory_memory",
        "gate_decisions": "memory_gatedecision",
        "gate_events": "memory_gateevent",
        "observations": "memory_observation",
        "suppressions": "memory_suppression",
    }
    assert {name: counts[name] for name in tables} == {name: before[table] for name, table in tables.items()}
    with staff_bypass(actor_id=None, reason="test: read the audit"):
        [entry] = AuditEvent.objects.filter(user_id=alice.pk, action=AuditEvent.Action.DELETED_ALL)
    assert f"gate_decisions={before['memory_gatedecision']}" in entry.reason.split(", ")
    assert f"memories={before['memory_memory']}" in entry.reason.split(", ")
    after = _rows_per_table(alice.pk)
    assert {table: n for table, n in after.items() if n} == {}
    bobs = _rows_per_table(bob.pk)
    assert bobs["memory_memory"] >= 2 and bobs["chat_turn"] >= 2


def test_work_started_before_a_deletion_is_refused_after_it(make_user):
    """A gate run queued before "delete everything" carries the old generation: it must write nothing."""
    user, other = make_user(), make_user()
    with acting_user(user.pk), transaction.atomic():
        before = hold_generation(user.pk)
    with acting_user(other.pk), transaction.atomic():
        others = hold_generation(other.pk)
    delete_everything(user)
    with acting_user(user.pk), transaction.atomic():
        with pytest.raises(DeletedMeanwhile) as stale:
            hold_generation(user.pk, expected=before)
        assert str(stale.value) == f"user {user.pk}: generation {before} was deleted (now {before + 1})"
        assert hold_generation(user.pk) == before + 1
        assert MemoryControl.objects.get(user_id=user.pk).deleted_at is not None
    with acting_user(other.pk), transaction.atomic():
        assert hold_generation(other.pk, expected=others) == others  # nobody else's work is stale


@pytest.mark.django_db
def test_delete_everything_dates_the_control_row_it_changed(make_user):
    user = make_user()
    delete_everything(user)
    with acting_user(user.pk):
        control = MemoryControl.objects.get(user_id=user.pk)
    assert control.updated_at == control.deleted_at is not None
