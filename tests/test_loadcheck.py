"""The load test's reconciliation reads the gate task the app really queues.

A turn is asked through the real turn, its gate task taken from the django-q2 queue where the
app put it and run through django-q2's own worker and monitor (``_sync``: one package through
the cluster's code, in this process). The reconciliation must then see the gate run exactly
once for that turn; if the task's name or arguments changed without the reconciliation, it
would count 0 runs (the failure that hid every gate run of issue 30's load test).
"""

import sys
from pathlib import Path

import pytest
from django_q.models import OrmQ, Task
from django_q.tasks import _sync

from chat.models import Turn
from chat.turn import ask
from memory.models import Memory
from memory.rls import acting_user
from memory.tasks import GATE_TASK, _queue, gate_task_ids

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "scripts"))
import loadcheck  # noqa: E402  (a script folder, not a package)

pytestmark = [pytest.mark.django_db, pytest.mark.turn]


@pytest.fixture
def deliver(monkeypatch):
    """Run a queued package through django-q2's worker and monitor in this process. Conf.SYNC
    keeps the test's connection open (the worker otherwise closes it before each task); it is
    set only now, after the app queued the task the normal way."""
    from django_q.conf import Conf

    def run(payload: str) -> None:
        monkeypatch.setattr(Conf, "SYNC", True)
        monkeypatch.setattr(Conf, "SAVE_LIMIT", 0)  # every result kept, as scripts/load_test.py runs the cluster
        _sync(payload)

    return run


def _run_queued_tasks(deliver) -> int:
    """Run every queued package as the cluster would; returns how many ran."""
    packages = list(OrmQ.objects.order_by("id"))
    for queued in packages:
        deliver(queued.payload)
        queued.delete()
    return len(packages)


def test_reconciliation_counts_the_gate_task_the_turn_queued(make_user, django_capture_on_commit_callbacks, deliver):
    alice, bob = make_user("load123456u000"), make_user("load123456u001")
    with django_capture_on_commit_callbacks(execute=True):
        turn = ask(alice, session=None, question="Remember that my team code is zq123456u000")
    assert [q.func() for q in OrmQ.objects.all()] == [GATE_TASK]

    assert _run_queued_tasks(deliver) == 1
    task = Task.objects.get()
    assert task.func == "memory.tasks.gate_event" and task.success
    assert task.result["turn"] == turn.pk and task.result["status"] == "done"

    done, deliveries, failed = loadcheck.gate_runs()
    assert dict(done) == {turn.pk: 1}
    assert sum(deliveries.values()) == 1 and failed == 0

    report = loadcheck.reconcile([alice, bob], {turn.pk: 0}, drained=True)
    assert report["turns_saved"] == 1
    assert report["gate_runs_not_exactly_once"] == 0
    assert report["gate_deliveries_repeated"] == 0
    assert report["memories"] == 1
    assert report["markers_of_another_user_stored"] == 0
    assert report["reconciled"] is True, report


def test_a_turn_whose_gate_never_ran_does_not_reconcile(make_user, django_capture_on_commit_callbacks):
    alice = make_user("load123457u000")
    with django_capture_on_commit_callbacks(execute=True):
        turn = ask(alice, session=None, question="From now on, show amounts in euros")
    assert turn.gate_queued and OrmQ.objects.count() == 1
    report = loadcheck.reconcile([alice], {turn.pk: 0}, drained=True)
    assert report["gate_runs_not_exactly_once"] == 1
    assert report["reconciled"] is False


def test_a_turn_with_nothing_for_the_gate_reconciles_with_no_run(make_user, django_capture_on_commit_callbacks):
    alice = make_user("load123459u000")
    with django_capture_on_commit_callbacks(execute=True):
        turn = ask(alice, session=None, question="What are Northline Freight's payment terms?")
    assert OrmQ.objects.count() == 0
    with acting_user(alice.pk):
        assert Turn.objects.get(pk=turn.pk).gate_queued is False
    report = loadcheck.reconcile([alice], {turn.pk: 0}, drained=True)
    assert report["turns_with_nothing_to_gate"] == 1
    assert report["gate_runs_not_exactly_once"] == 0
    assert report["reconciled"] is True, report


def test_a_gate_run_for_a_turn_marked_nothing_to_gate_does_not_reconcile(
    make_user, django_capture_on_commit_callbacks, deliver
):
    alice = make_user("load123460u000")
    with django_capture_on_commit_callbacks(execute=True):
        turn = ask(alice, session=None, question="Remember that my team code is zq123460u000")
    assert _run_queued_tasks(deliver) == 1
    with acting_user(alice.pk):
        Turn.objects.filter(pk=turn.pk).update(gate_queued=False)  # as if the turn had queued nothing
    report = loadcheck.reconcile([alice], {turn.pk: 0}, drained=True)
    assert report["gate_runs_not_exactly_once"] == 1
    assert report["reconciled"] is False


def test_a_second_delivery_of_one_event_is_counted_and_writes_nothing(
    make_user, django_capture_on_commit_callbacks, deliver
):
    alice = make_user("load123458u000")
    with django_capture_on_commit_callbacks(execute=True):
        turn = ask(alice, session=None, question="Remember that my team code is zq123458u000")
    user_id, event_id = gate_task_ids(OrmQ.objects.get().task["args"])
    _queue(user_id, event_id)  # queued again, as the retry schedule does when a worker lags
    assert _run_queued_tasks(deliver) == 2

    report = loadcheck.reconcile([alice], {turn.pk: 0}, drained=True)
    assert [t.result["status"] for t in Task.objects.order_by("started")] == ["done", "gone"]
    assert report["gate_deliveries_repeated"] == 1
    assert report["gate_runs_not_exactly_once"] == 0
    assert report["memories"] == 1


def test_outside_the_load_test_the_cluster_keeps_no_successful_result(
    make_user, django_capture_on_commit_callbacks, monkeypatch
):
    """Keeping the last N made django-q2 read all N for every task (atlas/settings.py)."""
    from django.conf import settings
    from django_q.conf import Conf

    assert settings.Q_CLUSTER["save_limit"] == -1 and Conf.SAVE_LIMIT == -1
    alice = make_user("load123461u000")
    with django_capture_on_commit_callbacks(execute=True):
        ask(alice, session=None, question="Remember that my team code is zq123461u000")
    monkeypatch.setattr(Conf, "SYNC", True)
    _sync(OrmQ.objects.get().payload)
    assert not Task.objects.exists()
    with acting_user(alice.pk):
        assert Memory.objects.count() == 1  # the gate ran; only its result is not kept
