"""What the planner tests share: the day they run on, planning a question as the turn does, and
the slots of a plan a user would notice."""

from datetime import date

from chat import tools
from chat.planner import Abstention, Context, CustomerRef, Filters, Period, QueryPlan, plan_question

TODAY = date(2026, 12, 1)


def plan(question, **context):
    named = tuple(CustomerRef(m.customer_id, m.name) for m in tools.find_customer_mentions(question) if m.exact)
    return plan_question(question, Context(named=named, **context), today=TODAY)


def shape(result):
    """The slots a user would notice, without the ids."""
    if isinstance(result, Abstention):
        return ("abstain", result.reason)
    f = result.filters
    return (
        result.kind,
        result.subject,
        result.group_by,
        result.field,
        result.limit,
        tuple(c.name for c in f.customers),
        f.region,
        f.city,
        f.segment,
        f.status,
        f.period.label if f.period else "",
    )


LAST = QueryPlan(
    "count",
    "orders",
    Filters(
        customers=(CustomerRef(1, "Bayou City Fabrication"),),
        status="open",
        period=Period("last month", date(2026, 11, 1), date(2026, 11, 30)),
    ),
)
