"""The load test's database side: fresh users before, and the reconciliation after."""

from __future__ import annotations

import re
import time
from collections import Counter

from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import make_password

from chat.models import Turn
from memory.models import GateDecision, Memory
from memory.rls import acting_user

MARKER_PREFIX = "zq"
MARKER = re.compile(rf"{MARKER_PREFIX}\d{{6}}u\d{{3}}")


def create_users(run: str, count: int, password: str) -> list:
    """``count`` new users for this run (the password hashed once: PBKDF2 is slow on purpose)."""
    User = get_user_model()
    hashed = make_password(password)
    User.objects.bulk_create(
        [User(username=f"load{run}u{i:03d}", password=hashed) for i in range(count)], batch_size=200
    )
    return list(User.objects.filter(username__startswith=f"load{run}u").order_by("username"))


def drain_queue(*, timeout: float) -> bool:
    """Wait until the write gate has taken every queued task (ORM broker)."""
    from django_q.models import OrmQ

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if not OrmQ.objects.exists():
            time.sleep(2)  # the last task taken may still be running: let it save its result
            return True
        time.sleep(1)
    return False


def gate_runs(users: dict[int, int] | None = None) -> tuple[Counter, Counter, int]:
    """What the workers did with the tasks the app queued (the name and argument shape come
    from memory.tasks, so they cannot drift apart): the gate runs that wrote, per turn; the
    deliveries per event; the failed runs. ``users`` (user id -> anything) keeps only theirs."""
    from django_q.models import Task

    from memory.tasks import GATE_TASK, gate_task_ids

    done: Counter = Counter()
    deliveries: Counter = Counter()
    failed = 0
    for task in Task.objects.filter(func=GATE_TASK).only("args", "success", "result").iterator():
        ids = gate_task_ids(task.args)
        if ids is None or (users is not None and ids[0] not in users):
            continue
        deliveries[ids[1]] += 1
        if not task.success:
            failed += 1
        elif isinstance(task.result, dict) and task.result.get("status") == "done" and task.result.get("turn"):
            done[int(task.result["turn"])] += 1
    return done, deliveries, failed


def reconcile(users: list, answered: dict[int, int], *, drained: bool) -> dict:
    """Compare what the clients were told with what the database holds, user by user."""
    saved: dict[int, int] = {}
    gated: set[int] = set()  # saved turns the gate was queued for (chat.models.Turn.gate_queued)
    leaks = foreign_rows = orphan_memories = duplicate_decisions = 0
    memories = decisions = 0
    for index, user in enumerate(users):
        own = f"{MARKER_PREFIX}{user.username[4:10]}u{index:03d}"
        with acting_user(user.pk):
            turns = list(Turn.objects.values_list("id", "user_id", "question", "gate_queued"))
            rows = list(Memory.objects.values_list("user_id", "statement", "source_quote", "source_turn"))
            gate = list(GateDecision.objects.values_list("user_id", "source_turn", "rule", "statement"))
        memories += len(rows)
        decisions += len(gate)
        foreign_rows += sum(1 for t in turns if t[1] != user.pk) + sum(1 for r in rows if r[0] != user.pk)
        foreign_rows += sum(1 for g in gate if g[0] != user.pk)
        own_turns = {t[0] for t in turns}
        for turn_id, _, _, queued in turns:
            saved[turn_id] = index
            if queued:
                gated.add(turn_id)
        texts = [t[2] for t in turns] + [r[1] for r in rows] + [r[2] for r in rows] + [g[3] for g in gate]
        leaks += sum(1 for text in texts for marker in MARKER.findall(text) if marker != own)
        orphan_memories += sum(1 for r in rows if r[3] is not None and r[3] not in own_turns)
        duplicate_decisions += sum(n - 1 for n in Counter(g[1:] for g in gate).values() if n > 1)
    runs, deliveries, failed = gate_runs({user.pk: index for index, user in enumerate(users)})
    missing = [t for t in answered if t not in saved]
    wrong_owner = [t for t, i in answered.items() if t in saved and saved[t] != i]
    unanswered = [t for t in saved if t not in answered]
    # Exactly one run for a turn the gate was queued for; none for a turn it had nothing to read in.
    gate_not_once = [t for t in saved if runs[t] != (1 if t in gated else 0)]
    report = {
        "queue_drained": drained,
        "turns_saved": len(saved),
        "answered_but_missing": len(missing),
        "saved_under_another_user": len(wrong_owner),
        "saved_without_2xx": len(unanswered),
        "gate_runs_not_exactly_once": len(gate_not_once),
        "turns_with_nothing_to_gate": len(saved) - len(gated),
        "gate_runs_failed": failed,
        # A delivery after the first finds its event gone and writes nothing (memory.tasks).
        "gate_deliveries_repeated": sum(n - 1 for n in deliveries.values()),
        "gate_decisions": decisions,
        "duplicate_gate_decisions": duplicate_decisions,
        "memories": memories,
        "memories_from_another_users_turn": orphan_memories,
        "rows_of_another_user_visible": foreign_rows,
        "markers_of_another_user_stored": leaks,
    }
    report["reconciled"] = (
        drained
        and not (missing or wrong_owner or unanswered or gate_not_once or failed or duplicate_decisions)
        and not (orphan_memories or foreign_rows or leaks)
    )
    return report
