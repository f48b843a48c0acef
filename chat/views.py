"""The chat page: sessions, the conversation, the answer with its "Used N notes" panel.

Views stay thin: load the owner's rows (another user's id is a 404), call one domain
function (chat.turn.ask, chat.feedback.give_feedback, memory.store.forget_memory /
correct_memory), then render the partial that changed (htmx) or redirect (plain form post).
"""

from __future__ import annotations

import uuid
from typing import TYPE_CHECKING

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import HttpResponseClientRedirect, reswap, retarget

from atlas import sentences
from atlas.logcontext import log_step
from atlas.stages import stage
from chat.feedback import give_feedback
from chat.forms import AskForm, FeedbackForm
from chat.models import ChatSession, Turn
from chat.presenters import GATE_POLLS, turn_views
from chat.turn import ConversationDeleted, TurnFailed
from chat.turn import ask as ask_question
from memory.forms import CorrectForm, ForgetReasonForm
from memory.models import ForgetReason, Memory, Surface, SurfaceEvent
from memory.selectors import is_paused, was_forgotten
from memory.store import correct_memory, forget_memory
from memory.surfaces import forget_reason_given, give_forget_reason, record_view

if TYPE_CHECKING:
    from atlas.types import AuthedHttpRequest

SIDEBAR_SESSIONS = 30


def _turns(session: ChatSession | None) -> list[Turn]:
    if session is None:
        return []
    return list(session.turns.prefetch_related("feedback"))


def _session_url(session_id: uuid.UUID) -> str:
    return reverse("chat:session", args=[session_id])


def _page(
    request: AuthedHttpRequest,
    *,
    session: ChatSession | None,
    status: int = 200,
    ask_form: AskForm | None = None,
    acted: dict[int, dict] | None = None,
) -> HttpResponse:
    sessions = ChatSession.objects.filter(user=request.user).only("id", "title", "updated_at")[:SIDEBAR_SESSIONS]
    turns = turn_views(request.user, _turns(session), acted=acted)
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
def home(request: AuthedHttpRequest) -> HttpResponse:
    """A new chat: the session is created with its first question."""
    return _page(request, session=None)


def _just_forgotten(request: AuthedHttpRequest, session: ChatSession) -> dict[int, dict]:
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
def conversation(request: AuthedHttpRequest, session_id: uuid.UUID) -> HttpResponse:
    session = get_object_or_404(ChatSession, pk=session_id, user=request.user)
    return _page(request, session=session, acted=_just_forgotten(request, session))


@login_required
@require_POST
def ask(request: AuthedHttpRequest, session_id: uuid.UUID | None = None) -> HttpResponse:

    session = get_object_or_404(ChatSession, pk=session_id, user=request.user) if session_id else None
    ask_url = request.path
    form = AskForm(request.POST)
    status = 400
    if form.is_valid():
        try:
            with log_step("turn"), stage("turn"):
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
        except ConversationDeleted as error:
            # Deleted while the turn waited: the question stays in the form, and asking again
            # starts a new conversation.
            form.add_error(None, str(error))
            status, session, ask_url = 409, None, reverse("chat:ask-new")
        else:
            if not request.htmx:
                return redirect(_session_url(turn.session_id) + f"#turn-{turn.pk}")
            if session is None:
                return HttpResponseClientRedirect(_session_url(turn.session_id))
            view = turn_views(request.user, [Turn.objects.prefetch_related("feedback").get(pk=turn.pk)])[0]
            html = render_to_string("chat/conversation.html#turn", {"turn": view}, request)
            html += render_to_string("chat/conversation.html#ask-form", {"ask_url": ask_url, "oob": True}, request)
            return HttpResponse(html)
    if request.htmx:
        response = render(
            request, "chat/conversation.html#ask-form", {"ask_url": ask_url, "ask_form": form}, status=status
        )
        return reswap(retarget(response, "#ask-form"), "outerHTML")
    return _page(request, session=session, status=status, ask_form=form)


def _own_turn(request: AuthedHttpRequest, turn_id: int) -> Turn:
    return get_object_or_404(
        Turn.objects.select_related("session").prefetch_related("feedback"), pk=turn_id, user=request.user
    )


def _turn_response(
    request: AuthedHttpRequest, turn: Turn, partial: str, acted: dict, *, status: int = 200, message: str = ""
) -> HttpResponse:
    if request.htmx:
        view = turn_views(request.user, [turn], acted={turn.pk: acted})[0]
        return render(request, f"chat/conversation.html#{partial}", {"turn": view}, status=status)
    if status == 200:
        if message:
            messages.success(request, message)
        return redirect(_session_url(turn.session_id) + f"#turn-{turn.pk}")
    return _page(request, session=turn.session, status=status, acted={turn.pk: acted})


@login_required
@require_POST
def feedback(request: AuthedHttpRequest, turn_id: int) -> HttpResponse:
    turn = _own_turn(request, turn_id)
    form = FeedbackForm(request.POST)
    if form.is_valid():
        try:
            give_feedback(request.user, turn.pk, kind=form.cleaned_data["kind"], comment=form.cleaned_data["comment"])
        except ValidationError as error:
            form.add_error(None, error)
        else:
            turn = _own_turn(request, turn_id)  # fresh feedback
            return _turn_response(request, turn, "feedback", {}, message=sentences.FEEDBACK_THANKS)
    return _turn_response(request, turn, "feedback", {"feedback_form": form}, status=400)


def _recalled_memory(request: AuthedHttpRequest, turn: Turn, memory_id: int) -> Memory:
    """A note this turn used that the user still owns; anything else is a 404."""
    if memory_id not in turn.recalled_ids:
        raise Http404("That note was not used for this answer.")
    return get_object_or_404(Memory, pk=memory_id, user=request.user)


@login_required
@require_POST
def forget_note(request: AuthedHttpRequest, turn_id: int, memory_id: int) -> HttpResponse:
    turn = _own_turn(request, turn_id)
    if memory_id in turn.recalled_ids and was_forgotten(request.user, memory_id):
        pass  # a double submit: already gone, the panel says so again
    else:
        forget_memory(request.user, _recalled_memory(request, turn, memory_id).pk, surface=Surface.INLINE)
    if not request.htmx:  # the plain page offers the reasons from the redirect's query
        messages.success(request, sentences.FORGOTTEN)
        return redirect(_session_url(turn.session_id) + f"?forgotten={memory_id}#turn-{turn.pk}")
    return _turn_response(request, turn, "notes-used", {"memory_id": memory_id, "state": "just-forgotten"})


@login_required
@require_POST
def forget_note_reason(request: AuthedHttpRequest, turn_id: int, memory_id: int) -> HttpResponse:
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
    return _turn_response(request, turn, "notes-used", acted, message=sentences.REASON_NOTED)


@login_required
@require_POST
def notes_viewed(request: AuthedHttpRequest, turn_id: int) -> HttpResponse:
    """The panel under an answer was opened (an htmx request on its toggle): counted, nothing shown."""
    turn = _own_turn(request, turn_id)
    record_view(request.user, surface=Surface.INLINE, notes=len(turn.recalled))
    return HttpResponse(status=204)


@login_required
@require_POST
def correct_note(request: AuthedHttpRequest, turn_id: int, memory_id: int) -> HttpResponse:
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
            return _turn_response(request, turn, "notes-used", acted, message=sentences.CORRECTED)
    errors = [str(e) for e in form.errors.get("statement", [])] or [sentences.CORRECTION_NEEDED]
    acted = {"memory_id": memory.pk, "draft": request.POST.get("statement", ""), "errors": errors}
    return _turn_response(request, turn, "notes-used", acted, status=400)


@login_required
@require_GET
def gate_status(request: AuthedHttpRequest, turn_id: int) -> HttpResponse:
    """The turn's "Memory updated" lines (htmx polls this until the gate has decided)."""
    turn = _own_turn(request, turn_id)
    try:
        poll = max(0, min(int(request.GET.get("poll", "0")), GATE_POLLS))
    except ValueError:
        poll = GATE_POLLS
    view = turn_views(request.user, [turn], poll=poll)[0]
    return render(request, "chat/conversation.html#memory-updates", {"turn": view})
