"""Answers a user can trust, through the real turn: stale filters never reach a new question,
follow-ups swap one slot, corrections typed into the chat are answered and reach the gate,
the gate's sentence acknowledges what was learned, and the evaluation judges honestly."""

import json
from datetime import date
from decimal import Decimal
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command
from django.db.models import Count, Sum
from django.utils import timezone

from chat.evaluation import Expected, judge
from chat.models import Feedback, Order, Turn
from chat.turn import ask, start_session
from memory.rls import acting_user

OWN_CASES = Path(__file__).resolve().parents[1] / "fixtures" / "answer_own_cases.jsonl"


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


@pytest.mark.django_db
def test_eval_answers_on_our_own_cases_has_no_wrong_answer(corpus):
    out = StringIO()
    call_command("eval_answers", str(OWN_CASES), json=True, stdout=out)
    report = json.loads(out.getvalue())
    wrong = [c for c in report["cases"] if c["verdict"] != "correct"]
    assert report["summary"]["wrong"] == 0, wrong
    assert report["summary"]["correct"] >= 0.95
    with acting_user(0):
        assert not Turn.objects.exists()  # the evaluation leaves nothing behind


@pytest.mark.django_db
def test_a_policy_question_without_document_words_is_answered_by_a_close_passage(corpus, user):
    (turn,) = session_answers(user, "On which weekdays do cold-chain deliveries go out?")
    quotes = [b for b in turn.blocks if b["kind"] == "quote"]
    assert quotes and quotes[0]["title"] == "Policy memo: shipping cut-off times"
