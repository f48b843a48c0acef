"""Expiry: situations and other dated memories stop counting when they expire.

Read time already hides them (``Memory.objects.live()``: ``expires_at IS NULL OR
expires_at > now()``). This sweep, scheduled daily with django-q2 ("memory-expiry-sweep"),
deletes the expired rows for good, and the suppressions past their 365 days. It is a
maintenance path across users, so it runs under the explicit, audited RLS bypass.
"""

from __future__ import annotations

from datetime import UTC, datetime, time, timedelta

from django.db import transaction
from django.utils import timezone

from memory.models import AuditEvent, Memory, Suppression
from memory.rls import staff_bypass
from memory.selectors import older_versions

SCHEDULE_NAME = "memory-expiry-sweep"


def ensure_schedule(**_: object) -> None:
    """The daily sweep's django-q2 schedule, kept after every ``migrate`` and ``flush`` (the
    post_migrate signal): a flush empties the table the migration filled. An existing schedule
    is left as it is."""
    from django_q.models import Schedule

    Schedule.objects.get_or_create(
        name=SCHEDULE_NAME,
        defaults={
            "func": "memory.tasks.sweep_expired",
            "schedule_type": Schedule.DAILY,
            "repeats": -1,
            "next_run": next_sweep(timezone.now()),
        },
    )


def next_sweep(now: datetime) -> datetime:
    """The next 03:00 UTC after ``now``: today's while it is still to come, else tomorrow's."""
    run = datetime.combine(now.astimezone(UTC).date(), time(3, 0), tzinfo=UTC)
    return run if run > now else run + timedelta(days=1)


def sweep_expired(*, now: datetime | None = None) -> int:
    """Delete expired memories (with the older versions they replaced) and expired suppressions.

    Returns how many memories were deleted. Each gets an "expired" audit entry, without text.
    Older versions go with their expired successor, or they would come back to life when the
    successor's row disappears.
    """
    now = now or timezone.now()
    with transaction.atomic(), staff_bypass(actor_id=None, reason="expiry sweep"):
        expired = list(Memory.objects.filter(expires_at__lte=now).values_list("pk", "user_id", "kind"))
        rows = {pk: (user_id, kind) for pk, user_id, kind in expired}
        expired_ids = set(rows)
        for older in older_versions(expired_ids, fields=("pk", "user_id", "kind")):
            rows[older.pk] = (older.user_id, older.kind)
        if rows:
            Memory.objects.filter(pk__in=list(rows)).update(superseded_by=None)
            Memory.objects.filter(pk__in=list(rows)).delete()
            AuditEvent.objects.bulk_create(
                [
                    AuditEvent(
                        user_id=user_id,
                        action=AuditEvent.Action.EXPIRED,
                        kind=kind,
                        memory_id=pk,
                        reason="expired" if pk in expired_ids else "replaced by an expired memory",
                        at=now,
                    )
                    for pk, (user_id, kind) in rows.items()
                ]
            )
        suppressions = Suppression.objects.filter(expires_at__lte=now).delete()[0]
        if suppressions:
            AuditEvent.objects.create(
                user_id=None, action=AuditEvent.Action.EXPIRED, reason=f"{suppressions} suppressions", at=now
            )
    return len(rows)
