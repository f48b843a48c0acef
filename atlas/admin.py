"""Admin infrastructure for tables under Row Level Security, shared by every app.

An admin page sees other users' rows only inside ``staff_bypass`` (audited); every page that
shows user content (a list, a search, an object, its history) also writes one ``staff-viewed``
entry per row it showed, with the row's user and memory ids, so the audit says whose notes a
reviewer read. Apps' ``ModelAdmin`` classes mix in :class:`StaffBypassAdmin` and
:class:`ReadOnlyAdmin` from here.
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


class GuardedAdmin(admin.ModelAdmin):
    """Admin views that answer a filter the database cannot hold with a 400 and an object id that
    is not a number with a 404, never a 500; :class:`StaffBypassAdmin` runs them in a bypass."""

    def _run(self, request: HttpRequest, what: str, view: Callable[[], HttpResponse]) -> HttpResponse:
        return guarded(lambda: rendered(view()))

    def _opened(self, request: HttpRequest, pk: int) -> None:
        """Called before the change form of object ``pk`` is shown (the staff-viewed audit)."""

    def changelist_view(self, request: HttpRequest, extra_context: dict[str, Any] | None = None) -> HttpResponse:
        return self._run(request, "list", lambda: super(GuardedAdmin, self).changelist_view(request, extra_context))

    def changeform_view(
        self,
        request: HttpRequest,
        object_id: str | None = None,
        form_url: str = "",
        extra_context: dict[str, Any] | None = None,
    ) -> HttpResponse:
        pk = object_pk(object_id)
        if pk is not None:
            self._opened(request, pk)
        return self._run(
            request,
            "view",
            lambda: super(GuardedAdmin, self).changeform_view(request, object_id, form_url, extra_context),
        )

    def delete_view(
        self, request: HttpRequest, object_id: str, extra_context: dict[str, Any] | None = None
    ) -> HttpResponse:
        parent = super().delete_view
        return self._object_view(request, "delete", object_id, lambda: parent(request, object_id, extra_context))

    def history_view(
        self, request: HttpRequest, object_id: str, extra_context: dict[str, Any] | None = None
    ) -> HttpResponse:
        parent = super().history_view
        return self._object_view(request, "history", object_id, lambda: parent(request, object_id, extra_context))

    def _object_view(
        self, request: HttpRequest, what: str, object_id: str, view: Callable[[], HttpResponse]
    ) -> HttpResponse:
        object_pk(object_id)  # a 404 for an id that is not a number
        return self._run(request, what, view)


class StaffBypassAdmin(GuardedAdmin):
    """Every admin view of an RLS table runs (and renders) inside an audited staff bypass.

    An admin of user content names the columns its staff-viewed entry needs (``audit_fields``)
    and writes the entry in :meth:`audit_opened`; opening one object then records it.
    """

    audit_fields: tuple[str, ...] = ()
    # Whose rows a page showed: the row's user id and, for memory content, its memory id.
    audit_user_field = "user_id"
    audit_memory_field: str | None = None

    def _bypass(self, request: HttpRequest, what: str) -> AbstractContextManager[None]:
        return staff_bypass(actor_id=request.user.pk, reason=f"admin: {what} {self.opts.label_lower}")

    def _run(self, request: HttpRequest, what: str, view: Callable[[], HttpResponse]) -> HttpResponse:
        def run() -> HttpResponse:
            with self._bypass(request, what):
                response = rendered(view())
                if request.method == "GET" and response.status_code == 200:
                    self._audit_shown(request, what, response)
                return response

        return guarded(run)

    def _audit_shown(self, request: HttpRequest, what: str, response: HttpResponse) -> None:
        """One staff-viewed entry per row the page showed (list, search, history; an object's
        own page when its admin writes no entry of its own in :meth:`audit_opened`)."""
        context = getattr(response, "context_data", None) or {}
        if what == "list" and context.get("cl") is not None:
            rows = list(context["cl"].result_list)
        elif what == "history" and context.get("object") is not None:
            rows = [context["object"]]
        elif what == "view" and not self.audit_fields and context.get("original") is not None:
            rows = [context["original"]]
        else:
            return
        reason = f"admin {what}: {self.opts.label_lower}"
        AuditEvent.objects.bulk_create(
            [
                AuditEvent(
                    user_id=getattr(row, self.audit_user_field, None),
                    actor_id=request.user.pk,
                    action=AuditEvent.Action.STAFF_VIEWED,
                    memory_id=getattr(row, self.audit_memory_field, None) if self.audit_memory_field else None,
                    reason=reason,
                )
                for row in rows
            ]
        )

    def _opened(self, request: HttpRequest, pk: int) -> None:
        if not self.audit_fields:
            return
        with self._bypass(request, "view"):
            opened = self.model._default_manager.filter(pk=pk).only(*self.audit_fields).first()
        if opened is not None:
            self.audit_opened(request, opened)

    def audit_opened(self, request: HttpRequest, opened: Any) -> None:
        """Write the staff-viewed entry for ``opened`` (loaded with ``audit_fields`` only)."""


class ReadOnlyAdmin(admin.ModelAdmin):
    def has_add_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False
