"""Answers a user can trust, through the real turn: stale filters never reach a new question,
follow-ups swap one slot, corrections typed into the chat are answered and reach the gate,
the gate's sentence acknowledges what was learned, and the evaluation judges honestly.

The evaluator reads a case's truth text into the check it computes, without the planner. Two
references written apart must agree: the checks in tests/fixtures (written as structured checks
by hand) and the readings of the truth texts. A truth the reader cannot read is never guessed
at: it is unjudged, with the reason."""

import json
from datetime import UTC, date, datetime
from decimal import Decimal
from io import StringIO
from pathlib import Path

import pytest
import time_machine
from django.core.management import call_command
from django.db.models import Count, Sum
from django.utils import timezone

from atlas.tooling.evaluation import Expected, check_for, judge, period_bounds
from atlas.tooling.truth import load_names, read_truth
from chat.models import Feedback, Order, Turn
from chat.turn import ask, start_session
from memory.rls import acting_user
from tests.factories import shared_benchmarks

pytestmark = pytest.mark.turn


@pytest.fixture
def user(make_user):
    return make_user()


def session_answers(user, *questions):
    session = start_session(user)
    return [ask(user, session=session, question=q) for q in questions]


def money(value) -> str:
    return f"${value:,.2f}"


@pytest.mark.django_db
def test_a_stale_region_and_status_never_reach_a_question_that_states_its_own_subject(corpus, user):
    *_, last = session_answers(
        user,
        "List open orders in the West.",
        "What's the total value of orders from Northline Freight this year?",
    )
    year = date(timezone.localdate().year, 1, 1)
    expected = (
        Order.objects.filter(customer__name="Northline Freight", ordered_on__gte=year)
        .exclude(status="cancelled")
        .aggregate(total=Sum("amount"), n=Count("id"))
    )
    assert money(expected["total"]) in last.answer and f"({expected['n']} orders)" in last.answer
    assert "West" not in last.answer and "open" not in last.answer


@pytest.mark.django_db
def test_filters_decay_after_two_turns_even_through_follow_ups(corpus, user):
    first, second, third = session_answers(
        user, "How many overdue orders in the South?", "And last year?", "And in the East?"
    )
    south_last_year = Order.objects.filter(
        status="overdue", customer__region="south", ordered_on__year=timezone.localdate().year - 1
    ).count()
    assert second.answer.startswith(f"{south_last_year} overdue order")
    # The status was stated two turns ago: the third question keeps the plan, not the stale status.
    assert "overdue" not in third.answer and "in the East region" in third.answer


@pytest.mark.django_db
def test_a_follow_up_naming_another_customer_swaps_only_the_customer(corpus, user):
    _, second = session_answers(
        user, "How many shipped orders does Bayou City Fabrication have?", "What about Piedmont Textiles?"
    )
    count = Order.objects.filter(customer__name="Piedmont Textiles", status="shipped").count()
    assert second.answer == f"{count} shipped order{'s' if count != 1 else ''} for Piedmont Textiles across all dates."


@pytest.mark.django_db
def test_as_a_table_keeps_the_plan_and_changes_the_shape(corpus, user):
    first, second = session_answers(user, "Top 4 customers by revenue this year", "As a table")
    names = [item.split(": ")[0].split(". ", 1)[1] for item in first.blocks[1]["items"]]
    table = second.blocks[1]
    assert table["kind"] == "table" and [row[0] for row in table["rows"]] == names


@pytest.mark.django_db
def test_an_ambiguous_name_is_one_clarifying_question_and_the_pick_keeps_the_plan(corpus, user):
    clarify, picked = session_answers(user, "How many overdue orders does Northline have?", "The one in Leeds")
    assert clarify.kind == Turn.Kind.CLARIFY
    count = Order.objects.filter(customer__name="Northline Logistics", status="overdue").count()
    assert picked.answer.startswith(f"{count} overdue orders for Northline Logistics")


@pytest.mark.django_db
def test_a_correction_typed_into_the_chat_is_answered_and_goes_to_the_gate_as_feedback(
    corpus, user, django_capture_on_commit_callbacks
):
    from django_q.models import OrmQ

    session = start_session(user)
    asked = ask(user, session=session, question="What are Saltmarsh Energy Services' payment terms?")
    with django_capture_on_commit_callbacks(execute=True):
        turn = ask(user, session=session, question="That's wrong: Saltmarsh moved to net 90 in June")
    assert turn.answer.startswith("The records say: Saltmarsh Energy Services pays on net")
    assert turn.answer.endswith("Your correction is noted. The records win until they change.")
    with acting_user(user.pk):
        feedback = Feedback.objects.get(turn=asked)
    assert (feedback.kind, feedback.comment) == ("incorrect", "That's wrong: Saltmarsh moved to net 90 in June")
    from memory.models import GateEvent
    from memory.tasks import GATE_TASK

    queued = [t.task["args"] for t in OrmQ.objects.all() if t.task["func"] == GATE_TASK]
    with acting_user(user.pk):
        events = [GateEvent.objects.get(pk=event_id) for _, event_id in queued]
    assert [(e.turn_id, e.feedback_kind) for e in events] == [(asked.pk, "incorrect")]


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("question", "sentence"),
    [
        ("Remember that I prefer amounts in thousands", "I'll remember that"),
        ("Remember my password is hunter2-secret", "I won't remember that"),
    ],
)
def test_the_gates_preview_is_acknowledged_in_one_plain_sentence(corpus, user, question, sentence):
    (turn,) = session_answers(user, question)
    assert turn.gate_message.startswith(sentence) and turn.answer == turn.gate_message
    assert turn.blocks == [
        {"kind": "summary", "text": turn.gate_message, "header": [], "rows": [], "items": [], "title": ""}
    ]


@pytest.mark.django_db
def test_a_standing_preference_alone_is_answered_with_a_plain_noted_sentence(corpus, user):
    (turn,) = session_answers(user, "From now on, show amounts in euros")
    assert turn.answer == turn.gate_message == "Noted: you prefer amounts in euros."


@pytest.mark.django_db
def test_a_preference_said_beside_a_question_gets_the_answer_and_the_acknowledgement(corpus, user):
    (turn,) = session_answers(
        user, "How many open orders does Saltmarsh Energy Services have? Going forward, show amounts in thousands."
    )
    count = Order.objects.filter(customer__name="Saltmarsh Energy Services", status="open").count()
    assert turn.answer.startswith(f"{count} open order")
    assert turn.gate_message == "Noted: you prefer amounts in thousands."
    assert turn.answer.endswith(turn.gate_message)


@pytest.mark.django_db
def test_a_volunteered_secret_is_answered_and_the_answer_says_it_was_not_kept(corpus, user):
    (turn,) = session_answers(
        user, "My password is Qw3rty!2026 by the way. What are Saltmarsh Energy Services' payment terms?"
    )
    assert "Saltmarsh Energy Services pays on net" in turn.answer
    assert turn.gate_message.startswith("I won't keep that: it looks like a secret")
    assert "Qw3rty" not in turn.answer


@pytest.mark.django_db
def test_a_remember_request_and_a_question_in_one_message_are_both_answered(corpus, user):
    (turn,) = session_answers(user, "Remember that I look after Denver. How many open orders are there in Denver?")
    denver = Order.objects.filter(customer__city="Denver", status="open").count()
    assert f"{denver} open orders in Denver" in turn.answer
    assert turn.gate_message == "I'll remember that you look after Denver."
    (alone,) = session_answers(user, "Remember that I look after Boulder.")
    assert alone.answer == "I'll remember that you look after Boulder."
    # Joined by "and" in one sentence: the question is answered too, and only the first part kept.
    (joined,) = session_answers(user, "Remember that I look after Aurora and how many open orders are in Denver?")
    assert f"{denver} open orders in Denver" in joined.answer
    assert joined.gate_message == "I'll remember that you look after Aurora."


@pytest.mark.django_db
def test_no_noted_sentence_for_a_preference_the_user_forgot_before(corpus, user):
    from memory.store import forget_memory, write_memory

    note = write_memory(
        user, kind="preference", statement="Prefers amounts in euros.", author="rule", subject="currency", value="EUR"
    )
    forget_memory(user, note.pk)
    (turn,) = session_answers(user, "From now on, show amounts in euros")
    assert "Noted" not in turn.answer


@pytest.mark.django_db
def test_a_data_question_about_documents_quotes_the_passage_with_its_title(corpus, user):
    (turn,) = session_answers(user, "What does the policy memo say about credit limits?")
    quotes = [b for b in turn.blocks if b["kind"] == "quote"]
    assert quotes and quotes[0]["title"] == "Policy memo: credit limits"


@pytest.mark.django_db
def test_an_out_of_scope_question_gets_no_passage_and_no_figure(corpus, user):
    (turn,) = session_answers(user, "Will it be sunny in Portland this weekend?")
    assert [b["kind"] for b in turn.blocks] == ["summary"]
    assert not any(ch.isdigit() for ch in turn.answer)


def test_the_judge_marks_a_different_figure_wrong_and_a_figure_in_an_abstention_not_abstained():
    assert judge("4 open orders for Kestrel Foods.", Expected(numbers=(Decimal(4),))) == "correct"
    assert judge("3 open orders for Kestrel Foods.", Expected(numbers=(Decimal(4),))) == "wrong"
    assert judge("I can't answer that from the records.", Expected(numbers=(Decimal(4),))) == "abstained"
    assert judge("I can't answer that, but sales were 12.", Expected(abstain=True)) == "wrong"
    ranked = Expected(names=("A Co", "B Co"), ordered=True)
    assert judge("1. B Co 2. A Co", ranked) == "wrong" and judge("1. A Co 2. B Co", ranked) == "correct"


def test_the_judge_reads_yes_or_no_after_what_the_answer_says_it_read():
    read = "Read \u2018vally\u2019 as \u2018valley\u2019. Read \u2018ordrs\u2019 as \u2018orders\u2019.\n\n"
    assert judge(read + "Yes: 3 orders for Aire Valley Brewing.", Expected(yes=True)) == "correct"
    assert judge(read + "No: no orders for Aire Valley Brewing.", Expected(yes=True)) == "wrong"
    assert judge("Yes, and I read \u2018vally\u2019 as \u2018valley\u2019.", Expected(yes=False)) == "wrong"


@pytest.mark.django_db
@pytest.mark.evaluation
@pytest.mark.parametrize(
    "cases",
    [
        "answer_own_cases.jsonl",
        "regression/answers_set1.jsonl",
        "regression/answers_set2.jsonl",
        "regression/answers_set3.jsonl",
        "regression/answers_set4.jsonl",
        "regression/answers_set5.jsonl",
    ],
)
def test_eval_answers_on_our_own_cases_and_regression_fixtures_has_no_wrong_answer(corpus, cases):
    # Every case, each judged by its truth text (chat/truth.py, independent of the planner):
    # a regression in the planner shows here as a wrong or abstained answer.
    path = FIXTURES / cases
    count = sum(1 for line in path.read_text(encoding="utf-8").splitlines() if line.strip())
    out = StringIO()
    call_command("eval_answers", str(path), json=True, stdout=out)
    report = json.loads(out.getvalue())
    assert report["summary"]["cases"] == count >= 40
    wrong = [c for c in report["cases"] if c["verdict"] == "wrong"]
    assert report["summary"]["wrong"] == 0, wrong
    assert report["summary"]["correct"] >= 0.99, [c for c in report["cases"] if c["verdict"] != "correct"]
    with acting_user(0):
        assert not Turn.objects.exists()  # the evaluation leaves nothing behind


# The sets of another size than 45 (the ninth session's helper wrote 25 a set).
SIZES = {"regression/answers_set36.jsonl": 25, "regression/answers_set37.jsonl": 25}


@pytest.mark.django_db
@pytest.mark.evaluation
@pytest.mark.parametrize(
    ("name", "correct", "wrong", "day"),
    [
        ("regression/answers_set6.jsonl", 0.71, 0, 3),  # blind first run: correct 0.667, wrong 0.044
        ("regression/answers_set7.jsonl", 0.8, 0, 3),  # blind first run (issue 17): correct 0.667, wrong 0.133
        # Blind first runs (3 Dec): 0.889 / 0.067 wrong and 0.778 / 0.156 wrong; fixed against in
        # issue 29. The one wrong left in set10 is "the past 30 days": Atlas counts 30 days to
        # today, the truth 31 (a convention, not a class fixed here).
        ("regression/answers_set10.jsonl", 0.97, 1, 3),
        ("regression/answers_set11.jsonl", 1.0, 0, 3),
        # Held out until 3 Dec (0.733 / 0.178 wrong and 0.889 / 0.044 wrong on ffa79d6), then fixed
        # against by class (planner-dec3c).
        ("regression/answers_set12.jsonl", 1.0, 0, 3),
        ("regression/answers_set13.jsonl", 1.0, 0, 3),
        # Held out until 4 Dec (first runs 0.844 / 0.022 wrong and 0.667 / 0.133 wrong), then fixed against
        # by class (planner-dec4, then planner-dec4b: 0.889 -> 0.911 and 0.867 / 2 wrong -> 0.933 / 0).
        # The wrong left: legal advice answered from the policy documents (set14).
        ("regression/answers_set14.jsonl", 0.91, 1, 3),
        ("regression/answers_set15.jsonl", 0.93, 0, 3),
        # Blind first runs (4 Dec, helper-blind-9): set16 correct 0.800 / wrong 0.067, set17 0.844 / 0.044;
        # fixed against by class (planner-dec4b: order and revenue verbs, shorthand, periods bounded by
        # today, narrowing and same-period follow-ups, "which of them"). Their truths say "today" for
        # 4 December 2026.
        ("regression/answers_set16.jsonl", 1.0, 0, 4),
        ("regression/answers_set17.jsonl", 1.0, 0, 4),
        # Blind first runs (4 Dec, helper-blind-14): set18 correct 0.733 / abstained 0.067 / wrong 0.044 /
        # unjudged 0.156, set19 0.756 / 0.089 / 0.022 / 0.133. Then the truth reader learned the unread truths
        # (set18 0.844 / 0.067 wrong, set19 0.800 / 0.067 wrong, none unjudged) and classes with blind rows were
        # fixed (branch reader-dec4): set18 0.867 / 0.044 wrong, set19 0.933 / 0. Later (third session) the bare
        # month read backwards for renewals ("renewing in january" in December) was fixed by class
        # (renewal_bare_month, helper-blind-25's rows): set18 0.911. The wrong left in set18: a policy document
        # quoted for a count of orders ("across the board"), a class without blind rows.
        ("regression/answers_set18.jsonl", 0.91, 1, 4),
        ("regression/answers_set19.jsonl", 0.93, 0, 4),
        # Blind first runs (helper-blind-18): set20 correct 0.733 / wrong 0.044, set21 0.778 / 0.089 wrong;
        # fixed against by class with helper-blind-25's rows (extreme orders without cancelled ones, a
        # customer's field asked of an order number, "the sum of", "in there", remarks, segments compared):
        # 0.822 / 0 wrong and 0.867 / 0 wrong. The rest unjudged: truths the reader cannot read yet.
        ("regression/answers_set20.jsonl", 0.82, 0, 4),
        ("regression/answers_set21.jsonl", 0.86, 0, 4),
        # Blind first runs (helper-blind-22, on 45af484): set22 correct 0.400 / wrong 0 / unjudged 0.556,
        # set23 0.356 / 0.044 / 0.556. The reader then learned their truths, and classes with blind rows
        # (helper-blind-28's) were fixed: 0.956 and 0.956. The wrong left in each is "the last 90 days" and
        # "the last 30 days" read as the 90 (30) days up to today, today included; the truths start a day
        # earlier (today minus 90 days), a convention people split on: the answer states its dates.
        ("regression/answers_set22.jsonl", 0.95, 1, 4),
        ("regression/answers_set23.jsonl", 0.95, 1, 4),
        # Blind first runs (helper-64, on 9e0b938): set24 correct 0.489 / wrong 0 / unjudged 0.289, set25 0.578 /
        # 0.022 / 0.267; 0.733 / 0 and 0.822 / 0.022 on 01af3fd. Read in the fifth session and fixed by class
        # with helper-80's rows (remarks after the question, counts without cancelled orders, words for overdue,
        # renewal verbs, "bookings", greetings, "k" opening a turn): 0.978 / 0 and 0.978 / 0.
        ("regression/answers_set24.jsonl", 0.97, 0, 4),
        ("regression/answers_set25.jsonl", 0.97, 0, 4),
        # Blind first runs (helper-78, on 01af3fd): set26 correct 0.800 / wrong 0, set27 0.800 / 0.044 wrong;
        # 0.867 / 0 and 0.822 / 0.044 on e768489, unread. Read in the sixth session and fixed by class with
        # helper-89's rows (words typed as they sound, money as the yardstick, orders marked with a status,
        # "which of them are on net 45", a comparison asked after one figure, the customer a ranking named
        # as "their"): 0.911 / 0 and 0.911 / 0. The rest unjudged: truths the reader cannot read.
        ("regression/answers_set26.jsonl", 0.91, 0, 4),
        ("regression/answers_set27.jsonl", 0.91, 0, 4),
        # Blind first runs (helper-87, truths put in the reader's grammar by helper-90; on e768489): set28
        # correct 0.778 / wrong 0.044, set29 0.800 / 0.067; read late in the sixth session and fixed by class with
        # helper-94's rows ("w/ numbers", halves of one year, counts without cancelled in a trailing clause,
        # misspelt name words that split into two English words): 0.822 / 0.022 and 0.867 / 0.022. The wrong left:
        # "billed X since they signed" (answered with the signing date) and a period swapped after a did-you-mean
        # (answered over all customers).
        ("regression/answers_set28.jsonl", 0.82, 1, 4),
        ("regression/answers_set29.jsonl", 0.86, 1, 4),
        # Blind first runs (helper-96, truths checked with the reader only; on d94c9ab before any change):
        # set30 correct 0.867 / wrong 0.089, set31 0.822 / 0.089. Read in the seventh session and fixed by class
        # with helper-blind-98's and -100's rows (lists shown whole, real-word slips in names, asides beside a
        # question about one customer, "same but by order count", "b/w", "the vet one"): 0.956 / 0.022 and
        # 1.000 / 0. The wrong left: "the acct number for X for an invoice" is answered with X's order total.
        ("regression/answers_set30.jsonl", 0.95, 1, 4),
        ("regression/answers_set31.jsonl", 0.97, 0, 4),
        # Blind first runs: set32 (helper-102, on 2779915) 0.933 / wrong 0; set33 and set34 (helper-108, on e217547
        # before any change) 0.978 / 0.022 and 0.956 / 0.044; set35 (helper-115, written mid-session, on 5dc95a8)
        # 0.956 / 0.044. Read in the eighth session and fixed by class (helper-blind-111's, -113's, -116's and
        # -118's rows): all four 1.000 / 0.
        ("regression/answers_set32.jsonl", 0.97, 0, 4),
        ("regression/answers_set33.jsonl", 0.97, 0, 4),
        ("regression/answers_set34.jsonl", 0.97, 0, 4),
        ("regression/answers_set35.jsonl", 0.97, 0, 4),
        # Blind first runs (helper-120, 25 cases each, truths checked with the reader only; on 5e6a4db before any
        # change): 0.920 correct / 0.040 wrong each; both wrong verdicts were the judge's (a yes read only at the
        # very start, before "Read 'x' as 'y'."). Read in the ninth session and fixed by class (the judge;
        # helper-blind-124's rows: "whereabouts", a remark that reports what someone says): 1.000 / 0 each.
        ("regression/answers_set36.jsonl", 0.97, 0, 4),
        ("regression/answers_set37.jsonl", 0.97, 0, 4),
    ],
)
def test_a_regression_fixture_first_written_blind_has_no_wrong_answer(corpus, name, correct, wrong, day):
    # 45 cases a helper wrote without reading the planner, fixed against since (a regression
    # fixture, no longer held out); what Atlas cannot read it must say so, never answer wrongly.
    # The clock is the day the sets were last fixed against: their truths say "to today (3
    # December 2026)" (or the 4th), and "this year" or "the last 30 days" move with it.
    out = StringIO()
    with time_machine.travel(datetime(2026, 12, day, 12, tzinfo=UTC), tick=False):
        call_command("eval_answers", str(FIXTURES / name), json=True, stdout=out)
    report = json.loads(out.getvalue())
    assert report["summary"]["cases"] == SIZES.get(name, 45)
    wrongs = [c for c in report["cases"] if c["verdict"] == "wrong"]
    assert len(wrongs) <= wrong, wrongs
    assert report["summary"]["correct"] >= correct


@pytest.mark.django_db
def test_a_policy_question_without_document_words_is_answered_by_a_close_passage(corpus, user):
    (turn,) = session_answers(user, "On which weekdays do cold-chain deliveries go out?")
    quotes = [b for b in turn.blocks if b["kind"] == "quote"]
    assert quotes and quotes[0]["title"] == "Policy memo: shipping cut-off times"


# --- reading truth texts (atlas.tooling.truth) -----------------------------------------------------------

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
DEV = shared_benchmarks() / "answers" / "dev.jsonl"


def jsonl(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def reading(truth: str, *turns: str, **case):
    return read_truth({"truth": truth, "turns": list(turns), **case})


@pytest.mark.django_db
def test_the_readings_of_the_dev_truths_equal_the_checks_written_by_hand(corpus):
    checks = {row["id"]: row["check"] for row in jsonl(FIXTURES / "answer_dev_checks.jsonl")}
    names = load_names()
    for case in jsonl(DEV):
        expected = checks.get(case["id"], {"abstain": True} if case.get("out_of_scope") else None)
        assert read_truth(case, names).check == expected, case["id"]


@pytest.mark.django_db
def test_the_readings_of_our_own_truths_equal_their_hand_written_checks(corpus):
    checks = {row["id"]: row["check"] for row in jsonl(FIXTURES / "answer_own_checks.jsonl")}
    cases = {case["id"]: case for case in jsonl(FIXTURES / "answer_own_cases.jsonl")}
    names = load_names()
    assert len(checks) >= 140
    mismatched = {i: read_truth(cases[i], names).check for i, check in checks.items()}
    assert {i: c for i, c in mismatched.items() if c != checks[i]} == {}
    assert all(read_truth(case, names).check for case in cases.values())  # every own case is readable


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("truth", "turns", "check"),
    [
        (
            "number of paid orders for the customer ordered in the last 30 days",
            ["How many paid orders has Juniper Family Dental had lately?"],
            {"count_orders": {"customer": "Juniper Family Dental", "status": "paid", "period": "last_days:30"}},
        ),
        (
            "the top 2 segments ranked by the count of cancelled orders ordered in Q1 2026",
            [],
            {
                "rank": {
                    "group": "segment",
                    "limit": 2,
                    "status": "cancelled",
                    "period": "quarter:2026-1",
                    "measure": "count",
                }
            },
        ),
        (
            "segment with the smallest sum of non-cancelled order amounts in the north region",
            [],
            {"rank": {"group": "segment", "limit": 1, "region": "north", "ascending": True}},
        ),
        (
            "total of non-cancelled order amounts per region ordered in May 2026",
            [],
            {"grouped": {"group": "region", "measure": "sum", "period": "month:2026-05", "revenue": True}},
        ),
        (
            "renewal date of that customer's latest contract",
            ["Which region is Menomonee Cold Storage in?", "When does their contract renew?"],
            {"contract": {"customer": "Menomonee Cold Storage", "field": "renewal_date"}},
        ),
        ("the order with that number", ["Pull up SO-87002"], {"order": "SO-87002"}),
        (
            "customers with city Kansas City and segment enterprise",
            [],
            {"customers": {"city": "Kansas City", "segment": "enterprise"}},
        ),
        (
            "customers with a count of paid orders at least 100",
            [],
            {"having": {"status": "paid", "more_than": 99}},
        ),
        (
            "count of contracts whose renewal date lies in next quarter",
            [],
            {"count_renewals": {"period": "next quarter"}},
        ),
        (
            "customers in the west region with a count of shipped orders above 3",
            [],
            {"having": {"status": "shipped", "more_than": 3, "region": "west"}},
        ),
        (
            "the credit limit on the most recent contract of the customer",
            ["Saltmarsh credit?"],
            {"contract": {"customer": "Saltmarsh Energy Services", "field": "credit_limit"}},
        ),
        (
            "Heartland's account code",
            [],
            {"customer_field": {"customer": "Heartland Grain Cooperative", "field": "account_code"}},
        ),
        ("the smallest order in the mid-market segment", [], {"smallest_order": {"segment": "mid-market"}}),
        ("share price: not in the corpus", [], {"abstain": True}),
        # Readings added by the blind held-out check; a renewals truth keeps its region.
        (
            "contracts of customers in the east region whose renewal date lies between today and the next 4 months",
            [],
            {"renewals": {"period": "next_months:4", "region": "east"}},
        ),
        ("city with the largest sum of non-cancelled order amounts", [], {"rank": {"group": "city", "limit": 1}}),
        (
            "orders with status shipped for Kestrel Foods ordered last month",
            [],
            {"orders": {"customer": "Kestrel Foods", "status": "shipped", "period": "last month"}},
        ),
        (
            "count of customers whose latest contract has payment terms net 45",
            [],
            {"count_customers": {"terms": "net 45"}},
        ),
        (
            "customers with a sum of non-cancelled order amounts ordered last year above 250000",
            [],
            {"having_sum": {"more_than": "250000", "period": "last year", "revenue": True}},
        ),
        ("mean credit limit of current contracts", [], {"contract_agg": {"measure": "avg"}}),
    ],
)
def test_truth_texts_of_each_kind_read_into_checks(corpus, truth, turns, check):
    assert reading(truth, *turns).check == check


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("truth", "turns", "reason"),
    [
        ("count of open orders for Northline", [], "could be more than one customer"),
        ("median amount of non-cancelled orders ordered this year", [], "no reading"),
        ("count of orders weighted by margin", [], "unknown words ['weighted', 'margin']"),
        ("credit limit of the customer's latest contract", ["What's our credit policy?"], "no turn names"),
        (
            "count of open orders for that customer",
            ["Compare Kestrel Foods and Saguaro Solar"],
            "more than one customer",
        ),
        (
            "customers ranked by the sum of order amounts ordered last year",
            ["Who were our best customers?"],
            "number of places",
        ),
        ("", [], "no truth text"),
        ("sum of non-cancelled order amounts by month ordered this year", [], "sum_orders does not take 'by month'"),
        ("sum of amounts of orders with amount between 100 and 500", [], "sum_orders does not take '1'"),
        ("count of the largest orders for Kestrel Foods", [], "count_orders does not take 'largest'"),
        ("count of customers with a count of overdue orders above 3", [], "count_customers does not take"),
    ],
)
def test_a_truth_the_reader_cannot_read_gives_no_check_and_says_why(corpus, truth, turns, reason):
    result = reading(truth, *turns)
    assert result.check is None and reason in result.reason


@pytest.mark.django_db
def test_an_explicit_check_wins_over_the_truth_text(corpus):
    case = {"id": "x", "turns": [], "truth": "count of customers", "check": {"count_customers": {"region": "west"}}}
    assert check_for(case, {}) == ({"count_customers": {"region": "west"}}, "")
    assert check_for({**case, "check": None}, {"x": {"order": "SO-87002"}}) == ({"order": "SO-87002"}, "")


def test_the_periods_the_truth_language_adds():
    today = date(2026, 12, 10)
    assert period_bounds("next month", today) == (date(2027, 1, 1), date(2027, 1, 31))
    assert period_bounds("next quarter", today) == (date(2027, 1, 1), date(2027, 3, 31))
    assert period_bounds("end_of_this_month", today) == (today, date(2026, 12, 31))
    assert period_bounds("next_months:3", date(2026, 11, 30)) == (date(2026, 11, 30), date(2027, 2, 28))


@pytest.mark.django_db
def test_eval_answers_judges_every_dev_case_without_a_checks_file(corpus):
    out = StringIO()
    call_command("eval_answers", str(DEV), json=True, stdout=out)
    summary = json.loads(out.getvalue())["summary"]
    assert (summary["cases"], summary["unjudged"], summary["wrong"]) == (21, 0, 0)
