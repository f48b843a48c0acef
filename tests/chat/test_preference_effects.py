"""Each preference facet's effect on an answer, with the rendering written out; each value Atlas
cannot apply, declined in one sentence; scope, newest-wins and truthful influence (issue 27)."""

from dataclasses import replace
from datetime import UTC, date, datetime
from decimal import Decimal

import pytest

from chat import vocabulary as vocab
from chat.executors import Figure, RecordList
from chat.planner import Abstention, Filters, QueryPlan
from chat.prompt import assemble_prompt
from chat.responders import compose
from chat.shaping import preferences_for, shape_plan
from memory.recall import RecalledNote
from tests.chat.results import CONTRACT, NORTHLINE, QUARTER, TOP

pytestmark = pytest.mark.django_db

TOTAL = Figure(QueryPlan("sum", "orders"), "sum", Decimal("8940512.77"), orders=3000, cancelled_excluded=True)
COUNT = Figure(QueryPlan("count", "orders", Filters(status="open")), "count", 41)
ORDERS = RecordList(
    QueryPlan("list", "orders", Filters(customers=(NORTHLINE,))),
    "order",
    ("Order", "Customer", "Date", "Amount", "Status"),
    ("text", "text", "date", "money", "text"),
    (
        ("SO-88002", "Northline Freight", date(2026, 10, 2), Decimal("1200.00"), "open"),
        ("SO-88001", "Northline Freight", date(2026, 9, 14), Decimal("9800.50"), "paid"),
        ("SO-88003", "Northline Freight", date(2026, 11, 20), Decimal("450.25"), "shipped"),
    ),
    3,
)


def note(facets, *, memory_id=1, scope="global", kind="preference", statement="A preference.", written=None):
    return RecalledNote(
        memory_id=memory_id,
        kind=kind,
        statement=statement,
        author="user",
        written_at=written or datetime(2026, 3, 14, 15, tzinfo=UTC),
        source_quote="",
        source_at=None,
        source_session="",
        source_turn=None,
        reason="preference",
        score=None,
        scope=scope,
        facets=facets,
    )


def answer(result, notes=(), fmt=""):
    results = (result,) if result is not None else ()
    plan = result.plan if result is not None else None
    prompt = assemble_prompt(
        "q",
        session_block="",
        tool_calls=[],
        notes=list(notes),
        format=fmt,
        results=results,
        preferences=preferences_for(list(notes), plan),
    )
    return compose(prompt, results, None if results else Abstention(vocab.NO_PLAN_REASON))


# --- money -------------------------------------------------------------------------------------


def test_amounts_in_thousands():
    result = answer(TOP, [note({"scale": "k"})])
    assert "1. Dearborn Precision Tooling: $327.4k" in result.text
    assert "327,352.23" not in result.text
    assert (result.influences[1].code, result.influences[1].how) == ("applied", "Showed amounts in thousands")


def test_amounts_in_millions():
    assert answer(TOTAL, [note({"scale": "m"})]).blocks[0].text.startswith("Orders across all dates total $8.94m")


def test_amounts_rounded_to_whole_units():
    result = answer(TOP, [note({"rounding": "whole"})])
    assert "1. Dearborn Precision Tooling: $327,352" in result.text and ".23" not in result.text


def test_amounts_rounded_to_the_nearest_hundred_and_thousand():
    assert "1. Dearborn Precision Tooling: $327,400" in answer(TOP, [note({"rounding": "hundred"})]).text
    assert "1. Dearborn Precision Tooling: $327,000" in answer(TOP, [note({"rounding": "thousand"})]).text


def test_millions_with_one_decimal_and_the_panel_says_so():
    result = answer(TOTAL, [note({"scale": "m", "rounding": "1dp"})])
    assert result.blocks[0].text.startswith("Orders across all dates total $8.9m")
    assert "1. Dearborn Precision Tooling: $327.4k" in answer(TOP, [note({"scale": "k", "rounding": "1dp"})]).text
    plain = answer(TOP, [note({"rounding": "1dp"})])
    assert "- 1. Dearborn Precision Tooling: $327,352.2" in plain.text.splitlines()
    assert plain.influences[1].how == "Showed amounts to one decimal place"


def test_amounts_to_significant_figures_and_the_panel_says_so():
    result = answer(TOP, [note({"rounding": 3})])
    assert "1. Dearborn Precision Tooling: $327,000" in result.text and "327,352" not in result.text
    assert result.influences[1].how == "Showed amounts rounded to 3 significant figures"
    assert "1. Dearborn Precision Tooling: $327.4k" in answer(TOP, [note({"rounding": 4, "scale": "k"})]).text
    assert answer(TOTAL, [note({"rounding": 2})]).blocks[0].text.startswith("Orders across all dates total $8,900,000")


def test_amounts_with_the_currency_code():
    assert "1. Dearborn Precision Tooling: USD 327,352.23" in answer(TOP, [note({"currency_display": "code"})]).text


def test_thousands_of_euros_keeps_both_facets_applies_one_and_declines_the_other():
    result = answer(TOP, [note({"scale": "k", "currency": "EUR"})])
    assert "1. Dearborn Precision Tooling: $327.4k" in result.text
    assert result.blocks[-1].text == (
        "Amounts are shown in USD as recorded; Atlas has no exchange rates to show them in EUR."
    )
    assert result.influences[1].code == "applied"


def test_a_currency_atlas_has_no_rate_for_is_declined_in_one_sentence():
    result = answer(TOTAL, [note({"currency": "CHF"}, memory_id=4)])
    assert result.text.count("Atlas has no exchange rates") == 1
    assert "CHF" in result.text and "$8,940,512.77" in result.text
    assert result.influences[4].code == "declined"


# --- dates ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "written"),
    [
        ("iso", "renews 2028-05-31"),
        ("us", "renews 05/31/2028"),
        ("uk", "renews 31/05/2028"),
        ("long", "renews 31 May 2028"),
        ("dotted", "renews 31.05.2028"),
    ],
)
def test_dates_written_as_asked(value, written):
    result = answer(CONTRACT, [note({"date_format": value})])
    assert written in result.text
    assert result.influences[1].code == "applied"


# --- layout, length ---------------------------------------------------------------------------------


def test_layout_table_bullets_and_prose():
    assert [b.kind for b in answer(TOP, [note({"layout": "table"})]).blocks] == ["summary", "table"]
    assert [b.kind for b in answer(TOP, [note({"layout": "bullets"})]).blocks] == ["summary", "bullets"]
    prose = answer(TOP, [note({"layout": "prose"})])
    assert [b.kind for b in prose.blocks] == ["summary", "summary"]
    assert prose.blocks[1].text == (
        "1. Dearborn Precision Tooling: $327,352.23; 2. Cascadia Timber Supply: $305,971.19; "
        "and 3. Mercer Textile Works: $285,168.14."
    )


def test_short_answers_stay_within_the_word_bound():
    many = replace(ORDERS, rows=ORDERS.rows * 10, total=30)
    result = answer(many, [note({"length": "short", "max_words": 25})])
    assert len(result.text.split()) <= 25
    assert result.influences[1].how == "Kept the answer short"


def test_a_refusal_for_a_user_who_wants_short_answers_is_the_refusal_alone():
    # "keep answers under 30 words": the list of what Atlas can answer goes; a table or a currency note does nothing
    short = answer(None, [note({"length": "short", "max_words": 30}), note({"layout": "table"}, memory_id=2)])
    assert short.text == "I can't answer that from the records."
    assert answer(None, [note({"layout": "table"})]).text.startswith("I can't answer that from the records. I can")


def test_a_bound_in_lines_keeps_the_answer_to_about_that_many_lines():
    many = replace(ORDERS, rows=ORDERS.rows * 10, total=30)
    result = answer(many, [note({"length": "short", "max_lines": 2})])
    assert len(result.text.split()) <= 40  # two lines of about twenty words
    assert result.influences[1].how == "Kept the answer short"


# --- fields, sort, limit, cancelled, language --------------------------------------------------------


def test_a_field_asked_for_is_shown_beside_each_customer(corpus):
    result = answer(CONTRACT, [note({"include": "account_code"})])
    assert result.blocks[-1].text == "Account code: Northline Freight ACCT-10442."
    assert result.influences[1].how == "Added the account code"


def test_a_field_the_records_do_not_hold_is_declined(corpus):
    result = answer(CONTRACT, [note({"include": "PO number"})])
    assert result.blocks[-1].text == "Atlas's records hold no PO number, so it can't add it."
    assert result.influences[1].code == "declined"


@pytest.mark.parametrize(
    ("sort", "numbers"),
    [
        ({"by": "amount", "order": "desc"}, ["SO-88001", "SO-88002", "SO-88003"]),
        ({"by": "date", "order": "asc"}, ["SO-88001", "SO-88002", "SO-88003"]),
        ({"by": "date", "order": "desc"}, ["SO-88003", "SO-88002", "SO-88001"]),
        ({"by": "amount", "order": "asc"}, ["SO-88003", "SO-88002", "SO-88001"]),
    ],
)
def test_a_list_is_sorted_as_asked(sort, numbers):
    result = answer(ORDERS, [note({"sort": sort})])
    assert [item.split(" ")[0] for item in result.blocks[1].items] == numbers


def test_a_ranking_stops_at_the_preferred_size_unless_the_question_sizes_it():
    plan = QueryPlan("rank", "orders", group_by="customer", limit=5)
    held = preferences_for([note({"limit": 3})], plan)
    assert shape_plan(plan, held, "who are our biggest customers?")[0].limit == 3
    assert shape_plan(plan, held, "top 5 customers please")[0].limit == 5


def test_cancelled_orders_in_totals_change_the_plan_and_the_sentence():
    held = preferences_for([note({"cancelled": "include"})], TOTAL.plan)
    plan, uses = shape_plan(TOTAL.plan, held, "what's the total?")
    assert plan.include_cancelled and uses[1].how == "Included cancelled orders in the totals"
    shown = answer(replace(TOTAL, plan=plan, cancelled_excluded=False)).text
    assert shown.endswith("Cancelled orders are included, as you asked.")
    assert shape_plan(COUNT.plan, preferences_for([note({"cancelled": "include"})], COUNT.plan), "how many?")[1] == {}


def test_a_language_atlas_does_not_write_is_declined():
    result = answer(TOTAL, [note({"language": "German"})])
    assert result.blocks[-1].text == "Atlas answers in English only for now, so this answer is in English, not German."
    assert result.influences[1].code == "declined"


# --- scope and conflicts ---------------------------------------------------------------------------


def test_a_scoped_preference_holds_only_in_its_scope():
    renewal = note({"include": "renewal_date"}, scope="contracts")
    assert preferences_for([renewal], CONTRACT.plan)["include"].value == "renewal_date"
    assert preferences_for([renewal], COUNT.plan) == {}


def test_the_newest_note_wins_per_facet_and_a_scoped_one_beats_a_global_one():
    older = note({"layout": "table"}, memory_id=1, written=datetime(2026, 1, 1, tzinfo=UTC))
    newer = note({"layout": "bullets"}, memory_id=2, written=datetime(2026, 2, 1, tzinfo=UTC))
    assert answer(TOP, [older, newer]).blocks[1].kind == "bullets"
    assert set(answer(TOP, [older, newer]).influences) == {2}
    scoped = note({"layout": "table"}, memory_id=3, scope="orders", written=datetime(2025, 1, 1, tzinfo=UTC))
    assert answer(ORDERS, [newer, scoped]).blocks[1].kind == "table"
    assert answer(TOP, [newer, scoped]).blocks[1].kind == "bullets"  # a ranking is no order list


def test_a_list_size_said_for_rankings_and_one_said_for_everything_are_one_facet_and_the_newer_wins():
    # "the top 5 when I ask for a ranking", then "just the top 3 from now on": a list size only
    # ever acts on rankings, so the newer note holds whichever of the two said "rankings".
    five = note({"limit": 5}, memory_id=1, scope="rankings", written=datetime(2026, 1, 1, tzinfo=UTC))
    three = note({"limit": 3}, memory_id=2, written=datetime(2026, 2, 1, tzinfo=UTC))
    assert preferences_for([five, three], TOP.plan)["limit"].value == 3
    assert preferences_for([three, five], TOP.plan)["limit"].value == 3
    older_three = replace(three, written_at=datetime(2025, 12, 1, tzinfo=UTC))
    assert preferences_for([five, older_three], TOP.plan)["limit"].value == 5


def test_a_list_size_read_with_a_ranking_scope_is_stored_as_global():
    from memory.preferences import read_facets

    assert read_facets("always give me the top 5 when i ask for a ranking").scope == "global"
    assert read_facets("order lists as a table").scope == "orders"


# --- truthful influence --------------------------------------------------------------------------


def test_an_abstention_uses_no_note():
    assert answer(None, [note({"scale": "k"}), note({"language": "German"}, memory_id=2)]).influences == {}


def test_a_note_with_nothing_to_act_on_claims_nothing():
    assert answer(COUNT, [note({"scale": "k"}), note({"currency": "EUR"}, memory_id=2)]).influences == {}
    assert "exchange rates" not in answer(COUNT, [note({"currency": "EUR"})]).text


def test_a_facet_atlas_never_applies_is_never_shown_as_used():
    assert answer(TOP, [note({"chart": "yes"}), note({"timezone": "CET"}, memory_id=2)]).influences == {}


# --- a customer breakdown and a field beside a named customer (regression: memory_effect_set2) -------

BREAKDOWN = replace(TOP, plan=QueryPlan("sum", "orders", Filters(period=QUARTER), group_by="customer"))


def test_a_breakdown_customer_by_customer_is_sorted_as_asked_without_places():
    result = answer(BREAKDOWN, [note({"sort": {"by": "name", "order": "asc"}}, scope="customers")])
    assert result.blocks[1].items == (
        "Cascadia Timber Supply: $305,971.19",
        "Dearborn Precision Tooling: $327,352.23",
        "Mercer Textile Works: $285,168.14",
    )
    assert result.influences[1].code == "applied"


def test_a_ranking_keeps_its_own_order_under_a_sort_preference():
    result = answer(TOP, [note({"sort": {"by": "name", "order": "asc"}}, scope="customers")])
    assert result.blocks[1].items[0] == "1. Dearborn Precision Tooling: $327,352.23"


def test_a_field_asked_for_beside_a_customer_is_shown_wherever_the_answer_names_them(corpus):
    named = Figure(
        QueryPlan("sum", "orders", Filters(customers=(NORTHLINE,), status="overdue")), "sum", Decimal("9.99")
    )
    result = answer(named, [note({"include": "credit_limit"}, scope="customers")])
    assert result.blocks[-1].text == "Credit limit: Northline Freight $115,000.00."
    # a layout scoped to customer lists still holds only in customer lists
    assert "layout" not in preferences_for([note({"layout": "table"}, scope="customers")], named.plan)
