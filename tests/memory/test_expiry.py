"""Expired memories stop counting at read time and are deleted by the daily sweep."""

from datetime import timedelta

import pytest
from django.utils import timezone
from django_q.models import Schedule

from memory.expiry import sweep_expired
from memory.models import AuditEvent, Memory, Suppression
from memory.rls import acting_user, staff_bypass
from memory.selectors import live_memories
from memory.store import correct_memory, forget_memory, supersede_memory
from memory.tasks import sweep_expired as sweep_task
from tests.factories import make_memory

pytestmark = pytest.mark.django_db


def statements(user) -> list[str]:
    with acting_user(user.pk):
        return sorted(Memory.objects.filter(user=user).values_list("statement", flat=True))


def test_an_expired_situation_is_hidden_before_the_sweep_runs(make_user):
    user = make_user()
    now = timezone.now()
    make_memory(user, "Travelling to Lyon this week", kind="situation", expires_at=now + timedelta(days=30))
    with acting_user(user.pk):
        assert live_memories(user, now=now).count() == 1
        assert live_memories(user, now=now + timedelta(days=31)).count() == 0
        assert Memory.objects.filter(user=user).count() == 1  # still stored until the sweep


def test_sweep_deletes_expired_memories_of_every_user_and_audits_them(make_user):
    alice, bob = make_user("alice"), make_user("bob")
    now = timezone.now()
    gone = make_memory(alice, "Preparing the board pack", kind="situation", expires_at=now - timedelta(hours=1))
    make_memory(bob, "On leave until Friday", kind="situation", expires_at=now - timedelta(days=2))
    make_memory(alice, "Travelling to Lyon", kind="situation", expires_at=now + timedelta(days=5))
    make_memory(bob, "Prefers metric units")

    assert sweep_expired(now=now) == 2

    assert statements(alice) == ["Travelling to Lyon"]
    assert statements(bob) == ["Prefers metric units"]
    event = AuditEvent.objects.get(action="expired", memory_id=gone.pk)
    assert (event.user_id, event.kind) == (alice.pk, "situation")
    assert "board" not in event.reason
    assert AuditEvent.objects.filter(action="staff-bypass", reason="expiry sweep").exists()
    assert sweep_expired(now=now) == 0


def test_sweep_takes_the_older_versions_of_an_expired_memory_with_it(make_user):
    user = make_user()
    now = timezone.now()
    older = make_memory(user, "Travelling to Lyon", kind="situation", expires_at=now + timedelta(days=10))
    newer = make_memory(user, "Travelling to Lille", kind="situation", expires_at=now - timedelta(minutes=1))
    supersede_memory(older, newer)
    kept = make_memory(user, "Prefers metric units")
    correct_memory(user, kept.pk, statement="Prefers imperial units")

    assert sweep_expired(now=now) == 2

    assert statements(user) == ["Prefers imperial units", "Prefers metric units"]
    with acting_user(user.pk):
        assert [m.statement for m in live_memories(user)] == ["Prefers imperial units"]


def test_sweep_deletes_suppressions_after_365_days(make_user):
    user = make_user()
    forget_memory(user, make_memory(user, "Prefers metric units").pk)
    sweep_expired(now=timezone.now() + timedelta(days=364))
    with staff_bypass(actor_id=None, reason="test"):
        assert Suppression.objects.filter(user=user).count() == 1
    sweep_expired(now=timezone.now() + timedelta(days=366))
    with staff_bypass(actor_id=None, reason="test"):
        assert Suppression.objects.filter(user=user).count() == 0


def test_the_sweep_is_scheduled_daily():
    schedule = Schedule.objects.get(name="memory-expiry-sweep")
    assert schedule.func == "memory.tasks.sweep_expired"
    assert schedule.schedule_type == Schedule.DAILY and schedule.repeats == -1
    assert schedule.next_run <= timezone.now() + timedelta(days=1)  # due within a day


def test_the_scheduled_task_runs_the_sweep(make_user):
    user = make_user()
    make_memory(user, "Preparing the board pack", kind="situation", expires_at=timezone.now() - timedelta(days=1))
    assert sweep_task() == 1
    assert statements(user) == []


@pytest.mark.django_db(transaction=True)
def test_the_sweep_stays_scheduled_after_the_tables_are_flushed():
    # A flush (what a transactional test ends with) empties the table the migration filled;
    # the post_migrate signal puts the schedule back, so a kept database never loses it.
    from django.core.management import call_command

    call_command("flush", "--noinput", verbosity=0)
    assert Schedule.objects.filter(name="memory-expiry-sweep", func="memory.tasks.sweep_expired").count() == 1


def test_the_sweep_runs_at_the_next_three_oclock_whatever_the_hour_it_is_scheduled():
    from datetime import UTC, datetime

    from memory.expiry import next_sweep

    assert next_sweep(datetime(2026, 12, 2, 0, 5, tzinfo=UTC)) == datetime(2026, 12, 2, 3, 0, tzinfo=UTC)
    assert next_sweep(datetime(2026, 12, 2, 3, 0, tzinfo=UTC)) == datetime(2026, 12, 3, 3, 0, tzinfo=UTC)
    assert next_sweep(datetime(2026, 12, 2, 22, 40, tzinfo=UTC)) == datetime(2026, 12, 3, 3, 0, tzinfo=UTC)
