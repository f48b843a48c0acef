"""Typed results the responder tests share: a contract, a ranking, written out once."""

from datetime import date
from decimal import Decimal

from chat.executors import Ranking, RankRow, Record
from chat.planner import CustomerRef, Filters, Period, QueryPlan

NORTHLINE = CustomerRef(1, "Northline Freight")
CONTRACT_FIELDS = (
    ("Payment terms", "net 45", "text"),
    ("Credit limit", Decimal("115000.00"), "money"),
    ("Renewal date", date(2028, 5, 31), "date"),
    ("Signed", date(2026, 6, 1), "date"),
)
# The payment terms asked for, and the whole contract.
TERMS = Record(
    QueryPlan("lookup", "contracts", Filters(customers=(NORTHLINE,)), field="payment_terms"),
    "contract",
    "Northline Freight",
    CONTRACT_FIELDS,
    asked="Payment terms",
)
CONTRACT = Record(
    QueryPlan("lookup", "contracts", Filters(customers=(NORTHLINE,))), "contract", "Northline Freight", CONTRACT_FIELDS
)
QUARTER = Period("last quarter", date(2026, 7, 1), date(2026, 9, 30))
TOP = Ranking(
    QueryPlan("rank", "orders", Filters(period=QUARTER), group_by="customer", limit=3),
    "sum",
    (
        RankRow("Dearborn Precision Tooling", Decimal("327352.23"), 30),
        RankRow("Cascadia Timber Supply", Decimal("305971.19"), 28),
        RankRow("Mercer Textile Works", Decimal("285168.14"), 25),
    ),
    cancelled_excluded=True,
)
