"""The truth reader's values joined by "or", amounts below a bound, and a value the records do not have
with the values they do have in brackets (atlas.tooling.truth), and what the evaluation computes from them
(atlas.tooling.evaluation), checked against ORM queries written here."""

from decimal import Decimal

import pytest
from django.utils import timezone

from atlas.tooling.evaluation import expected_for, judge
from atlas.tooling.truth import read_truth
from chat.models import Customer, Order


def reading(truth: str, *turns: str, must: str = ""):
    return read_truth({"truth": truth, "turns": list(turns), "must": must})


REGIONS = ["central", "east", "north", "south", "west"]
STATUSES = ["cancelled", "open", "overdue", "paid", "shipped"]


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("truth", "check"),
    [
        (
            "there is no Midwest region (the regions are central, east, north, south and west), so no amount exists",
            {"no_such": {"field": "region", "value": "Midwest", "existing": REGIONS}},
        ),
        (
            "there is no on hold status (the statuses are cancelled, open, overdue, paid and shipped), "
            "so no count exists",
            {"no_such": {"field": "status", "value": "on hold", "existing": STATUSES}},
        ),
        (
            "there is no government segment (the segments are enterprise, mid-market and small business)",
            {
                "no_such": {
                    "field": "segment",
                    "value": "government",
                    "existing": ["enterprise", "mid-market", "small business"],
                }
            },
        ),
        ("customers with city Kansas City or city Omaha", {"customers": {"city": ["Kansas City", "Omaha"]}}),
        ("customers in Denver or Leeds", {"customers": {"city": ["Denver", "Leeds"]}}),
        (
            "count of orders for customers in the East region or the West region ordered this year",
            {"count_orders": {"region": ["east", "west"], "period": "this year"}},
        ),
        (
            "orders with status overdue for Saltmarsh Energy Services with an amount below 5,000",
            {"orders": {"customer": "Saltmarsh Energy Services", "status": "overdue", "max_amount": "5000"}},
        ),
        (
            "count of orders under $1,000 ordered last year",
            {"count_orders": {"period": "last year", "max_amount": "1000"}},
        ),
        (
            "orders with status open with an amount above 1,000 and an amount below 2,000",
            {"orders": {"status": "open", "min_amount": "1000", "max_amount": "2000"}},
        ),
    ],
)
def test_value_lists_or_and_amounts_below_are_read(corpus, truth, check):
    assert reading(truth).check == check


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("truth", "reason"),
    [
        # two values not joined by "or" could be a conjunction: not guessed
        ("customers with city Kansas City and city Omaha", "two values for city"),
        # a list in brackets that is not the records' values is not taken on trust
        ("there is no Midwest region (the regions are east and west), so no amount exists", "are not the regions"),
    ],
)
def test_two_values_not_joined_by_or_or_a_wrong_list_stay_unread(corpus, truth, reason):
    assert reason in reading(truth).reason


@pytest.mark.django_db
def test_lists_and_bounds_are_computed_as_queries_written_here_compute_them(corpus):
    today = timezone.localdate()
    cities = expected_for({"customers": {"city": ["Kansas City", "Omaha"]}}, today)
    assert set(cities.names) == set(
        Customer.objects.filter(city__in=["Kansas City", "Omaha"]).values_list("name", flat=True)
    )
    assert len(cities.names) >= 2
    below = expected_for({"orders": {"status": "overdue", "max_amount": "5000"}}, today)
    assert set(below.names) == set(
        Order.objects.filter(status="overdue", amount__lt=Decimal(5000)).values_list("number", flat=True)
    )
    assert below.names
    counted = expected_for({"count_orders": {"region": ["east", "west"]}}, today)
    assert counted.numbers == (Decimal(Order.objects.filter(customer__region__in=["east", "west"]).count()),)


@pytest.mark.django_db
def test_saying_a_value_is_missing_and_naming_the_values_there_are_is_correct(corpus):
    check = reading(
        "there is no Scotland region (the regions are central, east, north, south and west), so no amount exists"
    ).check
    expected = expected_for(check, timezone.localdate())
    assert judge("There is no Scotland region; the regions are West, East, North, South and Central.", expected) == (
        "correct"
    )
    assert judge("Scotland region this year: $0.00.", expected) == "wrong"


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("truth", "check"),
    [
        # how a word of the question was read is a remark, dropped
        (
            "count of orders with status overdue for Mercer Textile Works ('unpaid' read as the overdue status)",
            {"count_orders": {"customer": "Mercer Textile Works", "status": "overdue"}},
        ),
        (
            "orders with status open for customers with city Philadelphia ('philly' is Philadelphia)",
            {"orders": {"city": "Philadelphia", "status": "open"}},
        ),
        (
            "orders of Northline Freight (Portland, not Northline Logistics) ordered in 2025",
            {"orders": {"customer": "Northline Freight", "period": "year:2025"}},
        ),
        # customers by their orders
        (
            "customers with region west that have at least one order with status overdue",
            {"customers_with_orders": {"region": "west", "orders": {"status": "overdue"}}},
        ),
        (
            "customers with segment mid-market that have at least one order with amount below 1,000 ordered last year",
            {
                "customers_with_orders": {
                    "segment": "mid-market",
                    "orders": {"period": "last year", "max_amount": "1000"},
                }
            },
        ),
        # each name with a field of it
        (
            "customers with city Houston or city Dallas, with their segments",
            {"customers": {"city": ["Houston", "Dallas"], "show": "segment"}},
        ),
        # a grouping said before its measure
        (
            "for each customer with city Denver, the sum of non-cancelled order amounts ordered this year",
            {
                "grouped": {
                    "group": "customer",
                    "measure": "sum",
                    "city": "Denver",
                    "period": "this year",
                    "revenue": True,
                }
            },
        ),
    ],
)
def test_remarks_customers_by_their_orders_fields_shown_and_groupings_first(corpus, truth, check):
    assert reading(truth).check == check


@pytest.mark.django_db
def test_customers_by_their_orders_and_their_fields_are_computed_here_too(corpus):
    today = timezone.localdate()
    having = expected_for({"customers_with_orders": {"region": "west", "orders": {"status": "overdue"}}}, today)
    west = Customer.objects.filter(region="west", orders__status="overdue").distinct()
    assert set(having.names) == set(west.values_list("name", flat=True)) and having.names
    shown = expected_for({"customers": {"city": ["Houston", "Dallas"], "show": "segment"}}, today)
    both = Customer.objects.filter(city__in=["Houston", "Dallas"])
    assert set(shown.names) == set(both.values_list("name", flat=True))
    assert set(shown.texts) == set(both.values_list("segment", flat=True))
    # a remark that is not a city is not dropped on trust
    assert "is not a city" in reading("orders of Northline Freight (big one, not Northline Logistics)").reason
