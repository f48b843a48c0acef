"""The memory store's writes: write, correct, forget, delete everything, export and import.

Plain functions used alike by the pages, the API, the admin, the gate and chat. Each sets
the acting user for Row Level Security itself, so it works from requests, tasks and tests.
Writes run in one transaction; bad input raises ``ValidationError``. The gate's writes
(write, refresh, supersede) join the caller's transaction without a savepoint: their input
is checked before it starts, a database error fails the caller's whole transaction, and the
gate writes many per run (a savepoint is two more statements each). The audit log records
what happened (kind, ids, reason), never statement text.
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import TYPE_CHECKING, Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import F
from django.utils import timezone

from atlas.sentences import KIND_SECTIONS
from memory.embeddings import embed_one
from memory.epoch import advance_generation, hold_generation
from memory.events import everything_deleted
from memory.models import (
    EMBEDDING_DIMENSIONS,
    AuditEvent,
    Author,
    GateDecision,
    GateEvent,
    Kind,
    Memory,
    MemoryControl,
    Observation,
    Suppression,
    Surface,
)
from memory.rls import acting_user
from memory.selectors import export_rows, older_versions, was_forgotten
from memory.suppression import suppress
from memory.surfaces import clean_forget_reason, clean_surface, delete_user_events, record_correction, record_forget

if TYPE_CHECKING:
    from atlas.types import User

MAX_STATEMENT_CHARS = 500
EXPORT_FORMAT = "atlas-memory-export"
EXPORT_VERSION = 1


class MemoryGone(Memory.DoesNotExist):
    """The note was the user's but is gone (forgotten, or deleted with everything)."""


EXPORT_FIELDS = (
    "id",
    "kind",
    "statement",
    "scope",
    "subject",
    "value",
    "confidence",
    "author",
    "gate",
    "gate_version",
    "expires_at",
    "superseded_by",
    "created_at",
    "refreshed_at",
    "source_session",
    "source_turn",
    "source_quote",
    "source_at",
)
_DATETIME_FIELDS = ("expires_at", "created_at", "refreshed_at", "source_at")


def _audit(user_id: int | None, action: str, *, kind: str = "", memory_id: int | None = None, reason: str = "") -> None:
    AuditEvent.objects.create(user_id=user_id, action=action, kind=kind, memory_id=memory_id, reason=reason[:200])


def clean_text(text: str | None) -> str:
    """The one cleaning of text a user wrote, on every write path: the gate's own
    (``memory.gate.policy.visible_text``: NFKC, then no control, format or bidi characters
    such as U+202E, which would make a note read differently from what is stored)."""
    from memory.gate.policy import visible_text  # the gate package loads spaCy on first use

    return visible_text(text)


def _clean(*, kind: str, statement: str, author: str, confidence: float, scope: str) -> str:
    errors: dict[str, str] = {}
    if kind not in Kind.values:
        errors["kind"] = f"Kind must be one of {', '.join(Kind.values)}."
    typed, statement = (statement or "").strip(), clean_text(statement)
    # Only invisible characters ("\u200b"): the refusal policy names that (refuse_unsafe).
    if not typed:
        errors["statement"] = "A memory needs a statement."
    elif len(statement) > MAX_STATEMENT_CHARS:
        errors["statement"] = f"A memory is one sentence of at most {MAX_STATEMENT_CHARS} characters."
    if author not in Author.values:
        errors["author"] = "Author must be 'user' or 'rule'."
    try:
        if not 0.0 <= float(confidence) <= 1.0:
            errors["confidence"] = "Confidence must be between 0 and 1."
    except (TypeError, ValueError):
        errors["confidence"] = "Confidence must be a number between 0 and 1."
    if not (scope or "").strip():
        errors["scope"] = "Scope must be 'global' or what the memory governs."
    if errors:
        raise ValidationError(errors)
    return statement


def refuse_unsafe(statement: str) -> None:
    """The gate's refusal policy on a user-typed write (issue 14: one policy for every path).

    Secrets, instructions to the system, special-category data and empty or invisible
    text raise ``ValidationError`` with the gate's reason code as the error code.
    """
    from memory.gate.policy import refusal_for  # loaded on first use: the policy loads spaCy

    refusal = refusal_for(statement)
    if refusal is not None:
        raise ValidationError(refusal.message, code=refusal.reason)


def record_uses(user: User, memory_ids: list[int], *, at: datetime) -> None:
    """Count one answer shaped by each of these notes (the turn's transaction, as the user)."""
    if not memory_ids:
        return
    with acting_user(user.pk):
        Memory.objects.filter(user_id=user.pk, pk__in=memory_ids).update(
            used_count=F("used_count") + 1, last_used_at=at
        )


def write_memory(
    user: User,
    *,
    kind: str,
    statement: str,
    author: str = "rule",
    confidence: float = 1.0,
    scope: str = "global",
    subject: str = "",
    value: str = "",
    facets: dict[str, Any] | None = None,
    expires_at: datetime | None = None,
    gate: str = "",
    gate_version: str = "",
    source_session: str = "",
    source_turn: int | None = None,
    source_quote: str = "",
    source_at: datetime | None = None,
    created_at: datetime | None = None,
    embedding: list[float] | None = None,
) -> Memory:
    """Write one memory; its embedding is computed here, once, and never again.

    ``embedding`` lets a bulk loader pass the statement's vector, computed in a batch with
    ``memory.embeddings.embed`` on the same (cleaned) statement; it must have 384 values.

    No suppression check here: the gate checks rule-written candidates, and a user's
    explicit "remember that" is honoured even over a suppression.
    """
    statement = _clean(kind=kind, statement=statement, author=author, confidence=confidence, scope=scope)
    if not statement:
        raise ValidationError({"statement": "A memory needs a statement a reader can see."})
    if embedding is None:
        vector = embed_one(statement)  # EmbeddingError propagates: nothing is written
    else:
        vector = [float(v) for v in embedding]
        if len(vector) != EMBEDDING_DIMENSIONS:
            raise ValidationError(
                {"embedding": f"An embedding must have {EMBEDDING_DIMENSIONS} values, not {len(vector)}."}
            )
    with acting_user(user.pk), transaction.atomic(savepoint=False):
        hold_generation(user.pk)
        memory = Memory.objects.create(
            user_id=user.pk,
            kind=kind,
            statement=statement,
            author=author,
            confidence=float(confidence),
            scope=scope.strip(),
            subject=subject,
            value=value[:200],
            facets=dict(facets or {}),
            expires_at=expires_at,
            gate=gate,
            gate_version=gate_version,
            source_session=str(source_session or ""),
            source_turn=source_turn,
            source_quote=source_quote or "",
            source_at=source_at,
            created_at=created_at or timezone.now(),
            embedding=vector,
        )
        _audit(user.pk, AuditEvent.Action.WRITTEN, kind=kind, memory_id=memory.pk, reason=f"{author} {gate}".strip())
    return memory


def supersede_memory(old: Memory, new: Memory) -> None:
    """Mark ``old`` as replaced by ``new``, holding author ranking.

    The user outranks the rules (issue 3): a rule-written memory never supersedes one the
    user wrote or corrected, so that refuses with ``ValidationError``.
    """
    if old.user_id != new.user_id:
        raise ValidationError("A memory can only be superseded by one of the same user.")
    if old.pk == new.pk:
        raise ValidationError("A memory cannot supersede itself.")
    if new.author == Author.RULE and old.author == Author.USER:
        raise ValidationError("A rule-written memory never replaces one the user wrote.")
    with acting_user(old.user_id), transaction.atomic(savepoint=False):
        Memory.objects.filter(pk=old.pk).update(superseded_by=new.pk)
        old.superseded_by = new
        _audit(old.user_id, AuditEvent.Action.SUPERSEDED, kind=old.kind, memory_id=old.pk, reason=f"by {new.pk}")


def refresh_memory(memory: Memory, *, at: datetime, expires_at: datetime | None = None, reason: str = "") -> None:
    """A restated note is refreshed, not copied: ``refreshed_at`` moves to ``at``, and a later
    ``expires_at`` extends a dated note (never shortens it, never dates an undated one)."""
    updates: dict[str, datetime] = {"refreshed_at": at}
    if expires_at and memory.expires_at and expires_at > memory.expires_at:
        updates["expires_at"] = expires_at
    with acting_user(memory.user_id), transaction.atomic(savepoint=False):
        Memory.objects.filter(pk=memory.pk).update(**updates)
        _audit(memory.user_id, AuditEvent.Action.REFRESHED, kind=memory.kind, memory_id=memory.pk, reason=reason)


def _get_own(user: User, memory_id: int, *, lock: bool = False) -> Memory:
    """The user's memory, or ``MemoryGone`` when they forgot it, or ``DoesNotExist``.

    RLS already hides other users' rows; the user filter makes the intent explicit.
    """
    rows = Memory.objects.select_for_update() if lock else Memory.objects
    try:
        return rows.get(pk=memory_id, user_id=user.pk)
    except Memory.DoesNotExist:
        if was_forgotten(user, memory_id):
            raise MemoryGone(f"memory {memory_id} was forgotten") from None
        raise


def correct_memory(user: User, memory_id: int, *, statement: str, surface: str = Surface.PAGE) -> Memory:
    """The user's correction: a new user-authored memory (confidence 1.0) that supersedes the old.

    Never an in-place edit, so provenance of both stays. User-authored notes have no
    expiry: the kind TTL applies to what the rules infer, not to what the user wrote.
    ``surface`` (a ``Surface`` code) records where the correction was made.
    """
    surface = clean_surface(surface)
    with acting_user(user.pk):
        old = _get_own(user, memory_id)
    if old.superseded_by_id is not None:
        raise ValidationError("This note was already replaced; correct the current one.")
    statement = _clean(kind=old.kind, statement=statement, author=Author.USER, confidence=1.0, scope=old.scope)
    refuse_unsafe(statement)
    vector = embed_one(statement)
    now = timezone.now()
    with acting_user(user.pk), transaction.atomic():
        hold_generation(user.pk)
        old = _get_own(user, old.pk, lock=True)
        if old.superseded_by_id is not None:
            raise ValidationError("This note was already replaced; correct the current one.")
        new = Memory.objects.create(
            user_id=user.pk,
            kind=old.kind,
            statement=statement,
            author=Author.USER,
            confidence=1.0,
            scope=old.scope,
            subject=old.subject,
            # The user's own words replace the old value: a corrected note is compared by
            # its text until the gate reads it again.
            value="",
            expires_at=None,
            gate="user-correction",
            source_session=old.source_session,
            source_turn=old.source_turn,
            source_quote=statement,
            source_at=now,
            created_at=now,
            embedding=vector,
        )
        old.superseded_by = new
        old.save(update_fields=["superseded_by"])
        record_correction(user, old, surface=surface, now=now)
        _audit(user.pk, AuditEvent.Action.CORRECTED, kind=new.kind, memory_id=new.pk, reason=f"supersedes {old.pk}")
    return new


def forget_memory(user: User, memory_id: int, *, reason: str = "", surface: str = Surface.PAGE) -> bool:
    """Hard delete a memory (and the older versions it replaced) and suppress it for 365 days.

    The older versions go too: forgetting a correction must not bring back what it corrected.
    ``reason`` is one of the four (``ForgetReason``) or "" (none: it is optional and
    usually given afterwards, :func:`memory.surfaces.give_forget_reason`); ``surface`` is where
    the forget came from. Both are codes: the audit holds no user text.
    Idempotent: False when the user had already forgotten it (a double click, or parallel
    forgets of one note), True when it was forgotten now. ``Memory.DoesNotExist`` for ids
    that are not the user's.
    """
    reason, surface = clean_forget_reason(reason), clean_surface(surface)
    with acting_user(user.pk), transaction.atomic():
        hold_generation(user.pk)
        try:
            memory = _get_own(user, memory_id, lock=True)
        except MemoryGone:
            return False
        record_forget(user, memory, surface=surface, reason=reason)
        chain = [memory, *older_versions([memory.pk], user_id=user.pk)]
        for row in chain:
            suppress(row)
        decisions = GateDecision.objects.filter(user_id=user.pk, memory_id__in=[m.pk for m in chain])
        decisions.update(statement="", source_quote="")  # staff's log keeps none of the forgotten words
        Memory.objects.filter(pk__in=[m.pk for m in chain], user_id=user.pk).delete()
        _audit(
            user.pk,
            AuditEvent.Action.FORGOTTEN,
            kind=memory.kind,
            memory_id=memory_id,
            reason=f"{surface} {reason}".strip(),
        )
    return True


def delete_everything(user: User) -> dict[str, int]:
    """Delete all of the user's memory content in one transaction: no soft delete.

    First the deletion generation advances (memory.epoch): that waits for any turn, gate run
    or correction of the user under way, and makes everything queued before it stale. Then
    memories (with their embeddings), suppressions, gate decisions, observations and waiting
    gate events. Whoever else holds copies of memory content clears theirs on the
    ``everything_deleted`` signal (memory.events), sent inside the same transaction and
    adding their counts: the queued gate tasks (memory.tasks), chat's conversations and
    session state (chat.signals). The audit entry keeps only the counts.
    """
    with acting_user(user.pk), transaction.atomic():
        advance_generation(user.pk)
        counts = {
            "gate_events": GateEvent.objects.filter(user_id=user.pk).delete()[0],
            "gate_decisions": GateDecision.objects.filter(user_id=user.pk).delete()[0],
            "observations": Observation.objects.filter(user_id=user.pk).delete()[0],
            "suppressions": Suppression.objects.filter(user_id=user.pk).delete()[0],
            "surface_events": delete_user_events(user),
        }
        Memory.objects.filter(user_id=user.pk).update(superseded_by=None)
        counts["memories"] = Memory.objects.filter(user_id=user.pk).delete()[0]
        everything_deleted.send(sender=Memory, user=user, counts=counts)
        _audit(
            user.pk,
            AuditEvent.Action.DELETED_ALL,
            reason=", ".join(f"{name}={count}" for name, count in counts.items()),
        )
    return counts


def _iso(value: datetime | None) -> str | None:
    return value.isoformat() if value else None


def _export_row(memory: Memory) -> dict:
    row = {field: getattr(memory, field) for field in EXPORT_FIELDS if field != "superseded_by"}
    row["superseded_by"] = memory.superseded_by_id
    for field in _DATETIME_FIELDS:
        row[field] = _iso(row[field])
    return row


def _kind_heading(kind: str) -> str:
    return KIND_SECTIONS[kind][0]


def _provenance(memory: Memory) -> str:
    who = "you" if memory.author == Author.USER else "Atlas"
    parts = [f"written {memory.created_at:%Y-%m-%d} by {who}"]
    if memory.source_quote:
        said = f" on {memory.source_at:%Y-%m-%d}" if memory.source_at else ""
        parts.append(f'from what you said{said}: "{memory.source_quote}"')
    if memory.source_session:
        turn = f", turn {memory.source_turn}" if memory.source_turn is not None else ""
        parts.append(f"conversation {memory.source_session}{turn}")
    if memory.expires_at:
        parts.append(f"expires {memory.expires_at:%Y-%m-%d}")
    return "; ".join(parts)


def export_memories(user: User, *, fmt: str) -> str:
    """Everything Atlas holds about the user's memory, as JSON or plain text.

    JSON has every field of every row, superseded and expired ones included, with
    provenance; the embedding is left out (it is recomputed on import). Text lists the
    live notes grouped by kind, then the replaced or expired ones.
    """
    if fmt not in ("json", "text"):
        raise ValidationError({"fmt": "Export format must be 'json' or 'text'."})
    now = timezone.now()
    with acting_user(user.pk), transaction.atomic():
        memories = export_rows(user)
        _audit(user.pk, AuditEvent.Action.EXPORTED, reason=f"{fmt}, {len(memories)} memories")
    if fmt == "json":
        return json.dumps(
            {
                "format": EXPORT_FORMAT,
                "version": EXPORT_VERSION,
                "exported_at": now.isoformat(),
                "memories": [_export_row(m) for m in memories],
            },
            indent=2,
            ensure_ascii=False,
        )
    lines = [f"What Atlas remembers about you (exported {now:%Y-%m-%d %H:%M} UTC)", ""]
    live = [m for m in memories if m.is_live(now=now)]
    if not live:
        lines.append("Atlas remembers nothing about you.")
    for kind in Kind.values:
        rows = [m for m in live if m.kind == kind]
        if not rows:
            continue
        lines.append(_kind_heading(kind))
        for memory in rows:
            lines.append(f"- {memory.statement}")
            lines.append(f"  ({_provenance(memory)})")
        lines.append("")
    gone = [m for m in memories if not m.is_live(now=now)]
    if gone:
        lines.append("Replaced or expired (no longer used)")
        for memory in gone:
            why = "replaced" if memory.superseded_by_id else f"expired {memory.expires_at:%Y-%m-%d}"
            lines.append(f"- [{_kind_heading(memory.kind)}] {memory.statement}")
            lines.append(f"  ({why}; {_provenance(memory)})")
        lines.append("")
    return "\n".join(lines).rstrip() + "\n"


def set_paused(user: User, *, paused: bool) -> None:
    with acting_user(user.pk), transaction.atomic():
        hold_generation(user.pk)  # creates the control row without racing a parallel first write
        MemoryControl.objects.filter(user_id=user.pk).update(paused=bool(paused), updated_at=timezone.now())
        _audit(user.pk, AuditEvent.Action.PAUSED if paused else AuditEvent.Action.RESUMED)
