"""The class paraphrases (tests/fixtures/paraphrases/gate_classes.jsonl) run through the gate.

Written by a helper who never read the gate, 30 classes of statement. Each class's test
module parametrizes over its rows and asserts what the fixture writes out: the kind and
facets kept, the mentions and bound of a situation, what must not be stored, the notes an
update or reversal leaves live and the ones it retires.
"""

from __future__ import annotations

import json
import uuid
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from memory.preferences import widest

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "paraphrases" / "gate_classes.jsonl"
AT = "2026-05-04T09:30:00Z"


def rows(name: str) -> list[dict]:
    """The fixture's rows of one class, in file order."""
    with FIXTURE.open(encoding="utf-8") as handle:
        return [row for row in map(json.loads, filter(str.strip, handle)) if row["class"] == name]


def cases(classes: tuple[str, ...], known_gaps: dict[str, str]) -> list[Any]:
    """The rows of ``classes`` as test parameters; a known gap runs as a strict expected failure."""
    import pytest

    return [
        pytest.param(
            *case.values,
            id=case.id,
            marks=[pytest.mark.xfail(reason=known_gaps[case.id], strict=True)] if case.id in known_gaps else [],
        )
        for name in classes
        for case in params(name)
    ]


def params(name: str) -> list[Any]:
    import pytest

    return [pytest.param(row, id=f"{name}-{n}") for n, row in enumerate(rows(name))]


def _at(value: str) -> datetime:
    return datetime.fromisoformat(value.replace("Z", "+00:00")).astimezone(UTC)


def replay(row: dict) -> tuple[list, list]:
    """Run the row's turns through the gate for a new user: (live notes, gate decisions)."""
    from django.contrib.auth import get_user_model

    from memory.gate import TurnEvent, run_gate
    from memory.models import GateDecision
    from memory.rls import acting_user
    from memory.selectors import live_memories

    user = get_user_model().objects.create_user(username=f"class-{uuid.uuid4().hex[:12]}")
    turns = row.get("turns") or [{"text": row["text"], "session": "s1", "at": AT}]
    said: dict[str, str] = {}  # each session's last turn
    for number, turn in enumerate(turns, start=1):
        session = turn.get("session", "s1")
        # the first turn of a session has no answer on screen, and the turn before is the session's last, as the
        # chat tells the gate
        run_gate(TurnEvent(user_id=user.pk, session_key=session, turn_id=number, at=_at(turn.get("at", AT)),
                           text=turn["text"], opens_session=session not in said,
                           before=said.get(session, "")))  # fmt: skip
        said[session] = turn["text"]
    now = _at(turns[-1].get("at", AT))
    with acting_user(user.pk):
        live = list(live_memories(user, now=now))
        decisions = list(GateDecision.objects.filter(user_id=user.pk).order_by("pk"))
    return live, decisions


def _matches(memory: Any, want: dict) -> bool:
    if memory.kind != want.get("kind", memory.kind):
        return False
    from memory.preferences import ADDABLE_FIELDS

    for key, value in (want.get("facets") or {}).items():
        got = (memory.facets or {}).get(key)
        if value == "other" and key in ("include", "exclude"):
            # The fixture's word for a field Atlas has no column for: kept in the user's words.
            if not got or got in ADDABLE_FIELDS:
                return False
        elif key in ("include", "exclude") and value not in ADDABLE_FIELDS:
            # A field the records lack, named by one of the user's words ("phone" in "phone numbers").
            if not got or str(value).lower() not in str(got).lower():
                return False
        elif got != value:
            return False
    text = memory.statement.lower()
    return all(m.lower() in text for m in want.get("mentions", []))


def turns_end(row: dict) -> datetime:
    turns = row.get("turns") or [{"at": AT}]
    return _at(turns[-1].get("at", AT))


def _expires_within(expires_at: datetime | None, start: datetime, expect: dict) -> bool:
    """The expiry falls within the row's window of days after the last turn (a day's slack either side)."""
    if expires_at is None:
        return False
    low, high = expect["expires_after_days"]
    days = (expires_at - start).total_seconds() / 86400
    return low - 1 <= days <= high + 1


def problems(row: dict) -> list[str]:
    """What the gate did against what the row expects: empty when it holds."""
    live, _ = replay(row)
    expect = row["expect"]
    said = [f"{m.kind}: {m.statement} {m.facets or ''} scope={m.scope} expires={m.expires_at}" for m in live]
    out: list[str] = []
    if expect.get("stored") is False or expect.get("kind") == "none":
        if live:
            out.append(f"kept {said}")
        return out
    if "live" in expect or "gone" in expect:
        wanted = expect.get("live", [])
        for want in wanted:
            hits = [m for m in live if _matches(m, want)]
            if not hits:
                out.append(f"missing live {want}; live {said}")
            elif want.get("expires_after_days") and not any(
                _expires_within(m.expires_at, turns_end(row), want) for m in hits
            ):
                out.append(f"live {want} with the wrong end: {said}")
        for want in expect.get("gone", []):
            if any(_matches(m, want) for m in live):
                out.append(f"still live {want}; live {said}")
        if not wanted and live:
            out.append(f"expected nothing live; live {said}")
        if wanted and len(live) > len(wanted):
            out.append(f"more live than expected: {said}")
        return out
    if expect.get("optional"):
        if live and not all(m.kind == expect["kind"] for m in live):
            out.append(f"optional {expect['kind']} kept as {said}")
        return out
    hits = [m for m in live if _matches(m, expect)]
    if not hits:
        out.append(f"missing {expect}; live {said}")
    elif expect.get("scope") and hits[0].scope != widest(expect["scope"], hits[0].facets or {}):
        # compared by what they cover: a list size acts on rankings only, so "in rankings" is global
        out.append(f"scope {hits[0].scope} != {expect['scope']}")
    elif expect.get("expires_after_days") and not _expires_within(hits[0].expires_at, turns_end(row), expect):
        out.append(f"expires {hits[0].expires_at}, wanted {expect['expires_after_days']} days after the last turn")
    elif expect.get("bounded") and hits[0].expires_at is None:
        out.append("no expiry")
    if len(live) > 1:
        out.append(f"more than one note: {said}")
    if expect.get("not_stored"):
        stem = expect["not_stored"].lower()[:5]
        if any(stem in m.statement.lower() for m in live):
            out.append(f"stored {expect['not_stored']}: {said}")
    return out
