"""django-q2 tasks of the memory app: the write gate after a turn, the daily expiry sweep.

Tasks take plain data (ids, dicts), load what they need and call one domain function.
"""

from __future__ import annotations

from django.db import transaction


def enqueue_gate(event) -> None:
    """Queue the write gate for a turn once the turn's transaction has committed."""
    from django_q.tasks import async_task

    payload = event.as_dict()
    transaction.on_commit(lambda: async_task("memory.tasks.gate_turn", payload))


def gate_turn(event_dict: dict):
    """Run the write gate for one turn (memory.gate.run_gate sets the acting user)."""
    from atlas.logcontext import log_step
    from memory.gate import TurnEvent, run_gate

    event = TurnEvent.from_dict(event_dict)
    with log_step("gate", turn_id=event.turn_id, user_id=event.user_id):
        result = run_gate(event)
    # django-q2 keeps task results: ids and counts only, never statement text.
    return {
        "decisions": len(result.decisions),
        "written": list(result.written),
        "refreshed": list(result.refreshed),
        "superseded": list(result.superseded),
        "forgotten": list(result.forgotten),
    }


def purge_user_tasks(user_id: int) -> int:
    """Drop queued and finished gate tasks of a user: their arguments hold what the user typed.

    Part of delete-everything: a queued gate run must not write memories back afterwards,
    and stored task rows must not keep the user's questions.
    """
    from django_q.models import OrmQ, Task

    purged = 0
    for queued in OrmQ.objects.all():
        try:
            if queued.func() == "memory.tasks.gate_turn" and _event_user(queued.args()) == user_id:
                queued.delete()
                purged += 1
        except Exception:  # an undecodable queue entry is not ours to judge
            continue
    for task in Task.objects.filter(func="memory.tasks.gate_turn").only("id", "args"):
        if _event_user(task.args) == user_id:
            task.delete()
            purged += 1
    return purged


def _event_user(args) -> int | None:
    try:
        return int(args[0]["user_id"])
    except (TypeError, KeyError, IndexError, ValueError):
        return None


def sweep_expired() -> int:
    """The scheduled expiry sweep ("memory-expiry-sweep", daily)."""
    from memory.expiry import sweep_expired as sweep

    return sweep()
