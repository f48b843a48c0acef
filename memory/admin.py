"""Django admin for staff: review memories, gate decisions, suppressions and the audit log.

Memory tables are under Row Level Security, so an admin page sees other users' rows only
inside ``staff_bypass``, which writes an audit entry; opening memory content writes a
``staff-viewed`` entry as well. Nothing is edited here: the one action, forget, goes
through ``memory.store.forget_memory`` (delete + suppression + audit).
"""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta
from typing import Any, ClassVar

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest
from django.template.response import TemplateResponse
from django.urls import URLPattern, path
from django.utils import timezone

from atlas.admin import GuardedAdmin, ReadOnlyAdmin, StaffBypassAdmin, audit_staff_view, preview
from memory import report, store
from memory.models import (
    LIFECYCLE_COLUMNS,
    NOTE_COLUMNS,
    AuditEvent,
    ForgetReason,
    GateDecision,
    Memory,
    Suppression,
    Surface,
    SurfaceEvent,
)
from memory.preferences import GLOBAL, statement_for
from memory.rls import staff_bypass


class LiveFilter(admin.SimpleListFilter):
    title = "state"
    parameter_name = "state"

    def lookups(self, request: HttpRequest, model_admin: admin.ModelAdmin[Any]) -> list[tuple[str, str]]:
        return [("live", "Live"), ("superseded", "Superseded"), ("expired", "Expired")]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any] | None:
        from django.utils import timezone

        if self.value() == "live":
            return queryset.live()  # type: ignore[attr-defined]  # Memory's LiveQuerySet; the filter is on its admin only
        if self.value() == "superseded":
            return queryset.filter(superseded_by__isnull=False)
        if self.value() == "expired":
            return queryset.filter(expires_at__lte=timezone.now())
        return queryset


@admin.register(Memory)
class MemoryAdmin(StaffBypassAdmin, ReadOnlyAdmin):
    list_display = [
        "id",
        "user",
        "kind",
        "statement_preview",
        "author",
        "gate",
        "created_at",
        "expires_at",
        "superseded_by",
        "quote_preview",
    ]
    list_filter = [LiveFilter, "kind", "author", "gate"]
    search_fields = ["statement", "source_quote", "user__username", "=source_session"]
    list_select_related = ["user"]
    date_hierarchy = "created_at"
    # The embedding and the search vector are never shown.
    fields: ClassVar[tuple[str, ...]] = (
        "user",
        *NOTE_COLUMNS,
        "facets",
        "preference_reading",
        "applied_to_answers",
        "used_count",
        "last_used_at",
        "gate_version",
        *LIFECYCLE_COLUMNS,
        "source_session",
        "source_turn",
        "source_quote",
        "source_at",
    )
    readonly_fields = fields
    actions = ["forget_with_suppression"]

    def get_queryset(self, request: HttpRequest) -> QuerySet[Memory]:
        return super().get_queryset(request).defer("embedding", "search")

    @admin.display(description="statement")
    def statement_preview(self, memory: Memory) -> str:
        return preview(memory.statement)

    @admin.display(description="provenance quote")
    def quote_preview(self, memory: Memory) -> str:
        return preview(memory.source_quote)

    @admin.display(description="what the preference table reads in its facets")
    def preference_reading(self, memory: Memory) -> str:
        return statement_for(memory.facets, memory.scope or GLOBAL) if memory.facets else "—"

    @admin.display(description="applied to answers")
    def applied_to_answers(self, memory: Memory) -> str:
        return memory.application or ("yes" if memory.facets else "—")

    audit_fields = ("user_id", "kind")
    audit_memory_field = "id"

    def audit_opened(self, request: HttpRequest, opened: Memory) -> None:
        audit_staff_view(request, user_id=opened.user_id, what="memory detail", kind=opened.kind, memory_id=opened.pk)

    def has_forget_permission(self, request: HttpRequest) -> bool:
        return request.user.has_perm("memory.delete_memory")

    @admin.action(description="Forget (with suppression)", permissions=["forget"])
    def forget_with_suppression(self, request: HttpRequest, queryset: QuerySet[Any]) -> None:
        forgotten = 0
        for memory in list(queryset.select_related("user").only("id", "user")):
            try:
                with transaction.atomic():
                    store.forget_memory(memory.user, memory.pk, surface=Surface.ADMIN)
                    # Who did it: the forget's own audit entry holds codes only.
                    audit_staff_view(request, user_id=memory.user_id, what="forget via admin", memory_id=memory.pk)
            except Memory.DoesNotExist:
                continue  # already gone with a newer version it was replaced by
            forgotten += 1
        self.message_user(request, f"Forgot {forgotten} memories; each is suppressed for 365 days.", messages.SUCCESS)


@admin.register(GateDecision)
class GateDecisionAdmin(StaffBypassAdmin, ReadOnlyAdmin):
    """What the gate admitted or refused and why: filter by reason code and sample for precision."""

    list_display = ["id", "user", "rule", "kind", "admitted", "reason", "statement_preview", "created_at"]
    list_filter = ["admitted", "reason", "rule", "kind", "gate_version"]
    search_fields = ["statement", "source_quote", "user__username"]
    list_select_related = ["user"]
    date_hierarchy = "created_at"
    readonly_fields: ClassVar[tuple[str, ...]] = (
        "user",
        "rule",
        "kind",
        "admitted",
        "reason",
        "statement",
        "source_quote",
        "source_session",
        "source_turn",
        "memory",
        "gate_version",
        "read_as",
        "created_at",
    )
    fields = readonly_fields

    @admin.display(description="statement")
    def statement_preview(self, decision: GateDecision) -> str:
        return preview(decision.statement or decision.source_quote)

    audit_fields = ("user_id", "memory_id")
    audit_memory_field = "memory_id"

    def audit_opened(self, request: HttpRequest, opened: GateDecision) -> None:
        audit_staff_view(request, user_id=opened.user_id, what=f"gate decision {opened.pk}", memory_id=opened.memory_id)


@admin.register(Suppression)
class SuppressionAdmin(StaffBypassAdmin, ReadOnlyAdmin):
    list_display = ["id", "user", "kind", "created_at", "expires_at"]
    list_filter = ["kind"]
    search_fields = ["user__username"]
    list_select_related = ["user"]
    fields: ClassVar[tuple[str, ...]] = ("user", "kind", "statement_hash", "content_hashes", "created_at", "expires_at")
    readonly_fields = fields

    def get_queryset(self, request: HttpRequest) -> QuerySet[Suppression]:
        return super().get_queryset(request).defer("embedding")


@admin.register(AuditEvent)
class AuditEventAdmin(GuardedAdmin, ReadOnlyAdmin):
    list_display: tuple[str, ...] = ("at", "action", "user_id", "actor_id", "kind", "memory_id", "reason")
    list_filter = ["action", "kind"]
    search_fields = ["=user_id", "=actor_id", "=memory_id", "reason"]
    date_hierarchy = "at"
    fields = list_display
    readonly_fields = fields


def _unregister_task_admin() -> None:
    """django-q2's task pages show task arguments and results to staff without an audit entry.

    Gate tasks carry ids only now, but the pages add nothing staff need: they are removed.
    The schedules page stays (schedules hold no user data).
    """
    from django_q.models import Failure, OrmQ, Success

    for model in (Success, Failure, OrmQ):
        if admin.site.is_registered(model):
            admin.site.unregister(model)


_unregister_task_admin()


class ReportPeriodForm(forms.Form):
    """The report's period: the last 7, 30 or 90 days, all time, or from/until dates (UTC days)."""

    PERIODS = {"7": 7, "30": 30, "90": 90, "all": None}

    period = forms.ChoiceField(
        choices=[("7", "7 days"), ("30", "30 days"), ("90", "90 days"), ("all", "All time")],
        required=False,
        initial="all",
    )
    since = forms.DateField(required=False, label="From", widget=forms.DateInput(attrs={"type": "date"}))
    until = forms.DateField(required=False, label="Until (excluded)", widget=forms.DateInput(attrs={"type": "date"}))

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("since") and data.get("until") and data["since"] >= data["until"]:
            raise forms.ValidationError("The start must be before the end.")
        return data

    def bounds(self, *, now: datetime) -> tuple[datetime | None, datetime | None]:
        data = self.cleaned_data if self.is_bound else {}
        if data.get("since") or data.get("until"):
            return _midnight(data.get("since")), _midnight(data.get("until"))
        days = self.PERIODS[data.get("period") or "all"]
        return (now - timedelta(days=days) if days else None), None


def _midnight(day: date | None) -> datetime | None:
    return datetime.combine(day, time.min, tzinfo=UTC) if day else None


@admin.register(SurfaceEvent)
class SurfaceEventAdmin(StaffBypassAdmin, ReadOnlyAdmin):
    """Views, forgets and corrections with their surface (codes only), and the two-surfaces report."""

    audit_memory_field = "memory_id"

    list_display = ["at", "action", "surface", "user", "kind", "forget_reason", "rule", "rule_reason", "note_age_days"]
    list_filter = ["action", "surface", "forget_reason", "kind", "rule"]
    search_fields = ["user__username", "=memory_id"]
    list_select_related = ["user"]
    date_hierarchy = "at"
    fields: ClassVar[tuple[str, ...]] = (
        "user",
        "action",
        "surface",
        "notes",
        "memory_id",
        "kind",
        "forget_reason",
        "rule",
        "rule_reason",
        "gate_version",
        "note_written_at",
        "note_age_days",
        "at",
    )
    readonly_fields = fields

    def get_urls(self) -> list[URLPattern]:
        view = self.admin_site.admin_view(self.surfaces_report_view)
        return [path("report/", view, name="memory_surfaceevent_report"), *super().get_urls()]

    def surfaces_report_view(self, request: HttpRequest) -> HttpResponse:
        if not self.has_view_permission(request):
            raise PermissionDenied
        form = ReportPeriodForm(request.GET or None)
        if request.GET and not form.is_valid():
            return HttpResponseBadRequest("Choose a period, or dates as YYYY-MM-DD with the start before the end.")
        since, until = form.bounds(now=timezone.now())
        with staff_bypass(actor_id=request.user.pk, reason="admin: two-surfaces report"):
            result = report.surfaces_report(since=since, until=until)
        context = {
            **self.admin_site.each_context(request),
            "title": "What people delete, and where: the two-surfaces report",
            "opts": self.opts,
            "report": result,
            "charts": report.render_charts(result),
            "form": form,
            "reason_labels": [label for _, label in ForgetReason.choices],
        }
        return TemplateResponse(request, "admin/memory/surfaces_report.html", context)
