"""Where people see and change their memory, and why they forget (design rule: two surfaces).

The design is steered with two measurements: which surface people use (the page or
the inline control under an answer) and why they delete a note (over-generalised, no longer
true, unwanted, never true). These functions record them as :class:`SurfaceEvent` rows:
codes, ids, kinds and dates, never statement text. The forget reason is optional and given
after the forget, which has already happened (suppression applies either way).

The rule that wrote a note is read from the stored gate decision that admitted it, never from
the gate's code, so the record survives rewrites of the gate.
"""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from memory.models import ForgetReason, GateDecision, Memory, Surface, SurfaceEvent
from memory.rls import acting_user

if TYPE_CHECKING:
    from atlas.types import User

# Admitted decisions that did not write the note they name: a refresh of an existing note,
# and a forget request (which names none): the codes of memory.gate.reasons, as data.
NOT_A_WRITE = ("duplicate_refreshed", "forget_request")
# What wrote a note that has no admitting gate decision.
RULE_USER_CORRECTION = "user-correction"
RULE_NONE = "no-gate-decision"


def clean_forget_reason(value: str | None) -> str:
    """A forget reason from the fixed list, or "" for none; anything else is a ValidationError."""
    value = (value or "").strip()
    if value and value not in ForgetReason.values:
        raise ValidationError(
            {"reason": f"Reason must be one of {', '.join(ForgetReason.values)}, or left out."},
            code="unknown_reason",
        )
    return value


def clean_surface(value: str) -> str:
    if value not in Surface.values:
        raise ValidationError({"surface": f"Surface must be one of {', '.join(Surface.values)}."})
    return value


def _writer(memory: Memory) -> tuple[str, str, str]:
    """(rule, reason code, gate version) of the gate decision that wrote ``memory``."""
    decision = (
        GateDecision.objects.filter(user_id=memory.user_id, memory_id=memory.pk, admitted=True)
        .exclude(reason__in=NOT_A_WRITE)
        .order_by("created_at", "pk")
        .values_list("rule", "reason", "gate_version")
        .first()
    )
    if decision is not None:
        return decision
    # No decision: a correction, an import or a direct write. The row's own ``gate`` field can
    # come from an imported file, so it is not copied here (no user text in these records).
    return (RULE_USER_CORRECTION if memory.gate == RULE_USER_CORRECTION else RULE_NONE), "", ""


def _note_fields(memory: Memory, now: datetime) -> dict:
    rule, rule_reason, gate_version = _writer(memory)
    return {
        "memory_id": memory.pk,
        "kind": memory.kind,
        "rule": rule[:32],
        "rule_reason": rule_reason[:48],
        "gate_version": gate_version[:16],
        "note_written_at": memory.created_at,
        "note_age_days": max(0, (now - memory.created_at).days),
    }


def record_forget(
    user: User, memory: Memory, *, surface: str, reason: str = "", now: datetime | None = None
) -> SurfaceEvent:
    """Record a forget; call it inside the forget's transaction, before the row is deleted."""
    now = now or timezone.now()
    fields = _note_fields(memory, now)
    return SurfaceEvent.objects.create(
        user_id=user.pk,
        action=SurfaceEvent.Action.FORGOTTEN,
        surface=clean_surface(surface),
        forget_reason=clean_forget_reason(reason),
        at=now,
        **fields,
    )


def record_correction(user: User, old: Memory, *, surface: str, now: datetime | None = None) -> SurfaceEvent:
    """Record a correction of ``old`` (what wrote the corrected note, and where it was fixed)."""
    now = now or timezone.now()
    return SurfaceEvent.objects.create(
        user_id=user.pk,
        action=SurfaceEvent.Action.CORRECTED,
        surface=clean_surface(surface),
        at=now,
        **_note_fields(old, now),
    )


def record_view(user: User, *, surface: str, notes: int) -> SurfaceEvent:
    """Record that the user looked at their notes: the page shown, or a panel opened under an answer."""
    with acting_user(user.pk):  # one INSERT: no transaction of its own
        return SurfaceEvent.objects.create(
            user_id=user.pk, action=SurfaceEvent.Action.VIEWED, surface=clean_surface(surface), notes=max(0, notes)
        )


def give_forget_reason(user: User, memory_id: int, *, reason: str) -> SurfaceEvent:
    """The reason the user gives after forgetting a note, on that forget's record.

    ``SurfaceEvent.DoesNotExist`` when this user forgot no such note; a second answer
    replaces the first (the buttons stay honest if the user changes their mind).
    """
    reason = clean_forget_reason(reason)
    if not reason:
        raise ValidationError({"reason": "Choose one of the reasons."}, code="missing_reason")
    with acting_user(user.pk), transaction.atomic():
        event = (
            SurfaceEvent.objects.select_for_update()
            .filter(user_id=user.pk, memory_id=memory_id, action=SurfaceEvent.Action.FORGOTTEN)
            .latest("at", "pk")
        )
        event.forget_reason = reason
        event.save(update_fields=["forget_reason"])
    return event


def forget_reason_given(user: User, memory_id: int) -> str:
    """The reason recorded for this user's forget of ``memory_id`` ("" when none or no forget)."""
    with acting_user(user.pk):
        event = (
            SurfaceEvent.objects.filter(user_id=user.pk, memory_id=memory_id, action=SurfaceEvent.Action.FORGOTTEN)
            .order_by("-at", "-pk")
            .values_list("forget_reason", flat=True)
            .first()
        )
    return event or ""


def delete_user_events(user: User) -> int:
    """Delete-everything's part: the user's records go too, so no aggregate counts them."""
    return SurfaceEvent.objects.filter(user_id=user.pk).delete()[0]
