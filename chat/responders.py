"""Responders: typed results in, typed answer blocks out, behind one interface.

The default is offline and deterministic: it renders the plan executors' results
(:mod:`chat.executors`) as a summary line plus a table or bullet list, honouring the format
slot (short, detailed, table) and the preferences it can honour from recalled notes (units,
currency display, date format, bullet points). When no plan fits, it abstains in one plain
sentence that says what Atlas can answer and asserts no figure. When a recalled note
conflicts with the contract it answers from the contract and says the note is out of date
(chapter 93). With ``ATLAS_LLM_BASE_URL`` set, :mod:`chat.llm` offers the same executors
to a model as tools instead.

Escaping is the template's job: blocks hold plain text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from datetime import date, datetime
from decimal import Decimal, InvalidOperation
from typing import Any, Protocol

from django.utils import timezone

from chat import blocks as B
from chat import vocabulary as vocab
from chat.executors import Figure, Missing, Quotes, Ranking, Record, RecordList, Result
from chat.planner import Abstention, Filters, QueryPlan
from chat.prompt import Prompt

SHAPED_FORMAT = "shaped-format"
NARROWED_RETRIEVAL = "narrowed-retrieval"
IN_CONTEXT = "in-context"
ROWS_SHOWN = {"": 10, "short": 0, "detailed": 25, "table": 25}

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
    vocab.UNKNOWN_CUSTOMER_REASON: "I can't answer that: no customer called \u201c{topic}\u201d is on record.",
    vocab.NEEDS_CUSTOMER_REASON: "I can't look up a {topic} without a customer: which customer do you mean?",
    vocab.UNREAD_WORD_REASON: (
        "I can't answer that: I don't know how to read \u201c{topic}\u201d in this question, and an answer "
        "that ignored it would answer a different question."
    ),
}


class ResponderError(RuntimeError):
    """The responder could not produce an answer (endpoint down, bad reply)."""


@dataclass(frozen=True)
class Answer:
    text: str
    blocks: tuple[B.Block, ...] = ()
    # memory_id -> how the note shaped this answer (shaped-format / in-context)
    influences: dict[int, str] = field(default_factory=dict)
    responder: str = "offline"
    results: tuple[Any, ...] = ()  # what the executors returned (the LLM path fills it)


class Responder(Protocol):
    name: str

    def respond(self, prompt: Prompt) -> Answer: ...


# --- preferences the offline responder can honour ----------------------------------------------


@dataclass
class Style:
    format: str = ""  # "" | short | detailed | table
    bullets: bool = False
    iso_dates: bool = False
    scale: str = ""  # "" | "k" | "m"
    currency_code: bool = False  # "USD 1,200.00" rather than "$1,200.00"
    currency_wanted: str = ""  # a currency the user asked for that the data is not in
    shaped_by: set[int] = field(default_factory=set)


_CURRENCY_WORDS = {
    "eur": "EUR",
    "euro": "EUR",
    "euros": "EUR",
    "€": "EUR",
    "gbp": "GBP",
    "pound": "GBP",
    "pounds": "GBP",
    "sterling": "GBP",
    "£": "GBP",
    "usd": "USD",
    "dollar": "USD",
    "dollars": "USD",
}
_SYMBOLS = {"USD": "$", "EUR": "€", "GBP": "£"}


def style_from(notes: tuple[Any, ...], fmt: str, *, has_money: bool, has_rows: bool) -> Style:
    """The answer's shape: the session's format slot first, then the user's preference notes."""
    style = Style(format=fmt)
    for note in notes:
        if getattr(note, "kind", "") != "preference" or getattr(note, "declines", False):
            continue  # "Does not want tables" names a format only to leave it out
        if getattr(note, "scope", "global") != "global":
            continue  # "tables in answers about renewals" is no format for every answer
        subject, value = getattr(note, "subject", ""), getattr(note, "value", "")
        if subject in _STRUCTURED and value:
            # The gate stored what the preference is about and its value: no re-parsing.
            if _STRUCTURED[subject](style, value, has_money=has_money, has_rows=has_rows):
                style.shaped_by.add(note.memory_id)
            continue
        text = note.statement.lower()
        shaped = _format_preference(style, text, has_rows=has_rows)
        if re.search(r"\bbullet", text) and has_rows:
            style.bullets = shaped = True
        if re.search(r"yyyy-mm-dd|\biso\b|iso 8601|year-month-day", text):
            style.iso_dates = shaped = True
        if has_money and re.search(r"\b(in thousands|thousands|in k)\b", text):
            style.scale, shaped = "k", True
        elif has_money and re.search(r"\b(in millions|millions)\b", text):
            style.scale, shaped = "m", True
        shaped = _currency_preference(style, text, has_money=has_money) or shaped
        if shaped:
            style.shaped_by.add(note.memory_id)
    return style


def _answer_format(style: Style, value: str, *, has_money: bool, has_rows: bool) -> bool:
    if not has_rows:
        return False
    if value == "bullets":
        style.bullets = True
        return True
    if value == "table" and not style.format:
        style.format = "table"
        return True
    return False


def _answer_length(style: Style, value: str, *, has_money: bool, has_rows: bool) -> bool:
    if style.format or value not in ("short", "detailed"):
        return False
    style.format = value
    return True


def _date_format(style: Style, value: str, *, has_money: bool, has_rows: bool) -> bool:
    style.iso_dates = value == "ISO"
    return style.iso_dates


def _scale(style: Style, value: str, *, has_money: bool, has_rows: bool) -> bool:
    scale = {"thousands": "k", "millions": "m"}.get(value, "")
    if not (has_money and scale):
        return False
    style.scale = scale
    return True


def _currency(style: Style, value: str, *, has_money: bool, has_rows: bool) -> bool:
    if not has_money:
        return False
    if value != "USD":  # the records are in US dollars: say so rather than convert
        style.currency_wanted = value
        return False
    style.currency_code = True
    return True


# A preference's subject (memory.gate's structured preferences) -> how it shapes the answer.
_STRUCTURED = {
    "answer_format": _answer_format,
    "answer_length": _answer_length,
    "date_format": _date_format,
    "scale": _scale,
    "currency": _currency,
}


def _format_preference(style: Style, text: str, *, has_rows: bool) -> bool:
    if style.format:
        return False
    # "the margin column in every table" asks for a column, not for tables.
    if re.search(r"(?<!every )(?<!each )(?<!any )(?<!all )\btables?\b", text) and has_rows:
        style.format = "table"
    elif re.search(r"\b(short|brief|concise)\b", text):
        style.format = "short"
    elif re.search(r"\b(detail|detailed|thorough|in full)\b", text):
        style.format = "detailed"
    else:
        return False
    return True


def _currency_preference(style: Style, text: str, *, has_money: bool) -> bool:
    for word in re.findall(r"[a-z€£$]+", text):
        code = _CURRENCY_WORDS.get(word)
        if code and has_money and re.search(r"\b(currency|amounts?|money|figures|prices?|in)\b", text):
            if code != "USD":
                style.currency_wanted = code
                return False
            style.currency_code = True
            return True
    return False


# --- formatting ---------------------------------------------------------------------------------


def fmt_date(value: Any, style: Style) -> str:
    if isinstance(value, datetime):
        value = value.date()
    if isinstance(value, str):
        try:
            value = date.fromisoformat(value[:10])
        except ValueError:
            return value
    if not isinstance(value, date):
        return str(value or "")
    return value.isoformat() if style.iso_dates else f"{value.day} {value:%b %Y}"


def fmt_money(value: Any, style: Style, currency: str = "USD") -> str:
    try:
        amount = Decimal(str(value))
    except (InvalidOperation, ValueError):
        return f"{value} {currency}".strip()
    if style.scale == "k":
        number = f"{amount / 1000:,.1f}k"
    elif style.scale == "m":
        number = f"{amount / 1_000_000:,.2f}m"
    else:
        number = f"{amount:,.2f}"
    if style.currency_code or currency not in _SYMBOLS:
        return f"{currency} {number}"
    return f"{_SYMBOLS[currency]}{number}"


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


def scope_phrase(filters: Filters, style: Style, *, with_customers: bool = True, dated: bool = True) -> str:
    """Where a figure comes from, in words: every filter it was computed under, and only those."""
    parts = []
    if with_customers and filters.customers:
        parts.append("for " + _names([c.name for c in filters.customers]))
    if filters.city:
        parts.append(f"in {filters.city}")
    if filters.region:
        parts.append(f"in the {filters.region.title()} region")
    if filters.segment:
        parts.append(f"in the {filters.segment} segment")
    if filters.min_amount is not None:
        parts.append(f"over {fmt_money(filters.min_amount, style)}")
    if filters.max_amount is not None:
        parts.append(f"under {fmt_money(filters.max_amount, style)}")
    if filters.exclude_status:
        parts.append(f"excluding {filters.exclude_status} orders")
    if filters.period is not None:
        span = f"{fmt_date(filters.period.start, style)} to {fmt_date(filters.period.end, style)}"
        label = filters.period.label
        bare = label.startswith(("from ", "since ", "last ", "this ", "next ", "today", "yesterday"))
        parts.append(f"{label} ({span})" if bare else f"in {label} ({span})")
    elif dated:
        parts.append("across all dates")
    return " ".join(parts)


def _orders_noun(plan: QueryPlan, count: int | None = None) -> str:
    noun = "order" if count == 1 else "orders"
    return f"{plan.filters.status} {noun}" if plan.filters.status else noun


# --- rendering results --------------------------------------------------------------------------


def render_abstention(abstention: Abstention) -> list[B.Block]:
    sentence = ABSTENTIONS.get(abstention.reason, ABSTENTIONS[vocab.NO_PLAN_REASON])
    topic = abstention.topic or "that"
    if abstention.reason == vocab.NO_FIELD_REASON:
        topic = _plural(topic)
    return [B.summary(sentence.format(topic=topic) + " " + CAN_ANSWER)]


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
    excluded = " Cancelled orders are left out, as in revenue." if result.cancelled_excluded else ""
    if result.measure == "count":
        value = int(result.value)
        if plan.subject == "customers":
            having = _having_phrase(plan, style)
            scope = scope_phrase(plan.filters, style, dated=bool(having) and not plan.terms)
            text = f"{value:,} customer{'s' if value != 1 else ''} {having}{scope}."
            return text.replace("  ", " ").replace(" .", ".")
        if plan.subject == "contracts":
            return f"{value:,} contract{'s' if value != 1 else ''} renew {scope}."
        return f"{value:,} {_orders_noun(plan, value)} {scope}."
    money = fmt_money(result.value, style)
    if plan.subject == "contracts":
        return _contract_figure_sentence(result, style, money)
    orders = f"{result.orders:,} order{'s' if result.orders != 1 else ''}"
    if result.measure == "average":
        return f"The average {_orders_noun(plan, 1)} {scope} is {money} (over {orders}).{excluded}"
    return f"{_orders_noun(plan).capitalize()} {scope} total {money} ({orders}).{excluded}"


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
        bounds = [f"more than {fmt_money(plan.min_total, style)}"] if plan.min_total is not None else []
        bounds += [f"less than {fmt_money(plan.max_total, style)}"] if plan.max_total is not None else []
        kept = "" if plan.filters.status else " (cancelled orders left out)"
        return f"whose {_orders_noun(plan)} total {' and '.join(bounds)}{kept} "
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
    excluded = " Cancelled orders are left out." if ranking.cancelled_excluded else ""
    rows = ranking.rows
    if not rows:
        return [B.summary(f"No {_orders_noun(plan)} {scope}, so there is nothing to rank.")]
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
        lead = "; ".join(f"{r.label} {_rank_value(ranking, r.value, style)}" for r in rows)
        head = f"{_metric(ranking).capitalize()} {scope}: {lead}.{excluded}"
    elif plan.kind == "rank":
        which = "Bottom" if plan.order == "asc" else "Top"
        head = f"{which} {len(rows)} {group} by {_metric(ranking)} {scope}:{excluded}"
        if plan.limit and len(rows) > plan.limit:  # a tie at the last place asked for
            tie = f"with a tie reaching place {plan.limit}, so {len(rows)} are shown"
            head = f"{which} {plan.limit} {group} by {_metric(ranking)} {scope}, {tie}:{excluded}"
    else:
        head = f"{_metric(ranking).capitalize()} by {plan.group_by} {scope}:{excluded}"
    table_rows: list[tuple[str, ...]] = [(r.label, _rank_value(ranking, r.value, style), f"{r.orders:,}") for r in rows]
    header = (plan.group_by.capitalize() or "Status", _metric(ranking).capitalize(), "Orders")
    places = list(range(1, len(rows) + 1))
    if plan.kind == "rank":  # tied values share a place: 1, 2, 2, 4
        places = [next(j for j, o in enumerate(rows, 1) if o.value == r.value) for r in rows]
    items = [f"{p}. {r.label}: {_rank_value(ranking, r.value, style)}" for p, r in zip(places, rows, strict=True)]
    # A breakdown ("order count city by city") shows every group; a top N is already cut.
    return _shaped(head, header, table_rows, items, style, inline=[r.label for r in rows], every=not plan.limit)


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
        shown = inline if every else inline[:12]
        more = f" and {len(inline) - len(shown)} more" if len(inline) > len(shown) else ""
        return [B.summary(f"{head.rstrip(':')}: {', '.join(shown)}{more}." if shown else head)]
    limit = 200 if every else ROWS_SHOWN.get(style.format, 10)
    out = [B.summary(head)]
    if style.format in ("table", "detailed") and not style.bullets:
        out.append(B.table(header, rows[:limit]))
    else:
        out.append(B.bullets(items[:limit]))
    hidden = (total if total is not None else len(rows)) - min(limit, len(rows))
    if hidden > 0:
        out.append(B.note(f"{hidden:,} more not shown."))
    return out


def _list_blocks(result: RecordList, style: Style) -> list[B.Block]:
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
    elif result.noun == "contract":
        scope = scope_phrase(plan.filters, style).replace("across all dates", "on record")
        if not result.rows:
            return [B.summary(f"No contracts renew {scope}.")]
        head = f"{result.total:,} contract{'s' if result.total != 1 else ''} renew {scope}:"
        items = [f"{r[0]}: renews {fmt_date(r[1], style)} ({r[2]})" for r in result.rows]
        inline = [f"{r[0]} ({fmt_date(r[1], style)})" for r in result.rows]
    else:
        return _order_list_blocks(result, style)
    rows = [tuple(fmt_value(v, k, style) for v, k in zip(row, result.kinds, strict=True)) for row in result.rows]
    return _shaped(head, result.columns, rows, items, style, inline=inline, total=result.total, every=True)


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
            return [B.summary(f"The {which} {noun} {scope} is {r[0]} ({r[1]}, {r[2]}): {r[3]}, {r[4]}.")]
        head = f"The {len(result.rows)} {which} {_orders_noun(plan)} {scope}:"
    else:
        head = f"{result.total:,} {_orders_noun(plan, result.total)} {scope}, newest first:"
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
    places = [f"in {filters.city}" if filters.city else ""]
    places += [f"in the {filters.region.title()} region" if filters.region else ""]
    places += [f"in the {filters.segment} segment" if filters.segment else ""]
    where = "".join(" " + p for p in places if p)
    if not result.rows:
        return [B.summary(own + f" No other customer{where} shares that.")]
    head = f"{own} Other customers{where} with the same {' and '.join(fields)}:"
    items = [f"{r[0]} ({r[1]})" for r in result.rows]
    rows = [tuple(str(v) for v in r) for r in result.rows]
    return _shaped(head, result.columns, rows, items, style, inline=[r[0] for r in result.rows], every=True)


def _record_blocks(result: Record, style: Style) -> list[B.Block]:
    values = {label: fmt_value(value, kind, style) for label, value, kind in result.fields}
    if result.noun == "order":
        sentence = (
            f"{result.title}: {values['Customer']}, ordered {values['Date']}, {values['Amount']}, "
            f"status {values['Status']}."
        )
    elif result.asked:
        sentence = _field_sentence(result, values)
    elif result.noun == "contract":
        sentence = (
            f"{result.title}'s current contract: {values['Payment terms']}, credit limit {values['Credit limit']}, "
            f"renews {values['Renewal date']}."
        )
    else:
        sentence = (
            f"{result.title} is a {values['Segment']} customer in {values['City']} ({values['Region']} region), "
            f"account {values['Account code']}."
        )
    if style.format in ("table", "detailed") and not result.asked:
        return [B.summary(sentence), B.table(("Field", "Value"), [(k, v) for k, v in values.items()])]
    return [B.summary(sentence)]


def _field_sentence(result: Record, values: dict[str, str]) -> str:
    name, asked = result.title, result.asked
    value = values[asked]
    sentences = {
        "Payment terms": f"{name} pays on {value} (current contract, signed {values.get('Signed', '')}).",
        "Credit limit": f"{name} has a credit limit of {value} (current contract).",
        "Renewal date": f"{name}'s contract renews on {value}.",
        "Signed": f"{name}'s current contract was signed on {value}.",
        "Segment": f"{name} is in the {value} segment.",
        "City": f"{name} is based in {value} ({values.get('Region', '')} region).",
        "Region": f"{name} is in the {value} region.",
        "Account code": f"{name}'s account code is {value}.",
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


def _name_words(name: str) -> set[str]:
    generic = {"the", "and", "co", "inc", "group", "company", "services", "supply"}
    return {w for w in re.findall(r"[a-z0-9]+", name.lower()) if len(w) > 2 and w not in generic}


def _note_month(note: Any) -> str:
    when = getattr(note, "source_at", None) or note.written_at
    when = timezone.localtime(when) if timezone.is_aware(when) else when
    return f"{when:%B}" if when.year == timezone.localdate().year else f"{when:%B %Y}"


def payment_term_conflicts(results: tuple[Any, ...], notes: tuple[Any, ...]) -> list[tuple[Any, str]]:
    """Recalled notes stating other payment terms for a customer whose contract is in the
    results, each with the sentence that says so. The contract wins (chapter 93)."""
    out = []
    for result in results:
        if not isinstance(result, Record) or result.noun != "contract":
            continue
        terms = next((str(v) for label, v, _ in result.fields if label == "Payment terms"), "")
        match = _NET_DAYS.search(terms)
        if not match:
            continue
        days = int(match.group(1) or match.group(2))
        for note in notes:
            found = _NET_DAYS.search(note.statement)
            words = set(re.findall(r"[a-z0-9]+", note.statement.lower()))
            if not found or not re.search(r"\b(net|terms|payment|pays|days)\b", note.statement, re.IGNORECASE):
                continue
            if not _name_words(result.title) <= words:
                continue
            noted = int(found.group(1) or found.group(2))
            if noted != days:
                sentence = f"A note from {_note_month(note)} said net {noted}, which no longer matches the contract."
                out.append((note, sentence))
    return out


# --- the offline responder ----------------------------------------------------------------------


def _has_money(results: tuple[Any, ...]) -> bool:
    for result in results:
        if isinstance(result, Figure) and result.measure != "count":
            return True
        if isinstance(result, Ranking) and result.measure != "count":
            return True
        if isinstance(result, RecordList) and "money" in result.kinds:
            return True
        if isinstance(result, Record) and any(kind == "money" for *_, kind in result.fields):
            return True
    return False


def _has_rows(results: tuple[Any, ...]) -> bool:
    return any(isinstance(r, (Ranking, RecordList)) and len(r.rows) > 1 for r in results)


def compose(prompt: Prompt, results: tuple[Any, ...], abstention: Abstention | None) -> Answer:
    """The deterministic answer: the results rendered, or the abstention, plus side notes."""
    style = style_from(prompt.notes, prompt.format, has_money=_has_money(results), has_rows=_has_rows(results))
    blocks: list[B.Block] = []
    if abstention is not None:
        blocks = render_abstention(abstention)
    for result in results:
        blocks.extend(render_result(result, style))
    if not blocks:
        blocks = render_abstention(Abstention(vocab.NO_PLAN_REASON))
    for _, sentence in payment_term_conflicts(results, prompt.notes):
        blocks.append(B.note(sentence))
    if style.currency_wanted:
        blocks.append(
            B.note(
                f"Amounts are shown in USD as recorded; Atlas has no exchange rates to show them in "
                f"{style.currency_wanted}."
            )
        )
    influences = {n.memory_id: SHAPED_FORMAT if n.memory_id in style.shaped_by else IN_CONTEXT for n in prompt.notes}
    return Answer(text=B.blocks_text(blocks), blocks=tuple(blocks), influences=influences, results=results)


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
