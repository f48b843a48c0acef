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
from dataclasses import dataclass, field, replace
from datetime import date, timedelta
from decimal import Decimal
from typing import Any

from django.db.models import Avg, Count, Q, QuerySet, Sum

from atlas.tooling.truth import Names, read_truth
from chat.models import Contract, Customer, Order

ABSTAINED = re.compile(
    r"\b(can't answer|cannot answer|can't forecast|cannot forecast|outside what Atlas answers|"
    r"can't look up|don't hold|do not hold|can't change the records)\b",
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
    yes: bool | None = None  # a yes/no question: the answer opens with this yes or no
    denies: bool = False  # the answer says plainly there is no such thing ("no", "none", "not", "n't")
    table: bool = False  # the names must be laid out in a table block of the answer
    either: tuple[Expected, ...] = ()  # any one of these is correct (then the fields above are unused)
    acknowledge: bool = False  # a statement to acknowledge: no figure beyond those said, no "I can't answer"


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


def _year(value: str, today: date) -> int:
    """A year in a period spec: digits, or this/last/next year counted from ``today``."""
    relative = {"this": 0, "last": -1, "next": 1}
    return today.year + relative[value] if value in relative else int(value)


def _day(value: str, today: date) -> date:
    """A day in a period spec: "2025-01-01", "this-06-01", "last-12-31"."""
    year, month, day = value.rsplit("-", 2)
    return date(_year(year, today), int(month), int(day))


def period_bounds(spec: str, today: date) -> tuple[date, date]:
    """ "last quarter", "this year", "last month", "this month", "next month", "next quarter",
    "next year", "year:2025", "month:2026-03", "quarter:2025-3", "next_days:90", "last_days:30",
    "end_of_this_month", "end_of_next_month"; "ytd", "qtd", "mtd" (from the first day of the current year,
    quarter or month to today); "quarter:this-2", "month:last-12" (a named quarter or month of this, last or
    next year); "months_ago:13", "quarters_ago:2" (a whole calendar month or quarter that many before the
    current one); "from:this-06-01" (that day to today);
    "coming_month:01" (the next January after the current month); "until:2027-02-28" (today to that day);
    "range:2025-01-01:2025-06-30"."""
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
    if spec in ("ytd", "qtd", "mtd"):
        starts = {"ytd": date(today.year, 1, 1), "qtd": date(today.year, 3 * q + 1, 1), "mtd": today.replace(day=1)}
        return starts[spec], today
    kind, _, value = spec.partition(":")
    if kind == "year":
        return date(_year(value, today), 1, 1), date(_year(value, today), 12, 31)
    if kind == "month":
        named, number = value.rsplit("-", 1)
        return date(_year(named, today), int(number), 1), _month_end(_year(named, today), int(number))
    if kind == "quarter":
        named, number = value.rsplit("-", 1)
        year, quarter = _year(named, today), int(number)
        return date(year, 3 * quarter - 2, 1), _month_end(year, 3 * quarter)
    if kind in ("months_ago", "quarters_ago"):
        size = 1 if kind == "months_ago" else 3
        first = (today.year * 12 + (today.month - 1) // size * size) - int(value) * size
        year, month = divmod(first, 12)
        end_year, end_month = divmod(first + size - 1, 12)
        return date(year, month + 1, 1), _month_end(end_year, end_month + 1)
    if kind == "from":
        return _day(value, today), today
    if kind == "until":
        return today, _day(value, today)
    if kind == "range":
        begin, _, until = value.partition(":")
        return _day(begin, today), _day(until, today)
    if kind == "coming_month":  # "the next January": the first whole month of that name after the current one
        month = int(value)
        year = today.year if month > today.month else today.year + 1
        return date(year, month, 1), _month_end(year, month)
    if kind == "next_months":
        year, month = divmod(today.year * 12 + today.month - 1 + int(value), 12)
        return today, date(year, month + 1, min(today.day, calendar.monthrange(year, month + 1)[1]))
    if kind == "next_days":
        return today, today + timedelta(days=int(value))
    if kind == "last_days":
        return today - timedelta(days=int(value) - 1), today
    raise ValueError(f"Unknown period in a check: {spec!r}")


# --- truth ---------------------------------------------------------------------------------------


def _lookup(field: str, value: Any) -> dict[str, Any]:
    """A filter on ``field``: one value, or a list ("city Kansas City or city Omaha") of which the row has one."""
    return {f"{field}__in": value} if isinstance(value, list) else {field: value}


def _places(spec: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    lookups: dict[str, Any] = {}
    for key in ("region", "segment", "city"):
        if key in spec:
            lookups |= _lookup(prefix + key, spec[key])
    return lookups


def _orders(spec: dict[str, Any], today: date) -> QuerySet[Order]:
    orders = Order.objects.all()
    if "customer" in spec:
        orders = orders.filter(customer__name=spec["customer"])
    orders = orders.filter(**_places(spec, "customer__"))
    if "status" in spec:
        orders = orders.filter(**_lookup("status", spec["status"]))
    if spec.get("revenue"):
        orders = orders.exclude(status="cancelled")
    if "period" in spec:
        orders = orders.filter(ordered_on__range=period_bounds(spec["period"], today))
    if "min_amount" in spec:
        orders = orders.filter(amount__gt=Decimal(str(spec["min_amount"])))
    if "max_amount" in spec:
        orders = orders.filter(amount__lt=Decimal(str(spec["max_amount"])))
    return orders


def _latest_contracts() -> dict[int, Contract]:
    latest: dict[int, Contract] = {}
    for contract in Contract.objects.select_related("customer").order_by("customer_id", "signed_on", "pk"):
        latest[contract.customer_id] = contract
    return latest


def either(*alternatives: Expected) -> Expected:
    """Any one of ``alternatives`` is correct (one alone, or all alike, is that one)."""
    flat: list[Expected] = []
    for alternative in alternatives:
        for one in alternative.either or (alternative,):
            if one not in flat:
                flat.append(one)
    return flat[0] if len(flat) == 1 else Expected(either=tuple(flat))


def both(first: Expected, second: Expected, **extra: Any) -> Expected:
    """Everything ``first`` and ``second`` ask for, together (each alternative of one with each of the other)."""
    if first.either or second.either:
        return either(*(both(a, b, **extra) for a in first.either or (first,) for b in second.either or (second,)))
    return Expected(
        numbers=first.numbers + second.numbers,
        names=first.names + second.names,
        texts=first.texts + second.texts + tuple(extra.get("texts", ())),
    )


def date_texts(value: date) -> str:
    """The ways an answer may write a date, as one "|"-separated text."""
    return (
        f"{value.day} {value:%b %Y}|{value.day} {value:%B %Y}|{value:%B} {value.day}, {value.year}|{value.isoformat()}"
    )


def expected_for(check: dict[str, Any], today: date) -> Expected:
    """What the answer must contain, computed from the database now."""
    kind, spec = next(iter(check.items()))
    if kind == "abstain":
        return Expected(abstain=True)
    if isinstance(spec, dict) and spec.get("cancelled") == "either":
        # "cancelled excluded or included": either count or list is correct.
        base = {k: v for k, v in spec.items() if k != "cancelled"}
        return either(expected_for({kind: base}, today), expected_for({kind: {**base, "revenue": True}}, today))
    if kind == "compare":
        return _compare_expected(spec, today)
    if kind == "table":  # "shown as a table": the list, laid out in a table
        inner = expected_for(spec, today)
        return either(*(replace(e, table=True) for e in inner.either or (inner,)))
    if kind == "yes_no":
        return _yes_no_expected(spec, today)
    if kind == "no_such":  # "there is no Northwest region", naming the regions there are
        return _no_such_expected(spec)
    if kind == "monthly":  # a figure for each month
        return _monthly_expected(spec, today)
    if kind == "statement":  # a statement about the user: acknowledged, echoing only the numbers it said
        return Expected(acknowledge=True, numbers=tuple(Decimal(n.replace(",", "")) for n in spec["said"]))
    if kind in ("count_orders", "sum_orders", "avg_orders"):
        agg = _orders(spec, today).aggregate(n=Count("id"), s=Sum("amount"), a=Avg("amount"))
        value = {"count_orders": agg["n"], "sum_orders": agg["s"], "avg_orders": agg["a"]}[kind]
        return Expected(numbers=(Decimal(value or 0).quantize(Decimal("0.01")),))
    if kind == "rank":
        key = {"customer": "customer__name", "region": "customer__region", "segment": "customer__segment"}
        key["city"] = "customer__city"
        if spec.get("cancelled") == "either":  # a ranking by count, cancelled orders counted or not
            base = {k: v for k, v in spec.items() if k != "cancelled"}
            return either(*(expected_for({"rank": {**base, "revenue": r}}, today) for r in (False, True)))
        by_count = spec.get("measure") == "count"
        revenue = spec.get("revenue") or (not by_count and "status" not in spec)
        measure = {"count": Count("id"), "avg": Avg("amount")}.get(spec.get("measure", ""), Sum("amount"))
        rows = (
            _orders({**spec, "revenue": revenue}, today)
            .values(key[spec["group"]])
            .annotate(total=measure)
            .order_by("total" if spec.get("ascending") else "-total", key[spec["group"]])[: spec.get("limit")]
        )
        names = tuple(str(r[key[spec["group"]]]) for r in rows)
        if spec.get("values"):  # "each with its figure"
            return Expected(
                names=names, ordered=True, numbers=tuple(Decimal(r["total"]).quantize(Decimal("0.01")) for r in rows)
            )
        return Expected(names=names, ordered=True)
    if kind == "count_customers" and spec.get("or_names"):  # the count, or every one of the names
        base = {k: v for k, v in spec.items() if k != "or_names"}
        count, listed = expected_for({kind: base}, today), expected_for({"customers": base}, today)
        return either(count, replace(listed, none_ok=False)) if listed.names else count
    if kind == "customers_with_orders":  # customers with at least one of those orders
        if spec["orders"].get("cancelled") == "either":
            base = {k: v for k, v in spec["orders"].items() if k != "cancelled"}
            return either(
                *(expected_for({kind: {**spec, "orders": o}}, today) for o in (base, {**base, "revenue": True}))
            )
        ordering = _orders(spec["orders"], today).values("customer_id")
        having = Customer.objects.filter(**_places(spec), pk__in=ordering)
        return _customers_shown(having, spec)
    if kind in ("customers", "count_customers"):
        customers = Customer.objects.filter(**_places(spec))
        if "terms" in spec:
            on_terms = [c.customer_id for c in _latest_contracts().values() if c.payment_terms == spec["terms"]]
            customers = customers.filter(pk__in=on_terms)
        if "limit" in spec:  # a bound on the latest contract's credit limit
            n, op = Decimal(spec["limit"]["n"]), spec["limit"]["op"]
            holds = {"gt": n.__lt__, "ge": n.__le__, "lt": n.__gt__, "le": n.__ge__}[op]
            within = [c.customer_id for c in _latest_contracts().values() if holds(c.credit_limit)]
            customers = customers.filter(pk__in=within)
        if kind == "count_customers":
            return Expected(numbers=(Decimal(customers.count()),))
        return _customers_shown(customers, spec)
    return _record_expected(kind, spec, today)


def _customers_shown(customers: QuerySet[Customer], spec: dict[str, Any]) -> Expected:
    """Every name, and each one's field when the truth says "with their segments"."""
    names = tuple(customers.values_list("name", flat=True))
    if "show" in spec:
        shown = tuple(dict.fromkeys(str(v) for v in customers.values_list(spec["show"], flat=True)))
        return Expected(names=names, texts=shown, none_ok=not names)
    return Expected(names=names, none_ok=True)


def _value_expected(value: Any) -> Expected:
    if isinstance(value, Decimal):
        return Expected(numbers=(value,))
    if isinstance(value, date):
        return Expected(texts=(date_texts(value),))
    return Expected(texts=(str(value),))


def _compare_expected(spec: dict[str, Any], today: date) -> Expected:
    """Two figures side by side, each named by its customer or region where it has one; "or_count" is
    another comparison (of counts of orders) that is also correct when the answer says it counts orders."""
    labels = tuple(
        str(side[k]) for side in spec["sides"] for k in ("customer", "region", "segment", "city") if k in side
    )
    kind = spec["measure"]
    first, second = (expected_for({kind: side}, today) for side in spec["sides"])
    expected = both(first, second)
    alternatives = expected.either or (expected,)
    if kind == "count_orders":
        expected = either(*(_counted(e, labels) for e in alternatives))
    else:
        expected = either(*(Expected(numbers=e.numbers, names=labels) for e in alternatives))
    if spec.get("or_count"):
        counts = [{k: v for k, v in side.items() if k not in ("revenue", "cancelled")} for side in spec["sides"]]
        by_count = both(
            expected_for({"count_orders": {**counts[0], "cancelled": "either"}}, today),
            expected_for({"count_orders": {**counts[1], "cancelled": "either"}}, today),
        )
        expected = either(expected, *(_counted(e, labels) for e in by_count.either or (by_count,)))
    return expected


def _monthly_expected(spec: dict[str, Any], today: date) -> Expected:
    """Each month's figure (the last month up to the day "until" names, if any); a month with no such orders
    has a zero figure, which may be left out. Counts of orders are said as counts ("24 orders"), as in a
    comparison; with no figure above zero at all, the answer must say there are none."""
    kind = spec["measure"]
    filters = {k: v for k, v in spec.items() if k not in ("measure", "months", "until")}
    figures: list[Decimal] = []
    for month in spec["months"]:
        period = f"month:{month}"
        if "until" in spec and month == spec["months"][-1]:
            period = f"range:{month}-01:{spec['until']}"
        figures.extend(expected_for({kind: {**filters, "period": period}}, today).numbers)
    shown = tuple(n for n in figures if n)
    if kind == "count_orders":
        return Expected(texts=_counted(Expected(numbers=shown)).texts, none_ok=not shown)
    return Expected(numbers=shown, none_ok=not shown)


def _counted(expected: Expected, labels: tuple[str, ...] = ()) -> Expected:
    """Counts of orders said as counts ("12 orders"), not any 12 in the answer (a date in a list has one)."""
    return Expected(names=labels, texts=tuple(f"{n:,.0f} order|{n:.0f} order" for n in expected.numbers))


def _no_such_expected(spec: dict[str, Any]) -> Expected:
    """A plain statement that there is no such value, naming the values there are: those the truth lists, or
    all of them (at least one city, for a city: there are dozens)."""
    if spec.get("existing"):
        return Expected(texts=(spec["value"],), names=tuple(spec["existing"]), denies=True)
    if spec["field"] == "status":
        values = sorted(set(Order.objects.values_list("status", flat=True)))
    else:
        values = sorted(set(Customer.objects.values_list(spec["field"], flat=True)))
    if spec["field"] == "city":
        return either(*(Expected(texts=(spec["value"],), names=(city,), denies=True) for city in values))
    return Expected(texts=(spec["value"],), names=tuple(values), denies=True)


def _yes_no_expected(spec: dict[str, Any], today: date) -> Expected:
    """A yes or no first: a field equal to a value, or orders of which there is at least one."""
    inner = expected_for(spec["check"], today)
    if "equals" in spec:
        value = inner.texts[0]
        return Expected(texts=inner.texts, yes=value.lower() == str(spec["equals"]).lower())
    if "within" in spec:  # a date, and yes when it lies in the period
        kind, field_spec = next(iter(spec["check"].items()))
        day = _record_value(kind, field_spec)
        start, end = period_bounds(spec["within"], today)
        return Expected(texts=inner.texts, yes=isinstance(day, date) and start <= day <= end)
    kind, orders = next(iter(spec["check"].items()))
    alternatives = []
    for listed in inner.either or (inner,):
        if not listed.names:
            alternatives.append(Expected(yes=False))
            continue
        latest = max(Order.objects.filter(number__in=listed.names).values_list("ordered_on", flat=True))
        # then the count, the order numbers, or the latest order's date
        alternatives.append(Expected(yes=True, texts=_counted(Expected(numbers=(Decimal(len(listed.names)),))).texts))
        alternatives.append(Expected(yes=True, names=listed.names))
        alternatives.append(Expected(yes=True, texts=(date_texts(latest),)))
    return either(*alternatives)


def _record_value(kind: str, spec: dict[str, Any]) -> Any:
    """The one value a contract's or an order's field lookup names."""
    if kind == "contract":
        customer = Customer.objects.get(name=spec["customer"])
        return getattr(_latest_contracts()[customer.pk], spec["field"])
    if kind == "order_field":
        return getattr(Order.objects.get(number=spec["order"]), spec["field"])
    raise ValueError(f"No one value for {kind!r}")


def _in_places(contract: Contract, spec: dict[str, Any]) -> bool:
    return all(
        getattr(contract.customer, k) in (spec[k] if isinstance(spec[k], list) else [spec[k]])
        for k in ("region", "segment", "city")
        if k in spec
    )


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
        return _value_expected(getattr(_latest_contracts()[customer.pk], spec["field"]))
    if kind == "contract_fields":  # two fields of one contract: both values
        contract = _latest_contracts()[Customer.objects.get(name=spec["customer"]).pk]
        first, second = (_value_expected(getattr(contract, f)) for f in spec["fields"])
        return both(first, second)
    if kind == "contract_top":  # of the latest contracts that renew within the period, the one with the largest field
        start, end = period_bounds(spec["period"], today)
        renewing = [c for c in _latest_contracts().values() if start <= c.renewal_date <= end and _in_places(c, spec)]
        if not renewing:  # no contract renews then: the answer says so
            return Expected(none_ok=True)
        values = [getattr(c, spec["field"]) for c in renewing]
        best = min(values) if spec.get("ascending") else max(values)
        tied = sorted(c.customer.name for c, v in zip(renewing, values, strict=True) if v == best)
        return either(*(Expected(names=(name,)) for name in tied))  # any of the tied names
    if kind == "order_field":
        order = Order.objects.select_related("customer").get(number=spec["order"])
        return _value_expected(order.customer.name if spec["field"] == "customer" else getattr(order, spec["field"]))
    if kind == "customer_field":
        return Expected(texts=(str(getattr(Customer.objects.get(name=spec["customer"]), spec["field"])),))
    if kind in ("largest_order", "smallest_order"):
        by = "-amount" if kind == "largest_order" else "amount"
        extreme = _orders(spec, today).order_by(by, "number").select_related("customer").first()
        if extreme is None:
            return Expected(none_ok=True)
        if "field" in spec:  # one field of that order ("status of the largest order")
            field = spec["field"]
            return _value_expected(extreme.customer.name if field == "customer" else getattr(extreme, field))
        return Expected(numbers=(extreme.amount,), texts=(extreme.number,))
    if kind == "top_orders":  # the orders with the largest (or smallest) amounts, in that order
        ordering = ("amount" if spec.get("ascending") else "-amount", "number")
        filters = {k: v for k, v in spec.items() if k not in ("limit", "ascending")}
        numbers = _orders(filters, today).order_by(*ordering).values_list("number", flat=True)[: spec["limit"]]
        return Expected(names=tuple(numbers), ordered=True)
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
    if kind in ("signed", "count_signed"):  # contracts (each one, not only the latest) signed in the period
        start, end = period_bounds(spec["period"], today)
        signed = [c for c in Contract.objects.select_related("customer") if start <= c.signed_on <= end]
        signed = [c for c in signed if _in_places(c, spec)]
        if kind == "count_signed":
            return Expected(numbers=(Decimal(len(signed)),))
        return Expected(names=tuple(sorted({c.customer.name for c in signed})), none_ok=True)
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
        condition &= Q(**_lookup("orders__status", spec["status"]))
    if spec.get("revenue"):
        condition &= ~Q(orders__status="cancelled")
    if "period" in spec:
        condition &= Q(orders__ordered_on__range=period_bounds(spec["period"], today))
    return condition


def _customers_past(spec: dict[str, Any], today: date, *, total: Count | Sum) -> Expected:
    """Customers (in the spec's places) whose count or total of orders is above ``more_than``."""
    past = Customer.objects.filter(**_places(spec)).annotate(v=total).filter(v__gt=Decimal(str(spec["more_than"])))
    return Expected(names=tuple(past.values_list("name", flat=True)), none_ok=True)


# --- judging -------------------------------------------------------------------------------------

_NUMBER = re.compile(r"(?<![\w.])-?\d+(?:\.\d+)?")


def numbers_in(text: str) -> list[Decimal]:
    plain = re.sub(r"(?<=\d),(?=\d{3})", "", text)
    return [Decimal(n) for n in _NUMBER.findall(plain)]


# A record's code echoed back ("ACCT-64021", "SO-88000") is no figure of an answer.
RECORD_CODE = re.compile(r"\b[A-Z]{2,5}-\d+\b", re.IGNORECASE)


def _gives_a_figure(answer: str) -> bool:
    return bool(re.search(r"\d", RECORD_CODE.sub("", answer)))


def abstained(answer: str) -> bool:
    return bool(ABSTAINED.search(answer)) and not _gives_a_figure(answer)


# "There is no government segment; the segments are ...": the answer says the value asked about
# does not exist and gives no figure, which is the abstention an out-of-scope truth asks for.
NO_SUCH_STATED = re.compile(r"^\W*there (?:is|are) no\b", re.IGNORECASE)


def denies_existence(answer: str) -> bool:
    return bool(NO_SUCH_STATED.search(answer)) and not _gives_a_figure(answer)


# An answer that asks back instead of answering ("Did you mean Northline Freight?"): never correct.
ASKS_BACK = re.compile(
    r"^\W*(did you mean|do you mean|which (one|of (these|them|the))\b.*\?|could you (clarify|say))", re.I
)
DENIES = re.compile(r"\b(no|none|not|0)\b|n't\b", re.IGNORECASE)
YES_NO = re.compile(r"^\W*(yes|no)\b", re.IGNORECASE)
# What the answer says it read before it answers ("Read ‘vally’ as ‘valley’."): not the answer's opening.
READ_NOTICE = re.compile(r"^(?:\s*Read \u2018[^\u2019]*\u2019 as \u2018[^\u2019]*\u2019\.)+\s*")


def table_text(blocks: list[dict[str, Any]] | None) -> str | None:
    """The cells of the answer's table blocks as one text, or None when it has no table."""
    tables = [b for b in blocks or () if isinstance(b, dict) and b.get("kind") == "table"]
    if not tables:
        return None
    cells = [str(c) for t in tables for row in (t.get("header") or (), *(t.get("rows") or ())) for c in row]
    return " | ".join(cells)


def judge(answer: str, expected: Expected, blocks: list[dict[str, Any]] | None = None) -> str:
    """The verdict on ``answer``; ``blocks`` (the turn's typed blocks) are read for a table the truth asks for."""
    if expected.acknowledge:
        return _judge_acknowledgement(answer, expected)
    if abstained(answer):
        return "correct" if expected.abstain else "abstained"
    if expected.abstain and denies_existence(answer):
        return "correct"
    if expected.abstain or ASKS_BACK.search(answer):
        return "wrong"
    if expected.either:
        return "correct" if any(judge(answer, e, blocks) == "correct" for e in expected.either) else "wrong"
    if expected.yes is not None:
        opening = YES_NO.search(READ_NOTICE.sub("", answer, count=1))
        if opening is None or (opening[1].lower() == "yes") != expected.yes:
            return "wrong"
    if expected.denies and not DENIES.search(answer):
        return "wrong"
    lowered = answer.lower()
    found = numbers_in(answer)
    if any(not any(abs(n - e) <= Decimal("0.011") for n in found) for e in expected.numbers):
        return "wrong"
    if any(
        not any(re.search(r"(?<!\w)" + re.escape(alt.lower()), lowered) for alt in t.split("|")) for t in expected.texts
    ):
        return "wrong"
    if not expected.names:
        if expected.none_ok and not expected.numbers and not NONE_STATED.search(answer):
            return "wrong"
        return "correct"
    if expected.table:  # the names are looked for in the table (the text may only sum it up)
        table = table_text(blocks)
        if table is None:
            return "wrong"
        lowered = table.lower()
    positions = [lowered.find(name.lower()) for name in expected.names]
    if any(p < 0 for p in positions):
        return "wrong"
    if expected.ordered and positions != sorted(positions):
        return "wrong"
    return "correct"


# An answer that says Atlas could not answer or find something, or asks back: not an acknowledgement.
CANNOT = re.compile(
    r"\b(?:can't|cannot|can not|couldn't|could not|don't know how|unable to|no (?:records?|data) (?:for|on|about))\b|"
    + ASKS_BACK.pattern,
    re.IGNORECASE,
)


def _judge_acknowledgement(answer: str, expected: Expected) -> str:
    """A statement about the user is acknowledged: correct with no figure beyond the numbers the user said
    and no "I can't answer"; wrong when it answers with a figure or says it cannot answer."""
    if not answer.strip() or CANNOT.search(answer):
        return "wrong"
    said = set(expected.numbers)
    # the day a situation ends, read back ("until Friday 25 December 2026" for "until xmas"), is no figure
    unsaid = [n for n in numbers_in(_WRITTEN_DAY.sub(" ", answer)) if n not in said]
    return "wrong" if unsaid else "correct"


_WRITTEN_DAY = re.compile(
    r"\b\d{1,2} (?:January|February|March|April|May|June|July|August|September|October|November|December)"
    r"(?: \d{4})?\b"
)
