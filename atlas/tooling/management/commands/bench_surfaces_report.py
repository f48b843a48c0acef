"""``manage.py bench_surfaces_report [--users N --events E --decisions D --runs R --json]``.

How long the two-surfaces staff report (``memory.report.surfaces_report``) takes over a
populated table: synthetic users, views, forgets (with reasons, rules and ages) and gate
decisions are inserted inside one transaction that is rolled back at the end, so the app's
database keeps nothing (only its id sequences move). Runs the report ``--runs`` times for all
time and for the last 30 days, inside the audited staff bypass as the admin does, and prints
the median and the slowest run.
"""

from __future__ import annotations

import json
import random
import statistics
import time
from datetime import datetime, timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandParser
from django.db import transaction
from django.utils import timezone

from memory import report
from memory.models import ForgetReason, GateDecision, Surface, SurfaceEvent
from memory.rls import staff_bypass

RULES = [
    ("standing_phrase", "standing_preference"),
    ("repeated_filter", "repeated_in_3_sessions"),
    ("explicit", "explicit_request"),
    ("correction", "correction"),
    ("situation", "situation_default_30d"),
]


class _Rollback(Exception):
    pass


class Command(BaseCommand):
    help = "Time the two-surfaces report over synthetic events (rolled back afterwards)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--users", type=int, default=500)
        parser.add_argument("--events", type=int, default=100_000)
        parser.add_argument("--decisions", type=int, default=50_000)
        parser.add_argument("--runs", type=int, default=15)
        parser.add_argument("--seed", type=int, default=98)
        parser.add_argument("--json", action="store_true")

    def handle(self, *args: Any, **options: Any) -> None:
        figures: dict = {}
        try:
            with transaction.atomic(), staff_bypass(actor_id=None, reason="bench: surfaces report"):
                figures = self._run(options)
                raise _Rollback
        except _Rollback:
            pass
        self.stdout.write(
            f"rows: {options['events']} surface events, {options['decisions']} gate decisions, "
            f"{options['users']} users (rolled back)"
        )
        self.stdout.write(f"{'period':<10} {'median ms':>10} {'max ms':>8}")
        for period, (median, slowest) in figures.items():
            self.stdout.write(f"{period:<10} {median:>10.1f} {slowest:>8.1f}")
        if options["json"]:
            self.stdout.write(json.dumps({p: {"median_ms": m, "max_ms": s} for p, (m, s) in figures.items()}))

    def _run(self, options: dict[str, Any]) -> dict[str, tuple[float, float]]:
        rng = random.Random(options["seed"])
        now = timezone.now()
        stamp = int(now.timestamp())
        users = get_user_model().objects.bulk_create(
            get_user_model()(username=f"bench-surfaces-{stamp}-{i}") for i in range(options["users"])
        )
        decisions = [
            GateDecision(
                user=rng.choice(users),
                rule=(rule := rng.choice(RULES))[0],
                reason=rule[1],
                admitted=True,
                created_at=now - timedelta(days=rng.uniform(0, 120)),
            )
            for _ in range(options["decisions"])
        ]
        GateDecision.objects.bulk_create(decisions, batch_size=5000)
        SurfaceEvent.objects.bulk_create(
            (self._event(rng, users, now) for _ in range(options["events"])), batch_size=5000
        )
        figures = {}
        for period, since in (("all", None), ("30 days", now - timedelta(days=30))):
            timings = []
            for _ in range(options["runs"]):
                start = time.perf_counter()
                report.surfaces_report(since=since)
                timings.append((time.perf_counter() - start) * 1000)
            figures[period] = (statistics.median(timings), max(timings))
        return figures

    @staticmethod
    def _event(rng: random.Random, users: list, now: datetime) -> SurfaceEvent:
        at = now - timedelta(days=rng.uniform(0, 120))
        action = rng.choices(["viewed", "forgotten", "corrected"], weights=[80, 12, 8])[0]
        surface = rng.choices([Surface.INLINE, Surface.PAGE, Surface.API], weights=[85, 12, 3])[0]
        event = SurfaceEvent(user=rng.choice(users), action=action, surface=surface, at=at)
        if action == "viewed":
            event.notes = rng.randint(1, 6)
            return event
        rule, code = rng.choice(RULES)
        age = rng.randint(0, 90)
        event.rule, event.rule_reason, event.kind = rule, code, "preference"
        event.note_written_at, event.note_age_days = at - timedelta(days=age), age
        if action == "forgotten":
            event.forget_reason = rng.choice([*ForgetReason.values, ""])
        return event
