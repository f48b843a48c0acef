"""Yes/no questions answered yes or no first: "Is Kestrel Foods on net 30?" -> "Yes: Kestrel
Foods pays on net 30 ...". The plan that answers the question is the ordinary one (a record's
field, a list or count of orders); the verdict compares what the records hold with what the
question states, and is left out (the plain answer stands) when it cannot be decided."""

from __future__ import annotations

from dataclasses import replace
from datetime import date
from decimal import Decimal
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from chat.planner import Context, QueryPlan, Signals

# "any open orders for X?", "anything shipped to X last week?" open with what they ask about
# and still ask yes or no.
YES_NO_OPENERS = frozenset({"is", "are", "was", "were", "does", "do", "did", "has", "have", "had", "any", "anything"})
TAG_QUESTIONS = frozenset({"right", "correct", "yes"})


def asks_yes_no(words: list[str], *, or_read: bool = False) -> bool:
    """Opened by an auxiliary ("is", "did", "has") and not offering a choice ("is X enterprise or
    mid-market?" asks which), or closed by a tag ("..., right?"). ``or_read``: the "or" joins the
    values of one filter ("any orders in Omaha or Tulsa?"), which is no choice."""
    plain = [w for w in words if w.isalnum() or "'" in w]
    if not plain or ("or" in plain and not or_read):
        return False
    return plain[0] in YES_NO_OPENERS or plain[-1] in TAG_QUESTIONS


def as_yes_no(plan: QueryPlan, signals: Signals, context: Context) -> QueryPlan:
    """The plan marked as asked yes or no, with the value the question states where the plan
    would otherwise drop it: "is X a small business account?" looks up X's segment (not every
    small business customer), "is X on net 30?" keeps the terms."""
    from chat.planner import payment_terms

    plan = replace(plan, yes_no=True)
    one = len(context.named) == 1
    stated = next((f for f in ("segment", "region", "city") if getattr(plan.filters, f)), "")
    if one and plan.kind == "list" and plan.subject == "customers" and stated:
        return replace(plan, kind="lookup", field=stated, filters=replace(plan.filters, customers=context.named))
    if plan.kind == "lookup" and plan.subject == "contracts" and plan.field == "payment_terms":
        return replace(plan, terms=payment_terms(signals))
    return plan


def verdict(result: Any) -> bool | None:
    """Yes (True), no (False), or None when the records cannot decide it."""
    from chat.executors import Figure, Record, RecordList

    plan = result.plan
    if not plan.yes_no or plan.kind == "compare":
        return None
    if isinstance(result, RecordList) and result.noun == "order":
        return result.total > 0
    if isinstance(result, Figure) and result.measure == "count":
        return int(result.value) > 0
    if not isinstance(result, Record) or not result.asked:
        return None
    held = next((value for label, value, _ in result.fields if label == result.asked), None)
    if held is None:
        return None
    if plan.field in ("segment", "region", "city"):
        return str(held).lower() == str(getattr(plan.filters, plan.field)).lower()
    if plan.field == "payment_terms" and plan.terms:
        return str(held).lower() == plan.terms
    if plan.field == "credit_limit" and isinstance(held, Decimal):
        if plan.filters.min_amount is not None:
            return held > plan.filters.min_amount
        if plan.filters.max_amount is not None:
            return held < plan.filters.max_amount
    period = plan.filters.period
    if plan.field in ("renewal_date", "signed_on") and period is not None and isinstance(held, date):
        # "does X's contract renew by March's close?": yes when the date lies in it
        return period.start <= held <= period.end
    return None
