"""The planner's vocabulary: words that name what a question asks, defined once, as data.

Two halves. The fixed half below maps the words people use (lemmas, as the language
pipeline gives them) to the slots of a query plan: statuses, regions, subjects, measures,
fields, periods and the topics Atlas has no records for. The corpus half
(:func:`corpus_vocabulary`) is read from the database: the cities and segments the
customers actually have, cached per process and rebuilt only when the customer table
changes (the customer names themselves live in :func:`chat.tools.customer_index`).
"""

from __future__ import annotations

import threading
from dataclasses import dataclass

from atlas.vocabulary import NUMBER_WORDS as SHARED_NUMBER_WORDS
from chat.models import Customer, OrderStatus, Region

# --- slots ------------------------------------------------------------------------------------

STATUS_WORDS: dict[str, str] = {
    "open": OrderStatus.OPEN,
    "outstanding": OrderStatus.OPEN,
    "pending": OrderStatus.OPEN,
    "shipped": OrderStatus.SHIPPED,
    "ship": OrderStatus.SHIPPED,
    "delivered": OrderStatus.SHIPPED,
    "deliver": OrderStatus.SHIPPED,
    "overdue": OrderStatus.OVERDUE,
    "late": OrderStatus.OVERDUE,
    "unpaid": OrderStatus.OVERDUE,
    "cancelled": OrderStatus.CANCELLED,
    "canceled": OrderStatus.CANCELLED,
    "cancel": OrderStatus.CANCELLED,
    "paid": OrderStatus.PAID,
    "settled": OrderStatus.PAID,
}
# Two-word spellings, matched on the lowered text before single words.
STATUS_PHRASES: dict[str, str] = {"past due": OrderStatus.OVERDUE, "not paid": OrderStatus.OVERDUE}

REGION_WORDS: dict[str, str] = {
    "west": Region.WEST,
    "western": Region.WEST,
    "east": Region.EAST,
    "eastern": Region.EAST,
    "north": Region.NORTH,
    "northern": Region.NORTH,
    "south": Region.SOUTH,
    "southern": Region.SOUTH,
    "central": Region.CENTRAL,
    "midwest": Region.CENTRAL,
}

# What a question is about, by the lemma of its nouns.
SUBJECT_WORDS: dict[str, str] = {
    "order": "orders",
    "sale": "orders",
    "sales": "orders",
    "revenue": "orders",
    "purchase": "orders",
    "buy": "orders",
    "invoice": "orders",
    "spend": "orders",
    "business": "orders",
    "customer": "customers",
    "client": "customers",
    "account": "customers",
    "contract": "contracts",
    "renewal": "contracts",
    "renew": "contracts",
    "document": "documents",
    "memo": "documents",
    "policy": "documents",
    "note": "documents",
    "doc": "documents",
    # Questions about how things are done are answered by the policy documents.
    "happen": "documents",
    "procedure": "documents",
    "rule": "documents",
    "approve": "documents",
    "approval": "documents",
    "allow": "documents",
}
# Words that make an orders question one about money (sum, or rank by value).
MONEY_WORDS = frozenset(
    {"revenue", "sale", "sales", "value", "spend", "amount", "money", "worth", "dollar", "size", "total", "much"}
)

# Nouns that name money coming in: on their own they ask for a total.
REVENUE_WORDS = frozenset({"revenue", "sale", "sales", "spend", "spending", "turnover", "income"})

# What is computed.
COUNT_WORDS = frozenset({"count", "number"})
SUM_WORDS = frozenset({"total", "sum", "altogether", "combined"})
AVERAGE_WORDS = frozenset({"average", "mean", "avg", "typical"})
TOP_WORDS = frozenset({"top", "biggest", "largest", "highest", "most", "best", "big", "large", "high", "leading"})
BOTTOM_WORDS = frozenset({"bottom", "smallest", "lowest", "least", "worst", "small", "low"})
LIST_WORDS = frozenset({"list", "show", "which", "name", "display", "give", "who", "what", "find", "see"})
COMPARE_WORDS = frozenset({"compare", "versus", "vs", "against", "comparison"})
GROUP_WORDS: dict[str, str] = {
    "customer": "customer",
    "client": "customer",
    "account": "customer",
    "region": "region",
    "segment": "segment",
    "status": "status",
    "month": "month",
}
NUMBER_WORDS = SHARED_NUMBER_WORDS
MORE_THAN = frozenset({"more", "over", "above", "greater", "exceed", "exceeding", "least", "bigger", "larger"})
LESS_THAN = frozenset({"less", "under", "below", "fewer", "smaller"})
# A scale word the tokenizer splits from its number: "$5m", "$1.5 million", "2 thousand".
AMOUNT_SCALES = {"k": 1000, "thousand": 1000, "m": 1_000_000, "million": 1_000_000}

# Fields a single record has: (subject, field) by the words that ask for it.
CUSTOMER_FIELDS: dict[str, str] = {
    "segment": "segment",
    "city": "city",
    "based": "city",
    "located": "city",
    "where": "city",
    "region": "region",
    "territory": "region",
    "code": "account_code",
}
CONTRACT_FIELDS: dict[str, str] = {
    "term": "payment_terms",
    "terms": "payment_terms",
    "net": "payment_terms",
    "credit": "credit_limit",
    "limit": "credit_limit",
    "renew": "renewal_date",
    "renewal": "renewal_date",
    "sign": "signed_on",
    "signed": "signed_on",
}
FIELD_LABELS: dict[str, str] = {
    "segment": "segment",
    "city": "city",
    "region": "region",
    "account_code": "account code",
    "payment_terms": "payment terms",
    "credit_limit": "credit limit",
    "renewal_date": "renewal date",
    "signed_on": "signing date",
}

# Periods: the words around a unit.
PERIOD_UNITS = frozenset({"day", "week", "month", "quarter", "year"})
PERIOD_PAST = frozenset({"last", "previous", "past", "prior", "recent"})
PERIOD_CURRENT = frozenset({"this", "current"})
PERIOD_FUTURE = frozenset({"next", "coming", "upcoming"})
ORDINALS: dict[str, int] = {"first": 1, "second": 2, "third": 3, "fourth": 4, "1st": 1, "2nd": 2, "3rd": 3, "4th": 4}

# Answer formats (the session's format slot), by phrase.
FORMAT_WORDS: dict[str, str] = {
    "table": "table",
    "tabular": "table",
    "tabulate": "table",
    "detail": "detailed",
    "detailed": "detailed",
    "depth": "detailed",
    "elaborate": "detailed",
    "short": "short",
    "brief": "short",
    "briefly": "short",
    "concise": "short",
    "tl;dr": "short",
}

# --- what Atlas has no records for -------------------------------------------------------------

# Each entry: lemma -> the abstention kind. "forecast" is a prediction; "outside" is not about
# the business records at all; "no-field" is a fact about a customer the records do not hold.
OUT_OF_SCOPE: dict[str, str] = {
    "forecast": "forecast",
    "predict": "forecast",
    "prediction": "forecast",
    "projection": "forecast",
    "project": "forecast",
    "expect": "forecast",
    "estimate": "forecast",
    "translate": "outside",
    "translation": "outside",
    "weather": "outside",
    "temperature": "outside",
    "rain": "outside",
    "joke": "outside",
    "poem": "outside",
    "recipe": "outside",
    "news": "outside",
    "capital": "outside",
    "found": "no-field",
    "ceo": "no-field",
    "founder": "no-field",
    "owner": "no-field",
    "president": "no-field",
    "director": "no-field",
    "manager": "no-field",
    "employee": "no-field",
    "staff": "no-field",
    "headcount": "no-field",
    "worker": "no-field",
    "share": "no-field",
    "stock": "no-field",
    "price": "no-field",
    "profit": "no-field",
    "margin": "no-field",
    "salary": "no-field",
    "email": "no-field",
    "website": "no-field",
    "address": "no-field",
    "rating": "no-field",
    "competitor": "no-field",
    "inventory": "no-field",
    "product": "no-field",
    "sku": "no-field",
}

# Entries above that are out of scope only as nouns ("share price", not "customers that share a segment").
OUT_OF_SCOPE_NOUNS_ONLY = frozenset({"share", "stock", "price", "project", "capital", "rating", "estimate"})

# Nouns a question about the records may carry without changing what is asked.
NEUTRAL_NOUNS = frozenset(
    {
        "size", "value", "amount", "total", "sum", "number", "count", "average", "detail", "table", "list",
        "date", "time", "period", "day", "week", "month", "quarter", "year", "ytd", "end", "start", "today",
        "status", "region", "segment", "city", "area", "territory", "name", "term", "terms", "limit", "credit",
        "payment", "record", "data", "figure", "breakdown", "rank", "ranking", "top", "bottom", "lot", "one",
        "ones", "thing", "anything", "everything", "info", "information", "overview", "summary", "history",
        "us", "we", "company", "side", "book", "books", "money", "dollar", "spending", "code", "acct",
        "deal", "activity", "bit", "way", "phone", "form", "format", "point", "bullet", "version", "window",
        "line", "place", "buy", "owe", "due", "bring", "make", "run", "pull", "look", "check", "set", "hand",
        "mind",
        "biggest", "largest", "kind", "type", "level", "people", "who", "what", "q1", "q2", "q3", "q4",
    }
)  # fmt: skip

FORECAST_REASON = "forecast"
OUTSIDE_REASON = "outside"
NO_FIELD_REASON = "no-field"
NO_PLAN_REASON = "no-plan"
UNKNOWN_CUSTOMER_REASON = "unknown-customer"
NEEDS_CUSTOMER_REASON = "needs-customer"


# --- the corpus half ---------------------------------------------------------------------------


@dataclass(frozen=True)
class CorpusVocabulary:
    signature: tuple
    cities: dict[tuple[str, ...], str]  # lowered words -> the city as stored
    segments: dict[tuple[str, ...], str]
    longest: int
    words: frozenset[str] = frozenset()  # every word of every city and segment


_lock = threading.Lock()
_vocabulary: CorpusVocabulary | None = None


def corpus_vocabulary() -> CorpusVocabulary:
    """Cities and segments of the customers on record, rebuilt when the customer table changes."""
    from chat.tools import customer_index

    global _vocabulary
    signature = customer_index().signature
    current = _vocabulary
    if current is not None and current.signature == signature:
        return current
    with _lock:
        rows = list(Customer.objects.values_list("city", "segment").distinct())
        cities = {tuple(c.lower().replace(".", "").split()): c for c, _ in rows}
        segments = {tuple(s.lower().replace("-", " ").split()): s for _, s in rows}
        longest = max((len(k) for k in (*cities, *segments)), default=1)
        words = frozenset(w for key in (*cities, *segments) for w in key)
        _vocabulary = CorpusVocabulary(signature, cities, segments, longest, words)
        return _vocabulary


def clear_corpus_vocabulary() -> None:
    global _vocabulary
    _vocabulary = None
