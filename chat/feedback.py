"""Feedback on an answer: helpful, not helpful, or "That's wrong" with a comment.

"That's wrong" with a comment is the correction event the write gate reads (design rule: rules on events: a
correction is one of the three events a memory is written on). Follow-ups are recorded here
too: whether the next question stayed on the same focus (design rule: hold-out, "follow-up needed").
"""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import TYPE_CHECKING

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from chat.models import Feedback, Turn
from memory.epoch import hold_generation
from memory.rls import acting_user

if TYPE_CHECKING:
    from atlas.types import User

MAX_COMMENT_CHARS = 2000


def give_feedback(user: User, turn_id: int, *, kind: str, comment: str = "") -> Feedback:
    """Record the user's verdict on one of their answers (one per turn; a new verdict replaces it).

    Raises ``Turn.DoesNotExist`` for another user's turn (RLS hides it) and ``ValidationError``
    for an unknown kind or an oversized comment.
    """
    if kind not in Feedback.Kind.values:
        raise ValidationError(f"Feedback must be one of: {', '.join(Feedback.Kind.values)}.")
    comment = (comment or "").replace("\x00", "").strip()
    if len(comment) > MAX_COMMENT_CHARS:
        raise ValidationError(f"The comment is longer than {MAX_COMMENT_CHARS} characters.")
    with acting_user(user.pk), transaction.atomic():
        generation = hold_generation(user.pk)  # first: a parallel delete-everything either waits or wins
        turn = Turn.objects.select_related("session").get(pk=turn_id, user_id=user.pk)
        feedback, _ = Feedback.objects.update_or_create(
            turn=turn, user=user, defaults={"kind": kind, "comment": comment, "created_at": timezone.now()}
        )
        if kind == Feedback.Kind.INCORRECT and comment:
            queue_gate(
                user_id=user.pk,
                session_key=str(turn.session_id),
                turn_id=turn.pk,
                text=turn.question,
                filters={},
                feedback_kind=kind,
                feedback_comment=comment,
                generation=generation,
            )
    return feedback


def record_followup(session_id: uuid.UUID, previous_turn_id: int | None, *, stayed: bool) -> None:
    """Mark whether the question after ``previous_turn_id`` stayed on the same focus."""
    if previous_turn_id is None:
        return
    Turn.objects.filter(pk=previous_turn_id, session_id=session_id).update(followup=stayed)


def queue_gate(
    *,
    user_id: int,
    session_key: str,
    turn_id: int | None,
    text: str,
    filters: dict[str, str],
    feedback_kind: str = "",
    feedback_comment: str = "",
    generation: int | None = None,
    at: datetime | None = None,
    findings: dict | None = None,
) -> None:
    """Queue the write gate for this event once the surrounding transaction commits.

    The text waits in memory's gate event table (under RLS); the task carries ids only.
    ``generation``: the deletion generation this transaction already holds, if it does;
    ``at``: when it was said (now by default); ``findings``: what the turn already read in the
    text (memory.gate.turn_reading), so the worker does not read it again.
    """
    from memory.tasks import enqueue_gate

    enqueue_gate(
        user_id=user_id,
        session_key=session_key,
        turn_id=turn_id,
        at=at or timezone.now(),
        text=text,
        filters=dict(filters),
        feedback_kind=feedback_kind,
        feedback_comment=feedback_comment,
        generation=generation,
        findings=findings,
    )
