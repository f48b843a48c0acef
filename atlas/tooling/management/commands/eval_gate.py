"""Replay labelled write-gate cases through the real gate and score what stays live.

``manage.py eval_gate FILE [FILE ...] [--json]``: each case is a fresh user, each turn a TurnEvent
with the case's timestamp and session; the live memories at the last turn's ``at`` are
matched one-to-one against the expected items (shared/benchmarks/gate/README.md). All the
work runs inside one transaction that is rolled back, so the database is left as it was.
"""

from __future__ import annotations

import json
import uuid
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction
from django.utils.dateparse import parse_datetime

from memory.gate import TurnEvent, run_gate
from memory.gate.statements import lint
from memory.rls import acting_user
from memory.selectors import live_memories

if TYPE_CHECKING:
    from atlas.types import User


class _Rollback(Exception):
    pass


def _parse_at(value: str) -> datetime:
    at = parse_datetime(value)
    if at is None:
        raise CommandError(f"Bad timestamp {value!r}.")
    return at


def turn_event(user: User, number: int, turn: dict, *, opens_session: bool = False, before: str = "") -> TurnEvent:
    """One labelled turn as the event the chat queues (benchmarks/gate/README.md); ``opens_session``:
    the first turn of its session, and ``before``: the turn before it in that session, as the chat
    tells the gate."""
    feedback = turn.get("feedback") or {}
    return TurnEvent(
        user_id=user.pk,
        session_key=str(turn.get("session", "s1")),
        turn_id=number,
        at=_parse_at(turn["at"]),
        text=turn.get("text", ""),
        filters=dict(turn.get("filters") or {}),
        feedback_kind=feedback.get("kind", ""),
        feedback_comment=feedback.get("comment", ""),
        opens_session=opens_session,
        before=before,
    )


def score_case(case: dict, memories: list, now: datetime) -> dict:
    """Match live memories to expected items (kind equal, every mention in the statement)."""
    expected = case.get("expect", [])
    unmatched = list(range(len(memories)))
    matched_items = []
    expiry_ok = 0
    for item in expected:
        hit = None
        for index in unmatched:
            memory = memories[index]
            text = memory.statement.lower()
            if memory.kind == item["kind"] and all(m.lower() in text for m in item.get("mentions", [])):
                hit = index
                break
        if hit is None:
            continue
        unmatched.remove(hit)
        memory = memories[hit]
        if "expires_after_days" in item:
            lo, hi = item["expires_after_days"]
            good = memory.expires_at is not None and timedelta(days=lo) <= memory.expires_at - now <= timedelta(days=hi)
        else:
            good = memory.expires_at is None
        expiry_ok += int(good)
        matched_items.append((item, memory, good))
    owed = [i for i in expected if not i.get("optional")]
    owed_hit = [i for i, _, _ in matched_items if not i.get("optional")]
    return {
        "id": case.get("id", ""),
        "live": len(memories),
        "matched": len(matched_items),
        "owed": len(owed),
        "owed_matched": len(owed_hit),
        "expiry_ok": expiry_ok,
        "false_positives": [memories[i].statement for i in unmatched],
        "missed": [i for i in owed if i not in owed_hit],
        "statements": [
            f"{m.kind}: {m.statement}" + (f" (expires {m.expires_at:%Y-%m-%d %H:%M})" if m.expires_at else "")
            for m in memories
        ],
        "expiry_errors": [m.statement for _, m, good in matched_items if not good],
        # The statement lint (write-rules chapter); corrections keep the user's words.
        "linted": [(m.statement, lint(m.statement)) for m in memories if m.kind != "correction"],
    }


def run_case(case: dict) -> dict:
    user = get_user_model().objects.create_user(username=f"eval-gate-{uuid.uuid4().hex[:12]}")
    turns = case.get("turns", [])
    if not turns:
        raise CommandError(f"Case {case.get('id')} has no turns.")
    said: dict[str, str] = {}  # each session's last turn
    for number, turn in enumerate(turns, start=1):
        session = str(turn.get("session", "s1"))
        run_gate(turn_event(user, number, turn, opens_session=session not in said, before=said.get(session, "")))
        said[session] = turn.get("text", "")
    now = _parse_at(turns[-1]["at"])
    with acting_user(user.pk):
        memories = list(live_memories(user, now=now))
    return score_case(case, memories, now)


def _read(paths: list[str]) -> list[dict]:
    cases: list[dict] = []
    for path in paths:
        try:
            with open(path, encoding="utf-8") as handle:
                cases.extend(json.loads(line) for line in handle if line.strip())
        except (OSError, ValueError) as exc:
            raise CommandError(f"Cannot read {path}: {exc}") from exc
    return cases


def evaluate(*paths: str) -> dict:
    cases = _read(list(paths))
    results = []
    try:
        with transaction.atomic():
            for case in cases:
                results.append(run_case(case))
            raise _Rollback
    except _Rollback:
        pass
    live = sum(r["live"] for r in results)
    matched = sum(r["matched"] for r in results)
    owed = sum(r["owed"] for r in results)
    owed_matched = sum(r["owed_matched"] for r in results)
    expiry_ok = sum(r["expiry_ok"] for r in results)
    linted = [item for r in results for item in r["linted"]]
    clean = sum(1 for _, problems in linted if not problems)
    return {
        "cases": len(results),
        "live": live,
        "matched": matched,
        "precision": round(matched / live, 4) if live else 1.0,
        "recall": round(owed_matched / owed, 4) if owed else 1.0,
        "expiry_accuracy": round(expiry_ok / matched, 4) if matched else 1.0,
        "statements": len(linted),
        "clean_statements": round(clean / len(linted), 4) if linted else 1.0,
        "results": results,
    }


class Command(BaseCommand):
    help = "Replay write-gate cases (JSONL) through the gate and print precision, recall and expiry accuracy."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("files", nargs="+", metavar="file")
        parser.add_argument("--json", action="store_true", help="print one JSON object as the last line")

    def handle(self, *args: Any, **options: Any) -> None:
        report = evaluate(*options["files"])
        for result in report["results"]:
            ok = not result["false_positives"] and not result["missed"] and not result["expiry_errors"]
            self.stdout.write(
                f"{'ok  ' if ok else 'FAIL'} {result['id']}: {result['live']} live, {result['matched']} matched"
            )
            for line in result["statements"]:
                self.stdout.write(f"       {line}")
            for text in result["false_positives"]:
                self.stdout.write(f"       false positive: {text}")
            for item in result["missed"]:
                self.stdout.write(f"       missed: {item['kind']} {item.get('mentions')}")
            for text in result["expiry_errors"]:
                self.stdout.write(f"       wrong expiry: {text}")
            for text, problems in result["linted"]:
                if problems:
                    self.stdout.write(f"       unclean statement: {text} ({'; '.join(problems)})")
        self.stdout.write(
            f"precision {report['precision']:.3f}  recall {report['recall']:.3f}  "
            f"expiry accuracy {report['expiry_accuracy']:.3f}  "
            f"clean statements {report['clean_statements']:.3f}  "
            f"({report['cases']} cases, {report['live']} live memories)"
        )
        if options["json"]:
            summary = {k: v for k, v in report.items() if k != "results"}
            summary["cases_detail"] = [
                {k: r[k] for k in ("id", "live", "matched", "owed", "owed_matched", "expiry_ok", "statements")}
                for r in report["results"]
            ]
            self.stdout.write(json.dumps(summary))
