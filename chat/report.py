"""The hold-out report: does memory help? (design rule: hold-out)

Memory is held out on a share of *eligible* turns (recall returned at least one note);
comparing those with the eligible turns that used memory is the only honest number,
because across all turns the effect is diluted into noise. For each arm:

- answers rated helpful: of the turns that got a rating, the share rated helpful;
- follow-up needed: of all eligible turns, the share whose next question stayed on the
  same focus (``Turn.followup``);
- wrong answers traced to a memory: of all eligible turns, the share marked wrong
  (feedback "incorrect") whose turn used a memory. Held-out turns used none, so their
  rate is 0 by construction, as in the chapter's table.

Each rate comes with a 95% Wilson score interval, which stays inside 0..1 and behaves
at small counts and at 0% (where the normal approximation collapses to a zero width).

These are plain functions over all users' turns: callers run them inside
``memory.rls.staff_bypass`` (the admin page does), which is audited.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db.models import Count, OuterRef, Q, Subquery
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from atlas.stats import Z_95, Rate, rate, wilson_interval
from chat.models import Feedback, Turn

__all__ = ["Z_95", "Rate", "rate", "wilson_interval", "holdout_report", "render_chart_svg"]


@dataclass(frozen=True)
class Arm:
    label: str
    turns: int
    rated: int
    helpful: Rate
    followup: Rate
    wrong_from_memory: Rate


@dataclass(frozen=True)
class Metric:
    key: str
    label: str
    with_memory: Rate
    held_out: Rate

    @property
    def difference_points(self) -> float | None:
        if self.with_memory.rate is None or self.held_out.rate is None:
            return None
        return (self.with_memory.rate - self.held_out.rate) * 100


@dataclass(frozen=True)
class HoldoutReport:
    with_memory: Arm
    held_out: Arm
    since: datetime | None
    until: datetime | None

    @property
    def eligible_turns(self) -> int:
        return self.with_memory.turns + self.held_out.turns

    @property
    def metrics(self) -> list[Metric]:
        return [
            Metric(key, label, getattr(self.with_memory, key), getattr(self.held_out, key)) for key, label in METRICS
        ]


METRICS = [
    ("helpful", "Answer rated helpful"),
    ("followup", "Follow-up needed"),
    ("wrong_from_memory", "Wrong answers traced to a memory"),
]


def holdout_report(*, since: datetime | None = None, until: datetime | None = None) -> HoldoutReport:
    """Count outcomes on eligible turns, with memory against held out, in one query."""
    turns = Turn.objects.filter(eligible=True)
    if since is not None:
        turns = turns.filter(created_at__gte=since)
    if until is not None:
        turns = turns.filter(created_at__lt=until)
    # One rating per turn (Feedback is unique on turn and user; a turn has one user).
    rating = Feedback.objects.filter(turn=OuterRef("pk")).order_by("-created_at").values("kind")[:1]
    used_memory = Q(held_out=False) & ~Q(recalled=[])
    rows = (
        turns.annotate(rating=Subquery(rating))
        .order_by()
        .values("held_out")
        .annotate(
            turns=Count("id"),
            rated=Count("id", filter=Q(rating__isnull=False)),
            helpful=Count("id", filter=Q(rating=Feedback.Kind.HELPFUL)),
            followups=Count("id", filter=Q(followup=True)),
            wrong_from_memory=Count("id", filter=Q(rating=Feedback.Kind.INCORRECT) & used_memory),
        )
    )
    by_arm = {row["held_out"]: row for row in rows}
    return HoldoutReport(
        with_memory=_arm("With memory", by_arm.get(False)),
        held_out=_arm("Held out", by_arm.get(True)),
        since=since,
        until=until,
    )


def _arm(label: str, row: Mapping[str, Any] | None) -> Arm:
    row = row or {"turns": 0, "rated": 0, "helpful": 0, "followups": 0, "wrong_from_memory": 0}
    return Arm(
        label=label,
        turns=row["turns"],
        rated=row["rated"],
        helpful=rate(row["helpful"], row["rated"]),
        followup=rate(row["followups"], row["turns"]),
        wrong_from_memory=rate(row["wrong_from_memory"], row["turns"]),
    )


# --- The chart: server-rendered SVG, presentation attributes only (the CSP has no inline styles).

CHART_WIDTH = 640
CHART_HEIGHT = 300
_LEFT, _RIGHT, _TOP, _BOTTOM = 48, 16, 36, 56
ARM_COLOURS = {"With memory": "#2b6cb0", "Held out": "#a0aec0"}


_PLOT_W = CHART_WIDTH - _LEFT - _RIGHT
_PLOT_H = CHART_HEIGHT - _TOP - _BOTTOM


def _y(value: float) -> float:
    return _TOP + _PLOT_H * (1 - value)


def render_chart_svg(report: HoldoutReport) -> SafeString:
    """Grouped bars (with memory / held out) per metric, with 95% CI whiskers; no JavaScript."""
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {CHART_WIDTH} {CHART_HEIGHT}" '
        f'width="{CHART_WIDTH}" height="{CHART_HEIGHT}" role="img" aria-labelledby="holdout-chart-title">',
        '<title id="holdout-chart-title">Eligible turns with memory against held out, '
        "rates with 95% confidence intervals</title>",
        *_y_axis(),
    ]
    metrics = report.metrics
    group_w = _PLOT_W / len(metrics)
    bar_w = group_w * 0.3
    for index, metric in enumerate(metrics):
        gx = _LEFT + group_w * index
        for offset, arm_rate, label in (
            (0.17, metric.with_memory, "With memory"),
            (0.53, metric.held_out, "Held out"),
        ):
            parts.extend(_arm_bar(metric.label, label, arm_rate, x=gx + group_w * offset, width=bar_w))
        parts.append(
            f'<text x="{gx + group_w / 2:.1f}" y="{CHART_HEIGHT - _BOTTOM + 18}" text-anchor="middle" '
            f'font-size="12" fill="#1a202c">{escape(metric.label)}</text>'
        )
    parts.extend(_legend())
    parts.append("</svg>")
    return mark_safe("".join(parts))  # noqa: S308 - every text node is escaped (here and in the helpers)


def _y_axis() -> list[str]:
    """The horizontal grid lines with their percentages."""
    parts = []
    for tick in (0, 0.25, 0.5, 0.75, 1.0):
        ty = _y(tick)
        parts.append(f'<line x1="{_LEFT}" y1="{ty:.1f}" x2="{CHART_WIDTH - _RIGHT}" y2="{ty:.1f}" stroke="#e2e8f0" />')
        parts.append(
            f'<text x="{_LEFT - 6}" y="{ty + 4:.1f}" text-anchor="end" font-size="11" fill="#4a5568">'
            f"{int(tick * 100)}%</text>"
        )
    return parts


def _arm_bar(metric: str, label: str, arm_rate: Rate, *, x: float, width: float) -> list[str]:
    """One arm's bar for one metric at ``x``: the bar, its CI whisker and its percentage, or "no data"."""
    cx = x + width / 2
    if arm_rate.rate is None:
        return [
            f'<text x="{cx:.1f}" y="{_y(0) - 4:.1f}" text-anchor="middle" font-size="11" fill="#4a5568">no data</text>'
        ]
    top = _y(arm_rate.rate)
    parts = [
        f'<rect x="{x:.1f}" y="{top:.1f}" width="{width:.1f}" height="{_y(0) - top:.1f}" '
        f'fill="{ARM_COLOURS[label]}"><title>{escape(label)}: {escape(metric)} '
        f"{arm_rate.percent} ({arm_rate.count}/{arm_rate.total}; 95% CI {arm_rate.interval})"
        "</title></rect>"
    ]
    low, high = _y(arm_rate.low or 0.0), _y(arm_rate.high or 0.0)
    cap = width * 0.2
    parts.append(
        f'<line x1="{cx:.1f}" y1="{low:.1f}" x2="{cx:.1f}" y2="{high:.1f}" stroke="#1a202c" '
        f'stroke-width="1.5" class="ci" />'
    )
    for wy in (low, high):
        parts.append(
            f'<line x1="{cx - cap:.1f}" y1="{wy:.1f}" x2="{cx + cap:.1f}" y2="{wy:.1f}" '
            f'stroke="#1a202c" stroke-width="1.5" />'
        )
    parts.append(
        f'<text x="{cx:.1f}" y="{top - 6:.1f}" text-anchor="middle" font-size="10" fill="#1a202c">'
        f"{arm_rate.percent}</text>"
    )
    return parts


def _legend() -> list[str]:
    parts = []
    for index, (label, colour) in enumerate(ARM_COLOURS.items()):
        lx = _LEFT + index * 140
        parts.append(f'<rect x="{lx}" y="10" width="12" height="12" fill="{colour}" />')
        parts.append(f'<text x="{lx + 18}" y="20" font-size="12" fill="#1a202c">{escape(label)}</text>')
    parts.append(
        f'<text x="{CHART_WIDTH - _RIGHT}" y="{CHART_HEIGHT - 12}" text-anchor="end" font-size="10" '
        f'fill="#4a5568">Whiskers: 95% Wilson confidence interval</text>'
    )
    return parts
