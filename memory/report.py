"""The two-surfaces report: what people delete, and where (design rule: two surfaces), for our own data.

Three tables over a chosen period:

- actions by surface: memories viewed, forgotten and corrected via the page, inline under an
  answer, the API and the conversation, with the inline share and its 95% interval (the
  chapter: inline was 85% of deletions and 92% of corrections);
- forget reasons: the share of each of the four reasons among forgets that got one, with 95%
  Wilson intervals, and how many forgets got no reason (it is optional);
- forget rate by gate rule: of the notes each rule (and reason code) wrote in the period, how
  many were forgotten within 30 days of being written, with the reasons given. A rule whose
  interval lies wholly above the overall rate stands out: it writes notes users throw away.

The counts come from ``SurfaceEvent`` and ``GateDecision``, both under RLS and both deleted
with a user's delete-everything, so nothing here counts a deleted user. Plain functions over
all users' rows: callers run them inside ``memory.rls.staff_bypass`` (the admin page does).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db.models import Count, F, QuerySet, Sum
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from atlas.stats import Rate, rate
from memory.models import ForgetReason, GateDecision, Surface, SurfaceEvent
from memory.surfaces import NOT_A_WRITE

# The window for "forgotten soon after it was written".
FORGET_WINDOW = timedelta(days=30)
# The reasons in the chapter's words (the buttons use the user's words).
REASON_HEADINGS = {
    ForgetReason.OVER_GENERALISED: "Over-generalised from one instance",
    ForgetReason.NO_LONGER_TRUE: "True once, no longer true",
    ForgetReason.UNWANTED: "Correct but unwanted (stop tracking that)",
    ForgetReason.NEVER_TRUE: "Never true",
}
ACTION_ROWS = [
    ("opened", "Times the notes were opened"),
    ("viewed", "Memories viewed"),
    ("forgotten", "Memories forgotten"),
    ("corrected", "Memories corrected"),
]


@dataclass(frozen=True)
class ActionRow:
    key: str
    label: str
    by_surface: list[int]  # in the order of SurfacesReport.surfaces
    total: int
    inline: Rate  # inline share of all surfaces


@dataclass(frozen=True)
class ReasonRow:
    reason: str
    label: str
    heading: str
    share: Rate  # of forgets that got a reason


@dataclass(frozen=True)
class RuleRow:
    rule: str
    rule_reason: str
    written: int
    forgotten: Rate  # within 30 days, of notes written; rate None when nothing written is known
    by_reason: list[int]  # forgets per reason, in ForgetReason order, then "none given"
    stands_out: bool

    @property
    def label(self) -> str:
        return f"{self.rule} · {self.rule_reason}" if self.rule_reason else self.rule


@dataclass(frozen=True)
class SurfacesReport:
    since: datetime | None
    until: datetime | None
    surfaces: list[tuple[str, str]]
    actions: list[ActionRow]
    reasons: list[ReasonRow]
    forgets: int
    no_reason: int
    rules: list[RuleRow]
    overall_forget_rate: Rate

    @property
    def with_reason(self) -> int:
        return self.forgets - self.no_reason


def _in_period(queryset: QuerySet, field: str, since: datetime | None, until: datetime | None) -> QuerySet:
    if since is not None:
        queryset = queryset.filter(**{f"{field}__gte": since})
    if until is not None:
        queryset = queryset.filter(**{f"{field}__lt": until})
    return queryset


def _bounded_rate(count: int, total: int) -> Rate:
    """A rate, or none when the numerator outgrows what is known of the denominator."""
    if count > total:
        return Rate(count=count, total=total, rate=None, low=None, high=None)
    return rate(count, total)


def _actions(events: QuerySet) -> list[ActionRow]:
    counts: dict[tuple[str, str], int] = defaultdict(int)
    rows = events.order_by().values("action", "surface").annotate(n=Count("id"), notes=Sum("notes"))
    for row in rows:
        if row["action"] == SurfaceEvent.Action.VIEWED:
            counts[("opened", row["surface"])] += row["n"]
            counts[("viewed", row["surface"])] += row["notes"] or 0
        else:
            counts[(row["action"], row["surface"])] += row["n"]
    result = []
    for key, label in ACTION_ROWS:
        by_surface = [counts[(key, surface)] for surface in Surface.values]
        total = sum(by_surface)
        result.append(ActionRow(key, label, by_surface, total, rate(counts[(key, Surface.INLINE)], total)))
    return result


def _reasons(forgets: QuerySet) -> tuple[list[ReasonRow], int, int]:
    counts = dict(forgets.order_by().values_list("forget_reason").annotate(n=Count("id")))
    with_reason = sum(n for reason, n in counts.items() if reason)
    rows = [
        ReasonRow(value, label, REASON_HEADINGS[ForgetReason(value)], rate(counts.get(value, 0), with_reason))
        for value, label in ForgetReason.choices
    ]
    return rows, sum(counts.values()), counts.get("", 0)


def _rules(since: datetime | None, until: datetime | None) -> tuple[list[RuleRow], Rate]:
    writes = GateDecision.objects.filter(admitted=True).exclude(reason__in=NOT_A_WRITE)
    written = {
        (rule, reason): n
        for rule, reason, n in _in_period(writes, "created_at", since, until)
        .order_by()
        .values_list("rule", "reason")
        .annotate(n=Count("id"))
    }
    soon = SurfaceEvent.objects.filter(
        action=SurfaceEvent.Action.FORGOTTEN, at__lte=F("note_written_at") + FORGET_WINDOW
    )
    forgotten: dict[tuple[str, str], dict[str, int]] = defaultdict(dict)
    for rule, reason, forget_reason, n in (
        _in_period(soon, "note_written_at", since, until)
        .order_by()
        .values_list("rule", "rule_reason", "forget_reason")
        .annotate(n=Count("id"))
    ):
        forgotten[(rule, reason)][forget_reason] = n
    total_written = sum(written.values())
    total_forgotten = sum(sum(by.values()) for key, by in forgotten.items() if key in written)
    overall = _bounded_rate(total_forgotten, total_written)
    rows = []
    for key in sorted(set(written) | set(forgotten)):
        by = forgotten.get(key, {})
        share = _bounded_rate(sum(by.values()), written.get(key, 0))
        stands_out = share.low is not None and overall.rate is not None and share.low > overall.rate
        by_reason = [by.get(value, 0) for value in ForgetReason.values] + [by.get("", 0)]
        rows.append(RuleRow(key[0], key[1], written.get(key, 0), share, by_reason, stands_out))
    rows.sort(key=lambda row: (row.forgotten.rate is None, -(row.forgotten.rate or 0), -row.written))
    return rows, overall


def surfaces_report(*, since: datetime | None = None, until: datetime | None = None) -> SurfacesReport:
    """The two-surfaces tables and the forget rate by gate rule, for ``[since, until)``."""
    events = _in_period(SurfaceEvent.objects.all(), "at", since, until)
    reasons, forgets, no_reason = _reasons(events.filter(action=SurfaceEvent.Action.FORGOTTEN))
    rules, overall = _rules(since, until)
    return SurfacesReport(
        since=since,
        until=until,
        surfaces=list(Surface.choices),
        actions=_actions(events),
        reasons=reasons,
        forgets=forgets,
        no_reason=no_reason,
        rules=rules,
        overall_forget_rate=overall,
    )


# --- Charts: server-rendered SVG, presentation attributes only (the CSP has no inline styles).

CHART_WIDTH = 640
_LABEL_W, _RIGHT, _TOP, _ROW_H = 250, 70, 28, 30
BAR_COLOUR = "#2b6cb0"
HIGHLIGHT_COLOUR = "#c53030"


def render_bars_svg(title: str, rows: list[tuple[str, Rate, bool]], *, chart_id: str) -> SafeString:
    """Horizontal bars (one per label) with 95% CI whiskers; ``True`` in a row draws it in red."""
    plot_w = CHART_WIDTH - _LABEL_W - _RIGHT
    height = _TOP + _ROW_H * max(1, len(rows)) + 30

    def x(value: float) -> float:
        return _LABEL_W + plot_w * value

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {CHART_WIDTH} {height}" width="{CHART_WIDTH}" '
        f'height="{height}" role="img" aria-labelledby="{chart_id}-title" id="{chart_id}">',
        f'<title id="{chart_id}-title">{escape(title)}</title>',
        f'<text x="8" y="16" font-size="12" fill="#1a202c">{escape(title)}</text>',
    ]
    bottom = height - 30
    for tick in (0, 0.25, 0.5, 0.75, 1.0):
        tx = x(tick)
        parts.append(f'<line x1="{tx:.1f}" y1="{_TOP - 4}" x2="{tx:.1f}" y2="{bottom}" stroke="#e2e8f0" />')
        parts.append(
            f'<text x="{tx:.1f}" y="{bottom + 14}" text-anchor="middle" font-size="10" fill="#4a5568">'
            f"{int(tick * 100)}%</text>"
        )
    if not rows:
        parts.append(f'<text x="{_LABEL_W}" y="{_TOP + 18}" font-size="11" fill="#4a5568">no data</text>')
    for index, (label, share, highlight) in enumerate(rows):
        parts.extend(_bar(index, label, share, highlight, x))
    parts.append("</svg>")
    return mark_safe("".join(parts))  # noqa: S308 - every text node is escaped


def _bar(index: int, label: str, share: Rate, highlight: bool, x: Callable[[float], float]) -> list[str]:
    top = _TOP + _ROW_H * index
    mid = top + _ROW_H / 2
    parts = [
        f'<text x="{_LABEL_W - 8}" y="{mid + 4:.1f}" text-anchor="end" font-size="11" fill="#1a202c">'
        f"{escape(label)}</text>"
    ]
    if share.rate is None:
        parts.append(f'<text x="{_LABEL_W + 4}" y="{mid + 4:.1f}" font-size="11" fill="#4a5568">no data</text>')
        return parts
    colour = HIGHLIGHT_COLOUR if highlight else BAR_COLOUR
    parts.append(
        f'<rect x="{_LABEL_W}" y="{top + 6:.1f}" width="{x(share.rate) - _LABEL_W:.1f}" height="{_ROW_H - 12}" '
        f'fill="{colour}"><title>{escape(label)}: {share.percent} ({share.count}/{share.total}; '
        f"95% CI {share.interval})</title></rect>"
    )
    low, high = x(share.low or 0.0), x(share.high or 0.0)
    parts.append(
        f'<line x1="{low:.1f}" y1="{mid:.1f}" x2="{high:.1f}" y2="{mid:.1f}" stroke="#1a202c" '
        f'stroke-width="1.5" class="ci" />'
    )
    for wx in (low, high):
        parts.append(
            f'<line x1="{wx:.1f}" y1="{mid - 5:.1f}" x2="{wx:.1f}" y2="{mid + 5:.1f}" stroke="#1a202c" '
            f'stroke-width="1.5" />'
        )
    parts.append(
        f'<text x="{max(high, x(share.rate)) + 6:.1f}" y="{mid + 4:.1f}" font-size="10" fill="#1a202c">'
        f"{share.percent}</text>"
    )
    return parts


def render_charts(report: SurfacesReport) -> SafeString:
    reasons = [(row.heading, row.share, False) for row in report.reasons]
    rules = [(row.label, row.forgotten, row.stands_out) for row in report.rules]
    return mark_safe(  # noqa: S308 - both are built from escaped parts
        render_bars_svg("Forget reasons: share of forgets with a reason (95% CI)", reasons, chart_id="reasons-chart")
        + render_bars_svg(
            "Forgotten within 30 days, by gate rule (95% CI; red: above the overall rate)",
            rules,
            chart_id="rules-chart",
        )
    )
