"""``manage.py eval_answers FILE [--checks FILE] [--json] [--readings]``: are Atlas's answers right?

Each case's turns are asked in order by a fresh user in a fresh session through
:func:`chat.turn.ask` (the function the chat view and the API call); only the last answer
is judged, against a value computed from the database now (:mod:`atlas.tooling.evaluation`). A case
says how to compute it in a ``check`` field, or a checks file maps case ids to checks; a
case with neither is read from its ``truth`` text (:mod:`atlas.tooling.truth`; ``out_of_scope`` cases
must abstain). A truth text the reader cannot read is counted as unjudged, with the reason;
``--readings`` only reads the truths (the check of each case, or why it has none) and asks nothing.
Everything runs in one transaction that is rolled back: no user, session, turn or memory
stays behind and no gate run is queued.
"""

from __future__ import annotations

import json
import statistics
import time
import uuid
from pathlib import Path
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction
from django.test.utils import override_settings
from django.utils import timezone

from atlas.tooling.evaluation import Verdict, check_for, expected_for, judge
from atlas.tooling.truth import load_names
from chat.turn import ask, start_session

VERDICTS = ("correct", "abstained", "wrong", "unjudged")


def load_jsonl(path: Path) -> list[dict]:
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError as exc:
        raise CommandError(f"Cannot read {path}: {exc}") from exc
    try:
        return [json.loads(line) for line in lines if line.strip()]
    except json.JSONDecodeError as exc:
        raise CommandError(f"{path} is not JSON lines: {exc}") from exc


class Command(BaseCommand):
    help = "Ask each labelled case through the real turn and judge the answer against the database."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", type=Path)
        parser.add_argument("--checks", type=Path, help="JSON lines of {id, check} for cases without a check")
        parser.add_argument("--json", action="store_true", help="print the figures as JSON")
        parser.add_argument("--verbose", action="store_true", help="print every answer")
        parser.add_argument(
            "--readings", action="store_true", help="only read each truth: print its check, or why it is unjudged"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        cases = load_jsonl(options["file"])
        checks = {row["id"]: row["check"] for row in load_jsonl(options["checks"])} if options["checks"] else {}
        today = timezone.localdate()
        if options["readings"]:
            self._readings(cases, checks)
            return
        verdicts: list[Verdict] = []
        timings: list[float] = []
        with override_settings(ATLAS_HOLDOUT=False), transaction.atomic():
            User = get_user_model()
            names = load_names()
            for case in cases:
                user = User.objects.create_user(username=f"eval-{uuid.uuid4().hex[:10]}")
                session = start_session(user, title="eval_answers")
                started = time.perf_counter()
                turn = None
                for question in case["turns"]:
                    turn = ask(user, session=session, question=question)
                timings.append((time.perf_counter() - started) * 1000 / len(case["turns"]))
                check, reason = check_for(case, checks, names)
                answer = turn.answer if turn is not None else ""
                if check is None:
                    verdicts.append(Verdict(case["id"], "unjudged", answer, reason=reason))
                    continue
                expected = expected_for(check, today)
                blocks = turn.blocks if turn is not None else []
                verdicts.append(Verdict(case["id"], judge(answer, expected, blocks), answer, expected.__dict__))
            transaction.set_rollback(True)
        self._report(verdicts, timings, options)

    def _readings(self, cases: list[dict], checks: dict[str, Any]) -> None:
        """Each case's check as read from its truth, without asking Atlas anything."""
        names = load_names()
        unread = 0
        for case in cases:
            check, reason = check_for(case, checks, names)
            unread += check is None
            self.stdout.write(f"{case.get('id', '?'):<12} {json.dumps(check) if check else 'unjudged: ' + reason}")
        self.stdout.write(f"\ncases {len(cases)}  unjudged {unread / (len(cases) or 1):.3f}")

    def _report(self, verdicts: list[Verdict], timings: list[float], options: dict[str, Any]) -> None:
        total = len(verdicts) or 1
        shares = {v: round(sum(1 for x in verdicts if x.verdict == v) / total, 3) for v in VERDICTS}
        summary = {"cases": len(verdicts), **shares, "median_turn_ms": round(statistics.median(timings or [0]), 1)}
        if options["json"]:
            rows = [
                {
                    "id": v.case_id,
                    "verdict": v.verdict,
                    "answer": v.answer,
                    **({"reason": v.reason} if v.reason else {}),
                }
                for v in verdicts
            ]
            self.stdout.write(json.dumps({"summary": summary, "cases": rows}, indent=2, default=str))
            return
        for v in verdicts:
            if options["verbose"] or v.verdict in ("wrong", "unjudged", "abstained"):
                self.stdout.write(f"{v.case_id:<12} {v.verdict:<9} {v.answer[:300]!r}")
                if v.verdict == "wrong":
                    self.stdout.write(f"{'':<12} expected {v.expected}")
                if v.reason:
                    self.stdout.write(f"{'':<12} {v.reason}")
        self.stdout.write("")
        self.stdout.write(
            f"cases {summary['cases']}  correct {shares['correct']:.3f}  abstained {shares['abstained']:.3f}  "
            f"wrong {shares['wrong']:.3f}  unjudged {shares['unjudged']:.3f}  "
            f"median turn {summary['median_turn_ms']} ms"
        )
