"""The truth reader's wider language, third part: a statement about the user to acknowledge, a value the
records do not have with some of the values they do have, a period of stated years restated relative to
today, "the next <month>", a day range joined by "and", a remark on how a number was typed, contracts by
the day they were signed, "yes if it lies between today and <day>", one measure of two segments, and the
orders with the largest amounts. Each reading is written out; what the evaluation computes from the new
kinds is checked against ORM queries written here."""

from datetime import date
from decimal import Decimal

import pytest
import time_machine

from atlas.tooling.evaluation import Expected, expected_for, judge, period_bounds
from atlas.tooling.truth import read_truth
from chat.models import Contract, Customer, Order

NOON = "2026-12-04 12:00:00+00:00"


def reading(truth: str, *turns: str):
    return read_truth({"truth": truth, "turns": list(turns), "must": ""}).check


@time_machine.travel(NOON, tick=False)
@pytest.mark.parametrize(
    ("truth", "turns", "check"),
    [
        (
            "a statement about the user, not a question: nothing to look up",
            ("fyi I'm off to Denver for the trade show on the 12th",),
            {"statement": {"said": ["12"]}},
        ),
        (
            "it is a statement by the user, not a question",
            ("heads up, new job title for me",),
            {"statement": {"said": []}},
        ),
        (
            "no customer has city Paris (the European cities in the records are Leeds and Manchester), "
            "so the list is empty",
            (),
            {"no_such": {"field": "city", "value": "Paris"}},
        ),
        (
            "count of orders ordered from 1 April to 30 September 2026 (Q2 and Q3 of this year)",
            (),
            None,  # a restatement that is not one period is not read
        ),
        (
            "count of orders ordered from 1 July to 31 December 2026 (H2 of this year)",
            (),
            {"count_orders": {"period": "range:2026-07-01:2026-12-31"}},
        ),
        (
            "contracts whose renewal date lies between 1 and 28 February 2027 (the next February)",
            (),
            {"renewals": {"period": "month:2027-02"}},
        ),
        (
            "value of the order numbered SO-86429 (typed as a bare number)",
            (),
            {"order_field": {"order": "SO-86429", "field": "amount"}},
        ),
        (
            'customers with city Philadelphia ("philly" is a nickname for Philadelphia)',
            (),
            {"customers": {"city": "Philadelphia"}},
        ),
        (
            "contracts whose signed-on date lies between 1 March and 30 June 2025",
            (),
            {"signed": {"period": "range:2025-03-01:2025-06-30"}},
        ),
        ("number of contracts signed in 2025", (), {"count_signed": {"period": "year:2025"}}),
        (
            "renewal date of the contract of Saltmarsh Energy Services; yes if it lies between today and "
            "30 June 2027, otherwise no (a past date is no)",
            (),
            {
                "yes_no": {
                    "check": {"contract": {"customer": "Saltmarsh Energy Services", "field": "renewal_date"}},
                    "within": "until:2027-06-30",
                }
            },
        ),
        (
            "sum amounts of non-cancelled orders ordered in 2025 by customers with segment enterprise and by "
            "customers with segment mid-market",
            (),
            {
                "compare": {
                    "measure": "sum_orders",
                    "sides": [
                        {"segment": "enterprise", "period": "year:2025", "revenue": True},
                        {"segment": "mid-market", "period": "year:2025", "revenue": True},
                    ],
                }
            },
        ),
        (
            "the three non-cancelled orders with the smallest amounts ordered in 2025, all customers",
            (),
            {"top_orders": {"limit": 3, "period": "year:2025", "revenue": True, "ascending": True}},
        ),
    ],
)
def test_truth_reads(corpus, truth, turns, check):
    assert reading(truth, *turns) == check


@pytest.mark.parametrize(
    ("spec", "today", "bounds"),
    [
        ("coming_month:01", date(2026, 12, 4), (date(2027, 1, 1), date(2027, 1, 31))),
        ("coming_month:01", date(2026, 1, 10), (date(2027, 1, 1), date(2027, 1, 31))),
        ("coming_month:03", date(2026, 1, 10), (date(2026, 3, 1), date(2026, 3, 31))),
    ],
)
def test_the_next_named_month_is_the_first_after_the_current_one(spec, today, bounds):
    assert period_bounds(spec, today) == bounds


@pytest.mark.parametrize(
    ("answer", "verdict"),
    [
        ("Thanks for letting me know.", "correct"),
        ("I'll remember that you are in Denver on the 12th.", "correct"),
        ("Noted: you're in Denver until the 12th. Orders this year total $1,204.50.", "wrong"),
        ("I can't answer that from the records.", "wrong"),
        ("Did you mean Denver Dental?", "wrong"),
    ],
)
def test_a_statement_is_judged_as_an_acknowledgement(answer, verdict):
    expected = expected_for({"statement": {"said": ["12"]}}, date(2026, 12, 4))
    assert expected == Expected(acknowledge=True, numbers=(Decimal(12),))
    assert judge(answer, expected) == verdict


def test_contracts_signed_in_a_period_are_every_contract_signed_then(corpus):
    today = date(2026, 12, 4)
    names = {c.customer.name for c in Contract.objects.filter(signed_on__year=2025).select_related("customer")}
    assert set(expected_for({"signed": {"period": "year:2025"}}, today).names) == names
    assert expected_for({"count_signed": {"period": "year:2025"}}, today).numbers == (
        Decimal(Contract.objects.filter(signed_on__year=2025).count()),
    )


def test_yes_if_the_date_lies_in_the_period(corpus):
    today = date(2026, 12, 4)
    customer = Customer.objects.filter(contracts__isnull=False).first()
    assert customer is not None
    renewal = customer.contracts.order_by("signed_on", "pk").last().renewal_date
    check = {"contract": {"customer": customer.name, "field": "renewal_date"}}
    inside = expected_for({"yes_no": {"check": check, "within": f"until:{renewal.isoformat()}"}}, today)
    day_before = date.fromordinal(renewal.toordinal() - 1).isoformat()
    outside = expected_for({"yes_no": {"check": check, "within": f"range:2000-01-01:{day_before}"}}, today)
    assert inside.yes is (renewal >= today)
    assert outside.yes is False
    assert str(renewal.year) in inside.texts[0]


def test_top_orders_are_the_largest_amounts_in_order(corpus):
    today = date(2026, 12, 4)
    expected = expected_for({"top_orders": {"limit": 3, "period": "year:2025", "revenue": True}}, today)
    orders = Order.objects.filter(ordered_on__year=2025).exclude(status="cancelled").order_by("-amount", "number")
    assert expected.names == tuple(orders.values_list("number", flat=True)[:3])
    assert expected.ordered
