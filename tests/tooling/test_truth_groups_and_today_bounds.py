"""The truth reader's wider language, second part: the group at the top of a ranking of its customers'
orders ("the region whose customers have the smallest ..."), the top of a ranking over a set ("among
customers in ..., the one with ..."), rankings by count or by average, periods bounded by today on
either side, a yes/no on a field without "it is", customers with at least one such order, and the
order at the top said with its status and place. Each reading is written out."""

from datetime import date

import pytest

from atlas.tooling.evaluation import period_bounds
from atlas.tooling.truth import read_truth


def reading(truth: str, must: str = ""):
    return read_truth({"truth": truth, "turns": [], "must": must}).check


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("truth", "must", "check"),
    [
        (
            "segment whose customers have the smallest sum of non-cancelled order amounts ordered in 2024",
            "",
            {"rank": {"group": "segment", "limit": 1, "period": "year:2024", "ascending": True}},
        ),
        (
            "region whose customers have the most orders ordered last month, cancelled excluded or included",
            "",
            {
                "rank": {
                    "group": "region",
                    "limit": 1,
                    "period": "last month",
                    "cancelled": "either",
                    "measure": "count",
                }
            },
        ),
        (
            "among customers in the North region, the one with the highest mean amount of non-cancelled orders",
            "",
            {"rank": {"group": "customer", "limit": 1, "region": "north", "measure": "avg"}},
        ),
        (
            "among cities of customers with segment enterprise, the one with the largest sum of non-cancelled "
            "order amounts ordered last year",
            "",
            {"rank": {"group": "city", "limit": 1, "segment": "enterprise", "period": "last year"}},
        ),
        (
            "customers in the West region ranked by sum of non-cancelled order amounts ordered this year",
            "every such name in order",
            {"rank": {"group": "customer", "limit": None, "region": "west", "period": "this year"}},
        ),
        (
            "contracts whose renewal date lies between today and 31 March 2027",
            "",
            {"renewals": {"period": "until:2027-03-31"}},
        ),
        (
            "contracts whose renewal date lies from today to 10 January 2027",
            "",
            {"renewals": {"period": "until:2027-01-10"}},
        ),
        (
            "count of contracts whose renewal date lies between 1 February 2026 and today",
            "",
            {"count_renewals": {"period": "from:2026-02-01"}},
        ),
        (
            "region of Kestrel Foods; yes if west, otherwise no",
            "",
            {
                "yes_no": {
                    "check": {"customer_field": {"customer": "Kestrel Foods", "field": "region"}},
                    "equals": "west",
                }
            },
        ),
        (
            "the order with status open with the smallest amount for customers in the South region",
            "",
            {"smallest_order": {"region": "south", "status": "open"}},
        ),
        (
            "status of the order of Kestrel Foods ordered in 2025 with the largest amount",
            "",
            {"largest_order": {"customer": "Kestrel Foods", "period": "year:2025", "field": "status"}},
        ),
    ],
)
def test_truths_of_the_wider_kinds_read_into_checks(corpus, truth, must, check):
    assert reading(truth, must) == check


@pytest.mark.django_db
def test_customers_with_at_least_one_order_of_a_status_read_as_customers_by_their_orders(corpus):
    check = reading("customers in the East region with at least one order with status overdue")
    assert check == {"customers_with_orders": {"region": "east", "orders": {"status": "overdue"}}}


@pytest.mark.django_db
def test_a_ranking_by_amount_with_cancelled_orders_either_way_is_not_guessed(corpus):
    assert reading("city whose customers have the largest sum of order amounts, cancelled excluded or included") is None


def test_until_runs_from_today_to_the_day():
    assert period_bounds("until:2027-02-28", date(2026, 12, 4)) == (date(2026, 12, 4), date(2027, 2, 28))


@pytest.mark.django_db
def test_two_figures_of_one_subject_read_as_a_comparison(corpus):
    check = reading(
        "two figures for Kestrel Foods: sum of non-cancelled order amounts ordered in 2024, and sum of "
        "non-cancelled order amounts ordered last year"
    )
    sides = [
        {"customer": "Kestrel Foods", "period": "year:2024", "revenue": True},
        {"customer": "Kestrel Foods", "period": "last year", "revenue": True},
    ]
    assert check == {"compare": {"measure": "sum_orders", "sides": sides}}
