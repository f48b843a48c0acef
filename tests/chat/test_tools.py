"""Corpus tools against the seeded demo data: ambiguity, filters, periods, mentions."""

from datetime import date
from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError

from chat.demo_data import ANCHOR
from chat.models import Customer
from chat.tools import (
    contract_terms,
    find_customer_mentions,
    list_orders,
    lookup_customer,
    mentions_by_name,
    period_range,
    search_documents_tool,
)

pytestmark = pytest.mark.django_db


def _id(name):
    return Customer.objects.get(name=name).pk


# --- lookup_customer -----------------------------------------------------------------------


def test_ambiguous_name_returns_candidates_not_a_guess(corpus):
    result = lookup_customer("Northline")
    assert not result.ok
    assert result.data == {}
    assert {(c["name"], c["city"], c["account_code"]) for c in result.candidates} == {
        ("Northline Freight", "Portland", "ACCT-10442"),
        ("Northline Logistics", "Leeds", "ACCT-20817"),
    }
    assert "2 customers" in result.error


@pytest.mark.parametrize(
    "query, expected",
    [
        ("ACCT-55310", "Brightwater Dental"),
        ("acct-55310", "Brightwater Dental"),
        ("kestrel foods", "Kestrel Foods"),
        ("Kestrel", "Kestrel Foods"),
        ("Northline Freight", "Northline Freight"),
        ("Northline's", None),
        ("Northline Leeds", "Northline Logistics"),
    ],
)
def test_lookup_by_code_or_name(corpus, query, expected):
    result = lookup_customer(query)
    if expected is None:
        assert not result.ok and len(result.candidates) == 2
        return
    assert result.ok, result.error
    assert result.data["name"] == expected
    assert set(result.data) == {"id", "name", "city", "region", "segment", "account_code"}


def test_lookup_details_for_one_customer(corpus):
    data = lookup_customer("Kestrel Foods").data
    assert (data["city"], data["region"], data["account_code"]) == ("Sacramento", "west", "ACCT-31206")


def test_misspelt_name_suggests_the_close_customer(corpus):
    result = lookup_customer("Kestral Foods")
    assert not result.ok
    assert [c["name"] for c in result.candidates] == ["Kestrel Foods"]
    assert "No customer matches" in result.error


def test_unknown_account_code_is_a_clear_miss(corpus):
    result = lookup_customer("ACCT-00001")
    assert not result.ok and not result.candidates
    assert "ACCT-00001" in result.error


def test_empty_lookup_is_rejected(corpus):
    with pytest.raises(ValidationError):
        lookup_customer("  ")


# --- list_orders ---------------------------------------------------------------------------


def test_orders_by_region_and_period_match_the_generated_data(corpus):
    result = list_orders(region="West", period="last quarter", today=ANCHOR, limit=10)
    assert result.ok
    west = {c.account_code for c in corpus.customers if c.region == "west"}
    expected = [
        o for o in corpus.orders if o.account_code in west and date(2026, 7, 1) <= o.ordered_on <= date(2026, 9, 30)
    ]
    totals = result.data["totals"]
    assert totals["count"] == len(expected)
    assert Decimal(totals["sum"]) == sum(o.amount for o in expected)
    assert len(result.data["rows"]) == 10 and result.data["truncated"]
    assert result.data["filters"] == {
        "region": "west",
        "period": "last quarter",
        "from": "2026-07-01",
        "to": "2026-09-30",
    }
    dates = [r["ordered_on"] for r in result.data["rows"]]
    assert dates == sorted(dates, reverse=True)
    assert result.args == {"region": "west", "period": "last quarter"}


def test_revenue_leaves_out_cancelled_orders(corpus):
    totals = list_orders(period="last year", today=ANCHOR).data["totals"]
    cancelled = Decimal(totals["by_status"]["cancelled"]["sum"])
    assert cancelled > 0
    assert Decimal(totals["revenue"]) == Decimal(totals["sum"]) - cancelled
    assert sum(s["count"] for s in totals["by_status"].values()) == totals["count"]


def test_orders_for_one_customer_and_status(corpus):
    customer_id = _id("Northline Logistics")
    result = list_orders(customer_id=customer_id, status="overdue", limit=200)
    rows = result.data["rows"]
    assert rows
    assert {r["status"] for r in rows} == {"overdue"}
    assert {r["customer"] for r in rows} == {"Northline Logistics"}
    assert result.data["totals"]["count"] == len(rows)


def test_no_matching_orders_is_an_empty_answer_not_an_error(corpus):
    result = list_orders(
        customer_id=_id("Kestrel Foods"), period="this month", status="cancelled", today=date(2023, 1, 5)
    )
    assert result.ok
    assert result.data["rows"] == [] and result.data["totals"]["count"] == 0
    assert result.data["totals"]["sum"] == "0.00"


def test_unknown_customer_id_is_a_clear_miss(corpus):
    result = list_orders(customer_id=999_999)
    assert not result.ok and "999999" in result.error


@pytest.mark.parametrize(
    "kwargs",
    [{"region": "atlantis"}, {"status": "lost"}, {"period": "the other day"}, {"limit": 0}, {"limit": 1000}],
)
def test_bad_filters_are_rejected(corpus, kwargs):
    with pytest.raises(ValidationError):
        list_orders(**kwargs)


@pytest.mark.parametrize(
    "period, today, expected",
    [
        ("last month", date(2026, 11, 30), (date(2026, 10, 1), date(2026, 10, 31))),
        ("this month", date(2026, 11, 30), (date(2026, 11, 1), date(2026, 11, 30))),
        ("last month", date(2026, 1, 15), (date(2025, 12, 1), date(2025, 12, 31))),
        ("this quarter", date(2026, 11, 30), (date(2026, 10, 1), date(2026, 11, 30))),
        ("last quarter", date(2026, 11, 30), (date(2026, 7, 1), date(2026, 9, 30))),
        ("Last Quarter", date(2026, 2, 10), (date(2025, 10, 1), date(2025, 12, 31))),
        ("this year", date(2026, 11, 30), (date(2026, 1, 1), date(2026, 11, 30))),
        ("last year", date(2026, 11, 30), (date(2025, 1, 1), date(2025, 12, 31))),
        ("last 30 days", date(2026, 11, 30), (date(2026, 11, 1), date(2026, 11, 30))),
        ("q2 2026", date(2026, 11, 30), (date(2026, 4, 1), date(2026, 6, 30))),
        ("last 12 months", date(2026, 2, 28), (date(2025, 3, 1), date(2026, 2, 28))),
    ],
)
def test_period_ranges(period, today, expected):
    assert period_range(period, today=today) == expected


# --- contract_terms ------------------------------------------------------------------------


def test_contract_terms_come_from_the_contract(corpus):
    result = contract_terms(_id("Northline Freight"))
    assert result.ok
    data = result.data
    assert (data["payment_terms"], data["payment_days"]) == ("net 45", 45)
    assert data["signed_on"] == "2026-06-01"
    assert data["renewal_date"] > ANCHOR.isoformat()
    assert Decimal(data["credit_limit"]) > 0


def test_contract_terms_for_unknown_customer(corpus):
    assert not contract_terms(999_999).ok


# --- search_documents_tool -----------------------------------------------------------------


def test_search_tool_wraps_passages(corpus):
    result = search_documents_tool("Brightwater Dental new practices")
    assert result.ok
    top = result.data["passages"][0]
    assert top["title"] == "Account note: Brightwater Dental new practices"
    assert top["customer_id"] == _id("Brightwater Dental")


# --- find_customer_mentions ----------------------------------------------------------------


def test_short_name_mentions_every_customer_it_could_be(corpus):
    mentions = find_customer_mentions("How much did Northline order last quarter?")
    assert {m.name for m in mentions} == {"Northline Freight", "Northline Logistics"}
    assert all(not m.exact and m.matched == "northline" for m in mentions)
    assert [len(group) for group in mentions_by_name("How much did Northline order?")] == [2]


@pytest.mark.parametrize(
    "text, expected",
    [
        ("Show Northline Freight's overdue orders", ["Northline Freight"]),
        ("Compare Kestrel Foods with ACCT-55310", ["Kestrel Foods", "Brightwater Dental"]),
        ("what about northline in leeds?", ["Northline Logistics"]),
        ("Total for the west region last month", []),
        ("and kestrel?", ["Kestrel Foods"]),
        ("Which customers are on credit hold?", []),
    ],
)
def test_mentions_in_order_named(corpus, text, expected):
    assert [m.name for m in find_customer_mentions(text)] == expected


def test_mentions_cost_one_query_once_the_index_is_built(corpus, django_assert_num_queries):
    find_customer_mentions("warm the index")
    question = "Did Northline Freight, Kestrel Foods or Brightwater Dental order more this year than last year? " * 5
    with django_assert_num_queries(1):
        assert len(find_customer_mentions(question)) == 3


def test_mentions_see_a_new_customer(corpus):
    Customer.objects.create(
        name="Quillfeather Paper", city="Tacoma", region="west", segment="small business", account_code="ACCT-77777"
    )
    assert [m.name for m in find_customer_mentions("orders for Quillfeather Paper")] == ["Quillfeather Paper"]
