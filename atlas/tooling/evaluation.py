"""Judging answers against the records: the logic behind ``manage.py eval_answers``.

Each case's ``check`` (in the case, or in a checks file keyed by case id) says what to
compute; a case without one is read from its ``truth`` text (:mod:`atlas.tooling.truth`, which has its
own grammar and resolves names against the database, not through the planner). The expected
value is computed here with its own ORM queries and its own date arithmetic, never by calling
the planner or the executors, for the day the evaluation runs.
An answer is correct when it contains the expected value (a number within rounding, every
name of a list, in order for a ranking), abstained when it says plainly that Atlas cannot
answer and asserts no figure, and wrong otherwise (see the answers benchmark README).
"""

from __future__ import annotations

import calendar
import re
from dataclasses import dataclass, field
from datetime import date, timedelta
from decimal import Decimal
from typing import Any

from django.db.models import Avg, Count, Q, QuerySet, Sum

from atlas.tooling.truth import Names, read_truth
from chat.models import Contract, Customer, Order

ABSTAINED = re.compile(
    r"\b(can't answer|cannot answer|can't forecast|cannot forecast|outside what Atlas answers|"
    r"can't look up|don't hold|do not hold)\b",
    re.IGNORECASE,
)
NONE_STATED = re.compile(r"\b(no|none|0)\b", re.IGNORECASE)


@dataclass(frozen=True)
class Expected:
    numbers: tuple[Decimal, ...] = ()
    names: tuple[str, ...] = ()
    ordered: bool = False
    texts: tuple[str, ...] = ()  # each must appear (one of its "|" alternatives)
    none_ok: bool = False  # an empty list: a plain statement that there are none
    abstain: bool = False


@dataclass
class Verdict:
    case_id: str
    verdict: str  # correct | abstained | wrong | unjudged
    answer: str
    expected: dict[str, Any] = field(default_factory=dict)
    reason: str = ""  # why a case is unjudged


def check_for(case: dict[str, Any], checks: dict[str, Any], names: Names | None = None) -> tuple[Any, str]:
    """The case's check: its own, the checks file's, or read from its truth text (with why not)."""
    check = case.get("check") or checks.get(str(case.get("id", "")))
    if check:
        return check, ""
    reading = read_truth(case, names)
    return reading.check, reading.reason


# --- periods, computed independently of the planner -------------------------------------------


def _month_end(year: int, month: int) -> date:
    return date(year, month, calendar.monthrange(year, month)[1])


def period_bounds(spec: str, today: date) -> tuple[date, date]:
    """ "last quarter", "this year", "last month", "this month", "next month", "next quarter",
    "next year", "year:2025", "month:2026-03", "quarter:2025-3", "next_days:90", "last_days:30",
    "end_of_this_month", "end_of_next_month"."""
    q = (today.month - 1) // 3
    if spec == "this month":
        return today.replace(day=1), _month_end(today.year, today.month)
    if spec == "last month":
        end = today.replace(day=1) - timedelta(days=1)
        return end.replace(day=1), end
    if spec == "this quarter":
        return date(today.year, 3 * q + 1, 1), _month_end(today.year, 3 * q + 3)
    if spec == "last quarter":
        year, q = (today.year, q - 1) if q else (today.year - 1, 3)
        return date(year, 3 * q + 1, 1), _month_end(year, 3 * q + 3)
    if spec == "next month":
        year, month = (today.year + 1, 1) if today.month == 12 else (today.year, today.month + 1)
        return date(year, month, 1), _month_end(year, month)
    if spec == "next quarter":
        year, q = (today.year, q + 1) if q < 3 else (today.year + 1, 0)
        return date(year, 3 * q + 1, 1), _month_end(year, 3 * q + 3)
    if spec == "next year":
        return date(today.year + 1, 1, 1), date(today.year + 1, 12, 31)
    if spec == "this year":
        return date(today.year, 1, 1), date(today.year, 12, 31)
    if spec == "last year":
        return date(today.year - 1, 1, 1), date(today.year - 1, 12, 31)
    if spec == "end_of_this_month":
        return today, _month_end(today.year, today.month)
    if spec == "end_of_next_month":
        year, month = (today.year + 1, 1) if today.month == 12 else (today.year, today.month + 1)
        return today, _month_end(year, month)
    kind, _, value = spec.partition(":")
    if kind == "year":
        return date(int(value), 1, 1), date(int(value), 12, 31)
    if kind == "month":
        year, month = (int(x) for x in value.split("-"))
        return date(year, month, 1), _month_end(year, month)
    if kind == "quarter":
        year, quarter = (int(x) for x in value.split("-"))
        return date(year, 3 * quarter - 2, 1), _month_end(year, 3 * quarter)
    if kind == "next_months":
        year, month = divmod(today.year * 12 + today.month - 1 + int(value), 12)
        return today, date(year, month + 1, min(today.day, calendar.monthrange(year, month + 1)[1]))
    if kind == "next_days":
        return today, today + timedelta(days=int(value))
    if kind == "last_days":
        return today - timedelta(days=int(value) - 1), today
    raise ValueError(f"Unknown period in a check: {spec!r}")


# --- truth ---------------------------------------------------------------------------------------


def _orders(spec: dict[str, Any], today: date) -> QuerySet[Order]:
    orders = Order.objects.all()
    if "customer" in spec:
        orders = orders.filter(customer__name=spec["customer"])
    for key in ("region", "segment"):
        if key in spec:
            orders = orders.filter(**{f"customer__{key}": spec[key]})
    if "city" in spec:
        orders = orders.filter(customer__city=spec["city"])
    if "status" in spec:
        orders = orders.filter(status=spec["status"])
    if spec.get("revenue"):
        orders = orders.exclude(status="cancelled")
    if "period" in spec:
        orders = orders.filter(ordered_on__range=period_bounds(spec["period"], today))
    if "min_amount" in spec:
        orders = orders.filter(amount__gt=Decimal(str(spec["min_amount"])))
    return orders


def _latest_contracts() -> dict[int, Contract]:
    latest: dict[int, Contract] = {}
    for contract in Contract.objects.select_related("customer").order_by("customer_id", "signed_on", "pk"):
        latest[contract.customer_id] = contract
    return latest


def expected_for(check: dict[str, Any], today: date) -> Expected:
    """What the answer must contain, computed from the database now."""
    kind, spec = next(iter(check.items()))
    if kind == "abstain":
        return Expected(abstain=True)
    if kind in ("count_orders", "sum_orders", "avg_orders"):
        agg = _orders(spec, today).aggregate(n=Count("id"), s=Sum("amount"), a=Avg("amount"))
        value = {"count_orders": agg["n"], "sum_orders": agg["s"], "avg_orders": agg["a"]}[kind]
        return Expected(numbers=(Decimal(value or 0).quantize(Decimal("0.01")),))
    if kind == "rank":
        key = {"customer": "customer__name", "region": "customer__region", "segment": "customer__segment"}
        key["city"] = "customer__city"
        by_count = spec.get("measure") == "count"
        rows = (
            _orders({**spec, "revenue": not by_count and "status" not in spec}, today)
            .values(key[spec["group"]])
            .annotate(total=Count("id") if by_count else Sum("amount"))
            .order_by("total" if spec.get("ascending") else "-total")[: spec["limit"]]
        )
        return Expected(names=tuple(str(r[key[spec["group"]]]) for r in rows), ordered=True)
    if kind in ("customers", "count_customers"):
        customers = Customer.objects.filter(**{k: v for k, v in spec.items() if k != "terms"})
        if "terms" in spec:
            on_terms = [c.customer_id for c in _latest_contracts().values() if c.payment_terms == spec["terms"]]
            customers = customers.filter(pk__in=on_terms)
        if kind == "count_customers":
            return Expected(numbers=(Decimal(customers.count()),))
        return Expected(names=tuple(customers.values_list("name", flat=True)), none_ok=True)
    return _record_expected(kind, spec, today)


def _in_places(contract: Contract, spec: dict[str, Any]) -> bool:
    return all(getattr(contract.customer, k) == spec[k] for k in ("region", "segment", "city") if k in spec)


def _record_expected(kind: str, spec: Any, today: date) -> Expected:
    if kind == "orders":
        numbers = _orders(spec, today).values_list("number", flat=True)
        return Expected(names=tuple(numbers), none_ok=True)
    if kind == "contract_agg":
        limits = [c.credit_limit for c in _latest_contracts().values() if _in_places(c, spec)]
        value = sum(limits, Decimal(0)) / (len(limits) if spec["measure"] == "avg" else 1) if limits else Decimal(0)
        return Expected(numbers=(value.quantize(Decimal("0.01")),))
    if kind == "having_sum":
        return _customers_past(spec, today, total=Sum("orders__amount", filter=_order_condition(spec, today)))
    if kind == "order":
        order = Order.objects.select_related("customer").get(number=spec)
        return Expected(numbers=(order.amount,), names=(order.customer.name,))
    if kind == "contract":
        customer = Customer.objects.get(name=spec["customer"])
        contract = _latest_contracts()[customer.pk]
        value = getattr(contract, spec["field"])
        if isinstance(value, Decimal):
            return Expected(numbers=(value,))
        if isinstance(value, date):
            return Expected(texts=(f"{value.day} {value:%b %Y}|{value.isoformat()}",))
        return Expected(texts=(str(value),))
    if kind == "customer_field":
        return Expected(texts=(str(getattr(Customer.objects.get(name=spec["customer"]), spec["field"])),))
    if kind in ("largest_order", "smallest_order"):
        by = "-amount" if kind == "largest_order" else "amount"
        extreme = _orders(spec, today).order_by(by, "number").select_related("customer").first()
        if extreme is None:
            return Expected(none_ok=True)
        return Expected(numbers=(extreme.amount,), texts=(extreme.number,))
    if kind == "grouped":
        key = {
            "customer": "customer__name",
            "region": "customer__region",
            "segment": "customer__segment",
            "city": "customer__city",
        }
        measure = {"sum": Sum("amount"), "count": Count("id"), "avg": Avg("amount")}[spec["measure"]]
        filters = {k: v for k, v in spec.items() if k not in ("group", "measure")}
        rows = _orders(filters, today).values(key[spec["group"]]).annotate(v=measure).order_by(key[spec["group"]])
        names = tuple(str(r[key[spec["group"]]]) for r in rows)
        return Expected(names=names, numbers=tuple(Decimal(r["v"]).quantize(Decimal("0.01")) for r in rows))
    return _renewal_or_customer_expected(kind, spec, today)


def _renewal_or_customer_expected(kind: str, spec: Any, today: date) -> Expected:
    if kind == "count_renewals":
        start, end = period_bounds(spec["period"], today)
        n = sum(1 for c in _latest_contracts().values() if start <= c.renewal_date <= end and _in_places(c, spec))
        return Expected(numbers=(Decimal(n),))
    if kind == "renewals":
        start, end = period_bounds(spec["period"], today)
        renewing = [
            c.customer.name
            for c in _latest_contracts().values()
            if start <= c.renewal_date <= end and _in_places(c, spec)
        ]
        return Expected(names=tuple(sorted(renewing)), none_ok=True)
    if kind == "having":
        return _customers_past(spec, today, total=Count("orders", filter=_order_condition(spec, today)))
    if kind == "peers":
        customer = Customer.objects.get(name=spec["customer"])
        same = {f: getattr(customer, f) for f in spec["same"]}
        others = Customer.objects.filter(**same).exclude(pk=customer.pk).values_list("name", flat=True)
        return Expected(names=tuple(others), texts=tuple(str(v) for v in same.values()))
    raise ValueError(f"Unknown check {kind!r}")


def _order_condition(spec: dict[str, Any], today: date) -> Q:
    """The orders a customer's count or total takes in: status, revenue (non-cancelled), period."""
    condition = Q()
    if "status" in spec:
        condition &= Q(orders__status=spec["status"])
    if spec.get("revenue"):
        condition &= ~Q(orders__status="cancelled")
    if "period" in spec:
        condition &= Q(orders__ordered_on__range=period_bounds(spec["period"], today))
    return condition


def _customers_past(spec: dict[str, Any], today: date, *, total: Count | Sum) -> Expected:
    """Customers (in the spec's places) whose count or total of orders is above ``more_than``."""
    places = {k: spec[k] for k in ("region", "segment", "city") if k in spec}
    past = Customer.objects.filter(**places).annotate(v=total).filter(v__gt=Decimal(str(spec["more_than"])))
    return Expected(names=tuple(past.values_list("name", flat=True)), none_ok=True)


# --- judging -------------------------------------------------------------------------------------

_NUMBER = re.compile(r"(?<![\w.])-?\d+(?:\.\d+)?")


def numbers_in(text: str) -> list[Decimal]:
    plain = re.sub(r"(?<=\d),(?=\d{3})", "", text)
    return [Decimal(n) for n in _NUMBER.findall(plain)]


def abstained(answer: str) -> bool:
    return bool(ABSTAINED.search(answer)) and not re.search(r"\d", answer)


def judge(answer: str, expected: Expected) -> str:
    if abstained(answer):
        return "correct" if expected.abstain else "abstained"
    if expected.abstain:
        return "wrong"
    lowered = answer.lower()
    found = numbers_in(answer)
    if any(not any(abs(n - e) <= Decimal("0.011") for n in found) for e in expected.numbers):
        return "wrong"
    if any(not any(alt.lower() in lowered for alt in t.split("|")) for t in expected.texts):
        return "wrong"
    if not expected.names:
        if expected.none_ok and not expected.numbers and not NONE_STATED.search(answer):
            return "wrong"
        return "correct"
    positions = [lowered.find(name.lower()) for name in expected.names]
    if any(p < 0 for p in positions):
        return "wrong"
    if expected.ordered and positions != sorted(positions):
        return "wrong"
    return "correct"
