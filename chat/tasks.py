"""Chat's session state on delete-everything: chat owns the cache entries and clears them.

Session-state keys are ``atlas:state:<user id>:<session id>`` (:func:`chat.state.state_key`),
so a user's entries are found by prefix. With the cache unreachable the purge is queued as a
django-q2 task (ids only) that retries with backoff until the cache answers.
"""

from __future__ import annotations

from django.core.cache import caches
from django.db import transaction
from django.utils import timezone

from atlas.cache import CacheUnavailable, delete_by_prefix
from atlas.retry import MAX_ATTEMPTS, backoff
from chat.state import STATE_KEY_PREFIX

PURGE_TASK = "chat.tasks.purge_state"


def delete_session_state(user_id: int) -> int:
    """Delete every session-state cache entry of the user (they hold the recent questions)."""
    return delete_by_prefix(caches["default"], f"{STATE_KEY_PREFIX}{int(user_id)}:")


def clear_session_state(user_id: int) -> int:
    """Delete the user's entries now, or queue the purge when the cache is down (0 deleted)."""
    try:
        return delete_session_state(user_id)
    except CacheUnavailable:
        queue_state_purge(user_id)
        return 0


def queue_state_purge(user_id: int) -> None:
    """The cache was unreachable during delete-everything: retry its session-state purge."""
    from django_q.tasks import async_task

    transaction.on_commit(lambda: async_task(PURGE_TASK, int(user_id)))


def purge_state(user_id: int, attempt: int = 0) -> dict[str, object]:
    """Delete the user's session-state entries; while the cache is down, try again later."""
    from django_q.models import Schedule
    from django_q.tasks import schedule

    try:
        return {"user": user_id, "deleted": delete_session_state(user_id)}
    except CacheUnavailable:
        if attempt >= MAX_ATTEMPTS:
            return {"user": user_id, "deleted": 0, "status": "cache unreachable, entries expire with their TTL"}
        schedule(
            PURGE_TASK,
            int(user_id),
            attempt + 1,
            schedule_type=Schedule.ONCE,
            next_run=timezone.now() + backoff(attempt),
        )
        return {"user": user_id, "status": "cache unreachable, retry scheduled"}
