"""The gate runs after the turn commits, through django-q2, from plain data."""

import pytest
from django.utils import timezone
from django_q.models import OrmQ

from memory.gate import TurnEvent
from memory.rls import acting_user
from memory.store import live_memories
from memory.tasks import enqueue_gate, gate_turn

pytestmark = pytest.mark.django_db


def event_for(user, text: str) -> TurnEvent:
    return TurnEvent(user_id=user.pk, session_key="s-1", turn_id=None, at=timezone.now(), text=text, filters={})


def test_the_gate_is_queued_only_when_the_turn_commits(make_user, django_capture_on_commit_callbacks):
    user = make_user()
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        enqueue_gate(event_for(user, "Remember that I cover the western region"))
    assert OrmQ.objects.count() == 0
    assert len(callbacks) == 1
    callbacks[0]()
    assert OrmQ.objects.count() == 1
    assert OrmQ.objects.get().func() == "memory.tasks.gate_turn"


def test_the_gate_task_runs_from_the_queued_data(make_user):
    user = make_user()
    gate_turn(event_for(user, "Remember that I cover the western region").as_dict())
    with acting_user(user.pk):
        statements = [m.statement.lower() for m in live_memories(user)]
    assert any("western region" in s for s in statements)
