"""Responders: typed results in, typed answer blocks out, behind one interface.

The default is offline and deterministic: it renders the plan executors' results
(:mod:`chat.executors`) as a summary line plus a table or bullet list, honouring the format
slot (short, detailed, table) and the preferences it can honour from recalled notes (units,
currency display, date format, bullet points). When no plan fits, it abstains in one plain
sentence that says what Atlas can answer and asserts no figure. When a recalled note
conflicts with the contract it answers from the contract and says the note is out of date
(design rule: abstain plainly). With ``ATLAS_LLM_BASE_URL`` set, :mod:`chat.llm` offers the same executors
to a model as tools instead.

Escaping is the template's job: blocks hold plain text.
"""

from __future__ import annotations

import calendar
import re
from dataclasses import dataclass, field, replace
from datetime import date, datetime
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation
from typing import Any, Protocol

from django.utils import timezone

from chat import blocks as B
from chat import vocabulary as vocab
from chat.answering.verdicts import verdict
from chat.executors import Figure, Missing, Quotes, Ranking, RankRow, Record, RecordList, Result
from chat.planner import CENT, Abstention, Filters, QueryPlan
from chat.prompt import Prompt
from chat.shaping import Holds, Influence, Style, Use, field_values, settle, style_for

# Rows of a list shown in full, in any layout; a longer list shows this many and says how to see the rest.
LIST_ROWS = 50

CAN_ANSWER = (
    "I can answer questions about the company's customers (by region, city or segment), their orders "
    "(counts, totals, averages and rankings by period or status), their contracts (payment terms, credit "
    "limits, renewals) and its documents."
)
ABSTENTIONS = {
    vocab.FORECAST_REASON: "I can't forecast from the records: they only hold orders that have already been placed.",
    vocab.OUTSIDE_REASON: "That's outside what Atlas answers: I only answer from the company's business records.",
    vocab.NO_FIELD_REASON: "I can't answer that: the records don't hold {topic}.",
    vocab.NO_PLAN_REASON: "I can't answer that from the records.",
    vocab.OPINION_REASON: "I can't answer that: it asks for an opinion, and I only report what the records hold.",
    vocab.CHANGE_REASON: (
        "I can't change the records: Atlas only reads them. Make the change where the records are kept, and ask me "
        "again once it is there."
    ),
    vocab.UNKNOWN_CUSTOMER_REASON: "I can't answer that: no customer called \u201c{topic}\u201d is on record.",
    vocab.UNKNOWN_CODE_REASON: "I can't answer that: no customer has account code {topic}.",
    vocab.NEEDS_CUSTOMER_REASON: "I can't look up a {topic} without a customer: which customer do you mean?",
    vocab.UNREAD_WORD_REASON: (
        "I can't answer that: I don't know how to read \u201c{topic}\u201d in this question, and an answer "
        "that ignored it would answer a different question."
    ),
}


def _article(word: str) -> str:
    """ "an" before a vowel ("an enterprise customer"), "a" otherwise."""
    return "an" if word[:1].lower() in "aeiou" else "a"


class ResponderError(RuntimeError):
    """The responder could not produce an answer (endpoint down, bad reply)."""


@dataclass(frozen=True)
class Answer:
    text: str
    blocks: tuple[B.Block, ...] = ()
    # memory_id -> how the note shaped this answer; notes that shaped nothing are absent
    influences: dict[int, Use] = field(default_factory=dict)
    responder: str = "offline"
    results: tuple[Any, ...] = ()  # what the executors returned (the LLM path fills it)


class Responder(Protocol):
    name: str

    def respond(self, prompt: Prompt) -> Answer: ...


# --- formatting ---------------------------------------------------------------------------------


def fmt_date(value: Any, style: Style) -> str:
    style.shown.add("dates")
    if isinstance(value, datetime):
        value = value.date()
    if isinstance(value, str):
        try:
            value = date.fromisoformat(value[:10])
        except ValueError:
            return value
    if not isinstance(value, date):
        return str(value or "")
    # Only the style asked for is formatted (a table of orders formats a date per row).
    match style.date_format:
        case "iso":
            return value.isoformat()
        case "us":
            return f"{value:%m/%d/%Y}"
        case "uk":
            return f"{value:%d/%m/%Y}"
        case "dotted":
            return f"{value:%d.%m.%Y}"
        case "long":
            return f"{value.day} {value:%B %Y}"
    return f"{value.day} {value:%b %Y}"


def fmt_money(value: Any, style: Style, currency: str = "USD") -> str:
    style.shown.add("money")
    try:
        amount = Decimal(str(value))
    except (InvalidOperation, ValueError):
        return f"{value} {currency}".strip()
    whole = style.rounding in ("whole", "hundred", "thousand")
    if style.rounding in _NEAREST:  # "to the nearest hundred": $12,431.57 is $12,400
        amount = amount.quantize(_NEAREST[style.rounding], rounding=ROUND_HALF_UP)
    places = _PLACES.get(str(style.rounding))  # "one decimal": $1.2m, $45.2k, $12,431.6
    if isinstance(style.rounding, int) and amount:
        number = _significant(amount / _SCALES.get(style.scale, 1), style.rounding) + style.scale
    elif style.scale == "k":
        number = f"{amount / 1000:,.{_or(places, 0 if whole else 1)}f}k"
    elif style.scale == "m":
        number = f"{amount / 1_000_000:,.{_or(places, 1 if whole else 2)}f}m"
    else:
        number = f"{amount:,.{_or(places, 0 if whole else 2)}f}"
    if style.currency_code or currency not in _SYMBOLS:
        return f"{currency} {number}"
    return f"{_SYMBOLS[currency]}{number}"


_SCALES = {"k": Decimal(1000), "m": Decimal(1_000_000)}
_PLACES = {"1dp": 1, "2dp": 2}


def _or(places: int | None, default: int) -> int:
    return default if places is None else places


def _significant(amount: Decimal, digits: int) -> str:
    """``amount`` to ``digits`` significant figures: 12431.57 to 3 is "12,400", 47.318 is "47.3"."""
    place = amount.adjusted() - digits + 1
    rounded = amount.quantize(Decimal(f"1E{place}"), rounding=ROUND_HALF_UP)
    return f"{rounded:,.{max(0, -place)}f}"


_SYMBOLS = {"USD": "$", "EUR": "\u20ac", "GBP": "\u00a3"}
_NEAREST = {"hundred": Decimal("1E2"), "thousand": Decimal("1E3")}


def fmt_value(value: Any, kind: str, style: Style) -> str:
    if kind == "money":
        return fmt_money(value, style)
    if kind == "date":
        return fmt_date(value, style)
    if kind == "count":
        return f"{value:,}" if isinstance(value, int) else str(value)
    return str(value)


def _names(names: list[str]) -> str:
    if len(names) <= 2:
        return " and ".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


# A period's label that holds a date of its own ("1 Oct to 30 Nov 2026", "since 3 March").
_DATED_LABEL = re.compile(
    r"\b\d{1,2}(?:st|nd|rd|th)? (?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)", re.IGNORECASE
)


def scope_phrase(filters: Filters, style: Style, *, with_customers: bool = True, dated: bool = True) -> str:
    """Where a figure comes from, in words: every filter it was computed under, and only those."""
    parts = []
    if with_customers and filters.customers:
        parts.append("for " + _names([c.name for c in filters.customers]))
    if filters.city:
        parts.append(f"in {' or '.join(filters.cities)}")
    if filters.region:
        parts.append(f"in the {filters.region.title()} region")
    if filters.segment:
        parts.append(f"in the {filters.segment} segment")
    if filters.min_amount is not None or filters.max_amount is not None:
        parts.append(amount_bound(filters.min_amount, filters.max_amount, style))
    if filters.exclude_status:
        parts.append(f"excluding {filters.exclude_status} orders")
    if filters.period is not None:
        span = f"{fmt_date(filters.period.start, style)} to {fmt_date(filters.period.end, style)}"
        label = filters.period.label
        if style.date_format and _DATED_LABEL.search(label):
            # "1 Oct to 30 Nov 2026" is dates itself: with a date format asked for, they are written that way
            parts.append(f"from {span}")
        else:
            bare = label.startswith(("from ", "since ", "last ", "this ", "next ", "today", "yesterday"))
            parts.append(f"{label} ({span})" if bare else f"in {label} ({span})")
    elif dated:
        parts.append("across all dates")
    return " ".join(parts)


def _orders_noun(plan: QueryPlan, count: int | None = None) -> str:
    noun = "order" if count == 1 else "orders"
    return f"{plan.filters.status} {noun}" if plan.filters.status else noun


# --- rendering results --------------------------------------------------------------------------


def render_abstention(abstention: Abstention, *, brief: bool = False) -> list[B.Block]:
    """The refusal and what Atlas can answer instead; ``brief`` (short answers preferred): the refusal alone."""
    sentence = ABSTENTIONS.get(abstention.reason, ABSTENTIONS[vocab.NO_PLAN_REASON])
    topic = abstention.topic or "that"
    if abstention.reason == vocab.NO_FIELD_REASON:
        topic = _plural(topic)
    return [B.summary(sentence.format(topic=topic) + ("" if brief else " " + CAN_ANSWER))]


def _plural(word: str) -> str:
    if word.endswith("s") or word.lower() in ("staff", "stock", "headcount", "inventory"):
        return word
    return word + "s" if not word.endswith("y") else word[:-1] + "ies"  # CEO -> CEOs, company -> companies


def render_result(result: Result, style: Style) -> list[B.Block]:
    if isinstance(result, Figure):
        return [B.summary(_figure_sentence(result, style))]
    if isinstance(result, Ranking):
        return _ranking_blocks(result, style)
    if isinstance(result, RecordList):
        return _list_blocks(result, style)
    if isinstance(result, Record):
        return _record_blocks(result, style)
    if isinstance(result, Quotes):
        return _quote_blocks(result, style)
    if isinstance(result, Missing):
        return [B.summary(result.message)]
    return []


def _figure_sentence(result: Figure, style: Style) -> str:
    plan = result.plan
    scope = scope_phrase(plan.filters, style)
    excluded = _cancelled_sentence(plan, result.cancelled_excluded, " as in revenue")
    if result.measure == "count":
        value = int(result.value)
        if plan.subject == "customers":
            having = _having_phrase(plan, style)
            scope = scope_phrase(plan.filters, style, dated=bool(having) and not plan.terms)
            text = f"{value:,} customer{'s' if value != 1 else ''} {having}{scope}."
            return text.replace("  ", " ").replace(" .", ".")
        if plan.subject == "contracts":
            verb = "signed" if plan.field == "signed_on" else "renew"
            return f"{value:,} contract{'s' if value != 1 else ''} {verb} {scope}."
        if result.cancelled:
            # "34 orders ...; 32 of them not cancelled": both readings of "how many orders" said
            kept = value - result.cancelled
            return f"{value:,} {_orders_noun(plan, value)} {scope}; {kept:,} of them not cancelled."
        return f"{value:,} {_orders_noun(plan, value)} {scope}."
    money = fmt_money(result.value, style)
    if plan.subject == "contracts":
        return _contract_figure_sentence(result, style, money)
    orders = f"{result.orders:,} order{'s' if result.orders != 1 else ''}"
    if result.measure == "average":
        return f"The average {_orders_noun(plan, 1)} {scope} is {money} (over {orders}).{excluded}"
    return f"{_orders_noun(plan).capitalize()} {scope} total {money} ({orders}).{excluded}"


def _cancelled_sentence(plan: QueryPlan, excluded: bool, why: str = "") -> str:
    """What the total did with cancelled orders, said once: left out (as revenue is), or
    included because the user's preference asks for them."""
    if plan.include_cancelled:
        return " Cancelled orders are included, as you asked."
    return f" Cancelled orders are left out{',' + why if why else ''}." if excluded else ""


def possessive(name: str) -> str:
    """ "Kestrel Foods'", "Harborview Marine's": a name ending in s takes the apostrophe alone."""
    return f"{name}'" if name.endswith("s") else f"{name}'s"


def _cancelled_clause(plan: QueryPlan, sentence: str) -> str:
    """The cancelled-orders sentence as a clause of a heading that ends in a colon, so a
    ranking's heading is one sentence ("Top 3 customers by order value in 2025, cancelled
    orders left out:"), never a sentence broken by another."""
    if plan.include_cancelled:
        return ", cancelled orders included as you asked"
    return ", cancelled orders left out" if sentence else ""


def _contract_figure_sentence(result: Figure, style: Style, money: str) -> str:
    """ "The average credit limit of current contracts in the West region is $120,000.00 (over 9 contracts)." """
    plan = result.plan
    where = scope_phrase(replace(plan.filters, period=None), style, dated=False)
    renewing = ""
    if plan.filters.period is not None:
        renewing = " renewing " + scope_phrase(
            replace(plan.filters, customers=(), region="", city="", segment=""), style
        )
    label = vocab.FIELD_LABELS.get(plan.field, plan.field)
    what = "average" if result.measure == "average" else "total"
    contracts = f"{result.orders:,} contract{'s' if result.orders != 1 else ''}"
    text = f"The {what} {label} of current contracts {where}{renewing} is {money} (over {contracts})."
    return " ".join(text.split()).replace(" .", ".")


def _having_phrase(plan: QueryPlan, style: Style) -> str:
    if plan.terms:
        return f"on {plan.terms} terms (current contract) "
    if plan.min_total is not None or plan.max_total is not None:
        bounds = amount_bound(plan.min_total, plan.max_total, style, over="more than")
        kept = "" if plan.filters.status else " (cancelled orders left out)"
        return f"whose {_orders_noun(plan)} total {bounds}{kept} "
    if plan.min_orders is None:
        return ""
    noun = _orders_noun(plan)
    if plan.min_orders == 0:
        return f"with {noun} "
    return f"with more than {plan.min_orders} {noun} "


def _metric(ranking: Ranking) -> str:
    """What is ranked, with the status it was computed under ("number of overdue orders")."""
    status = f"{ranking.plan.filters.status} " if ranking.plan.filters.status else ""
    if ranking.measure == "count" and ranking.plan.subject == "customers":
        return "number of customers"
    if ranking.measure == "count":
        return f"number of {status}orders"
    return f"average {status}order value" if ranking.measure == "average" else f"{status}order value"


def _rank_value(ranking: Ranking, value: Any, style: Style) -> str:
    if ranking.measure == "count" and ranking.plan.subject == "customers":
        return f"{value:,} customer{'' if value == 1 else 's'}"
    if ranking.measure == "count":
        return f"{value:,} {_orders_noun(ranking.plan, value)}"
    return fmt_money(value, style)


def _ranking_blocks(ranking: Ranking, style: Style) -> list[B.Block]:
    plan = ranking.plan
    group = {
        "customer": "customers",
        "region": "regions",
        "segment": "segments",
        "city": "cities",
        "month": "months",
    }.get(plan.group_by, "statuses")
    scope = scope_phrase(plan.filters, style, with_customers=plan.kind != "compare")
    excluded = _cancelled_sentence(plan, ranking.cancelled_excluded)
    rows = ranking.rows
    if not rows:
        return [B.summary(f"No {_orders_noun(plan)} {scope}, so there is nothing to rank.")]
    resorted = bool(style.sort) and plan.kind not in ("rank", "compare")
    if resorted:
        rows = _sorted_groups(rows, style)  # a breakdown, not a ranking: in the user's preferred order
    if plan.kind == "rank" and plan.limit == 1:
        top = rows[0]
        word = "lowest" if plan.order == "asc" else "highest"
        if len(rows) > 1:  # a tie for first place: every one of them, and the value they share
            names = ", ".join(r.label for r in rows[:-1]) + f" and {rows[-1].label}"
            value = _rank_value(ranking, top.value, style)
            return [B.summary(f"{names} tied for the {word} {_metric(ranking)} {scope}: {value} each.{excluded}")]
        label = top.label[:1].upper() + top.label[1:]  # "Enterprise had ...": a sentence starts capitalised
        sentence = f"{label} had the {word} {_metric(ranking)} {scope}: {_rank_value(ranking, top.value, style)}."
        return [B.summary(sentence + excluded)]
    if plan.kind == "compare":
        out = [B.summary(_comparison_sentence(ranking, style))]
        # a layout asked for shapes the two sides too ("when i ask u to compare customers ... lay it out as a table")
        sides: list[tuple[str, ...]] = [(r.label, _rank_value(ranking, r.value, style)) for r in rows]
        if (style.format in ("table", "detailed") or style.layout == "table") and not style.bullets:
            out.append(B.table((plan.group_by.capitalize(), _metric(ranking).capitalize()), sides))
        elif style.bullets:
            out.append(B.bullets([": ".join(side) for side in sides]))
        return out
    if plan.kind == "rank" and not plan.limit:
        # "overdue $ by city, biggest first": every group, in the order asked
        first = "smallest" if plan.order == "asc" else "largest"
        clause = _cancelled_clause(plan, excluded)
        head = f"{_metric(ranking).capitalize()} by {plan.group_by} {scope}{clause}, {first} first:"
    elif plan.kind == "rank":
        which = "Bottom" if plan.order == "asc" else "Top"
        clause = _cancelled_clause(plan, excluded)
        head = f"{which} {len(rows)} {group} by {_metric(ranking)} {scope}{clause}:"
        if plan.limit and len(rows) > plan.limit:  # a tie at the last place asked for
            tie = f"with a tie reaching place {plan.limit}, so {len(rows)} are shown"
            head = f"{which} {plan.limit} {group} by {_metric(ranking)} {scope}{clause}, {tie}:"
    else:
        head = f"{_metric(ranking).capitalize()} by {plan.group_by} {scope}{_cancelled_clause(plan, excluded)}:"
    table_rows: list[tuple[str, ...]] = [(r.label, _rank_value(ranking, r.value, style), f"{r.orders:,}") for r in rows]
    header = (plan.group_by.capitalize() or "Status", _metric(ranking).capitalize(), "Orders")
    places = list(range(1, len(rows) + 1))
    if plan.kind == "rank":  # tied values share a place: 1, 2, 2, 4
        places = [next(j for j, o in enumerate(rows, 1) if o.value == r.value) for r in rows]
    items = [f"{p}. {r.label}: {_rank_value(ranking, r.value, style)}" for p, r in zip(places, rows, strict=True)]
    if resorted:  # numbered places would read as a ranking
        items = [f"{r.label}: {_rank_value(ranking, r.value, style)}" for r in rows]
    # A breakdown ("order count city by city") shows every group; a top N is already cut.
    return _shaped(
        head,
        header,
        table_rows,
        items,
        style,
        inline=[f"{r.label} ({_rank_value(ranking, r.value, style)})" for r in rows],
        every=not plan.limit,
    )


def _comparison_sentence(ranking: Ranking, style: Style) -> str:
    """Both figures and a one-line verdict, yes or no first when asked so: "Yes: Kestrel Foods
    $102,041.84 against Brightwater Dental $10,861.77 this year (...), cancelled orders left out." """
    plan = ranking.plan
    first, second = ranking.rows[0], ranking.rows[1]
    by_period = plan.group_by == "period"

    def side(row: RankRow) -> str:
        label = row.label
        if by_period:
            start, end = next((s.split("|")[1:] for s in plan.sides if s.split("|")[0] == row.label), ("", ""))
            if start:
                span = f"{fmt_date(date.fromisoformat(start), style)} to {fmt_date(date.fromisoformat(end), style)}"
                label = f"{label} ({span})"
        value = _rank_value(ranking, row.value, style)
        return f"{label} averaging {value} an order" if ranking.measure == "average" else f"{label} {value}"

    both = f"{side(first)} against {side(second)}"
    if plan.filters.status:
        both += f" in {plan.filters.status} orders"
    if plan.yes_no:
        more = first.value > second.value if plan.order != "asc" else first.value < second.value
        verdict = "Yes" if more else "No"
    elif first.value == second.value:
        verdict = "Level"
    elif by_period:
        # Periods read as a change from the earlier to the later: "2026 up on 2025".
        starts = {s.split("|")[0]: s.split("|")[1] for s in plan.sides}
        later, earlier = (first, second) if starts[first.label] >= starts[second.label] else (second, first)
        change = "up" if later.value > earlier.value else "down"
        verdict = f"{later.label[:1].upper()}{later.label[1:]} {change} on {earlier.label}"
    else:
        ahead = first if first.value > second.value else second
        verdict = f"{ahead.label[:1].upper()}{ahead.label[1:]} is ahead"
    filters = plan.filters if plan.group_by != "customer" else replace(plan.filters, customers=())
    scope = scope_phrase(filters, style, dated=not by_period)
    clause = _cancelled_clause(plan, "x" if ranking.cancelled_excluded else "")
    return " ".join(f"{verdict}: {both} {scope}".split()) + f"{clause}."


def _shaped(
    head: str,
    header: tuple[str, ...],
    rows: list[tuple[str, ...]],
    items: list[str],
    style: Style,
    *,
    inline: list[str],
    total: int | None = None,
    every: bool = False,
) -> list[B.Block]:
    """A summary and its rows as the format asks: a table, bullets, or (short) names inline.

    ``every``: a list of names the user asked for in full (customers, renewals), shown whole."""
    if style.format == "short":
        if len(inline) > 1:
            style.shown.add("list")
        shown = inline if every else inline[:12]
        more = f" and {len(inline) - len(shown)} more" if len(inline) > len(shown) else ""
        listed = f"{', '.join(shown)}{more}".rstrip(".")
        return [B.summary(f"{head.rstrip(':')}: {listed}." if shown else head)]
    limit = 200 if every else LIST_ROWS
    out = [B.summary(head)]
    if len(rows) > 1:
        style.shown.add("list")
    if style.layout == "prose" and not style.format:
        out.append(B.summary(_sentence_of(items[:limit])))
    elif (style.format in ("table", "detailed") or style.layout == "table") and not style.bullets:
        out.append(B.table(header, rows[:limit]))
    else:
        out.append(B.bullets(items[:limit]))
    hidden = (total if total is not None else len(rows)) - min(limit, len(rows))
    if hidden > 0:
        out.append(B.note(f"{hidden:,} more not shown: ask for a shorter period or a narrower filter to see them."))
    return out


def _sentence_of(items: list[str]) -> str:
    """A list as running prose ("A; B; and C."), for a user who prefers prose to bullet points."""
    if len(items) <= 1:
        return (items[0] if items else "").rstrip(".") + "."
    return "; ".join(items[:-1]) + "; and " + items[-1].rstrip(".") + "."


# The column a preferred sort reads, by the kind of value it holds (names: the first text column
# of a customer or contract list, the customer column of an order list).
_SORT_KINDS = {"amount": "money", "date": "date"}


def _sorted_rows(result: RecordList, style: Style) -> tuple[tuple[Any, ...], ...]:
    """The rows in the user's preferred order (a list's own order otherwise)."""
    by, order = style.sort.get("by", ""), style.sort.get("order", "desc")
    if by in _SORT_KINDS and _SORT_KINDS[by] in result.kinds:
        column = result.kinds.index(_SORT_KINDS[by])
    elif by == "name":
        column = 1 if result.noun == "order" else 0
    else:
        return result.rows
    present = [r for r in result.rows if r[column] is not None]
    missing = [r for r in result.rows if r[column] is None]
    return (*sorted(present, key=lambda r: r[column], reverse=order == "desc"), *missing)


def _sorted_groups(rows: Any, style: Style) -> Any:
    """A breakdown's groups in the user's preferred order: by name (the group's label) or by
    amount (its value); a ranking keeps its own order, which is what it was asked for."""
    by, order = style.sort.get("by", ""), style.sort.get("order", "desc")
    if by == "name":
        return type(rows)(sorted(rows, key=lambda r: str(r.label).lower(), reverse=order == "desc"))
    if by == "amount":
        return type(rows)(sorted(rows, key=lambda r: r.value, reverse=order == "desc"))
    return rows


def _order_words(style: Style, default: str) -> str:
    """How a list is ordered, in words: the user's preferred order, or the list's own."""
    by, order = style.sort.get("by", ""), style.sort.get("order", "desc")
    return {
        ("amount", "desc"): "largest first",
        ("amount", "asc"): "smallest first",
        ("date", "desc"): "newest first",
        ("date", "asc"): "oldest first",
        ("name", "asc"): "by name",
        ("name", "desc"): "by name, Z to A",
    }.get((by, order), default)


def _list_blocks(result: RecordList, style: Style) -> list[B.Block]:
    if style.sort:
        result = replace(result, rows=_sorted_rows(result, style))
    plan = result.plan
    if result.anchor:
        return _peer_blocks(result, style)
    if result.noun == "customer":
        having = _having_phrase(plan, style)
        scope = scope_phrase(plan.filters, style, dated=bool(having) and not plan.terms)
        if not result.rows:
            return [B.summary(f"No customers {having}{scope}.".replace("  ", " ").replace(" .", "."))]
        head = f"{result.total:,} customer{'s' if result.total != 1 else ''} {having}{scope}:".replace(" :", ":")
        head = head.replace("  ", " ")
        items = [_customer_item(row, having, result.kinds, style) for row in result.rows]
        inline = [row[0] for row in result.rows]
    elif result.noun == "contract" and _limit_bounded(plan.filters):
        # "contracts with a credit limit over 400k": the bound is on each current contract's limit
        filters = replace(plan.filters, min_amount=None, max_amount=None)
        scope = scope_phrase(filters, style, dated=False)
        bound = amount_bound(plan.filters.min_amount, plan.filters.max_amount, style)
        bound = f"of {bound}" if bound.startswith("at ") else bound
        plural = "s" if result.total != 1 else ""
        if not result.rows:
            return [B.summary(f"No current contract has a credit limit {bound}{' ' + scope if scope else ''}.")]
        head = f"{result.total:,} current contract{plural} with a credit limit {bound}{' ' + scope if scope else ''}:"
        items = [f"{r[0]}: {fmt_money(r[3], style)} ({r[2]}, renews {fmt_date(r[1], style)})" for r in result.rows]
        inline = [f"{r[0]} ({fmt_money(r[3], style)})" for r in result.rows]
    elif result.noun == "contract" and plan.kind == "rank" and result.rows:
        # one contract picked by its credit limit from those renewing in the period
        scope = scope_phrase(plan.filters, style).replace("across all dates", "on record")
        top = result.rows[0]
        most = "highest" if plan.order == "desc" else "lowest"
        sentence = (
            f"{top[0]} has the {most} credit limit of the {result.total:,} contract"
            f"{'s' if result.total != 1 else ''} renewing {scope}: {fmt_money(top[3], style)} "
            f"(renews {fmt_date(top[1], style)}, {top[2]})."
        )
        return [B.summary(sentence)]
    elif result.noun == "contract":
        scope = scope_phrase(plan.filters, style).replace("across all dates", "on record")
        verb = "signed" if plan.field == "signed_on" else "renew"  # the latest contract's signing, or renewal
        if not result.rows:
            return [B.summary(f"No contracts {verb} {scope}.")]
        head = f"{result.total:,} contract{'s' if result.total != 1 else ''} {verb} {scope}:"
        verb = "signed" if plan.field == "signed_on" else "renews"
        items = [f"{r[0]}: {verb} {fmt_date(r[1], style)} ({r[2]})" for r in result.rows]
        inline = [f"{r[0]} ({fmt_date(r[1], style)})" for r in result.rows]
    else:
        return _order_list_blocks(result, style)
    rows = [tuple(fmt_value(v, k, style) for v, k in zip(row, result.kinds, strict=True)) for row in result.rows]
    return _shaped(head, result.columns, rows, items, style, inline=inline, total=result.total, every=True)


def _limit_bounded(filters: Filters) -> bool:
    return filters.min_amount is not None or filters.max_amount is not None


def amount_bound(low: Decimal | None, high: Decimal | None, style: Style, *, over: str = "over") -> str:
    """ "over $400,000.00", "at least $250,000.00", "under $20,000.00", "at most ...": amounts are
    in cents, so more than $249,999.99 is at least $250,000.00 (how the planner reads "at least")."""
    parts = []
    if low is not None:
        whole = low % 1 == Decimal("0.99")
        parts.append(f"at least {fmt_money(low + CENT, style)}" if whole else f"{over} {fmt_money(low, style)}")
    if high is not None:
        whole = high % 1 == CENT
        under = "under" if over == "over" else "less than"
        parts.append(f"at most {fmt_money(high - CENT, style)}" if whole else f"{under} {fmt_money(high, style)}")
    return " and ".join(parts)


def _customer_item(row: tuple[Any, ...], having: str, kinds: tuple[str, ...] = (), style: Style | None = None) -> str:
    item = f"{row[0]} ({row[1]}, {row[2]}, {row[3]})"
    if having and len(row) > 4 and kinds[4:5] == ("money",) and style is not None:
        return item + f": {fmt_money(row[4] or 0, style)}"
    return item + (f": {row[4]:,} orders" if having and len(row) > 4 else "")


def _order_list_blocks(result: RecordList, style: Style) -> list[B.Block]:
    plan = result.plan
    scope = scope_phrase(plan.filters, style)
    if not result.rows:
        return [B.summary(f"0 {_orders_noun(plan)} {scope}.")]
    if plan.kind == "rank":
        which = "smallest" if plan.order == "asc" else "largest"
        if len(result.rows) == 1:
            r = [fmt_value(v, k, style) for v, k in zip(result.rows[0], result.kinds, strict=True)]
            noun = _orders_noun(plan, 1)
            excluded = _cancelled_sentence(plan, result.cancelled_excluded)
            return [B.summary(f"The {which} {noun} {scope} is {r[0]} ({r[1]}, {r[2]}): {r[3]}, {r[4]}.{excluded}")]
        clause = _cancelled_clause(plan, _cancelled_sentence(plan, result.cancelled_excluded))
        head = f"The {len(result.rows)} {which} {_orders_noun(plan)} {scope}{clause}:"
    else:
        head = f"{result.total:,} {_orders_noun(plan, result.total)} {scope}, {_order_words(style, 'newest first')}:"
    rows = [tuple(fmt_value(v, k, style) for v, k in zip(row, result.kinds, strict=True)) for row in result.rows]
    items = [f"{r[0]} ({r[1]}), {r[2]}, {r[3]}, {r[4]}" for r in rows]
    return _shaped(head, result.columns, rows, items, style, inline=[r[0] for r in rows], total=result.total)


def _peer_blocks(result: RecordList, style: Style) -> list[B.Block]:
    anchor = result.anchor
    fields = [f for f in result.plan.peers]
    # "in the mid-market segment, East region", and a city without "the": "in Phoenix"
    described = ", ".join(f"{anchor[f]} {f}" for f in fields if f != "city")
    places_of = [f"in the {described}"] if described else []
    places_of += [f"in {anchor['city']}"] if "city" in fields else []
    own = f"{anchor['customer']} is {', '.join(places_of)}."
    filters = result.plan.filters
    places = [f"in {' or '.join(filters.cities)}" if filters.city else ""]
    places += [f"in the {filters.region.title()} region" if filters.region else ""]
    places += [f"in the {filters.segment} segment" if filters.segment else ""]
    where = "".join(" " + p for p in places if p)
    if not result.rows:
        return [B.summary(own + f" No other customer{where} shares that.")]
    head = f"{own} Other customers{where} with the same {' and '.join(fields)}:"
    items = [f"{r[0]} ({r[1]})" for r in result.rows]
    rows = [tuple(str(v) for v in r) for r in result.rows]
    return _shaped(head, result.columns, rows, items, style, inline=[r[0] for r in result.rows], every=True)


_SHOWN_KINDS = {"money": "money", "date": "dates"}


def _record_blocks(result: Record, style: Style) -> list[B.Block]:
    # Formatted on a scratch copy, then marked as shown only where the sentence shows them: a
    # payment-terms answer shows no credit limit, so a currency preference has nothing to act on.
    quiet = replace(style, shown=set())
    values = {label: fmt_value(value, kind, quiet) for label, value, kind in result.fields}
    kinds = {label: kind for label, _, kind in result.fields}
    if result.noun == "order":
        # The field asked leads ("the day it was placed": the date first); the rest of the card follows.
        customer, placed, amount, status = (values[k] for k in ("Customer", "Date", "Amount", "Status"))
        leads = {
            "Date": f"placed on {placed} by {customer}, {amount}, status {status}",
            "Status": f"status {status} ({customer}, ordered {placed}, {amount})",
            "Amount": f"{amount} ({customer}, ordered {placed}, status {status})",
        }
        card = f"{customer}, ordered {placed}, {amount}, status {status}"
        sentence = f"{result.title}: {leads.get(result.asked, card)}."
    elif result.asked:
        sentence = _field_sentence(result, values)
    elif result.noun == "contract":
        sentence = (
            f"{possessive(result.title)} current contract: {values['Payment terms']}, "
            f"credit limit {values['Credit limit']}, renews {values['Renewal date']}, signed {values['Signed']}."
        )
    else:
        sentence = (
            f"{result.title} is {_article(values['Segment'])} {values['Segment']} customer in {values['City']} "
            f"({values['Region']} region), "
            f"account {values['Account code']}."
        )
    if result.plan.order_number and result.noun != "order":  # asked of the order its customer placed
        who = f"{result.title} (the customer on order {result.plan.order_number.upper()})"
        rest = sentence[len(result.title) :] if sentence.startswith(result.title) else ""
        if rest.startswith(" "):
            sentence = who + rest
        else:  # "Prairie Mill Foods' current contract: ..."
            sentence = f"Order {result.plan.order_number.upper()} was placed by {result.title}. {sentence}"
    table = style.format in ("table", "detailed") and not result.asked
    for label, text in values.items():
        if kinds[label] in _SHOWN_KINDS and (table or text in sentence):
            style.shown.add(_SHOWN_KINDS[kinds[label]])
    if table:
        return [B.summary(sentence), B.table(("Field", "Value"), [(k, v) for k, v in values.items()])]
    return [B.summary(sentence)]


def _field_sentence(result: Record, values: dict[str, str]) -> str:
    name, asked = result.title, result.asked
    value = values[asked]
    sentences = {
        "Payment terms": f"{name} pays on {value} (current contract, signed {values.get('Signed', '')}).",
        "Credit limit": f"{name} has a credit limit of {value} (current contract).",
        "Renewal date": f"{possessive(name)} contract renews on {value}.",
        "Signed": f"{possessive(name)} current contract was signed on {value}.",
        "Segment": f"{name} is in the {value} segment.",
        "City": f"{name} is based in {value} ({values.get('Region', '')} region).",
        "Region": f"{name} is in the {value} region.",
        "Account code": f"{possessive(name)} account code is {value}.",
    }
    return sentences.get(asked, f"{name}: {asked.lower()} {value}.")


def _quote_blocks(result: Quotes, style: Style) -> list[B.Block]:
    if not result.passages:
        return [B.summary("No document in the records matches that.")]
    limit = 1 if style.format == "short" else 3 if style.format == "detailed" else 2
    out = [B.summary("From the company's documents:")]
    out += [B.quote(p.title, p.text) for p in result.passages[:limit]]
    return out


# --- conflicts between a recalled note and the contract -------------------------------------------

_NET_DAYS = re.compile(r"\bnet[\s-]*(\d{1,3})\b|\b(\d{1,3})[\s-]*days?\b", re.IGNORECASE)


def _note_month(note: Any) -> str:
    when = getattr(note, "source_at", None) or note.written_at
    when = timezone.localtime(when) if timezone.is_aware(when) else when
    return f"{when:%B}" if when.year == timezone.localdate().year else f"{when:%B %Y}"


_AMOUNT = re.compile(r"\$?\s?(\d[\d,]*(?:\.\d+)?)\s?(k|m|thousand|million)?\b", re.IGNORECASE)


def _noted_terms(text: str, context: str) -> str:
    """Payment terms a note states ("net 90", "60 days"): the number from the note, the field
    named in the note or in the question it corrected (``context``)."""
    found = _NET_DAYS.search(text)
    if found is None or not re.search(r"\b(net|terms|payment|pays?|days)\b", context, re.IGNORECASE):
        return ""
    return f"net {int(found.group(1) or found.group(2))}"


def _noted_limit(text: str, context: str) -> Decimal | None:
    """A credit limit a note states ("slashed it to $5k"): the amount from the note, the field
    named in the note or in the question it corrected (``context``)."""
    if not re.search(r"\b(limit|credit)\b", context, re.IGNORECASE):
        return None
    for match in _AMOUNT.finditer(text):
        scale = (match.group(2) or "").lower()
        value = Decimal(match.group(1).replace(",", "")) * {"k": 1000, "thousand": 1000}.get(
            scale, 1_000_000 if scale in ("m", "million") else 1
        )
        if value >= 100:  # a limit, not a count of days
            return value
    return None


_MONTH_ABBREVIATIONS = {m.lower(): n for n, m in enumerate(calendar.month_abbr) if m}
_NOTED_DATE = re.compile(
    r"\b(?:(?P<day>\d{1,2})(?:st|nd|rd|th)?\s+)?(?P<month>jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?"
    r"\s+(?:(?P<day2>\d{1,2})(?:st|nd|rd|th)?,?\s+)?(?P<year>\d{4})\b"
    r"|\b(?P<iso_year>\d{4})-(?P<iso_month>\d{2})-(?P<iso_day>\d{2})\b"
    r"|\b(?P<first>\d{1,2})/(?P<second>\d{1,2})/(?P<slash_year>\d{4})\b",
    re.IGNORECASE,
)


def _noted_renewal(text: str, context: str, recorded: date, *, asked: bool = False) -> str:
    """A renewal a note states ("renews dec 2028 now", "its 2027-12-14 now") other than the
    recorded one: the phrase for the sentence, or "". The renewal is named in the note or in the
    question it corrected (``context``), or is what this answer was asked (``asked``)."""
    if not asked and not re.search(r"\b(?:renew\w*|expir\w*|extension|extended)\b", context, re.IGNORECASE):
        return ""
    for match in _NOTED_DATE.finditer(text):
        if match.group("slash_year"):
            # "31/10/2029" or "3/15/2028": either order of day and month; it differs when neither is the record's
            first, second, year = int(match["first"]), int(match["second"]), int(match["slash_year"])
            if year == recorded.year and (first, second) in (
                (recorded.day, recorded.month),
                (recorded.month, recorded.day),
            ):
                continue
            return f"on {match.group(0)}"
        if match.group("iso_year"):
            year, month, day = int(match["iso_year"]), int(match["iso_month"]), int(match["iso_day"])
        else:
            year, month = int(match["year"]), _MONTH_ABBREVIATIONS[match["month"][:3].lower()]
            day = int(match["day"] or match["day2"] or 0)
        if not 1 <= month <= 12 or (year, month) == (recorded.year, recorded.month) and day in (0, recorded.day):
            continue
        return f"on {day} {calendar.month_abbr[month]} {year}" if day else f"in {calendar.month_name[month]} {year}"
    return ""


# A place said as where a customer is now: "in", "to", "at" or "based in" before it.
_WHERE = ("in", "to", "at", "into")


def _noted_place(text: str, recorded: str) -> str:
    """A city a note puts the customer in ("theyre in fort worth now", "moved HQ to eugene") other
    than the recorded one; a place only left ("they left portland") is not where they are."""
    from atlas.lexicon import cities, words

    tokens = ["saint" if w in ("st", "ste") else w for w in words(text)]  # "st paul" is Saint Paul
    table = cities()
    for size in (3, 2, 1):
        for start in range(1, len(tokens) - size + 1):
            name = table.get(tuple(tokens[start : start + size]))
            if name and tokens[start - 1] in _WHERE and name.lower() != recorded.lower():
                return name
    return ""


def _noted_region(text: str, recorded: str) -> str:
    from chat.models import Region

    for region in Region:
        said = re.search(rf"\b(?:in|to|into) the {region.value}\b", text, re.IGNORECASE)
        if said and region.label.lower() != recorded.lower():
            return region.label
    return ""


def _about(note: Any, customer: str, corrected: str) -> bool:
    """Whether a note is about this customer: it names it, or (a correction that says "their
    limit") the question it corrected (``corrected``) named it, and no other customer."""
    from chat.tools import find_customer_mentions

    mentions = find_customer_mentions(note.statement)
    if not mentions and note.kind == "correction":
        mentions = find_customer_mentions(corrected)
    names = {m.name for m in mentions}
    return customer in names and (len(names) == 1 or any(m.exact and m.name == customer for m in mentions))


def _corrected_question(note: Any) -> str:
    from chat.models import Turn

    if note.kind != "correction" or not getattr(note, "source_turn", None):
        return ""
    turn = Turn.objects.filter(pk=note.source_turn).values("question", "session_id").first()
    if turn is None:
        return ""
    # a correction typed in the chat ("hmm no, it runs thru june 2030 now") corrects the question before it
    before = (
        Turn.objects.filter(session_id=turn["session_id"], pk__lt=note.source_turn)
        .order_by("-pk")
        .values_list("question", flat=True)
        .first()
    )
    return f"{turn['question']} {before or ''}".strip()


def _noted_against(note: Any, result: Record, fields: dict[str, Any], style: Style, corrected: str) -> str:
    """What the note says of a field this record shows, where it differs from the record: the
    phrase for the sentence, or "". The field is named in the note or in the question it corrected
    ("credit limit?" corrected by "no, they slashed it to $5k")."""
    text = note.statement
    context = f"{text} {corrected}"
    if "Payment terms" in fields:
        terms = _noted_terms(text, context)
        if terms and terms != str(fields["Payment terms"]).lower().strip():
            return terms
    if fields.get("Credit limit") is not None:
        limit = _noted_limit(text, context)
        if limit is not None and limit != Decimal(str(fields["Credit limit"])):
            return f"a credit limit of {fmt_money(limit, style)}"
    if isinstance(fields.get("Renewal date"), date):
        renews = _noted_renewal(text, context, fields["Renewal date"], asked=result.asked == "Renewal date")
        if renews:
            return f"the contract renews {renews}"
    if "City" in fields:
        place = _noted_place(text, str(fields["City"]))
        if place:
            return f"{result.title} is in {place}"
    if "Region" in fields:
        region = _noted_region(text, str(fields["Region"]))
        if region:
            return f"{result.title} is in the {region} region"
    return ""


def record_conflicts(results: tuple[Any, ...], notes: tuple[Any, ...], style: Style) -> list[tuple[Any, str]]:
    """Recalled notes that state another value (payment terms, credit limit, city, region) for a
    field of a customer or contract the answer shows, each with the sentence that says so: the
    records win over the user's notes (design rule "the corpus wins")."""
    out: list[tuple[Any, str]] = []
    records = [r for r in results if isinstance(r, Record) and r.noun in ("contract", "customer")]
    if not records:
        return out
    # the question each correction corrected, read once per answer (one query per correction)
    corrected = {id(n): _corrected_question(n) for n in notes if n.kind == "correction"}
    for result in records:
        fields = {label: value for label, value, _ in result.fields if not result.asked or label == result.asked}
        record = "contract" if result.noun == "contract" else "customer record"
        for note in notes:
            question = corrected.get(id(note), "")
            if note.kind not in ("correction", "context") or not _about(note, result.title, question):
                continue
            said = _noted_against(note, result, fields, style, question)
            if said:
                out.append(
                    (note, f"A note from {_note_month(note)} said {said}, which no longer matches the {record}.")
                )
    return out


# --- the offline responder ----------------------------------------------------------------------


def named_customers(results: tuple[Any, ...]) -> list[str]:
    """The customers an answer names, in the order it names them."""
    names: list[str] = []
    for result in results:
        if isinstance(result, Record) and result.noun in ("customer", "contract"):
            names.append(result.title)
        elif isinstance(result, Record) and result.noun == "order":
            names += [str(v) for label, v, _ in result.fields if label == "Customer"]
        elif isinstance(result, RecordList) and result.noun in ("customer", "contract"):
            names += [str(r[0]) for r in result.rows]
        elif isinstance(result, RecordList) and result.noun == "order":
            names += [str(r[1]) for r in result.rows]
        elif isinstance(result, Ranking) and result.plan.group_by == "customer":
            names += [r.label for r in result.rows]
        elif isinstance(result, Figure):
            names += [c.name for c in result.plan.filters.customers]
    return list(dict.fromkeys(names))


def holds_of(results: tuple[Any, ...], style: Style) -> Holds:
    """What an answer showed for a preference to act on: read from what was formatted."""
    return Holds(
        money="money" in style.shown,
        dates="dates" in style.shown,
        rows="list" in style.shown,
        records=bool(named_customers(results)),
        abstained=not results,
    )


def included_fields(results: tuple[Any, ...], style: Style) -> list[B.Block]:
    """The fields a user asked to see beside each customer the answer names (account code,
    city, renewal date, ...), one line per field."""
    names = named_customers(results)
    if not style.include or not names:
        return []
    out = []
    for label, values in field_values(names[:50], style.include):
        shown = "; ".join(f"{customer} {fmt_value(value, kind, style)}" for customer, value, kind in values)
        if shown:
            out.append(B.note(f"{label}: {shown}."))
    return out


def fit_words(blocks: list[B.Block], max_words: int) -> list[B.Block]:
    """The answer within a word budget (a preference for short answers with a bound): the
    first sentence whole, then as much of the rest as fits, cut at a word and marked."""
    out: list[B.Block] = []
    used = 0
    for block in blocks:
        text = B.block_text(block)
        words = len(text.split())
        if used + words <= max_words:
            out.append(block)
            used += words
            continue
        room = max_words - used
        if room >= 4 and block.kind in ("summary", "note", "quote"):
            cut = " ".join(block.text.split()[: room - (2 if block.kind == "quote" else 0)])
            out.append(replace(block, text=cut.rstrip(",;:") + " \u2026"))
        break
    return out or blocks[:1]


def compose(prompt: Prompt, results: tuple[Any, ...], abstention: Abstention | None) -> Answer:
    """The deterministic answer: the results rendered, or the abstention, plus side notes; the
    user's preferences applied or declined, each note's use recorded."""
    style = style_for(prompt.preferences, prompt.format)
    blocks: list[B.Block] = []
    if abstention is not None:
        blocks = render_abstention(abstention, brief=style.format == "short")
    for result in results:
        rendered = render_result(result, style)
        said = verdict(result)
        if said is not None and rendered and rendered[0].kind == "summary":
            # Asked yes or no: answered yes or no first, then what the records hold.
            rendered[0] = replace(rendered[0], text=f"{'Yes' if said else 'No'}: {rendered[0].text}")
        blocks.extend(rendered)
    if not blocks:
        blocks = render_abstention(Abstention(vocab.NO_PLAN_REASON))
    blocks.extend(included_fields(results, style))
    settle(style, holds_of(results, style))
    uses = dict(style.uses)
    for note, sentence in record_conflicts(results, prompt.notes, style):
        blocks.append(B.note(sentence))
        uses[note.memory_id] = Use(Influence.OUT_OF_DATE, sentence)
    blocks.extend(B.note(sentence) for sentence in style.declines)
    if style.max_words:
        blocks = fit_words(blocks, style.max_words)
    return Answer(text=B.blocks_text(blocks), blocks=tuple(blocks), influences=uses, results=results)


class OfflineResponder:
    """Deterministic answers rendered from the results the turn's plan produced."""

    name = "offline"

    def respond(self, prompt: Prompt) -> Answer:
        return compose(prompt, prompt.results, prompt.abstention)


def get_responder() -> Responder:
    """The tool-calling model responder when ``ATLAS_LLM_BASE_URL`` is set, else the offline one."""
    from django.conf import settings

    if getattr(settings, "ATLAS_LLM_BASE_URL", ""):
        from chat.llm import OpenAICompatibleResponder

        return OpenAICompatibleResponder.from_settings()
    return OfflineResponder()
