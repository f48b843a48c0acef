"""Helpers for the answering tests: periods computed from today, independently of the planner,
and the paraphrase cases a helper wrote without reading the planner."""

import calendar
import json
from datetime import date
from pathlib import Path

import pytest
from django.utils import timezone

CASES = Path(__file__).resolve().parents[2] / "fixtures" / "paraphrases" / "answer_classes.jsonl"


def paraphrases(kind: str) -> list[dict]:
    rows = [json.loads(line) for line in CASES.read_text().splitlines() if line.strip()]
    return [r for r in rows if r["class"] == kind]


def month_span(year: int, month: int) -> tuple[date, date]:
    return date(year, month, 1), date(year, month, calendar.monthrange(year, month)[1])


def quarter_span(year: int, quarter: int) -> tuple[date, date]:
    return date(year, 3 * quarter - 2, 1), month_span(year, 3 * quarter)[1]


def named_span(name: str) -> tuple[date, date] | None:
    """ "this year", "last quarter", "Q3", "2025", "november" ... from today's date."""
    today = timezone.localdate()
    quarter = (today.month - 1) // 3 + 1
    if name is None or name == "all":
        return None
    if name == "this year":
        return date(today.year, 1, 1), date(today.year, 12, 31)
    if name == "last year":
        return date(today.year - 1, 1, 1), date(today.year - 1, 12, 31)
    if name == "this month":
        return month_span(today.year, today.month)
    if name == "last month":
        year, month = (today.year, today.month - 1) if today.month > 1 else (today.year - 1, 12)
        return month_span(year, month)
    if name == "last quarter":
        year, q = (today.year, quarter - 1) if quarter > 1 else (today.year - 1, 4)
        return quarter_span(year, q)
    if name.startswith("q"):
        return quarter_span(today.year, int(name[1]))
    if name.isdigit():
        return date(int(name), 1, 1), date(int(name), 12, 31)
    month = list(calendar.month_name).index(name.capitalize())
    year = today.year if month <= today.month else today.year - 1
    return month_span(year, month)


def money(value) -> str:
    return f"${value:,.2f}"


@pytest.fixture
def user(make_user):
    return make_user()


def judged(user, case: dict) -> tuple[str, str]:
    """A paraphrase case asked through the real turn (one session) and judged against its truth
    text by the evaluation's own reader and ORM queries (atlas.tooling), never the planner's."""
    from atlas.tooling.evaluation import check_for, expected_for, judge
    from chat.turn import ask, start_session

    session = start_session(user)
    turn = None
    for question in case["turns"]:
        turn = ask(user, session=session, question=question)
    check, why = check_for(case, {})
    assert check is not None, why
    return judge(turn.answer, expected_for(check, timezone.localdate()), turn.blocks), turn.answer


def blind_cases(kind: str, gaps: dict[str, str]) -> list:
    """The class's paraphrases as pytest params; a known gap (first turn, or every turn joined by
    " || " where two rows open alike -> why) is a strict xfail."""

    def gap(case: dict) -> str | None:
        return gaps.get(" || ".join(case["turns"])) or gaps.get(case["turns"][0])

    return [
        pytest.param(
            case,
            id=case["turns"][0][:40],
            marks=[pytest.mark.xfail(strict=True, reason=why)] if (why := gap(case)) else [],
        )
        for case in paraphrases(kind)
    ]


@pytest.fixture
def on_4_december():
    """The day the helper-blind-16 paraphrases were written: their truths say "today (4 December 2026)"."""
    from datetime import UTC, datetime

    import time_machine

    with time_machine.travel(datetime(2026, 12, 4, 12, tzinfo=UTC), tick=False):
        yield
