"""Session state (chapter 92): slots from text and tools, decay, clarification, the cache."""

from datetime import timedelta

import pytest

from chat.state import (
    FILTER_TURNS,
    Candidate,
    Focus,
    SessionState,
    carried_filters,
    clear_state,
    content_word_overlap,
    decay_filters,
    gate_filters,
    load_state,
    remember_question,
    render_state,
    save_state,
    state_key,
    update_from_question,
)

KESTREL = Candidate(id="3", name="Kestrel Foods", city="Sacramento", account_code="ACCT-31206")
FREIGHT = Candidate(id="1", name="Northline Freight", city="Portland", account_code="ACCT-10442")
LOGISTICS = Candidate(id="2", name="Northline Logistics", city="Leeds", account_code="ACCT-20817")
MARINE = Candidate(id="4", name="Northline Marine", city="Seattle", account_code="ACCT-40975")


def ask(state, question, mentions=(), **kwargs):
    resolution = update_from_question(state, question, mentions=[list(m) for m in mentions], **kwargs)
    if resolution.clarify is None:
        remember_question(state, question)
    return resolution


def test_a_singular_and_its_plural_are_the_same_word_for_a_topic_change():
    assert content_word_overlap("Which order shipped late?", "Kestrel Foods orders that shipped late") == 1.0


def test_their_refers_back_to_the_focus():
    state = SessionState()
    ask(state, "Show me Kestrel Foods orders", [[KESTREL]])
    resolution = ask(state, "What are their payment terms?")
    assert resolution.refers_back and resolution.focus_dropped == ""
    assert state.focus.label == "Kestrel Foods"
    assert "Kestrel Foods" in resolution.rewritten


@pytest.mark.parametrize(
    ("question", "fmt"),
    [
        ("Keep it short, I'm on my phone", "short"),
        ("Explain their terms in detail", "detailed"),
        ("Show their orders as a table", "table"),
        ("What are their terms?", ""),
    ],
)
def test_format_requests_set_the_session_format(question, fmt):
    state = SessionState()
    ask(state, question)
    assert state.format == fmt


def test_format_stays_for_the_session():
    state = SessionState()
    ask(state, "Keep it short, I'm on my phone")
    ask(state, "What are Kestrel Foods' terms?", [[KESTREL]])
    assert state.format == "short"


def test_a_filter_applies_on_the_turn_that_states_it_and_one_follow_up_then_decays():
    state = SessionState()
    decay_filters(state, {"period": "last quarter"})
    assert state.filters["period"]["turns_left"] == FILTER_TURNS
    assert carried_filters(state) == {"period": "last quarter"}  # the next turn may inherit it
    decay_filters(state, {"status": "overdue"})
    assert carried_filters(state) == {"status": "overdue"}  # one turn old: no longer inherited
    decay_filters(state, {})
    assert "period" not in state.active_filters()  # two turns old: gone


def test_restating_a_filter_keeps_it():
    state = SessionState()
    for _ in range(4):
        decay_filters(state, {"period": "last quarter"})
    assert carried_filters(state) == {"period": "last quarter"}


def test_the_session_block_and_the_gate_see_a_periods_name_not_its_dates():
    state = SessionState()
    decay_filters(state, {"period": "last quarter|2026-07-01|2026-09-30", "region": "west"})
    assert "period=last quarter" in render_state(state)
    assert gate_filters(state) == {"period": "last quarter", "region": "west"}


def test_that_contract_refers_back_to_the_focus():
    # "And when was that contract signed?" after a customer's credit limit: that customer's.
    state = SessionState()
    ask(state, "What's Kestrel Foods' credit limit?", [[KESTREL]])
    resolution = ask(state, "And when was that contract signed?")
    assert resolution.refers_back and state.focus.label == "Kestrel Foods"


def test_focus_drops_when_another_customer_is_named():
    state = SessionState()
    ask(state, "Kestrel Foods orders", [[KESTREL]])
    resolution = ask(state, "What about Northline Freight?", [[FREIGHT]])
    assert resolution.focus_dropped == "other-entity"
    assert state.focus.label == "Northline Freight"


def test_focus_drops_on_a_topic_change():
    state = SessionState(focus=Focus("customer", "3", "Kestrel Foods", True))
    remember_question(state, "Show me Kestrel Foods orders")
    resolution = ask(state, "What is the company policy on holiday shipping cutoffs?")
    assert resolution.focus_dropped == "topic-change"
    assert state.focus is None


@pytest.mark.parametrize(
    "question",
    ["What are their payment terms?", "And last quarter?", "As a table", "Any more orders from this customer?"],
)
def test_follow_ups_keep_the_focus(question):
    state = SessionState(focus=Focus("customer", "3", "Kestrel Foods", True))
    remember_question(state, "Show me Kestrel Foods orders")
    ask(state, question)
    assert state.focus is not None and state.focus.label == "Kestrel Foods"


@pytest.mark.parametrize(
    "reply",
    ["Only the overdue ones since June", "As a table for Q3 2025", "The overdue ones in the first quarter of 2025"],
)
def test_a_follow_up_stating_any_period_the_shared_reader_reads_keeps_the_focus(reply):
    """Session state asks the shared period reader which words name a period: "since June" and
    "Q3 2025" are no topic change (its own list knew only "last quarter", "ytd" and the like)."""
    state = SessionState(focus=Focus("customer", "3", "Kestrel Foods", True))
    remember_question(state, "Show me Kestrel Foods orders")
    resolution = ask(state, reply)
    assert resolution.focus_dropped == "" and state.focus.label == "Kestrel Foods"


def test_recent_questions_keep_the_last_three_texts_only():
    state = SessionState()
    for n in range(5):
        ask(state, f"Question number {n} about Kestrel Foods", [[KESTREL]])
    assert state.recent_questions == [f"Question number {n} about Kestrel Foods" for n in (2, 3, 4)]


def test_ambiguous_name_asks_once_and_never_picks():
    state = SessionState()
    resolution = ask(state, "What are Northline's payment terms?", [[FREIGHT, LOGISTICS]])
    assert resolution.clarify["question"] == 'Two customers match "Northline". Which one?'
    assert resolution.clarify["options"] == [
        {"id": "1", "label": "Northline Freight — Portland, acct ACCT-10442"},
        {"id": "2", "label": "Northline Logistics — Leeds, acct ACCT-20817"},
    ]
    assert state.focus is None


def test_three_matching_customers_are_counted_in_words():
    resolution = ask(SessionState(), "What are Northline's payment terms?", [[FREIGHT, LOGISTICS, MARINE]])
    assert resolution.clarify["question"] == 'Three customers match "Northline". Which one?'


@pytest.mark.parametrize(("count", "said"), [(4, "Four"), (5, "Five"), (6, "6")])
def test_more_matching_customers_are_counted_in_words_up_to_five_then_in_figures(count, said):
    cities = ["Portland", "Leeds", "Seattle", "Denver", "Austin", "Tampa"]
    similar = [
        Candidate(id=str(n), name=f"Northline {city}", city=city, account_code=f"ACCT-5000{n}")
        for n, city in enumerate(cities[:count], start=1)
    ]
    resolution = ask(SessionState(), "What are Northline's payment terms?", [similar])
    assert resolution.clarify["question"] == f'{said} customers match "Northline". Which one?'


@pytest.mark.parametrize(
    ("reply", "option_id", "picked"),
    [
        ("The one in Leeds", None, "Northline Logistics"),
        ("ACCT-10442", None, "Northline Freight"),
        ("Northline Freight — Portland, acct ACCT-10442", None, "Northline Freight"),
        ("", "2", "Northline Logistics"),
    ],
)
def test_picking_an_option_resolves_the_clarification(reply, option_id, picked):
    state = SessionState()
    ask(state, "What are Northline's payment terms?", [[FREIGHT, LOGISTICS]])
    resolution = ask(state, reply or "(picked)", option_id=option_id)
    assert resolution.picked.name == picked
    assert resolution.original_question == "What are Northline's payment terms?"
    assert (state.focus.type, state.focus.label, state.focus.confident) == ("customer", picked, False)


@pytest.mark.parametrize("reply", ["Portland or Leeds, I'm not sure", "ACCT-10442 or ACCT-20817"])
def test_a_reply_that_fits_several_options_asks_again_and_picks_none(reply):
    state = SessionState()
    ask(state, "What are Northline's payment terms?", [[FREIGHT, LOGISTICS]])
    again = ask(state, reply)
    assert again.picked is None and state.focus is None
    assert again.clarify == {
        "question": "Two of them match that. Which one?",
        "options": [
            {"id": "1", "label": "Northline Freight — Portland, acct ACCT-10442"},
            {"id": "2", "label": "Northline Logistics — Leeds, acct ACCT-20817"},
        ],
    }
    # The question stays open: the next, unambiguous reply answers the original question.
    picked = ask(state, "The one in Leeds")
    assert picked.picked.name == "Northline Logistics"
    assert picked.original_question == "What are Northline's payment terms?"
    assert picked.rewritten == "What are Northline's payment terms? (Northline Logistics)"


def test_an_option_id_that_was_not_offered_is_read_as_the_reply_and_picks_nothing_it_does_not_fit():
    # A stale or forged option id (another session's, another user's customer) is no pick; the
    # reply's words still are.
    state = SessionState()
    ask(state, "What are Northline's payment terms?", [[FREIGHT, LOGISTICS]])
    resolution = ask(state, "(picked)", option_id="3")
    assert resolution.picked is None and state.focus is None and state.pending is None
    ask(state, "What are Northline's payment terms?", [[FREIGHT, LOGISTICS]])
    resolution = ask(state, "The one in Leeds", option_id="99")
    assert resolution.picked.name == "Northline Logistics"


def test_a_reply_that_matches_no_option_picks_nothing():
    state = SessionState()
    ask(state, "What are Northline's payment terms?", [[FREIGHT, LOGISTICS]])
    resolution = ask(state, "Never mind, what is the returns policy?")
    assert resolution.picked is None and state.focus is None and state.pending is None


def test_a_reply_that_matches_no_option_is_read_as_a_new_question():
    """Dropping the clarification is not the end of the turn: the reply is a question of its own,
    so its format request still counts."""
    state = SessionState()
    ask(state, "What are Northline's payment terms?", [[FREIGHT, LOGISTICS]])
    resolution = ask(state, "Forget that, list the overdue orders as a table")
    assert resolution.clarify is None and state.pending is None
    assert resolution.format_set == "table" and state.format == "table"
    assert state.recent_questions[-1] == "Forget that, list the overdue orders as a table"


def test_clearing_one_sessions_state_leaves_the_others(make_user):
    user = make_user()
    save_state(user.pk, "session-a", SessionState(format="table"))
    save_state(user.pk, "session-b", SessionState(format="bullets"))
    clear_state(user.pk, "session-b")
    assert load_state(user.pk, "session-b") == SessionState()
    assert load_state(user.pk, "session-a").format == "table"


def test_an_ambiguous_name_already_settled_keeps_the_focus():
    state = SessionState(focus=Focus("customer", "2", "Northline Logistics", True))
    resolution = ask(state, "And Northline's credit limit?", [[FREIGHT, LOGISTICS]])
    assert resolution.clarify is None and state.focus.label == "Northline Logistics"


def test_render_state_is_the_compact_session_block():
    state = SessionState(focus=Focus("customer", "3", "Kestrel Foods", True), format="short")
    state.filters = {"period": {"value": "last quarter", "turns_left": 2}}
    state.recent_questions = ["Show me Kestrel Foods orders"]
    assert render_state(state) == (
        "## Session context\n"
        'Currently discussing: customer "Kestrel Foods" (3)\n'
        "Filters in effect: period=last quarter\n"
        "Answer style requested: short\n"
        'Earlier in this session: "Show me Kestrel Foods orders"'
    )
    assert render_state(SessionState()) == ""


@pytest.mark.django_db
def test_state_lives_in_the_cache_and_delete_everything_clears_it(make_user):
    from django.core.cache import cache
    from django.db import connection
    from django.utils import timezone

    from memory.store import delete_everything

    user = make_user()
    state = SessionState(focus=Focus("customer", "3", "Kestrel Foods", True))
    save_state(user.pk, "s1", state)
    assert state_key(user.pk, "s1") == f"atlas:state:{user.pk}:s1"
    assert load_state(user.pk, "s1").focus.label == "Kestrel Foods"
    assert cache.get(state_key(user.pk, "s1")) is not None
    with connection.cursor() as cursor:  # kept for an hour, not the cache's five-minute default
        cursor.execute(
            "SELECT expires FROM atlas_cache WHERE cache_key = %s", [cache.make_key(state_key(user.pk, "s1"))]
        )
        (expires,) = cursor.fetchone()
    assert timedelta(minutes=59) < expires - timezone.now() <= timedelta(hours=1)
    delete_everything(user)
    assert load_state(user.pk, "s1").focus is None


def test_the_state_survives_its_round_trip_through_the_cache_format():
    state = SessionState(focus=Focus("customer", "3", "Kestrel Foods", True), format="short")
    state.filters = {"period": {"value": "last quarter", "turns_left": 1}}
    state.recent_questions = ["Show me Kestrel Foods orders"]
    state.last_turn_id, state.last_focus_id = 9, "3"
    assert SessionState.from_dict(state.to_dict()) == state


def test_a_filter_slot_without_its_turn_count_is_not_carried():
    # A slot read back from an older cached state has no "turns_left": it carries nothing, and fails nothing.
    state = SessionState(filters={"region": {"value": "west"}})
    assert carried_filters(state) == {}


def test_asking_again_narrows_the_options_so_the_next_reply_picks_among_those_left():
    state = SessionState()
    ask(state, "What are Northline's payment terms?", [[FREIGHT, LOGISTICS, MARINE]])
    assert ask(state, "Portland or Leeds").clarify["question"] == "Two of them match that. Which one?"
    # Seattle was ruled out by the first reply: of the two left, only Leeds fits the second.
    picked = ask(state, "Leeds or Seattle")
    assert picked.clarify is None and picked.picked.name == "Northline Logistics"


def test_several_filters_in_effect_are_listed_in_one_line():
    state = SessionState()
    state.filters = {
        "status": {"value": "open", "turns_left": 2},
        "region": {"value": "west", "turns_left": 1},
    }
    assert render_state(state) == "## Session context\nFilters in effect: region=west, status=open"


def test_a_reply_naming_two_options_by_code_asks_again_and_focuses_neither():
    # The reply names both customers (the turn finds them by their codes): still no pick, and
    # the first one named does not become the focus either.
    state = SessionState()
    ask(state, "What are Northline's payment terms?", [[FREIGHT, LOGISTICS]])
    again = ask(state, "ACCT-10442 or ACCT-20817", [[FREIGHT], [LOGISTICS]])
    assert again.clarify is not None and again.picked is None
    assert state.focus is None and state.pending is not None


def test_a_question_that_names_the_customer_and_refers_back_to_them_is_rewritten_with_the_name():
    state = SessionState()
    resolution = ask(state, "Kestrel Foods: when did they last order?", [[KESTREL]])
    assert resolution.clarify is None and resolution.refers_back
    assert resolution.rewritten == "Kestrel Foods: when did they last order? (Kestrel Foods)"


def test_a_clarification_saved_without_its_options_reads_the_reply_as_a_new_question():
    """A pending question from an older or damaged session state (no "candidates") is dropped,
    not a failed turn: the reply is answered on its own."""
    state = SessionState()
    state.pending = {"question": "What are Northline's payment terms?"}
    resolution = ask(state, "Show the overdue orders")
    assert resolution.picked is None and resolution.clarify is None and state.pending is None
    assert resolution.rewritten == "Show the overdue orders"


def test_one_shared_word_with_the_last_question_keeps_the_focus():
    """The recent questions and the focus's name are read as separate texts: the last word of one
    question ("orders") still counts."""
    state = SessionState(focus=Focus("customer", "3", "Kestrel Foods", True))
    remember_question(state, "Show me Kestrel Foods orders")
    resolution = ask(state, "Which orders shipped late from the Portland warehouse?")
    assert resolution.focus_dropped == "" and state.focus.label == "Kestrel Foods"


@pytest.mark.parametrize("reply", ["Only the overdue ones in the west", "As a table, last quarter"])
def test_a_follow_up_made_only_of_filters_or_a_format_keeps_the_focus(reply):
    # Nothing but slots ("overdue", "in the west", "as a table"): no word left to change the topic.
    state = SessionState(focus=Focus("customer", "3", "Kestrel Foods", True))
    remember_question(state, "Show me Kestrel Foods orders")
    resolution = ask(state, reply)
    assert resolution.focus_dropped == "" and state.focus.label == "Kestrel Foods"
