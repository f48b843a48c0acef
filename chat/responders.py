"""Responders: turn an assembled prompt into an answer, behind one interface.

The default is offline and deterministic: it composes a grounded answer from the tool results
and passages in the prompt, honours the format slot (short, detailed, table) and the
preferences it can honour from recalled notes (units, currency display, date format, bullet
points). When a recalled note conflicts with the corpus it answers from the corpus and says
the note is out of date (chapter 93: "a note from March said 30 days, which no longer matches
the contract"). With ``ATLAS_LLM_BASE_URL`` set, the same prompt goes to any OpenAI-compatible
chat endpoint instead.

Answers are plain text with "- " bullets and pipe-separated table rows; escaping is the
template's job.
"""

from __future__ import annotations

import json
import os
import re
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from datetime import date, datetime
from decimal import Decimal, InvalidOperation
from typing import Any, Protocol

from django.conf import settings
from django.utils import timezone

from chat.prompt import Prompt, ToolCall

SHAPED_FORMAT = "shaped-format"
NARROWED_RETRIEVAL = "narrowed-retrieval"
IN_CONTEXT = "in-context"


class ResponderError(RuntimeError):
    """The responder could not produce an answer (endpoint down, bad reply)."""


@dataclass(frozen=True)
class Answer:
    text: str
    # memory_id -> how the note shaped this answer (shaped-format / in-context)
    influences: dict[int, str] = field(default_factory=dict)
    responder: str = "offline"


class Responder(Protocol):
    name: str

    def respond(self, prompt: Prompt) -> Answer: ...


# --- preferences the offline responder can honour ---------------------------------------------


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


def style_from(prompt: Prompt) -> Style:
    """The answer's shape: the session's format slot first, then the user's preference notes."""
    style = Style(format=prompt.format)
    for note in prompt.notes:
        if getattr(note, "kind", "") != "preference":
            continue
        text = note.statement.lower()
        shaped = False
        if not style.format:
            if re.search(r"\btables?\b", text) and (
                "order" not in text or any(c.name == "list_orders" and c.ok for c in prompt.tool_calls)
            ):
                style.format, shaped = "table", True
            elif re.search(r"\b(short|brief|concise)\b", text):
                style.format, shaped = "short", True
            elif re.search(r"\b(detail|detailed|thorough|in full)\b", text):
                style.format, shaped = "detailed", True
        if re.search(r"\bbullet", text):
            style.bullets, shaped = True, True
        if re.search(r"yyyy-mm-dd|\biso\b|iso 8601|year-month-day", text):
            style.iso_dates, shaped = True, True
        if re.search(r"\b(in thousands|thousands|in k)\b", text):
            style.scale, shaped = "k", True
        elif re.search(r"\b(in millions|millions)\b", text):
            style.scale, shaped = "m", True
        for word in re.findall(r"[a-z€£$]+", text):
            code = _CURRENCY_WORDS.get(word)
            if code and re.search(r"\b(currency|amounts?|money|figures|prices?|in)\b", text):
                data_currency = _data_currency(prompt)
                if data_currency and code != data_currency:
                    style.currency_wanted = code
                elif data_currency:
                    style.currency_code, shaped = True, True
                break
        if shaped:
            style.shaped_by.add(note.memory_id)
    return style


def _data_currency(prompt: Prompt) -> str:
    """The currency the answer's figures are recorded in (orders, or a contract's credit limit)."""
    for call in prompt.tool_calls:
        for order in _orders(call):
            if order.get("currency"):
                return str(order["currency"])
        if call.ok and isinstance(call.data, dict) and call.data.get("credit_limit") is not None:
            return str(call.data.get("currency") or "USD")
    return ""


# --- formatting ---------------------------------------------------------------------------------


def fmt_date(value: Any, style: Style) -> str:
    parsed = _as_date(value)
    if parsed is None:
        return str(value or "")
    if style.iso_dates:
        return parsed.isoformat()
    return f"{parsed.day} {parsed:%b %Y}"


def _as_date(value: Any) -> date | None:
    if isinstance(value, datetime):
        return value.date()
    if isinstance(value, date):
        return value
    if isinstance(value, str):
        try:
            return date.fromisoformat(value[:10])
        except ValueError:
            return None
    return None


def fmt_money(value: Any, currency: str, style: Style) -> str:
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
    currency = currency or "USD"
    if style.currency_code or currency not in _SYMBOLS:
        return f"{currency} {number}"
    return f"{_SYMBOLS[currency]}{number}"


def _lines(items: list[str], style: Style) -> str:
    return "\n".join(f"- {item}" for item in items)


def _table(header: list[str], rows: list[list[str]]) -> str:
    out = [" | ".join(header), " | ".join("---" for _ in header)]
    out.extend(" | ".join(cell.replace("|", "/") for cell in row) for row in rows)
    return "\n".join(out)


# --- reading tool results -------------------------------------------------------------------


def _call(prompt: Prompt, name: str) -> ToolCall | None:
    return next((c for c in prompt.tool_calls if c.name == name), None)


def _orders(call: ToolCall | None) -> list[dict[str, Any]]:
    if call is None or not call.ok:
        return []
    data = call.data
    if isinstance(data, dict):
        data = data.get("rows", data.get("orders", []))
    return [row for row in (data or []) if isinstance(row, dict)]


def _customer_phrase(customer: dict[str, Any] | None, fallback: str) -> str:
    if not customer:
        return fallback
    bits = [
        b
        for b in (customer.get("city"), f"acct {customer['account_code']}" if customer.get("account_code") else "")
        if b
    ]
    return f"{customer.get('name', fallback)} ({', '.join(bits)})" if bits else str(customer.get("name", fallback))


# --- conflicts between a recalled note and the corpus -------------------------------------------

_NET_DAYS = re.compile(r"\bnet[\s-]*(\d{1,3})\b|\b(\d{1,3})[\s-]*days?\b", re.IGNORECASE)


def _name_words(name: str) -> set[str]:
    generic = {"the", "and", "co", "inc", "group", "company", "services", "supply"}
    return {w for w in re.findall(r"[a-z0-9]+", name.lower()) if len(w) > 2 and w not in generic}


def _note_month(note: Any) -> str:
    when = getattr(note, "source_at", None) or note.written_at
    when = timezone.localtime(when) if timezone.is_aware(when) else when
    today = timezone.localdate()
    return f"{when:%B}" if when.year == today.year else f"{when:%B %Y}"


def payment_term_conflicts(prompt: Prompt) -> list[tuple[Any, str]]:
    """Recalled notes that state different payment terms for the customer whose contract is in
    the tool results, each with the sentence that says so. The contract wins (chapter 93)."""
    call = _call(prompt, "contract_terms")
    if call is None or not call.ok or not isinstance(call.data, dict):
        return []
    contract = call.data
    days = contract.get("payment_days")
    if days is None:
        match = _NET_DAYS.search(str(contract.get("payment_terms", "")))
        days = int(match.group(1) or match.group(2)) if match else None
    if days is None:
        return []
    customer = contract.get("customer")
    customer_name = str(customer.get("name", "") if isinstance(customer, dict) else customer or prompt.focus_label)
    name_words = _name_words(customer_name)
    out = []
    for note in prompt.notes:
        statement = note.statement
        if not re.search(r"\b(net|terms|payment|pays|days)\b", statement, re.IGNORECASE):
            continue
        match = _NET_DAYS.search(statement)
        if not match:
            continue
        noted_days = int(match.group(1) or match.group(2))
        note_words = set(re.findall(r"[a-z0-9]+", statement.lower()))
        # The note must be about this customer: every distinctive word of its name.
        if not name_words or not name_words <= note_words:
            continue
        if noted_days != int(days):
            out.append(
                (note, f"A note from {_note_month(note)} said net {noted_days}, which no longer matches the contract.")
            )
    return out


# --- the offline responder ----------------------------------------------------------------------


class OfflineResponder:
    """Deterministic answers composed from the prompt's tool results and passages."""

    name = "offline"

    def respond(self, prompt: Prompt) -> Answer:
        style = style_from(prompt)
        customer_call = _call(prompt, "lookup_customer")
        customer = (
            customer_call.data if customer_call and customer_call.ok and isinstance(customer_call.data, dict) else None
        )
        who = _customer_phrase(customer, prompt.focus_label)
        sections: list[str] = []

        contract_call = _call(prompt, "contract_terms")
        if contract_call is not None and contract_call.ok and isinstance(contract_call.data, dict):
            data = contract_call.data
            if customer is None and isinstance(data.get("customer"), str):
                who = _customer_phrase(
                    {"name": data["customer"], "city": data.get("city"), "account_code": data.get("account_code")}, who
                )
            sections.append(self._contract(data, who, style))
        orders_call = _call(prompt, "list_orders")
        if orders_call is not None:
            sections.append(self._orders(orders_call, who, prompt, style))
        if not sections and customer is not None:
            sections.append(self._customer(customer, style))
        if not sections or style.format == "detailed":
            passages = self._passages(prompt, style)
            if passages:
                sections.append(passages)
        if not sections:
            sections.append(
                "I couldn't find anything in the company's records that answers that. "
                "Try naming the customer, an order number or a document."
            )

        conflicts = payment_term_conflicts(prompt)
        influences: dict[int, str] = {}
        for note in prompt.notes:
            influences[note.memory_id] = SHAPED_FORMAT if note.memory_id in style.shaped_by else IN_CONTEXT
        if conflicts:
            sections.append(" ".join(sentence for _, sentence in conflicts))
        if style.currency_wanted:
            sections.append(
                f"Amounts are shown in {_data_currency(prompt)} as recorded; "
                f"Atlas has no exchange rates to show them in {style.currency_wanted}."
            )
        return Answer(text="\n\n".join(s for s in sections if s).strip(), influences=influences, responder=self.name)

    # Each part answers from one tool result.

    def _customer(self, customer: dict[str, Any], style: Style) -> str:
        name = customer.get("name", "")
        region = str(customer.get("region", "")).title()
        if style.format == "short":
            return f"{name}: {customer.get('city', '')}, {region} region, acct {customer.get('account_code', '')}."
        facts = [
            ("Account code", str(customer.get("account_code", ""))),
            ("City", str(customer.get("city", ""))),
            ("Region", region),
            ("Segment", str(customer.get("segment", ""))),
        ]
        if style.format == "table":
            return _table(["Field", "Value"], [[k, v] for k, v in facts if v])
        if style.format == "detailed" or style.bullets:
            return f"{name}:\n" + _lines([f"{k}: {v}" for k, v in facts if v], style)
        return (
            f"{name} is a {customer.get('segment', '')} customer in {customer.get('city', '')} "
            f"({region} region), account {customer.get('account_code', '')}."
        )

    def _contract(self, contract: dict[str, Any], who: str, style: Style) -> str:
        terms = contract.get("payment_terms", "")
        days = contract.get("payment_days")
        renewal = fmt_date(contract.get("renewal_date"), style)
        limit = fmt_money(contract.get("credit_limit"), str(contract.get("currency", "USD")), style)
        if style.format == "short":
            return f"{who}: {terms}, renews {renewal}, credit limit {limit}."
        rows = [
            ["Payment terms", f"{terms}" + (f" ({days} days)" if days else "")],
            ["Renewal date", renewal],
            ["Credit limit", limit],
        ]
        if contract.get("signed_on"):
            rows.append(["Signed", fmt_date(contract.get("signed_on"), style)])
        if style.format == "table":
            return f"{who}\n" + _table(["Contract", "Value"], rows)
        if style.format == "detailed" or style.bullets:
            return f"{who}, current contract:\n" + _lines([f"{k}: {v}" for k, v in rows], style)
        return (
            f"{who} pays on {terms}" + (f" ({days} days)" if days else "") + f". The contract renews on {renewal}"
            f" and the credit limit is {limit}."
        )

    def _orders(self, call: ToolCall, who: str, prompt: Prompt, style: Style) -> str:
        orders = _orders(call)
        scope = _scope_phrase(call.args, who)
        if not call.ok or not orders:
            status = f"{call.args['status']} " if call.args.get("status") else ""
            return f"No {status}orders found for {scope}."
        data = call.data if isinstance(call.data, dict) else {}
        summary_data = data.get("totals") or {}
        count = int(summary_data.get("count", len(orders)))
        if summary_data.get("sum") is not None:
            total = fmt_money(summary_data["sum"], str(summary_data.get("currency", "USD")), style)
        else:
            sums: dict[str, Decimal] = {}
            for order in orders:
                currency = str(order.get("currency", "USD"))
                sums[currency] = sums.get(currency, Decimal(0)) + Decimal(str(order.get("amount", 0)))
            total = ", ".join(fmt_money(v, k, style) for k, v in sums.items())
        noun = "order" if count == 1 else "orders"
        if call.args.get("status"):
            noun = f"{call.args['status']} {noun}"
        summary = f"{count} {noun} for {scope}, totalling {total}."
        by_status = summary_data.get("by_status") or {}
        if len(by_status) > 1 and style.format != "short":
            summary += " By status: " + ", ".join(f"{v['count']} {k}" for k, v in sorted(by_status.items())) + "."
        if style.format == "short":
            return summary
        show = orders[: 10 if style.format in ("table", "detailed") else 5]
        if style.format == "table":
            rows = [
                [
                    str(o.get("number", "")),
                    *([str(o.get("customer", ""))] if not call.args.get("customer_id") else []),
                    fmt_date(o.get("ordered_on"), style),
                    fmt_money(o.get("amount"), str(o.get("currency", "USD")), style),
                    str(o.get("status", "")),
                ]
                for o in show
            ]
            header = ["Order", *(["Customer"] if not call.args.get("customer_id") else []), "Date", "Amount", "Status"]
            return summary + "\n\n" + _table(header, rows)
        items = [
            f"{o.get('number', '')}"
            + (f" ({o.get('customer')})" if o.get("customer") and not call.args.get("customer_id") else "")
            + f", {fmt_date(o.get('ordered_on'), style)}, "
            f"{fmt_money(o.get('amount'), str(o.get('currency', 'USD')), style)}, {o.get('status', '')}"
            for o in show
        ]
        return summary + "\n" + _lines(items, style)

    def _passages(self, prompt: Prompt, style: Style) -> str:
        limit = 1 if style.format == "short" else 3 if style.format == "detailed" else 2
        question_words = set(re.findall(r"[a-z0-9]+", prompt.question.lower()))
        parts = []
        for passage in prompt.passages[:limit]:
            sentences = re.split(r"(?<=[.!?])\s+", passage.text.strip())
            ranked = sorted(
                range(len(sentences)),
                key=lambda i: (-len(question_words & set(re.findall(r"[a-z0-9]+", sentences[i].lower()))), i),
            )
            keep = sorted(ranked[: 1 if style.format == "short" else 2])
            parts.append(f'From "{passage.title}": ' + " ".join(sentences[i] for i in keep))
        if not parts:
            return ""
        if len(parts) > 1 and (style.bullets or style.format == "detailed"):
            return _lines(parts, style)
        return "\n\n".join(parts)


def _scope_phrase(args: dict[str, Any], who: str) -> str:
    scope = who if args.get("customer_id") else "all customers"
    if args.get("region"):
        scope += f" in the {str(args['region']).title()} region"
    if args.get("period"):
        scope += f", {args['period']}"
    return scope


# --- an OpenAI-compatible endpoint ---------------------------------------------------------------


class OpenAICompatibleResponder:
    """Sends the assembled prompt to ``<ATLAS_LLM_BASE_URL>/chat/completions``."""

    name = "openai-compatible"

    def __init__(self, *, base_url: str, model: str, api_key: str = "", timeout: float = 30.0) -> None:
        self.url = base_url.rstrip("/") + "/chat/completions"
        self.model = model
        self.api_key = api_key
        self.timeout = timeout

    def respond(self, prompt: Prompt) -> Answer:
        body = json.dumps({"model": self.model, "messages": prompt.messages(), "temperature": 0}).encode()
        headers = {"Content-Type": "application/json"}
        if self.api_key:
            headers["Authorization"] = f"Bearer {self.api_key}"
        request = urllib.request.Request(self.url, data=body, headers=headers, method="POST")
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as response:  # noqa: S310 (configured URL)
                reply = json.load(response)
            text = reply["choices"][0]["message"]["content"]
        except urllib.error.HTTPError as exc:
            raise ResponderError(f"The language model endpoint answered {exc.code} {exc.reason}.") from exc
        except (OSError, KeyError, IndexError, TypeError, ValueError) as exc:
            raise ResponderError(f"The language model endpoint failed: {exc}") from exc
        if not isinstance(text, str) or not text.strip():
            raise ResponderError("The language model endpoint returned an empty answer.")
        influences = {note.memory_id: IN_CONTEXT for note in prompt.notes}
        return Answer(text=text.strip(), influences=influences, responder=self.name)


def get_responder() -> Responder:
    """The OpenAI-compatible responder when ``ATLAS_LLM_BASE_URL`` is set, else the offline one."""
    base_url = getattr(settings, "ATLAS_LLM_BASE_URL", "") or ""
    if base_url:
        return OpenAICompatibleResponder(
            base_url=base_url,
            model=getattr(settings, "ATLAS_LLM_MODEL", "") or "default",
            api_key=getattr(settings, "ATLAS_LLM_API_KEY", "") or os.environ.get("ATLAS_LLM_API_KEY", ""),
            timeout=float(getattr(settings, "ATLAS_LLM_TIMEOUT", 30)),
        )
    return OfflineResponder()
