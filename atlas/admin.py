"""Admin infrastructure for tables under Row Level Security, shared by every app.

An admin page sees other users' rows only inside ``staff_bypass`` (audited); opening one
user's content writes a ``staff-viewed`` audit entry as well. Apps' ``ModelAdmin`` classes
mix in :class:`StaffBypassAdmin` and :class:`ReadOnlyAdmin` from here.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import Any

from django.contrib import admin
from django.core.exceptions import ValidationError
from django.db import DataError
from django.db.models import Model
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBadRequest
from django.template.response import TemplateResponse

from memory.models import AuditEvent
from memory.rls import staff_bypass

PREVIEW_CHARS = 80


def preview(text: str) -> str:
    """A long text cut to one admin cell."""
    return text if len(text) <= PREVIEW_CHARS else text[: PREVIEW_CHARS - 1] + "…"


def audit_staff_view(
    request: HttpRequest, *, user_id: int | None, what: str, kind: str = "", memory_id: int | None = None
) -> None:
    AuditEvent.objects.create(
        user_id=user_id,
        actor_id=request.user.pk,
        action=AuditEvent.Action.STAFF_VIEWED,
        kind=kind,
        memory_id=memory_id,
        reason=what[:200],
    )


def guarded(view: Callable[[], HttpResponse]) -> HttpResponse:
    """A filter or date the database cannot hold (``?created_at__year=99999999999``) is a 400."""
    try:
        return view()
    except (DataError, OverflowError, ValidationError):
        return HttpResponseBadRequest("That filter or id is not valid here; nothing was shown.")


def object_pk(object_id: Any) -> int | None:
    """An admin object id as a primary key; one that is not a number is a 404, not a 500."""
    if object_id is None:
        return None
    if not str(object_id).isdigit():
        raise Http404("No such object.")
    return int(object_id)


def rendered(response: HttpResponse) -> HttpResponse:
    """Admin responses are lazy TemplateResponses: render now (while a bypass is on)."""
    if isinstance(response, TemplateResponse) and not response.is_rendered:
        response.render()
    return response


class StaffBypassAdmin(admin.ModelAdmin):
    """Every admin view of an RLS table runs (and renders) inside an audited staff bypass."""

    def _bypass(self, request: HttpRequest, what: str) -> AbstractContextManager[None]:
        return staff_bypass(actor_id=request.user.pk, reason=f"admin: {what} {self.opts.label_lower}")

    def _in_bypass(self, request: HttpRequest, what: str, view: Callable[[], HttpResponse]) -> HttpResponse:
        def run() -> HttpResponse:
            with self._bypass(request, what):
                return rendered(view())

        return guarded(run)

    def changelist_view(self, request: HttpRequest, extra_context: dict[str, Any] | None = None) -> HttpResponse:
        return self._in_bypass(
            request, "list", lambda: super(StaffBypassAdmin, self).changelist_view(request, extra_context)
        )

    def changeform_view(
        self,
        request: HttpRequest,
        object_id: str | None = None,
        form_url: str = "",
        extra_context: dict[str, Any] | None = None,
    ) -> HttpResponse:
        object_pk(object_id)
        return self._in_bypass(
            request,
            "view",
            lambda: super(StaffBypassAdmin, self).changeform_view(request, object_id, form_url, extra_context),
        )

    def delete_view(
        self, request: HttpRequest, object_id: str, extra_context: dict[str, Any] | None = None
    ) -> HttpResponse:
        object_pk(object_id)
        return self._in_bypass(
            request, "delete", lambda: super(StaffBypassAdmin, self).delete_view(request, object_id, extra_context)
        )

    def history_view(
        self, request: HttpRequest, object_id: str, extra_context: dict[str, Any] | None = None
    ) -> HttpResponse:
        object_pk(object_id)
        return self._in_bypass(
            request, "history", lambda: super(StaffBypassAdmin, self).history_view(request, object_id, extra_context)
        )


class ReadOnlyAdmin(admin.ModelAdmin):
    def has_add_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False
