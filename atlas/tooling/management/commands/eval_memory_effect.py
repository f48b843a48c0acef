"""``manage.py eval_memory_effect FILE [--json] [--verbose]``: does what Atlas remembers change
its answers as promised?

Each case (../shared/benchmarks/memory_effect/README.md) is one fresh user. Its sessions are
replayed turn by turn through :func:`chat.turn.ask` and :func:`chat.feedback.give_feedback`
(the functions the chat view and the API call), with the write gate's tasks run inline after
each commit and the hold-out off; then the question is asked in a new session and its answer
judged (:mod:`atlas.tooling.memory_effect`). The users and everything of theirs are deleted
afterwards. Reported: followed, ignored, harmed, not stored; followed when stored, end to end,
harm rate; each by group.
"""

from __future__ import annotations

import json
import uuid
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.test.utils import override_settings

from atlas.tooling.memory_effect import Answer, Judged, check
from chat.feedback import give_feedback
from chat.turn import ask, start_session
from memory.models import Memory
from memory.rls import acting_user
from memory.store import delete_everything

# Checks that guard against harm rather than ask for a preference to be followed.
GUARD_CHECKS = ("no_narrowing", "forgotten", "superseded")


def load(path: Path) -> list[dict[str, Any]]:
    try:
        return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    except (OSError, json.JSONDecodeError) as exc:
        raise CommandError(f"Cannot read {path}: {exc}") from exc


def _stored(user: Any, wanted: list[str]) -> bool:
    """One live note holds every wanted string (``a|b``: either), case-insensitively."""
    with acting_user(user.pk):
        statements = [m.statement.lower() for m in Memory.objects.filter(user_id=user.pk).live()]
    return any(all(any(alt.lower() in s for alt in item.split("|")) for item in wanted) for s in statements)


def judge(expect: dict[str, Any], answer: Answer) -> tuple[str, str]:
    """(verdict, why): followed | ignored | harmed."""
    name = expect.get("check", "")
    params = {k: v for k, v in expect.items() if k not in ("check", "in_scope")}
    if name == "superseded":
        now = check(expect["facet"], dict(expect.get("value", {})), answer)
        before = check(expect["facet"], dict(expect.get("was", {})), answer)
        if now.holds and not before.holds:
            return "followed", now.why
        return ("harmed" if before.holds else "ignored"), f"new: {now.why}; old: {before.why}"
    if name == "forgotten":
        absent = check(expect["absent"], dict(expect.get("value", {})), answer)
        return ("harmed", absent.why) if absent.holds else ("followed", absent.why)
    result: Judged = check(name, params, answer)
    if expect.get("in_scope") is False:
        return ("harmed", result.why) if result.holds else ("followed", result.why)
    if result.holds:
        return "followed", result.why
    return ("harmed" if result.harmed else "ignored"), result.why


def is_follow_case(expect: dict[str, Any]) -> bool:
    return expect.get("check") not in GUARD_CHECKS and expect.get("in_scope") is not False


class Command(BaseCommand):
    help = "Replay each memory-effect case through the real turn and judge whether the note shaped the answer."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", type=Path)
        parser.add_argument("--json", action="store_true", help="print the figures as one JSON line")
        parser.add_argument("--verbose", action="store_true", help="print every answer")
        parser.add_argument("--only", nargs="*", default=[], help="run only these case ids")

    def handle(self, *args: Any, **options: Any) -> None:
        from django_q.conf import Conf

        cases = [c for c in load(options["file"]) if not options["only"] or c.get("id") in options["only"]]
        synced, Conf.SYNC = Conf.SYNC, True  # the gate's tasks run inline after each commit
        rows = []
        try:
            with override_settings(ATLAS_HOLDOUT=False):
                for case in cases:
                    rows.append(self._run(case, verbose=options["verbose"]))
        finally:
            Conf.SYNC = synced
        figures = summarise(rows)
        self.stdout.write(report(figures))
        if options["json"]:
            self.stdout.write(json.dumps(figures, sort_keys=True))

    def _run(self, case: dict[str, Any], *, verbose: bool) -> dict[str, Any]:
        user = get_user_model().objects.create_user(f"me-eval-{uuid.uuid4().hex[:12]}")
        try:
            stored = False
            for session_turns in case.get("sessions", []):
                session = start_session(user)
                for turn in session_turns:
                    text = turn if isinstance(turn, str) else turn["text"]
                    asked = ask(user, session=session, question=text)
                    feedback = {} if isinstance(turn, str) else turn.get("feedback") or {}
                    if feedback:
                        give_feedback(user, asked.pk, kind=feedback["kind"], comment=feedback.get("comment", ""))
                    stored = stored or _stored(user, case.get("stored", []))
            answered = ask(user, session=start_session(user), question=case["question"])
            answer = Answer(answered.answer, list(answered.blocks or []))
            verdict, why = judge(case["expect"], answer)
            if not stored:
                verdict = "not stored"
        finally:
            delete_everything(user)
            with acting_user(user.pk):
                user.delete()
        row = {
            "id": case.get("id", ""),
            "group": case.get("group", ""),
            "verdict": verdict,
            "why": why,
            "follow": is_follow_case(case["expect"]),
            "stored": stored,
        }
        if verbose:
            self.stdout.write(
                f"{row['id']} [{row['group']}] {verdict}: {why}\n    Q: {case['question']}\n    A: {answer.text}"
            )
        return row


def summarise(rows: list[dict[str, Any]]) -> dict[str, Any]:
    verdicts = Counter(r["verdict"] for r in rows)
    follow = [r for r in rows if r["follow"]]
    follow_stored = [r for r in follow if r["stored"]]
    stored = [r for r in rows if r["stored"]]
    by_group: dict[str, Counter] = defaultdict(Counter)
    for r in rows:
        by_group[r["group"]][r["verdict"]] += 1

    def share(part: int, whole: int) -> float | None:
        return round(part / whole, 3) if whole else None

    return {
        "cases": len(rows),
        "followed": verdicts["followed"],
        "ignored": verdicts["ignored"],
        "harmed": verdicts["harmed"],
        "not_stored": verdicts["not stored"],
        "followed_when_stored": share(sum(r["verdict"] == "followed" for r in follow_stored), len(follow_stored)),
        "end_to_end": share(sum(r["verdict"] == "followed" for r in follow), len(follow)),
        "harm_rate": share(sum(r["verdict"] == "harmed" for r in stored), len(stored)),
        "by_group": {g: dict(c) for g, c in sorted(by_group.items())},
        "failures": [f"{r['id']}: {r['verdict']} ({r['why']})" for r in rows if r["verdict"] != "followed"],
    }


def report(figures: dict[str, Any]) -> str:
    lines = ["group          followed  ignored  harmed  not stored"]
    for group, counts in figures["by_group"].items():
        lines.append(
            f"{group:<14} {counts.get('followed', 0):>8}  {counts.get('ignored', 0):>7}  "
            f"{counts.get('harmed', 0):>6}  {counts.get('not stored', 0):>10}"
        )
    lines += figures["failures"]
    lines.append(
        f"cases {figures['cases']}  followed when stored {figures['followed_when_stored']}  "
        f"end to end {figures['end_to_end']}  harm rate {figures['harm_rate']}  "
        f"harmed {figures['harmed']}  not stored {figures['not_stored']}"
    )
    return "\n".join(lines) + "\n"
