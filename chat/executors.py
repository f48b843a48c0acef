"""Plan executors: one :class:`~chat.planner.QueryPlan` in, typed results out.

Every figure is aggregated in SQL (``Count``, ``Sum``, ``Avg`` with ``GROUP BY``); Python
only shapes the handful of rows that come back. Revenue-like measures (sum, average, rank
by value) leave out cancelled orders unless the question asks about a status itself: the
cancellations policy memo excludes cancelled orders from revenue.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import date
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from django.db.models import Avg, Count, F, OuterRef, Q, QuerySet, Subquery, Sum
from django.db.models.functions import TruncMonth

from chat.corpus import Passage, search_documents
from chat.models import Contract, Customer, Order, OrderStatus
from chat.planner import Filters, Period, QueryPlan

if TYPE_CHECKING:
    from chat.prompt import ToolCall

MAX_ROWS = 200
PASSAGES = 3
CURRENCY = "USD"


@dataclass(frozen=True)
class Figure:
    """One number: a count, a sum or an average."""

    plan: QueryPlan
    measure: str  # count | sum | average
    value: Decimal | int
    orders: int = 0  # how many orders the sum or average is over
    currency: str = CURRENCY
    cancelled_excluded: bool = False
    # a count of orders of every status: how many of them were cancelled (counted, and said)
    cancelled: int | None = None


@dataclass(frozen=True)
class RankRow:
    label: str
    value: Decimal | int
    orders: int = 0


@dataclass(frozen=True)
class Ranking:
    """Groups with one measure each, best first (or in calendar order for months)."""

    plan: QueryPlan
    measure: str  # sum | count | average
    rows: tuple[RankRow, ...]
    currency: str = CURRENCY
    cancelled_excluded: bool = False


@dataclass(frozen=True)
class RecordList:
    """Rows of one kind of record; ``kinds`` says how to show each column."""

    plan: QueryPlan
    noun: str  # "customer" | "order" | "contract"
    columns: tuple[str, ...]
    kinds: tuple[str, ...]  # text | money | date | count
    rows: tuple[tuple[Any, ...], ...]
    total: int
    anchor: dict[str, str] = field(default_factory=dict)  # peers: the named customer's own values
    cancelled_excluded: bool = False  # ranked by amount: cancelled orders left out


@dataclass(frozen=True)
class Record:
    """One record (an order, a customer, a contract) and the field the question asked for."""

    plan: QueryPlan
    noun: str
    title: str
    fields: tuple[tuple[str, Any, str], ...]  # (label, value, kind)
    asked: str = ""  # the label of the field asked for, "" for the whole record


@dataclass(frozen=True)
class Quotes:
    plan: QueryPlan
    passages: tuple[Passage, ...]


@dataclass(frozen=True)
class Missing:
    """The plan ran and the records hold nothing for it (a plain sentence, no figure)."""

    plan: QueryPlan
    message: str


Result = Figure | Ranking | RecordList | Record | Quotes | Missing


def execute(plan: QueryPlan, *, today: date) -> list[Result]:
    """Run ``plan`` against the system of record."""
    if plan.subject == "documents":
        return [Quotes(plan, tuple(search_documents(plan.query[:2000], limit=PASSAGES)))]
    if plan.kind == "lookup":
        return _lookup(plan)
    if plan.subject == "contracts":
        return [_contracts(plan, today=today)]
    if plan.subject == "customers":
        return [_customers(plan)]
    if plan.kind == "list":
        return [_order_list(plan)]
    if plan.kind == "rank" and not plan.group_by:
        return [_order_list(plan, by_amount=True)]
    if plan.kind == "compare":
        return [_compared(plan)]
    if plan.group_by:
        return [_grouped(plan)]
    return [_figure(plan)]


# --- orders ------------------------------------------------------------------------------------


def orders_for(filters: Filters) -> QuerySet[Order]:
    orders = Order.objects.filter(_order_condition(filters), **_place_lookups(filters, "customer__"))
    if filters.customers:
        orders = orders.filter(customer_id__in=[c.id for c in filters.customers])
    return orders


def _place_lookups(filters: Filters, prefix: str = "") -> dict[str, Any]:
    """The customer's region, city and segment the filters name (``prefix`` reaches the customer)."""
    lookups: dict[str, Any] = {"region": filters.region, "city__iexact": filters.city, "segment": filters.segment}
    if filters.or_cities:
        lookups = {"region": filters.region, "city__in": filters.cities, "segment": filters.segment}
    return {f"{prefix}{lookup}": value for lookup, value in lookups.items() if value}


def _order_condition(filters: Filters, prefix: str = "") -> Q:
    """The order's status, period and amount bounds the filters name (``prefix`` reaches the order)."""
    condition = Q()
    if filters.status:
        condition &= Q(**{f"{prefix}status": filters.status})
    if filters.exclude_status:
        condition &= ~Q(**{f"{prefix}status": filters.exclude_status})
    if filters.period is not None:
        condition &= Q(**{f"{prefix}ordered_on__range": (filters.period.start, filters.period.end)})
    if filters.min_amount is not None:
        condition &= Q(**{f"{prefix}amount__gt": filters.min_amount})
    if filters.max_amount is not None:
        condition &= Q(**{f"{prefix}amount__lt": filters.max_amount})
    return condition


def _revenue(plan: QueryPlan, orders: QuerySet[Order]) -> tuple[QuerySet[Order], bool]:
    """Leave out cancelled orders from a money measure unless a status was asked for, or the
    user's preference includes them (``plan.include_cancelled``)."""
    counting = plan.kind == "count" or plan.measure == "count"
    if counting or plan.filters.status or plan.filters.exclude_status or plan.include_cancelled:
        return orders, False
    return orders.exclude(status=OrderStatus.CANCELLED), True


def _figure(plan: QueryPlan) -> Figure:
    orders, excluded = _revenue(plan, orders_for(plan.filters))
    if plan.kind == "count":
        # every order placed counts, cancelled ones too; how many were cancelled is said beside it
        if plan.filters.status or plan.filters.exclude_status:
            return Figure(plan, "count", orders.count())
        agg = orders.aggregate(n=Count("id"), cancelled=Count("id", filter=Q(status=OrderStatus.CANCELLED)))
        return Figure(plan, "count", agg["n"], cancelled=agg["cancelled"])
    agg = orders.aggregate(n=Count("id"), total=Sum("amount"), mean=Avg("amount"))
    if plan.kind == "average":
        mean = (agg["mean"] or Decimal(0)).quantize(Decimal("0.01"))
        return Figure(plan, "average", mean, orders=agg["n"], cancelled_excluded=excluded)
    return Figure(plan, "sum", agg["total"] or Decimal("0.00"), orders=agg["n"], cancelled_excluded=excluded)


_GROUP_KEYS = {
    "customer": "customer__name",
    "region": "customer__region",
    "segment": "customer__segment",
    "city": "customer__city",
}


def _grouped(plan: QueryPlan) -> Ranking:
    orders, excluded = _revenue(plan, orders_for(plan.filters))
    measure = {"count": "count", "average": "average"}.get(plan.kind, plan.measure or "sum")
    rows: QuerySet[Order, Any]
    if plan.group_by == "month":
        rows = orders.annotate(key=TruncMonth("ordered_on")).values("key")
    else:
        rows = orders.values(key=F(_GROUP_KEYS.get(plan.group_by, "status")))
    value = {"count": Count("id"), "average": Avg("amount")}.get(measure, Sum("amount"))
    rows = rows.annotate(value=value, n=Count("id"))
    if plan.group_by == "month" and plan.kind != "rank":
        rows = rows.order_by("key")
    else:
        direction = "" if plan.order == "asc" else "-"
        rows = rows.order_by(f"{direction}value", "key")
    picked: list[dict[str, Any]] = [dict(r) for r in rows]  # one row per group: a few dozen at most
    if plan.limit:
        everything, picked = picked, picked[: plan.limit]
        # A tie at the last place asked for is kept whole: "who has the most open orders" names
        # every customer with that many, never one of them picked by name order.
        while picked and len(picked) < len(everything) and everything[len(picked)]["value"] == picked[-1]["value"]:
            picked.append(everything[len(picked)])
    out = [RankRow(_group_label(plan.group_by, r["key"]), _rounded(r["value"]), r["n"]) for r in picked]
    return Ranking(plan, measure, tuple(out), cancelled_excluded=excluded)


def comparison_sides(plan: QueryPlan) -> list[tuple[str, Filters]]:
    """Each side of a comparison as its label and the filters its figure is computed under,
    in the order the question named them."""
    filters = plan.filters
    if plan.group_by == "region":
        return [(region.title(), replace(filters, region=region)) for region in plan.sides]
    if plan.group_by == "city":
        return [(city, replace(filters, city=city)) for city in plan.sides]
    if plan.group_by == "segment":
        return [(segment, replace(filters, segment=segment)) for segment in plan.sides]
    if plan.group_by == "period":
        out = []
        for side in plan.sides:
            label, start, end = side.split("|")
            out.append(
                (label, replace(filters, period=Period(label, date.fromisoformat(start), date.fromisoformat(end))))
            )
        return out
    return [(c.name, replace(filters, customers=(c,))) for c in filters.customers]


def _compared(plan: QueryPlan) -> Ranking:
    """Both sides' figures, in the question's order (one aggregate per side, in SQL)."""
    measure = plan.measure or "sum"
    value = {"count": Count("id"), "average": Avg("amount")}.get(measure, Sum("amount"))
    rows = []
    excluded = False
    for label, filters in comparison_sides(plan):
        orders, excluded = _revenue(plan, orders_for(filters))
        agg = orders.aggregate(value=value, n=Count("id"))
        rows.append(RankRow(label, _rounded(agg["value"] if agg["value"] is not None else Decimal("0.00")), agg["n"]))
    return Ranking(plan, measure, tuple(rows), cancelled_excluded=excluded)


def _rounded(value: Any) -> Decimal | int:
    if isinstance(value, Decimal):
        return value.quantize(Decimal("0.01"))
    return value if value is not None else 0


def _group_label(group: str, key: Any) -> str:
    if group == "month":
        return f"{key:%B %Y}"
    if group in ("region", "status"):
        return str(key).title()
    return str(key)


def _order_list(plan: QueryPlan, *, by_amount: bool = False) -> RecordList:
    """Orders newest first; or, ranked by amount ("the largest order"), the orders that count as
    sales: cancelled ones left out, as in totals, unless a status was asked for."""
    orders = orders_for(plan.filters)
    excluded = False
    if by_amount:
        orders, excluded = _revenue(plan, orders)
    total = orders.count() if not by_amount else 0
    ordering = ("-amount", "number") if plan.order != "asc" else ("amount", "number")
    ordered = orders.order_by(*ordering) if by_amount else orders.order_by("-ordered_on", "-number")
    limit = plan.limit if by_amount and plan.limit else MAX_ROWS
    rows = tuple(
        (o.number, o.customer.name, o.ordered_on, o.amount, o.status)
        for o in ordered.select_related("customer")[:limit]
    )
    return RecordList(
        plan,
        "order",
        ("Order", "Customer", "Date", "Amount", "Status"),
        ("text", "text", "date", "money", "text"),
        rows,
        total or len(rows),
        cancelled_excluded=excluded,
    )


# --- customers ----------------------------------------------------------------------------------


def customers_for(filters: Filters) -> QuerySet[Customer]:
    return Customer.objects.filter(**_place_lookups(filters))


def _matching_orders(filters: Filters) -> Q:
    return _order_condition(filters, "orders__")


def _customers(plan: QueryPlan) -> Result:
    if plan.peers:
        return _peers(plan)
    customers = customers_for(plan.filters)
    if plan.terms:
        on_terms = current_contracts().filter(payment_terms__iexact=plan.terms).values("customer_id")
        customers = customers.filter(pk__in=on_terms)
    columns: tuple[str, ...] = ("Customer", "City", "Region", "Segment")
    kinds: tuple[str, ...] = ("text", "text", "text", "text")
    if plan.min_orders is not None:
        customers = customers.annotate(n=Count("orders", filter=_matching_orders(plan.filters))).filter(
            n__gt=plan.min_orders
        )
        columns, kinds = (*columns, "Orders"), (*kinds, "count")
    totalled = plan.min_total is not None or plan.max_total is not None
    if totalled:
        customers = _totalled_customers(plan, customers)
        columns, kinds = (*columns, "Order value"), (*kinds, "money")
    if plan.kind == "count":
        if plan.group_by in ("region", "segment", "city"):
            by = "value" if plan.order == "asc" else "-value"
            groups = customers.values(key=F(plan.group_by)).annotate(value=Count("id")).order_by(by, "key")
            rows = tuple(RankRow(_group_label(plan.group_by, g["key"]), g["value"]) for g in groups)
            return Ranking(plan, "count", rows)
        return Figure(plan, "count", customers.count())
    order = ("-n", "name") if plan.min_orders is not None else ("-total", "name") if totalled else ("name",)
    values = ["name", "city", "region", "segment", *(["n"] if plan.min_orders is not None else [])]
    values += ["total"] if totalled else []
    records = tuple(
        tuple(str(v).title() if k == "region" else v for k, v in zip(values, row, strict=True))
        for row in customers.order_by(*order).values_list(*values)[:MAX_ROWS]
    )
    return RecordList(plan, "customer", columns, kinds, records, customers.count())


def _totalled_customers(plan: QueryPlan, customers: QuerySet[Customer]) -> QuerySet[Customer]:
    """Customers whose matching orders total past the plan's threshold; cancelled orders are
    left out as in revenue unless the question names a status."""
    condition = _matching_orders(plan.filters)
    if not plan.filters.status and not plan.filters.exclude_status:
        condition &= ~Q(orders__status=OrderStatus.CANCELLED)
    customers = customers.annotate(total=Sum("orders__amount", filter=condition))
    if plan.min_total is not None:
        customers = customers.filter(total__gt=plan.min_total)
    if plan.max_total is not None:
        customers = customers.filter(Q(total__lt=plan.max_total) | Q(total__isnull=True))
    return customers


def _peers(plan: QueryPlan) -> Result:
    """The named customer's own values, and the other customers sharing them."""
    ref = plan.filters.customers[0]
    customer = Customer.objects.filter(pk=ref.id).first()
    if customer is None:
        return Missing(plan, f"{ref.name} is no longer on record.")
    same = {f: getattr(customer, f) for f in plan.peers}
    # A place the question states narrows the peers too: "who else in the West shares it?"
    others = Customer.objects.filter(**same).filter(**_place_lookups(plan.filters))
    others = others.exclude(pk=customer.pk).order_by("name")
    rows = tuple((c.name, c.city, c.region.title(), c.segment) for c in others)
    anchor = {"customer": customer.name, **{f: (v.title() if f == "region" else v) for f, v in same.items()}}
    return RecordList(
        plan, "customer", ("Customer", "City", "Region", "Segment"), ("text",) * 4, rows, len(rows), anchor
    )


# --- contracts ----------------------------------------------------------------------------------


def current_contracts() -> QuerySet[Contract]:
    """Each customer's latest contract (the most recently signed)."""
    latest = Contract.objects.filter(customer=OuterRef("customer")).order_by("-signed_on", "-pk").values("pk")[:1]
    return Contract.objects.filter(pk=Subquery(latest))


def _contracts(plan: QueryPlan, *, today: date) -> Result:
    contracts = current_contracts().select_related("customer")
    filters = plan.filters
    if filters.customers:
        contracts = contracts.filter(customer_id__in=[c.id for c in filters.customers])
    contracts = contracts.filter(**_place_lookups(filters, "customer__"))
    signed = plan.field == "signed_on"  # "contracts signed in 2025": the period is the signing's
    if filters.period is not None:
        dated = "signed_on__range" if signed else "renewal_date__range"
        contracts = contracts.filter(**{dated: (filters.period.start, filters.period.end)})
    # An amount said of contracts bounds their credit limit ("contracts with a limit over 400k").
    if filters.min_amount is not None:
        contracts = contracts.filter(credit_limit__gt=filters.min_amount)
    if filters.max_amount is not None:
        contracts = contracts.filter(credit_limit__lt=filters.max_amount)
    if plan.kind == "count":
        return Figure(plan, "count", contracts.count())
    if plan.kind in ("sum", "average") and plan.field == "credit_limit":
        agg = contracts.aggregate(n=Count("id"), total=Sum("credit_limit"), mean=Avg("credit_limit"))
        value = agg["mean"] if plan.kind == "average" else agg["total"]
        return Figure(plan, plan.kind, (value or Decimal(0)).quantize(Decimal("0.01")), orders=agg["n"])
    ordering = ("signed_on" if signed else "renewal_date", "customer__name")
    if plan.kind == "rank" and plan.field == "credit_limit":
        # "the highest credit limit of those renewing in March": the contracts by their limit
        ordering = ("-credit_limit" if plan.order == "desc" else "credit_limit", "customer__name")
    rows = tuple(
        (c.customer.name, c.signed_on if signed else c.renewal_date, c.payment_terms, c.credit_limit)
        for c in contracts.order_by(*ordering)[: plan.limit or MAX_ROWS]
    )
    return RecordList(
        plan,
        "contract",
        ("Customer", "Signed" if signed else "Renews", "Payment terms", "Credit limit"),
        ("text", "date", "text", "money"),
        rows,
        contracts.count(),
    )


# --- single records -----------------------------------------------------------------------------

_CUSTOMER_FIELDS = (("Account code", "account_code"), ("City", "city"), ("Region", "region"), ("Segment", "segment"))
_CONTRACT_FIELDS = (
    ("Payment terms", "payment_terms", "text"),
    ("Credit limit", "credit_limit", "money"),
    ("Renewal date", "renewal_date", "date"),
    ("Signed", "signed_on", "date"),
)


def _lookup(plan: QueryPlan) -> list[Result]:
    if plan.order_number and plan.subject == "orders":
        return [_order(plan)]
    if plan.order_number:
        # a field of the customer who placed the order, or of their contract
        order = Order.objects.select_related("customer").filter(number__iexact=plan.order_number).first()
        if order is None:
            return [Missing(plan, f"There is no order {plan.order_number} in the records.")]
        if plan.subject == "contracts":
            return [_contract(plan, order.customer_id, order.customer.name)]
        return [_customer(plan, order.customer_id, order.customer.name)]
    results: list[Result] = []
    for ref in plan.filters.customers:
        if plan.subject == "contracts":
            results.append(_contract(plan, ref.id, ref.name))
        else:
            results.append(_customer(plan, ref.id, ref.name))
    return results or [Missing(plan, "Name the customer you mean.")]


def _order(plan: QueryPlan) -> Result:
    order = Order.objects.select_related("customer").filter(number__iexact=plan.order_number).first()
    if order is None:
        return Missing(plan, f"There is no order {plan.order_number} in the records.")
    fields = (
        ("Customer", order.customer.name, "text"),
        ("Date", order.ordered_on, "date"),
        ("Amount", order.amount, "money"),
        ("Status", order.status, "text"),
    )
    asked = plan.field if plan.field in {label for label, _, _ in fields} else ""
    return Record(plan, "order", f"Order {order.number}", fields, asked)


def _customer(plan: QueryPlan, pk: int, name: str) -> Result:
    customer = Customer.objects.filter(pk=pk).first()
    if customer is None:
        return Missing(plan, f"{name} is no longer on record.")
    fields = tuple(
        (label, getattr(customer, key).title() if key == "region" else getattr(customer, key), "text")
        for label, key in _CUSTOMER_FIELDS
    )
    asked = next((label for label, key in _CUSTOMER_FIELDS if key == plan.field), "")
    return Record(plan, "customer", customer.name, fields, asked)


def _contract(plan: QueryPlan, pk: int, name: str) -> Result:
    contract = current_contracts().filter(customer_id=pk).first()
    if contract is None:
        return Missing(plan, f"{name} has no contract on file.")
    fields = tuple((label, getattr(contract, key), kind) for label, key, kind in _CONTRACT_FIELDS)
    asked = next((label for label, key, _ in _CONTRACT_FIELDS if key == plan.field), "")
    return Record(plan, "contract", name, fields, asked)


# --- results as prompt data ---------------------------------------------------------------------


def _plain(value: Any) -> Any:
    if isinstance(value, (Decimal, date)):
        return str(value)
    return value


def result_data(result: Result) -> dict[str, Any]:
    """A result as JSON-safe data: what a model sees as the tool's output."""
    if isinstance(result, Figure):
        return {
            "measure": result.measure,
            "value": _plain(result.value),
            "orders": result.orders,
            "currency": result.currency,
            "cancelled_excluded": result.cancelled_excluded,
            **({"of_them_cancelled": result.cancelled} if result.cancelled else {}),
        }
    if isinstance(result, Ranking):
        rows = [{"group": r.label, "value": _plain(r.value), "orders": r.orders} for r in result.rows]
        return {"measure": result.measure, "rows": rows, "cancelled_excluded": result.cancelled_excluded}
    if isinstance(result, RecordList):
        rows = [{c: _plain(v) for c, v in zip(result.columns, row, strict=True)} for row in result.rows]
        return {"rows": rows, "total": result.total, **({"same_as": result.anchor} if result.anchor else {})}
    if isinstance(result, Record):
        return {"record": result.title, **{label: _plain(value) for label, value, _ in result.fields}}
    if isinstance(result, Quotes):
        return {"passages": [{"title": p.title, "text": p.text} for p in result.passages]}
    return {"error": result.message}


def as_tool_call(result: Result) -> ToolCall:
    """The result in the prompt's tool-call shape (name, the plan's arguments, the data)."""
    from chat.prompt import ToolCall

    plan = result.plan
    args: dict[str, Any] = {"kind": plan.kind, "subject": plan.subject, **plan.filters.slots()}
    if plan.filters.customers:
        args["customers"] = ", ".join(c.name for c in plan.filters.customers)
    for key in ("field", "group_by", "limit", "order_number", "min_orders", "min_total", "max_total", "terms"):
        if getattr(plan, key) not in (None, ""):
            args[key] = getattr(plan, key)
    return ToolCall(
        name=f"{plan.kind}_{plan.subject}", args=args, ok=not isinstance(result, Missing), data=result_data(result)
    )
