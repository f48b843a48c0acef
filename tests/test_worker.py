"""A real django-q2 worker (the ORM broker) runs the gate a turn queued: exactly once, and
exactly once again when the worker is killed in the middle of the task and started anew.

The worker is ``manage.py qcluster`` in a subprocess against this test database (committed
data, so the test is transactional). Every wait polls with a deadline; nothing sleeps for a
fixed time. The only stand-in is the broker's visibility timeout (180 s before a task that
was taken and never acknowledged is delivered again): the test back-dates the task's lock
instead of waiting, as a clock would.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from urllib.parse import quote

import psycopg
import pytest
from django.conf import settings
from django.db import connection
from django.urls import reverse
from django.utils import timezone
from django_q.models import OrmQ

from memory.models import GateEvent, Memory
from memory.rls import acting_user

pytestmark = pytest.mark.django_db(transaction=True)

ROOT = Path(__file__).resolve().parent.parent
DEADLINE_SECONDS = 60.0  # generous for a loaded 2-core machine; the test normally takes ~15 s


def wait_for(what: str, condition: Callable[[], object], *, worker: subprocess.Popen | None = None) -> None:
    deadline = time.monotonic() + DEADLINE_SECONDS
    while not condition():
        if worker is not None and worker.poll() is not None:
            pytest.fail(f"the worker exited ({worker.returncode}) while waiting for {what}")
        if time.monotonic() > deadline:
            pytest.fail(f"no {what} within {DEADLINE_SECONDS:.0f} s")
        time.sleep(0.1)  # one poll interval, not a wait for an outcome


def _owner_url() -> str:
    db, owner = connection.settings_dict, settings.ATLAS_DB_OWNER
    credentials = quote(owner["USER"]) + (":" + quote(owner["PASSWORD"]) if owner["PASSWORD"] else "")
    host = quote(db["HOST"] or "localhost", safe="")
    port = f":{db['PORT']}" if db["PORT"] else ""
    return f"postgresql://{credentials}@{host}{port}/{db['NAME']}"


@pytest.fixture
def start_worker(tmp_path) -> Iterator[Callable[[], subprocess.Popen]]:
    """Start ``qcluster`` in its own process group (so a kill reaches all its processes)."""
    env = {
        **os.environ,
        "DATABASE_URL": _owner_url(),
        "ATLAS_APP_DB_USER": settings.ATLAS_APP_DB_USER,
        "ATLAS_APP_DB_PASSWORD": settings.ATLAS_APP_DB_PASSWORD,
        "ATLAS_Q_WORKERS": "1",
        "ATLAS_Q_SYNC": "false",
        "DJANGO_SETTINGS_MODULE": "atlas.settings",
    }
    started: list[subprocess.Popen] = []

    def start() -> subprocess.Popen:
        log = open(tmp_path / f"worker{len(started)}.log", "wb")  # noqa: SIM115 - closed with the process
        worker = subprocess.Popen(
            [sys.executable, "manage.py", "qcluster"], cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
            start_new_session=True,
        )  # fmt: skip
        log.close()
        started.append(worker)
        return worker

    yield start
    for worker in started:
        if worker.poll() is None:
            os.killpg(worker.pid, signal.SIGKILL)
            worker.wait(30)


def kill_worker(worker: subprocess.Popen) -> None:
    os.killpg(worker.pid, signal.SIGKILL)
    worker.wait(30)


def say(client, text: str) -> None:
    response = client.post(reverse("chat:ask-new"), {"question": text})
    assert response.status_code == 302, response.content[:500]


def notes_about(user, word: str) -> int:
    with acting_user(user.pk):
        return Memory.objects.filter(user=user, statement__icontains=word).count()


def events_waiting(user) -> int:
    with acting_user(user.pk):
        return GateEvent.objects.filter(user=user).count()


def blocked_backends(lock: psycopg.Connection) -> list[int]:
    """Backends waiting for the lock the test holds on memory_memory (the worker's write)."""
    rows = lock.execute(
        "SELECT l.pid FROM pg_locks l JOIN pg_class c ON c.oid = l.relation"
        " WHERE c.relname = 'memory_memory' AND NOT l.granted"
    ).fetchall()
    return [row[0] for row in rows]


def session_alive(pid: int) -> bool:
    # A connection of its own in autocommit: pg_stat_activity is a snapshot per transaction.
    with psycopg.connect(_owner_url(), autocommit=True) as probe:
        return bool(probe.execute("SELECT count(*) FROM pg_stat_activity WHERE pid = %s", [pid]).fetchone()[0])


def test_a_real_worker_writes_the_remembered_note_once_even_when_killed_mid_task(make_user, client, start_worker):
    user = make_user()
    client.force_login(user)
    worker = start_worker()

    say(client, "Remember that I look after the Baltic shipping accounts")
    wait_for("note from the worker", lambda: notes_about(user, "baltic") == 1, worker=worker)
    wait_for("acknowledged task", lambda: not OrmQ.objects.exists() and not events_waiting(user), worker=worker)
    assert notes_about(user, "baltic") == 1

    # Mid-task: the worker takes the task and blocks on its write, inside the gate's
    # transaction, while the test holds memory_memory locked; then it is killed.
    with psycopg.connect(_owner_url()) as lock:
        lock.execute("LOCK TABLE memory_memory IN EXCLUSIVE MODE")
        say(client, "Remember that I approve the Riga warehouse invoices")
        wait_for("gate blocked on its write", lambda: blocked_backends(lock), worker=worker)
        [backend] = blocked_backends(lock)
        kill_worker(worker)
        lock.rollback()  # releases the table; the dead worker's transaction never commits
    wait_for("killed worker's session to end", lambda: not session_alive(backend))
    assert notes_about(user, "riga") == 0 and events_waiting(user) == 1
    [task] = OrmQ.objects.all()
    assert task.lock > timezone.now()  # taken, never acknowledged
    OrmQ.objects.filter(pk=task.pk).update(lock=timezone.now() - timezone.timedelta(seconds=1))

    worker = start_worker()
    wait_for("note after the restart", lambda: notes_about(user, "riga") == 1, worker=worker)
    wait_for("acknowledged task", lambda: not OrmQ.objects.exists() and not events_waiting(user), worker=worker)
    assert notes_about(user, "riga") == 1 and notes_about(user, "baltic") == 1
