"""Chat app models.

The corpus (Customer, Order, Contract, Document) is company data the assistant answers from:
the system of record. It holds no user content, so it has no ``user_id`` and no RLS.
"""

from __future__ import annotations

import uuid
from typing import TYPE_CHECKING

from django.conf import settings
from django.contrib.postgres.indexes import GinIndex
from django.contrib.postgres.search import SearchVector, SearchVectorField
from django.db import models
from django.utils import timezone
from pgvector.django import VectorField

from memory.models import EMBEDDING_DIMENSIONS  # the one embedding model's size, for documents too

if TYPE_CHECKING:
    from chat.prompt import Prompt


# --- Corpus: the business data (owner: helper "corpus") ---------------------------------


class Region(models.TextChoices):
    WEST = "west", "West"
    EAST = "east", "East"
    NORTH = "north", "North"
    SOUTH = "south", "South"
    CENTRAL = "central", "Central"


class OrderStatus(models.TextChoices):
    OPEN = "open", "Open"
    SHIPPED = "shipped", "Shipped"
    OVERDUE = "overdue", "Overdue"
    CANCELLED = "cancelled", "Cancelled"
    PAID = "paid", "Paid"


class Customer(models.Model):
    name = models.CharField(max_length=200)
    city = models.CharField(max_length=100)
    region = models.CharField(max_length=16, choices=Region.choices)
    segment = models.CharField(max_length=64)
    account_code = models.CharField(max_length=32, unique=True)

    class Meta:
        ordering = ["name"]
        indexes = [models.Index(fields=["region"], name="customer_region")]

    def __str__(self) -> str:
        return f"{self.name} ({self.city}, {self.account_code})"


class Order(models.Model):
    number = models.CharField(max_length=32, unique=True)
    customer = models.ForeignKey(Customer, on_delete=models.CASCADE, related_name="orders")
    ordered_on = models.DateField()
    amount = models.DecimalField(max_digits=12, decimal_places=2)
    currency = models.CharField(max_length=3, default="USD")
    status = models.CharField(max_length=16, choices=OrderStatus.choices)

    class Meta:
        ordering = ["-ordered_on", "number"]
        indexes = [
            models.Index(fields=["customer", "ordered_on"], name="order_customer_date"),
            models.Index(fields=["ordered_on"], name="order_date"),
            models.Index(fields=["status", "ordered_on"], name="order_status_date"),
        ]

    def __str__(self) -> str:
        return f"{self.number} {self.amount} {self.currency} ({self.status})"


class Contract(models.Model):
    customer = models.ForeignKey(Customer, on_delete=models.CASCADE, related_name="contracts")
    payment_terms = models.CharField(max_length=32)  # e.g. "net 45"
    payment_days = models.PositiveIntegerField()
    renewal_date = models.DateField()
    credit_limit = models.DecimalField(max_digits=12, decimal_places=2)
    signed_on = models.DateField()

    class Meta:
        ordering = ["-signed_on"]
        indexes = [models.Index(fields=["customer", "signed_on"], name="contract_customer_signed")]

    def __str__(self) -> str:
        return f"{self.customer.name}: {self.payment_terms}"


class Document(models.Model):
    title = models.CharField(max_length=300)
    text = models.TextField()
    customer = models.ForeignKey(Customer, null=True, blank=True, on_delete=models.SET_NULL, related_name="documents")
    embedding = VectorField(dimensions=EMBEDDING_DIMENSIONS)
    search = models.GeneratedField(
        expression=SearchVector("title", "text", config="english"),
        output_field=SearchVectorField(),
        db_persist=True,
    )

    class Meta:
        ordering = ["title"]
        indexes = [GinIndex(fields=["search"], name="document_search_gin")]

    def __str__(self) -> str:
        return self.title


# --- Conversations: user content under RLS on user_id (owner: helper "turn") ------------


class ChatSession(models.Model):
    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="chat_sessions")
    title = models.CharField(max_length=200, blank=True, default="")
    created_at = models.DateTimeField(default=timezone.now)
    updated_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-updated_at"]
        indexes = [models.Index(fields=["user", "-updated_at"], name="chatsession_user_updated")]

    def __str__(self) -> str:
        return self.title or f"Session {self.pk}"


class Turn(models.Model):
    class Kind(models.TextChoices):
        ANSWER = "answer", "Answer"
        CLARIFY = "clarify", "Clarifying question"

    class Influence(models.TextChoices):
        """How a recalled note shaped an answer (Turn.recalled[*].influence), in the panel's
        words. Only these are listed under "Used N notes"; a note recalled and unused has none."""

        APPLIED = "applied", "Shaped this answer"
        DECLINED = "declined", "Not applied; the answer says why"
        NARROWED = "narrowed", "Narrowed the question"
        OUT_OF_DATE = "out-of-date", "The records say otherwise"
        GIVEN_TO_MODEL = "given-to-model", "Given to the model with the question"
        # What turns saved before influence was recorded per note carry.
        SHAPED_FORMAT = "shaped-format", "Shaped the format"
        NARROWED_RETRIEVAL = "narrowed-retrieval", "Narrowed the search"
        IN_CONTEXT = "in-context", "In context for this answer"

    session = models.ForeignKey(ChatSession, on_delete=models.CASCADE, related_name="turns")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="chat_turns")
    question = models.TextField()
    answer = models.TextField(blank=True, default="")
    # The answer as typed blocks (chat.blocks.Block.as_dict): summary, table, bullets, quote, note.
    blocks = models.JSONField(default=list, blank=True)
    kind = models.CharField(max_length=16, choices=Kind.choices, default=Kind.ANSWER)
    options = models.JSONField(default=list, blank=True)  # clarify choices: [{"id", "label"}]
    recalled = models.JSONField(default=list, blank=True)  # notes used, each with its influence
    eligible = models.BooleanField(default=False)  # recall returned at least one memory
    held_out = models.BooleanField(default=False)  # answered without memory (design rule: hold-out)
    prompt_tokens = models.PositiveIntegerField(default=0)
    followup = models.BooleanField(default=False)  # the next question stayed on the same focus
    gate_message = models.TextField(blank=True, default="")
    # False: the write gate had nothing to read in this turn (memory.gate.gate_has_work), so no
    # gate event or task was queued for it.
    gate_queued = models.BooleanField(default=True)
    created_at = models.DateTimeField(default=timezone.now)

    # Not stored: set by chat.turn on the instance it answers (bench_session, debugging and tests
    # read the prompt; ``correction``: the question corrected the previous answer).
    prompt: Prompt
    correction: bool

    class Meta:
        ordering = ["created_at", "id"]
        indexes = [models.Index(fields=["session", "created_at"], name="turn_session_created")]

    def __str__(self) -> str:
        return self.question[:60]

    @property
    def recalled_ids(self) -> list[int]:
        return [int(note["memory_id"]) for note in self.recalled]

    @property
    def used_notes(self) -> list[dict]:
        """The recalled notes that shaped this answer (with an influence): what "Used N notes" lists."""
        return [note for note in self.recalled if note.get("influence")]


class Feedback(models.Model):
    class Kind(models.TextChoices):
        HELPFUL = "helpful", "Helpful"
        NOT_HELPFUL = "not_helpful", "Not helpful"
        INCORRECT = "incorrect", "That's wrong"

    turn = models.ForeignKey(Turn, on_delete=models.CASCADE, related_name="feedback")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="chat_feedback")
    kind = models.CharField(max_length=16, choices=Kind.choices)
    comment = models.TextField(blank=True, default="")
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-created_at"]
        verbose_name_plural = "feedback"
        constraints = [models.UniqueConstraint(fields=["turn", "user"], name="feedback_one_per_turn")]

    def __str__(self) -> str:
        return f"{self.kind} on turn {self.turn_id}"
