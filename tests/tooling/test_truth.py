"""The truth reader's wider language (atlas.tooling.truth) and what the evaluation computes from it
(atlas.tooling.evaluation): every kind of period, "cancelled excluded or included", an order's fields,
comparisons of two customers, regions or periods, yes/no questions, remarks about how the question was
typed. Each reading is written out; a truth that could mean two things is left unjudged, with the reason;
computed values are checked against ORM queries written here."""

from datetime import date
from decimal import Decimal

import pytest
from django.db.models import Sum
from django.utils import timezone

from atlas.tooling.evaluation import Expected, expected_for, judge, period_bounds
from atlas.tooling.truth import read_truth
from chat.models import Contract, Customer, Order


def reading(truth: str, *turns: str, must: str = ""):
    return read_truth({"truth": truth, "turns": list(turns), "must": must})


REVENUE_SOUTH_YTD = (
    "sum of non-cancelled order amounts for customers in the South region ordered from 1 January this year to today"
)


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("truth", "must", "check"),
    [
        # periods
        (REVENUE_SOUTH_YTD, "", {"sum_orders": {"region": "south", "period": "ytd", "revenue": True}}),
        (
            "sum of non-cancelled order amounts for Copperline Electrical ordered from 1 July to 30 September 2026",
            "",
            {"sum_orders": {"customer": "Copperline Electrical", "period": "quarter:2026-3", "revenue": True}},
        ),
        (
            "sum of non-cancelled order amounts for Saltmarsh Energy Services ordered in Q2 of this year "
            "(1 April to 30 June)",
            "",
            {"sum_orders": {"customer": "Saltmarsh Energy Services", "period": "quarter:this-2", "revenue": True}},
        ),
        (
            "sum of non-cancelled order amounts ordered from 1 January to 31 December 2025, all customers "
            "(the records have no separate fiscal calendar, so FY25 is calendar 2025)",
            "",
            {"sum_orders": {"period": "year:2025", "revenue": True}},
        ),
        (
            "sum of non-cancelled order amounts, all customers, ordered from 1 January to 30 June 2025",
            "",
            {"sum_orders": {"period": "range:2025-01-01:2025-06-30", "revenue": True}},
        ),
        (
            "mean amount of non-cancelled orders ordered from the first day of the current quarter to today "
            "by customers in the West region",
            "",
            {"avg_orders": {"region": "west", "period": "qtd", "revenue": True}},
        ),
        (
            "sum of non-cancelled order amounts for Kestrel Foods ordered this year "
            "(from 1 January this year to today)",
            "",
            {"sum_orders": {"customer": "Kestrel Foods", "period": "ytd", "revenue": True}},
        ),
        (
            "mean amount of non-cancelled orders ordered last quarter (the whole calendar quarter before the current "
            "one) by customers in the South region",
            "",
            {"avg_orders": {"region": "south", "period": "last quarter", "revenue": True}},
        ),
        (
            "sum of non-cancelled order amounts for Pennine Outdoor Gear ordered in September this year",
            "",
            {"sum_orders": {"customer": "Pennine Outdoor Gear", "period": "month:this-09", "revenue": True}},
        ),
        # cancelled excluded or included; filters said not to apply
        (
            "count of orders ordered in the 30 days up to today, all customers, cancelled excluded or included",
            "",
            {"count_orders": {"period": "last_days:30", "cancelled": "either"}},
        ),
        (
            "count of orders for Tamarack Software ordered from 1 June this year to today, "
            "cancelled excluded or included",
            "",
            {"count_orders": {"customer": "Tamarack Software", "period": "from:this-06-01", "cancelled": "either"}},
        ),
        (
            "count of orders for Bluestem Veterinary ordered this year, not only cancelled ones "
            "(cancelled excluded or included)",
            "",
            {"count_orders": {"customer": "Bluestem Veterinary", "period": "this year", "cancelled": "either"}},
        ),
        (
            "mean amount of Tamarack Software's non-cancelled orders ordered this year, not only overdue ones, "
            "no region filter",
            "",
            {"avg_orders": {"customer": "Tamarack Software", "period": "this year", "revenue": True}},
        ),
        (
            "orders ordered last month with an amount above 30,000 by customers with segment enterprise, "
            "cancelled excluded or included",
            "",
            {"orders": {"segment": "enterprise", "period": "last month", "cancelled": "either", "min_amount": "30000"}},
        ),
        # the largest or smallest order, rankings
        (
            "the non-cancelled order ordered in 2025 with the largest amount",
            "",
            {"largest_order": {"period": "year:2025", "revenue": True}},
        ),
        (
            "the non-cancelled order of Beacon Hill Architects with the smallest amount, all dates",
            "",
            {"smallest_order": {"customer": "Beacon Hill Architects", "revenue": True}},
        ),
        (
            "the non-cancelled order of Redwood Analytics ordered in 2025 with the largest amount, any status",
            "",
            {"largest_order": {"customer": "Redwood Analytics", "period": "year:2025", "revenue": True}},
        ),
        (
            "customers ranked by the sum of non-cancelled order amounts ordered last year, lowest first",
            "the bottom three names, lowest first",
            {"rank": {"group": "customer", "limit": 3, "period": "last year", "ascending": True}},
        ),
        (
            "customer with the largest count of orders ordered in the 90 days up to today, "
            "cancelled excluded or included",
            "that customer's name",
            {
                "rank": {
                    "group": "customer",
                    "limit": 1,
                    "period": "last_days:90",
                    "cancelled": "either",
                    "measure": "count",
                }
            },
        ),
        (
            "segments (enterprise, mid-market, small business) ranked by the sum of non-cancelled order amounts "
            "ordered in 2025",
            "the three segment names in order, each with its figure",
            {"rank": {"group": "segment", "limit": 3, "period": "year:2025", "values": True}},
        ),
        # lookups
        ("status of the order numbered SO-86123", "", {"order_field": {"order": "SO-86123", "field": "status"}}),
        ("amount of the order numbered SO-88640", "", {"order_field": {"order": "SO-88640", "field": "amount"}}),
        (
            "ordered-on date of the order numbered SO-86950",
            "",
            {"order_field": {"order": "SO-86950", "field": "ordered_on"}},
        ),
        (
            "city of Lindqvist Robotics (the name is misspelled in the question)",
            "",
            {"customer_field": {"customer": "Lindqvist Robotics", "field": "city"}},
        ),
        (
            "signed-on date of Osprey Clinical Labs' latest contract",
            "",
            {"contract": {"customer": "Osprey Clinical Labs", "field": "signed_on"}},
        ),
        (
            "count of orders with status overdue for Northline Logistics (not Northline Freight)",
            "",
            {"count_orders": {"customer": "Northline Logistics", "status": "overdue"}},
        ),
        (
            "sum of non-cancelled order amounts for Copperline Electrical ordered last month "
            "(Copperline is in the Central region)",
            "",
            {"sum_orders": {"customer": "Copperline Electrical", "period": "last month", "revenue": True}},
        ),
        # comparisons
        (
            "sums of non-cancelled order amounts ordered this year for Harborview Marine and for Sierra Outdoor Co., "
            "compared (a comparison by count of orders that says so is also correct)",
            "",
            {
                "compare": {
                    "measure": "sum_orders",
                    "sides": [
                        {"customer": "Harborview Marine", "period": "this year", "revenue": True},
                        {"customer": "Sierra Outdoor Co.", "period": "this year", "revenue": True},
                    ],
                    "or_count": True,
                }
            },
        ),
        (
            "sums of non-cancelled order amounts ordered last quarter for customers in the North region and for "
            "customers in the South region",
            "",
            {
                "compare": {
                    "measure": "sum_orders",
                    "sides": [
                        {"region": "north", "period": "last quarter", "revenue": True},
                        {"region": "south", "period": "last quarter", "revenue": True},
                    ],
                }
            },
        ),
        (
            "counts of orders, all customers, ordered in November this year and in October this year, compared, "
            "cancelled excluded or included",
            "",
            {
                "compare": {
                    "measure": "count_orders",
                    "sides": [
                        {"period": "month:this-11", "cancelled": "either"},
                        {"period": "month:this-10", "cancelled": "either"},
                    ],
                }
            },
        ),
        (
            "sums of non-cancelled order amounts, all customers, ordered this month (first of the current month to "
            "today) and last month (the whole previous calendar month), compared",
            "",
            {
                "compare": {
                    "measure": "sum_orders",
                    "sides": [{"period": "mtd", "revenue": True}, {"period": "last month", "revenue": True}],
                }
            },
        ),
        (
            "sums of non-cancelled order amounts, all customers, ordered last quarter and in the calendar quarter "
            "before it, compared",
            "",
            {
                "compare": {
                    "measure": "sum_orders",
                    "sides": [
                        {"period": "last quarter", "revenue": True},
                        {"period": "quarters_ago:2", "revenue": True},
                    ],
                }
            },
        ),
        (
            "sums of non-cancelled order amounts for customers in the South region ordered last month and in the "
            "same calendar month one year earlier, compared",
            "",
            {
                "compare": {
                    "measure": "sum_orders",
                    "sides": [
                        {"region": "south", "period": "last month", "revenue": True},
                        {"region": "south", "period": "months_ago:13", "revenue": True},
                    ],
                }
            },
        ),
        (
            "sums of non-cancelled order amounts, all customers, ordered from 1 January to 30 June 2025 (H1) and "
            "from 1 July to 31 December 2025 (H2), compared",
            "",
            {
                "compare": {
                    "measure": "sum_orders",
                    "sides": [
                        {"period": "range:2025-01-01:2025-06-30", "revenue": True},
                        {"period": "range:2025-07-01:2025-12-31", "revenue": True},
                    ],
                }
            },
        ),
        # yes or no
        (
            "payment terms of Kestrel Foods' latest contract, compared with net 30",
            "",
            {
                "yes_no": {
                    "check": {"contract": {"customer": "Kestrel Foods", "field": "payment_terms"}},
                    "equals": "net 30",
                }
            },
        ),
        (
            "orders with status open for Gateway Auto Parts; yes if there is at least one",
            "",
            {"yes_no": {"check": {"orders": {"customer": "Gateway Auto Parts", "status": "open"}}, "any": True}},
        ),
    ],
)
def test_each_new_kind_of_truth_reads_into_its_check(corpus, truth, must, check):
    assert reading(truth, must=must).check == check


@pytest.mark.django_db
def test_the_customer_of_an_order_is_read_from_the_records(corpus):
    order = Order.objects.select_related("customer").order_by("number").first()
    truth = f"payment terms of the latest contract of the customer of order {order.number}"
    assert reading(truth).check == {"contract": {"customer": order.customer.name, "field": "payment_terms"}}


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("truth", "reason"),
    [
        # above, below or equal: the truth does not say which
        ("credit limit of Kestrel Foods' latest contract, compared with 500,000", "above, below or on it is not said"),
        ("renewal date of Kestrel Foods' latest contract, compared with 1 June next year", "is not said"),
        # a day and month with no year
        ("sum of non-cancelled order amounts ordered from 1 July to 30 September", "unknown words"),
        # a restatement that does not restate
        ("sum of non-cancelled order amounts ordered last quarter (1 July to 30 September 2025)", "disagree"),
        ("count of non-cancelled orders ordered this year, cancelled excluded or included", "either way"),
        ("mean amount of orders with status overdue, not only overdue ones", "does not apply"),
        (
            "sum of non-cancelled order amounts ordered last month (Kestrel Foods is in the North region)",
            "does not hold",
        ),
        ("sums of non-cancelled order amounts for Kestrel Foods ordered this year", "a comparison of what?"),
        ("segments (enterprise, retail) ranked by the sum of non-cancelled order amounts", "are not the segments"),
        ("sum of non-cancelled order amounts ordered last month and this month", "two periods"),
    ],
)
def test_a_truth_that_could_mean_two_things_is_left_unjudged(corpus, truth, reason):
    result = reading(truth)
    assert result.check is None and reason in result.reason


def test_the_periods_of_every_kind():
    today = date(2026, 2, 10)
    assert period_bounds("ytd", today) == (date(2026, 1, 1), today)
    assert period_bounds("qtd", today) == (date(2026, 1, 1), today)
    assert period_bounds("mtd", today) == (date(2026, 2, 1), today)
    assert period_bounds("quarter:this-2", today) == (date(2026, 4, 1), date(2026, 6, 30))
    assert period_bounds("month:last-12", today) == (date(2025, 12, 1), date(2025, 12, 31))
    assert period_bounds("months_ago:13", today) == (date(2025, 1, 1), date(2025, 1, 31))
    assert period_bounds("quarters_ago:2", today) == (date(2025, 7, 1), date(2025, 9, 30))
    assert period_bounds("from:this-06-01", date(2026, 12, 3)) == (date(2026, 6, 1), date(2026, 12, 3))
    assert period_bounds("range:last-07-01:last-12-31", today) == (date(2025, 7, 1), date(2025, 12, 31))


def test_the_judge_takes_either_alternative_a_yes_or_no_first_and_never_a_question_back():
    either = Expected(either=(Expected(numbers=(Decimal(12),)), Expected(numbers=(Decimal(10),))))
    assert judge("12 orders.", either) == judge("10 orders.", either) == "correct"
    assert judge("11 orders.", either) == "wrong"
    yes = Expected(yes=True, texts=("net 30",))
    assert judge("Yes: Kestrel Foods pays on net 30.", yes) == "correct"
    assert judge("No: Kestrel Foods pays on net 30.", yes) == "wrong"
    assert judge("Kestrel Foods pays on net 30.", yes) == "wrong"
    assert judge("No.", Expected(yes=False)) == "correct"
    assert judge("Did you mean Northline Freight? It has 4 open orders.", Expected(numbers=(Decimal(4),))) == "wrong"


def test_saying_the_value_asked_about_does_not_exist_is_the_abstention_an_out_of_scope_truth_wants():
    abstain = Expected(abstain=True)
    no_segment = "There is no government segment; the segments are enterprise, mid-market and small business."
    assert judge(no_segment, abstain) == "correct"
    assert judge("There is no APAC region; the regions are West, East, North, South and Central.", abstain) == "correct"
    # A figure beside the denial is still a figure asserted; and a denial is no answer to a figure.
    assert judge("There is no government segment; public bodies spent $12,000.00.", abstain) == "wrong"
    assert judge(no_segment, Expected(numbers=(Decimal(12),))) == "wrong"


@pytest.mark.django_db
def test_computed_values_agree_with_queries_written_here(corpus):
    today = timezone.localdate()
    year_start = date(today.year, 1, 1)
    # a comparison of two regions, the year to date
    check = reading(
        "sums of non-cancelled order amounts ordered from 1 January this year to today for customers in the "
        "North region and for customers in the South region, compared"
    ).check
    expected = expected_for(check, today)
    sums = [
        Order.objects.filter(customer__region=r, ordered_on__gte=year_start, ordered_on__lte=today)
        .exclude(status="cancelled")
        .aggregate(s=Sum("amount"))["s"]
        or Decimal(0)
        for r in ("north", "south")
    ]
    assert expected.numbers == tuple(s.quantize(Decimal("0.01")) for s in sums)
    assert expected.names == ("north", "south")
    # a count either way: with and without cancelled orders
    customer = Customer.objects.order_by("name").first()
    check = reading(f"count of orders for {customer.name}, all dates, cancelled excluded or included").check
    counts = {
        Order.objects.filter(customer=customer).count(),
        Order.objects.filter(customer=customer).exclude(status="cancelled").count(),
    }
    expected = expected_for(check, today)
    assert {e.numbers[0] for e in expected.either or (expected,)} == {Decimal(n) for n in counts}
    # an order's date and a yes/no on a contract's terms
    order = Order.objects.order_by("number").first()
    expected = expected_for(reading(f"ordered-on date of the order numbered {order.number}").check, today)
    assert order.ordered_on.isoformat() in expected.texts[0].split("|")
    contract = Contract.objects.filter(customer=customer).order_by("-signed_on", "-pk").first()
    check = reading(f"payment terms of {customer.name}'s latest contract, compared with net 30").check
    assert expected_for(check, today) == Expected(
        texts=(contract.payment_terms,), yes=contract.payment_terms == "net 30"
    )
    # yes if there is at least one: the open orders of that customer
    open_numbers = set(Order.objects.filter(customer=customer, status="open").values_list("number", flat=True))
    check = reading(f"orders with status open for {customer.name}; yes if there is at least one").check
    expected = expected_for(check, today)
    answers = expected.either or (expected,)
    assert all(e.yes == bool(open_numbers) for e in answers)
    assert any(set(e.names) == open_numbers for e in answers) or not open_numbers


@pytest.mark.django_db
def test_counts_compared_must_be_said_as_counts_not_found_in_a_list_of_dates(corpus):
    check = reading(
        "counts of orders, all customers, ordered in November this year and in October this year, compared"
    ).check
    assert check == {
        "compare": {"measure": "count_orders", "sides": [{"period": "month:this-11"}, {"period": "month:this-10"}]}
    }
    today = timezone.localdate()
    november, october = (
        Order.objects.filter(ordered_on__range=period_bounds(p, today)).count()
        for p in ("month:this-11", "month:this-10")
    )
    expected = expected_for(check, today)
    assert judge(f"{november:,} orders in November against {october:,} orders in October.", expected) == "correct"
    assert judge(f"Orders: SO-1, {november} Nov; SO-2, {october} Oct.", expected) == "wrong"


@pytest.mark.django_db
def test_a_value_the_records_do_not_have_is_read_checked_and_judged(corpus):
    check = reading("no customer has segment retail; the segments are enterprise, mid-market and small business").check
    assert check == {
        "no_such": {"field": "segment", "value": "retail", "existing": ["enterprise", "mid-market", "small business"]}
    }
    assert reading("there is no Northwest region; the regions are West, East, North, South and Central").check == {
        "no_such": {"field": "region", "value": "Northwest", "existing": ["west", "east", "north", "south", "central"]}
    }
    assert reading("no customer has city Austin").check == {"no_such": {"field": "city", "value": "Austin"}}
    # a value the records do have, or a list that is not theirs, is never taken on trust
    assert "the records have it" in reading("no customer has segment enterprise").reason
    assert (
        "are not the segments"
        in reading("no customer has segment retail; the segments are enterprise and retail").reason
    )
    expected = expected_for(check, timezone.localdate())
    right = "There is no retail segment; the segments are enterprise, mid-market and small business."
    assert judge(right, expected) == "correct"
    assert judge("Retail: enterprise, mid-market and small business.", expected) == "wrong"
    city = Customer.objects.order_by("city").values_list("city", flat=True).first()
    austin = expected_for({"no_such": {"field": "city", "value": "Austin"}}, timezone.localdate())
    assert judge(f"No customer is based in Austin; there are customers in {city}.", austin) == "correct"
    assert judge("No customer is based in Austin.", austin) == "wrong"  # it names no city that has customers


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("truth", "check"),
    [
        (
            "sum of non-cancelled order amounts for Kestrel Foods ordered since 1 March this year",
            {"sum_orders": {"customer": "Kestrel Foods", "period": "from:this-03-01", "revenue": True}},
        ),
        (
            "sum of non-cancelled order amounts for Kestrel Foods ordered since June this year",
            {"sum_orders": {"customer": "Kestrel Foods", "period": "from:this-06-01", "revenue": True}},
        ),
        (
            "sum of non-cancelled order amounts for Kestrel Foods ordered year to date",
            {"sum_orders": {"customer": "Kestrel Foods", "period": "ytd", "revenue": True}},
        ),
        (
            "sum of non-cancelled order amounts ordered from 1 October 2025 to 31 March 2026",
            {"sum_orders": {"period": "range:2025-10-01:2026-03-31", "revenue": True}},
        ),
        (
            "sums of non-cancelled order amounts ordered this year for Harborview Marine and Sierra Outdoor Co., "
            "compared",
            {
                "compare": {
                    "measure": "sum_orders",
                    "sides": [
                        {"customer": "Harborview Marine", "period": "this year", "revenue": True},
                        {"customer": "Sierra Outdoor Co.", "period": "this year", "revenue": True},
                    ],
                }
            },
        ),
        (
            "means of non-cancelled order amounts ordered in 2025 for customers with segment enterprise and for "
            "customers with segment mid-market",
            {
                "compare": {
                    "measure": "avg_orders",
                    "sides": [
                        {"segment": "enterprise", "period": "year:2025", "revenue": True},
                        {"segment": "mid-market", "period": "year:2025", "revenue": True},
                    ],
                }
            },
        ),
        (
            "the bottom 2 segments ranked by the sum of non-cancelled order amounts ordered last year",
            {"rank": {"group": "segment", "limit": 2, "period": "last year", "ascending": True}},
        ),
        (
            "count of orders with status open for Kestrel Foods ordered this month; yes if there is at least one",
            {
                "yes_no": {
                    "check": {"orders": {"customer": "Kestrel Foods", "status": "open", "period": "this month"}},
                    "any": True,
                }
            },
        ),
        ("the customer of the order numbered SO-86123", {"order_field": {"order": "SO-86123", "field": "customer"}}),
        (
            "status of order SO-86123, compared with paid",
            {"yes_no": {"check": {"order_field": {"order": "SO-86123", "field": "status"}}, "equals": "paid"}},
        ),
    ],
)
def test_the_language_is_read_beyond_the_fixtures_wording(corpus, truth, check):
    assert reading(truth).check == check


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("truth", "reason"),
    [
        ("sum of non-cancelled order amounts for Kestrel Foods ordered since June", "unknown words"),  # which June?
        ("sum of non-cancelled order amounts for Kestrel Foods ordered from June 2025", "from when to when?"),
        ("customers ranked by the sum of non-cancelled order amounts ordered in the past 30 days", "number of places"),
    ],
)
def test_a_period_or_a_ranking_left_open_is_not_guessed(corpus, truth, reason):
    result = reading(truth)
    assert result.check is None and reason in result.reason


@pytest.mark.django_db
def test_eval_answers_readings_reads_the_truths_without_asking(corpus, tmp_path):
    import json
    from io import StringIO

    from django.core.management import call_command

    cases = tmp_path / "cases.jsonl"
    rows = [
        {"id": "r1", "turns": ["?"], "truth": "status of the order numbered SO-86123", "must": "that status"},
        {"id": "r2", "turns": ["?"], "truth": "credit limit of Kestrel Foods' latest contract, compared with 500,000"},
    ]
    cases.write_text("\n".join(json.dumps(r) for r in rows), encoding="utf-8")
    out = StringIO()
    call_command("eval_answers", str(cases), readings=True, stdout=out)
    lines = out.getvalue().splitlines()
    assert lines[0].split(None, 1) == ["r1", json.dumps({"order_field": {"order": "SO-86123", "field": "status"}})]
    assert lines[1].startswith("r2") and "unjudged: truth not read: compared with a figure" in lines[1]
    assert lines[-1] == "cases 2  unjudged 0.500"


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("truth", "check"),
    [
        # a range of days within one month, the month and year said once
        (
            "count of orders for Kestrel Foods ordered from 1 to 28 February 2025",
            {"count_orders": {"customer": "Kestrel Foods", "period": "month:2025-02"}},
        ),
        (
            "sum of non-cancelled order amounts for Kestrel Foods ordered from 5 to 19 March 2026",
            {"sum_orders": {"customer": "Kestrel Foods", "period": "range:2026-03-05:2026-03-19", "revenue": True}},
        ),
        # a field of "the contract" (each customer has one: its latest)
        (
            "credit limit of the contract of Tamarack Software",
            {"contract": {"customer": "Tamarack Software", "field": "credit_limit"}},
        ),
        (
            "signing date of the contract for Piedmont Textiles",
            {"contract": {"customer": "Piedmont Textiles", "field": "signed_on"}},
        ),
        # a customer's name (looked up), and the customer of an order by name
        ("name of Redwood Analytics", {"customer_field": {"customer": "Redwood Analytics", "field": "name"}}),
        # numbers of orders, names of customers
        (
            "numbers of the orders with status open for Saguaro Solar",
            {"orders": {"customer": "Saguaro Solar", "status": "open"}},
        ),
        (
            "numbers of the orders with status overdue and amount above 7,500 USD, all customers",
            {"orders": {"status": "overdue", "min_amount": "7500"}},
        ),
        ("names of the customers whose city is Denver", {"customers": {"city": "Denver"}}),
        (
            "names of the customers in the North region and the mid-market segment",
            {"customers": {"region": "north", "segment": "mid-market"}},
        ),
        (
            "names of the customers whose contract renewal date is from 1 March to 31 May 2027",
            {"renewals": {"period": "range:2027-03-01:2027-05-31"}},
        ),
        # number and amount of an extreme order
        (
            "number and amount of the largest non-cancelled order of Harborview Marine, all dates",
            {"largest_order": {"customer": "Harborview Marine", "revenue": True}},
        ),
        (
            "number and amount of the smallest non-cancelled order ordered in 2025, all customers",
            {"smallest_order": {"period": "year:2025", "revenue": True}},
        ),
        # names of the N customers with the highest or lowest ...
        (
            "names of the 4 customers in the East region with the highest sum of non-cancelled order amounts "
            "ordered in 2025",
            {"rank": {"group": "customer", "limit": 4, "region": "east", "period": "year:2025"}},
        ),
        (
            "names of the 2 customers with the lowest sum of non-cancelled order amounts over all orders",
            {"rank": {"group": "customer", "limit": 2, "ascending": True}},
        ),
    ],
)
def test_lookups_lists_and_extremes_in_the_plainer_wording(corpus, truth, check):
    assert reading(truth).check == check


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("truth", "turns", "check"),
    [
        # remarks on how the conversation went are dropped: the truth before them is what the last answer holds
        (
            "count of orders with status open for Kestrel Foods (the follow-up keeps the status and changes "
            "the customer)",
            ["how many open orders does saguaro solar have", "and kestrel?"],
            {"count_orders": {"customer": "Kestrel Foods", "status": "open"}},
        ),
        (
            "sum of non-cancelled order amounts for Tamarack Software, all dates; the second question has its own "
            "subject, so the region filter is dropped",
            ["revenue in the west", "what has tamarack software spent overall"],
            {"sum_orders": {"customer": "Tamarack Software", "revenue": True}},
        ),
        # yes/no on a value, or on there being any
        (
            "payment terms of the contract of Kestrel Foods; yes if they are net 45, otherwise no",
            [],
            {
                "yes_no": {
                    "check": {"contract": {"customer": "Kestrel Foods", "field": "payment_terms"}},
                    "equals": "net 45",
                }
            },
        ),
        (
            "count of orders with status cancelled for Saguaro Solar; yes if above zero, otherwise no",
            [],
            {"yes_no": {"check": {"orders": {"customer": "Saguaro Solar", "status": "cancelled"}}, "any": True}},
        ),
    ],
)
def test_conversation_remarks_and_yes_if(corpus, truth, turns, check):
    assert reading(truth, *turns).check == check


@pytest.mark.django_db
def test_today_restated_as_a_day_must_be_today(corpus):
    today = timezone.localdate()
    said = f"{today.day} {today:%B %Y}"
    truth = f"sum of non-cancelled order amounts for Kestrel Foods ordered from 1 March 2026 to today ({said})"
    assert reading(truth).check == {
        "sum_orders": {"customer": "Kestrel Foods", "period": "from:2026-03-01", "revenue": True}
    }
    truth = "sum of non-cancelled order amounts ordered from 1 March 2020 to today (5 March 2020)"
    assert "to today or to that day?" in reading(truth).reason


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("truth", "check"),
    [
        # one measure said of two subjects, "each" over one period, "which is larger" read from the figures
        (
            "count of orders with status paid for Kestrel Foods and for Saguaro Solar, each ordered in 2025, "
            "and which is larger",
            {
                "compare": {
                    "measure": "count_orders",
                    "sides": [
                        {"customer": "Kestrel Foods", "status": "paid", "period": "year:2025"},
                        {"customer": "Saguaro Solar", "status": "paid", "period": "year:2025"},
                    ],
                }
            },
        ),
        (
            "sum of non-cancelled order amounts for customers in the West region and for customers in the "
            "North region, each ordered from 1 January to 31 March 2026",
            {
                "compare": {
                    "measure": "sum_orders",
                    "sides": [
                        {"region": "west", "period": "quarter:2026-1", "revenue": True},
                        {"region": "north", "period": "quarter:2026-1", "revenue": True},
                    ],
                }
            },
        ),
        # one measure over two periods, the second "ordered from ...", and "whether ... is higher or lower"
        (
            "sum of non-cancelled order amounts for Tamarack Software ordered in 2024 and ordered from "
            "1 January to 30 June 2025, and whether 2025 is higher or lower",
            {
                "compare": {
                    "measure": "sum_orders",
                    "sides": [
                        {"customer": "Tamarack Software", "period": "year:2024", "revenue": True},
                        {"customer": "Tamarack Software", "period": "range:2025-01-01:2025-06-30", "revenue": True},
                    ],
                }
            },
        ),
    ],
)
def test_one_measure_of_two_subjects_or_periods_is_a_comparison(corpus, truth, check):
    assert reading(truth).check == check


@pytest.mark.django_db
def test_which_is_larger_of_one_figure_is_not_read(corpus):
    result = reading("sum of non-cancelled order amounts for Kestrel Foods ordered in 2025, and which is larger")
    assert result.check is None and "a comparison of what?" in result.reason


@pytest.mark.django_db
def test_a_list_shown_as_a_table_is_judged_on_the_table_block(corpus):
    truth = "numbers of the orders with status open for customers in the East region, shown as a table"
    check = reading(truth).check
    assert check == {"table": {"orders": {"region": "east", "status": "open"}}}
    numbers = tuple(
        Order.objects.filter(customer__region="east", status="open").order_by("number").values_list("number", flat=True)
    )
    expected = expected_for(check, timezone.localdate())
    assert expected.table and set(expected.names) == set(numbers) and numbers
    listed = ", ".join(numbers)
    table = {"kind": "table", "header": ["Order", "Amount"], "rows": [[n, "1.00"] for n in numbers]}
    assert judge("Open orders in the East:", expected, [table]) == "correct"
    assert judge(f"Open orders in the East: {listed}.", expected, []) == "wrong"  # not laid out as a table
    short = {**table, "rows": table["rows"][1:]}
    assert judge("Open orders in the East:", expected, [short]) == "wrong"
    # a single figure is not a table
    assert "a table of one figure?" in reading("count of orders for Kestrel Foods, shown as a table").reason


@pytest.mark.django_db
def test_one_field_of_the_largest_or_smallest_order(corpus):
    truth = "status of the largest non-cancelled order of Kestrel Foods ordered in 2025"
    check = reading(truth).check
    assert check == {
        "largest_order": {"customer": "Kestrel Foods", "period": "year:2025", "revenue": True, "field": "status"}
    }
    largest = (
        Order.objects.filter(customer__name="Kestrel Foods", ordered_on__year=2025)
        .exclude(status="cancelled")
        .order_by("-amount", "number")
        .first()
    )
    assert expected_for(check, timezone.localdate()) == Expected(texts=(largest.status,))
    assert reading("amount of the smallest order of Saguaro Solar, all dates").check == {
        "smallest_order": {"customer": "Saguaro Solar", "field": "amount"}
    }
    assert reading("number of the biggest order with status open, all customers").check == {
        "largest_order": {"status": "open", "field": "number"}
    }


@pytest.mark.django_db
def test_a_count_of_customers_whose_must_allows_their_names(corpus):
    case = {
        "truth": "count of customers whose city is Portland",
        "turns": ["how many customers are in portland"],
        "must": "that count (or the names of those customers)",
    }
    check = read_truth(case).check
    assert check == {"count_customers": {"city": "Portland", "or_names": True}}
    names = sorted(Customer.objects.filter(city="Portland").values_list("name", flat=True))
    expected = expected_for(check, timezone.localdate())
    assert judge(f"{len(names)} customers are in Portland.", expected) == "correct"
    assert judge("In Portland: " + ", ".join(names) + ".", expected) == "correct"
    assert judge("In Portland: " + ", ".join(names[1:]) + ".", expected) == "wrong"
    # without the must, only the count
    assert reading("count of customers whose city is Portland").check == {"count_customers": {"city": "Portland"}}


@pytest.mark.django_db
def test_no_names_to_list_leaves_only_the_count(corpus):
    expected = expected_for({"count_customers": {"city": "Nowhere", "or_names": True}}, timezone.localdate())
    assert expected == Expected(numbers=(Decimal(0),))


def test_a_record_code_echoed_in_an_abstention_is_no_figure():
    from atlas.tooling.evaluation import abstained

    assert abstained("I can't answer that: no customer has account code ACCT-64021.")
    assert not abstained("I can't answer that from the records, but 3 orders are open.")
