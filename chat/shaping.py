"""How the user's stated preferences shape one answer: apply or decline, never ignore.

1. Which preferences hold here (:func:`preferences_for`): the answer's scopes (the kind of
   question, the regions it is about) and, per facet and scope, the newest note
   (memory.preferences.effective; a scoped note beats a global one inside its scope).
2. The plan (:func:`shape_plan`): a preferred list size for a ranking the question did not
   size itself, cancelled orders in totals.
3. The style the renderer formats with (:func:`style_for`): scale, rounding, currency
   display, date format, layout, length, extra fields, sort order, and the one sentence for
   each value Atlas cannot apply (a currency it has no rate for, a language it does not write).
4. What each note did (:class:`Use`): applied (and how), declined (the sentence said), or
   nothing; "Used N notes" lists only the notes that shaped the answer (design rule
   "truthful influence"). A facet acts only where the answer holds what it acts on: a count
   has no money, so a currency note does nothing there and claims nothing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from chat.models import Turn
from memory.preferences import FACETS_BY_NAME, GLOBAL, Held, decline_for, effective, is_applied, statement_for

# What a refusal can follow: its length (nothing else of it is a table, a figure or a date).
ABSTENTION_FACETS = frozenset({"length"})

if TYPE_CHECKING:
    from chat.planner import QueryPlan

Influence = Turn.Influence


@dataclass(frozen=True)
class Use:
    """How one recalled note shaped this answer, in the panel's words."""

    code: str  # a Turn.Influence value
    how: str = ""


@dataclass
class Style:
    """How the answer is formatted: the session's format slot, then the user's preferences."""

    format: str = ""  # the session's format slot: "" | short | detailed | table
    layout: str = ""  # a preference: "" | table | bullets | prose
    max_words: int | None = None
    date_format: str = ""  # "" | iso | us | uk | long
    scale: str = ""  # "" | k | m
    rounding: str | int = ""  # "" | whole | 2dp | hundred | thousand, or the significant figures kept
    currency_code: bool = False  # "USD 1,200.00" rather than "$1,200.00"
    include: tuple[str, ...] = ()  # record fields to add (account_code, city, renewal_date, ...)
    sort: dict[str, str] = field(default_factory=dict)  # {"by": amount|date|name, "order": asc|desc}
    declines: list[str] = field(default_factory=list)  # the sentences said once, at the end
    uses: dict[int, Use] = field(default_factory=dict)
    applied: dict[str, Held] = field(default_factory=dict)  # set on this style, by facet
    pending: dict[str, Held] = field(default_factory=dict)  # values Atlas cannot apply
    shown: set[str] = field(default_factory=set)  # what the renderer formatted: money, dates, list

    @property
    def bullets(self) -> bool:
        return self.layout == "bullets"

    @property
    def iso_dates(self) -> bool:
        return self.date_format == "iso"


# --- which preferences hold ---------------------------------------------------------------------


def answer_scopes(
    plan: QueryPlan | None,
    regions: tuple[str, ...] = (),
    cities: tuple[str, ...] = (),
    segments: tuple[str, ...] = (),
) -> set[str]:
    """The scopes an answer holds in: what it is about ("contracts", "orders", "customers"),
    "rankings" for a ranking, "region:<name>" and "city:<name>" for each region and city it is
    about (``regions``, ``cities``: those of the customers it names), "status:<status>"."""
    if plan is None:
        return set()
    scopes = {plan.subject} if plan.subject in ("contracts", "customers") else set()
    if plan.subject == "orders" and not plan.group_by:
        scopes.add("orders")  # orders themselves: a list of them or a figure over them, not a ranking of groups
    if plan.kind == "rank" or plan.limit:
        scopes.add("rankings")
    if plan.subject == "orders" and (plan.kind == "sum" or plan.kind == "compare" and not plan.measure):
        scopes.add("totals")  # a total of orders, or two of them compared
    if plan.group_by == "customer":
        scopes.add("customers")  # a ranking or a breakdown customer by customer is a customer list
    listed = plan.kind in ("list", "count", "rank") and plan.subject == "customers" or bool(plan.group_by)
    if "customers" in scopes and listed:
        scopes.add("customer_lists")  # a list of customers, not a single customer's record
    regions = (*regions, plan.filters.region) if plan.filters.region else regions
    if plan.kind == "compare" and plan.group_by == "region":
        regions = (*regions, *plan.sides)
    scopes |= {f"region:{r.lower()}" for r in regions if r}
    if plan.filters.status:
        scopes.add(f"status:{plan.filters.status}")  # a note for overdue orders only
    scopes |= {f"city:{c.lower()}" for c in (*plan.filters.cities, *cities)}
    segments = (*segments, plan.filters.segment) if plan.filters.segment else segments
    scopes |= {f"segment:{g.lower()}" for g in segments if g}
    return scopes


def preferences_for(notes: list[Any] | tuple[Any, ...], plan: QueryPlan | None) -> dict[str, Held]:
    """The facets that hold for the answer to ``plan``; for an abstention only its length (a user who
    wants short answers gets the refusal without the list of what Atlas can answer)."""
    if plan is None:
        return {k: v for k, v in effective(notes, {GLOBAL}).items() if k in ABSTENTION_FACETS}
    scopes = answer_scopes(plan, *_customer_places(plan))
    held = effective(notes, scopes)
    if plan.filters.customers and "customers" not in scopes:
        # A field asked for beside a customer ("whenever a client comes up, give their payment
        # terms") is shown wherever the answer names that customer, whatever it is about.
        beside = effective(notes, scopes | {"customers"})
        for facet in ("include",):
            if facet in beside and facet not in held:
                held[facet] = beside[facet]
    return held


def _customer_places(plan: QueryPlan) -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]:
    """The regions, the cities and the segments of the customers the plan names, in one query."""
    from chat.models import Customer

    # a city's customers are in its region (a list of the customers in a northern city is about north customers)
    cities = [c.lower() for c in plan.filters.cities]
    held = (
        set(Customer.objects.filter(city__iregex=_any_of(cities)).values_list("region", flat=True)) if cities else set()
    )
    around = tuple(sorted(held)) if len(held) == 1 else ()
    if not plan.filters.customers:
        return around, (), ()
    ids = [c.id for c in plan.filters.customers]
    rows = set(Customer.objects.filter(pk__in=ids).values_list("region", "city", "segment"))
    return (
        tuple(sorted({r for r, _, _ in rows} | set(around))),
        tuple(sorted({c for _, c, _ in rows})),
        tuple(sorted({g for *_, g in rows})),
    )


def _any_of(names: list[str]) -> str:
    return r"^(?:" + "|".join(re.escape(n) for n in names) + r")$"


# --- the plan -------------------------------------------------------------------------------------

_SIZED = re.compile(
    r"\b(?:top|bottom|first|best|worst|biggest|largest|smallest)\s+(?:\d+|one|two|three|four|five|six|seven|"
    r"eight|nine|ten|twenty)\b|\b(?:\d+|two|three|four|five|six|seven|eight|nine|ten)\s+(?:biggest|largest|"
    r"smallest|top|best|customers|clients|accounts|regions|segments)\b"
)


def shape_plan(plan: QueryPlan, held: dict[str, Held], question: str) -> tuple[QueryPlan, dict[int, Use]]:
    """The plan with the preferences that change what is computed: a list size for a ranking
    whose size the question did not state, and cancelled orders in money totals."""
    uses: dict[int, Use] = {}
    limit = held.get("limit")
    if limit is not None and isinstance(limit.value, int) and plan.kind == "rank" and plan.group_by:
        if not _SIZED.search(question.lower()) and plan.limit != limit.value:
            plan = replace(plan, limit=limit.value)
            uses[limit.note_id] = Use(Influence.APPLIED, f"Showed the top {limit.value} only")
    cancelled = held.get("cancelled")
    money = plan.subject == "orders" and plan.kind in ("sum", "average", "rank", "compare") and plan.measure != "count"
    if cancelled is not None and money and not plan.filters.status and not plan.filters.exclude_status:
        include = cancelled.value == "include"
        plan = replace(plan, include_cancelled=include)
        how = "Included cancelled orders in the totals" if include else "Left cancelled orders out of the totals"
        uses[cancelled.note_id] = Use(Influence.APPLIED, how)
    return plan, uses


# --- the style ------------------------------------------------------------------------------------

# What each facet needs in the answer to act on it, and how the panel says it acted.
_HOW: dict[str, str] = {
    "scale": "Showed amounts {label}",
    "rounding": "Showed amounts {label}",
    "currency_display": "Showed amounts {label}",
    "currency": "Showed amounts {label}",
    "date_format": "Wrote dates {label}",
    "layout": "Laid the list out {label}",
    "length": "Kept the answer short",
    "include": "Added {label}",
    "sort": "Sorted the list {label}",
    "language": "Answered in {label}",
}


@dataclass(frozen=True)
class Holds:
    """What an answer showed that a preference can act on (read from what the renderer
    formatted: money, dates, a list), and whether it named customers or abstained."""

    money: bool = False
    dates: bool = False
    rows: bool = False
    records: bool = False  # customers or contracts named
    abstained: bool = False


def style_for(held: dict[str, Held], fmt: str) -> Style:
    """The formatting style for one answer: every preference Atlas can apply is set; the
    ones it cannot are kept for :func:`settle` to decline where the answer shows what they
    would act on."""
    style = Style(format=fmt)
    for facet, pick in held.items():
        spec = FACETS_BY_NAME.get(facet)
        if facet in ("limit", "cancelled") or (spec is None and facet != "exclude"):
            continue  # the plan's (shape_plan), or no facet of the table
        if spec is not None and spec.never_applied:
            continue  # kept and shown on the memory page as not applied; never claimed here
        if not is_applied(facet, pick.value):
            style.pending[facet] = pick
        elif _apply(style, facet, pick):
            style.applied[facet] = pick
    return style


def settle(style: Style, holds: Holds) -> None:
    """After rendering: each applied preference that acted on what the answer showed is
    recorded as used, with how; each one Atlas cannot apply is declined in one sentence where
    the answer shows what it would act on. An abstention uses no note."""
    if holds.abstained:
        return
    for facet, pick in style.applied.items():
        spec = FACETS_BY_NAME.get(facet)
        if _acts(facet, spec.acts_on if spec else "records", holds):
            how = _HOW.get(facet, "Shaped the answer").format(label=_label(facet, pick.value))
            if facet == "length":
                how = "Kept the answer short" if pick.value == "short" else "Gave the answer in detail"
            _use(style, pick.note_id, Use(Influence.APPLIED, how))
    for facet, pick in style.pending.items():
        spec = FACETS_BY_NAME.get(facet)
        sentence = decline_for(facet, pick.value)
        if sentence and _acts(facet, spec.acts_on if spec else "records", holds):
            if sentence not in style.declines:
                style.declines.append(sentence)
            _use(style, pick.note_id, Use(Influence.DECLINED, sentence))


def _acts(facet: str, acts_on: str, holds: Holds) -> bool:
    if facet == "sort":
        return holds.rows
    if facet in ("include", "exclude"):
        return holds.records
    return {
        "money": holds.money,
        "dates": holds.dates,
        "rows": holds.rows,
        "records": holds.records,
        "total": holds.money,
        "any": True,
        "ranking": holds.rows,
    }.get(acts_on, False)


def _apply(style: Style, facet: str, pick: Held) -> bool:
    value = pick.value
    if facet == "scale":
        style.scale = value
    elif facet == "rounding":
        style.rounding = value
    elif facet == "currency_display":
        style.currency_code = value == "code"
    elif facet == "currency":
        return True  # the records' own currency: shown as it is
    elif facet == "date_format":
        style.date_format = value
    elif facet == "layout":
        if style.format in ("table", "short", "detailed"):
            return False  # the question asked for its own format this time
        style.layout = value
    elif facet == "length":
        if style.format or value not in ("short", "detailed"):
            return False
        if value == "short":
            style.format = "short"
            style.max_words = pick.extra.get("max_words") or _words_for(pick.extra)
        else:
            style.format = "detailed"
    elif facet == "include":
        style.include = (*style.include, value)
    elif facet == "exclude":
        return False  # nothing Atlas shows by default is a field a user leaves out yet
    elif facet == "sort":
        style.sort = dict(value)
    elif facet == "language":
        return True  # English: as every answer is
    else:
        return False
    return True


def _words_for(extra: dict[str, Any]) -> int | None:
    """A bound in sentences, lines or paragraphs as a word budget (about 20 words a sentence or a line)."""
    if extra.get("max_sentences") or extra.get("max_lines"):
        return int(extra.get("max_sentences") or extra["max_lines"]) * 20
    if extra.get("max_paragraphs"):
        return int(extra["max_paragraphs"]) * 60
    return None


def _use(style: Style, note_id: int, use: Use) -> None:
    if note_id not in style.uses or style.uses[note_id].code != Influence.APPLIED:
        style.uses[note_id] = use


def _label(facet: str, value: Any) -> str:
    """The value in the words of the note's own statement ("in thousands (like $102.0k)")."""
    from memory.preferences import _label as label

    text = label(facet, value)
    return re.sub(r"\s*\(like [^)]*\)|\s*\(\d+ November 2026\)", "", text)


# --- fields a user asked to see beside each customer ------------------------------------------------

# Field -> (what the line is headed, where its value lives, its kind for formatting).
FIELD_SOURCES: dict[str, tuple[str, str, str]] = {
    "account_code": ("Account code", "customer", "text"),
    "city": ("City", "customer", "text"),
    "region": ("Region", "customer", "text"),
    "segment": ("Segment", "customer", "text"),
    "renewal_date": ("Renewal date", "contract", "date"),
    "payment_terms": ("Payment terms", "contract", "text"),
    "credit_limit": ("Credit limit", "contract", "money"),
    "signed_on": ("Contract signed", "contract", "date"),
    "order_count": ("Orders on record", "orders", "count"),
}


def field_values(names: list[str], fields: tuple[str, ...]) -> list[tuple[str, list[tuple[str, Any, str]]]]:
    """For each field, (heading, [(customer, value, kind)]) for the customers named: one query
    for the customers, one for their current contracts, one for their order counts."""
    from django.db.models import Count

    from chat.executors import current_contracts
    from chat.models import Customer

    wanted = [f for f in dict.fromkeys(fields) if f in FIELD_SOURCES]
    if not wanted:
        return []
    customers = {c.name: c for c in Customer.objects.filter(name__in=names)}
    ids = [c.pk for c in customers.values()]
    contracts = {}
    if any(FIELD_SOURCES[f][1] == "contract" for f in wanted):
        contracts = {k.customer_id: k for k in current_contracts().filter(customer_id__in=ids)}
    counts = {}
    if "order_count" in wanted:
        counts = dict(Customer.objects.filter(pk__in=ids).annotate(n=Count("orders")).values_list("pk", "n"))
    out = []
    for name in wanted:
        heading, source, kind = FIELD_SOURCES[name]
        values = []
        for customer_name in names:
            customer = customers.get(customer_name)
            if customer is None:
                continue
            if source == "customer":
                value: Any = getattr(customer, name)
            elif source == "orders":
                value = counts.get(customer.pk, 0)
            else:
                contract = contracts.get(customer.pk)
                value = getattr(contract, name) if contract is not None else None
            if value not in (None, ""):
                values.append((customer_name, value, kind))
        out.append((heading, values))
    return out


def describe(facets: dict[str, Any], scope: str) -> str:
    """A note's facets as the statement the gate writes (for the LLM's constraints block)."""
    return statement_for(facets, scope)


def money_total(value: Any) -> Decimal:
    return Decimal(str(value))
