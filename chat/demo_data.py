"""The demo business: a deterministic generator for the corpus and the demo users' notes.

Everything is derived from a fixed random seed and a fixed anchor date, so two runs produce
the same customers, orders, contracts and documents (same account codes, order numbers,
amounts and texts) whatever day it is. ``build_corpus`` is pure; ``load_corpus`` writes it.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from django.db import transaction

if TYPE_CHECKING:
    from atlas.types import User

SEED = 20261130
ANCHOR = date(2026, 11, 30)
ORDER_COUNT = 3000
FIRST_ORDER_NUMBER = 86000
CURRENCY = "USD"

# (name, city, region, segment, fixed account code or "")
CUSTOMERS: list[tuple[str, str, str, str, str]] = [
    ("Northline Freight", "Portland", "west", "mid-market", "ACCT-10442"),
    ("Northline Logistics", "Leeds", "north", "enterprise", "ACCT-20817"),
    ("Kestrel Foods", "Sacramento", "west", "mid-market", "ACCT-31206"),
    ("Brightwater Dental", "Boston", "east", "small business", "ACCT-55310"),
    ("Cascadia Timber Supply", "Seattle", "west", "enterprise", ""),
    ("Redwood Analytics", "San Francisco", "west", "small business", ""),
    ("Pinecrest Medical Group", "Los Angeles", "west", "enterprise", ""),
    ("Harborview Marine", "Seattle", "west", "mid-market", ""),
    ("Driftwood Coffee Roasters", "Portland", "west", "small business", ""),
    ("Willamette Organics", "Portland", "west", "mid-market", ""),
    ("Saguaro Solar", "Phoenix", "west", "mid-market", ""),
    ("Sierra Outdoor Co.", "Denver", "central", "mid-market", ""),
    ("Granite Peak Builders", "Denver", "central", "mid-market", ""),
    ("Juniper Family Dental", "Denver", "central", "small business", ""),
    ("Lakeshore Printing", "Chicago", "central", "small business", ""),
    ("Copperline Electrical", "Chicago", "central", "enterprise", ""),
    ("Prairie Mill Foods", "Omaha", "central", "mid-market", ""),
    ("Gateway Auto Parts", "St. Louis", "central", "mid-market", ""),
    ("Buckeye Office Supply", "Columbus", "central", "small business", ""),
    ("Heartland Grain Cooperative", "Kansas City", "central", "enterprise", ""),
    ("Bluestem Veterinary", "Kansas City", "central", "small business", ""),
    ("Fairhaven Insurance Partners", "Hartford", "east", "enterprise", ""),
    ("Rittenhouse Bakery", "Philadelphia", "east", "small business", ""),
    ("Osprey Clinical Labs", "Philadelphia", "east", "mid-market", ""),
    ("Chesapeake Seafood Traders", "Baltimore", "east", "mid-market", ""),
    ("Hudson Vale Pharmacy", "New York", "east", "mid-market", ""),
    ("Mercer Textile Works", "New York", "east", "enterprise", ""),
    ("Beacon Hill Architects", "Boston", "east", "small business", ""),
    ("Ironbridge Engineering", "Pittsburgh", "east", "mid-market", ""),
    ("Magnolia Home Health", "Atlanta", "south", "mid-market", ""),
    ("Bayou City Fabrication", "Houston", "south", "mid-market", ""),
    ("Saltmarsh Energy Services", "Houston", "south", "enterprise", ""),
    ("Pecan Grove Farms", "Dallas", "south", "small business", ""),
    ("Coral Reef Hospitality", "Miami", "south", "enterprise", ""),
    ("Cumberland Studios", "Nashville", "south", "small business", ""),
    ("Piedmont Textiles", "Charlotte", "south", "mid-market", ""),
    ("Menomonee Cold Storage", "Milwaukee", "north", "mid-market", ""),
    ("Lindqvist Robotics", "Minneapolis", "north", "mid-market", ""),
    ("Tamarack Software", "Minneapolis", "north", "small business", ""),
    ("Dearborn Precision Tooling", "Detroit", "north", "enterprise", ""),
    ("Pennine Outdoor Gear", "Manchester", "north", "mid-market", ""),
    ("Aire Valley Brewing", "Leeds", "north", "small business", ""),
]

# Contract terms fixed where the demo story depends on them; the rest are drawn per segment.
FIXED_TERMS = {
    "Northline Freight": ("net 45", date(2026, 6, 1)),
    "Northline Logistics": ("net 60", date(2025, 9, 15)),
    "Kestrel Foods": ("net 30", date(2025, 3, 1)),
    "Brightwater Dental": ("net 30", date(2025, 11, 10)),
}
SEGMENT_TERMS = {
    "enterprise": ["net 45", "net 60", "net 60"],
    "mid-market": ["net 30", "net 30", "net 45"],
    "small business": ["net 15", "net 30", "net 30"],
}
SEGMENT_CREDIT = {"enterprise": (250_000, 750_000), "mid-market": (60_000, 200_000), "small business": (10_000, 40_000)}
SEGMENT_ORDER_WEIGHT = {"enterprise": 3.0, "mid-market": 2.0, "small business": 1.0}
# Median order value per segment (lognormal around it).
SEGMENT_ORDER_MEDIAN = {"enterprise": 11_500, "mid-market": 3_800, "small business": 850}
SLOW_PAYERS = {"Northline Logistics", "Gateway Auto Parts", "Coral Reef Hospitality", "Pecan Grove Farms"}


@dataclass(frozen=True)
class CustomerRow:
    name: str
    city: str
    region: str
    segment: str
    account_code: str


@dataclass(frozen=True)
class OrderRow:
    number: str
    account_code: str
    ordered_on: date
    amount: Decimal
    status: str


@dataclass(frozen=True)
class ContractRow:
    account_code: str
    payment_terms: str
    payment_days: int
    renewal_date: date
    credit_limit: Decimal
    signed_on: date


@dataclass(frozen=True)
class DocumentRow:
    title: str
    text: str
    account_code: str | None


@dataclass(frozen=True)
class CorpusData:
    customers: list[CustomerRow]
    orders: list[OrderRow]
    contracts: list[ContractRow]
    documents: list[DocumentRow] = field(default_factory=list)


def _long_date(value: date) -> str:
    return f"{value.day} {value:%B %Y}"


def _money(value: Decimal | int) -> str:
    return f"${Decimal(value):,.0f}"


def build_corpus(*, anchor: date = ANCHOR, seed: int = SEED) -> CorpusData:
    """The whole demo corpus as plain rows: same seed and anchor, same data."""
    rng = random.Random(seed)
    customers = _customers(rng)
    contracts = _contracts(rng, customers, anchor)
    orders = _orders(rng, customers, contracts, anchor)
    documents = _documents(rng, customers, contracts, orders, anchor)
    return CorpusData(customers=customers, orders=orders, contracts=contracts, documents=documents)


def _customers(rng: random.Random) -> list[CustomerRow]:
    taken = {code for *_, code in CUSTOMERS if code}
    rows = []
    for name, city, region, segment, code in CUSTOMERS:
        while not code:
            candidate = f"ACCT-{rng.randrange(10000, 99999)}"
            if candidate not in taken:
                code = candidate
                taken.add(code)
        rows.append(CustomerRow(name=name, city=city, region=region, segment=segment, account_code=code))
    return rows


def _contracts(rng: random.Random, customers: list[CustomerRow], anchor: date) -> list[ContractRow]:
    rows = []
    for customer in customers:
        if customer.name in FIXED_TERMS:
            terms, signed_on = FIXED_TERMS[customer.name]
        else:
            terms = rng.choice(SEGMENT_TERMS[customer.segment])
            signed_on = anchor - timedelta(days=rng.randrange(60, 900))
        years = 2 if customer.segment != "small business" else 1
        renewal = signed_on.replace(year=signed_on.year + years) - timedelta(days=1)
        while renewal < anchor:  # auto-renewed: the next renewal is ahead
            renewal = renewal.replace(year=renewal.year + 1)
        low, high = SEGMENT_CREDIT[customer.segment]
        credit = Decimal(rng.randrange(low, high, 5_000))
        rows.append(
            ContractRow(
                account_code=customer.account_code,
                payment_terms=terms,
                payment_days=int(terms.split()[1]),
                renewal_date=renewal,
                credit_limit=credit,
                signed_on=signed_on,
            )
        )
    return rows


def _orders(
    rng: random.Random, customers: list[CustomerRow], contracts: list[ContractRow], anchor: date
) -> list[OrderRow]:
    weights = [SEGMENT_ORDER_WEIGHT[c.segment] * rng.uniform(0.6, 1.4) for c in customers]
    days_by_code = {c.account_code: c.payment_days for c in contracts}
    drafts = []
    for _ in range(ORDER_COUNT):
        customer = rng.choices(customers, weights=weights)[0]
        # Slightly more business in the recent year: a gentle growth trend.
        age = int(730 * (rng.random() ** 1.15))
        ordered_on = anchor - timedelta(days=age)
        median = SEGMENT_ORDER_MEDIAN[customer.segment]
        amount = Decimal(str(round(rng.lognormvariate(0, 0.55) * median, 2))).quantize(Decimal("0.01"))
        status = _status(
            rng, age=age, payment_days=days_by_code[customer.account_code], slow=customer.name in SLOW_PAYERS
        )
        drafts.append((ordered_on, customer.account_code, amount, status))
    drafts.sort(key=lambda d: (d[0], d[1], d[2]))
    return [
        OrderRow(number=f"SO-{FIRST_ORDER_NUMBER + i}", account_code=code, ordered_on=day, amount=amount, status=status)
        for i, (day, code, amount, status) in enumerate(drafts)
    ]


def _status(rng: random.Random, *, age: int, payment_days: int, slow: bool) -> str:
    roll = rng.random()
    if roll < 0.03:
        return "cancelled"
    if age <= 10:
        return "open" if roll < 0.72 else "shipped"
    if age <= payment_days + 10:
        return "shipped" if roll < 0.85 else "paid"
    overdue_rate = 0.22 if slow else 0.05
    if age <= 240 and roll < 0.03 + overdue_rate:
        return "overdue"
    return "paid"


CONTRACT_EXTRAS = [
    "Invoices are issued on shipment; a late fee of 1.5% per month applies after the due date.",
    "Includes a 2% early-payment discount when invoices are paid within 10 days.",
    "Auto-renews for one year unless either party gives 60 days' notice.",
    "Volume rebate of 3% once annual orders exceed the credit limit.",
    "Prices are fixed until renewal; fuel surcharges are passed through at cost.",
    "Orders above the credit limit need written approval from the regional finance lead.",
]


def _documents(
    rng: random.Random,
    customers: list[CustomerRow],
    contracts: list[ContractRow],
    orders: list[OrderRow],
    anchor: date,
) -> list[DocumentRow]:
    by_code = {c.account_code: c for c in customers}
    docs = []
    for contract in contracts:
        customer = by_code[contract.account_code]
        extra = rng.choice(CONTRACT_EXTRAS)
        history = ""
        if customer.name == "Northline Freight":
            history = (
                " Terms moved from net 30 to net 45 when the contract was renewed on 1 June 2026;"
                " invoices dated after that day are due in 45 days."
            )
        docs.append(
            DocumentRow(
                title=f"Contract summary: {customer.name}",
                text=(
                    f"{customer.name} ({customer.account_code}), {customer.city}, {customer.region} region,"
                    f" {customer.segment} account. Payment terms: {contract.payment_terms}"
                    f" ({contract.payment_days} days from invoice).{history}"
                    f" Credit limit {_money(contract.credit_limit)}. Signed {_long_date(contract.signed_on)};"
                    f" next renewal {_long_date(contract.renewal_date)}. {extra}"
                ),
                account_code=customer.account_code,
            )
        )
    docs.extend(_policy_memos(anchor))
    docs.extend(_account_notes(rng, by_code, orders, anchor))
    return docs


# The policy memos (title, text); "{year}" is the demo anchor's year.
_POLICY_MEMOS = (
    (
        "Policy memo: standard payment terms",
        "Net 30 is the default payment term for new accounts. Net 45 or net 60 needs approval from"
        " finance and is reserved for enterprise and long-standing mid-market customers. Net 15 applies"
        " to small business accounts in their first year. Payment terms are set by the signed contract;"
        " notes or emails that state other terms are not binding.",
    ),
    (
        "Policy memo: overdue invoices and credit hold",
        "An account with invoices overdue by more than 30 days past its payment terms goes on credit"
        " hold: new orders stay open until finance releases them. Account managers are notified weekly"
        " of overdue orders in their region. Collections calls start at 15 days overdue.",
    ),
    (
        "Policy memo: credit limits",
        "Each contract sets a credit limit: the total of unpaid orders a customer may carry. Orders"
        " that would exceed it need approval from the regional finance lead. Limits are reviewed at"
        " renewal using the last twelve months of payment history.",
    ),
    (
        "Policy memo: discount approval thresholds",
        "Sales reps may approve discounts up to 5%. Discounts between 5% and 12% need the regional"
        " sales director; anything above 12% needs the VP of Sales. Early-payment discounts written"
        " into a contract do not count against these thresholds.",
    ),
    (
        "Policy memo: cancellations and returns",
        "Open orders can be cancelled without charge until they ship. Shipped orders may be returned"
        " within 30 days for a credit note, less a 10% restocking fee for custom items. Cancelled"
        " orders are excluded from revenue and from the overdue report.",
    ),
    (
        "Western region pricing update {year}",
        "From 1 March {year} the western region (Portland, Seattle, San Francisco, Sacramento, Los"
        " Angeles, Phoenix) applies the new freight zone table. Customers in Portland and Seattle"
        " keep free delivery above $2,500 per order. Northline Freight and Willamette Organics were"
        " notified in February.",
    ),
    (
        "Quarter-end close schedule Q4 {year}",
        "Orders must be entered by 28 December {year} to count in Q4. Shipped orders are invoiced"
        " on the day they ship. Finance closes the quarter on the fifth working day of January;"
        " regional managers review open and overdue orders in the last week of December.",
    ),
    (
        "Regional sales coverage",
        "Five sales regions: west (Pacific coast and Phoenix), central (Denver, Chicago, Kansas City,"
        " Omaha, St. Louis, Columbus), east (Boston to Pittsburgh and Baltimore), south (Atlanta,"
        " Houston, Dallas, Miami, Nashville, Charlotte) and north (Minneapolis, Milwaukee, Detroit,"
        " and the UK accounts in Leeds and Manchester). Each region has one finance lead.",
    ),
    (
        "Policy memo: shipping cut-off times",
        "Orders confirmed before 2 pm local time ship the same working day from the nearest"
        " warehouse. Cold-chain orders (food and pharmacy customers) ship Monday to Wednesday only"
        " so they never sit in a depot over a weekend.",
    ),
)


def _policy_memos(anchor: date) -> list[DocumentRow]:
    year = anchor.year
    return [
        DocumentRow(title=t.format(year=year), text=x.format(year=year), account_code=None) for t, x in _POLICY_MEMOS
    ]


# The customers whose account notes cite one of their orders, and the order's status to pick.
_NOTE_ORDERS: tuple[tuple[str, str | None], ...] = (
    ("Northline Logistics", "overdue"),
    ("Kestrel Foods", None),
    ("Coral Reef Hospitality", "overdue"),
    ("Gateway Auto Parts", "overdue"),
    ("Brightwater Dental", None),
)

# Account notes that cite no order or account code: (title, text, customer).
_STANDING_ACCOUNT_NOTES = (
    (
        "Account note: Cascadia Timber Supply volume rebate",
        "Cascadia Timber Supply (Seattle) passed its annual volume threshold in September, which"
        " triggers the 3% rebate in their contract. Credit the rebate against the next invoice.",
        "Cascadia Timber Supply",
    ),
    (
        "Account note: Dearborn Precision Tooling audit",
        "Dearborn Precision Tooling (Detroit) requires a supplier quality audit before renewal."
        " Schedule it with their purchasing team at least 60 days before the renewal date.",
        "Dearborn Precision Tooling",
    ),
    (
        "Account note: Pennine Outdoor Gear seasonal orders",
        "Pennine Outdoor Gear (Manchester) orders heavily in August and September ahead of the"
        " winter season and very little in spring. Forecast their volume by season, not by month.",
        "Pennine Outdoor Gear",
    ),
    (
        "Account note: Hudson Vale Pharmacy delivery windows",
        "Hudson Vale Pharmacy (New York) only accepts deliveries before 10 am. Pharmacy orders follow"
        " the cold-chain shipping rule. They pay reliably within terms.",
        "Hudson Vale Pharmacy",
    ),
    (
        "Account note: Saltmarsh Energy Services credit review",
        "Saltmarsh Energy Services (Houston) asked for a higher credit limit after two large orders"
        " in the summer. Finance will review at renewal using twelve months of payment history.",
        "Saltmarsh Energy Services",
    ),
    (
        "Account note: Willamette Organics pricing",
        "Willamette Organics (Portland) moved to the new western freight zone table in March and keeps"
        " free delivery above $2,500 per order. They compare prices with Kestrel Foods' supplier.",
        "Willamette Organics",
    ),
)


def _account_notes(
    rng: random.Random, by_code: dict[str, CustomerRow], orders: list[OrderRow], anchor: date
) -> list[DocumentRow]:
    code = {c.name: c.account_code for c in by_code.values()}

    def recent_order(name: str, status: str | None = None) -> OrderRow:
        mine = [o for o in orders if o.account_code == code[name] and (status is None or o.status == status)]
        mine = mine or [o for o in orders if o.account_code == code[name]]
        return mine[-1 - rng.randrange(min(5, len(mine)))]

    cited = {name: recent_order(name, status) for name, status in _NOTE_ORDERS}
    notes = [*_order_notes(code, cited), *_STANDING_ACCOUNT_NOTES]
    return [DocumentRow(title=t, text=x, account_code=code[n]) for t, x, n in notes]


def _order_notes(code: dict[str, str], cited: dict[str, OrderRow]) -> list[tuple[str, str, str]]:
    """The account notes that cite an account code, or the order picked for the customer (``cited``)."""
    disputed, kestrel, coral, gateway, brightwater = (cited[name] for name, _ in _NOTE_ORDERS)
    return [
        (
            "Account note: Northline Logistics invoice dispute",
            f"Northline Logistics (Leeds, {code['Northline Logistics']}) disputes invoice {disputed.number}"
            f" of {_money(disputed.amount)} dated {_long_date(disputed.ordered_on)}: two pallets arrived"
            " damaged. Finance holds collection until the carrier claim is settled. Not to be confused"
            " with Northline Freight in Portland, a separate customer.",
            "Northline Logistics",
        ),
        (
            "Account note: Northline Freight renewal",
            f"Northline Freight (Portland, {code['Northline Freight']}) renewed on 1 June 2026 for two"
            " years. They asked for longer terms to match their own customers' cycle; we agreed net 45"
            " in exchange for a higher minimum monthly volume. Earlier notes that say net 30 predate the"
            " renewal.",
            "Northline Freight",
        ),
        (
            "Account note: Kestrel Foods cold-chain expansion",
            f"Kestrel Foods ({code['Kestrel Foods']}) opened a second cold store in Sacramento and expects"
            f" order volume to rise about 20% next year. Latest order {kestrel.number} on"
            f" {_long_date(kestrel.ordered_on)} for {_money(kestrel.amount)}. They ship Monday to Wednesday"
            " under the cold-chain rule.",
            "Kestrel Foods",
        ),
        (
            "Account note: Brightwater Dental new practices",
            f"Brightwater Dental ({code['Brightwater Dental']}), Boston, is adding two practices in"
            f" Cambridge and Quincy. Order {brightwater.number} covered the first fit-out. The office"
            " manager prefers invoices by email and pays within the net 30 terms.",
            "Brightwater Dental",
        ),
        (
            "Account note: Coral Reef Hospitality collections",
            f"Coral Reef Hospitality (Miami) is slow to pay during the off season. Order {coral.number}"
            f" for {_money(coral.amount)} is overdue; the account is close to credit hold under the"
            " overdue invoices policy. Agreed a payment plan call with their controller.",
            "Coral Reef Hospitality",
        ),
        (
            "Account note: Gateway Auto Parts payment plan",
            f"Gateway Auto Parts (St. Louis) asked to split overdue invoice {gateway.number} into three"
            " monthly payments. Approved by the central region finance lead; new orders need prepayment"
            " until the balance is cleared.",
            "Gateway Auto Parts",
        ),
    ]


def document_embedding_text(row_title: str, row_text: str) -> str:
    return f"{row_title}. {row_text}"


def embed_documents(texts: list[str], *, batch: int = 16) -> list[list[float]]:
    """Embed in batches of similar length: a batch is padded to its longest text."""
    from memory.embeddings import embed

    order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
    vectors: list = [None] * len(texts)
    for start in range(0, len(order), batch):
        chunk = order[start : start + batch]
        for i, vector in zip(chunk, embed([texts[i] for i in chunk]), strict=True):
            vectors[i] = list(vector)
    return vectors


def load_corpus(data: CorpusData, *, replace: bool = False) -> dict[str, int]:
    """Write the corpus (into empty tables, or ``replace`` what is there) with document embeddings.

    The embeddings are computed first, outside the transaction, so it stays short; then every
    row is written in one transaction: a failure leaves the previous corpus, never a partial one.
    """
    from chat.models import Contract, Customer, Document, Order

    vectors = embed_documents([document_embedding_text(d.title, d.text) for d in data.documents])
    with transaction.atomic():
        if replace:
            for model in (Document, Order, Contract, Customer):
                model.objects.all().delete()
        ids = _write_corpus(data, vectors)
    from chat.tools import clear_customer_index

    clear_customer_index()
    return {
        "customers": len(ids),
        "orders": len(data.orders),
        "contracts": len(data.contracts),
        "documents": len(data.documents),
    }


def _write_corpus(data: CorpusData, vectors: list[list[float]]) -> dict[str, int]:
    from chat.models import Contract, Customer, Document, Order

    customers = Customer.objects.bulk_create(
        Customer(name=c.name, city=c.city, region=c.region, segment=c.segment, account_code=c.account_code)
        for c in data.customers
    )
    ids = {c.account_code: c.pk for c in customers}
    Contract.objects.bulk_create(
        Contract(
            customer_id=ids[c.account_code],
            payment_terms=c.payment_terms,
            payment_days=c.payment_days,
            renewal_date=c.renewal_date,
            credit_limit=c.credit_limit,
            signed_on=c.signed_on,
        )
        for c in data.contracts
    )
    Order.objects.bulk_create(
        (
            Order(
                number=o.number,
                customer_id=ids[o.account_code],
                ordered_on=o.ordered_on,
                amount=o.amount,
                currency=CURRENCY,
                status=o.status,
            )
            for o in data.orders
        ),
        batch_size=1000,
    )
    Document.objects.bulk_create(
        Document(
            title=d.title,
            text=d.text,
            customer_id=ids[d.account_code] if d.account_code else None,
            embedding=vector,
        )
        for d, vector in zip(data.documents, vectors, strict=True)
    )
    return ids


@dataclass(frozen=True)
class NoteSpec:
    kind: str
    statement: str
    source_quote: str
    written: datetime
    author: str = "rule"
    subject: str = ""
    expires_in_days: int | None = None
    facets: dict[str, Any] = field(default_factory=dict)  # as the preference table names them
    scope: str = "global"


def _at(day: date, hour: int = 10) -> datetime:
    return datetime(day.year, day.month, day.day, hour, 0, tzinfo=UTC)


DEMO_NOTES: dict[str, list[NoteSpec]] = {
    "alice": [
        NoteSpec(
            kind="preference",
            statement="Prefers short answers as bullet points.",
            source_quote="Keep it short, bullet points please.",
            written=_at(date(2026, 2, 2)),
            subject="answer_format",
            facets={"length": "short", "layout": "bullets"},
        ),
        NoteSpec(
            # Written before the 1 June 2026 renewal: it now conflicts with the contract (net 45).
            kind="correction",
            statement="Northline Freight is on net 30 payment terms.",
            source_quote="No, Northline Freight is on net 30, not net 60.",
            written=_at(date(2026, 3, 14), 15),
            author="user",
        ),
        NoteSpec(
            kind="context",
            statement="Covers the western sales region.",
            source_quote="I look after the western sales region.",
            written=_at(date(2026, 1, 20), 9),
            facets={"region": "west"},
        ),
    ],
    "bob": [
        NoteSpec(
            kind="preference",
            statement="Prefers order lists as tables.",
            source_quote="Can you always give me orders as a table?",
            written=_at(date(2026, 4, 8)),
            subject="answer_format",
            facets={"layout": "table"},
            scope="orders",
        ),
        NoteSpec(
            kind="context",
            statement="Manages the Kestrel Foods and Brightwater Dental accounts.",
            source_quote="I manage Kestrel Foods and Brightwater Dental.",
            written=_at(date(2026, 5, 19), 11),
        ),
        NoteSpec(
            kind="situation",
            statement="Preparing the east region quarterly review.",
            source_quote="I'm putting together the east region quarterly review this month.",
            written=_at(date(2026, 11, 20), 14),
            expires_in_days=30,
        ),
    ],
}


def seed_notes(user: User, specs: list[NoteSpec]) -> int:
    """Write a demo user's notes through the memory store, with provenance (quote and date)."""
    from memory.rls import acting_user
    from memory.store import write_memory

    with acting_user(user.pk), transaction.atomic():
        for spec in specs:
            write_memory(
                user,
                kind=spec.kind,
                statement=spec.statement,
                author=spec.author,
                subject=spec.subject,
                facets=spec.facets,
                scope=spec.scope,
                gate="seed_demo",
                source_quote=spec.source_quote,
                source_at=spec.written,
                created_at=spec.written,
                expires_at=spec.written + timedelta(days=spec.expires_in_days) if spec.expires_in_days else None,
            )
    return len(specs)
