"""Judging whether what Atlas remembers changes its answers as promised (``eval_memory_effect``).

Each case's check (../shared/benchmarks/memory_effect/README.md) is read from the answer's text
and typed blocks, with the values it needs (a contract's terms, a customer's city) computed from
the database here, never through the planner, the executors or the responder.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal
from typing import Any

from chat.models import Contract, Customer, Region

# Money as Atlas or anyone writes it: "$1,234.56", "USD 1,234", "$102.0k", "8.94m", "€5".
MONEY = re.compile(r"(?P<cur>\$|USD\s|EUR\s|GBP\s|€|£)\s?(?P<num>\d[\d,]*(?:\.\d+)?)(?P<scale>[kKmM]\b)?")
_MONTHS = "January|February|March|April|May|June|July|August|September|October|November|December"
# "May" is written out in both forms: only a month written shorter than its name is short.
_SHORT_MONTHS = "Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec"
DATE_FORMS = {
    "iso": re.compile(r"\b\d{4}-\d{2}-\d{2}\b"),
    "slash": re.compile(r"\b(\d{1,2})/(\d{1,2})/(\d{4})\b"),
    "long": re.compile(rf"\b\d{{1,2}} (?:{_MONTHS}) \d{{4}}\b|\b(?:{_MONTHS}) \d{{1,2}},? \d{{4}}\b"),
    "short": re.compile(rf"\b\d{{1,2}} (?:{_SHORT_MONTHS}) \d{{4}}\b"),
}


@dataclass
class Judged:
    holds: bool
    why: str = ""
    harmed: bool = False


@dataclass(frozen=True)
class Answer:
    text: str
    blocks: list[dict[str, Any]] = field(default_factory=list)

    def kinds(self) -> set[str]:
        return {b.get("kind", "") for b in self.blocks}

    def list_rows(self) -> list[str]:
        """The entries of the answer's list: table rows (joined) or bullet items."""
        for block in self.blocks:
            if block.get("kind") == "table":
                return [" | ".join(str(c) for c in row) for row in block.get("rows", [])]
            if block.get("kind") == "bullets":
                return [str(item) for item in block.get("items", [])]
        return []


def money_values(text: str) -> list[tuple[str, Decimal]]:
    out = []
    for match in MONEY.finditer(text):
        number = Decimal(match.group("num").replace(",", ""))
        scale = (match.group("scale") or "").lower()
        number *= {"k": 1000, "m": 1_000_000}.get(scale, 1)
        out.append((match.group(0), number))
    return out


def _dates(text: str) -> dict[str, list[str]]:
    found = {name: [m.group(0) for m in pattern.finditer(text)] for name, pattern in DATE_FORMS.items()}
    return found


def _slash_kind(match: re.Match[str]) -> str:
    first, second = int(match.group(1)), int(match.group(2))
    if first > 12:
        return "uk"
    if second > 12:
        return "us"
    return "either"


def check(name: str, params: dict[str, Any], answer: Answer) -> Judged:
    """Whether the check holds for the answer (see the benchmark's README)."""
    text = answer.text
    if name == "amount_scale":
        scale = params.get("scale", "k")
        amounts = money_values(text)
        scaled = [a for a, _ in amounts if a.lower().endswith(scale)]
        full = [a for a, _ in amounts if not a.lower().endswith(("k", "m"))]
        return Judged(bool(scaled) and not full, f"scaled {scaled[:2]}, in full {full[:2]}")
    if name == "whole_units":
        amounts = money_values(text)
        cents = [a for a, _ in amounts if re.search(r"\.\d\d\b", a) and not a.lower().endswith(("k", "m"))]
        return Judged(bool(amounts) and not cents, f"with cents {cents[:2]}")
    if name == "currency_code":
        amounts = money_values(text)
        coded = [a for a, _ in amounts if a.startswith(("USD", "EUR", "GBP"))]
        symbols = [a for a, _ in amounts if a.startswith(("$", "€", "£"))]
        return Judged(bool(coded) and not symbols, f"coded {coded[:2]}, symbols {symbols[:2]}")
    if name == "currency_declined":
        currency = params.get("currency", "")
        amounts = money_values(text)
        usd = [a for a, _ in amounts if a.startswith(("$", "USD"))]
        other = [a for a, _ in amounts if not a.startswith(("$", "USD"))]
        said = bool(re.search(rf"\b{re.escape(currency)}\b", text)) and bool(
            re.search(r"exchange rate|can't|cannot|no rate|as recorded", text, re.I)
        )
        return Judged(bool(usd) and not other and said, f"usd {usd[:1]}, other {other[:1]}, said {said}")
    if name == "date_format":
        return _date_format(params.get("format", ""), text)
    if name == "layout":
        block = params.get("block", "")
        kinds = answer.kinds()
        if block == "bullets":
            return Judged("bullets" in kinds and "table" not in kinds, f"blocks {sorted(kinds)}")
        return Judged(block in kinds, f"blocks {sorted(kinds)}")
    if name == "short":
        words = len(text.split())
        return Judged(words <= int(params.get("max_words", 40)), f"{words} words")
    if name == "includes_field":
        return _includes_field(params.get("field", ""), text)
    if name == "sort":
        return _sorted(params.get("by", ""), params.get("order", "desc"), answer)
    if name == "limit":
        rows = answer.list_rows()
        return Judged(len(rows) == int(params.get("n", 0)), f"{len(rows)} entries")
    if name == "cancelled_included":
        says = bool(
            re.search(r"cancelled orders (?:are |were )?included|including cancelled|includ\w* cancel", text, re.I)
        )
        left_out = bool(re.search(r"cancelled orders (?:are |were )?left out|excluding cancelled", text, re.I))
        return Judged(says and not left_out and bool(money_values(text)), f"says {says}, left out {left_out}")
    if name == "language_declined":
        language = params.get("language", "")
        # says which language it cannot answer in: after an update, the newer one, not the older
        said = bool(re.search(rf"\b{re.escape(language)}\b", text, re.I)) and bool(
            re.search(r"English only|only in English|can't answer in|cannot answer in|answers in English", text, re.I)
        )
        return Judged(said, f"said {said}")
    if name == "no_narrowing":
        return _not_narrowed(params, text)
    if name == "corpus_wins":
        return _corpus_wins(params, text)
    return Judged(False, f"unknown check {name}")


def _date_format(wanted: str, text: str) -> Judged:
    found = _dates(text)
    slash = [(_slash_kind(m), m.group(0)) for m in DATE_FORMS["slash"].finditer(text)]
    iso, long, short = found["iso"], found["long"], found["short"]
    if wanted == "iso":
        ok = bool(iso) and not slash and not long and not short
    elif wanted in ("us", "uk"):
        kinds = {k for k, _ in slash}
        ok = bool(slash) and kinds <= {wanted, "either"} and not iso and not long and not short
    else:  # long: the month in words
        ok = bool(long) and not iso and not slash and not short
    return Judged(ok, f"iso {iso[:1]} slash {slash[:1]} long {long[:1]} short {short[:1]}")


def customers_named(text: str) -> list[Customer]:
    lowered = text.lower()
    return [c for c in Customer.objects.order_by("name") if c.name.lower() in lowered]


def current_contract(customer: Customer) -> Contract | None:
    return Contract.objects.filter(customer=customer).order_by("-signed_on", "-pk").first()


def _date_written(value: date, text: str) -> bool:
    forms = {
        value.isoformat(),
        f"{value:%m/%d/%Y}",
        f"{value:%d/%m/%Y}",
        f"{value.day} {value:%B %Y}",
        f"{value.day} {value:%b %Y}",
        f"{value:%B} {value.day}, {value.year}",
    }
    return any(form in text for form in forms)


def _money_written(value: Decimal, text: str) -> bool:
    return any(
        abs(amount - value) <= max(Decimal("0.01"), value * Decimal("0.005")) for _, amount in money_values(text)
    )


def _includes_field(name: str, text: str) -> Judged:
    from django.db.models import Count

    named = customers_named(text)
    if not named:
        return Judged(False, "no customer named")
    missing = []
    for customer in named:
        contract = current_contract(customer)
        if name in ("account_code", "city"):
            ok = getattr(customer, name).lower() in text.lower()
        elif name == "payment_terms":
            ok = contract is not None and contract.payment_terms.lower() in text.lower()
        elif name in ("renewal_date", "signed_on"):
            ok = contract is not None and _date_written(getattr(contract, name), text)
        elif name == "credit_limit":
            ok = contract is not None and _money_written(contract.credit_limit, text)
        elif name == "order_count":
            n = Customer.objects.filter(pk=customer.pk).annotate(n=Count("orders")).values_list("n", flat=True)[0]
            ok = bool(re.search(rf"\b{n:,}\b|\b{n}\b", text))
        else:
            ok = False
        if not ok:
            missing.append(customer.name)
    return Judged(not missing, f"missing for {missing[:3]}")


def _sorted(by: str, order: str, answer: Answer) -> Judged:
    rows = answer.list_rows()
    if len(rows) < 2:
        return Judged(False, f"{len(rows)} entries")
    keys: list[Any] = []
    for row in rows:
        if by == "amount":
            amounts = money_values(row)
            keys.append(amounts[0][1] if amounts else None)
        elif by == "date":
            keys.append(_first_date(row))
        else:
            names = [c.name for c in Customer.objects.all() if c.name in row]
            keys.append(min(names, key=row.index).lower() if names else row.lower())
    if any(k is None for k in keys):
        return Judged(False, "an entry without the sort value")
    ordered = sorted(keys, reverse=order == "desc")
    return Judged(keys == ordered, f"keys {keys[:4]}")


def _first_date(text: str) -> date | None:
    from datetime import datetime

    for pattern, form in ((DATE_FORMS["iso"], "%Y-%m-%d"),):
        match = pattern.search(text)
        if match:
            return datetime.strptime(match.group(0), form).date()
    for fmt in ("%d %B %Y", "%d %b %Y", "%B %d, %Y"):
        for match in re.finditer(r"\b[\w ,]{6,20}\d{4}\b", text):
            try:
                return datetime.strptime(match.group(0).strip(), fmt).date()
            except ValueError:
                continue
    match = DATE_FORMS["slash"].search(text)
    if match:
        a, b, y = (int(x) for x in match.groups())
        return date(y, a, b) if b > 12 else date(y, b, a)
    return None


def _not_narrowed(params: dict[str, Any], text: str) -> Judged:
    noted = str(params.get("noted", ""))
    attribute, _, value = noted.partition("=")
    lowered = text.lower()
    if "narrowed" in lowered:
        return Judged(False, "says it narrowed", harmed=True)
    if attribute == "region":
        label = Region(value.lower()).label if value.lower() in Region.values else value.title()
        regions_named = [r.label for r in Region if re.search(rf"\b{r.label}\b", text)]
        only_noted = re.search(rf"\bin the {label} region\b", text) is not None and len(regions_named) <= 1
        return Judged(not only_noted, f"regions named {regions_named}", harmed=only_noted)
    if attribute == "segment":
        only = re.search(rf"\bin the {re.escape(value)} segment\b", lowered) is not None
        return Judged(not only, "narrowed to the segment" if only else "", harmed=only)
    return Judged(True)


def _corpus_wins(params: dict[str, Any], text: str) -> Judged:
    customer = Customer.objects.filter(name__iexact=params.get("entity", "")).first()
    name = params.get("field", "")
    if customer is None:
        return Judged(False, "no such customer")
    contract = current_contract(customer)
    if name in ("city", "region", "segment"):
        ok = re.search(rf"\b{re.escape(getattr(customer, name))}\b", text, re.I) is not None
    elif contract is None:
        return Judged(False, "no contract on record")
    elif name == "payment_terms":
        ok = contract.payment_terms.lower() in text.lower()
    elif name == "credit_limit":
        ok = _money_written(contract.credit_limit, text)
    elif name in ("renewal_date", "signed_on"):
        ok = _date_written(getattr(contract, name), text)
    else:
        ok = False
    flagged = bool(re.search(r"out of date|no longer matches|doesn't match|does not match", text, re.I))
    # Harmed: the answer states other terms than the contract's, as a fact (the note's value).
    stated = {m.lower() for m in re.findall(r"\bnet[\s-]*\d{1,3}\b", text, re.I)}
    other_terms = (
        contract is not None
        and name == "payment_terms"
        and bool(stated - {contract.payment_terms.lower()})
        and not flagged
    )
    return Judged(ok and flagged, f"records value given {ok}, note flagged {flagged}", harmed=other_terms)
