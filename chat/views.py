"""The chat page: sessions, the conversation, the answer with its "Used N notes" panel.

Views stay thin: load the owner's rows (another user's id is a 404), call one domain
function (chat.turn.ask, chat.feedback.give_feedback, memory.store.forget_memory /
correct_memory), then render the partial that changed (htmx) or redirect (plain form post).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.db.models import Q
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import HttpResponseClientRedirect, reswap, retarget

from atlas.logcontext import log_step
from chat.blocks import Block
from chat.feedback import give_feedback
from chat.forms import AskForm, FeedbackForm
from chat.models import ChatSession, Turn
from chat.turn import TurnFailed
from chat.turn import ask as ask_question
from memory.forms import CorrectForm, ForgetReasonForm
from memory.models import ForgetReason, GateDecision, Kind, Memory, Surface, SurfaceEvent
from memory.selectors import is_paused, was_forgotten
from memory.store import correct_memory, forget_memory
from memory.surfaces import forget_reason_given, give_forget_reason, record_view

FORGOTTEN = "Forgotten. Atlas won't learn this again."
CORRECTED = "Corrected. Atlas will use your wording from now on."
REASON_NOTED = "Thanks, noted. It helps Atlas learn what not to keep."
SIDEBAR_SESSIONS = 30
# The "Memory updated" line: the page asks for the turn's gate status this many times, a
# second or so apart, while the turn is this fresh; it stops as soon as the gate decided.
GATE_POLLS = 6
GATE_POLL_WINDOW_SECONDS = 60

# How a recalled note shaped the answer (Turn.recalled[*].influence), in the panel's words.
INFLUENCE = {
    "shaped-format": "Shaped the format of this answer",
    "narrowed-retrieval": "Narrowed the search",
    "in-context": "In context for this answer",
}


@dataclass
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
    errors: list[str] = field(default_factory=list)

    @property
    def forget_reasons(self) -> list[tuple[str, str]]:
        return ForgetReason.choices


def _when(value) -> datetime | None:
    if isinstance(value, datetime) or value is None:
        return value
    return parse_datetime(value)


def _decorate(user, turns: list[Turn], *, acted: dict[int, dict] | None = None) -> list[Turn]:
    """Attach to each turn its notes' current state, the memories written from it and its feedback.

    One query for all memories the page refers to (recalled or written from these turns), so
    the page costs the same for one turn or fifty.
    """
    acted = acted or {}
    now = timezone.now()
    recalled_ids = {int(row["memory_id"]) for turn in turns for row in turn.recalled}
    turn_ids = [turn.pk for turn in turns]
    memories: list[Memory] = []
    if turns:
        memories = list(
            Memory.objects.filter(user_id=user.pk)
            .filter(Q(pk__in=recalled_ids) | Q(source_turn__in=turn_ids))
            .select_related("superseded_by")
            .defer("embedding", "superseded_by__embedding")
        )
    by_id = {memory.pk: memory for memory in memories}
    decided = _decided(user, turns, now)
    for turn in turns:
        flash = acted.get(turn.pk, {})
        turn.notes = [_note(row, by_id.get(int(row["memory_id"])), now, flash) for row in turn.recalled]
        turn.panel_open = bool(flash)
        turn.memory_updates = [m for m in memories if m.source_turn == turn.pk and m.is_live(now=now)]
        turn.given = next(iter(turn.feedback.all()), None)
        turn.feedback_form = flash.get("feedback_form")
        turn.answer_blocks = _answer_blocks(turn)
        turn.gate_pending = _gate_pending(turn, decided, now)
        turn.next_poll = turn_poll(turn) + 1
    return turns


def _answer_blocks(turn: Turn) -> list[Block]:
    """The answer's typed blocks as the responder made them (no parsing of answer text); a
    turn saved before blocks existed shows its text as one summary."""
    stored = [Block.from_dict(b) for b in turn.blocks or []]
    if not stored:
        stored = [Block("summary", text=turn.answer)] if turn.answer else []
    if turn.gate_message:
        stored = [b for b in stored if b.text != turn.gate_message]
    return stored


def turn_poll(turn: Turn) -> int:
    return int(getattr(turn, "poll", 0))


def _gate_pending(turn: Turn, decided: set[int], now) -> bool:
    """Whether the page should ask again for this turn's gate status: a fresh turn the gate
    has not decided on yet, for at most GATE_POLLS polls (the gate runs seconds after)."""
    if turn.memory_updates or turn.pk in decided or turn_poll(turn) >= GATE_POLLS:
        return False
    return (now - turn.created_at).total_seconds() < GATE_POLL_WINDOW_SECONDS


def _decided(user, turns: list[Turn], now) -> set[int]:
    """Turns (answered in the poll window) the write gate has recorded a decision for: one query."""
    recent = [t.pk for t in turns if (now - t.created_at).total_seconds() < GATE_POLL_WINDOW_SECONDS]
    if not recent:
        return set()
    rows = GateDecision.objects.filter(user_id=user.pk, source_turn__in=recent).values_list("source_turn", flat=True)
    return set(rows)


def _note(row: dict, memory: Memory | None, now, flash: dict) -> NoteView:
    note = NoteView(
        memory_id=int(row["memory_id"]),
        kind=Kind(row["kind"]).label if row.get("kind") in Kind.values else row.get("kind", ""),
        statement=row.get("statement", ""),
        noted_on=_when(row.get("written_at")),
        source_quote=row.get("source_quote") or "",
        influence=INFLUENCE.get(row.get("influence", ""), INFLUENCE["in-context"]),
    )
    if memory is None:
        note.state = "forgotten"
    elif memory.superseded_by_id is not None:
        note.state, note.replacement = "replaced", memory.superseded_by
    elif not memory.is_live(now=now):
        note.state = "expired"
    if flash.get("memory_id") == note.memory_id:
        note.state = flash.get("state", note.state)
        note.replacement = flash.get("replacement", note.replacement)
        note.draft = flash.get("draft")
        note.reason = flash.get("reason", "")
        note.errors = flash.get("errors", [])
    return note


def _turns(session: ChatSession | None) -> list[Turn]:
    if session is None:
        return []
    return list(session.turns.prefetch_related("feedback"))


def _session_url(session_id) -> str:
    return reverse("chat:session", args=[session_id])


def _page(request, *, session: ChatSession | None, status: int = 200, ask_form=None, acted=None):
    sessions = ChatSession.objects.filter(user=request.user).only("id", "title", "updated_at")[:SIDEBAR_SESSIONS]
    turns = _decorate(request.user, _turns(session), acted=acted)
    context = {
        "sessions": sessions,
        "session": session,
        "turns": turns,
        "paused": is_paused(request.user),
        "ask_url": reverse("chat:ask", args=[session.pk]) if session else reverse("chat:ask-new"),
        "ask_form": ask_form,
    }
    return render(request, "chat/conversation.html", context, status=status)


@login_required
@require_GET
def home(request):
    """A new chat: the session is created with its first question."""
    return _page(request, session=None)


def _just_forgotten(request, session: ChatSession) -> dict[int, dict]:
    """After a plain (no-JavaScript) inline forget: reopen its panel with the reasons, once."""
    try:
        memory_id = int(request.GET.get("forgotten", ""))
    except ValueError:
        return {}
    if not was_forgotten(request.user, memory_id) or forget_reason_given(request.user, memory_id):
        return {}
    turn = next((t for t in session.turns.only("id", "recalled") if memory_id in t.recalled_ids), None)
    return {turn.pk: {"memory_id": memory_id, "state": "just-forgotten"}} if turn else {}


@login_required
@require_GET
def conversation(request, session_id):
    session = get_object_or_404(ChatSession, pk=session_id, user=request.user)
    return _page(request, session=session, acted=_just_forgotten(request, session))


@login_required
@require_POST
def ask(request, session_id=None):
    session = get_object_or_404(ChatSession, pk=session_id, user=request.user) if session_id else None
    ask_url = request.path
    form = AskForm(request.POST)
    status = 400
    if form.is_valid():
        try:
            with log_step("turn"):
                turn = ask_question(
                    request.user,
                    session=session,
                    question=form.cleaned_data["question"],
                    option_id=form.cleaned_data["option"] or None,
                )
        except ValidationError as error:
            form.add_error("question", error)
        except TurnFailed as error:
            form.add_error(None, str(error))
            status = 503
        else:
            if not request.htmx:
                return redirect(_session_url(turn.session_id) + f"#turn-{turn.pk}")
            if session is None:
                return HttpResponseClientRedirect(_session_url(turn.session_id))
            turn = _decorate(request.user, [Turn.objects.prefetch_related("feedback").get(pk=turn.pk)])[0]
            html = render_to_string("chat/conversation.html#turn", {"turn": turn}, request)
            html += render_to_string("chat/conversation.html#ask-form", {"ask_url": ask_url, "oob": True}, request)
            return HttpResponse(html)
    if request.htmx:
        response = render(
            request, "chat/conversation.html#ask-form", {"ask_url": ask_url, "ask_form": form}, status=status
        )
        return reswap(retarget(response, "#ask-form"), "outerHTML")
    return _page(request, session=session, status=status, ask_form=form)


def _own_turn(request, turn_id: int) -> Turn:
    return get_object_or_404(
        Turn.objects.select_related("session").prefetch_related("feedback"), pk=turn_id, user=request.user
    )


def _turn_response(request, turn: Turn, partial: str, acted: dict, *, status: int = 200, message: str = ""):
    if request.htmx:
        turn = _decorate(request.user, [turn], acted={turn.pk: acted})[0]
        return render(request, f"chat/conversation.html#{partial}", {"turn": turn}, status=status)
    if status == 200:
        if message:
            messages.success(request, message)
        return redirect(_session_url(turn.session_id) + f"#turn-{turn.pk}")
    return _page(request, session=turn.session, status=status, acted={turn.pk: acted})


@login_required
@require_POST
def feedback(request, turn_id: int):
    turn = _own_turn(request, turn_id)
    form = FeedbackForm(request.POST)
    if form.is_valid():
        try:
            give_feedback(request.user, turn.pk, kind=form.cleaned_data["kind"], comment=form.cleaned_data["comment"])
        except ValidationError as error:
            form.add_error(None, error)
        else:
            turn = _own_turn(request, turn_id)  # fresh feedback
            return _turn_response(request, turn, "feedback", {}, message="Thanks for the feedback.")
    return _turn_response(request, turn, "feedback", {"feedback_form": form}, status=400)


def _recalled_memory(request, turn: Turn, memory_id: int) -> Memory:
    """A note this turn used that the user still owns; anything else is a 404."""
    if memory_id not in turn.recalled_ids:
        raise Http404("That note was not used for this answer.")
    return get_object_or_404(Memory, pk=memory_id, user=request.user)


@login_required
@require_POST
def forget_note(request, turn_id: int, memory_id: int):
    turn = _own_turn(request, turn_id)
    if memory_id in turn.recalled_ids and was_forgotten(request.user, memory_id):
        pass  # a double submit: already gone, the panel says so again
    else:
        forget_memory(request.user, _recalled_memory(request, turn, memory_id).pk, surface=Surface.INLINE)
    if not request.htmx:  # the plain page offers the reasons from the redirect's query
        messages.success(request, FORGOTTEN)
        return redirect(_session_url(turn.session_id) + f"?forgotten={memory_id}#turn-{turn.pk}")
    return _turn_response(request, turn, "notes-used", {"memory_id": memory_id, "state": "just-forgotten"})


@login_required
@require_POST
def forget_note_reason(request, turn_id: int, memory_id: int):
    """The optional second click under an answer: why the note was forgotten (it already is)."""
    turn = _own_turn(request, turn_id)
    form = ForgetReasonForm(request.POST)
    if memory_id not in turn.recalled_ids:
        raise Http404("That note was not used for this answer.")
    if not form.is_valid():
        return _turn_response(
            request, turn, "notes-used", {"memory_id": memory_id, "state": "just-forgotten"}, status=400
        )
    try:
        give_forget_reason(request.user, memory_id, reason=form.cleaned_data["reason"])
    except SurfaceEvent.DoesNotExist:
        raise Http404("You did not forget that note.") from None
    acted = {"memory_id": memory_id, "state": "reason-given", "reason": ForgetReason(form.cleaned_data["reason"]).label}
    return _turn_response(request, turn, "notes-used", acted, message=REASON_NOTED)


@login_required
@require_POST
def notes_viewed(request, turn_id: int):
    """The panel under an answer was opened (an htmx request on its toggle): counted, nothing shown."""
    turn = _own_turn(request, turn_id)
    record_view(request.user, surface=Surface.INLINE, notes=len(turn.recalled))
    return HttpResponse(status=204)


@login_required
@require_POST
def correct_note(request, turn_id: int, memory_id: int):
    turn = _own_turn(request, turn_id)
    memory = _recalled_memory(request, turn, memory_id)
    form = CorrectForm(request.POST)
    if form.is_valid():
        try:
            new = correct_memory(
                request.user, memory.pk, statement=form.cleaned_data["statement"], surface=Surface.INLINE
            )
        except ValidationError as error:
            form.add_error("statement", error)
        else:
            acted = {"memory_id": memory.pk, "state": "just-corrected", "replacement": new}
            return _turn_response(request, turn, "notes-used", acted, message=CORRECTED)
    errors = [str(e) for e in form.errors.get("statement", [])] or ["Write the note as Atlas should keep it."]
    acted = {"memory_id": memory.pk, "draft": request.POST.get("statement", ""), "errors": errors}
    return _turn_response(request, turn, "notes-used", acted, status=400)


@login_required
@require_GET
def gate_status(request, turn_id: int):
    """The turn's "Memory updated" lines (htmx polls this until the gate has decided)."""
    turn = _own_turn(request, turn_id)
    try:
        turn.poll = max(0, min(int(request.GET.get("poll", "0")), GATE_POLLS))
    except ValueError:
        turn.poll = GATE_POLLS
    turn = _decorate(request.user, [turn])[0]
    return render(request, "chat/conversation.html#memory-updates", {"turn": turn})
