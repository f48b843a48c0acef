"""The offline responder: typed results rendered as blocks, formats and preferences honoured,
abstentions that assert no figure, and the stale-note sentence."""

import re
from datetime import UTC, datetime
from decimal import Decimal

import pytest

from chat import vocabulary as vocab
from chat.executors import Figure, Ranking, RankRow, Record, RecordList
from chat.planner import Abstention, Filters, QueryPlan
from chat.prompt import assemble_prompt
from chat.responders import OfflineResponder, get_responder
from memory.recall import RecalledNote
from tests.chat.results import NORTHLINE, QUARTER, TERMS, TOP

CONTRACT = Record(TERMS.plan, "contract", "Northline Freight", TERMS.fields)
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
        tool_calls=[],
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
    assert "cancelled orders left out:" in result.blocks[0].text


def test_table_format_gives_a_table_block_and_short_gives_one_line():
    table = answer(TOP, fmt="table")
    assert table.blocks[1].kind == "table"
    assert table.blocks[1].header == ("Customer", "Order value", "Orders")
    assert table.blocks[1].rows[2] == ("Mercer Textile Works", "$285,168.14", "25")
    short = answer(TOP, fmt="short")
    assert len(short.blocks) == 1 and "Dearborn Precision Tooling ($327,352.23), Cascadia" in short.text  # values kept


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


def test_a_count_of_orders_of_every_status_says_how_many_were_not_cancelled():
    # "how many orders did we get last month": every order placed, and those not cancelled beside it
    plan = QueryPlan("count", "orders", Filters(period=QUARTER))
    text = answer(Figure(plan, "count", 196, cancelled=1)).text
    assert text.endswith("; 195 of them not cancelled.") and text.startswith("196 orders ")
    assert "not cancelled" not in answer(Figure(plan, "count", 12, cancelled=0)).text


def test_a_breakdown_by_city_shows_every_city():
    cities = tuple(RankRow(f"City {n:02}", Decimal(40 - n), 40 - n) for n in range(14))
    breakdown = Ranking(QueryPlan("count", "orders", Filters(period=QUARTER), group_by="city"), "count", cities)
    text = answer(breakdown).text
    assert "City 13: 27 orders" in text and "not shown" not in text


@pytest.mark.django_db
def test_a_stale_note_loses_to_the_contract_and_the_answer_says_so(corpus):
    stale = note("Northline Freight is on net 30 payment terms.", kind="correction", memory_id=7)
    result = answer(TERMS, notes=[stale])
    assert "net 45" in result.blocks[0].text
    assert result.blocks[-1].kind == "note"
    assert result.blocks[-1].text == "A note from March said net 30, which no longer matches the contract."


@pytest.mark.parametrize(
    "statement", ["Kestrel Foods is on net 30 payment terms.", "Northline Freight is on net 45 payment terms."]
)
@pytest.mark.django_db
def test_a_note_about_another_customer_or_agreeing_with_the_contract_is_not_a_conflict(statement, corpus):
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
