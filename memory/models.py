"""Long-term memory: the table of record, suppressions, gate decisions and the audit log.

Every table that holds a user's memory content has Row Level Security on ``user_id``
(migration ``0002_rls``); the app connects as a role RLS applies to (atlas/db.py).
"""

from __future__ import annotations

from datetime import datetime

from django.conf import settings
from django.contrib.postgres.search import SearchVector, SearchVectorField
from django.db import models
from django.utils import timezone
from pgvector.django import HalfVectorField, VectorField

EMBEDDING_DIMENSIONS = 384


class Kind(models.TextChoices):
    PREFERENCE = "preference", "Preference"
    CORRECTION = "correction", "Correction"
    CONTEXT = "context", "Context"
    SITUATION = "situation", "Situation"


class Author(models.TextChoices):
    USER = "user", "You"
    RULE = "rule", "Atlas"


class LiveQuerySet(models.QuerySet):
    def live(self, *, now: datetime | None = None) -> LiveQuerySet:
        """Not superseded and not expired: the read-time half of expiry (write-rules chapter)."""
        return self.filter(superseded_by__isnull=True).unexpired(now=now)

    def unexpired(self, *, now: datetime | None = None) -> LiveQuerySet:
        now = now or timezone.now()
        return self.filter(models.Q(expires_at__isnull=True) | models.Q(expires_at__gt=now))


class Memory(models.Model):
    # No index of its own: memory_user_recall and memory_user_subject both lead with user_id.
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memories", db_index=False
    )
    kind = models.CharField(max_length=16, choices=Kind.choices)
    statement = models.TextField()
    # "global", or what the memory governs (a project, a customer, a report).
    scope = models.CharField(max_length=200, default="global")
    # What a preference is about (units, currency, answer_format, ...): a new standing
    # preference on the same subject supersedes the old one.
    subject = models.CharField(max_length=64, blank=True, default="")
    # The subject's canonical value ("EUR" for currency, "table" for answer_format, the
    # office's name for office): duplicates, supersession, suppression and the responder
    # compare these instead of re-parsing the statement.
    value = models.CharField(max_length=200, blank=True, default="")
    # Every facet of an answer a preference sets, as the preference table names them
    # (memory.preferences): {"scale": "k", "currency": "EUR"}; {"region": "west"} for a context
    # note that names one. The responder applies these; it never re-parses the statement.
    facets = models.JSONField(default=dict, blank=True)
    confidence = models.FloatField(default=1.0)
    author = models.CharField(max_length=8, choices=Author.choices)
    gate = models.CharField(max_length=32, default="", blank=True)
    gate_version = models.CharField(max_length=16, default="", blank=True)
    expires_at = models.DateTimeField(null=True, blank=True)
    superseded_by = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="supersedes"
    )
    created_at = models.DateTimeField(default=timezone.now)
    # Set when a restatement refreshed the memory instead of adding a copy.
    refreshed_at = models.DateTimeField(null=True, blank=True)
    # How many answers this note shaped (applied, declined with a sentence, narrowed), and the
    # last one: the memory page says how often and when a note was used.
    used_count = models.PositiveIntegerField(default=0)
    last_used_at = models.DateTimeField(null=True, blank=True)
    # Provenance: where it came from (the session, the turn, the quote, when it was said).
    source_session = models.CharField(max_length=64, blank=True, default="")
    source_turn = models.BigIntegerField(null=True, blank=True)
    source_quote = models.TextField(blank=True, default="")
    source_at = models.DateTimeField(null=True, blank=True)
    # Half precision: recall scans every live row of the user exactly, and pgvector computes
    # halfvec distances about 3x faster than vector ones (half the bytes per index tuple).
    embedding = HalfVectorField(dimensions=EMBEDDING_DIMENSIONS)
    search = models.GeneratedField(
        expression=SearchVector("statement", config="english"),
        output_field=SearchVectorField(),
        db_persist=True,
    )

    objects = LiveQuerySet.as_manager()

    class Meta:
        verbose_name_plural = "memories"
        indexes = [
            # Exact per-user scans (design rule: recall cap), no HNSW: recall is ONE index-only scan of this
            # covering btree (the live filter, the kind, and both signals it ranks by), so the
            # wide heap rows are read only for the notes it returns, by primary key.
            models.Index(
                fields=["user"],
                include=["id", "superseded_by", "expires_at", "kind", "embedding", "search"],
                name="memory_user_recall",
            ),
            models.Index(fields=["expires_at"], name="memory_expires_at"),
            models.Index(fields=["user", "kind", "subject"], name="memory_user_subject"),
        ]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(confidence__gte=0, confidence__lte=1), name="memory_confidence_0_1"
            ),
            models.CheckConstraint(condition=~models.Q(statement=""), name="memory_statement_not_empty"),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()}: {self.statement}"

    @property
    def application(self) -> str:
        """For a preference Atlas cannot apply to its answers, the plain sentence that says so."""
        from django.conf import settings as django_settings

        from memory.preferences import application

        return application(self.kind, self.facets, model=bool(getattr(django_settings, "ATLAS_LLM_BASE_URL", "")))

    def is_live(self, *, now: datetime | None = None) -> bool:
        now = now or timezone.now()
        return self.superseded_by_id is None and (self.expires_at is None or self.expires_at > now)


# A note's columns as the admin and the API both show them, in this order (each adds its own).
NOTE_COLUMNS = ("kind", "statement", "author", "confidence", "scope", "subject", "gate")
LIFECYCLE_COLUMNS = ("created_at", "refreshed_at", "expires_at", "superseded_by")


class Suppression(models.Model):
    """What a user asked us to forget: an embedding and hashes, never the statement text."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="suppressions")
    kind = models.CharField(max_length=16, choices=Kind.choices)
    statement_hash = models.CharField(max_length=64)
    # A hash of the forgotten note's (subject, value), so the same structured preference in
    # other words stays forgotten; empty when the note had none.
    subject_hash = models.CharField(max_length=32, blank=True, default="")
    # Hashes of the distinguishing content (numbers, names, units, negation): a match
    # needs these to agree as well as the embedding (design rule: forgetting suppresses; the metric/imperial pair).
    content_hashes = models.JSONField(default=list)
    embedding = VectorField(dimensions=EMBEDDING_DIMENSIONS)
    created_at = models.DateTimeField(default=timezone.now)
    expires_at = models.DateTimeField()

    class Meta:
        indexes = [models.Index(fields=["user", "expires_at"], name="suppression_user_expires")]

    def __str__(self) -> str:
        return f"Suppression {self.pk} (until {self.expires_at:%Y-%m-%d})"


class GateDecision(models.Model):
    """One admission decision of the write gate, with its reason code, for staff review."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="gate_decisions")
    rule = models.CharField(max_length=32)
    kind = models.CharField(max_length=16, blank=True, default="")
    admitted = models.BooleanField()
    reason = models.CharField(max_length=48)
    statement = models.TextField(blank=True, default="")
    source_quote = models.TextField(blank=True, default="")
    source_session = models.CharField(max_length=64, blank=True, default="")
    source_turn = models.BigIntegerField(null=True, blank=True)
    memory = models.ForeignKey(Memory, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    gate_version = models.CharField(max_length=16, default="", blank=True)
    # What the normaliser read differently before any rule read the turn:
    # [{"from": "agian", "to": "again", "why": "spelling"}], so staff see what the rules read.
    read_as = models.JSONField(default=list, db_default=[], blank=True)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        indexes = [models.Index(fields=["reason", "created_at"], name="gatedecision_reason")]

    def __str__(self) -> str:
        verdict = "admitted" if self.admitted else "refused"
        return f"{self.rule} {verdict} ({self.reason})"


class Observation(models.Model):
    """Evidence the gate counts across sessions (a filter used, a format asked for).

    Repetition is evidence no single session can give (design rule: rules on events): a signal becomes a
    memory once it has been seen in three separate sessions.
    """

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="observations")
    signal = models.CharField(max_length=200)
    session_key = models.CharField(max_length=64)
    quote = models.TextField(blank=True, default="")
    turn = models.BigIntegerField(null=True, blank=True)
    at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "signal", "session_key"], name="observation_once_per_session")
        ]

    def __str__(self) -> str:
        return f"{self.signal} in {self.session_key}"


class MemoryControl(models.Model):
    """Per-user switch (while paused nothing is written or recalled) and deletion generation.

    ``generation`` counts the user's delete-everything runs. Every write that matters locks
    this row (FOR SHARE) in its transaction and delete-everything locks it FOR UPDATE, so a
    turn, gate run or correction either commits before a deletion (and is deleted by it) or
    sees the new generation and writes nothing (memory.epoch).
    """

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memory_control")
    paused = models.BooleanField(default=False)
    generation = models.BigIntegerField(default=0)
    deleted_at = models.DateTimeField(null=True, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"memory {'paused' if self.paused else 'on'} for user {self.user_id}"


class GateEvent(models.Model):
    """A turn or feedback event waiting for the write gate: the text stays here, under RLS.

    The queued task carries only ``(user_id, event id)``; it loads this row as the user and
    deletes it in the transaction that writes the gate's results, so a retried task writes
    once. Delete-everything deletes the user's waiting events.
    """

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="gate_events")
    generation = models.BigIntegerField()
    session_key = models.CharField(max_length=64, blank=True, default="")
    turn_id = models.BigIntegerField(null=True, blank=True)
    at = models.DateTimeField()
    text = models.TextField()
    filters = models.JSONField(default=dict, blank=True)
    feedback_kind = models.CharField(max_length=16, blank=True, default="")
    feedback_comment = models.TextField(blank=True, default="")
    # What the turn already read in the text ({"version": GATE_VERSION, "findings": [...]}), so the
    # worker does not read it again; none, or another gate version's, and the worker reads it.
    findings = models.JSONField(null=True, blank=True)
    attempts = models.PositiveIntegerField(default=0)
    next_attempt_at = models.DateTimeField(default=timezone.now)

    class Meta:
        indexes = [models.Index(fields=["next_attempt_at"], name="gateevent_next_attempt")]

    def __str__(self) -> str:
        return f"gate event {self.pk} (turn {self.turn_id}, attempt {self.attempts})"


class AuditEvent(models.Model):
    """Memory events, with no statement text. Survives the user's delete-everything."""

    class Action(models.TextChoices):
        WRITTEN = "written"
        REFRESHED = "refreshed"
        CORRECTED = "corrected"
        SUPERSEDED = "superseded"
        FORGOTTEN = "forgotten"
        EXPIRED = "expired"
        DELETED_ALL = "deleted-all"
        EXPORTED = "exported"
        IMPORTED = "imported"
        PAUSED = "paused"
        RESUMED = "resumed"
        STAFF_VIEWED = "staff-viewed"
        STAFF_BYPASS = "staff-bypass"

    user_id = models.BigIntegerField(null=True, db_index=True)
    actor_id = models.BigIntegerField(null=True, blank=True)
    action = models.CharField(max_length=16, choices=Action.choices)
    kind = models.CharField(max_length=16, blank=True, default="")
    memory_id = models.BigIntegerField(null=True, blank=True)
    reason = models.CharField(max_length=200, blank=True, default="")
    at = models.DateTimeField(default=timezone.now)

    class Meta:
        indexes = [models.Index(fields=["action", "at"], name="audit_action_at")]

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M} {self.action} user={self.user_id}"


class Surface(models.TextChoices):
    """Where a user saw or changed their memory (design rule: two surfaces, plus the rest)."""

    INLINE = "inline", "Inline, under an answer"
    PAGE = "page", "Memory page"
    API = "api", "API"
    CONVERSATION = "conversation", "In conversation"
    ADMIN = "admin", "Staff, in the admin"


class ForgetReason(models.TextChoices):
    """Why a note was forgotten: the four forget reasons, offered after the forget, never required."""

    OVER_GENERALISED = "over-generalised", "I said it once, it's not a rule"
    NO_LONGER_TRUE = "no-longer-true", "It was true, not any more"
    UNWANTED = "unwanted", "True, but don't keep it"
    NEVER_TRUE = "never-true", "It was never true"


class SurfaceEvent(models.Model):
    """One view, forget or correction and the surface it came from; no statement text.

    A forget also keeps what wrote the note (the gate rule, its reason code and version), the
    note's kind and age, and the reason the user gave, so staff see which rule writes the notes
    people throw away. Under RLS and deleted with the user's delete-everything.
    """

    class Action(models.TextChoices):
        VIEWED = "viewed"
        FORGOTTEN = "forgotten"
        CORRECTED = "corrected"

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="surface_events", db_index=False
    )
    action = models.CharField(max_length=16, choices=Action.choices)
    surface = models.CharField(max_length=16, choices=Surface.choices)
    # Views: how many notes were shown (the chapter counts memories viewed).
    notes = models.PositiveIntegerField(default=0)
    memory_id = models.BigIntegerField(null=True, blank=True)
    kind = models.CharField(max_length=16, blank=True, default="")
    forget_reason = models.CharField(max_length=24, choices=ForgetReason.choices, blank=True, default="")
    # What wrote the note: the gate's rule and reason code, or "user-correction", "import", ...
    rule = models.CharField(max_length=32, blank=True, default="")
    rule_reason = models.CharField(max_length=48, blank=True, default="")
    gate_version = models.CharField(max_length=16, blank=True, default="")
    note_written_at = models.DateTimeField(null=True, blank=True)
    note_age_days = models.PositiveIntegerField(null=True, blank=True)
    at = models.DateTimeField(default=timezone.now)

    class Meta:
        indexes = [
            models.Index(fields=["user", "action", "memory_id"], name="surfaceevent_user_memory"),
            models.Index(fields=["action", "at"], name="surfaceevent_action_at"),
        ]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(forget_reason="") | models.Q(action="forgotten"),
                name="surfaceevent_reason_only_on_forget",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M} {self.action} via {self.surface}"
