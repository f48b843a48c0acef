"""The chat turn on the demo corpus: follow-ups, clarification, memory in the answer, failures."""

from datetime import UTC, datetime

import pytest
from django.core.exceptions import ValidationError
from django.db import connection
from django.test.utils import CaptureQueriesContext

from chat.models import ChatSession, Turn
from chat.state import load_state
from chat.turn import TurnFailed, ask, start_session
from memory.rls import acting_user
from memory.store import set_paused, write_memory

pytestmark = pytest.mark.turn


@pytest.fixture
def user(make_user):
    return make_user()


def remember(user, statement, *, kind="preference", written=datetime(2026, 3, 14, 15, tzinfo=UTC), **extra):
    with acting_user(user.pk):
        return write_memory(user, kind=kind, statement=statement, source_at=written, created_at=written, **extra)


@pytest.mark.django_db
def test_a_follow_up_is_answered_about_the_customer_in_focus(corpus, user):
    session = start_session(user)
    first = ask(user, session=session, question="Show me Kestrel Foods orders last quarter")
    assert "orders for Kestrel Foods last quarter (" in first.answer
    second = ask(user, session=session, question="What are their payment terms?")
    assert "Kestrel Foods pays on net 30" in second.answer
    with acting_user(user.pk):
        first.refresh_from_db()
        assert first.followup is True  # the next question stayed on Kestrel Foods
        assert list(Turn.objects.filter(session=session).values_list("question", flat=True)) == [
            "Show me Kestrel Foods orders last quarter",
            "What are their payment terms?",
        ]


@pytest.mark.django_db
def test_a_topic_change_is_not_a_follow_up(corpus, user):
    session = start_session(user)
    first = ask(user, session=session, question="Show me Kestrel Foods orders")
    ask(user, session=session, question="What is the policy on free delivery in the western region?")
    with acting_user(user.pk):
        first.refresh_from_db()
    assert first.followup is False
    assert load_state(user.pk, session.pk).focus is None


@pytest.mark.django_db
def test_an_ambiguous_name_gets_one_clarifying_question_and_the_pick_answers_it(corpus, user):
    session = start_session(user)
    clarify = ask(user, session=session, question="What are Northline's payment terms?")
    assert clarify.kind == Turn.Kind.CLARIFY
    assert [o["label"] for o in clarify.options] == [
        "Northline Freight — Portland, acct ACCT-10442",
        "Northline Logistics — Leeds, acct ACCT-20817",
    ]
    assert "net" not in clarify.answer  # nothing answered about either customer yet
    picked = ask(user, session=session, question="The one in Leeds")
    assert picked.kind == Turn.Kind.ANSWER
    assert "Northline Logistics pays on net 60" in picked.answer


@pytest.mark.django_db
def test_a_reply_naming_both_options_is_asked_again_not_answered_for_the_first(corpus, user):
    session = start_session(user)
    ask(user, session=session, question="What are Northline's payment terms?")
    again = ask(user, session=session, question="Either Portland or Leeds")
    assert again.kind == Turn.Kind.CLARIFY
    assert again.answer == (
        "Two of them match that. Which one?\n"
        "- Northline Freight — Portland, acct ACCT-10442\n"
        "- Northline Logistics — Leeds, acct ACCT-20817"
    )
    assert load_state(user.pk, session.pk).focus is None
    picked = ask(user, session=session, question="Leeds")
    assert "Northline Logistics pays on net 60" in picked.answer


@pytest.mark.django_db
def test_picking_by_option_id(corpus, user):
    session = start_session(user)
    clarify = ask(user, session=session, question="Northline credit limit?")
    freight = next(o for o in clarify.options if "Freight" in o["label"])
    picked = ask(user, session=session, question=freight["label"], option_id=freight["id"])
    assert "Northline Freight has a credit limit of $115,000.00" in picked.answer


@pytest.mark.django_db
def test_a_stale_note_is_overruled_by_the_contract(corpus, user, settings):
    settings.ATLAS_HOLDOUT = False  # memory on every eligible turn (hold-out has its own tests)
    stale = remember(user, "Northline Freight is on net 30 payment terms.", kind="correction", author="user")
    turn = ask(user, session=None, question="What are Northline Freight's payment terms?")
    assert "pays on net 45" in turn.answer
    assert "A note from March said net 30, which no longer matches the contract." in turn.answer
    assert (turn.recalled[0]["memory_id"], turn.recalled[0]["influence"]) == (stale.pk, "out-of-date")


@pytest.mark.django_db
def test_a_preference_shapes_the_answer_and_the_turn_records_it(corpus, user, settings):
    settings.ATLAS_HOLDOUT = False
    pref = remember(user, "Wants dates as YYYY-MM-DD.", facets={"date_format": "iso"})
    turn = ask(user, session=None, question="When does Kestrel Foods' contract renew?")
    assert turn.eligible and not turn.held_out
    assert "2027-02-28" in turn.answer
    assert [(n["memory_id"], n["influence"], n["how"]) for n in turn.recalled] == [
        (pref.pk, "applied", "Wrote dates as YYYY-MM-DD (ISO)")
    ]
    assert turn.recalled[0]["statement"] == "Wants dates as YYYY-MM-DD."


@pytest.mark.django_db
def test_a_region_note_narrows_an_open_orders_question(corpus, user, settings):
    settings.ATLAS_HOLDOUT = False
    note = remember(user, "Covers the western sales region.", kind="context", facets={"region": "west"})
    turn = ask(user, session=None, question="Which orders in my sales region are overdue?")
    assert turn.answer.startswith(
        "Narrowed to the West region, from your note \u201cCovers the western sales region\u201d. "
        "Ask for all regions to see the whole company."
    )
    assert "overdue orders in the West region across all dates" in turn.answer
    influence = {n["memory_id"]: n["influence"] for n in turn.recalled}
    assert influence[note.pk] == "narrowed"


@pytest.mark.django_db
def test_paused_memory_is_not_recalled(corpus, user):
    remember(user, "Wants dates as YYYY-MM-DD.")
    set_paused(user, paused=True)
    turn = ask(user, session=None, question="When does Kestrel Foods' contract renew?")
    assert turn.recalled == [] and not turn.eligible and "28 Feb 2027" in turn.answer


@pytest.mark.django_db
def test_an_explicit_remember_request_is_answered_with_the_gates_sentence(corpus, user):
    session = start_session(user)
    ask(user, session=session, question="Show overdue orders in the west last quarter")
    turn = ask(user, session=session, question="Remember that I cover the western region")
    assert turn.gate_message.startswith("I'll remember that")
    # Only the gate's sentence: the session's filters do not run an orders query for it.
    assert turn.answer == turn.gate_message


@pytest.mark.django_db
def test_the_gate_is_queued_after_the_turn_commits(corpus, user, django_capture_on_commit_callbacks):
    from django_q.models import OrmQ

    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        turn = ask(user, session=None, question="Show me Kestrel Foods orders in the west last quarter")
    assert len(callbacks) == 1
    from memory.models import GateEvent

    payloads = [task.task for task in OrmQ.objects.all()]
    args = next(p["args"] for p in payloads if p["func"] == "memory.tasks.gate_event")
    # The task carries ids only; the question waits under RLS in the gate event row.
    with acting_user(user.pk):
        event = GateEvent.objects.get(pk=args[1])
    assert args == (user.pk, event.pk) and turn.question not in repr(payloads)
    assert event.turn_id == turn.pk and event.text == turn.question
    assert event.filters == {"period": "last quarter", "region": "west"}


@pytest.mark.django_db
def test_a_turn_with_nothing_for_the_gate_queues_no_event(corpus, user, django_capture_on_commit_callbacks):
    from django_q.models import OrmQ

    from memory.models import GateEvent
    from memory.tasks import run_event

    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        turn = ask(user, session=None, question="What are Northline Freight's payment terms?")
    assert callbacks == [] and not OrmQ.objects.exists()
    with acting_user(user.pk):
        assert not GateEvent.objects.exists()
        assert Turn.objects.get(pk=turn.pk).gate_queued is False
    # A filter's first occurrence in a session is queued; once the gate counted it, the same
    # filters again in that session are not.
    question = "Show me Kestrel Foods orders in the west last quarter"
    with django_capture_on_commit_callbacks(execute=True):
        first = ask(user, session=None, question=question)
    assert first.gate_queued and OrmQ.objects.count() == 1
    with acting_user(user.pk):
        run_event(user.pk, GateEvent.objects.get().pk)
    with django_capture_on_commit_callbacks(execute=True):
        again = ask(user, session=first.session, question=question)
    assert again.gate_queued is False and OrmQ.objects.count() == 1


@pytest.mark.django_db
def test_a_failing_gate_check_still_answers_and_queues_the_gate(
    corpus, user, monkeypatch, django_capture_on_commit_callbacks
):
    from django_q.models import OrmQ

    import memory.gate.admission

    def broken(event, *, user):
        raise RuntimeError("a rule failed")

    monkeypatch.setattr(memory.gate.admission, "gate_has_work", broken)
    with django_capture_on_commit_callbacks(execute=True):
        turn = ask(user, session=None, question="What are Northline Freight's payment terms?")
    assert turn.answer and turn.gate_queued and OrmQ.objects.count() == 1


@pytest.mark.django_db
def test_the_turn_hands_what_it_read_to_the_gate_event(corpus, user, django_capture_on_commit_callbacks):
    from memory.gate import GATE_VERSION
    from memory.models import GateEvent
    from memory.rls import acting_user

    with django_capture_on_commit_callbacks(execute=False):
        ask(user, session=None, question="Please remember that I look after the Baltic shipping accounts.")
    with acting_user(user.pk):
        read = GateEvent.objects.get().findings
    assert read["version"] == GATE_VERSION
    assert [(f["action"], f["kind"], f["statement"]) for f in read["findings"]] == [
        ("write", "context", "Looks after the Baltic shipping accounts.")
    ]


@pytest.mark.django_db
def test_prompt_tokens_are_recorded_and_answers_are_never_replayed(corpus, user):
    session = start_session(user)
    turns = [
        ask(user, session=session, question=q)
        for q in ("Show me Kestrel Foods orders", "What are their payment terms?", "Which orders of theirs are open?")
    ]
    assert all(t.prompt_tokens > 0 for t in turns)
    assert turns[0].answer not in turns[2].prompt.text
    # Bounded state: later turns cost no more than the first (chapter 92), never its answers again.
    assert max(t.prompt_tokens for t in turns[1:]) <= 1.10 * turns[0].prompt_tokens


@pytest.mark.django_db
@pytest.mark.parametrize("question", ["", "   ", "x" * 2001])
def test_empty_or_oversized_questions_are_rejected(user, question):
    with pytest.raises(ValidationError):
        ask(user, session=None, question=question)
    with acting_user(user.pk):
        assert not Turn.objects.exists() and not ChatSession.objects.exists()


@pytest.mark.django_db
def test_another_users_session_is_refused(make_user):
    from django.core.exceptions import PermissionDenied

    owner, other = make_user(), make_user()
    session = start_session(owner)
    with pytest.raises(PermissionDenied):
        ask(other, session=session, question="What are their payment terms?")


@pytest.mark.django_db
def test_an_embedding_failure_mid_turn_saves_nothing(corpus, user, settings):
    from memory.embeddings import get_embedder

    session = start_session(user)
    ask(user, session=session, question="Show me Kestrel Foods orders")
    before = load_state(user.pk, session.pk)
    settings.ATLAS_EMBEDDER = "http"
    settings.ATLAS_EMBEDDING_URL = "http://127.0.0.1:9/embeddings"
    get_embedder.cache_clear()
    try:
        with pytest.raises(TurnFailed, match="embedding model failed. Nothing was saved"):
            ask(user, session=session, question="What do the account notes say about them?")
    finally:
        get_embedder.cache_clear()
    with acting_user(user.pk):
        assert Turn.objects.filter(session=session).count() == 1
    assert load_state(user.pk, session.pk).recent_questions == before.recent_questions


@pytest.mark.django_db(transaction=True)
def test_a_database_failure_mid_turn_saves_nothing(user):
    """The turn row is written, then saving the answer fails in Postgres: nothing survives."""
    from django.db import connection

    from atlas.db import as_owner

    with as_owner(connection), connection.cursor() as cur:
        cur.execute(
            "CREATE FUNCTION fail_answer() RETURNS trigger LANGUAGE plpgsql AS "
            "$$ BEGIN RAISE EXCEPTION 'disk full (test)'; END $$"
        )
        cur.execute(
            "CREATE TRIGGER fail_answer BEFORE UPDATE OF answer ON chat_turn "
            "FOR EACH ROW WHEN (NEW.answer <> '') EXECUTE FUNCTION fail_answer()"
        )
    try:
        with pytest.raises(TurnFailed, match="database failed. Nothing was saved"):
            ask(user, session=None, question="What is the policy on free delivery?")
        with acting_user(user.pk):
            assert not Turn.objects.exists()
            assert not ChatSession.objects.exists()
    finally:
        with as_owner(connection), connection.cursor() as cur:
            cur.execute("DROP TRIGGER fail_answer ON chat_turn")
            cur.execute("DROP FUNCTION fail_answer()")


@pytest.mark.django_db
@pytest.mark.parametrize(
    "question",
    [
        "How many overdue orders do we have across the whole company?",
        "What were total sales by region this year?",
        "Who were our five biggest customers by order value in 2026, company-wide?",
        "How many overdue orders are there in total?",
        "Which overdue orders are there in the East?",  # the question states its own region
    ],
)
def test_a_region_note_never_narrows_a_question_that_asks_for_everything_or_states_its_scope(
    corpus, user, settings, question
):
    settings.ATLAS_HOLDOUT = False
    remember(user, "Covers the western sales region.", kind="context", facets={"region": "west"})
    turn = ask(user, session=None, question=question)
    assert "Narrowed" not in turn.answer
    assert "in the West region" not in turn.answer
    assert all(n["influence"] != "narrowed" for n in turn.recalled)


@pytest.mark.django_db
def test_a_situation_note_never_narrows(corpus, user, settings):
    settings.ATLAS_HOLDOUT = False
    remember(user, "Preparing the east region quarterly review.", kind="situation", facets={"region": "east"})
    turn = ask(user, session=None, question="What was the average order value by region last year?")
    assert "Narrowed" not in turn.answer and "East region" not in turn.answer.split("\n")[0]
    assert all(n["influence"] == "" for n in turn.recalled)


@pytest.mark.django_db
def test_a_follow_up_locks_its_session_and_moves_its_time_in_one_statement(corpus, user):
    session = start_session(user)
    ask(user, session=session, question="Show me Kestrel Foods orders last quarter")
    with acting_user(user.pk):
        before = ChatSession.objects.get(pk=session.pk).updated_at
    with CaptureQueriesContext(connection) as turn:
        ask(user, session=session, question="What are their payment terms?")
    touching = [q["sql"] for q in turn.captured_queries if '"chat_chatsession"' in q["sql"]]
    assert len(touching) == 1 and touching[0].startswith('UPDATE "chat_chatsession" SET "updated_at"')
    with acting_user(user.pk):
        assert ChatSession.objects.get(pk=session.pk).updated_at > before


@pytest.mark.django_db
def test_a_turn_writes_its_answer_and_whether_the_gate_was_queued_in_one_update(corpus, user):
    with CaptureQueriesContext(connection) as turn_queries:
        turn = ask(user, session=None, question="When does Kestrel Foods' contract renew?")
    writes = [q["sql"].split(" ", 2)[:2] for q in turn_queries.captured_queries if '"chat_turn"' in q["sql"]]
    assert writes == [["INSERT", "INTO"], ["UPDATE", '"chat_turn"']]
    with acting_user(user.pk):
        saved = Turn.objects.get(pk=turn.pk)
    assert saved.gate_queued is False and "28 Feb 2027" in saved.answer and saved.blocks
