"""Customer lookup and mentions against the seeded demo data: ambiguity, near misses, the index."""

import pytest
from django.core.exceptions import ValidationError

from chat.models import Customer
from chat.tools import (
    find_customer_mentions,
    lookup_customer,
    one_index,
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


# --- find_customer_mentions ----------------------------------------------------------------


def test_short_name_mentions_every_customer_it_could_be(corpus):
    mentions = find_customer_mentions("How much did Northline order last quarter?")
    assert {m.name for m in mentions} == {"Northline Freight", "Northline Logistics"}
    assert all(not m.exact and m.matched == "northline" for m in mentions)


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


def test_one_index_checks_the_table_once_for_the_block_and_again_after(corpus, django_assert_num_queries):
    find_customer_mentions("warm the index")
    with django_assert_num_queries(1), one_index():
        for _ in range(4):
            assert [m.name for m in find_customer_mentions("and Kestrel Foods?")] == ["Kestrel Foods"]
    Customer.objects.create(
        name="Quillfeather Paper", city="Tacoma", region="west", segment="small business", account_code="ACCT-77777"
    )
    with one_index():
        assert [m.name for m in find_customer_mentions("orders for Quillfeather Paper")] == ["Quillfeather Paper"]
