"""Django admin for chat: conversations read-only, and the hold-out report page (design rule: hold-out).

Conversation tables are under Row Level Security; every view runs inside the audited staff
bypass (atlas.admin.StaffBypassAdmin).
"""

from __future__ import annotations

from datetime import timedelta
from typing import ClassVar

from django.contrib import admin
from django.http import HttpRequest, HttpResponse
from django.template.response import TemplateResponse
from django.urls import URLPattern, path
from django.utils import timezone

from atlas.admin import ReadOnlyAdmin, StaffBypassAdmin, audit_staff_view
from chat import report
from chat.models import ChatSession, Feedback, Turn
from memory.rls import staff_bypass

REPORT_PERIODS = {"7": 7, "30": 30, "90": 90, "all": None}


@admin.register(ChatSession)
class ChatSessionAdmin(StaffBypassAdmin, ReadOnlyAdmin):
    list_display = ["id", "user", "title", "created_at", "updated_at"]
    search_fields = ["user__username", "title"]
    list_select_related = ["user"]
    fields: ClassVar[tuple[str, ...]] = ("id", "user", "title", "created_at", "updated_at")
    readonly_fields = fields


@admin.register(Turn)
class TurnAdmin(StaffBypassAdmin, ReadOnlyAdmin):
    list_display = ["id", "user", "kind", "question_preview", "eligible", "held_out", "followup", "created_at"]
    list_filter = ["eligible", "held_out", "followup", "kind"]
    search_fields = ["question", "user__username"]
    list_select_related = ["user"]
    date_hierarchy = "created_at"
    fields: ClassVar[tuple[str, ...]] = (
        "session",
        "user",
        "question",
        "answer",
        "kind",
        "options",
        "recalled",
        "eligible",
        "held_out",
        "followup",
        "prompt_tokens",
        "gate_message",
        "created_at",
    )
    readonly_fields = fields

    @admin.display(description="question")
    def question_preview(self, turn: Turn) -> str:
        return turn.question if len(turn.question) <= 80 else turn.question[:79] + "…"

    audit_fields = ("user_id",)

    def audit_opened(self, request: HttpRequest, opened: Turn) -> None:
        # The turn shows the notes recalled for it: memory content.
        audit_staff_view(request, user_id=opened.user_id, what=f"chat turn {opened.pk}")

    def get_urls(self) -> list[URLPattern]:
        urls = [
            path(
                "holdout-report/",
                self.admin_site.admin_view(self.holdout_report_view),
                name="chat_turn_holdout_report",
            )
        ]
        return urls + super().get_urls()

    def holdout_report_view(self, request: HttpRequest) -> HttpResponse:
        if not self.has_view_permission(request):
            from django.core.exceptions import PermissionDenied

            raise PermissionDenied
        period = request.GET.get("period", "all")
        if period not in REPORT_PERIODS:
            period = "all"
        days = REPORT_PERIODS[period]
        since = timezone.now() - timedelta(days=days) if days else None
        with staff_bypass(actor_id=request.user.pk, reason="admin: hold-out report"):
            result = report.holdout_report(since=since)
        context = {
            **self.admin_site.each_context(request),
            "title": "Does memory help? Hold-out report",
            "opts": self.opts,
            "report": result,
            "chart": report.render_chart_svg(result),
            "period": period,
            "periods": [("7", "7 days"), ("30", "30 days"), ("90", "90 days"), ("all", "All time")],
        }
        return TemplateResponse(request, "admin/chat/holdout_report.html", context)


@admin.register(Feedback)
class FeedbackAdmin(StaffBypassAdmin, ReadOnlyAdmin):
    list_display = ["id", "user", "turn", "kind", "comment", "created_at"]
    list_filter = ["kind"]
    search_fields = ["comment", "user__username"]
    list_select_related = ["user"]
    fields: ClassVar[tuple[str, ...]] = ("turn", "user", "kind", "comment", "created_at")
    readonly_fields = fields
