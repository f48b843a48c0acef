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
    from memory.gate import TurnEvent, run_gate

    return run_gate(TurnEvent.from_dict(event_dict))


def sweep_expired() -> int:
    """The scheduled expiry sweep ("memory-expiry-sweep", daily)."""
    from memory.expiry import sweep_expired as sweep

    return sweep()
