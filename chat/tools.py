"""Tools over the corpus: what the turn calls to read the system of record.

Each tool returns a :class:`ToolResult`. ``ok=False`` is an answer too: an ambiguous name
comes back with ``candidates`` so the turn can ask one clarifying question (chapter 92:
"never pick silently"); a name that matches nothing comes back with the closest names.
Values in ``data`` are JSON-safe (ids, strings, ISO dates, amounts as decimal strings).
"""

from __future__ import annotations

import calendar
import difflib
import re
import threading
import time
from dataclasses import asdict, dataclass, field
from datetime import date, timedelta
from decimal import Decimal

from django.core.exceptions import ValidationError
from django.db import connection
from django.db.models import Count, Q, Sum
from django.utils import timezone

from chat.corpus import search_documents
from chat.models import Contract, Customer, Order, OrderStatus, Region

ACCOUNT_CODE = re.compile(r"^acct-?(\d{3,})$", re.IGNORECASE)
MAX_ORDER_ROWS = 200
PERIODS = (
    "this month",
    "last month",
    "this quarter",
    "last quarter",
    "this year",
    "last year",
    "last 30 days",
    "last 90 days",
    "last 12 months",
)
QUARTER = re.compile(r"^q([1-4]) (\d{4})$")
REGION_ALIASES = {"western": "west", "eastern": "east", "northern": "north", "southern": "south", "midwest": "central"}


@dataclass(frozen=True)
class ToolResult:
    name: str
    ok: bool
    data: dict = field(default_factory=dict)
    candidates: list[dict] = field(default_factory=list)
    error: str = ""
    args: dict = field(default_factory=dict)  # the arguments the tool ran with (normalised)

    def as_dict(self) -> dict:
        return asdict(self)


def _customer_data(customer: Customer) -> dict:
    return {
        "id": customer.pk,
        "name": customer.name,
        "city": customer.city,
        "region": customer.region,
        "segment": customer.segment,
        "account_code": customer.account_code,
    }


def _candidate(customer) -> dict:
    return {"id": customer.pk, "name": customer.name, "city": customer.city, "account_code": customer.account_code}


# --- lookup_customer ---------------------------------------------------------------------


def lookup_customer(name_or_code: str) -> ToolResult:
    """One customer by account code or name; several matches come back as candidates."""
    query = " ".join((name_or_code or "").split())
    if not query:
        raise ValidationError("Give a customer name or account code.")
    args = {"name_or_code": query}
    code = ACCOUNT_CODE.match(query)
    if code:
        customer = Customer.objects.filter(account_code__iexact=f"ACCT-{code.group(1)}").first()
        if customer is None:
            return ToolResult(
                "lookup_customer", False, error=f"No customer has account code {query.upper()}.", args=args
            )
        return ToolResult("lookup_customer", True, data=_customer_data(customer), args=args)

    name = _strip_possessive(query)
    exact = list(Customer.objects.filter(name__iexact=name))
    matches = exact or list(Customer.objects.filter(name__icontains=name).order_by("name", "city"))
    if not matches:
        # Every word in the name or the city: "Northline Portland", "kestrel foods sacramento".
        words = [w for w in re.split(r"\W+", name) if w]
        condition = Q()
        for word in words:
            condition &= Q(name__icontains=word) | Q(city__icontains=word)
        matches = list(Customer.objects.filter(condition).order_by("name", "city")) if words else []
    if len(matches) == 1:
        return ToolResult("lookup_customer", True, data=_customer_data(matches[0]), args=args)
    if matches:
        return ToolResult(
            "lookup_customer",
            False,
            candidates=[_candidate(c) for c in matches],
            error=f'{len(matches)} customers match "{query}".',
            args=args,
        )
    index = customer_index()
    close = difflib.get_close_matches(name.lower(), [e.name.lower() for e in index.entries], n=3, cutoff=0.75)
    near = [e for e in index.entries if e.name.lower() in close]
    return ToolResult(
        "lookup_customer",
        False,
        candidates=[_candidate(e) for e in near],
        error=f'No customer matches "{query}".',
        args=args,
    )


def _strip_possessive(text: str) -> str:
    return re.sub(r"['’]s\b", "", text).strip()


# --- list_orders -------------------------------------------------------------------------


def period_range(period: str, *, today: date | None = None) -> tuple[date, date]:
    """Inclusive (first day, last day) of a named period, relative to ``today``."""
    today = today or timezone.localdate()
    key = " ".join(period.lower().split())
    if key == "this month":
        return today.replace(day=1), today
    if key == "last month":
        end = today.replace(day=1) - timedelta(days=1)
        return end.replace(day=1), end
    if key in ("this quarter", "last quarter"):
        start = date(today.year, 3 * ((today.month - 1) // 3) + 1, 1)
        if key == "this quarter":
            return start, today
        end = start - timedelta(days=1)
        return date(end.year, 3 * ((end.month - 1) // 3) + 1, 1), end
    if key == "this year":
        return date(today.year, 1, 1), today
    if key == "last year":
        return date(today.year - 1, 1, 1), date(today.year - 1, 12, 31)
    if key == "last 30 days":
        return today - timedelta(days=29), today
    if key == "last 90 days":
        return today - timedelta(days=89), today
    if quarter := QUARTER.match(key):
        q, year = int(quarter.group(1)), int(quarter.group(2))
        start = date(year, 3 * q - 2, 1)
        end = date(year, 3 * q, calendar.monthrange(year, 3 * q)[1])
        return start, end
    if key == "last 12 months":
        year, month = (today.year - 1, today.month)
        day = min(today.day, calendar.monthrange(year, month)[1])
        return date(year, month, day) + timedelta(days=1), today
    raise ValidationError(f'Unknown period "{period}". Known periods: {", ".join(PERIODS)}, or "Q1 2026".')


def normalise_region(region: str) -> str:
    key = " ".join(region.lower().split()).removeprefix("the ").removesuffix(" region").strip()
    key = REGION_ALIASES.get(key, key)
    if key not in Region.values:
        raise ValidationError(f'Unknown region "{region}". Regions: {", ".join(Region.values)}.')
    return key


def list_orders(
    *,
    customer_id: int | None = None,
    region: str | None = None,
    period: str | None = None,
    status: str | None = None,
    limit: int = 20,
    today: date | None = None,
) -> ToolResult:
    """Orders matching the filters, newest first, with totals over every match (not just the rows shown).

    ``totals.sum`` adds every matching order; ``totals.revenue`` leaves out cancelled orders,
    which the cancellations policy excludes from revenue.
    """
    if not 1 <= limit <= MAX_ORDER_ROWS:
        raise ValidationError(f"limit must be between 1 and {MAX_ORDER_ROWS}.")
    orders = Order.objects.all()
    args: dict = {}
    filters: dict = {}
    if customer_id is not None:
        customer = Customer.objects.filter(pk=customer_id).first()
        if customer is None:
            return ToolResult(
                "list_orders", False, error=f"No customer with id {customer_id}.", args={"customer_id": customer_id}
            )
        orders = orders.filter(customer_id=customer.pk)
        args["customer_id"] = customer.pk
        filters["customer"] = customer.name
    if region:
        args["region"] = filters["region"] = normalise_region(region)
        orders = orders.filter(customer__region=args["region"])
    if period:
        start, end = period_range(period, today=today)
        args["period"] = filters["period"] = " ".join(period.lower().split())
        filters["from"], filters["to"] = start.isoformat(), end.isoformat()
        orders = orders.filter(ordered_on__range=(start, end))
    if status:
        key = status.strip().lower()
        if key not in OrderStatus.values:
            raise ValidationError(f'Unknown status "{status}". Statuses: {", ".join(OrderStatus.values)}.')
        args["status"] = filters["status"] = key
        orders = orders.filter(status=key)

    per_status = {
        f"{s}_{m}": (Count("id", filter=Q(status=s)) if m == "count" else Sum("amount", filter=Q(status=s)))
        for s in OrderStatus.values
        for m in ("count", "sum")
    }
    agg = orders.aggregate(count=Count("id"), sum=Sum("amount"), **per_status)
    rows = [
        {
            "number": o.number,
            "customer_id": o.customer_id,
            "customer": o.customer.name,
            "city": o.customer.city,
            "ordered_on": o.ordered_on.isoformat(),
            "amount": str(o.amount),
            "currency": o.currency,
            "status": o.status,
        }
        for o in orders.select_related("customer").order_by("-ordered_on", "-number")[:limit]
    ]
    by_status = {
        s: {"count": agg[f"{s}_count"], "sum": str(agg[f"{s}_sum"] or Decimal("0.00"))}
        for s in OrderStatus.values
        if agg[f"{s}_count"]
    }
    total = agg["sum"] or Decimal("0.00")
    cancelled = agg["cancelled_sum"] or Decimal("0.00")
    currencies = {r["currency"] for r in rows} or {"USD"}
    return ToolResult(
        "list_orders",
        True,
        data={
            "filters": filters,
            "rows": rows,
            "totals": {
                "count": agg["count"],
                "sum": str(total),
                "revenue": str(total - cancelled),
                "currency": sorted(currencies)[0],
                "by_status": by_status,
            },
            "truncated": agg["count"] > len(rows),
        },
        args=args,
    )


# --- contract_terms ----------------------------------------------------------------------


def contract_terms(customer_id: int) -> ToolResult:
    """The customer's current contract (the most recently signed)."""
    args = {"customer_id": customer_id}
    contract = (
        Contract.objects.select_related("customer")
        .filter(customer_id=customer_id)
        .order_by("-signed_on", "-pk")
        .first()
    )
    if contract is None:
        if not Customer.objects.filter(pk=customer_id).exists():
            return ToolResult("contract_terms", False, error=f"No customer with id {customer_id}.", args=args)
        return ToolResult("contract_terms", False, error="This customer has no contract on file.", args=args)
    customer = contract.customer
    return ToolResult(
        "contract_terms",
        True,
        data={
            "customer_id": customer.pk,
            "customer": customer.name,
            "city": customer.city,
            "account_code": customer.account_code,
            "payment_terms": contract.payment_terms,
            "payment_days": contract.payment_days,
            "renewal_date": contract.renewal_date.isoformat(),
            "credit_limit": str(contract.credit_limit),
            "signed_on": contract.signed_on.isoformat(),
        },
        args=args,
    )


# --- search_documents_tool ---------------------------------------------------------------


def search_documents_tool(query: str, *, limit: int = 5) -> ToolResult:
    passages = search_documents(query, limit=limit)
    return ToolResult(
        "search_documents",
        True,
        data={"passages": [asdict(p) for p in passages]},
        args={"query": query.strip()},
    )


# --- find_customer_mentions --------------------------------------------------------------

_TOKEN = re.compile(r"[a-z0-9]+(?:[-'’][a-z0-9]+)*")
# First words that are ordinary English in this domain: never an alias on their own.
_GENERIC_FIRST_WORDS = {
    "the", "north", "south", "east", "west", "central", "great", "first", "new", "city", "united",
    "national", "general", "global", "american", "pacific", "atlantic", "gateway", "summit", "beacon",
    "coral", "granite", "prairie", "pecan", "lakeshore", "heartland", "magnolia", "sierra", "juniper",
    "driftwood", "redwood",
}  # fmt: skip


@dataclass(frozen=True)
class IndexEntry:
    pk: int
    name: str
    city: str
    account_code: str


@dataclass(frozen=True)
class CustomerMention:
    customer_id: int
    name: str
    city: str
    account_code: str
    matched: str  # the words of the question that matched
    exact: bool  # full name or account code (True) or a short form such as "Northline" (False)


@dataclass(frozen=True)
class CustomerIndex:
    signature: tuple
    entries: list[IndexEntry]
    keys: dict[tuple[str, ...], list[tuple[IndexEntry, bool]]]
    longest: int


def _tokens(text: str) -> list[str]:
    out = []
    for token in _TOKEN.findall(text.lower()):
        token = token.replace("’", "'")
        out.append(token[:-2] if token.endswith("'s") else token)
    return out


_index_lock = threading.Lock()
_index: CustomerIndex | None = None


# A turn asks for the index several times (mentions, the planner's vocabulary); the table is
# checked at most once per this many seconds.
SIGNATURE_TTL_SECONDS = 1.0
_checked: tuple[float, tuple] | None = None


def _signature() -> tuple:
    global _checked
    now = time.monotonic()
    name = connection.settings_dict["NAME"]
    if _checked is not None and now - _checked[0] < SIGNATURE_TTL_SECONDS and _checked[1][0] == name:
        return _checked[1]
    with connection.cursor() as cur:
        cur.execute("SELECT count(*), coalesce(max(id), 0), coalesce(sum(length(name)), 0) FROM chat_customer")
        signature = (name, *cur.fetchone())
    _checked = (now, signature)
    return signature


def customer_index() -> CustomerIndex:
    """Names and account codes of every customer, built once and rebuilt only when the table changes.

    The check is one aggregate over the small customer table, so a question costs one query
    however many words it has.
    """
    global _index
    signature = _signature()
    current = _index
    if current is not None and current.signature == signature:
        return current
    with _index_lock:
        entries = [
            IndexEntry(pk, name, city, code)
            for pk, name, city, code in Customer.objects.order_by("name", "city").values_list(
                "pk", "name", "city", "account_code"
            )
        ]
        keys: dict[tuple[str, ...], list[tuple[IndexEntry, bool]]] = {}
        for entry in entries:
            name_key = tuple(_tokens(entry.name))
            keys.setdefault(name_key, []).append((entry, True))
            keys.setdefault((entry.account_code.lower(),), []).append((entry, True))
            first = name_key[0] if name_key else ""
            if len(name_key) > 1 and len(first) >= 4 and first not in _GENERIC_FIRST_WORDS:
                keys.setdefault((first,), []).append((entry, False))
        longest = max((len(k) for k in keys), default=0)
        _index = CustomerIndex(signature=signature, entries=entries, keys=keys, longest=longest)
        return _index


def clear_customer_index() -> None:
    global _index, _checked
    _index = None
    _checked = None


def find_customer_mentions(text: str) -> list[CustomerMention]:
    """Customers a question names, in the order named: full names, account codes, short forms.

    A short form shared by several customers ("Northline") returns all of them, so the caller
    sees the ambiguity; a city named in the same question narrows them ("Northline in Leeds").
    The longest match at a position wins, so "Northline Freight" is one customer.
    """
    if not text:
        return []
    index = customer_index()
    tokens = _tokens(text)
    token_set = set(tokens)
    found: list[CustomerMention] = []
    seen: set[int] = set()
    i = 0
    while i < len(tokens):
        for size in range(min(index.longest, len(tokens) - i), 0, -1):
            hits = index.keys.get(tuple(tokens[i : i + size]))
            if not hits:
                continue
            if len(hits) > 1:
                in_city = [h for h in hits if set(_tokens(h[0].city)) <= token_set]
                hits = in_city if len(in_city) == 1 else hits
            matched = " ".join(tokens[i : i + size])
            for entry, exact in hits:
                if entry.pk not in seen:
                    seen.add(entry.pk)
                    found.append(CustomerMention(entry.pk, entry.name, entry.city, entry.account_code, matched, exact))
            i += size
            break
        else:
            i += 1
    return found


def mentions_by_name(text: str) -> list[list[CustomerMention]]:
    """:func:`find_customer_mentions` grouped per name used: one list per name, its matches inside."""
    groups: dict[str, list[CustomerMention]] = {}
    for mention in find_customer_mentions(text):
        groups.setdefault(mention.matched, []).append(mention)
    return list(groups.values())
