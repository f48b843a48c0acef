"""django-q2 tasks of the memory app: the write gate after a turn, the daily expiry sweep.

Tasks carry ids only (``user_id``, an event id), never what the user typed: the text waits
in a :class:`~memory.models.GateEvent` row under Row Level Security and is loaded as the
acting user. A gate run and the deletion of its event commit together, so a task that is
delivered twice, or retried after a failure, writes its memories exactly once. Transient
failures (the database, the embedder) are retried with backoff: a few quick attempts in the
task, then the event waits for the "memory-gate-retry" schedule.
"""

from __future__ import annotations

import functools
import logging
import time
from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from django.db import DatabaseError, IntegrityError, InterfaceError, OperationalError, transaction
from django.dispatch import receiver
from django.utils import timezone

from atlas.logcontext import log_step
from atlas.retry import MAX_ATTEMPTS, backoff
from memory.epoch import hold_control, hold_generation
from memory.events import TurnEvent, everything_deleted
from memory.models import GateEvent
from memory.rls import acting_user, staff_bypass

if TYPE_CHECKING:
    from atlas.types import User

logger = logging.getLogger(__name__)

# What the gate queues: this function's dotted name with the arguments ``(user_id, event_id)``.
# Everything that reads the queue (delete-everything's purge, the load test's reconciliation)
# goes through GATE_TASK and gate_task_ids, so a change here cannot leave a reader behind.
GATE_TASK = "memory.tasks.gate_event"
# Quick in-task attempts (seconds between them), then the schedule's backoff takes over.
QUICK_RETRY_DELAYS = (0.5, 2.0)
# The first delivery normally runs within seconds; the retry schedule only looks at events
# that waited this long, so it does not race the queued task (a race would still write once).
FIRST_ATTEMPT_GRACE = timedelta(seconds=60)


def _transient() -> tuple[type[BaseException], ...]:
    from memory.embeddings import EmbeddingError

    return (OperationalError, InterfaceError, EmbeddingError)


def enqueue_gate(
    *,
    user_id: int,
    session_key: str,
    turn_id: int | None,
    at: datetime,
    text: str,
    filters: dict[str, str],
    feedback_kind: str = "",
    feedback_comment: str = "",
    generation: int | None = None,
    findings: dict | None = None,
) -> int:
    """Store the event for the gate and queue its task once the caller's transaction commits.

    Runs inside the caller's transaction as the acting user; the event carries the deletion
    generation it was queued under (memory.epoch). ``generation`` is the one the caller
    already holds in this same transaction (``hold_generation``'s return); without it the
    lock is taken here.
    """

    if generation is None:
        generation = hold_generation(user_id)
    event = GateEvent.objects.create(
        user_id=user_id,
        generation=generation,
        session_key=str(session_key or "")[:64],
        turn_id=turn_id,
        at=at,
        text=text,
        filters=dict(filters or {}),
        feedback_kind=feedback_kind,
        feedback_comment=feedback_comment,
        findings=findings,
        next_attempt_at=at + FIRST_ATTEMPT_GRACE,
    )
    transaction.on_commit(lambda: _queue(user_id, event.pk))
    return event.pk


def _queue(user_id: int, event_id: int) -> None:
    from django_q.tasks import async_task

    async_task(GATE_TASK, *gate_task_args(user_id, event_id))


def gate_task_args(user_id: int, event_id: int) -> tuple[int, int]:
    """The arguments a gate task is queued with (ids only)."""
    return (int(user_id), int(event_id))


def gate_task_ids(args: Sequence[Any] | None) -> tuple[int, int] | None:
    """``(user_id, event_id)`` of a queued or finished :data:`GATE_TASK` from its arguments;
    None for arguments of another shape (an older release's task, a damaged entry)."""
    try:
        user_id, event_id = args  # type: ignore[misc]
        return int(user_id), int(event_id)
    except (TypeError, ValueError):
        return None


def gate_event(user_id: int, event_id: int) -> dict:
    """Run the write gate for one stored event; a few quick retries on transient failures.

    The result records the task's own CPU time (``cpu_ms``), which scripts/profile_load.py
    sets against the worker process's CPU to see what django-q2 costs around it.
    """
    started = time.thread_time()
    result = _gate_event(user_id, event_id)
    result["cpu_ms"] = round((time.thread_time() - started) * 1000, 2)
    return result


def _gate_event(user_id: int, event_id: int) -> dict:
    """Run the event, retrying a transient failure after each quick delay, then postponing it."""
    for delay in (*QUICK_RETRY_DELAYS, None):
        try:
            return run_event(user_id, event_id)
        except Exception as exc:
            if not _retryable(exc):
                raise
            _drop_broken_connection()
            if delay is None:
                return _postpone(user_id, event_id, exc)
            logger.warning("gate event %s: %s, retrying in %.1f s", event_id, type(exc).__name__, delay)
            time.sleep(delay)
    raise AssertionError("unreachable: the last attempt returns or postpones")


# PostgreSQL's foreign_key_violation: the row a write refers to is gone.
FOREIGN_KEY_VIOLATION = "23503"


def _retryable(exc: BaseException) -> bool:
    """A passing failure: the database or the embedder, or a note the gate was refreshing that
    a forget or delete-everything removed between the gate reading it and committing its
    decision (the load test met it once in 1,500 turns). The run rolled back; run on the new
    state, it writes once."""
    if isinstance(exc, _transient()):
        return True
    return isinstance(exc, IntegrityError) and getattr(exc.__cause__, "sqlstate", None) == FOREIGN_KEY_VIOLATION


def _drop_broken_connection() -> None:
    # A connection the database dropped stays unusable; the next attempt needs a new one.
    from django.db import connection

    if not connection.in_atomic_block:
        connection.close_if_unusable_or_obsolete()


def run_event(user_id: int, event_id: int) -> dict:
    """The gate on one event and the event's deletion, in one transaction (exactly once).

    A missing event was already gated or deleted with everything; an event older than the
    user's last deletion is dropped.
    """
    from memory.gate import run_gate  # loaded on the first run: the gate loads spaCy

    with acting_user(user_id), transaction.atomic():
        generation, paused = hold_control(user_id)
        event = GateEvent.objects.select_for_update(skip_locked=True).filter(pk=event_id, user_id=user_id).first()
        if event is None:
            return {"event": event_id, "status": "gone"}
        if event.generation != generation:
            event.delete()
            return {
                "event": event_id,
                "turn": event.turn_id,
                "status": "dropped: older than the last delete-everything",
            }
        with log_step("gate", turn_id=event.turn_id, user_id=user_id):
            result = run_gate(
                TurnEvent(
                    user_id=user_id,
                    session_key=event.session_key,
                    turn_id=event.turn_id,
                    at=event.at,
                    text=event.text,
                    filters=dict(event.filters or {}),
                    feedback_kind=event.feedback_kind,
                    feedback_comment=event.feedback_comment,
                ),
                paused=paused,
                read=event.findings,
            )
        event.delete()
    # django-q2 keeps task results: ids and counts only, never statement text.
    return {
        "event": event_id,
        "turn": event.turn_id,
        "status": "done",
        "decisions": len(result.decisions),
        "written": list(result.written),
        "refreshed": list(result.refreshed),
        "superseded": list(result.superseded),
        "forgotten": list(result.forgotten),
    }


def _postpone(user_id: int, event_id: int, exc: BaseException) -> dict:
    """Count the failed attempt; the retry schedule runs the event again after a backoff.

    With the database down this write fails too; the event then keeps its due time and the
    schedule picks it up when the database returns.
    """

    try:
        with acting_user(user_id), transaction.atomic():
            event = GateEvent.objects.select_for_update().filter(pk=event_id, user_id=user_id).first()
            if event is not None:
                event.attempts += 1
                event.next_attempt_at = timezone.now() + backoff(event.attempts)
                event.save(update_fields=["attempts", "next_attempt_at"])
    except DatabaseError:
        pass
    logger.warning("gate event %s postponed: %s", event_id, type(exc).__name__)
    return {"event": event_id, "status": f"postponed: {type(exc).__name__}"}


def retry_gate_events(limit: int = 200) -> int:
    """The "memory-gate-retry" schedule: queue events whose turn is due (or overdue).

    Events of every user are listed with the audited staff bypass, by id only; each run
    loads its own text as its user. Events past ``MAX_ATTEMPTS`` are dropped with a warning.
    """

    now = timezone.now()
    with staff_bypass(actor_id=None, reason="gate retry schedule"):
        due = list(
            GateEvent.objects.filter(next_attempt_at__lte=now)
            .order_by("next_attempt_at")
            .values_list("pk", "user_id", "attempts")[:limit]
        )
        for event_id, user_id, attempts in due:
            if attempts >= MAX_ATTEMPTS:
                logger.warning("gate event %s dropped after %s attempts", event_id, attempts)
                GateEvent.objects.filter(pk=event_id).delete()
                continue
            GateEvent.objects.filter(pk=event_id).update(next_attempt_at=now + backoff(attempts))
            transaction.on_commit(functools.partial(_queue, user_id, event_id))
    return len(due)


def purge_user_tasks(user_id: int) -> int:
    """Drop queued and finished gate tasks of a user (part of delete-everything).

    Their arguments are ids only; older releases queued the text itself, so those go too.
    """
    from django_q.models import OrmQ, Task

    gate_funcs = (GATE_TASK, "memory.tasks.gate_turn")
    purged = 0
    for queued in OrmQ.objects.all():
        try:
            if queued.func() in gate_funcs and _task_user(queued.args()) == user_id:
                queued.delete()
                purged += 1
        except Exception:  # an undecodable queue entry is not ours to judge
            continue
    for task in Task.objects.filter(func__in=gate_funcs).only("id", "args"):
        if _task_user(task.args) == user_id:
            task.delete()
            purged += 1
    return purged


@receiver(everything_deleted)
def purge_tasks_of_deleted_user(sender: object, *, user: User, counts: dict[str, int], **kwargs: object) -> None:
    counts["queued_tasks"] = purge_user_tasks(user.pk)


def _task_user(args: Sequence[Any]) -> int | None:
    ids = gate_task_ids(args)
    if ids is not None:
        return ids[0]
    try:  # an older release's gate_turn({"user_id": ..., ...})
        first = args[0]
        return int(first["user_id"] if isinstance(first, dict) else first)
    except (TypeError, KeyError, IndexError, ValueError):
        return None


def sweep_expired() -> int:
    """The scheduled expiry sweep ("memory-expiry-sweep", daily)."""
    from memory.expiry import sweep_expired as sweep

    return sweep()
