"""The memory page and its controls: read through memory.selectors, change through one
memory.store function, render.

Every change is a POST; with htmx it answers with the partial it changed, without
JavaScript it redirects back to the page with a message (design rule: two surfaces: the page exists for
"what does it know about me", export and delete everything).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Prefetch
from django.http import Http404, HttpResponse, HttpResponseBadRequest
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.http import content_disposition_header
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import HttpResponseClientRedirect

from atlas import sentences
from memory import selectors, store, surfaces
from memory.forms import CorrectForm, DeleteEverythingForm, ExportForm, ForgetReasonForm, PauseForm
from memory.models import ForgetReason, Memory, Surface, SurfaceEvent

if TYPE_CHECKING:
    from atlas.types import AuthedHttpRequest


def _just_forgotten(request: AuthedHttpRequest) -> int | None:
    """The note a plain (no-JavaScript) forget just removed, while its reason is still open."""
    try:
        memory_id = int(request.GET.get("forgotten", ""))
    except ValueError:
        return None
    if not selectors.was_forgotten(request.user, memory_id) or surfaces.forget_reason_given(request.user, memory_id):
        return None
    return memory_id


@login_required
@require_GET
def memory_page(request: AuthedHttpRequest) -> HttpResponse:
    # Each note with the notes it replaced (one more query), so the page shows what was updated.
    older = Prefetch("supersedes", queryset=Memory.objects.defer("embedding").order_by("-created_at"))
    memories = list(selectors.live_memories(request.user).defer("embedding").prefetch_related(older))
    surfaces.record_view(request.user, surface=Surface.PAGE, notes=len(memories))
    context = {
        "groups": selectors.grouped_by_kind(memories),
        "paused": selectors.is_paused(request.user),
        "forgotten_id": _just_forgotten(request),
        "forget_reasons": ForgetReason.choices,
    }
    return render(request, "memory/page.html", context)


@login_required
@require_POST
def forget(request: AuthedHttpRequest, pk: int) -> HttpResponse:
    try:
        memory = selectors.own_memory(request.user, pk)
    except Memory.DoesNotExist:
        if not selectors.was_forgotten(request.user, pk):
            raise Http404("No such note.") from None
        memory = Memory(pk=pk)  # a double submit: it is already gone, say so again
    else:
        store.forget_memory(request.user, memory.pk, surface=Surface.PAGE)
    if request.htmx:
        context = {"memory": memory, "state": "forgotten", "forget_reasons": ForgetReason.choices}
        return render(request, "memory/page.html#memory-item", context)
    messages.success(request, sentences.FORGOTTEN)
    return redirect(reverse("memory:page") + f"?forgotten={memory.pk}#forget-reason")


@login_required
@require_POST
def forget_reason(request: AuthedHttpRequest, pk: int) -> HttpResponse:
    """The optional second click: why the note was forgotten (it already is)."""
    form = ForgetReasonForm(request.POST)
    if not form.is_valid():
        return HttpResponseBadRequest("Choose one of the reasons.")
    try:
        surfaces.give_forget_reason(request.user, pk, reason=form.cleaned_data["reason"])
    except SurfaceEvent.DoesNotExist:
        raise Http404("You did not forget such a note.") from None
    label = ForgetReason(form.cleaned_data["reason"]).label
    if request.htmx:
        context = {"memory": Memory(pk=pk), "state": "reason-given", "reason_label": label}
        return render(request, "memory/page.html#memory-item", context)
    messages.success(request, sentences.REASON_NOTED)
    return redirect("memory:page")


@login_required
@require_POST
def correct(request: AuthedHttpRequest, pk: int) -> HttpResponse:
    try:
        memory = selectors.own_memory(request.user, pk, live=True)
    except Memory.DoesNotExist:
        raise Http404("No such note.") from None
    form = CorrectForm(request.POST)
    if form.is_valid():
        try:
            new = store.correct_memory(
                request.user, memory.pk, statement=form.cleaned_data["statement"], surface=Surface.PAGE
            )
        except ValidationError as error:
            form.add_error("statement", error)
        else:
            if request.htmx:
                return render(request, "memory/page.html#memory-item", {"memory": new, "state": "corrected"})
            messages.success(request, sentences.CORRECTED)
            return redirect(reverse("memory:page") + f"#memory-{new.pk}")
    context = {"memory": memory, "correct_form": form, "open_correct": True}
    if request.htmx:
        return render(request, "memory/page.html#memory-item", context, status=400)
    return render(request, "memory/correct.html", context, status=400)


@login_required
@require_POST
def export(request: AuthedHttpRequest) -> HttpResponse:
    form = ExportForm(request.POST)
    if not form.is_valid():
        return HttpResponseBadRequest("Choose an export format: json or text.")
    fmt = form.cleaned_data["fmt"]
    body = store.export_memories(request.user, fmt=fmt)
    extension, content_type = ("json", "application/json") if fmt == "json" else ("txt", "text/plain; charset=utf-8")
    response = HttpResponse(body, content_type=content_type)
    filename = f"atlas-memory-{timezone.localdate():%Y-%m-%d}.{extension}"
    response["Content-Disposition"] = content_disposition_header(True, filename)
    return response


@login_required
@require_POST
def pause(request: AuthedHttpRequest) -> HttpResponse:
    form = PauseForm(request.POST)
    form.is_valid()  # a missing or false value means "resume": the form cannot be invalid.
    paused = bool(form.cleaned_data.get("paused"))
    store.set_paused(request.user, paused=paused)
    if request.htmx:
        return render(request, "memory/page.html#memory-control", {"paused": paused, "changed": True})
    messages.success(request, sentences.MEMORY_PAUSED if paused else sentences.MEMORY_RESUMED)
    return redirect("memory:page")


@login_required
@require_http_methods(["GET", "POST"])
def delete_everything(request: AuthedHttpRequest) -> HttpResponse:
    """One confirmation step, then a hard delete (design rule: two surfaces: no soft delete)."""
    form = DeleteEverythingForm(request.POST if request.method == "POST" else None)
    if request.method == "POST" and form.is_valid():
        with transaction.atomic():
            store.delete_everything(request.user)
            if form.cleaned_data["pause"]:
                store.set_paused(request.user, paused=True)
        note = sentences.EVERYTHING_DELETED_PAUSED if form.cleaned_data["pause"] else ""
        messages.success(request, sentences.EVERYTHING_DELETED + note)
        if request.htmx:
            return HttpResponseClientRedirect(reverse("memory:page"))
        return redirect("memory:page")
    count = selectors.live_memories(request.user).count()
    return render(request, "memory/delete_everything.html", {"form": form, "count": count})
