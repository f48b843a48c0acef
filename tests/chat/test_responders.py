"""The offline responder: typed results rendered as blocks, formats and preferences honoured,
abstentions that assert no figure, and the stale-note sentence."""

import re
from dataclasses import replace
from datetime import UTC, date, datetime
from decimal import Decimal

import pytest

from chat import vocabulary as vocab
from chat.executors import Figure, Ranking, RankRow, Record, RecordList
from chat.planner import Abstention, CustomerRef, Filters, Period, QueryPlan
from chat.prompt import assemble_prompt
from chat.responders import IN_CONTEXT, SHAPED_FORMAT, OfflineResponder, get_responder
from memory.recall import RecalledNote

NORTHLINE = CustomerRef(1, "Northline Freight")
TERMS = Record(
    QueryPlan("lookup", "contracts", Filters(customers=(NORTHLINE,)), field="payment_terms"),
    "contract",
    "Northline Freight",
    (
        ("Payment terms", "net 45", "text"),
        ("Credit limit", Decimal("115000.00"), "money"),
        ("Renewal date", date(2028, 5, 31), "date"),
        ("Signed", date(2026, 6, 1), "date"),
    ),
    asked="Payment terms",
)
CONTRACT = Record(TERMS.plan, "contract", "Northline Freight", TERMS.fields)
QUARTER = Period("last quarter", date(2026, 7, 1), date(2026, 9, 30))
TOP = Ranking(
    QueryPlan("rank", "orders", Filters(period=QUARTER), group_by="customer", limit=3),
    "sum",
    (
        RankRow("Dearborn Precision Tooling", Decimal("327352.23"), 30),
        RankRow("Cascadia Timber Supply", Decimal("305971.19"), 28),
        RankRow("Mercer Textile Works", Decimal("285168.14"), 25),
    ),
    cancelled_excluded=True,
)
DENVER = RecordList(
    QueryPlan("list", "customers", Filters(city="Denver")),
    "customer",
    ("Customer", "City", "Region", "Segment"),
    ("text",) * 4,
    (("Granite Peak Builders", "Denver", "Central", "mid-market"), ("Sierra Outdoor Co.", "Denver", "Central", "x")),
    2,
)


def note(
    statement, *, kind="preference", memory_id=1, written=datetime(2026, 3, 14, 15, tzinfo=UTC), subject="", value=""
):
    return RecalledNote(
        memory_id=memory_id,
        kind=kind,
        statement=statement,
        author="user",
        written_at=written,
        source_quote="",
        source_at=written,
        source_session="",
        source_turn=None,
        reason="preference" if kind == "preference" else "ranked",
        score=None,
        subject=subject,
        value=value,
    )


def answer(*results, notes=(), fmt="", abstention=None):
    prompt = assemble_prompt(
        "question",
        session_block="",
        recalled_block="",
        tool_calls=[],
        passages=[],
        notes=list(notes),
        format=fmt,
        results=results,
        abstention=abstention,
    )
    return OfflineResponder().respond(prompt)


def test_a_field_lookup_answers_in_one_sentence_from_the_record():
    result = answer(TERMS)
    assert result.text == "Northline Freight pays on net 45 (current contract, signed 1 Jun 2026)."
    assert [b.kind for b in result.blocks] == ["summary"]


def test_a_ranking_is_a_summary_and_a_list_in_order_with_the_period_stated():
    result = answer(TOP)
    assert result.blocks[0].text.startswith("Top 3 customers by order value last quarter (1 Jul 2026 to 30 Sep 2026)")
    assert result.blocks[1].kind == "bullets"
    assert result.blocks[1].items[0] == "1. Dearborn Precision Tooling: $327,352.23"
    assert "Cancelled orders are left out" in result.text


def test_table_format_gives_a_table_block_and_short_gives_one_line():
    table = answer(TOP, fmt="table")
    assert table.blocks[1].kind == "table"
    assert table.blocks[1].header == ("Customer", "Order value", "Orders")
    assert table.blocks[1].rows[2] == ("Mercer Textile Works", "$285,168.14", "25")
    short = answer(TOP, fmt="short")
    assert len(short.blocks) == 1 and "Dearborn Precision Tooling, Cascadia" in short.text


def test_a_list_of_names_names_every_one():
    result = answer(DENVER)
    assert result.blocks[0].text == "2 customers in Denver:"
    assert [i.split(" (")[0] for i in result.blocks[1].items] == ["Granite Peak Builders", "Sierra Outdoor Co."]


def test_a_count_states_every_filter_it_was_computed_under():
    plan = QueryPlan("count", "orders", Filters(customers=(NORTHLINE,), status="open", region="west"))
    assert (
        answer(Figure(plan, "count", 1)).text
        == "1 open order for Northline Freight in the West region across all dates."
    )


@pytest.mark.parametrize(
    ("statement", "expected"),
    [
        ("Wants dates as YYYY-MM-DD.", "2028-05-31"),
        ("Prefers amounts in thousands.", "$115.0k"),
        ("Show currency as a code, e.g. USD amounts.", "USD 115,000.00"),
    ],
)
def test_preferences_shape_the_answer_and_are_recorded_as_shaping_it(statement, expected):
    result = answer(CONTRACT, notes=[note(statement)])
    assert expected in result.text
    assert result.influences == {1: SHAPED_FORMAT}


@pytest.mark.parametrize(
    ("subject", "value", "expected"),
    [
        ("date_format", "ISO", "2028-05-31"),
        ("scale", "thousands", "$115.0k"),
        ("currency", "USD", "USD 115,000.00"),
    ],
)
def test_a_structured_preference_shapes_the_answer_from_its_value_not_its_wording(subject, value, expected):
    # Worded so that no text pattern would find it: only the stored subject and value can.
    result = answer(CONTRACT, notes=[note("Has a standing wish about this.", subject=subject, value=value)])
    assert expected in result.text
    assert result.influences == {1: SHAPED_FORMAT}


def test_a_structured_currency_the_records_are_not_in_is_said_not_faked():
    result = answer(TOP, notes=[note("Likes the single currency.", memory_id=4, subject="currency", value="EUR")])
    assert "Atlas has no exchange rates to show them in EUR" in result.text
    assert result.influences == {4: IN_CONTEXT}


def test_a_structured_table_preference_gives_a_table_block():
    assert answer(TOP, notes=[note("Has a layout wish.", subject="answer_format", value="table")]).blocks[1].kind == (
        "table"
    )


@pytest.mark.parametrize(
    ("statement", "subject", "value"),
    [
        ("Does not want tables.", "answer_format", "table"),
        ("Does not want bullet points.", "answer_format", "bullets"),
        ("Does not want amounts in euros.", "currency", "EUR"),
    ],
)
def test_a_note_turning_a_format_down_never_gives_that_format(statement, subject, value):
    plain = answer(TOP)
    result = answer(TOP, notes=[note(statement, subject=subject, value=value)])
    assert [b.kind for b in result.blocks] == [b.kind for b in plain.blocks]
    assert result.text == plain.text and result.influences == {1: IN_CONTEXT}


def test_a_breakdown_by_city_shows_every_city():
    cities = tuple(RankRow(f"City {n:02}", Decimal(40 - n), 40 - n) for n in range(14))
    breakdown = Ranking(QueryPlan("count", "orders", Filters(period=QUARTER), group_by="city"), "count", cities)
    text = answer(breakdown).text
    assert "City 13: 27 orders" in text and "not shown" not in text


def test_a_format_wanted_under_a_condition_does_not_shape_every_answer():
    plain = answer(TOP)
    wish = note("Prefers tables in answers about renewals.", subject="answer_format", value="table")
    scoped = replace(wish, scope="in answers about renewals")
    result = answer(TOP, notes=[scoped])
    assert [b.kind for b in result.blocks] == [b.kind for b in plain.blocks]
    assert answer(TOP, notes=[replace(scoped, scope="global")]).blocks[1].kind == "table"


def test_a_column_wanted_in_every_table_does_not_make_a_table():
    plain = answer(TOP)
    result = answer(TOP, notes=[note("Wants the margin column included in every table.")])
    kinds = [b.kind for b in result.blocks]
    assert kinds == [b.kind for b in plain.blocks] and "table" not in kinds


def test_bullet_preference_turns_a_list_into_bullets_even_when_a_table_is_the_default():
    result = answer(TOP, fmt="detailed", notes=[note("Prefers bullet points.")])
    assert result.blocks[1].kind == "bullets"
    assert result.influences == {1: SHAPED_FORMAT}


def test_format_preference_applies_when_the_session_has_none_and_the_slot_wins_otherwise():
    assert len(answer(TOP, notes=[note("Prefers short answers.")]).blocks) == 1
    assert answer(TOP, notes=[note("Prefers short answers.")], fmt="table").blocks[1].kind == "table"


def test_a_currency_it_cannot_convert_to_is_said_not_faked():
    result = answer(TOP, notes=[note("Show amounts in euros.", memory_id=3)])
    assert "Atlas has no exchange rates to show them in EUR" in result.text
    assert "€" not in result.text
    assert result.influences == {3: IN_CONTEXT}


def test_a_stale_note_loses_to_the_contract_and_the_answer_says_so():
    stale = note("Northline Freight is on net 30 payment terms.", kind="correction", memory_id=7)
    result = answer(TERMS, notes=[stale])
    assert "net 45" in result.blocks[0].text
    assert result.blocks[-1].kind == "note"
    assert result.blocks[-1].text == "A note from March said net 30, which no longer matches the contract."


@pytest.mark.parametrize(
    "statement", ["Kestrel Foods is on net 30 payment terms.", "Northline Freight is on net 45 payment terms."]
)
def test_a_note_about_another_customer_or_agreeing_with_the_contract_is_not_a_conflict(statement):
    assert "no longer matches" not in answer(TERMS, notes=[note(statement, kind="correction")]).text


@pytest.mark.parametrize(
    "reason",
    [
        vocab.FORECAST_REASON,
        vocab.OUTSIDE_REASON,
        vocab.NO_FIELD_REASON,
        vocab.NO_PLAN_REASON,
        vocab.UNKNOWN_CUSTOMER_REASON,
        vocab.NEEDS_CUSTOMER_REASON,
        vocab.UNREAD_WORD_REASON,
    ],
)
def test_every_abstention_says_what_atlas_can_answer_and_asserts_no_figure(reason):
    result = answer(abstention=Abstention(reason, "employees"))
    assert re.search(r"\bcan't (answer|forecast|look up)\b|outside what Atlas answers", result.text)
    assert "I can answer questions about the company's customers" in result.text
    assert not re.search(r"\d", result.text)


def test_the_offline_responder_is_the_default(settings):
    settings.ATLAS_LLM_BASE_URL = ""
    assert isinstance(get_responder(), OfflineResponder)


def test_an_unread_word_abstention_names_the_word_atlas_did_not_read():
    result = answer(abstention=Abstention(vocab.UNREAD_WORD_REASON, "profitable"))
    assert "\u201cprofitable\u201d" in result.text
