"""The deletion generation: delete-everything wins every race with the work already under way.

Each user has one ``MemoryControl`` row whose ``generation`` counts their delete-everything
runs. Work that writes the user's content (a turn, a gate run, a correction, a forget, an
import, feedback) calls :func:`hold_generation` first in its transaction, which locks that
row FOR SHARE; :func:`advance_generation`, first in delete-everything's transaction, locks it
FOR UPDATE. So the two never interleave: work that committed first is deleted by the
deletion, and work that waited sees the new generation. Work queued before a deletion (a
gate event) carries the generation it was queued under and is dropped when it is older.

Callers set the acting user (RLS) and open the transaction; the lock is always the first
one taken, so these paths cannot deadlock on each other.
"""

from __future__ import annotations

from django.db import connection
from django.utils import timezone

from memory.models import MemoryControl


class DeletedMeanwhile(Exception):
    """The user deleted everything after this work started: it must write nothing."""


_ENSURE_ROW = (
    "INSERT INTO memory_memorycontrol (user_id, paused, generation, updated_at)"
    " VALUES (%s, false, 0, now()) ON CONFLICT (user_id) DO NOTHING"
)
_LOCK = {
    "SHARE": "SELECT generation, paused FROM memory_memorycontrol WHERE user_id = %s FOR SHARE",
    "UPDATE": "SELECT generation, paused FROM memory_memorycontrol WHERE user_id = %s FOR UPDATE",
}


def _locked_row(user_id: int, *, mode: str) -> tuple[int, bool]:
    # One statement once the user has the row (every turn after their first): lock it. Only
    # when it is missing, create it (ON CONFLICT, not get_or_create: two first turns of a new
    # user must not raise IntegrityError) and lock it then.
    with connection.cursor() as cur:
        cur.execute(_LOCK[mode], [int(user_id)])
        row = cur.fetchone()
        if row is None:
            cur.execute(_ENSURE_ROW, [int(user_id)])
            cur.execute(_LOCK[mode], [int(user_id)])
            row = cur.fetchone()
        return int(row[0]), bool(row[1])


def hold_generation(user_id: int, *, expected: int | None = None) -> int:
    """Lock the user's generation (FOR SHARE) for this transaction and return it.

    ``expected`` is the generation the work started under; a newer one raises
    :class:`DeletedMeanwhile`. Writers share the lock, so they do not wait for each other.
    """
    generation, _ = _locked_row(user_id, mode="SHARE")
    if expected is not None and generation != expected:
        raise DeletedMeanwhile(f"user {user_id}: generation {expected} was deleted (now {generation})")
    return generation


def hold_control(user_id: int) -> tuple[int, bool]:
    """:func:`hold_generation` and the pause switch, read in the same statement.

    The switch cannot change before this transaction ends: pausing or resuming updates the
    row, which waits for the lock held here. So the caller need not ask again.
    """
    return _locked_row(user_id, mode="SHARE")


def advance_generation(user_id: int) -> int:
    """Start a deletion: wait for the work under way to commit, then make everything older stale."""
    generation = _locked_row(user_id, mode="UPDATE")[0] + 1
    now = timezone.now()
    MemoryControl.objects.filter(user_id=user_id).update(generation=generation, deleted_at=now, updated_at=now)
    return generation
