"""The query planner: follow-ups that keep the plan and swap the slot they state, and questions
that state their own subject and start afresh."""

from datetime import date

import pytest

from chat.planner import Abstention, CustomerRef, Filters, QueryPlan
from tests.chat.planner.helpers import LAST, plan, shape


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("question", "carried", "expected"),
    [
        # The period swaps; status and customer carry (stated on the previous turn, still alive).
        ("And the month before?", {"status": "open", "period": "last month|2026-11-01|2026-11-30"}, None),
        ("What about this year?", {"status": "open", "period": "x"}, ("Bayou City Fabrication", "open", "this year")),
        ("And Piedmont Textiles?", {"status": "open"}, ("Piedmont Textiles", "open", "")),
        # A status two turns old no longer carries into a follow-up.
        ("What about this year?", {}, ("Bayou City Fabrication", "", "this year")),
    ],
)
def test_follow_ups_keep_the_plan_and_swap_only_the_slot_they_state(corpus, question, carried, expected):
    planned = plan(question, last_plan=LAST, carried=carried)
    if expected is None:
        # "the month before" moves the carried period back one month
        period = planned.result.filters.period
        assert planned.follow_up and (period.label, period.start, period.end) == (
            "October 2026",
            date(2026, 10, 1),
            date(2026, 10, 31),
        )
        assert planned.stated["period"] == "October 2026|2026-10-01|2026-10-31"
        return
    result = planned.result
    assert planned.follow_up and (result.kind, result.subject) == ("count", "orders")
    period = result.filters.period.label if result.filters.period and expected[2] else ""
    assert (result.filters.customers[0].name, result.filters.status, period) == expected


@pytest.mark.django_db
def test_a_follow_up_with_its_own_measure_keeps_the_customer_and_changes_the_measure(corpus):
    planned = plan("And how many overdue?", last_plan=LAST, carried={"status": "open"})
    assert planned.follow_up and shape(planned.result)[:2] == ("count", "orders")
    assert (planned.result.filters.customers[0].name, planned.result.filters.status) == (
        "Bayou City Fabrication",
        "overdue",
    )
    total = plan("And the total?", last_plan=LAST, carried={"status": "open"}).result
    assert (total.kind, total.filters.customers[0].name, total.filters.status) == (
        "sum",
        "Bayou City Fabrication",
        "open",
    )


@pytest.mark.django_db
def test_a_question_stating_its_own_subject_inherits_no_filter(corpus):
    planned = plan("How many shipped orders does Piedmont Textiles have?", last_plan=LAST, carried={"period": "x"})
    assert not planned.follow_up and planned.result.filters.period is None


@pytest.mark.django_db
def test_the_focus_name_does_not_hide_a_city_the_question_names(corpus):
    focus = CustomerRef(1, "Bayou City Fabrication")
    result = plan("Which customer in Kansas City spent the most?", focus=focus).result
    assert (result.kind, result.group_by, result.filters.city) == ("rank", "customer", "Kansas City")


@pytest.mark.django_db
def test_a_status_follow_up_after_a_contract_lookup_lists_that_customers_orders(corpus):
    last = QueryPlan(
        "lookup", "contracts", Filters(customers=(CustomerRef(1, "Kestrel Foods"),)), field="payment_terms"
    )
    planned = plan("And the overdue ones?", last_plan=last, carried={})
    assert planned.follow_up and shape(planned.result) == (
        ("list", "orders", "", "", None, ("Kestrel Foods",), "", "", "", "overdue", "")
    )


@pytest.mark.django_db
def test_a_pronoun_follow_up_totals_the_same_orders_it_counted(corpus):
    planned = plan("And what is the value of those?", last_plan=LAST, carried={"status": "open"})
    result = planned.result
    assert planned.follow_up and (result.kind, result.filters.status) == ("sum", "open")
    assert [c.name for c in result.filters.customers] == ["Bayou City Fabrication"]


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("question", "field"),
    [
        ("Which city is that customer in?", "city"),
        ("What segment is this client in?", "segment"),
        ("Which region is that account in?", "region"),
    ],
)
def test_a_field_of_that_customer_is_the_focus_customers_field(corpus, question, field):
    result = plan(question, focus=CustomerRef(1, "Kestrel Foods"), refers_back=True).result
    assert (result.kind, result.subject, result.field) == ("lookup", "customers", field)
    assert [c.name for c in result.filters.customers] == ["Kestrel Foods"]


@pytest.mark.django_db
def test_a_field_of_those_customers_lists_the_customers_not_the_focus(corpus):
    result = plan(
        "Which cities are those enterprise customers in?", focus=CustomerRef(1, "Kestrel Foods"), refers_back=True
    )
    result = result.result
    assert (result.kind, result.subject, result.field, result.filters.customers) == ("list", "customers", "", ())
    assert result.filters.segment == "enterprise"


@pytest.mark.django_db
def test_a_payment_terms_follow_up_swaps_the_terms_and_keeps_the_region(corpus):
    last = QueryPlan("list", "customers", Filters(region="west"), terms="net 30")
    planned = plan("And net 60?", last_plan=last, carried={"region": "west"})
    result = planned.result
    assert planned.follow_up and (result.kind, result.subject, result.terms) == ("list", "customers", "net 60")
    assert result.filters.region == "west"
    # Asking for the terms themselves is no swap: whose terms, the list does not say.
    planned = plan("And what are their payment terms?", last_plan=last, carried={"region": "west"})
    assert not planned.follow_up and planned.result == Abstention("needs-customer", "payment terms")


@pytest.mark.django_db
def test_a_follow_up_lead_with_its_own_subject_starts_a_fresh_plan(corpus):
    planned = plan("Now list the cancelled orders in the East", last_plan=LAST, carried={"status": "open"})
    result = planned.result
    assert not planned.follow_up and (result.kind, result.subject, result.filters.customers) == ("list", "orders", ())
    assert (result.filters.status, result.filters.region) == ("cancelled", "east")


@pytest.mark.django_db
def test_a_pronoun_or_a_bare_same_leans_on_the_previous_plan_without_a_lead(corpus):
    planned = plan("What is their total value?", last_plan=LAST, carried={"status": "open"})
    assert planned.follow_up and (planned.result.kind, planned.result.filters.status) == ("sum", "open")
    planned = plan("The same?", last_plan=LAST, carried={"status": "open"})
    assert planned.follow_up and (planned.result.kind, planned.result.filters.status) == ("count", "open")


@pytest.mark.django_db
def test_a_bare_measure_with_no_lead_or_pronoun_starts_afresh(corpus):
    # "What is the average?" names neither the last orders ("their", "those") nor leads with "and".
    assert not plan("What is the average?", last_plan=LAST).follow_up
    assert plan("And the average?", last_plan=LAST).follow_up


@pytest.mark.django_db
@pytest.mark.parametrize("question", ["What about the average?", "How about the total value?", "Same for the average?"])
def test_a_lead_of_several_words_makes_a_bare_measure_a_follow_up(corpus, question):
    planned = plan(question, last_plan=LAST, carried={"status": "open"})
    assert planned.follow_up and planned.result.filters.status == "open"
    assert planned.result.filters.customers == LAST.filters.customers
