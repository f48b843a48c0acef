"""A span named by two or more months or quarters ("September and October 2026", "from Q1 to Q2
2025", "nov to feb") is one period, from the first one's start to the last one's end.

The questions were written by a helper who never read the planner
(tests/fixtures/paraphrases/answer_spans_and_fields.jsonl, class month_range), with the span each
one means; every figure is computed here with an independent ORM query."""

import json
import re
from datetime import UTC, date, datetime
from pathlib import Path

import pytest
import time_machine
from django.db.models import Sum

from chat.models import Order
from chat.turn import ask

pytestmark = pytest.mark.turn

CASES = Path(__file__).resolve().parents[2] / "fixtures" / "paraphrases" / "answer_spans_and_fields.jsonl"
ROWS = [json.loads(line) for line in CASES.read_text().splitlines() if line.strip()]
RANGES = [r for r in ROWS if r["class"] == "month_range"]


@pytest.fixture
def on_the_day_they_were_written():
    with time_machine.travel(datetime(2026, 12, 3, 12, tzinfo=UTC), tick=False):
        yield


def orders_in(row):
    span = (date.fromisoformat(row["start"]), date.fromisoformat(row["end"]))
    orders = Order.objects.filter(ordered_on__range=span)
    return orders.filter(customer__name=row["customer"]) if row["customer"] else orders


@pytest.mark.django_db
@pytest.mark.parametrize("row", RANGES, ids=[r["question"][:40] for r in RANGES])
def test_a_span_of_months_or_quarters_is_one_period(corpus, make_user, on_the_day_they_were_written, row):
    answer = ask(make_user(), session=None, question=row["question"]).answer
    orders = orders_in(row)
    if row["kind"] == "sum":
        total = orders.exclude(status="cancelled").aggregate(v=Sum("amount"))["v"]
        assert f"${total:,.2f}" in answer, answer
    elif row["kind"] == "count":
        counts = {f"{orders.count():,}", f"{orders.exclude(status='cancelled').count():,}"}
        assert any(re.search(rf"\b{n} orders?\b", answer) for n in counts), answer
    else:
        shown = set(re.findall(r"SO-\d+", answer))
        assert shown, answer
        assert shown <= set(orders.values_list("number", flat=True)), answer
    assert "can't answer" not in answer


def test_the_cases_are_the_helpers():
    assert len(RANGES) == 8 and all(r["author"] == "helper-blind" for r in RANGES)
