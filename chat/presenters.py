"""What the chat page shows for each turn, built in one place (:func:`turn_views`).

A :class:`TurnView` per turn and a :class:`NoteView` per recalled note: frozen, built from
the saved turn, the user's memories now and what the user just did (``acted``), so the
template never reads attributes attached to model instances.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any

from django.db.models import Q
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from chat.blocks import Block
from chat.models import Feedback, Turn
from memory.models import ForgetReason, GateDecision, Kind, Memory

if TYPE_CHECKING:
    from atlas.types import User

# The "Memory updated" line: the page asks for the turn's gate status this many times, a
# second or so apart, while the turn is this fresh; it stops as soon as the gate decided.
GATE_POLLS = 6
GATE_POLL_WINDOW_SECONDS = 60


@dataclass(frozen=True)
class NoteView:
    """One recalled note as the panel shows it: the wording the responder saw, and its state now."""

    memory_id: int
    kind: str
    statement: str
    noted_on: datetime | None
    source_quote: str
    influence: str
    # live | expired | replaced | forgotten | just-forgotten | reason-given | just-corrected
    state: str = "live"
    reason: str = ""
    replacement: Memory | None = None
    draft: str | None = None
    errors: tuple[str, ...] = ()

    @property
    def forget_reasons(self) -> list[tuple[str, str]]:
        return ForgetReason.choices


@dataclass(frozen=True)
class TurnView:
    """One turn of the conversation as the page shows it."""

    pk: int
    session_id: Any
    kind: str
    question: str
    options: list[dict[str, str]]
    gate_message: str
    answer_blocks: tuple[Block, ...]
    notes: tuple[NoteView, ...]
    panel_open: bool
    memory_updates: tuple[Memory, ...]
    given: Feedback | None
    feedback_form: Any
    gate_pending: bool
    next_poll: int


def turn_views(user: User, turns: list[Turn], *, acted: dict[int, dict] | None = None, poll: int = 0) -> list[TurnView]:
    """Each turn with its notes' current state, the memories written from it and its feedback.

    One query for all memories the page refers to (recalled or written from these turns), so
    the page costs the same for one turn or fifty. ``acted`` maps a turn id to what the user
    just did to one of its notes; ``poll`` is how often the page already asked for the gate.
    """
    acted = acted or {}
    now = timezone.now()
    memories = _memories(user, turns)
    by_id = {memory.pk: memory for memory in memories}
    decided = _decided(user, turns, now)
    views = []
    for turn in turns:
        flash = acted.get(turn.pk, {})
        updates = tuple(m for m in memories if m.source_turn == turn.pk and m.is_live(now=now))
        views.append(
            TurnView(
                pk=turn.pk,
                session_id=turn.session_id,
                kind=turn.kind,
                question=turn.question,
                options=turn.options,
                gate_message=turn.gate_message,
                answer_blocks=tuple(_answer_blocks(turn)),
                notes=tuple(_note(row, by_id.get(int(row["memory_id"])), now, flash) for row in turn.used_notes),
                panel_open=bool(flash),
                memory_updates=updates,
                given=next(iter(turn.feedback.all()), None),
                feedback_form=flash.get("feedback_form"),
                gate_pending=_gate_pending(turn, bool(updates), decided, now, poll),
                next_poll=poll + 1,
            )
        )
    return views


def influence_words(row: dict[str, Any]) -> str:
    """How a note shaped the answer, in the panel's words ("Shaped this answer: Showed amounts in thousands")."""
    code = row.get("influence", "")
    label = Turn.Influence(code).label if code in Turn.Influence.values else ""
    how = row.get("how", "")
    return f"{label}: {how}" if label and how and code == Turn.Influence.APPLIED else (how or label)


def _memories(user: User, turns: list[Turn]) -> list[Memory]:
    if not turns:
        return []
    recalled_ids = {int(row["memory_id"]) for turn in turns for row in turn.recalled}
    return list(
        Memory.objects.filter(user_id=user.pk)
        .filter(Q(pk__in=recalled_ids) | Q(source_turn__in=[turn.pk for turn in turns]))
        .select_related("superseded_by")
        .defer("embedding", "superseded_by__embedding")
    )


def _answer_blocks(turn: Turn) -> list[Block]:
    """The answer's typed blocks as the responder made them (no parsing of answer text); a
    turn saved before blocks existed shows its text as one summary."""
    stored = [Block.from_dict(b) for b in turn.blocks or []]
    if not stored:
        stored = [Block("summary", text=turn.answer)] if turn.answer else []
    if turn.gate_message:
        stored = [b for b in stored if b.text != turn.gate_message]
    return stored


def _gate_pending(turn: Turn, updated: bool, decided: set[int], now: datetime, poll: int) -> bool:
    """Whether the page should ask again for this turn's gate status: a fresh turn the gate
    has not decided on yet, for at most GATE_POLLS polls (the gate runs seconds after); never a
    turn the gate was not queued for."""
    if not turn.gate_queued or updated or turn.pk in decided or poll >= GATE_POLLS:
        return False
    return (now - turn.created_at).total_seconds() < GATE_POLL_WINDOW_SECONDS


def _decided(user: User, turns: list[Turn], now: datetime) -> set[int]:
    """Turns (answered in the poll window) the write gate has recorded a decision for: one query."""
    recent = [t.pk for t in turns if (now - t.created_at).total_seconds() < GATE_POLL_WINDOW_SECONDS]
    if not recent:
        return set()
    rows = GateDecision.objects.filter(user_id=user.pk, source_turn__in=recent).values_list("source_turn", flat=True)
    return {turn_id for turn_id in rows if turn_id is not None}


def _when(value: Any) -> datetime | None:
    if isinstance(value, datetime) or value is None:
        return value
    return parse_datetime(value)


def _state(memory: Memory | None, now: datetime) -> tuple[str, Memory | None]:
    if memory is None:
        return "forgotten", None
    if memory.superseded_by_id is not None:
        return "replaced", memory.superseded_by
    if not memory.is_live(now=now):
        return "expired", None
    return "live", None


def _note(row: dict, memory: Memory | None, now: datetime, flash: dict) -> NoteView:
    memory_id = int(row["memory_id"])
    state, replacement = _state(memory, now)
    mine = flash.get("memory_id") == memory_id
    return NoteView(
        memory_id=memory_id,
        kind=Kind(row["kind"]).label if row.get("kind") in Kind.values else row.get("kind", ""),
        statement=row.get("statement", ""),
        noted_on=_when(row.get("written_at")),
        source_quote=row.get("source_quote") or "",
        influence=influence_words(row),
        state=flash.get("state", state) if mine else state,
        replacement=flash.get("replacement", replacement) if mine else replacement,
        draft=flash.get("draft") if mine else None,
        reason=flash.get("reason", "") if mine else "",
        errors=tuple(flash.get("errors", ())) if mine else (),
    )
