"""Answer classes, one table: each class with what it holds, its paraphrases (written blind,
before the change, by helpers who never read the planner) asked through the real turn and judged
by the evaluation's own reader (atlas.tooling), never the planner's. A known gap is a strict
xfail with why, so a fix shows as a pass to claim."""

import pytest

from tests.chat.answering.conftest import blind_cases, judged

pytestmark = pytest.mark.turn

CLASSES: dict[str, str] = {
    "extreme_order_in_period": "the largest or smallest single order (of a customer, a region, everyone) in a period, "
    "cancelled orders left out as in totals",
    "customer_field_via_order": "a field of the customer behind an order number (region, city, segment, account "
    "code, their contract's terms)",
    "sum_of_status": "the total value of orders of a status ('the sum of everything still open', 'tied up in overdue')",
    "follow_up_in_there": "a second turn that picks from the set the first one showed ('biggest single order in "
    "there', 'which of those was the smallest'): its filters and period carry",
    "contracts_by_credit_limit": "contracts or customers whose credit limit is above or below an amount",
    "remark_after_question": "a question followed by a remark that adds nothing ('net what', 'roughly is fine')",
    "compare_segments": "which of two segments or regions brought in more in a period: both totals and the verdict",
    "renewal_bare_month": "renewals in a month named without a year that has passed this year: the next one",
    "jargon_measures": "a measure or field in jargon (ticket size, credit line, book of business, billing terms, "
    "what they owe)",
}

GAPS: dict[str, str] = {
    "largest order across all custmers last yr, which one was it n how much": (
        "known gap: a remark that asks again for what the answer shows ('which one was it n how much') is not set "
        "aside; Atlas offers a did-you-mean"
    ),
    "which contracts let a customer run more than half a mil on credit": (
        "known gap: 'run more than X on credit' is not read as a credit limit, nor 'half a mil' as 500,000"
    ),
    "coral reef spend over the past 90 days?": (
        "known gap: 'the avg order size in there' after a customer's total reads the jargon but loses the set"
    ),
    "how big is chesapeake seafoods book of business": (
        "known gap: 'how big is' before a measure in jargon has no plan ('what is' has)"
    ),
    "whats gateway auto parts AR looking like, how much do they owe us thats overdue": (
        "known gap: 'AR' (accounts receivable) and 'what they owe' are not read as the overdue amount"
    ),
}


@pytest.mark.django_db
@pytest.mark.parametrize(
    "case", [c for kind in CLASSES for c in blind_cases(kind, GAPS)], ids=lambda c: c["turns"][0][:40]
)
def test_each_answer_class_paraphrase(corpus, user, on_4_december, case):
    verdict, answer = judged(user, case)
    assert verdict == "correct", answer
